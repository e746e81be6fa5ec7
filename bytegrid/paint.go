package bytegrid

import (
	"strconv"

	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/style"
)

const (
	bandH    canvas.Pt = 3 // height of a framing field's group band
	rulerGap canvas.Pt = 3 // between the ruler's axis and the grid
)

var (
	borderStyle = canvas.Style{Stroke: style.Ink}
	tickStyle   = canvas.Style{Stroke: style.Rule}
	cellStyle   = canvas.Style{Fill: style.Paper}
	openStyle   = canvas.Style{Stroke: style.Rule, Dash: true} // the open end of a split field
	// bracketStyle draws a field's bracket (Field.Bracket) in the muted ink, a shape that
	// keeps its meaning in greyscale and in the dark scheme.
	bracketStyle = canvas.Style{Stroke: style.Muted, Width: 1.5}
)

// Paint draws the whole diagram on c, which should be Width × Height.
func (d *Diagram) Paint(c canvas.Canvas) { d.PaintRows(c, 0, len(d.Rows)) }

// PartHeight returns the height of the drawing PaintRows(c, from, to) makes: the ruler, the
// rows, and, when to is the last row, the legend.
func (d *Diagram) PartHeight(from, to int) canvas.Pt {
	from, to = d.clamp(from, to)
	h := d.GridY + margin
	if to > from {
		h += d.Rows[to-1].Y + d.Rows[to-1].H - d.Rows[from].Y
	}
	if to == len(d.Rows) {
		h += d.LegendH
	}
	return canvas.Round(h)
}

func (d *Diagram) clamp(from, to int) (int, int) {
	if from < 0 {
		from = 0
	}
	if to > len(d.Rows) {
		to = len(d.Rows)
	}
	if to < from {
		to = from
	}
	return from, to
}

// Size returns the width and height of the whole diagram.
func (d *Diagram) Size() (w, h canvas.Pt) { return d.Width, d.Height }

// NumRows returns the number of display rows.
func (d *Diagram) NumRows() int { return len(d.Rows) }

// BreakBefore reports whether a part may start at row i: no field continues into it from the
// row above (Row.Joined).
func (d *Diagram) BreakBefore(i int) bool { return i > 0 && i < len(d.Rows) && !d.Rows[i].Joined }

// RowSpans returns where each display row lies in the whole drawing (canvas.Rowed).
func (d *Diagram) RowSpans() []canvas.RowSpan {
	rs := make([]canvas.RowSpan, len(d.Rows))
	for i, r := range d.Rows {
		rs[i] = canvas.RowSpan{Y: d.GridY + r.Y, H: r.H}
	}
	return rs
}

var _ canvas.Rowed = (*Diagram)(nil)

// HoverCSS is the grid's own SVG style: a field's border thickens under the pointer.
const HoverCSS = `.kg-grid .field:hover>rect{stroke-width:2}`

// Info returns the grid's SVG class and hover style; a grid has no default title.
func (d *Diagram) Info() canvas.Info { return canvas.Info{Class: "kg-grid", CSS: HoverCSS} }

var _ canvas.Drawing = (*Diagram)(nil)

