// Package pdfcanvas is the PDF backend of package canvas: it paints a drawing into a rectangle
// of the current page of a codeberg.org/go-pdf/fpdf document (the maintained continuation of
// jung-kurt/gofpdf, same API).
//
// # Documents
//
// Every PDF of kafkagrid is set up here, once: NewDocument (points, fixed object order, the
// date, no automatic page break, Go Mono embedded), Place (a canvas.Drawing, or a run of its
// rows, at a point of a page, scaled) and Write (a drawing as a document of its own, cut across
// pages by canvas.Paginate). SourceDate is the one rule for the date: SOURCE_DATE_EPOCH when
// set, validated the same way for every caller, else DefaultDate. The package never reads the
// environment itself: the command reads SOURCE_DATE_EPOCH and passes it on.
//
// # The canvas
//
// New maps the drawing's top-left corner to a point of the page and scales it; lengths given to
// the canvas are canvas points, lengths handed to fpdf are the document's units (use "pt" so
// that scale 1 is one point). Colours are the light values of the style roles (print). Text is
// drawn in Go Mono, embedded by RegisterFonts, with its baseline where the layout put it and its
// width measured by the same rule as everywhere else (internal/mono), so the PDF matches the SVG.
//
// PDF has no groups: Begin and End only check nesting; group titles are not drawn.
//
// Drawing methods return nothing. fpdf keeps its first error itself; Close returns it. The
// canvas sets the colours, line width, dash pattern and font it needs, and does not restore
// them. fpdf writes every setting it is given into the page, even one already in force, so the
// canvas hands it only what differs from what the same canvas set last: a drawing's thousands
// of text runs in one face and size select the font once, not once a run (a third of a book's
// page content). A canvas therefore owns the page's graphics state from its first call to its
// last: a caller that draws on the page, or ends a clip or transformation, between two calls
// of one canvas must take a new canvas after it (a new canvas sets everything at first use).
// Place takes a new canvas for each placement. Not safe for concurrent use (neither is
// fpdf.Fpdf).
package pdfcanvas

import (
	"bytes"
	"fmt"

	"codeberg.org/go-pdf/fpdf"
	"golang.org/x/image/font/gofont/gomonobold"

	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/internal/mono"
	"github.com/kafkagrid/kafkagrid/style"
)

// MonoFamily is the family name RegisterFonts gives Go Mono (regular "" and bold "B").
const MonoFamily = "kgmono"

// RegisterFonts embeds Go Mono and Go Mono Bold in pdf under MonoFamily, as UTF-8 fonts.
//
// fpdf writes into the font bytes it is given while it subsets them, so each document gets its
// own copy: handing it the shared Go Mono slices made every document after the first in a
// process differ (and could race between goroutines).
func RegisterFonts(pdf *fpdf.Fpdf) error {
	pdf.AddUTF8FontFromBytes(MonoFamily, "", bytes.Clone(mono.MonoTTF()))
	pdf.AddUTF8FontFromBytes(MonoFamily, "B", bytes.Clone(gomonobold.TTF))
	if err := pdf.Error(); err != nil {
		return fmt.Errorf("pdfcanvas: register fonts: %w", err)
	}
	return nil
}

// Options configure a Canvas. The zero value uses MonoFamily.
type Options struct {
	// MonoFont is the family of Go Mono as registered by the caller (default MonoFamily). Bold
	// text uses the family's "B" style, which must be registered too when bold text is drawn.
	// Another monospace face of advance 0.6 em may stand in for Go Mono: layouts measure text
	// by that advance.
	MonoFont string
	// Palette chooses the colours of roles (their light values); nil is the default palette.
	Palette style.Palette
}

// Canvas paints on a page of an fpdf document.
type Canvas struct {
	pdf       *fpdf.Fpdf
	x0, y0, k float64
	font      string
	pal       style.Palette
	depth     int
	set       state // what this canvas has set in the page so far
}

// state is the part of the page's graphics state a canvas sets: each setting with whether the
// canvas has set it yet.
type state struct {
	fill, draw, text style.RGB
	hasFill, hasDraw bool
	hasText          bool
	width            float64
	hasWidth         bool
	dash, hasDash    bool
	fontStyle        string
	fontSize         float64
	hasFont          bool
}

// New returns a Canvas that maps the drawing point (0, 0) to (x, y) on the current page, in
// the document's units, and multiplies every length by scale (0 means 1).
func New(pdf *fpdf.Fpdf, x, y, scale float64, opts Options) *Canvas {
	if scale == 0 {
		scale = 1
	}
	f := opts.MonoFont
	if f == "" {
		f = MonoFamily
	}
	return &Canvas{pdf: pdf, x0: x, y0: y, k: scale, font: f, pal: opts.Palette}
}

func (c *Canvas) px(v canvas.Pt) float64 { return c.x0 + float64(canvas.Round(v))*c.k }
func (c *Canvas) py(v canvas.Pt) float64 { return c.y0 + float64(canvas.Round(v))*c.k }
func (c *Canvas) pl(v canvas.Pt) float64 { return float64(canvas.Round(v)) * c.k }

