//go:build js && wasm

package site

import "io"

// TextWriter is what a drawing that can be written as text has besides canvas.Drawing
// (canvas/formats.TextWriter, the same interface; format.go has the formats' table, which
// the browser decoder does not link).
type TextWriter interface {
	WriteText(io.Writer) error
}
