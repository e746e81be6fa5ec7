package gridpdf_test

import (
	"bytes"
	"fmt"

	"codeberg.org/go-pdf/fpdf"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/bytegrid/gridpdf"
	"github.com/kafkagrid/kafkagrid/canvas/pdfcanvas"
)

func udp() *bytegrid.Diagram {
	d, err := bytegrid.Layout([]bytegrid.Field{
		{Offset: 0, Bits: 16, Name: "Source Port", Value: "49152"},
		{Offset: 16, Bits: 16, Name: "Destination Port", Value: "53"},
		{Offset: 32, Bits: 16, Name: "Length", Value: "8"},
		{Offset: 48, Bits: 16, Name: "Checksum", Value: "0x0000"},
	}, bytegrid.Options{})
	if err != nil {
		panic(err) // the fields above are valid
	}
	return d
}

// Write a byte grid as a PDF document of A4 pages.
func ExampleWritePDF() {
	var buf bytes.Buffer
	err := gridpdf.WritePDF(&buf, udp(), gridpdf.Options{Title: "UDP header"})
	fmt.Println(err, bytes.HasPrefix(buf.Bytes(), []byte("%PDF-")), bytes.Count(buf.Bytes(), []byte("/Type /Page\n")))
	// Output:
	// <nil> true 1
}

// Draw a byte grid into a page of a document of one's own, 300 points wide.
func ExampleDraw() {
	pdf := fpdf.New("P", "pt", "A4", "")
	if err := pdfcanvas.RegisterFonts(pdf); err != nil {
		fmt.Println(err)
		return
	}
	pdf.AddPage()
	d := udp()
	h, err := gridpdf.Draw(pdf, d, 0, len(d.Rows), 40, 40, 300)
	fmt.Printf("drawn %.0f × %.0f pt, err %v\n", 300.0, h, err)
	fmt.Println(pdf.Output(&bytes.Buffer{}), pdf.PageCount())
	// Output:
	// drawn 300 × 59 pt, err <nil>
	// <nil> 1
}
