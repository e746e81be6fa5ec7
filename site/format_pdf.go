//go:build !(js && wasm)

package site

import (
	"io"

	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/canvas/pdfcanvas"
)

// writePDF is FormatPDF's Write.
func writePDF(w io.Writer, d canvas.Drawing, o WriteOptions) error {
	return pdfcanvas.Write(w, d, pdfcanvas.DocOptions{Title: o.Title, Date: o.Date})
}
