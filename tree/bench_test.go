package tree_test

import (
	"io"
	"testing"

	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/canvas/svgcanvas"
	"github.com/kafkagrid/kafkagrid/tree"
)

func benchSVG(b *testing.B, root *tree.Node) {
	b.ReportAllocs()
	for b.Loop() {
		d, err := tree.Layout(root, tree.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if err := svgcanvas.Write(io.Discard, d, svgcanvas.WriteOptions{}); err != nil {
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

// discard is a Canvas that draws nothing: BenchmarkFetchPaint measures the tree's own painting
// apart from the SVG backend's.
type discard struct{}

func (discard) Begin(canvas.Group)                            {}
func (discard) End()                                          {}
func (discard) Rect(x, y, w, h canvas.Pt, s canvas.Style)     {}
func (discard) Line(x1, y1, x2, y2 canvas.Pt, s canvas.Style) {}
func (discard) Polyline(pts []canvas.Pt, s canvas.Style)      {}
func (discard) Text(x, y canvas.Pt, t canvas.Text)            {}

func BenchmarkFetchPaint(b *testing.B) {
	d, err := tree.Layout(fetchLike(), tree.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		d.Paint(discard{})
	}
}
