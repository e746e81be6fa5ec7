// Package svgcanvas is the SVG backend of package canvas: it writes a drawing as one standalone
// SVG document that follows kafkagrid's SVG contract. Write takes any canvas.Drawing (a byte
// grid, a tree), whole or a run of its rows, and is the one way the command, the reference's
// files and pages and their printed parts make SVG; New and Close are the Canvas beneath it, for
// drawings of one's own.
//
// # What it writes
//
// The document has a viewBox plus width and height (one canvas point is one SVG user unit),
// role="img", a <title> and a <desc> named by aria-labelledby, and exactly one <style>. Colours
// are plain values (#rrggbb) in the rules of the style sheet, so that every renderer paints
// them: browsers, librsvg, and prawn-svg (Asciidoctor PDF), which has no custom properties.
// Options.Theme chooses the palette: the light one with a dark variant where the reader's
// system (prefers-color-scheme) or the page's own dark class asks for it (ThemeAuto, the
// default), or one of them only. The values come from the default palette or Options.Palette;
// the font from Options.FontFamily.
// Each canvas group becomes <g id? class="…" data-…="…"><title>…</title>…</g>.
//
// Shapes and text do not carry their colours and sizes inline. The canvas gives each distinct
// paint style (fill, stroke, width, dash) and text style (size, colour, anchor, weight) a short
// generated class, in order of first use, and writes one CSS rule per class; this keeps a grid
// of several hundred text runs small. The <style> is therefore written when the canvas is
// closed: the drawing is buffered in memory and reaches the io.Writer in Close.
//
// All CSS is scoped under a class of the root element, its id, so several SVGs inlined into
// one HTML page do not fight, and a page that renames the ids breaks nothing; ids of groups are
// prefixed with the same id. The id is Options.IDPrefix, or by default a short hash of the
// title, description, size and class. An inline SVG (Options.Inline) writes its braces and
// stars as character references, so that MDX reads it as HTML (see writeJSXSafe).
//
// # Numbers, escaping, errors
//
// Every coordinate passes through canvas.Round and is written in its shortest form (12, 12.5,
// 12.25). Attribute values and text are escaped here (<, >, &, quotes), and text is cleaned with
// mono.Clean, so no label can break the XML. Output is deterministic: the same calls give the
// same bytes.
//
// Drawing methods return nothing; Close returns the first write error. The writer is wrapped
// so that nothing more is written after the first failure (svgo, github.com/ajstarks/svgo,
// ignores write errors).
//
// Every element is written directly into the buffer rather than through svgo
// (github.com/ajstarks/svgo), which was measured to be wasteful: its integer API cannot place
// half points and its float API pads every number to fixed decimals ("12.00"), which would
// grow a grid's file by a third; its Group and Title go through fmt and string concatenation,
// a tenth of the time of painting a grid; its Gend goes through fmt too, once per group. The
// drawing is appended to one byte slice, and escaping is done here in every case.
//
// # Painted once, written many times
//
// Paint paints a drawing once into a Painting, which Painting.Write writes as many documents
// as asked: standalone and inline, each with its own id, title, description and theme, byte
// for byte what Write writes with the same options. The id is left out of the painted bytes
// (a hole before each group id's "-") and written with the document. Write is Paint and one
// Painting.Write.
//
// A Canvas is not safe for concurrent use.
//
// SVG 1.1: https://www.w3.org/TR/SVG11/
package svgcanvas

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/internal/mono"
	"github.com/kafkagrid/kafkagrid/style"
)

// Options configure a Canvas. The zero value is a standalone SVG with default ids.
type Options struct {
	// Title and Desc are the accessible name and description (<title>, <desc>).
	Title, Desc string
	// Inline omits the XML prolog, for SVG embedded in HTML.
	Inline bool
	// IDPrefix is the root element's id and the prefix of every group id. Empty means
	// "kg" followed by a short hash of the title, description, size and class.
	IDPrefix string
	// Class is added to the root element's class list (which always holds "kg"), e.g. "kg-grid".
	Class string
	// ExtraCSS is appended to the <style> verbatim (escaped for XML). Scope its rules, e.g.
	// under the root class (".kg-grid .field:hover rect{…}"), so inlined SVGs do not fight.
	ExtraCSS string
	// Palette chooses the light and dark colours of roles; nil is the default palette.
	Palette style.Palette
	// Theme is ThemeAuto (or empty), ThemeLight or ThemeDark: the palette the drawing shows
	// (see appendCSS); another value is ThemeAuto.
	Theme string
	// FontFamily is the CSS font-family of all text; empty means a stack that starts with Go
	// Mono (mono.SVGFontStack). Layouts measure text in Go Mono, whose advance is 0.6 em: a
	// face of another advance makes text wider or narrower than its box.
	FontFamily string
}

