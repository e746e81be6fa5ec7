// Package rfcsvg is the RFC backend of package canvas: it writes a drawing as SVG in the
// profile the RFC Editor and xml2rfc accept, "SVG 1.2 RFC" (RFC 7996, section 2.1), so that a
// byte grid can go into an RFC or an Internet-Draft as it is.
//
// The profile is a subset of SVG 1.2 Tiny with no style sheets, no CSS custom properties, no
// data-* or ARIA attributes, no textLength, only black and white, and only the generic font
// families. What the profile's checker (the IETF's svgcheck) would remove or repaint, this
// backend does not write, so a figure survives the checker unchanged. Concretely:
//
//   - elements: svg, title, desc, g, rect, line, polyline, text; nothing else;
//   - the root: xmlns, version="1.2", baseProfile="tiny", width, height, viewBox, role="img" and
//     font-family="monospace" (inherited by every text run);
//   - groups: id and class (a field's "field kind-…" classes survive), their tooltip as a
//     <title> child;
//   - shapes: geometry plus fill, stroke, stroke-width and stroke-dasharray as presentation
//     attributes;
//   - text: x, y, font-size, fill, text-anchor, font-weight, and xml:space="preserve" for runs
//     whose spaces matter.
//
// Colours are style roles mapped to the two the profile allows: a fill is black when the
// role's light colour is darker than mid-grey (ink, muted ink, the accent) and white otherwise
// (paper, framing and every group colour); a stroke or a text run is white only when its role's
// light colour is near white (paper, the framing fills) and black otherwise (rules and ticks
// included). Group colours therefore do not survive: in an RFC the drawing is black lines and
// text on white, as RFC figures are.
//
// The font is the generic "monospace": every text run was measured in Go Mono (0.6 em an
// advance), and the profile does not allow textLength, so a label keeps to its box in a viewer
// whose monospace face has that advance (Courier, DejaVu Sans Mono, Liberation Mono: 0.6 em);
// the RFC Editor's renderers use such faces.
//
// Output is deterministic, attribute values and text are escaped, and text is cleaned with
// mono.Clean. Write is the one entry point for a whole drawing or a run of its rows; New and
// Close are the Canvas beneath it.
package rfcsvg

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/internal/mono"
	"github.com/kafkagrid/kafkagrid/style"
)

// Options configure a Canvas.
type Options struct {
	// Title and Desc are the drawing's <title> and <desc>.
	Title, Desc string
	// Inline omits the XML prolog, for SVG embedded in an RFCXML document.
	Inline bool
	// Palette decides which roles are dark (drawn black) or light (white); nil is the default
	// palette.
	Palette style.Palette
}

// Canvas draws on an SVG 1.2 RFC document. Create one with New and finish it with Close. It is
// not safe for concurrent use.
type Canvas struct {
	w             io.Writer
	width, height canvas.Pt
	opts          Options
	body          bytes.Buffer
	depth         int
	done          bool
	pal           style.Palette
}

// New returns a Canvas of the given size that writes its document to w when closed.
func New(w io.Writer, width, height canvas.Pt, opts Options) *Canvas {
	return &Canvas{w: w, width: canvas.Round(width), height: canvas.Round(height), opts: opts, pal: opts.Palette}
}

// Begin opens a group: <g id? class?><title>…</title>.
func (c *Canvas) Begin(g canvas.Group) {
	b := &c.body
	b.WriteString("<g")
	if id := sanitizeID(g.ID); id != "" {
		b.WriteString(` id="kg-`) // (prefixed: an XML id may not start with a digit)
		b.WriteString(id)
		b.WriteByte('"')
	}
	if g.Class != "" {
		b.WriteString(` class="`)
		b.WriteString(esc(mono.CleanAttr(g.Class), true))
		b.WriteByte('"')
	}
	b.WriteString(">\n")
	if g.Title != "" {
		b.WriteString("<title>")
		lines := strings.Split(g.Title, "\n")
		for i, l := range lines {
			if i > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(esc(mono.Clean(l), false))
		}
		b.WriteString("</title>\n")
	}
	c.depth++
}

