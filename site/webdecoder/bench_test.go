package webdecoder

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
)

// BenchmarkDecode is a repeat paste of a real frame (its text as pasted): what the page waits
// for in the decoder, the decode, its text and the drawing of the exchange.
func BenchmarkDecode(b *testing.B) {
	cat, err := kafka.LoadCatalog(testenv.Release(b, "4.0"))
	if err != nil {
		b.Fatal(err)
	}
	mod, err := testenv.ModuleRoot()
	if err != nil {
		b.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(mod, "..", "shared", "real-frames", "11-codecrafters-apiversions-v4-request.txt"))
	if err != nil {
		b.Skip(err)
	}
	d := New(Releases{Names: []string{"4.0"}, Load: func(string) (*kafka.Catalog, bool, error) { return cat, true, nil }})
	q := Request{Release: "4.0", Name: "-"}
	if r := d.Decode(context.Background(), q, data); r.Status != 0 || len(r.Figures) == 0 {
		b.Fatalf("exit %d %s", r.Status, r.Stderr)
	}
	b.ResetTimer()
	for b.Loop() {
		d.Decode(context.Background(), q, data)
	}
}