// Canvas draws on an SVG document. Create one with New and finish it with Close.
type Canvas struct {
	w             io.Writer
	width, height canvas.Pt
	opts          Options
	id            string

	body  []byte // the drawing is body[:n], written at Close after the <style>; len(body) == cap(body)
	n     int
	depth int
	done  bool

	// holes, when the canvas paints a Painting, are the offsets in body where the root id
	// goes (each group id's prefix): the id is written with the document (Painting.Write),
	// not painted, so that one painting is written with any id.
	holes    []int
	painting bool

	paintOrder []canvas.Style // generated paint classes p0, p1, …
	textOrder  []textKey      // generated text classes t0, t1, …
	lastPaint  int            // index of the paint class used last, tried first
	lastText   int            // index of the text class used last, tried first

	// The first classes and roles are kept in the Canvas itself: a drawing has a dozen or so.
	paintBuf [16]canvas.Style
	textBuf  [8]textKey
}

// textKey is what a text run's generated class fixes.
type textKey struct {
	size   canvas.Pt
	fill   style.Role
	anchor canvas.Anchor
	bold   bool
}

// same reports whether t and k are equal, comparing the numbers before the role; through
// pointers, as the 40-byte keys are compared in a loop.
func (t *textKey) same(k *textKey) bool {
	return t.size == k.size && t.anchor == k.anchor && t.bold == k.bold && t.fill == k.fill
}

// sameStyle reports whether two paint styles are equal, the numbers first (see textKey.same).
func sameStyle(a, b *canvas.Style) bool {
	return a.Width == b.Width && a.Dash == b.Dash && a.Fill == b.Fill && a.Stroke == b.Stroke && a.Class == b.Class
}

// New returns a Canvas of the given size that writes its document to w when closed.
func New(w io.Writer, width, height canvas.Pt, opts Options) *Canvas {
	c := &Canvas{
		w: w, width: canvas.Round(width), height: canvas.Round(height), opts: opts,
	}
	c.paintOrder, c.textOrder = c.paintBuf[:0], c.textBuf[:0]
	c.id = rootID(opts, c.width, c.height)
	// A drawing writes about one byte per 16 to 25 square points; start near that. Close
	// writes the head (prolog, <svg>, <title>, <desc>, <style>) into the room left after the
	// drawing, so one buffer holds both (a head is 2 to 3 KB besides its texts).
	hint := min(max(int(float64(c.width)*float64(c.height)/14), 4<<10), 256<<10)
	c.body = body(hint + headRoom + len(opts.Title) + len(opts.Desc) + len(opts.ExtraCSS))
	return c
}

// rootID is the root element's id of a document of the given (rounded) size: opts.IDPrefix
// sanitized, or "kg" and the hash of "title\0desc\0width\0height\0class", the numbers as %g
// formats them.
func rootID(opts Options, width, height canvas.Pt) string {
	if id := sanitizeID(opts.IDPrefix); id != "" {
		return id
	}
	h := fnv.New32a()
	b := make([]byte, 0, 64+len(opts.Title)+len(opts.Desc)+len(opts.Class))
	b = append(b, opts.Title...)
	b = append(b, 0)
	b = append(b, opts.Desc...)
	b = append(b, 0)
	b = strconv.AppendFloat(b, float64(width), 'g', -1, 64)
	b = append(b, 0)
	b = strconv.AppendFloat(b, float64(height), 'g', -1, 64)
	b = append(b, 0)
	b = append(b, opts.Class...)
	h.Write(b)
	const digits = "0123456789abcdef"
	sum := h.Sum32()
	id := []byte("kg00000000")
	for i := 9; i >= 2; i-- {
		id[i] = digits[sum&15]
		sum >>= 4
	}
	return string(id)
}

// bodies are the buffers of closed canvases: a page of drawings, or a build of thousands,
// draws each into one used before instead of a new one (a tenth of a build's allocated bytes,
// and the time to clear them).
var bodies sync.Pool

// body returns a buffer of at least n bytes, its length its capacity, from bodies when one
// there is large enough. Its bytes are not cleared: a canvas reads only what it appended.
func body(n int) []byte {
	if p, ok := bodies.Get().(*[]byte); ok {
		if b := *p; cap(b) >= n {
			return b[:cap(b)]
		}
	}
	return make([]byte, n)
}

// headRoom is the room New leaves for the head besides its title, description and extra CSS:
// enough for the rules of a grid's or a tree's dozen or two classes. A larger head still works:
// append then moves it (not the drawing) to a larger buffer.
const headRoom = 2560

// keep stores b, the drawing appended to, back in c. It writes the buffer's pointer only when
// append moved it: a pointer stored in the heap goes through the garbage collector's write
// barrier while it marks, and a drawing makes a few hundred calls.
func (c *Canvas) keep(b []byte) {
	if cap(b) != cap(c.body) {
		c.body = b[:cap(b)]
	}
	c.n = len(b)
}

// ID returns the root element's id, which prefixes every group id and scopes the CSS.
func (c *Canvas) ID() string { return c.id }

