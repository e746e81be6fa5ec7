package main

import (
	"context"
	"io"
	"path/filepath"
	"testing"
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
