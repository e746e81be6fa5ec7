package pdfcanvas

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"codeberg.org/go-pdf/fpdf"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/canvas"
)

// outputDoc lays out a document of several pages (a tall grid continued, a link and an
// outline entry on each page) with compression set as given.
func outputDoc(t testing.TB, compress bool) *fpdf.Fpdf {
	t.Helper()
	var fs []bytegrid.Field
	for i := range 60 {
		fs = append(fs, bytegrid.Field{Offset: 32 * i, Bits: 32, Name: "Field" + string(rune('A'+i%26)), Value: "v", Bytes: []byte{1, 2, 3, byte(i)}})
	}
	d, err := bytegrid.Layout(fs, bytegrid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pdf, err := NewDocument(DocOptions{Title: "output"})
	if err != nil {
		t.Fatal(err)
	}
	pdf.SetCompression(compress)
	_, ph := pdf.GetPageSize()
	for i, part := range canvas.Paginate(d, canvas.Pt(ph/2), canvas.Pt(ph/2)) {
		pdf.AddPage()
		pdf.Bookmark("Part "+string(rune('1'+i)), 0, 0)
		pdf.Link(Margin, Margin, 20, 20, pdf.AddLink())
		if _, err := Place(pdf, d, Placement{Rows: part, X: Margin, Y: Margin, Scale: 1}); err != nil {
			t.Fatal(err)
		}
	}
	if pdf.PageCount() < 3 {
		t.Fatalf("%d pages, want several", pdf.PageCount())
	}
	return pdf
}

// TestOutputSameBytes checks that Output writes what fpdf's own Output writes with
// compression on, byte for byte, with one worker and with several, and that the result
// passes qpdf --check when qpdf is installed.
func TestOutputSameBytes(t *testing.T) {
	var want bytes.Buffer
	if err := outputDoc(t, true).Output(&want); err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := Output(outputDoc(t, true), &got); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatalf("Output: %d bytes differ from fpdf's %d", got.Len(), want.Len())
	}
	var plain bytes.Buffer
	if err := outputDoc(t, false).Output(&plain); err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{1, 2, 3, 64} {
		doc, err := compressContents(plain.Bytes(), workers)
		if err != nil {
			t.Fatalf("%d workers: %v", workers, err)
		}
		if !bytes.Equal(doc, want.Bytes()) {
			t.Errorf("%d workers: the document differs from fpdf's", workers)
		}
	}
	// Compression off: Output is fpdf's Output, the streams left plain.
	var off bytes.Buffer
	if err := Output(outputDoc(t, false), &off); err != nil || !bytes.Equal(off.Bytes(), plain.Bytes()) {
		t.Errorf("compression off: Output differs from fpdf's (err %v)", err)
	}
	if _, err := exec.LookPath("qpdf"); err != nil {
		t.Skip("qpdf not installed")
	}
	file := filepath.Join(t.TempDir(), "out.pdf")
	if err := os.WriteFile(file, got.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("qpdf", "--check", file).CombinedOutput(); err != nil {
		t.Fatalf("qpdf --check: %v\n%s", err, out)
	}
}

// TestOutputBadDocument checks that a document not as fpdf writes it is refused with the
// offset of what is wrong, never a panic or a guess.
func TestOutputBadDocument(t *testing.T) {
	var plain bytes.Buffer
	if err := outputDoc(t, false).Output(&plain); err != nil {
		t.Fatal(err)
	}
	doc := plain.Bytes()
	// The first page's content stream, its /Length off by one in its last digit (the same
	// width, so every offset still holds).
	page := bytes.Index(doc, []byte("<</Length "))
	end := page + bytes.Index(doc[page:], []byte(">>")) - 1
	length := bytes.Clone(doc)
	length[end] = '0' + (length[end]-'0'+1)%10
	tests := []struct {
		name string
		doc  []byte
		want string
	}{
		{"empty", nil, "offset 0: no %%EOF"},
		{"cut", doc[:len(doc)/2], "no %%EOF"},
		{"no startxref", bytes.Replace(doc, []byte("startxref"), []byte("startxrex"), 1), "no startxref"},
		{"startxref off", bytes.Replace(doc, []byte("startxref\n"), []byte("startxref\n1"), 1), "startxref does not point"},
		{"length", length, "its /Length does not match"},
		{"entry", bytes.Replace(doc, []byte(" 00000 n \n"), []byte(" 00000 x \n"), 1), "xref: bad entry"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := compressContents(tt.doc, 2)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "offset ") {
				t.Errorf("error %v, want one saying %q at an offset", err, tt.want)
			}
		})
	}
}

// FuzzCompressContents checks that any bytes give a document or an error, never a panic,
// and that a document given back reads again.
func FuzzCompressContents(f *testing.F) {
	var plain bytes.Buffer
	if err := outputDoc(f, false).Output(&plain); err != nil {
		f.Fatal(err)
	}
	f.Add(plain.Bytes())
	f.Add([]byte("%PDF-1.3\nxref\n0 1\n0000000000 65535 f \ntrailer\n<<\n>>\nstartxref\n9\n%%EOF\n"))
	f.Fuzz(func(t *testing.T, doc []byte) {
		out, err := compressContents(doc, 2)
		if err != nil {
			return
		}
		if _, _, err := objects(out); err != nil {
			t.Fatalf("the document given back does not read: %v", err)
		}
	})
}