// Begin opens a group: <g id class data-…><title>…</title>. The open tag and the title are
// written directly (svgo's Group formats through fmt and string concatenation, its Title
// escapes byte by byte; together they were a tenth of the time of painting a grid).
func (c *Canvas) Begin(g canvas.Group) {
	b := c.body[:c.n]
	b = append(b, "<g"...)
	if g.ID != "" {
		b = append(b, ` id="`...)
		if c.painting {
			c.holes = append(c.holes, len(b)) // the root id, written with the document
		} else {
			b = appendEsc(b, c.id, true)
		}
		b = append(b, '-')
		b = appendEsc(b, g.ID, true)
		b = append(b, '"')
	}
	if g.Class != "" {
		b = append(b, ` class="`...)
		b = appendEsc(b, g.Class, true)
		b = append(b, '"')
	}
	for _, a := range g.Attrs {
		n := a.Name
		switch n {
		case "data-path", "data-offset", "data-length": // the common names, known to be safe
		default:
			n = attrName(n)
		}
		if n == "" {
			continue
		}
		b = append(b, ' ')
		b = append(b, n...)
		b = append(b, `="`...)
		b = appendEsc(b, a.Value, true)
		b = append(b, '"')
	}
	b = append(b, ">\n"...)
	if g.Title != "" {
		b = append(b, "<title>"...)
		b = appendLines(b, g.Title)
		b = append(b, "</title>\n"...)
	}
	c.keep(b)
	c.depth++
}

// End closes the innermost group. An End without a Begin is ignored.
func (c *Canvas) End() {
	if c.depth == 0 {
		return
	}
	c.depth--
	c.keep(append(c.body[:c.n], "</g>\n"...)) // as svgo's Gend writes it, without fmt
}

// Rect draws a rectangle with its top-left corner at (x, y).
func (c *Canvas) Rect(x, y, w, h canvas.Pt, s canvas.Style) {
	b := c.body[:c.n]
	b = append(b, `<rect`...)
	b = c.appendPaintClass(b, s)
	b = appendNum(append(b, ` x="`...), x)
	b = appendNum(append(b, `" y="`...), y)
	b = appendNum(append(b, `" width="`...), w)
	b = appendNum(append(b, `" height="`...), h)
	b = append(b, "\"/>\n"...)
	c.keep(b)
}

// Line draws a straight segment.
func (c *Canvas) Line(x1, y1, x2, y2 canvas.Pt, s canvas.Style) {
	b := c.body[:c.n]
	b = append(b, `<line`...)
	b = c.appendPaintClass(b, s)
	b = appendNum(append(b, ` x1="`...), x1)
	b = appendNum(append(b, `" y1="`...), y1)
	b = appendNum(append(b, `" x2="`...), x2)
	b = appendNum(append(b, `" y2="`...), y2)
	b = append(b, "\"/>\n"...)
	c.keep(b)
}

// Polyline draws an open path through the points (x0, y0, x1, y1, …); a trailing odd
// coordinate is ignored.
func (c *Canvas) Polyline(pts []canvas.Pt, s canvas.Style) {
	if len(pts) < 4 {
		return
	}
	b := c.body[:c.n]
	b = append(b, `<polyline`...)
	b = c.appendPaintClass(b, s)
	b = append(b, ` points="`...)
	for i := 0; i+1 < len(pts); i += 2 {
		if i > 0 {
			b = append(b, ' ')
		}
		b = appendNum(b, pts[i])
		b = append(b, ',')
		b = appendNum(b, pts[i+1])
	}
	b = append(b, "\"/>\n"...)
	c.keep(b)
}

// minFittedRunes is the shortest run given a textLength: a one- or two-rune run (a ruler
// digit, a hex byte) drifts by a fraction of a pixel in another font, and the attribute would
// grow every grid by a third.
const minFittedRunes = 3

// Text draws t with its baseline at y.
func (c *Canvas) Text(x, y canvas.Pt, t canvas.Text) {
	k := textKey{size: canvas.Round(t.Size), fill: t.Fill, anchor: t.Anchor, bold: t.Bold}
	if k.fill == "" {
		k.fill = style.Ink
	}
	n := c.lastText
	if n >= len(c.textOrder) || !c.textOrder[n].same(&k) {
		n = -1 // a drawing has few text styles: a search is faster than hashing
		for i := range c.textOrder {
			if c.textOrder[i].same(&k) {
				n = i
				break
			}
		}
	}
	if n < 0 {
		n = len(c.textOrder)
		c.textOrder = append(c.textOrder, k)
	}
	c.lastText = n
	b := c.body[:c.n]
	b = append(b, `<text class="t`...)
	if n < 10 {
		b = append(b, byte('0'+n))
	} else {
		b = strconv.AppendInt(b, int64(n), 10)
	}
	if t.Class != "" {
		b = append(b, ' ')
		b = appendEsc(b, t.Class, true)
	}
	b = appendNum(append(b, `" x="`...), x)
	b = appendNum(append(b, `" y="`...), y)
	if n := mono.Runes(t.S); n >= minFittedRunes {
		// The run's measured width binds in every viewer: one whose monospace font has
		// another advance than Go Mono's 0.6 em fits the glyphs to it, so a label never
		// leaves its box (DESIGN.md, "Text is measured, never guessed"). spacingAndGlyphs
		// scales the run rather than its spacing: in a font of Go Mono's advance both change
		// nothing, but prawn-svg (Asciidoctor PDF) writes the spacing's rounding residue as
		// "1.8e-15 Tc", an operator no PDF reader takes, and the scale as "100.0 Tz".
		b = appendNum(append(b, `" textLength="`...), canvas.Round(canvas.Pt(mono.Width(t.S, float64(t.Size)))))
		b = append(b, `" lengthAdjust="spacingAndGlyphs`...)
	}
	if t.Turned {
		b = appendNum(append(b, `" transform="rotate(-90 `...), x)
		b = appendNum(append(b, ' '), y)
		b = append(b, ')')
	}
	b = append(b, `">`...)
	b = appendText(b, t.S)
	b = append(b, "</text>\n"...)
	c.keep(b)
}

