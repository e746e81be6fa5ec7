package pdfcanvas_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"codeberg.org/go-pdf/fpdf"

	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/canvas/pdfcanvas"
	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/style"
)

func sample(c canvas.Canvas) {
	c.Begin(canvas.Group{Class: "field", Title: "ignored"})
	c.Rect(0.5, 0.5, 120, 30, canvas.Style{Fill: style.FrameFill, Stroke: style.Ink})
	c.Text(60, 20, canvas.Text{S: "Size", Size: 12, Anchor: canvas.Middle})
	c.End()
	c.Rect(120.5, 0.5, 80, 30, canvas.Style{Fill: style.Group(2), Stroke: style.Ink, Dash: true})
	c.Text(124, 20, canvas.Text{S: "x<y & \u202eevil", Size: 9, Fill: style.Muted, Bold: true})
	c.Text(196, 20, canvas.Text{S: "end", Size: 9, Anchor: canvas.End, Fill: style.Muted})
	c.Line(0, 40, 200, 40, canvas.Style{Stroke: style.Rule})
	c.Polyline([]canvas.Pt{0, 50, 10, 55, 20, 50}, canvas.Style{Stroke: style.Accent, Width: 0.5})
}

func render(t *testing.T) []byte {
	t.Helper()
	pdf := fpdf.NewCustom(&fpdf.InitType{UnitStr: "pt", Size: fpdf.SizeType{Wd: 300, Ht: 100}})
	pdf.SetCatalogSort(true)
	d := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	pdf.SetCreationDate(d)
	pdf.SetModificationDate(d)
	pdf.SetCompression(false)
	pdf.SetAutoPageBreak(false, 0)
	if err := pdfcanvas.RegisterFonts(pdf); err != nil {
		t.Fatal(err)
	}
	pdf.AddPage()
	c := pdfcanvas.New(pdf, 20, 10, 1.25, pdfcanvas.Options{})
	sample(c)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := pdf.Output(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestGolden(t *testing.T) {
	// The whole document is byte-identical from render to render (RegisterFonts gives fpdf
	// its own copy of the fonts, which it writes into). The golden is the uncompressed page
	// content stream, which is what the canvas writes and what a reviewer can read; the font
	// subset's compressed bytes would tie the golden to compress/flate's output.
	pdfBytes := render(t)
	for i := 0; i < 2; i++ {
		if again := render(t); !bytes.Equal(pdfBytes, again) {
			t.Fatalf("render %d differs from the first", i+2)
		}
	}
	got := pageContent(t, pdfBytes)
	if again := pageContent(t, render(t)); !bytes.Equal(got, again) {
		t.Fatal("two renders differ")
	}
	testenv.Golden(t, filepath.Join("testdata", "sample.content"), got)
	// The content stream maps (0,0) to (20,10) at scale 1.25: the first rectangle starts at
	// x = 20 + 0.5*1.25 = 20.625 (PDF y grows upward: 100 - 10.625).
	if !bytes.Contains(got, []byte("20.63 89.38 150.00 -37.50 re")) && !bytes.Contains(got, []byte("20.62 89.38 150.00 -37.50 re")) {
		t.Errorf("first rectangle not where expected")
	}
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext not installed")
	}
	file := filepath.Join(t.TempDir(), "sample.pdf")
	if err := os.WriteFile(file, pdfBytes, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("pdftotext", file, "-")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Size", "x<y & ?evil", "end"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("pdftotext: missing %q in %q", want, out)
		}
	}
}

// pageContent returns the first stream of the PDF without a filter: the page's content.
func pageContent(t *testing.T, pdf []byte) []byte {
	t.Helper()
	for rest := pdf; ; {
		i := bytes.Index(rest, []byte("stream\n"))
		if i < 0 {
			t.Fatal("no unfiltered stream in the PDF")
		}
		dict := rest[:i]
		if j := bytes.LastIndex(dict, []byte("<<")); j >= 0 {
			dict = dict[j:]
		}
		body := rest[i+len("stream\n"):]
		end := bytes.Index(body, []byte("endstream"))
		if end < 0 {
			t.Fatal("unterminated stream")
		}
		if !bytes.Contains(dict, []byte("/Filter")) && bytes.Contains(body[:end], []byte(" re")) {
			return body[:end]
		}
		rest = body[end:]
	}
}

func TestError(t *testing.T) {
	pdf := fpdf.New("P", "pt", "A4", "")
	pdf.AddPage()
	c := pdfcanvas.New(pdf, 0, 0, 1, pdfcanvas.Options{MonoFont: "nosuchfont"})
	c.Text(0, 0, canvas.Text{S: "x", Size: 10})
	if err := c.Close(); err == nil {
		t.Error("Close succeeded with an unregistered font")
	}
}

