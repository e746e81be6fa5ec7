//go:build !(js && wasm)

package formats

import (
	"io"

	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/canvas/pdfcanvas"
)

// writePDF is PDF's Write.
func writePDF(w io.Writer, d canvas.Drawing, o WriteOptions) error {
	return pdfcanvas.Write(w, d, pdfcanvas.DocOptions{Title: o.Title, Date: o.Date})
}
