package capture

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/capture/capturetest"
	"github.com/kafkagrid/kafkagrid/kafka"
)

// FuzzRead: any input (a capture, hex, frames) reads without a panic, within the limits,
// seeded with real captures of the examples (pcap and pcapng, segments cut small and out of
// order), hex and frames.
func FuzzRead(f *testing.F) {
	cat := testCatalog(f)
	one := []capturetest.Endpoints{{Client: client, Server: server}}
	chunks := examplePairs(f, kafka.VectorOptions{Compression: kafka.CodecGzip})[:2] // small seeds: the fuzzer minimizes what it finds, slowly for large inputs
	f.Add(pcapOf(f, one, chunks, capturetest.Options{MSS: 64, Reorder: 3, Retransmit: 4}))
	f.Add(pcapOf(f, one, chunks, capturetest.Options{NG: true, NoSYN: true}))
	var frames []byte
	for _, c := range chunks {
		frames = append(frames, c.Data...)
	}
	f.Add(frames)
	f.Add([]byte("00 00 00 0a 00 12 00 04 00 00 00 01 ff ff 00"))
	// Real captures of Linux cooked links, cut to their first packets, one with records longer
	// than their packets (incl_len > orig_len).
	for _, name := range []string{"kfake-sll.pcap", "kfake-sll2.pcap"} {
		data, err := os.ReadFile(filepath.Join("testdata", "links", name))
		if err != nil {
			f.Fatal(err)
		}
		cut, n := 24, 0
		for ; n < 10 && cut+16 <= len(data); n++ {
			cut += 16 + int(binary.LittleEndian.Uint32(data[cut+8:]))
		}
		f.Add(data[:cut])
		longer := slices.Clone(data[:cut])
		binary.LittleEndian.PutUint32(longer[24+12:], binary.LittleEndian.Uint32(longer[24+8:])-16)
		f.Add(longer)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		o := Options{MaxFrame: 1 << 16, MaxDecompressed: 1 << 16}
		r, err := Read(cat, data, o)
		// Stream reads the same frames as Read, each once, within its own limits.
		streamed := 0
		sr, serr := Stream(cat, bytes.NewReader(data), o, func(c *Conn, e *Exchange) error {
			if e.Request == nil && e.Response == nil {
				t.Fatal("an empty exchange")
			}
			for _, m := range []*Message{e.Request, e.Response} {
				if m != nil {
					streamed++
				}
			}
			return nil
		})
		if (err == nil) != (serr == nil) {
			t.Fatalf("Read: %v; Stream: %v", err, serr)
		}
		if err != nil {
			return
		}
		if all, _ := r.Frames(); all != streamed && r.Unlisted == 0 && !strings.Contains(allNotes(r), "decoding stopped at the limit") {
			t.Fatalf("Read has %d frames, Stream %d", all, streamed)
		}
		if sr.Kind != r.Kind || sr.Packets != r.Packets || len(sr.Conns) != len(r.Conns) {
			t.Fatalf("Stream's summary %s %d packets %d conns; Read's %s %d %d", sr.Kind, sr.Packets, len(sr.Conns), r.Kind, r.Packets, len(r.Conns))
		}
		for _, c := range r.Conns {
			for _, e := range c.Exchanges {
				for _, m := range []*Message{e.Request, e.Response} {
					if m != nil && len(m.Bytes) > 4+(1<<16) {
						t.Fatalf("a %d-byte frame passed the limit", len(m.Bytes))
					}
					if m != nil && m.Frame != nil && !bytes.Equal(m.Frame.Bytes, m.Bytes) {
						t.Fatal("frame bytes differ from the message's")
					}
				}
			}
		}
	})
}
