package pdfcanvas_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/canvas/pdfcanvas"
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
