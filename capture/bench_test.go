package capture

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"testing"

	"github.com/kafkagrid/kafkagrid/capture/capturetest"
	"github.com/kafkagrid/kafkagrid/kafka"
)

// benchCapture is a pcap of 10,000 frames: the 4.0 example requests and responses (every API,
// the record batches compressed with zstd) cycled over 10 connections, in 1460-byte segments.
func benchCapture(tb testing.TB) []byte {
	tb.Helper()
	pairs := examplePairs(tb, kafka.VectorOptions{Compression: kafka.CodecZstd})
	var ends []capturetest.Endpoints
	for i := range 10 {
		ends = append(ends, capturetest.Endpoints{Client: netipPort(client, uint16(40000+i)), Server: server})
	}
	var chunks []capturetest.Chunk
	for i := 0; len(chunks) < 10000; i++ {
		for _, c := range pairs[2*(i%(len(pairs)/2)) : 2*(i%(len(pairs)/2))+2] {
			c.Conn = i % len(ends)
			chunks = append(chunks, c)
		}
	}
	return pcapOf(tb, ends, chunks, capturetest.Options{})
}

// BenchmarkRead decodes the 10,000-frame capture into annotated trees, pairing every
// response: frames/s and allocations per frame.
func BenchmarkRead(b *testing.B) {
	cat := testCatalog(b)
	data := benchCapture(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	frames := 0
	for b.Loop() {
		r, err := Read(cat, data, Options{})
		if err != nil {
			b.Fatal(err)
		}
		all, ok := r.Frames()
		if all != 10000 || ok != all {
			b.Fatalf("%d frames, %d decoded", all, ok)
		}
		frames += all
	}
	b.ReportMetric(float64(frames)/b.Elapsed().Seconds(), "frames/s")
}

var (
	benchOut   = flag.String("benchcapture", "", "write the capture of BenchmarkRead to `FILE` (to time tshark on the same bytes)")
	clientOut  = flag.String("clientcapture", "", "write the client capture of BenchmarkStream to `FILE`, at -clientscale times 10,000 frames")
	clientSize = flag.Int("clientscale", 1, "the size of -clientcapture, in `N` times 10,000 frames")
)

// TestBenchCapture writes the benchmark's capture when -benchcapture names a file, and the
// client capture of BenchmarkStream when -clientcapture does:
// go test ./capture -run BenchCapture -benchcapture /tmp/bench.pcap
// go test ./capture -run BenchCapture -clientcapture /tmp/client10.pcap -clientscale 10
func TestBenchCapture(t *testing.T) {
	if *benchOut == "" && *clientOut == "" {
		t.Skip("no -benchcapture FILE or -clientcapture FILE")
	}
	if *benchOut != "" {
		if err := os.WriteFile(*benchOut, benchCapture(t), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if *clientOut != "" {
		data, frames := clientCapture(t, *clientSize)
		if err := os.WriteFile(*clientOut, data, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d frames, %d bytes", *clientOut, frames, len(data))
	}
}

// clientCapture is capturetest.ClientCapture of about scale times 10,000 frames, checked
// against what Read finds in one round.
func clientCapture(tb testing.TB, scale int) ([]byte, int) {
	data, frames, err := capturetest.ClientCapture(scale*10000, capturetest.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	ends, chunks, _ := capturetest.ClientTraffic()
	one, err := capturetest.Repeated(ends, chunks, 1, capturetest.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	r, err := Read(testCatalog(tb), one, Options{})
	if err != nil {
		tb.Fatal(err)
	}
	if all, ok := r.Frames(); all != capturetest.Frames(chunks) || ok != all {
		tb.Fatalf("Read finds %d frames (%d decoded) in a round, capturetest.Frames %d", all, ok, capturetest.Frames(chunks))
	}
	return data, frames
}

// BenchmarkStream decodes the client capture as Stream reads it, at 1× (about 10,000 frames)
// and 10× (about 100,000) on the same connections: time per frame the same at both sizes,
// and memory flat (B/op grows with the frames decoded; what is live at once does not: see
// TestStreamMemoryFlat). Each exchange's frames are written as text, as kafkagrid decode does,
// to io.Discard: "serial" is Stream with the zero Options, "recycle" with Options.Recycle, as
// kafkagrid decode reads a capture.
func BenchmarkStream(b *testing.B) {
	cat := testCatalog(b)
	for _, scale := range []int{1, 10} {
		data, frames := clientCapture(b, scale)
		for _, mode := range []struct {
			name string
			o    Options
		}{{"serial", Options{}}, {"recycle", Options{Recycle: true}}} {
			b.Run(fmt.Sprintf("%dx/%s", scale, mode.name), func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				n := 0
				for b.Loop() {
					_, err := Stream(cat, bytes.NewReader(data), mode.o, func(c *Conn, e *Exchange) error {
						for _, m := range []*Message{e.Request, e.Response} {
							if m == nil || m.Err != nil {
								return fmt.Errorf("connection %d: %v", c.ID, e.Note)
							}
							if err := kafka.WriteText(io.Discard, m.Frame.Root); err != nil {
								return err
							}
							n++
						}
						return nil
					})
					if err != nil {
						b.Fatal(err)
					}
				}
				if n != frames*b.N {
					b.Fatalf("%d frames decoded, want %d", n/b.N, frames)
				}
				b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "frames/s")
			})
		}
	}
}
