package reference

import (
	"context"
	"testing"
)

func benchBuild(b *testing.B, f Format) {
	cat := catalog(b, "4.0")
	b.ReportAllocs()
	for b.Loop() {
		out := b.TempDir()
		if _, err := Build(context.Background(), cat, out, Options{Formats: f}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBuild builds the whole 4.0 reference: 336 SVG, 85 pages, the book, bin, json, txt.
func BenchmarkBuild(b *testing.B) { benchBuild(b, AllFormats) }

// BenchmarkBuildSVGHTML builds the SVG files and the HTML pages alone.
func BenchmarkBuildSVGHTML(b *testing.B) { benchBuild(b, SVG|HTML) }

// BenchmarkBuildPDF builds the book alone.
func BenchmarkBuildPDF(b *testing.B) { benchBuild(b, PDF) }