// PaintRows draws display rows [from, to) under the ruler, with the first of them just below
// it; when to is the last row, the legend follows. A field that continues beyond the range is
// drawn with that edge open. The drawing is Width × PartHeight(from, to), on a paper-coloured
// background (style.Paper, class "bg") that covers all of it.
func (d *Diagram) PaintRows(c canvas.Canvas, from, to int) {
	from, to = d.clamp(from, to)
	// Paper behind everything, as the tree has it, so the drawing keeps its colour scheme's
	// background on a page of another (a light grid on a dark page). It is in no field's group.
	c.Rect(0, 0, d.Width, d.PartHeight(from, to), canvas.Style{Fill: style.Paper, Class: "bg"})
	c.Begin(canvas.Group{Class: "ruler"})
	for _, r := range d.Ruler {
		paintRun(c, r, 0)
	}
	// All ticks as one polyline: an axis just above the grid, up and down at each tick. (Not
	// on the grid's top edge, which must stay open above a field continuing from a part drawn
	// before.)
	if len(d.Ticks) > 0 {
		c.Polyline(tickPolyline(d.Ticks, d.RowBits, d.BitW, d.GridX, d.GridY), tickStyle)
	}
	c.End()
	var dy canvas.Pt
	if from < len(d.Rows) {
		dy = d.GridY - d.Rows[from].Y
	}
	c.Begin(canvas.Group{Class: "offsets"})
	for i := from; i < to; i++ {
		if d.Rows[i].Elided == 0 {
			paintRun(c, d.Rows[i].Offset, dy)
		}
		if d.Rows[i].Gap.S != "" {
			paintRun(c, d.Rows[i].Gap, dy)
		}
		if d.Rows[i].Caption.S != "" {
			paintRun(c, d.Rows[i].Caption, dy)
		}
	}
	c.End()
	for i := range d.Fields {
		d.paintBox(c, &d.Fields[i], from, to, dy)
	}
	d.paintCells(c, from, to, dy)
	if to == len(d.Rows) && len(d.Legend) > 0 {
		ly := d.GridY
		if to > from {
			ly += d.Rows[to-1].Y + d.Rows[to-1].H - d.Rows[from].Y
		}
		c.Begin(canvas.Group{Class: "legend"})
		for _, s := range d.Swatch {
			c.Rect(s.X, ly+s.Y, s.W, s.W, canvas.Style{Fill: s.Fill, Stroke: style.Rule})
		}
		for _, r := range d.Legend {
			paintRun(c, r, ly)
		}
		c.End()
	}
}

// tickPolyline returns the ruler's axis, just above the grid (whose top-left corner is at
// gridX, gridY), with its ticks as one polyline.
func tickPolyline(ticks []Tick, rowBits int, bitW, gridX, gridY canvas.Pt) []canvas.Pt {
	base := gridY - rulerGap + 0.5
	pts := make([]canvas.Pt, 0, 6*len(ticks)+4)
	pts = append(pts, gridX+0.5, base)
	for _, t := range ticks {
		pts = append(pts, t.X, base, t.X, base-t.Len, t.X, base)
	}
	return append(pts, gridX+canvas.Pt(rowBits)*bitW+0.5, base)
}

func paintRun(c canvas.Canvas, r Run, dy canvas.Pt) {
	c.Text(r.X, r.Y+dy, canvas.Text{S: r.S, Size: r.Size, Anchor: r.Anchor, Fill: r.Fill, Turned: r.Turned})
}

func (d *Diagram) paintBox(c canvas.Canvas, b *Box, from, to int, dy canvas.Pt) {
	in := false
	for _, s := range b.Segs {
		if s.Row >= from && s.Row < to {
			in = true
			break
		}
	}
	if !in {
		return
	}
	c.Begin(canvas.Group{Class: b.Class, Attrs: boxAttrs(b), Title: b.Title})
	border := borderStyle
	if b.Optional {
		border.Dash = true // an optional field's border is dashed
	}
	switch {
	case !b.Continue:
		s := b.Segs[0]
		c.Rect(s.X, s.Y+dy, s.W, s.H, canvas.Style{Fill: b.Fill, Stroke: style.Ink, Dash: b.Optional})
	case b.Split():
		paintSplit(c, b, from, to, dy, border)
	default:
		d.paintSpan(c, b, from, to, dy, border)
	}
	if b.DoubleRule || b.Variable {
		d.paintFigureMarks(c, b, from, to, dy)
	}
	if b.Band != "" {
		paintBand(c, b, from, to, dy)
	}
	if len(b.Bracket) > 0 && b.BracketRow >= from && b.BracketRow < to {
		paintBracket(c, b, dy)
	}
	for _, r := range b.Runs {
		if r.Row >= from && r.Row < to {
			paintRun(c, r, dy)
		}
	}
	c.End()
}

