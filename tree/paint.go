package tree

import (
	"strconv"

	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/internal/style"
)

// Paint draws the whole diagram on c, its top-left corner at the origin.
func (d *Diagram) Paint(c canvas.Canvas) { d.PaintRows(c, 0, len(d.Rows)) }

// NumRows returns the number of rows (visible nodes).
func (d *Diagram) NumRows() int { return len(d.Rows) }

// RowHeight returns the height of row i.
func (d *Diagram) RowHeight(i int) canvas.Pt { return d.Rows[i].H }

// PartHeight returns the height PaintRows(c, from, to) draws: the header and rows [from, to).
func (d *Diagram) PartHeight(from, to int) canvas.Pt {
	from, to = d.clamp(from, to)
	if from == to {
		return d.HeaderH
	}
	return d.HeaderH + d.Rows[to-1].Y + d.Rows[to-1].H - d.Rows[from].Y
}

// A Span is a run of rows [From, To), one part of a tree continued across pages.
type Span struct{ From, To int }

// Split cuts the rows into parts that fit, header included, in height first (the space left
// on the current page) and then next (a fresh page). A part holds at least one row, even if
// that row does not fit. It returns nil for a diagram without rows.
func (d *Diagram) Split(first, next canvas.Pt) []Span {
	var spans []Span
	avail := first
	for from := 0; from < len(d.Rows); {
		to := from + 1
		for to < len(d.Rows) && d.PartHeight(from, to+1) <= avail {
			to++
		}
		spans = append(spans, Span{from, to})
		from, avail = to, next
	}
	return spans
}

func (d *Diagram) clamp(from, to int) (int, int) {
	from = min(max(from, 0), len(d.Rows))
	to = min(max(to, from), len(d.Rows))
	return from, to
}

// PaintRows draws rows [from, to) below a repeated column header, the header's top-left corner
// at the origin. A connector that runs on past either end of the part is drawn to that edge,
// so consecutive parts on consecutive pages join up. Its height is PartHeight(from, to).
func (d *Diagram) PaintRows(c canvas.Canvas, from, to int) {
	from, to = d.clamp(from, to)
	top := d.HeaderH
	var dy canvas.Pt
	if from < len(d.Rows) {
		dy = d.HeaderH - d.Rows[from].Y
	}
	bottom := d.PartHeight(from, to)
	thin := canvas.Style{Stroke: style.Rule, Width: 0.75}

	// Paper behind everything, so the dark scheme has its background.
	c.Rect(0, 0, d.Width, bottom, canvas.Style{Fill: style.Paper, Class: "bg"})

	// Header: a tinted band with the column names, and a rule below it.
	c.Begin(canvas.Group{Class: "header"})
	c.Rect(0, 0, d.Width, d.HeaderH, canvas.Style{Fill: style.FrameFill})
	for _, r := range d.Header {
		d.text(c, r, 0)
	}
	c.Line(0, d.HeaderH, d.Width, d.HeaderH, thin)
	c.End()

	// Zebra stripes on every other row (counted over the whole tree, so parts agree).
	if to-from >= 2 || (to-from == 1 && from%2 == 1) {
		c.Begin(canvas.Group{Class: "zebra"})
		for i := from | 1; i < to; i += 2 {
			r := &d.Rows[i]
			c.Rect(0, r.Y+dy, d.Width, r.H, canvas.Style{Fill: style.PadFill, Class: "stripe"})
		}
		c.End()
	}

	// Vertical connectors, cut to the part.
	open := false
	for _, ru := range d.Rules {
		if ru.From >= to || ru.To < from {
			continue
		}
		if !open {
			c.Begin(canvas.Group{Class: "connectors"})
			open = true
		}
		y1, y2 := top, bottom
		if ru.From >= from {
			y1 = ru.Y1 + dy
		}
		if ru.To < to {
			y2 = ru.Y2 + dy
		}
		c.Line(ru.X, y1, ru.X, y2, thin)
	}
	if open {
		c.End()
	}

	// One group per node: elbow, chip, text.
	for i := from; i < to; i++ {
		r := &d.Rows[i]
		attrs := r.attrs
		if attrs == nil { // a diagram not made by Layout (decoded from JSON, say)
			attrs = []canvas.Attr{
				{Name: "data-path", Value: r.Path},
				{Name: "data-offset", Value: strconv.Itoa(r.Offset)},
				{Name: "data-length", Value: strconv.Itoa(r.Length)},
			}
		}
		c.Begin(canvas.Group{Class: nodeClass[kindIndex(r.Kind)], Attrs: attrs, Title: r.Title})
		// An unfilled band over the row, for hover highlights (see treesvg).
		c.Rect(0, r.Y+dy, d.Width, r.H, canvas.Style{Class: "hit"})
		if r.ElbowX2 > r.ElbowX1 {
			c.Line(r.ElbowX1, r.ElbowY+dy, r.ElbowX2, r.ElbowY+dy, thin)
		}
		fill := r.chip
		if fill == "" {
			fill = kindFill(r.Kind, r.Color)
		}
		chip := canvas.Style{Fill: fill, Stroke: style.Muted, Width: 0.5, Class: "chip"}
		c.Rect(r.Chip.X, r.Chip.Y+dy, r.Chip.W, r.Chip.H, chip)
		for _, t := range r.Runs {
			d.text(c, t, dy)
		}
		c.End()
	}
}

func (d *Diagram) text(c canvas.Canvas, r Run, dy canvas.Pt) {
	c.Text(r.X, r.Y+dy, canvas.Text{S: r.S, Size: d.FontSize, Anchor: r.Anchor, Fill: r.Fill, Class: r.Class})
}

// nodeClass holds the class of a node group per kind, so painting allocates no strings.
var nodeClass = func() []string {
	ks := style.Kinds()
	cs := make([]string, len(ks)+1)
	for i, k := range ks {
		cs[i] = "node kind-" + k.String()
	}
	cs[len(ks)] = "node"
	return cs
}()

func kindIndex(k Kind) int {
	if k < 0 || int(k) >= len(nodeClass)-1 {
		return len(nodeClass) - 1
	}
	return int(k)
}
