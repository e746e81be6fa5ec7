package pdfcanvas_test

import (
	"bytes"
	"fmt"
	"time"

	"codeberg.org/go-pdf/fpdf"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/canvas/pdfcanvas"
	"github.com/kafkagrid/kafkagrid/style"
)

// Draw a box with a label on an A4 page in points, at (72, 72), at natural size.
func ExampleNew() {
	pdf := fpdf.New("P", "pt", "A4", "")
	if err := pdfcanvas.RegisterFonts(pdf); err != nil {
		fmt.Println(err)
		return
	}
	pdf.AddPage()
	c := pdfcanvas.New(pdf, 72, 72, 1, pdfcanvas.Options{})
	c.Begin(canvas.Group{Class: "field"})
	c.Rect(0.5, 0.5, 119, 39, canvas.Style{Fill: style.Paper, Stroke: style.Ink})
	c.Line(0.5, 20, 119.5, 20, canvas.Style{Stroke: style.Rule, Dash: true})
	c.Text(60, 16, canvas.Text{S: "Name", Size: 12, Anchor: canvas.Middle, Fill: style.Ink})
	c.End()
	fmt.Println("canvas:", c.Close())
	var buf bytes.Buffer
	err := pdf.Output(&buf)
	fmt.Println("pages:", pdf.PageCount(), "output:", err, bytes.HasPrefix(buf.Bytes(), []byte("%PDF-")))
	// Output:
	// canvas: <nil>
	// pages: 1 output: <nil> true
}

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

// Write a byte grid (any canvas.Drawing) as a PDF document of A4 pages.
func ExampleWrite() {
	var buf bytes.Buffer
	err := pdfcanvas.Write(&buf, udp(), pdfcanvas.DocOptions{Title: "UDP header"})
	fmt.Println(err, bytes.HasPrefix(buf.Bytes(), []byte("%PDF-")), bytes.Count(buf.Bytes(), []byte("/Type /Page\n")))
	// Output:
	// <nil> true 1
}

// Place a byte grid on a page of a document of one's own, 300 points wide.
func ExamplePlace() {
	pdf, err := pdfcanvas.NewDocument(pdfcanvas.DocOptions{Title: "UDP"})
	if err != nil {
		fmt.Println(err)
		return
	}
	pdf.AddPage()
	d := udp()
	h, err := pdfcanvas.Place(pdf, d, pdfcanvas.Placement{X: 40, Y: 40, Scale: 300 / float64(d.Width)})
	fmt.Printf("drawn %.0f × %.0f pt, err %v\n", 300.0, h, err)
	fmt.Println(pdf.Output(&bytes.Buffer{}), pdf.PageCount())
	// Output:
	// drawn 300 × 59 pt, err <nil>
	// <nil> 1
}

// The date of every PDF: SOURCE_DATE_EPOCH when set, else a fixed date.
func ExampleSourceDate() {
	for _, v := range []string{"", "1700000000", "soon", "-1", "253402300800"} {
		d, err := pdfcanvas.SourceDate(v)
		fmt.Println(d.Format(time.RFC3339), err != nil)
	}
	// Output:
	// 2025-01-01T00:00:00Z false
	// 2023-11-14T22:13:20Z false
	// 0001-01-01T00:00:00Z true
	// 0001-01-01T00:00:00Z true
	// 0001-01-01T00:00:00Z true
}

// Write a document of many pages with Output: the bytes fpdf's own Output writes, the pages'
// content streams compressed with reused writers.
func ExampleOutput() {
	pdf, err := pdfcanvas.NewDocument(pdfcanvas.DocOptions{Title: "pages"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for i := range 20 {
		pdf.AddPage()
		c := pdfcanvas.New(pdf, 72, 72, 1, pdfcanvas.Options{})
		c.Text(0, 12, canvas.Text{S: fmt.Sprintf("page %d", i+1), Size: 12, Fill: style.Ink})
		if err := c.Close(); err != nil {
			fmt.Println(err)
			return
		}
	}
	var buf bytes.Buffer
	err = pdfcanvas.Output(pdf, &buf)
	fmt.Println("pages:", pdf.PageCount(), "output:", err, bytes.HasPrefix(buf.Bytes(), []byte("%PDF-")))
	// Output:
	// pages: 20 output: <nil> true
}