// paintSplit paints a field of two pieces that do not touch (the end of one row, the start of
// the next): each is bordered on three sides and open, with a dashed light edge, where it
// continues (at the grid's right edge for the first, its left edge for the second).
func paintSplit(c canvas.Canvas, b *Box, from, to int, dy canvas.Pt, border canvas.Style) {
	fill := canvas.Style{Fill: b.Fill}
	for k, s := range b.Segs {
		if s.Row < from || s.Row >= to {
			continue
		}
		c.Rect(s.X, s.Y+dy, s.W, s.H, fill)
		pts := appendOpenBorder(make([]canvas.Pt, 0, 8), s, k == 1, dy)
		c.Polyline(pts, border)
		c.Line(pts[0], pts[1], pts[6], pts[7], openStyle)
	}
}

// paintSpan paints a field over several rows in one piece: its segments, its outline (or its
// edges when only part of it is painted), and dashed sides on elision rows.
func (d *Diagram) paintSpan(c canvas.Canvas, b *Box, from, to int, dy canvas.Pt, border canvas.Style) {
	fill := canvas.Style{Fill: b.Fill}
	for _, s := range b.Segs {
		if s.Row >= from && s.Row < to {
			c.Rect(s.X, s.Y+dy, s.W, s.H, fill)
		}
	}
	if pts := d.outline(b, from, to, dy); pts != nil {
		c.Polyline(pts, border)
	} else {
		d.edges(c, b, from, to, dy, border)
	}
	// Elision rows get dashed sides: paper-coloured gaps over the solid border.
	for _, s := range b.Segs {
		if s.Row >= from && s.Row < to && d.Rows[s.Row].Elided > 0 {
			gap := canvas.Style{Stroke: style.Paper, Dash: true}
			c.Line(s.X, s.Y+dy+3, s.X, s.Y+s.H+dy-3, gap)
			c.Line(s.X+s.W, s.Y+dy+3, s.X+s.W, s.Y+s.H+dy-3, gap)
		}
	}
}

// paintBand paints a field's band inside its border, along the top of its first segment shown.
func paintBand(c canvas.Canvas, b *Box, from, to int, dy canvas.Pt) {
	for _, s := range b.Segs {
		if s.Row >= from && s.Row < to {
			c.Rect(s.X+0.5, s.Y+0.5+dy, s.W-1, bandH, canvas.Style{Fill: b.Band})
			return
		}
	}
}

// paintBracket paints a field's bracket, moved down by dy.
func paintBracket(c canvas.Canvas, b *Box, dy canvas.Pt) {
	pts := make([]canvas.Pt, len(b.Bracket))
	for i, v := range b.Bracket {
		if i%2 == 1 {
			v += dy
		}
		pts[i] = v
	}
	c.Polyline(pts, bracketStyle)
}

// boxAttrs returns the data attributes of b's group.
func boxAttrs(b *Box) []canvas.Attr {
	var attrs []canvas.Attr
	if b.Path != "" {
		attrs = append(attrs, canvas.Attr{Name: "data-path", Value: b.Path})
	}
	if b.After != "" { // after a variable field: no offset from the start is known
		attrs = append(attrs, canvas.Attr{Name: "data-length", Value: strconv.Itoa(b.Bits / 8)})
		if b.Bits%8 != 0 {
			attrs = append(attrs, canvas.Attr{Name: "data-bits", Value: strconv.Itoa(b.Bits)})
		}
		return attrs
	}
	attrs = append(attrs, canvas.Attr{Name: "data-offset", Value: strconv.Itoa(b.Offset / 8)}, canvas.Attr{Name: "data-length", Value: strconv.Itoa(b.Bits / 8)})
	if b.Offset%8 != 0 || b.Bits%8 != 0 {
		attrs = append(attrs, canvas.Attr{Name: "data-bit-offset", Value: strconv.Itoa(b.Offset)}, canvas.Attr{Name: "data-bits", Value: strconv.Itoa(b.Bits)})
	}
	return attrs
}

