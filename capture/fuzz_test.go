package capture

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/kafkagrid/kafkagrid/capture/capturetest"
	"github.com/kafkagrid/kafkagrid/kafka"
)

// FuzzParseHex: any text either reads or is an error naming where; never a panic.
func FuzzParseHex(f *testing.F) {
	f.Add("00000000: 0000 002a 0012 0004 0000 0007 0009 6b61  ...*..........ka\n00000010: 666b 6167 7269 64                        fkagrid\n")
	f.Add("00000000  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |................|\n*\n00000030  01                                                |.|\n00000031\n")
	f.Add("0000   00 00 00 2a 00 12 00 04 00 00 00 07 00 09 6b 61   ...*..........ka\n")
	f.Add(`"\x00\x00\x00\x2a" \` + "\n" + `"\x66\x6b"`)
	f.Add("0x00, 0x2a, 0x6b")
	f.Fuzz(func(t *testing.T, s string) {
		b, err := ParseHex([]byte(s))
		if err == nil && len(b) == 0 {
			t.Fatal("no bytes and no error")
		}
	})
}

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

// FuzzParseText: any text, in any form asked, reads to some bytes or is a *TextError with a
// line and column inside the text and at most one line quoted, cut at 80 characters; what
// reads auto-detected reads with its form forced. Seeded with every form of
// testdata/forms and the real frames of ../testdata/real-frames and ../shared/real-frames.
func FuzzParseText(f *testing.F) {
	for _, dir := range []string{filepath.Join("testdata", "forms"), filepath.Join("..", "testdata", "real-frames"), filepath.Join("..", "..", "shared", "real-frames")} {
		files, _ := os.ReadDir(dir)
		for _, e := range files {
			if b, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil && LooksLikeText(b) && len(b) < 8<<10 {
				f.Add(string(b), uint8(0))
			}
		}
	}
	f.Add("00000000  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |................|\n*\n00000030\n", uint8(2))
	f.Add("[tester::#GS0] 0000 | 00 01 | ..\n", uint8(0))
	f.Add("<<1::16, -1::32, 16#ff, $a, \"ab\"::binary, 7:8/little>>", uint8(0))
	f.Add("x = b\"\".join([struct.pack('>h3s', 3, b\"cid\"),# id\n struct.pack('<iq', -1, len('ab'))])", uint8(3))
	f.Add("*** header\nHex Stream: 0000002a\n00:01:  # a\n", uint8(0))
	f.Fuzz(func(t *testing.T, s string, which uint8) {
		forms := append([]Form{FormAuto}, Forms...)
		from := forms[int(which)%len(forms)]
		got, err := ParseText([]byte(s), from)
		if err != nil {
			te, ok := err.(*TextError)
			if !ok {
				t.Fatalf("%T: %v", err, err)
			}
			lines := strings.Count(strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n"), "\n") + 1 // a lone CR ends a line too
			if te.Line < 1 || te.Col < 1 || te.Line > lines || strings.Contains(te.Quote, "\n") || utf8.RuneCountInString(te.Quote) > maxQuote+2 {
				t.Fatalf("bad position or quote: %+v", te)
			}
			return
		}
		if len(got.Bytes) == 0 {
			t.Fatal("no bytes and no error")
		}
		if got.Form == FormDump && bytes.Count([]byte(s), []byte("*")) > 0 && len(got.Bytes) > len(s)+MaxRepeat {
			t.Fatalf("%d bytes from %d of text", len(got.Bytes), len(s))
		}
		if from == FormAuto {
			// Forced, a form is read less strictly (base64 in any layout): it reads too,
			// though not always the same paragraphs.
			if _, err := ParseText([]byte(s), got.Form); err != nil {
				t.Fatalf("auto read %s (%d bytes); forced: %v", got.Form, len(got.Bytes), err)
			}
		}
	})
}