// End closes the innermost group; an End without a Begin is ignored.
func (c *Canvas) End() {
	if c.depth == 0 {
		return
	}
	c.depth--
	c.body.WriteString("</g>\n")
}

// Rect draws a rectangle with its top-left corner at (x, y).
func (c *Canvas) Rect(x, y, w, h canvas.Pt, s canvas.Style) {
	b := &c.body
	b.WriteString("<rect")
	num(b, "x", x)
	num(b, "y", y)
	num(b, "width", w)
	num(b, "height", h)
	c.paint(b, s, false)
	b.WriteString("/>\n")
}

// Line draws a straight segment.
func (c *Canvas) Line(x1, y1, x2, y2 canvas.Pt, s canvas.Style) {
	b := &c.body
	b.WriteString("<line")
	num(b, "x1", x1)
	num(b, "y1", y1)
	num(b, "x2", x2)
	num(b, "y2", y2)
	c.paint(b, s, true)
	b.WriteString("/>\n")
}

// Polyline draws an open path through the points (x0, y0, x1, y1, …); a trailing odd
// coordinate is ignored.
func (c *Canvas) Polyline(pts []canvas.Pt, s canvas.Style) {
	if len(pts) < 4 {
		return
	}
	b := &c.body
	b.WriteString(`<polyline points="`)
	for i := 0; i+1 < len(pts); i += 2 {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(fmtNum(pts[i]))
		b.WriteByte(',')
		b.WriteString(fmtNum(pts[i+1]))
	}
	b.WriteByte('"')
	c.paint(b, s, false)
	b.WriteString("/>\n")
}

// Text draws t with its baseline at y.
func (c *Canvas) Text(x, y canvas.Pt, t canvas.Text) {
	b := &c.body
	s := mono.Clean(t.S)
	b.WriteString("<text")
	num(b, "x", x)
	num(b, "y", y)
	num(b, "font-size", t.Size)
	fill := t.Fill
	if fill == "" {
		fill = style.Ink
	}
	b.WriteString(` fill="`)
	b.WriteString(c.ink(fill))
	b.WriteByte('"')
	switch t.Anchor {
	case canvas.Middle:
		b.WriteString(` text-anchor="middle"`)
	case canvas.End:
		b.WriteString(` text-anchor="end"`)
	}
	if t.Bold {
		b.WriteString(` font-weight="bold"`)
	}
	if strings.Contains(s, "  ") || strings.HasPrefix(s, " ") || strings.HasSuffix(s, " ") {
		b.WriteString(` xml:space="preserve"`)
	}
	if t.Turned { // RFC 7996 allows transform on text
		b.WriteString(` transform="rotate(-90 ` + fmtNum(x) + " " + fmtNum(y) + `)"`)
	}
	b.WriteByte('>')
	b.WriteString(esc(s, false))
	b.WriteString("</text>\n")
}

// paint writes a shape's fill, stroke, width and dashes as presentation attributes. A line
// has no fill.
func (c *Canvas) paint(b *bytes.Buffer, s canvas.Style, line bool) {
	if !line {
		b.WriteString(` fill="`)
		if s.Fill == "" {
			b.WriteString("none")
		} else {
			b.WriteString(c.fill(s.Fill))
		}
		b.WriteByte('"')
	}
	if s.Stroke == "" {
		b.WriteString(` stroke="none"`)
		return
	}
	b.WriteString(` stroke="`)
	b.WriteString(c.ink(s.Stroke))
	b.WriteByte('"')
	if w := canvas.Round(s.Width); w != 0 && w != 1 {
		num(b, "stroke-width", w)
	}
	if s.Dash {
		b.WriteString(` stroke-dasharray="3 2"`)
	}
}

// luma returns the light colour of r as a luma from 0 to 255 (Rec. 709 weights).
func (c *Canvas) luma(r style.Role) float64 {
	var rgb style.RGB
	if c.pal != nil {
		rgb = c.pal.Light(r)
	} else {
		rgb = style.Light(r)
	}
	return 0.2126*float64(rgb.R) + 0.7152*float64(rgb.G) + 0.0722*float64(rgb.B)
}