// outline returns the closed border of a field spanning rows as one polyline, when the whole
// field lies in rows [from, to) and its shape is one piece; else nil.
func (d *Diagram) outline(b *Box, from, to int, dy canvas.Pt) []canvas.Pt {
	first, last := b.Segs[0], b.Segs[len(b.Segs)-1]
	if first.Row < from || last.Row >= to || b.Split() {
		return nil
	}
	xs, xr := first.X, first.X+first.W
	xl, xe := last.X, last.X+last.W
	t0, b0 := first.Y+dy, first.Y+first.H+dy
	tn, bn := last.Y+dy, last.Y+last.H+dy
	mid := (xs + xr) / 2
	// Start and end mid-way along the top edge, so the closing join falls on a straight line.
	return []canvas.Pt{mid, t0, xr, t0, xr, tn, xe, tn, xe, bn, xl, bn, xl, b0, xs, b0, xs, t0, mid, t0}
}

// edges draws the border of a field spanning rows segment by segment, leaving open the edges
// where it continues into a row outside [from, to).
func (d *Diagram) edges(c canvas.Canvas, b *Box, from, to int, dy canvas.Pt, borderStyle canvas.Style) {
	for k, s := range b.Segs {
		if s.Row < from || s.Row >= to {
			continue
		}
		x0, x1 := s.X, s.X+s.W
		c.Line(x0, s.Y+dy, x0, s.Y+s.H+dy, borderStyle)
		c.Line(x1, s.Y+dy, x1, s.Y+s.H+dy, borderStyle)
		// Top: the part of this segment the previous one does not cover.
		var pf, pt int
		if k > 0 {
			pf, pt = b.Segs[k-1].From, b.Segs[k-1].To
		}
		for _, iv := range minus(s.From, s.To, pf, pt) {
			c.Line(d.bitX(iv[0]), s.Y+dy, d.bitX(iv[1]), s.Y+dy, borderStyle)
		}
		var nf, nt int
		if k+1 < len(b.Segs) {
			nf, nt = b.Segs[k+1].From, b.Segs[k+1].To
		}
		for _, iv := range minus(s.From, s.To, nf, nt) {
			c.Line(d.bitX(iv[0]), s.Y+s.H+dy, d.bitX(iv[1]), s.Y+s.H+dy, borderStyle)
		}
	}
}

func (d *Diagram) bitX(bit int) canvas.Pt { return d.GridX + canvas.Pt(bit)*d.BitW + 0.5 }

// minus returns [a, b) without [c, e), as up to two intervals.
func minus(a, b, c, e int) [][2]int {
	if e <= c || e <= a || c >= b {
		return [][2]int{{a, b}}
	}
	var out [][2]int
	if c > a {
		out = append(out, [2]int{a, c})
	}
	if e < b {
		out = append(out, [2]int{e, b})
	}
	return out
}

// paintCells draws the hex cells of rows [from, to): a paper-coloured cell inside the borders
// of the byte, under a light rule, with the byte's hex.
func (d *Diagram) paintCells(c canvas.Canvas, from, to int, dy canvas.Pt) {
	begun := false
	for k, cell := range d.Cells {
		if cell.Row < from || cell.Row >= to {
			continue
		}
		if !begun {
			c.Begin(canvas.Group{Class: "hex-cells"})
			begun = true
		}
		c.Rect(cell.X, cell.Y+dy, cell.W, cell.H, cellStyle)
		c.Line(cell.X, cell.Y+dy, cell.X+cell.W, cell.Y+dy, tickStyle)
		if k > 0 && d.Cells[k-1].Byte == cell.Byte-1 && d.Cells[k-1].Row == cell.Row {
			// The byte boundary between two cells, light.
			c.Line(cell.X-0.5, cell.Y+dy, cell.X-0.5, cell.Y+cell.H+dy, tickStyle)
		}
		paintRun(c, cell.Hex, dy)
	}
	if begun {
		c.End()
	}
}

// appendOpenBorder appends to dst the border of one piece of a split field, shifted down by
// dy: three sides as a polyline from one end of its open side to the other. The first piece is
// open at the row's end, the second (second is true) at its start.
func appendOpenBorder(dst []canvas.Pt, s Seg, second bool, dy canvas.Pt) []canvas.Pt {
	x0, x1, y0, y1 := s.X, s.X+s.W, s.Y+dy, s.Y+s.H+dy
	if second {
		x0, x1 = x1, x0
	}
	return append(dst, x1, y0, x0, y0, x0, y1, x1, y1)
}
