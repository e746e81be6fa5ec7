package pdfcanvas_test

import (
	"bytes"
	"fmt"

	"codeberg.org/go-pdf/fpdf"

	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/canvas/pdfcanvas"
	"github.com/kafkagrid/kafkagrid/internal/style"
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
