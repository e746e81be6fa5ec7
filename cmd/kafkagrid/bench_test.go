package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/kafkagrid/kafkagrid/capture/capturetest"
)

// BenchmarkBuildEveryRelease loads and builds (-format bin,json) every release in the folder of
// releases, one after the other in one process, as "kafkagrid build" does for each:
//
//	go test ./cmd/kafkagrid -run XXX -bench EveryRelease -benchmem -count 6
func BenchmarkBuildEveryRelease(b *testing.B) {
	rels := releaseNamesTB(b)
	root := listSchemaRootTB(b)
	out := b.TempDir()
	b.ResetTimer()
	for b.Loop() {
		for _, rel := range rels {
			args := []string{"build", "-q", "-schemas", filepath.Join(root, rel), "-format", "bin,json", "-out", filepath.Join(out, rel)}
			if err := run(context.Background(), args, io.Discard, io.Discard); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(rels)), "releases")
}

// BenchmarkDecodeCapture is "kafkagrid decode CAPTURE" (text) and "-format json", the product
// path of a capture streamed: a franz-go client capture (capturetest.ClientTraffic, Kafka 2.6
// versions) at 1× (about 10,000 frames) and 10× (about 100,000), written to io.Discard:
//
//	go test ./cmd/kafkagrid -run XXX -bench DecodeCapture -benchmem -count 6
func BenchmarkDecodeCapture(b *testing.B) {
	schemas := filepath.Join(listSchemaRootTB(b), "2.8")
	for _, scale := range []int{1, 10} {
		data, frames, err := capturetest.ClientCapture(scale*10000, capturetest.Options{})
		if err != nil {
			b.Fatal(err)
		}
		file := filepath.Join(b.TempDir(), "c.pcap")
		if err := os.WriteFile(file, data, 0o644); err != nil {
			b.Fatal(err)
		}
		for _, format := range []string{"txt", "json"} {
			b.Run(fmt.Sprintf("%dx/%s", scale, format), func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					if err := run(context.Background(), []string{"decode", "-q", "-schemas", schemas, "-format", format, file}, io.Discard, io.Discard); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(frames*b.N)/b.Elapsed().Seconds(), "frames/s")
			})
		}
	}
}
