package tree

import (
	"strconv"

	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/style"
)

// Paint draws the whole diagram on c, its top-left corner at the origin.
func (d *Diagram) Paint(c canvas.Canvas) { d.PaintRows(c, 0, len(d.Rows)) }

// NumRows returns the number of rows (visible nodes).
func (d *Diagram) NumRows() int { return len(d.Rows) }

// Size returns the width and height of the whole diagram.
func (d *Diagram) Size() (w, h canvas.Pt) { return d.Width, d.Height }

// BreakBefore reports whether a part may start at row i: any row but the first, as every row
// is a node of its own.
func (d *Diagram) BreakBefore(i int) bool { return i > 0 && i < len(d.Rows) }

// HoverCSS is the tree's own SVG style: the row under the pointer is tinted, so a page can
// also light up the byte grid field with the same data-path. The generated paint classes are
// scoped by the root id, so the tint needs !important to win over them.
const HoverCSS = `.kg-tree .node .hit{pointer-events:all}` +
	`.kg-tree .node:hover .hit{fill:var(--kg-accent,#d9481c)!important;fill-opacity:.08}`

// Info returns the tree's SVG class and hover style, its title ("Object tree" when it has
// none) and a description that counts its nodes.
func (d *Diagram) Info() canvas.Info {
	title := d.Title
	if title == "" {
		title = "Object tree"
	}
	return canvas.Info{
		Class: "kg-tree", CSS: HoverCSS, Title: title,
		Desc: "Expanded object tree of " + strconv.Itoa(len(d.Rows)) + " nodes: name, value, offset, length and type of each.",
	}
}

var _ canvas.Drawing = (*Diagram)(nil)

// PartHeight returns the height PaintRows(c, from, to) draws: the header and rows [from, to).
func (d *Diagram) PartHeight(from, to int) canvas.Pt {
	from, to = d.clamp(from, to)
	if from == to {
		return d.HeaderH
	}
	return d.HeaderH + d.Rows[to-1].Y + d.Rows[to-1].H - d.Rows[from].Y
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
		attrs := []canvas.Attr{
			{Name: "data-path", Value: r.Path},
			{Name: "data-offset", Value: strconv.Itoa(r.Offset)},
			{Name: "data-length", Value: strconv.Itoa(r.Length)},
		}
		c.Begin(canvas.Group{Class: "node kind-" + r.Kind.String(), Attrs: attrs, Title: r.Title})
		// An unfilled band over the row, for hover highlights (see HoverCSS).
		c.Rect(0, r.Y+dy, d.Width, r.H, canvas.Style{Class: "hit"})
		if r.ElbowX2 > r.ElbowX1 {
			c.Line(r.ElbowX1, r.ElbowY+dy, r.ElbowX2, r.ElbowY+dy, thin)
		}
		chip := canvas.Style{Fill: style.KindFill(r.Kind, r.Color), Stroke: style.Muted, Width: 0.5, Class: "chip"}
		c.Rect(r.Chip.X, r.Chip.Y+dy, r.Chip.W, r.Chip.H, chip)
		if r.Mark != "" {
			c.Text(r.Chip.X+r.Chip.W/2, r.Chip.Y+dy+r.Chip.H/2+r.MarkSize*0.35, canvas.Text{S: r.Mark, Size: r.MarkSize, Anchor: canvas.Middle, Fill: style.Ink, Class: "group"})
		}
		for _, t := range r.Runs {
			d.text(c, t, dy)
		}
		c.End()
	}
}

func (d *Diagram) text(c canvas.Canvas, r Run, dy canvas.Pt) {
	c.Text(r.X, r.Y+dy, canvas.Text{S: r.S, Size: d.FontSize, Anchor: r.Anchor, Fill: r.Fill, Class: r.Class})
}