// appendPaintClass appends ` class="pN …"` for style s, registering the style on first use.
func (c *Canvas) appendPaintClass(b []byte, s canvas.Style) []byte {
	key := s
	key.Class = ""
	key.Width = canvas.Round(key.Width)
	if key.Width == 1 {
		key.Width = 0
	}
	n := c.lastPaint
	if n >= len(c.paintOrder) || !sameStyle(&c.paintOrder[n], &key) {
		n = -1
		for i := range c.paintOrder {
			if sameStyle(&c.paintOrder[i], &key) {
				n = i
				break
			}
		}
	}
	if n < 0 {
		n = len(c.paintOrder)
		c.paintOrder = append(c.paintOrder, key)
	}
	c.lastPaint = n
	b = append(b, ` class="p`...)
	if n < 10 {
		b = append(b, byte('0'+n))
	} else {
		b = strconv.AppendInt(b, int64(n), 10)
	}
	if s.Class != "" {
		b = append(b, ' ')
		b = appendEsc(b, s.Class, true)
	}
	return append(b, '"')
}

// Close finishes the document and writes it to the writer. It returns the first write error;
// after an error nothing more is written. Closing twice is an error.
func (c *Canvas) Close() error {
	if c.done {
		return fmt.Errorf("svgcanvas: canvas already closed")
	}
	c.finish()
	err := c.emit(c.w, c.id, c.opts)
	c.release()
	return err
}

// finish closes the groups left open and marks the canvas done: what is painted is final.
func (c *Canvas) finish() {
	for c.depth > 0 {
		c.End()
	}
	c.done = true
}

// release gives the buffer back to bodies; a canvas painted after it appends to a new one.
func (c *Canvas) release() {
	if c.body != nil && cap(c.body) <= maxBody {
		p := c.body
		bodies.Put(&p)
	}
	c.body, c.n, c.holes = nil, 0, nil
}

// emit writes the document of what is painted to w: the head (prolog, <svg>, <title>,
// <desc>, <style>) of root id id and options opts, then the drawing, with id in each of its
// holes, and the end tag. It returns the first write error.
func (c *Canvas) emit(w io.Writer, id string, opts Options) error {
	ew := &errWriter{w: w}
	// The head goes into the room after the drawing (see New); append copies it elsewhere if
	// it outgrows that room, leaving the drawing as it is.
	b := c.appendHead(c.body[c.n:c.n], id, opts)
	body := c.body[:c.n]
	if opts.Inline {
		// writeJSXSafe: the head always has braces (its style sheet), the drawing seldom.
		ew.writeJSXSafe(b)
	} else {
		ew.Write(b)
	}
	from := 0
	for _, h := range c.holes {
		ew.writeBody(body[from:h], opts.Inline)
		ew.writeString(id) // an id is made of safe bytes (see sanitizeID), none of them replaced
		from = h
	}
	ew.writeBody(body[from:], opts.Inline)
	ew.writeString("</svg>\n") // as svgo's End wrote it
	return ew.err
}

