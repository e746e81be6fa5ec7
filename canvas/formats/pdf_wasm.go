//go:build js && wasm

package formats

import (
	"errors"
	"io"

	"github.com/kafkagrid/kafkagrid/canvas"
)

// writePDF is PDF's Write in a WebAssembly build (the browser decoder of decode.html),
// which writes no PDF: leaving fpdf out takes 1.8 MB (0.46 MB gzipped) off the page's
// download.
func writePDF(io.Writer, canvas.Drawing, WriteOptions) error {
	return errors.New("formats: PDF is not written in a WebAssembly build")
}
