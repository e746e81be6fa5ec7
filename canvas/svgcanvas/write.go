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
	p, err := Paint(d, opt.Rows)
	if err != nil {
		return err
	}
	defer p.Release()
	return p.Write(w, opt)
}

// Painting is a drawing, or a run of its rows, painted once (Paint), to be written as one or
// more SVG documents: a page that shows a drawing inline and links its file paints it once.
// It holds a buffer until Release. A Painting is not safe for concurrent use.
type Painting struct {
	d    canvas.Drawing
	rows canvas.Span
	c    *Canvas
}

// Paint paints d, or the run of rows of it (the zero Span for the whole drawing; see
// WriteOptions.Rows), for Painting.Write.
func Paint(d canvas.Drawing, rows canvas.Span) (*Painting, error) {
	if d == nil {
		return nil, fmt.Errorf("svgcanvas: nil drawing")
	}
	info := d.Info()
	p := canvas.PartOf(d, rows, "", "")
	c := New(nil, p.Width, p.Height, Options{Title: p.Title, Desc: p.Desc, Class: info.Class, ExtraCSS: info.CSS})
	c.painting = true
	d.PaintRows(c, p.From, p.To)
	c.finish()
	return &Painting{d: d, rows: rows, c: c}, nil
}

// Write writes the painting to w as one SVG document with the options opt, byte for byte
// what Write(w, d, opt) writes; opt.Rows is ignored (the rows are the painting's).
func (p *Painting) Write(w io.Writer, opt WriteOptions) error {
	if p.c == nil || p.c.body == nil {
		return fmt.Errorf("svgcanvas: painting released")
	}
	info := p.d.Info()
	part := canvas.PartOf(p.d, p.rows, opt.Title, opt.Desc)
	o := Options{
		Title: part.Title, Desc: part.Desc, Inline: opt.Inline, IDPrefix: opt.IDPrefix,
		Class: info.Class, ExtraCSS: info.CSS, Palette: opt.Palette, FontFamily: opt.FontFamily, Theme: opt.Theme,
	}
	if err := p.c.emit(w, rootID(o, p.c.width, p.c.height), o); err != nil {
		return fmt.Errorf("svgcanvas: %w", err)
	}
	return nil
}

// Release gives the painting's buffer back for other paintings; Write fails after it.
// Releasing twice does nothing.
func (p *Painting) Release() {
	if p.c != nil {
		p.c.release()
	}
}