// appendHead appends the document's head for root id id and options opts (Close's, or
// those a Painting is written with) to b.
func (c *Canvas) appendHead(b []byte, id string, opts Options) []byte {
	if !opts.Inline {
		b = append(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"...)
	}
	b = append(b, `<svg xmlns="http://www.w3.org/2000/svg" id="`...)
	b = appendEsc(b, id, true)
	b = append(b, `" class="kg`...)
	if opts.Class != "" {
		b = append(b, ' ')
		b = appendEsc(b, opts.Class, true)
	}
	b = append(b, ' ')
	b = appendEsc(b, id, true) // the CSS's scope (see appendCSS)
	b = appendNum(append(b, `" width="`...), c.width)
	b = appendNum(append(b, `" height="`...), c.height)
	b = appendNum(append(b, `" viewBox="0 0 `...), c.width)
	b = append(b, ' ')
	b = appendNum(b, c.height)
	b = append(b, `" role="img" aria-labelledby="`...)
	b = appendEsc(b, id, true) // (an id is made of safe bytes; see sanitizeID)
	b = append(b, "-title "...)
	b = appendEsc(b, id, true)
	b = append(b, "-desc\">\n<title id=\""...)
	b = appendEsc(b, id, true)
	b = append(b, "-title"...)
	b = append(b, `">`...)
	b = appendEsc(b, mono.Clean(opts.Title), false)
	b = append(b, "</title>\n<desc id=\""...)
	b = appendEsc(b, id, true)
	b = append(b, `-desc">`...)
	b = appendEsc(b, mono.Clean(opts.Desc), false)
	b = append(b, "</desc>\n<style>"...)
	b = c.appendCSS(b, id, opts)
	b = appendEsc(b, opts.ExtraCSS, false)
	return append(b, "</style>\n"...)
}

// writeBody writes part of the drawing, through writeJSXSafe when inline.
func (e *errWriter) writeBody(b []byte, inline bool) {
	if inline {
		e.writeJSXSafe(b)
	} else {
		e.Write(b)
	}
}

// writeJSXSafe writes b with every '{', '}' and '*' written as a character reference, the
// runs between them as they are, without a copy: an inline SVG goes into Markdown, and MDX
// (Docusaurus, Astro, Next.js) reads a brace in the text of an HTML element as the start of a
// JavaScript expression, and a star as Markdown emphasis. HTML decodes a reference inside an
// <svg> (foreign content, where <style> is not raw text) as XML does, so the CSS and the labels
// mean the same; a drawing of ours has no other place where a reference would be read as its
// characters.
func (e *errWriter) writeJSXSafe(b []byte) {
	// next[k] is where the next of jsxBytes[k] is (len(b) for none): each is looked for with
	// IndexByte, and again only once it is passed, so b is read once for each of the three.
	var next [len(jsxBytes)]int
	for k := range jsxBytes {
		next[k] = indexFrom(b, jsxBytes[k], 0)
	}
	from := 0
	for {
		k := 0
		for j := 1; j < len(next); j++ {
			if next[j] < next[k] {
				k = j
			}
		}
		i := next[k]
		if i > from {
			e.Write(b[from:i])
		}
		if i == len(b) {
			return
		}
		e.writeString(jsxRefs[k])
		from = i + 1
		next[k] = indexFrom(b, jsxBytes[k], from)
	}
}

// jsxBytes are the bytes writeJSXSafe writes as references, jsxRefs the references.
const jsxBytes = "{}*"

var jsxRefs = [len(jsxBytes)]string{"&#123;", "&#125;", "&#42;"}

// indexFrom is the index of the first c in b at or after from, len(b) for none.
func indexFrom(b []byte, c byte, from int) int {
	if i := bytes.IndexByte(b[from:], c); i >= 0 {
		return from + i
	}
	return len(b)
}

// maxBody is the largest buffer Close gives back to bodies: the largest New makes, with room
// for a long title and description.
const maxBody = 256<<10 + 64<<10

// appendCSS appends the generated rules, every one scoped by the root's class (its id, which
// is also a class: an embedder that renames ids, as mkdocs-kroki-plugin does, breaks nothing):
// the font, then one rule per paint and text class with plain colours (the light palette, or
// the dark one with Theme "dark"), which every renderer reads: browsers, librsvg, and prawn-svg
// (Asciidoctor PDF), which resolves no var() and reads the rules of every @media block as its
// own. With Theme "auto" (the default) the same rules follow with each colour a custom property
// (--kg-ink, --kg-g0, …; the light colour its fallback), which a browser reads: their selectors
// start with "*|*", a namespace prawn-svg's selector parser refuses, so that it skips them.
// The properties are set to the dark palette inside a prefers-color-scheme: dark query, unless
// a light class of the site is around the drawing (lightSite), and under a site's own dark
// class (darkSite: Tailwind's and VitePress's .dark, Docusaurus's [data-theme=dark], mdBook's
// coal, navy and ayu, Material for MkDocs's slate), whatever the reader's system prefers.
func (c *Canvas) appendCSS(b []byte, id string, opts Options) []byte {
	pal := opts.Palette
	sel := "." + id
	theme := opts.Theme
	b = append(b, sel...)
	b = append(b, " text{font-family:"...)
	if f := fontFamily(opts.FontFamily); f != "" {
		b = appendEsc(b, f, false)
	} else {
		b = append(b, mono.SVGFontStack...)
	}
	b = append(b, ";white-space:pre}\n"...)
	b = c.appendRules(b, sel, pal, theme == ThemeDark, true)
	if theme == ThemeLight || theme == ThemeDark {
		return b
	}
	b = c.appendRules(b, "*|*"+sel, pal, false, false)
	roles := c.roles()
	b = append(b, "@media (prefers-color-scheme:dark){*|*"...)
	b = append(b, sel...)
	b = append(b, ":not("+lightSite+"){"...)
	b = appendVars(b, roles, pal)
	b = append(b, "}}\n"+darkSite+" "...)
	b = append(b, sel...)
	b = append(b, '{')
	b = appendVars(b, roles, pal)
	return append(b, "}\n"...)
}

// The themes of Options.Theme.
const (
	ThemeAuto  = "auto"  // light, dark where the reader's system or the site says so (the default)
	ThemeLight = "light" // the light palette only
	ThemeDark  = "dark"  // the dark palette only
)

// Themes returns the themes Options.Theme takes, in the order messages list them.
func Themes() []string { return []string{ThemeAuto, ThemeLight, ThemeDark} }

// darkSite is the selector of a site's own dark theme around an inline drawing, and lightSite
// (inside :not) of its light one, which wins over a reader's dark system: the classes and
// attributes the common site tools set on <html> or <body>.
const (
	darkSite  = ":is(.dark,[data-theme=dark],.coal,.navy,.ayu,[data-md-color-scheme=slate])"
	lightSite = ".light *,[data-theme=light] *,.rust *,[data-md-color-scheme=default] *"
)

// appendRules appends one rule per paint and text class, "scope .pN{…}": with its sizes,
// anchors and weights and its colours plain (light, or dark with dark), or (vars) its colours
// alone as custom properties whose fallback is the light colour.
func (c *Canvas) appendRules(b []byte, scope string, pal style.Palette, dark, plain bool) []byte {
	colour := func(b []byte, prop string, r style.Role) []byte {
		if plain {
			return appendColour(b, prop, r, pal, dark)
		}
		return appendVarColour(b, prop, r, pal)
	}
	for i, s := range c.paintOrder {
		b = append(b, scope...)
		b = append(b, " .p"...)
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, '{')
		if plain || s.Fill != "" {
			b = colour(b, "fill", s.Fill)
		}
		if plain || s.Stroke != "" {
			b = colour(b, "stroke", s.Stroke)
		}
		if plain && s.Stroke != "" && s.Width != 0 {
			b = appendNum(append(b, "stroke-width:"...), s.Width)
			b = append(b, ';')
		}
		if plain && s.Stroke != "" && s.Dash {
			b = append(b, "stroke-dasharray:3 2;"...)
		}
		b = append(b, "}\n"...)
	}
	for i, t := range c.textOrder {
		b = append(b, scope...)
		b = append(b, " .t"...)
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, '{')
		if plain {
			b = appendNum(append(b, "font-size:"...), t.size)
			b = append(b, "px;"...)
		}
		b = colour(b, "fill", t.fill)
		if plain {
			switch t.anchor {
			case canvas.Middle:
				b = append(b, "text-anchor:middle;"...)
			case canvas.End:
				b = append(b, "text-anchor:end;"...)
			}
			if t.bold {
				b = append(b, "font-weight:bold;"...)
			}
		}
		b = append(b, "}\n"...)
	}
	return b
}

