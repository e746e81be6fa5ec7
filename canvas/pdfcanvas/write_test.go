package pdfcanvas_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/canvas/pdfcanvas"
	"github.com/kafkagrid/kafkagrid/style"
)

// tall returns a frame of n 4-byte fields, tall enough to need several pages.
func tall(n int) []bytegrid.Field {
	var fs []bytegrid.Field
	for i := 0; i < n; i++ {
		fs = append(fs, bytegrid.Field{Offset: 32 * i, Bits: 32, Name: "Field" + string(rune('A'+i%26)), Value: "v", Bytes: []byte{1, 2, 3, byte(i)}})
	}
	return fs
}

var ruler = regexp.MustCompile(`0\s+1\s+2\s+3\s+4\s+5\s+6\s+7\s+8\s+9\s+0\s+1`)

func TestWriteTall(t *testing.T) {
	d, err := bytegrid.Layout(tall(40), bytegrid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := pdfcanvas.Write(&buf, d, pdfcanvas.DocOptions{Title: "tall"}); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(buf.Bytes(), []byte("%PDF-")) {
		t.Fatal("not a PDF")
	}
	var again bytes.Buffer
	if err := pdfcanvas.Write(&again, d, pdfcanvas.DocOptions{Title: "tall"}); err != nil || !bytes.Equal(buf.Bytes(), again.Bytes()) {
		t.Fatalf("second PDF differs (err %v)", err)
	}
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext not installed")
	}
	file := filepath.Join(t.TempDir(), "tall.pdf")
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", "-layout", file, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	pages := strings.Split(string(out), "\f")
	if len(pages) < 3 { // two or more pages and the trailing form feed
		t.Fatalf("%d pages, want a tall grid continued on a second page", len(pages)-1)
	}
	// Every field appears once (labels and offsets), every page repeats the ruler.
	for i, p := range pages[:len(pages)-1] {
		if !ruler.MatchString(p) {
			t.Errorf("page %d has no ruler", i+1)
		}
	}
	if n := strings.Count(string(out), "0x009c"); n != 1 {
		t.Errorf("offset of the last row appears %d times", n)
	}
}

// TestPalette checks that a chosen palette colours the page and that other roles keep their
// default colours.
func TestPalette(t *testing.T) {
	pdf, err := pdfcanvas.NewDocument(pdfcanvas.DocOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pdf.SetCompression(false)
	pdf.AddPage()
	pal := style.Palette{style.Group(2): {Light: style.RGB{R: 255}}}
	c := pdfcanvas.New(pdf, 0, 0, 1, pdfcanvas.Options{Palette: pal})
	c.Rect(0, 0, 10, 10, canvas.Style{Fill: style.Group(2), Stroke: style.Ink})
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := pdf.Output(&buf); err != nil {
		t.Fatal(err)
	}
	ink := style.Light(style.Ink)
	for _, want := range []string{
		"1.000 0.000 0.000 rg",
		fmt.Sprintf("%.3f %.3f %.3f RG", float64(ink.R)/255, float64(ink.G)/255, float64(ink.B)/255),
	} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("no %q in the page", want)
		}
	}
}
