package tree_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/canvas/pdfcanvas"
	"github.com/kafkagrid/kafkagrid/tree"
)

// pdfPages paints d across A5 pages the way the book does: the first part below a heading,
// the rest on fresh pages, each part with the header repeated. It returns the PDF and the parts.
func pdfPages(t testing.TB, d *tree.Diagram) ([]byte, []canvas.Span) {
	t.Helper()
	const pageW, pageH, margin, heading = 420, 595, 36, 60
	pdf, err := pdfcanvas.NewDocument(pdfcanvas.DocOptions{Width: pageW, Height: pageH})
	if err != nil {
		t.Fatal(err)
	}
	// Scale the drawing down to the text width, as the book does with wide trees.
	scale := min(1, float64(pageW-2*margin)/float64(d.Width))
	avail := func(h float64) canvas.Pt { return canvas.Pt(h / scale) }
	spans := canvas.Paginate(d, avail(pageH-2*margin-heading), avail(pageH-2*margin))
	for i, sp := range spans {
		pdf.AddPage()
		y := float64(margin)
		if i == 0 {
			pdf.SetFont(pdfcanvas.MonoFamily, "", 14)
			pdf.Text(margin, margin+14, "FetchResponse v17")
			y += heading
		}
		if _, err := pdfcanvas.Place(pdf, d, pdfcanvas.Placement{Rows: sp, X: margin, Y: y, Scale: scale}); err != nil {
			t.Fatal(err)
		}
	}
	var b bytes.Buffer
	if err := pdf.Output(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), spans
}

// TestPDFParts continues the large tree across pages and reads the pages back with pdftotext
// (poppler) when it is installed: every page starts with the column header, and every node's
// row is on exactly one page.
func TestPDFParts(t *testing.T) {
	d, err := tree.Layout(largeTree(), tree.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pdf, spans := pdfPages(t, d)
	if len(spans) < 3 {
		t.Fatalf("%d parts, want several", len(spans))
	}
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext not installed")
	}
	file := filepath.Join(t.TempDir(), "tree.pdf")
	if err := os.WriteFile(file, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", "-layout", file, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	pages := strings.Split(strings.TrimRight(string(out), "\f\n"), "\f")
	if len(pages) != len(spans) {
		t.Fatalf("%d pages, want %d", len(pages), len(spans))
	}
	for i, p := range pages {
		var lines []string
		for _, l := range strings.Split(p, "\n") {
			if strings.TrimSpace(l) != "" {
				lines = append(lines, l)
			}
		}
		if i == 0 {
			lines = lines[1:] // the heading
		}
		head := strings.Fields(lines[0])
		if strings.Join(head, " ") != "Name Offset Dec Length Type" {
			t.Errorf("page %d starts %q, want the column header", i+1, lines[0])
		}
	}
	if got, want := strings.Count(string(out), "PartitionIndex"), 4; got != want {
		t.Errorf("PartitionIndex appears %d times, want %d", got, want)
	}
}