// roles returns the roles the drawing uses: known ones in style.Roles order, then others
// sorted by name.
func (c *Canvas) roles() []style.Role {
	var used []style.Role
	add := func(r style.Role) {
		if r != "" && !slices.Contains(used, r) {
			used = append(used, r)
		}
	}
	for _, s := range c.paintOrder {
		add(s.Fill)
		add(s.Stroke)
	}
	for _, t := range c.textOrder {
		add(t.fill)
	}
	var out []style.Role
	for _, r := range style.Roles() {
		if slices.Contains(used, r) {
			out = append(out, r)
		}
	}
	var extra []style.Role
	for _, r := range used {
		if !style.Known(r) {
			extra = append(extra, r)
		}
	}
	slices.Sort(extra)
	return append(out, extra...)
}

// appendVars appends the custom property of each role set to its dark colour.
func appendVars(b []byte, roles []style.Role, pal style.Palette) []byte {
	for _, r := range roles {
		b = append(b, "--kg-"...)
		b = append(b, roleName(r)...)
		b = append(b, ':')
		b = appendHex(b, pal.Dark(r))
		b = append(b, ';')
	}
	return b
}

// appendVarColour appends "prop:var(--kg-role,#light);", or "prop:none;" for an empty role.
func appendVarColour(b []byte, prop string, r style.Role, pal style.Palette) []byte {
	b = append(b, prop...)
	b = append(b, ':')
	if r == "" {
		return append(b, "none;"...)
	}
	b = append(b, "var(--kg-"...)
	b = append(b, roleName(r)...)
	b = append(b, ',')
	b = appendHex(b, pal.Light(r))
	return append(b, ");"...)
}

// roleName returns r reduced to the characters allowed in a custom property name here.
func roleName(r style.Role) string {
	s := sanitizeID(string(r))
	if s == "" {
		return "x"
	}
	return s
}

// fontFamily returns f with every byte that could end the CSS declaration or the <style>
// dropped: what stays is letters, digits, spaces, quotes, commas, hyphens, underscores and dots.
func fontFamily(f string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			return r
		case strings.ContainsRune(` "',-_.`, r):
			return r
		}
		return -1
	}, f)
}

// appendColour appends "prop:#rrggbb;", the role's light or dark colour, or "prop:none;" for
// an empty role.
func appendColour(b []byte, prop string, r style.Role, pal style.Palette, dark bool) []byte {
	b = append(b, prop...)
	b = append(b, ':')
	if r == "" {
		return append(b, "none;"...)
	}
	if dark {
		b = appendHex(b, pal.Dark(r))
	} else {
		b = appendHex(b, pal.Light(r))
	}
	return append(b, ';')
}

// appendHex appends c as #rrggbb.
func appendHex(b []byte, c style.RGB) []byte {
	const digits = "0123456789abcdef"
	return append(b, '#', digits[c.R>>4], digits[c.R&15], digits[c.G>>4], digits[c.G&15], digits[c.B>>4], digits[c.B&15])
}