// Begin opens a group (PDF has none; only nesting is tracked).
func (c *Canvas) Begin(canvas.Group) { c.depth++ }

// End closes a group.
func (c *Canvas) End() {
	if c.depth > 0 {
		c.depth--
	}
}

// setPaint sets the fill and stroke state for s and returns fpdf's style string ("" = nothing
// to draw).
func (c *Canvas) setPaint(s canvas.Style) string {
	op := ""
	if s.Fill != "" {
		c.setFill(c.pal.Light(s.Fill))
		op += "F"
	}
	if s.Stroke != "" {
		if rgb := c.pal.Light(s.Stroke); !c.set.hasDraw || rgb != c.set.draw {
			c.pdf.SetDrawColor(int(rgb.R), int(rgb.G), int(rgb.B))
			c.set.draw, c.set.hasDraw = rgb, true
		}
		w := s.Width
		if w == 0 {
			w = 1
		}
		if lw := c.pl(w); !c.set.hasWidth || lw != c.set.width {
			c.pdf.SetLineWidth(lw)
			c.set.width, c.set.hasWidth = lw, true
		}
		if !c.set.hasDash || s.Dash != c.set.dash {
			if s.Dash {
				c.pdf.SetDashPattern([]float64{3 * c.k, 2 * c.k}, 0)
			} else {
				c.pdf.SetDashPattern(nil, 0)
			}
			c.set.dash, c.set.hasDash = s.Dash, true
		}
		op += "D"
	}
	return op
}

// setFill sets the fill colour, unless it is the one in force.
func (c *Canvas) setFill(rgb style.RGB) {
	if !c.set.hasFill || rgb != c.set.fill {
		c.pdf.SetFillColor(int(rgb.R), int(rgb.G), int(rgb.B))
		c.set.fill, c.set.hasFill = rgb, true
	}
}

// Rect draws a rectangle with its top-left corner at (x, y).
func (c *Canvas) Rect(x, y, w, h canvas.Pt, s canvas.Style) {
	if op := c.setPaint(s); op != "" {
		c.pdf.Rect(c.px(x), c.py(y), c.pl(w), c.pl(h), op)
	}
}

// Line draws a straight segment.
func (c *Canvas) Line(x1, y1, x2, y2 canvas.Pt, s canvas.Style) {
	s.Fill = ""
	if c.setPaint(s) != "" {
		c.pdf.Line(c.px(x1), c.py(y1), c.px(x2), c.py(y2))
	}
}

// Polyline draws an open path through the points (x0, y0, x1, y1, …).
func (c *Canvas) Polyline(pts []canvas.Pt, s canvas.Style) {
	s.Fill = ""
	if len(pts) < 4 || c.setPaint(s) == "" {
		return
	}
	c.pdf.MoveTo(c.px(pts[0]), c.py(pts[1]))
	for i := 2; i+1 < len(pts); i += 2 {
		c.pdf.LineTo(c.px(pts[i]), c.py(pts[i+1]))
	}
	c.pdf.DrawPath("D")
}

// Text draws t with its baseline at y, in Go Mono.
func (c *Canvas) Text(x, y canvas.Pt, t canvas.Text) {
	s := mono.Clean(t.S)
	if s == "" || t.Size <= 0 {
		return
	}
	st := ""
	if t.Bold {
		st = "B"
	}
	size := c.pl(t.Size)
	if pt := size * c.pdf.GetConversionRatio(); !c.set.hasFont || st != c.set.fontStyle || pt != c.set.fontSize {
		c.pdf.SetFont(c.font, st, pt)
		c.set.fontStyle, c.set.fontSize, c.set.hasFont = st, pt, true
	}
	fill := t.Fill
	if fill == "" {
		fill = style.Ink
	}
	if rgb := c.pal.Light(fill); !c.set.hasText || rgb != c.set.text {
		c.pdf.SetTextColor(int(rgb.R), int(rgb.G), int(rgb.B))
		c.set.text, c.set.hasText = rgb, true
	}
	w := mono.Width(s, size)
	px := c.px(x)
	switch t.Anchor {
	case canvas.Middle:
		px -= w / 2
	case canvas.End:
		px -= w
	}
	if t.Turned { // a quarter counter-clockwise about the anchor point
		c.pdf.TransformBegin()
		c.pdf.TransformRotate(90, c.px(x), c.py(y))
		c.pdf.Text(px, c.py(y), s)
		c.pdf.TransformEnd()
		return
	}
	c.pdf.Text(px, c.py(y), s)
}

// Close returns the document's first error, if any.
func (c *Canvas) Close() error {
	if err := c.pdf.Error(); err != nil {
		return fmt.Errorf("pdfcanvas: %w", err)
	}
	return nil
}

var _ canvas.Canvas = (*Canvas)(nil)
