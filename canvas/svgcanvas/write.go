package svgcanvas

import (
	"fmt"
	"io"

	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/style"
)

// WriteOptions configure Write. The zero value writes the whole drawing as a standalone SVG
// named by the drawing's own title and description (canvas.Info).
type WriteOptions struct {
	// Title and Desc are the accessible name and description; empty means the drawing's.
	Title, Desc string
	// Inline omits the XML prolog, for SVG embedded in HTML.
	Inline bool
	// IDPrefix is the root element's id (see Options); empty means a hash.
	IDPrefix string
	// Rows is the run of rows to write, for one part of a drawing cut across pages
	// (canvas.Paginate); the zero Span means the whole drawing.
	Rows canvas.Span
	// Palette and FontFamily choose colours and the font (see Options).
	Palette    style.Palette
	FontFamily string
	// Theme is the palette shown: ThemeAuto (or empty), ThemeLight or ThemeDark (see Options).
	Theme string
}

// Write writes d, or the run of rows opt.Rows of it, to w as one SVG document: the one way a
// drawing becomes SVG, for the byte grid, the tree and every part of either. The document
// takes its root class and extra style sheet from d.Info.
func Write(w io.Writer, d canvas.Drawing, opt WriteOptions) error {
	if d == nil {
		return fmt.Errorf("svgcanvas: nil drawing")
	}
	info := d.Info()
	p := canvas.PartOf(d, opt.Rows, opt.Title, opt.Desc)
	c := New(w, p.Width, p.Height, Options{
		Title: p.Title, Desc: p.Desc, Inline: opt.Inline, IDPrefix: opt.IDPrefix,
		Class: info.Class, ExtraCSS: info.CSS, Palette: opt.Palette, FontFamily: opt.FontFamily, Theme: opt.Theme,
	})
	d.PaintRows(c, p.From, p.To)
	if err := c.Close(); err != nil {
		return fmt.Errorf("svgcanvas: %w", err)
	}
	return nil
}