// sanitizeID keeps ASCII letters, digits, '-' and '_'.
func sanitizeID(s string) string {
	ok := true
	for i := 0; i < len(s); i++ {
		if !idByte(s[i]) {
			ok = false
			break
		}
	}
	if ok {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if idByte(s[i]) {
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

func idByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}

// attrName returns a safe attribute name for a group attribute: names are limited to ASCII
// letters, digits, '-' and '_' (and must start with a letter); anything else is dropped.
func attrName(n string) string {
	n = sanitizeID(n)
	if n == "" || !(n[0] >= 'a' && n[0] <= 'z' || n[0] >= 'A' && n[0] <= 'Z') {
		return ""
	}
	return n
}

// appendNum appends v rounded by canvas.Round in its shortest decimal form (12, 12.5, 12.25),
// formatting hundredths as integers: strconv's shortest float formatting was the largest single
// cost of writing a grid. A coordinate from 0 to 9999, nearly every one, takes a short path:
// b grows once, the digits of the integer part are stored from a table of pairs and the
// fraction (".5", ".25" or nothing) as one word from fracs: 64 instructions a number against
// 88 appending the pieces one by one (cachegrind, IPv4 grid). Others go through appendNumSlow.
func appendNum(b []byte, v canvas.Pt) []byte {
	f := float64(v)
	if !(f >= 0 && f < 9999) { // (NaN too)
		return appendNumSlow(b, v)
	}
	n := uint32(f*100 + 0.5) // canvas.Round, in hundredths, below 999900
	ip := n / 100
	fr := fracs()[n-ip*100]
	l := len(b)
	if cap(b)-l < 8 {
		b = slices.Grow(b, 8)
	}
	p := (*[8]byte)(b[l : l+8])
	var k uint32
	switch {
	case ip < 10:
		p[0] = byte('0' + ip)
		k = 1
	case ip < 100:
		p[0], p[1] = digits2[2*ip], digits2[2*ip+1]
		k = 2
	case ip < 1000:
		hi, lo := ip/100, ip%100
		p[0], p[1], p[2] = byte('0'+hi), digits2[2*lo], digits2[2*lo+1]
		k = 3
	default:
		hi, lo := ip/100, ip%100
		p[0], p[1], p[2], p[3] = digits2[2*hi], digits2[2*hi+1], digits2[2*lo], digits2[2*lo+1]
		k = 4
	}
	binary.LittleEndian.PutUint32(p[k:], fr)
	return b[:l+int(k+fr>>24)]
}

// fracs returns, for every number of hundredths 0 to 99, its shortest decimal fraction as
// appendNum stores it: up to three bytes (".5", ".25"; none for 0), with their count in the
// top byte. The table is made on first use, not at start-up, and is read-only.
var fracs = sync.OnceValue(func() *[100]uint32 {
	var t [100]uint32
	for h := 1; h < 100; h++ {
		var s string
		if h%10 == 0 {
			s = "." + string(rune('0'+h/10))
		} else {
			s = "." + digits2[2*h:2*h+2]
		}
		var w uint32
		for i := 0; i < len(s); i++ {
			w |= uint32(s[i]) << (8 * i)
		}
		t[h] = w | uint32(len(s))<<24
	}
	return &t
})

// appendNumSlow is appendNum for any value: negative, 9999 or more, infinite or NaN.
func appendNumSlow(b []byte, v canvas.Pt) []byte {
	f := float64(v)
	if !(f >= -1e15 && f <= 1e15) { // NaN, infinities and absurd sizes
		return append(b, '0')
	}
	neg := f < 0
	if neg {
		f = -f
	}
	n := int64(f*100 + 0.5) // canvas.Round, in hundredths
	if n == 0 {
		return append(b, '0') // no "-0"
	}
	if neg {
		b = append(b, '-')
	}
	if n >= 1000000 {
		b = strconv.AppendInt(b, n/100, 10)
	} else {
		ip := uint32(n) / 100 // below 10000
		if ip >= 100 {
			hi, lo := ip/100, ip%100
			if hi >= 10 {
				b = append(b, digits2[2*hi], digits2[2*hi+1])
			} else {
				b = append(b, byte('0'+hi))
			}
			b = append(b, digits2[2*lo], digits2[2*lo+1])
		} else if ip >= 10 {
			b = append(b, digits2[2*ip], digits2[2*ip+1])
		} else {
			b = append(b, byte('0'+ip))
		}
	}
	if frac := uint32(n % 100); frac != 0 {
		if frac%10 == 0 {
			b = append(b, '.', byte('0'+frac/10))
		} else {
			b = append(b, '.', digits2[2*frac], digits2[2*frac+1])
		}
	}
	return b
}

// digits2 holds the two decimal digits of 0 to 99, in order.
const digits2 = "00010203040506070809101112131415161718192021222324252627282930313233343536373839" +
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879" +
	"8081828384858687888990919293949596979899"

// appendEsc appends s escaped for XML text (or, with attr, for a double-quoted attribute).
// Invalid UTF-8 and characters XML forbids are replaced by U+FFFD.
func appendEsc(b []byte, s string, attr bool) []byte {
	i := 0
	for i < len(s) && safe(s[i]) {
		i++
	}
	if i == len(s) {
		return append(b, s...)
	}
	b = append(b, s[:i]...)
	for _, r := range s[i:] {
		switch {
		case r == '<':
			b = append(b, "&lt;"...)
		case r == '>':
			b = append(b, "&gt;"...)
		case r == '&':
			b = append(b, "&amp;"...)
		case r == '"' && attr:
			b = append(b, "&quot;"...)
		case r == '\'' && attr:
			b = append(b, "&apos;"...)
		case (r == '\n' || r == '\t' || r == '\r') && attr,
			attr && xmlChar(r) && invisible(r):
			// In an attribute the value is kept exact (a data-path names its field as the
			// source does), its invisible runes written as references a reader of the file
			// sees: "&#x202e;", never a raw bidi control that reorders the text around it.
			b = append(b, "&#x"...)
			b = strconv.AppendInt(b, int64(r), 16)
			b = append(b, ';')
		case r == '\n' || r == '\t':
			b = append(b, byte(r))
		case !xmlChar(r):
			b = append(b, "\uFFFD"...)
		default:
			b = append(b, string(r)...)
		}
	}
	return b
}

// The printable ASCII bytes, 0x20 to 0x7e, as bit sets over 0-63 (lo) and 64-127 (hi).
const (
	printLo = ^uint64(0) &^ (1<<0x20 - 1)
	printHi = 1<<(0x7f-64) - 1
	// textLo and printHi mark the bytes written as they are in text content: printable ASCII
	// but for '<', '>' and '&' (all below 64).
	textLo = printLo &^ (1<<'<' | 1<<'>' | 1<<'&')
	// safeLo and printHi mark the bytes written as they are in text and attribute values:
	// printable ASCII but for the five XML escapes.
	safeLo = textLo &^ (1<<'"' | 1<<'\'')
)

// safe reports whether c is written as it is in text and attribute values.
func safe(c byte) bool {
	if c < 64 {
		return safeLo>>c&1 != 0
	}
	return c < 128 && printHi>>(c-64)&1 != 0
}

// textSafe reports whether c is written as it is in text content.
func textSafe(c byte) bool {
	if c < 64 {
		return textLo>>c&1 != 0
	}
	return c < 128 && printHi>>(c-64)&1 != 0
}

// appendText appends s cleaned (mono.Clean) and escaped for XML text content: it is
// appendEsc(b, mono.Clean(s), false), with the printable ASCII start of s, mostly all of it,
// copied as it is (mono.Clean works rune by rune, so cleaning the rest alone is the same).
func appendText(b []byte, s string) []byte {
	i := 0
	for i < len(s) && textSafe(s[i]) {
		i++
	}
	b = append(b, s[:i]...)
	if i == len(s) {
		return b
	}
	return appendEsc(b, mono.Clean(s[i:]), false)
}

// appendLines appends s as appendText does, but keeps its line breaks ("\n"), which
// appendText would turn into spaces: a title's lines are cleaned and escaped one by one.
func appendLines(b []byte, s string) []byte {
	for {
		i := textSafeWords(s)
		for i < len(s) && textSafe(s[i]) {
			i++
		}
		b = append(b, s[:i]...)
		if i == len(s) {
			return b
		}
		if s[i] != '\n' {
			// Something to clean or escape before the next line break.
			line, rest, found := strings.Cut(s[i:], "\n")
			b = appendEsc(b, mono.Clean(line), false)
			if !found {
				return b
			}
			i, s = 0, rest
			b = append(b, '\n')
			continue
		}
		b = append(b, '\n')
		s = s[i+1:]
	}
}

// textSafeWords returns a length of a prefix of s whose bytes textSafe marks, a multiple of
// eight: it tests eight bytes at a time with the bit tricks for "some byte is zero", "some byte
// is below n" and "some byte is above n", which are exact for the word as a whole. Titles are
// the longest texts of a drawing, about 3 KB of an IPv4 grid's 13.5; the byte loop took five
// instructions a byte.
func textSafeWords(s string) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := s[i : i+8]
		x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
			uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
		below := (x - ones*0x20) &^ x        // high bit set: some byte is below 0x20
		above := (x + ones*(127-0x7e)) | x   // some byte is above 0x7e
		angle := (x | ones*2) ^ (ones * '>') // a zero byte where x has '<' or '>' ('<'|2 == '>')
		amp := x ^ (ones * '&')              // a zero byte where x has '&'
		if (below|above|(angle-ones)&^angle|(amp-ones)&^amp)&highs != 0 {
			break
		}
	}
	return i
}