// TestStateOnce counts what a canvas writes into the page for each setting: a setting in
// force is not written again by the same canvas, a change is, and a new canvas writes
// everything at its first use (the caller may have drawn in between).
func TestStateOnce(t *testing.T) {
	ink := canvas.Style{Stroke: style.Ink}
	cases := []struct {
		name  string
		paint func(pdf *fpdf.Fpdf)
		want  map[string]int // operator -> times written
	}{
		{"one face, one stroke", func(pdf *fpdf.Fpdf) {
			c := pdfcanvas.New(pdf, 0, 0, 1, pdfcanvas.Options{})
			for i := range 20 {
				c.Text(10, canvas.Pt(10+i), canvas.Text{S: "x", Size: 9})
				c.Rect(0, canvas.Pt(i), 5, 5, canvas.Style{Fill: style.FrameFill, Stroke: style.Ink})
			}
		}, map[string]int{" Tf ": 1, " w\n": 1, " d\n": 1, " RG\n": 1, " g\n": 1}}, // FrameFill is a grey
		{"changes are written", func(pdf *fpdf.Fpdf) {
			c := pdfcanvas.New(pdf, 0, 0, 1, pdfcanvas.Options{})
			c.Text(0, 10, canvas.Text{S: "a", Size: 9})
			c.Text(0, 20, canvas.Text{S: "b", Size: 9, Bold: true})
			c.Text(0, 30, canvas.Text{S: "c", Size: 9})
			c.Text(0, 40, canvas.Text{S: "d", Size: 10})
			c.Line(0, 0, 10, 0, ink)
			c.Line(0, 0, 10, 0, canvas.Style{Stroke: style.Ink, Dash: true})
			c.Line(0, 0, 10, 0, canvas.Style{Stroke: style.Ink, Width: 2})
			c.Line(0, 0, 10, 0, canvas.Style{Stroke: style.Rule, Width: 2})
		}, map[string]int{" Tf ": 4, " w\n": 2, " d\n": 3, " RG\n": 2}},
		{"a new canvas sets everything", func(pdf *fpdf.Fpdf) {
			for range 2 {
				c := pdfcanvas.New(pdf, 0, 0, 1, pdfcanvas.Options{})
				c.Text(0, 10, canvas.Text{S: "a", Size: 9})
				c.Line(0, 0, 10, 0, ink)
				c.Text(0, 20, canvas.Text{S: "b", Size: 9})
				c.Line(0, 5, 10, 5, ink)
			}
		}, map[string]int{" Tf ": 2, " w\n": 2, " d\n": 2, " RG\n": 2}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pdf := fpdf.NewCustom(&fpdf.InitType{UnitStr: "pt", Size: fpdf.SizeType{Wd: 300, Ht: 100}})
			pdf.SetCompression(false)
			if err := pdfcanvas.RegisterFonts(pdf); err != nil {
				t.Fatal(err)
			}
			pdf.AddPage()
			// What AddPage wrote is not the canvas's: count from a marker on.
			pdf.SetLineWidth(0.25)
			tc.paint(pdf)
			if err := pdf.Error(); err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := pdf.Output(&buf); err != nil {
				t.Fatal(err)
			}
			_, painted, ok := bytes.Cut(buf.Bytes(), []byte("0.25 w\n"))
			if !ok {
				t.Fatal("no marker in the page")
			}
			painted, _, _ = bytes.Cut(painted, []byte("endstream"))
			for op, n := range tc.want {
				if got := bytes.Count(painted, []byte(op)); got != n {
					t.Errorf("%q written %d times, want %d:\n%s", op, got, n, painted)
				}
			}
		})
	}
}

// TestTurnedText: a turned run (canvas.Text.Turned) is drawn in a quarter turn
// counter-clockwise about its anchor point: a rotation matrix around the run, nothing else
// changed, and a plain run has none.
func TestTurnedText(t *testing.T) {
	draw := func(turned bool) string {
		pdf := fpdf.NewCustom(&fpdf.InitType{UnitStr: "pt", Size: fpdf.SizeType{Wd: 300, Ht: 100}})
		pdf.SetCompression(false)
		if err := pdfcanvas.RegisterFonts(pdf); err != nil {
			t.Fatal(err)
		}
		pdf.AddPage()
		c := pdfcanvas.New(pdf, 0, 0, 1, pdfcanvas.Options{})
		c.Text(50, 80, canvas.Text{S: "isTransactional", Size: 9, Anchor: canvas.Middle, Turned: turned})
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := pdf.Output(&buf); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	// fpdf's rotation about (50, 80): cos 90°, sin 90° and the translation that keeps the point.
	const rot = "0.00000 1.00000 -1.00000 0.00000"
	if plain := draw(false); strings.Contains(plain, rot) {
		t.Errorf("a plain run is rotated")
	}
	turned := draw(true)
	i := strings.Index(turned, rot)
	if i < 0 {
		t.Fatalf("a turned run has no quarter-turn matrix")
	}
	if j := strings.Index(turned[i:], " Tj"); j < 0 || !strings.Contains(turned[i:i+j], "BT") {
		t.Errorf("the quarter turn is not applied to the run's text")
	}
}
