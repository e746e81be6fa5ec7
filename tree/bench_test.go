package tree_test

import (
	"io"
	"testing"

	"github.com/kafkagrid/kafkagrid/tree"
	"github.com/kafkagrid/kafkagrid/tree/treesvg"
)

func benchSVG(b *testing.B, root *tree.Node) {
	b.ReportAllocs()
	for b.Loop() {
		d, err := tree.Layout(root, tree.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if err := treesvg.Write(io.Discard, d, treesvg.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFetchSVG lays out and writes as SVG a tree shaped like a Fetch v17 response
// (about 70 nodes, five levels). Target: under 200 µs.
func BenchmarkFetchSVG(b *testing.B) { benchSVG(b, fetchLike()) }

// BenchmarkLargeSVG does the same for about 300 nodes.
func BenchmarkLargeSVG(b *testing.B) { benchSVG(b, largeTree()) }

func BenchmarkFetchLayout(b *testing.B) {
	root := fetchLike()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tree.Layout(root, tree.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFetchText(b *testing.B) {
	d, err := tree.Layout(fetchLike(), tree.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := d.WriteText(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}