// invisible reports whether r is a rune a reader of the file would not see: a control, a
// bidirectional control or mark, another format character (zero-width spaces and joiners,
// U+FEFF), a line or paragraph separator.
func invisible(r rune) bool {
	return r < 0x20 || r >= 0x7f && r < 0xa0 || unicode.Is(unicode.Bidi_Control, r) ||
		unicode.Is(unicode.Cf, r) || r == 0x2028 || r == 0x2029
}

// xmlChar reports whether r is a Char in XML 1.0.
func xmlChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD ||
		r >= 0x10000 && r <= 0x10FFFF
}

// errWriter keeps the first write error and writes nothing after it.
type errWriter struct {
	w   io.Writer
	err error
}

// writeString writes s as Write does, through the writer's WriteString when it has one
// (a bytes.Buffer, a bufio.Writer): no copy of s to bytes.
func (e *errWriter) writeString(s string) {
	if e.err != nil {
		return
	}
	n, err := io.WriteString(e.w, s)
	if err == nil && n < len(s) {
		err = io.ErrShortWrite
	}
	if err != nil {
		e.err = fmt.Errorf("svgcanvas: write: %w", err)
	}
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	if err != nil {
		e.err = fmt.Errorf("svgcanvas: write: %w", err)
		return n, e.err
	}
	return n, nil
}

var _ canvas.Canvas = (*Canvas)(nil)
