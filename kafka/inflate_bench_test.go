package kafka

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// gzipBatches are n gzip members of records-like text (JSON lines of ids, names and
// counters) of 1 to 64 KiB, as a capture of many gzip batches carries them.
func gzipBatches(tb testing.TB, n int) [][]byte {
	r := rand.New(rand.NewPCG(1, 2))
	names := []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot"}
	out := make([][]byte, n)
	for i := range out {
		size := 1<<10 + r.IntN(63<<10)
		var src []byte
		for len(src) < size {
			src = fmt.Appendf(src, `{"id":%d,"user":"%s-%d","count":%d,"ok":%t}`+"\n",
				r.IntN(1e6), names[r.IntN(len(names))], r.IntN(100), r.IntN(1e4), r.IntN(2) == 0)
		}
		z, err := compress(nil, CodecGzip, src, false)
		if err != nil {
			tb.Fatal(err)
		}
		out[i] = z
	}
	return out
}

// BenchmarkInflateGzip inflates 1,000 gzip batches one after another, as a decoder reads a
// capture's Fetch responses: the readers, their windows and tables, reused from batch to
// batch; each batch's records in one buffer of their size.
func BenchmarkInflateGzip(b *testing.B) {
	batches := gzipBatches(b, 1000)
	total := 0
	for _, z := range batches {
		total += len(z)
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	for b.Loop() {
		for _, z := range batches {
			if _, _, _, _, err := inflate(CodecGzip, z, DefaultMaxDecompressed); err != nil {
				b.Fatal(err)
			}
		}
	}
}
