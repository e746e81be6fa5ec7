package site

import (
	"bytes"
	"fmt"
	"io"
	"sync"

	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/canvas/svgcanvas"
)

// Figure is a laid-out diagram (a byte grid or a tree) with the title and the description a
// page and an SVG give it. Everything else (painting it, cutting it into parts, its SVG class
// and style) comes from canvas.Drawing; a nil Drawing is no figure.
type Figure struct {
	canvas.Drawing
	Title, Desc string
}

// Width returns the figure's width in whole points, 0 for none: a page sizes its SVG by it.
func (f Figure) Width() int {
	if f.Drawing == nil {
		return 0
	}
	w, _ := f.Size()
	return int(float64(w) + 0.5)
}

// WriteSVG writes f as one SVG document: standalone (with the XML prolog), or inline for an
// HTML page, where id prefixes its ids and must be unique on the page. No figure writes
// nothing.
func WriteSVG(w io.Writer, f Figure, inline bool, id string) error {
	if f.Drawing == nil {
		return nil
	}
	return WriteThemedSVG(w, f, inline, id, "")
}

// WriteThemedSVG is WriteSVG with the palette theme shows: svgcanvas.ThemeAuto (or empty),
// ThemeLight or ThemeDark.
func WriteThemedSVG(w io.Writer, f Figure, inline bool, id, theme string) error {
	if f.Drawing == nil {
		return nil
	}
	return svgcanvas.Write(w, f.Drawing, svgcanvas.WriteOptions{Title: f.Title, Desc: f.Desc, Inline: inline, IDPrefix: id, Theme: theme})
}

// InlineSVG is WriteSVG for a page: the figure as an inline <svg>, "" for none.
func InlineSVG(f Figure, id string) (string, error) {
	if f.Drawing == nil {
		return "", nil
	}
	buf := svgBuffers.Get().(*bytes.Buffer)
	defer func() {
		if buf.Cap() <= 4<<20 {
			buf.Reset()
			svgBuffers.Put(buf)
		}
	}()
	if err := WriteSVG(buf, f, true, id); err != nil {
		return "", fmt.Errorf("site: %s: %w", f.Title, err)
	}
	return buf.String(), nil
}

// svgBuffers are the buffers InlineSVG draws into before it copies the drawing into a string
// of its size: a buffer kept from one drawing to the next does not grow again.
var svgBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// WriteText writes the figure as text when its drawing is a TextWriter, and says so when not.
func (f Figure) WriteText(w io.Writer) error {
	t, ok := f.Drawing.(TextWriter)
	if !ok {
		return fmt.Errorf("site: %s: the drawing has no text form", f.Title)
	}
	return t.WriteText(w)
}
