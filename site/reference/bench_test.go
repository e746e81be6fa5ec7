package reference

import (
	"context"
	"testing"

	"github.com/kafkagrid/kafkagrid/kafka"
)

func benchBuild(b *testing.B, f Format) { benchBuildVersions(b, f, kafka.VersionSet{}) }

func benchBuildVersions(b *testing.B, f Format, vs kafka.VersionSet) {
	cat := catalog(b, "4.0")
	b.ReportAllocs()
	for b.Loop() {
		out := b.TempDir()
		if _, err := Build(context.Background(), cat, out, Options{Formats: f, Versions: vs}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBuild builds the whole 4.0 reference at the highest versions: 336 SVG, 85 pages,
// the book, bin, json, txt.
func BenchmarkBuild(b *testing.B) { benchBuild(b, AllFormats) }

// BenchmarkBuildAllVersions builds the whole 4.0 reference at every version: 1116 SVG, 280
// pages, the book, 558 frames as bin, json and txt. Compare with BenchmarkBuild:
//
//	go test ./site/reference -run XXX -bench 'Build(AllVersions)?$' -count 6 | benchstat -col /.name -
func BenchmarkBuildAllVersions(b *testing.B) { benchBuildVersions(b, AllFormats, kafka.AllVersions()) }

// BenchmarkBuildSVGHTML builds the SVG files and the HTML pages alone.
func BenchmarkBuildSVGHTML(b *testing.B) { benchBuild(b, SVG|HTML) }

// BenchmarkBuildPDF builds the book alone.
func BenchmarkBuildPDF(b *testing.B) { benchBuild(b, PDF) }

// BenchmarkBuildAllVersionsHTML builds the pages of every version alone.
func BenchmarkBuildAllVersionsHTML(b *testing.B) { benchBuildVersions(b, HTML, kafka.AllVersions()) }