// fill maps a fill role to black or white: black only for dark roles (ink, muted, accent).
func (c *Canvas) fill(r style.Role) string {
	if c.luma(r) < 128 {
		return "black"
	}
	return "white"
}

// ink maps a stroke or text role to black or white: white only for near-white roles.
func (c *Canvas) ink(r style.Role) string {
	if c.luma(r) >= 240 {
		return "white"
	}
	return "black"
}

// Close finishes the document and writes it. It returns the first write error; closing twice
// is an error.
func (c *Canvas) Close() error {
	if c.done {
		return fmt.Errorf("rfcsvg: canvas already closed")
	}
	c.done = true
	for c.depth > 0 {
		c.End()
	}
	var h bytes.Buffer
	if !c.opts.Inline {
		h.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
	}
	h.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" version="1.2" baseProfile="tiny"`)
	num(&h, "width", c.width)
	num(&h, "height", c.height)
	h.WriteString(` viewBox="0 0 `)
	h.WriteString(fmtNum(c.width))
	h.WriteByte(' ')
	h.WriteString(fmtNum(c.height))
	h.WriteString(`" role="img" font-family="monospace">` + "\n")
	h.WriteString("<title>")
	h.WriteString(esc(mono.Clean(c.opts.Title), false))
	h.WriteString("</title>\n<desc>")
	h.WriteString(esc(mono.Clean(c.opts.Desc), false))
	h.WriteString("</desc>\n")
	if _, err := c.w.Write(h.Bytes()); err != nil {
		return fmt.Errorf("rfcsvg: write: %w", err)
	}
	c.body.WriteString("</svg>\n")
	if _, err := c.w.Write(c.body.Bytes()); err != nil {
		return fmt.Errorf("rfcsvg: write: %w", err)
	}
	return nil
}

var _ canvas.Canvas = (*Canvas)(nil)

// WriteOptions configure Write.
type WriteOptions struct {
	// Title and Desc are the document's <title> and <desc>; empty means the drawing's own.
	Title, Desc string
	// Inline omits the XML prolog.
	Inline bool
	// Rows is the run of rows to write; the zero Span means the whole drawing.
	Rows canvas.Span
	// Palette decides which roles are dark or light (see Options).
	Palette style.Palette
}

// Write writes d, or the run of rows opt.Rows of it, to w as one SVG 1.2 RFC document.
func Write(w io.Writer, d canvas.Drawing, opt WriteOptions) error {
	if d == nil {
		return fmt.Errorf("rfcsvg: nil drawing")
	}
	p := canvas.PartOf(d, opt.Rows, opt.Title, opt.Desc)
	c := New(w, p.Width, p.Height, Options{Title: p.Title, Desc: p.Desc, Inline: opt.Inline, Palette: opt.Palette})
	d.PaintRows(c, p.From, p.To)
	return c.Close()
}

// num writes ` name="v"`.
func num(b *bytes.Buffer, name string, v canvas.Pt) {
	b.WriteByte(' ')
	b.WriteString(name)
	b.WriteString(`="`)
	b.WriteString(fmtNum(v))
	b.WriteByte('"')
}

// fmtNum formats v rounded by canvas.Round in its shortest form; NaN and infinities are 0.
func fmtNum(v canvas.Pt) string {
	f := float64(canvas.Round(v))
	if f != f || f > 1e15 || f < -1e15 {
		return "0"
	}
	if f == 0 {
		return "0"
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// esc escapes s for XML text or a double-quoted attribute; characters XML forbids become
// U+FFFD.
func esc(s string, attr bool) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '&':
			b.WriteString("&amp;")
		case r == '"' && attr:
			b.WriteString("&quot;")
		case (r == '\n' || r == '\t' || r == '\r') && attr:
			b.WriteString(" ")
		case r == 0x09 || r == 0x0A || r == 0x0D || r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF:
			b.WriteRune(r)
		default:
			b.WriteRune('\uFFFD')
		}
	}
	return b.String()
}

// sanitizeID keeps ASCII letters, digits, '-' and '_'.
func sanitizeID(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return -1
	}, s)
}
