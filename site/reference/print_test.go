package reference

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site"
)

var svgHeight = regexp.MustCompile(`^<svg [^>]*\bid="([^"]+)"[^>]*\bheight="([0-9.]+)"`)

// TestPrintParts checks, for every drawing of Kafka 4.0, that one taller than a printed page
// is cut into parts for print, each a whole SVG of its own id that prints at most printPart
// tall, and that one that fits a page is not.
func TestPrintParts(t *testing.T) {
	cat := catalog(t, "4.0")
	content, err := vectorContent(cat, kafka.VersionSet{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cut := 0
	for _, a := range cat.APIs {
		c, err := content(a, a.Version, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []*message{c.Request, c.Response} {
			for _, d := range []site.Figure{m.Grid, m.Tree} {
				name := fmt.Sprintf("%s %s", m.Base, d.Info().Class)
				dw, dh := figSize(d)
				parts, err := printParts(nil, d, "x", "Caption")
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				scale := min(1, printWidth/dw)
				tall := dh*scale > printHeight-printHeading
				if tall != (parts != nil) {
					t.Errorf("%s: %.0f pt tall on paper: %d parts", name, dh*scale, len(parts))
				}
				if parts == nil {
					continue
				}
				cut++
				var sum float64
				for i, p := range parts {
					sm := svgHeight.FindStringSubmatch(string(p.SVG))
					if sm == nil {
						t.Fatalf("%s part %d: no <svg> with id and height: %.80s", name, i+1, p.SVG)
					}
					if want := fmt.Sprintf("x-p%d", i+1); sm[1] != want {
						t.Errorf("%s part %d: id %q, want %q", name, i+1, sm[1], want)
					}
					h, _ := strconv.ParseFloat(sm[2], 64)
					sum += h
					if h*scale > printPart {
						t.Errorf("%s part %d: %.0f pt tall on paper, over %.0f", name, i+1, h*scale, float64(printPart))
					}
					if (i == 0) != (p.Caption == "") || i > 0 && p.Caption != "Caption (continued)" {
						t.Errorf("%s part %d: caption %q", name, i+1, p.Caption)
					}
					if p.W != int(dw+0.5) {
						t.Errorf("%s part %d: width %d, want %v", name, i+1, p.W, dw)
					}
				}
				if sum < dh {
					t.Errorf("%s: parts %.0f tall in all, the drawing %v", name, sum, dh)
				}
			}
		}
	}
	if cut == 0 {
		t.Error("no drawing of Kafka 4.0 was cut for print")
	}
}

// TestPrintPage checks that a page prints a tall drawing in its parts (the whole one hidden)
// and a short one whole.
func TestPrintPage(t *testing.T) {
	cat := catalog(t, "4.0")
	out := t.TempDir()
	if _, err := Build(context.Background(), cat, out, Options{Formats: HTML, APIs: []string{"Fetch", "AllocateProducerIds"}}); err != nil {
		t.Fatal(err)
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(out, "api", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	fetch := read("Fetch.html")
	for _, h := range readLazy(t, filepath.Join(out, "api", "Fetch.lazy.js")) {
		fetch += h[1] // the response and the edge cases are drawn from the sidecar (lazy.go)
	}
	for _, want := range []string{`class="live whole"`, `<div class="parts">`, `id="rs-grid-p1"`, `id="rs-grid-p2"`, "Byte grid (continued)"} {
		if !strings.Contains(fetch, want) {
			t.Errorf("Fetch.html lacks %s", want)
		}
	}
	if api := read("AllocateProducerIds.html"); strings.Contains(api, `live whole`) || strings.Contains(api, `<div class="parts">`) {
		t.Error("AllocateProducerIds.html prints its short drawings in parts")
	}
}
