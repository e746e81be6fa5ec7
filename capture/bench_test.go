package capture

import (
	"flag"
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

var benchOut = flag.String("benchcapture", "", "write the capture of BenchmarkRead to `FILE` (to time tshark on the same bytes)")

// TestBenchCapture writes the benchmark's capture when -benchcapture names a file:
// go test ./capture -run BenchCapture -benchcapture /tmp/bench.pcap
func TestBenchCapture(t *testing.T) {
	if *benchOut == "" {
		t.Skip("no -benchcapture FILE")
	}
	if err := os.WriteFile(*benchOut, benchCapture(t), 0o644); err != nil {
		t.Fatal(err)
	}
}
