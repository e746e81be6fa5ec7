// Package canvas is the drawing contract of kafkagrid, in two interfaces: Canvas, what a
// layout paints on, which the SVG (canvas/svgcanvas) and PDF (canvas/pdfcanvas) backends
// implement (after gonum/plot's vg.Canvas); and Drawing, a laid-out diagram, which the byte grid
// (bytegrid.Diagram) and the tree (tree.Diagram) are, and which is all that output code takes
// (after gonum/plot's plot.Plot and d2's d2target.Diagram). Lay out once, paint many: the SVG
// document is written once (svgcanvas.Write), the PDF document set up and a drawing placed once
// (pdfcanvas.NewDocument, Place, Write), pages broken by one rule (Paginate).
//
// A Drawing is an interface rather than a struct of shapes because the twins' geometry differs
// (segments of fields spanning rows, a tree's connector rules) and is painted differently, but
// every output needs the same few things of both: the size, the rows, the height of a run of
// rows, painting a run of rows, where a break may fall, and the SVG class and hover style.
//
// Units are points (Pt, 1/72 inch). The origin is the top-left corner of the drawing and y grows
// downward, as in SVG; the PDF backend maps this onto a rectangle of a page. Colours are style
// roles (package style), resolved by each backend (CSS custom properties in SVG, RGB in PDF),
// from the default palette or one the caller chooses (style.Palette). Text is drawn in the
// one monospace face (internal/mono) at a baseline point, and must already be clean.
//
// Drawing calls return nothing: a backend keeps the first error and returns it when it is
// closed. This package imports neither svgo nor fpdf; only the backends do.
package canvas

import (
	"fmt"
	"strings"

	"github.com/kafkagrid/kafkagrid/style"
)

// Pt is a length in points.
type Pt float64

// Anchor is where a text run's x coordinate lies on the run.
type Anchor int

// Text anchors.
const (
	Start  Anchor = iota // x is the left end
	Middle               // x is the centre
	End                  // x is the right end
)

// Attr is one attribute of a group, written in order (SVG: data-path="…").
type Attr struct{ Name, Value string }

// Group describes a group of shapes that belong to one item (a field, a node).
type Group struct {
	ID    string // optional id, unique within the drawing; backends prefix it
	Class string // space-separated classes, e.g. "field kind-length"
	Attrs []Attr // data attributes, in order
	Title string // tooltip text (SVG <title>); may hold newlines
}

// Style is how a shape is filled and stroked. An empty role means none.
type Style struct {
	Fill   style.Role
	Stroke style.Role
	Width  Pt   // stroke width; 0 means 1
	Dash   bool // dashed stroke
	Class  string
}

// Text is one run of text.
type Text struct {
	S      string // clean text (see mono.Clean), drawn as is
	Size   Pt
	Anchor Anchor
	Fill   style.Role // "" means style.Ink
	Bold   bool
	Class  string
	// Turned draws the run turned a quarter counter-clockwise about (x, y), reading upward:
	// the anchor is then along the vertical, the baseline vertical at x. A backend that
	// cannot turn text draws it as it is.
	Turned bool
}

// Canvas is what a layout paints on.
type Canvas interface {
	// Begin opens a group; every Begin has a matching End.
	Begin(g Group)
	End()
	// Rect draws a rectangle with its top-left corner at (x, y).
	Rect(x, y, w, h Pt, s Style)
	// Line draws a straight segment.
	Line(x1, y1, x2, y2 Pt, s Style)
	// Polyline draws an open path through the points (x0, y0, x1, y1, …).
	Polyline(pts []Pt, s Style)
	// Text draws t with its baseline at y.
	Text(x, y Pt, t Text)
}

// Recorder is a Canvas that records the calls it gets as lines of text, for tests.
type Recorder struct {
	Calls []string
	depth int
}

func (r *Recorder) add(format string, a ...any) {
	r.Calls = append(r.Calls, strings.Repeat("  ", r.depth)+fmt.Sprintf(format, a...))
}

// Begin records a group.
func (r *Recorder) Begin(g Group) {
	r.add("begin %q %q %v %q", g.ID, g.Class, g.Attrs, g.Title)
	r.depth++
}

// End records the end of a group.
func (r *Recorder) End() {
	if r.depth > 0 {
		r.depth--
	}
	r.add("end")
}

// Rect records a rectangle.
func (r *Recorder) Rect(x, y, w, h Pt, s Style) { r.add("rect %g %g %g %g %+v", x, y, w, h, s) }

// Line records a line.
func (r *Recorder) Line(x1, y1, x2, y2 Pt, s Style) {
	r.add("line %g %g %g %g %+v", x1, y1, x2, y2, s)
}

// Polyline records a polyline.
func (r *Recorder) Polyline(pts []Pt, s Style) { r.add("polyline %v %+v", pts, s) }

// Text records a text run.
func (r *Recorder) Text(x, y Pt, t Text) {
	// Recorded as before Turned was added, with "turned" after a turned run.
	type text struct {
		S      string
		Size   Pt
		Anchor Anchor
		Fill   style.Role
		Bold   bool
		Class  string
	}
	if t.Turned {
		r.add("text %g %g %+v turned", x, y, text{t.S, t.Size, t.Anchor, t.Fill, t.Bold, t.Class})
		return
	}
	r.add("text %g %g %+v", x, y, text{t.S, t.Size, t.Anchor, t.Fill, t.Bold, t.Class})
}

// Round rounds a coordinate to 1/100 pt: the one rounding every backend applies to what it
// writes, so output does not depend on floating-point noise.
func Round(v Pt) Pt {
	if v < 0 {
		return -Round(-v)
	}
	return Pt(float64(int64(float64(v)*100+0.5)) / 100)
}
