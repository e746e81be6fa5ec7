package bytegrid

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/internal/arena"
	"github.com/kafkagrid/kafkagrid/internal/mono"
	"github.com/kafkagrid/kafkagrid/style"
)

// Type sizes and spacing, in points.
const (
	margin          canvas.Pt = 8
	nameSize        canvas.Pt = 12
	nameFloor       canvas.Pt = 9
	valueSize       canvas.Pt = 11
	valueFloor      canvas.Pt = 8.5
	hexSize         canvas.Pt = 8.5
	rulerSize       canvas.Pt = 9
	offsetSize      canvas.Pt = 9
	legendSize      canvas.Pt = 10
	markSize        canvas.Pt = 10
	pad             canvas.Pt = 4 // inner padding of a box
	hexZone         canvas.Pt = 12
	rowH            canvas.Pt = 34 // row height without hex
	elidedH         canvas.Pt = 22
	rulerH          canvas.Pt = 28
	offsetGap       canvas.Pt = 6
	legendGap       canvas.Pt = 12
	lineFactor                = 1.2
	tightLineFactor           = 1.1 // for three or four lines
)

// Diagram is a laid-out byte grid: geometry in points, top-left origin.
type Diagram struct {
	turn    bool      // Options.TurnNames
	Width   canvas.Pt `json:"width"`
	Height  canvas.Pt `json:"height"`
	RowBits int       `json:"rowBits"`
	Bits    int       `json:"bits"` // end of the last field
	BitW    canvas.Pt `json:"bitW"` // width of one bit
	GridX   canvas.Pt `json:"gridX"`
	GridY   canvas.Pt `json:"gridY"`  // top of the first row (bottom of the ruler)
	Ruler   []Run     `json:"ruler"`  // digits, relative to the top of the drawing
	Ticks   []Tick    `json:"ticks"`  // ruler ticks, relative to GridY
	Rows    []Row     `json:"rows"`   // display rows
	Fields  []Box     `json:"fields"` // one per input field, in order
	Legend  []Run     `json:"legend,omitempty"`
	Swatch  []Swatch  `json:"swatches,omitempty"`
	LegendH canvas.Pt `json:"legendH"` // height of the legend under the grid (its runs are relative to the grid's end)
	Notes   []Note    `json:"notes,omitempty"`
	Hex     bool      `json:"hex"` // whether hex bytes are drawn
	// Cells hold the hex of the bytes covered by fields not on byte boundaries (see
	// Options.Data), in order.
	Cells []Cell `json:"cells,omitempty"`
	// RulerStyle, LSB0 and Text are Options' Ruler, LSB0 and Text.
	RulerStyle Ruler       `json:"rulerStyle,omitempty"`
	LSB0       bool        `json:"lsb0,omitempty"`
	Text       TextOptions `json:"text,omitzero"`
}

// Row is one display row. Y is relative to GridY.
type Row struct {
	Y      canvas.Pt `json:"y"`
	H      canvas.Pt `json:"h"`
	Bit    int       `json:"bit"`              // bit offset of the row's first bit
	Elided int       `json:"elided,omitempty"` // bytes this row stands for, when it is an elision row
	Offset Run       `json:"offset"`           // the offset label at the left
	// Gap is the "… N bytes …" label of an elision row that no field covers: a stretch of
	// rows between fields (S is empty on every other row).
	Gap Run `json:"gap,omitzero"`
	// Joined is true when a field continues from the row above into this one, so a cut
	// before this row would split a field.
	Joined bool `json:"joined,omitempty"`
	// Caption is the heading drawn above the row (Field.Caption), in the captionH points
	// above Y; S is empty when it has none.
	Caption Run `json:"caption,omitzero"`
}

// Cell is the hex of one byte covered by fields not on byte boundaries, drawn once in a cell
// spanning the byte at the bottom of its row, under those fields' labels. X and Y are the
// cell's top-left corner (Y relative to GridY).
type Cell struct {
	Byte int       `json:"byte"` // index of the byte in the frame
	Row  int       `json:"row"`  // display row
	X    canvas.Pt `json:"x"`
	Y    canvas.Pt `json:"y"`
	W    canvas.Pt `json:"w"`
	H    canvas.Pt `json:"h"`
	Hex  Run       `json:"hex"`
}

// Tick is a ruler tick at the top of the grid.
type Tick struct {
	X   canvas.Pt `json:"x"`
	Len canvas.Pt `json:"len"`
}

// Swatch is a coloured square in the group legend.
type Swatch struct {
	X    canvas.Pt  `json:"x"`
	Y    canvas.Pt  `json:"y"`
	W    canvas.Pt  `json:"w"`
	Fill style.Role `json:"fill"`
}

// Note is a legend entry for a label that did not fit its box.
type Note struct {
	Mark  int    `json:"mark"`
	Field int    `json:"field"`
	Text  string `json:"text"`
}

// Box is the shape and text of one field.
type Box struct {
	Field  int    `json:"field"`           // index of the input field
	Name   string `json:"name"`            // clean name
	Value  string `json:"value,omitempty"` // clean value
	Class  string `json:"class"`           // "field kind-…"
	Path   string `json:"path,omitempty"`
	Offset int    `json:"offset"` // bit offset as drawn (from the start when After is "")
	// After names the variable-length field (its path, else its name) this field comes
	// after, and AfterBits how many bits after that field's end it starts: its offset from
	// the start is not known, and is neither drawn nor written as data-offset.
	After     string     `json:"after,omitempty"`
	AfterBits int        `json:"afterBits,omitempty"`
	Bits      int        `json:"bits"`
	Title     string     `json:"title"` // tooltip
	Fill      style.Role `json:"fill"`
	// Band is the group colour of a framing field, drawn as a band along its top so that the
	// field still shows its group ("" for data fields, whose fill is the group colour).
	Band     style.Role `json:"band,omitempty"`
	Segs     []Seg      `json:"segs"`
	Runs     []Run      `json:"runs"`
	Continue bool       `json:"continue,omitempty"` // spans more than one row
	// Bracket is the polyline of the field's bracket (Field.Bracket), in display row
	// BracketRow (Y relative to GridY); empty when it has none.
	Bracket    []canvas.Pt `json:"bracket,omitempty"`
	BracketRow int         `json:"bracketRow,omitempty"`
	// The field's Variable, Optional, Condition, Label, DoubleRule and Caption (see Field):
	// a variable field's open end is drawn as a slanted break, an optional field's border
	// dashed with its condition under its name.
	Variable   bool      `json:"variable,omitempty"`
	Optional   bool      `json:"optional,omitempty"`
	Condition  string    `json:"condition,omitempty"`
	Label      LabelMode `json:"label,omitempty"`
	DoubleRule bool      `json:"doubleRule,omitempty"`
	Caption    string    `json:"caption,omitempty"`
	// Lines is the field's Lines: the least lines of the row it starts in, in the text form.
	Lines int `json:"lines,omitempty"`
	// LabelLine and LabelCol are the field's: where the text form writes its label, when the
	// figure printed it off the middle.
	LabelLine int   `json:"labelLine,omitempty"`
	LabelCol  int   `json:"labelCol,omitempty"`
	LabelCols []int `json:"labelCols,omitempty"`
	// RunOn is the field's: its value runs on into the next field, starting the next row.
	RunOn bool `json:"runOn,omitempty"`
	// Joined is the field's: no edge between it and the field before it in the text form.
	Joined bool `json:"joined,omitempty"`
	// Marks is the field's: its side edges as printed, two characters a line.
	Marks string `json:"marks,omitempty"`
	// Pieces is the field's: its boxes as the text form prints them, one a row.
	Pieces    []string `json:"pieces,omitempty"`
	Crossings []string `json:"crossings,omitempty"`
	// Packed is the field's: its rows drawn one line each, no rule between them.
	Packed bool `json:"packed,omitempty"`
	// Repeated is the field's: it repeats zero or more times.
	Repeated bool `json:"repeated,omitempty"`
	// Stack holds the lines of a stacked label whose name has line breaks (Name has spaces
	// for them).
	Stack []string `json:"stack,omitempty"`
}

// Seg is the part of a box in one display row. X is absolute, Y relative to GridY.
type Seg struct {
	Row  int       `json:"row"`
	X    canvas.Pt `json:"x"`
	Y    canvas.Pt `json:"y"`
	W    canvas.Pt `json:"w"`
	H    canvas.Pt `json:"h"`
	From int       `json:"from"` // first bit within the row
	To   int       `json:"to"`   // bit after the last, within the row
}

// Run is a measured text run. In a Box, Row is the display row and Y is relative to GridY.
type Run struct {
	X      canvas.Pt     `json:"x"`
	Y      canvas.Pt     `json:"y"` // baseline
	S      string        `json:"s"`
	Size   canvas.Pt     `json:"size"`
	W      canvas.Pt     `json:"w"`
	Anchor canvas.Anchor `json:"anchor"`
	Fill   style.Role    `json:"fill,omitempty"`
	Class  string        `json:"class,omitempty"`
	Row    int           `json:"row"`
	// Turned: drawn turned a quarter counter-clockwise about (X, Y), reading upward (a name
	// in a box too narrow for it, Options.TurnNames); W is then its height on the page.
	Turned bool `json:"turned,omitempty"`
}

// Left returns the left end of r.
func (r Run) Left() canvas.Pt {
	switch r.Anchor {
	case canvas.Middle:
		return r.X - r.W/2
	case canvas.End:
		return r.X - r.W
	}
	return r.X
}

// newRun measures s, which must be clean (see mono.Clean).
func newRun(x, y canvas.Pt, s string, size canvas.Pt, a canvas.Anchor, fill style.Role, class string) Run {
	return Run{X: x, Y: y, S: s, Size: size, W: canvas.Pt(mono.Width(s, float64(size))), Anchor: a, Fill: fill, Class: class}
}

// The bounds of Options.BitWidth: a bit narrower than 64-bit rows' leaves the ruler's digits
// no room; one wider than 8-bit rows' draws nothing better.
const (
	minBitWidth canvas.Pt = 10
	maxBitWidth canvas.Pt = 40
)

// bitWidth is the default width of one bit for rows of rowBits bits.
func bitWidth(rowBits int) canvas.Pt {
	switch {
	case rowBits <= 8:
		return 40
	case rowBits <= 16:
		return 26
	case rowBits <= 32:
		return 16
	case rowBits <= 64:
		return 10
	}
	return 6
}

// MaxRowBits is the widest row Options.RowBits may ask for.
const MaxRowBits = 128

// captionH is the height of the band holding a row's caption (Field.Caption).
const captionH canvas.Pt = 24

// scratch holds what a layout carves its many small slices and strings from, so a diagram
// costs a few allocations rather than a few per field.
type scratch struct {
	txt  arena.Text
	segs []Seg
	runs []Run
	// elided holds the label of each elision row, by display row ("" on other rows).
	elided []string
	// after is, by field, the variable field it comes after (afterVariables).
	after []varRef
}

// carve returns the unused tail of *buf with length 0 and the rest of its capacity, first
// giving *buf a fresh block when it has room for fewer than want more: blocks grow from 16
// elements, doubling, to 1024, so a diagram makes a few of them rather than a few slices a
// field. A slice that outgrows its room is reallocated by append as any slice is (keep then
// leaves *buf as it was).
func carve[T any](buf *[]T, want int) []T {
	b := *buf
	if cap(b)-len(b) < want {
		b = make([]T, 0, max(want, min(max(2*cap(b), 16), 1024)))
		*buf = b
	}
	return b[len(b):len(b):cap(b)]
}

// keep returns used (a slice carved from *buf and appended to) capped at its length, and
// advances *buf past it if it still shares *buf's array.
func keep[T any](buf *[]T, used []T) []T {
	used = used[:len(used):len(used)]
	b := *buf
	if len(used) > 0 && cap(b) > len(b) && &b[:len(b)+1][len(b)] == &used[0] {
		*buf = b[:len(b)+len(used)]
	}
	return used
}

// Layout lays out fields, which must be in order and must not overlap (see CheckFields).
func Layout(fields []Field, opts Options) (*Diagram, error) {
	rb := opts.RowBits
	if rb == 0 {
		rb = 32
	}
	if rb < 1 || rb > MaxRowBits {
		return nil, fmt.Errorf("bytegrid: row width %d bits: want 1 to %d (8, 16, 32 or 64 are usual)", opts.RowBits, MaxRowBits)
	}
	if err := CheckFields(fields); err != nil {
		return nil, err
	}
	if slices.ContainsFunc(fields, func(f Field) bool { return f.RowBreak }) {
		return layoutBreaks(fields, opts, rb)
	}
	if err := checkFigure(fields, opts, rb); err != nil {
		return nil, err
	}
	elide := opts.ElideRows
	if elide == 0 {
		elide = 4
	}
	bw := opts.BitWidth
	if bw != 0 && !(bw >= minBitWidth && bw <= maxBitWidth) { // (NaN too)
		return nil, fmt.Errorf("bytegrid: bit width %g pt: want %g to %g, or 0 for the row width's default", float64(bw), float64(minBitWidth), float64(maxBitWidth))
	}
	if bw == 0 {
		bw = bitWidth(rb)
	}
	d := &Diagram{RowBits: rb, BitW: bw, RulerStyle: opts.Ruler, LSB0: opts.LSB0, Text: opts.Text, turn: opts.TurnNames}
	cells := false // some field not on byte boundaries has hex to show
	for _, f := range fields {
		d.Bits = f.Offset + f.Bits
		if len(f.Bytes) > 0 && !opts.NoHex {
			d.Hex = true
		}
		if !opts.NoHex && !byteAligned(f) && (f.Offset/8 < len(opts.Data) || len(f.Bytes) > 0) {
			d.Hex = true
			cells = true
		}
	}
	nPhys := (d.Bits + rb - 1) / rb
	rows, err := mapRows(fields, rb, elide)
	if err != nil {
		return nil, err
	}
	var sc scratch
	h := rowH
	if d.Hex {
		h += hexZone
	}

	// The offset column is as wide as the largest offset label.
	maxOff := 0
	if nPhys > 0 {
		maxOff = (nPhys - 1) * rb / 8
	}
	offW := canvas.Pt(mono.Width(sc.offsetLabel(maxOff, opts.DecimalOffsets), float64(offsetSize)))
	if relativeOffsets(fields, rb) {
		offW += canvas.Pt(mono.Width("+", float64(offsetSize))) // ("+0x0004": after a variable field)
	}
	d.GridX = snap(margin + offW + offsetGap)
	d.GridY = margin + rulerH
	if d.RulerStyle == RulerNone {
		d.GridY = margin
	}
	gridW := canvas.Pt(rb) * d.BitW
	d.Width = d.GridX + gridW + margin
	d.layoutRuler()

	// Display rows: the physical rows, with the inner rows of each long field, and each long
	// stretch of rows no field covers, folded into one elision row.
	physToDisp := rows.disp
	if rows.n > 0 {
		d.Rows = make([]Row, 0, rows.n)
	}
	// The height a row needs for its stacked and vertical labels, and its caption.
	need, captions := rowNeeds(fields, rb, h)
	need = d.turnNeeds(need, fields, h)
	var y canvas.Pt
	for _, sp := range rows.spans {
		var caption Run
		if c, ok := captions[sp.phys]; ok && !sp.elided {
			y += captionH
			caption = newRun(d.GridX, y-captionH/2+legendSize*0.35+1, mono.Clean(c), legendSize, canvas.Start, style.Ink, "caption")
			caption.Row = sp.disp
		}
		row := Row{Y: y, H: h, Bit: sp.phys * rb}
		if n, ok := need[sp.phys]; ok && !sp.elided && n > row.H {
			row.H = n
		}
		if sp.elided {
			row.H = elidedH
			row.Elided = sp.n * rb / 8
			for len(sc.elided) < sp.disp {
				sc.elided = append(sc.elided, "")
			}
			sc.elided = append(sc.elided, sc.elidedLabel(row, gridW-2*pad, opts.DecimalOffsets))
			if sp.gap {
				row.Gap = newRun(d.GridX+gridW/2, y+elidedH/2+hexSize*0.35, sc.elided[sp.disp],
					hexSize+0.5, canvas.Middle, style.Muted, "elided")
				row.Gap.Row = sp.disp
			}
		} else {
			s := sc.offsetLabel(row.Bit/8, opts.DecimalOffsets)
			// After a variable field, the offset is counted from its end ("+0x0004"), and
			// inside one it is not drawn: the bytes before it are not known.
			if rel, in, ok := afterVariable(fields, row.Bit); in {
				s = ""
			} else if ok {
				s = "+" + sc.offsetLabel(rel/8, opts.DecimalOffsets)
			}
			row.Offset = newRun(d.GridX-offsetGap, y+h/2+offsetSize*0.35, s, offsetSize, canvas.End, style.Muted, "offset")
		}
		row.Caption = caption
		d.Rows = append(d.Rows, row)
		y += row.H
	}
	gridH := y

	if cells {
		d.layoutCells(fields, opts.Data, physToDisp)
	}
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = f.Group
	}
	colors := style.GroupColors(names, opts.GroupColors)
	d.Fields = make([]Box, len(fields))
	sc.after = afterVariables(fields)
	for i, f := range fields {
		d.layoutField(&d.Fields[i], i, f, physToDisp, colors[f.Group], &sc)
	}
	d.quietFraming(fields)
	marks := d.layoutMarks(fields, colors)
	for _, b := range d.Fields {
		for k := 1; k < len(b.Segs); k++ {
			d.Rows[b.Segs[k].Row].Joined = true
		}
	}
	d.layoutLegend(fields, colors, marks)
	d.Height = d.GridY + gridH + d.LegendH + margin
	d.Width = canvas.Round(d.Width)
	d.Height = canvas.Round(d.Height)
	return d, nil
}

// byteAligned reports whether f starts and ends on byte boundaries.
func byteAligned(f Field) bool { return f.Offset%8 == 0 && f.Bits%8 == 0 }

// layoutCells makes a hex cell for every byte that a field not on byte boundaries covers, in a
// row that is not an elision row: the byte from the field's own Bytes, else from data.
func (d *Diagram) layoutCells(fields []Field, data []byte, physToDisp func(int) int) {
	n := 0
	for _, f := range fields {
		if !byteAligned(f) {
			n += (f.Offset+f.Bits-1)/8 - f.Offset/8 + 1 // (an upper bound: neighbours share bytes)
		}
	}
	// (Elided rows have no cells; append grows the slice past 64.)
	d.Cells = make([]Cell, 0, min(n, 64))
	// The last byte given a cell (fields are in order, so bytes only grow).
	last := -1
	for _, f := range fields {
		if byteAligned(f) {
			continue
		}
		for k := max(f.Offset/8, last+1); k <= (f.Offset+f.Bits-1)/8; k++ {
			var v byte
			switch {
			case len(f.Bytes) > 0:
				v = f.Bytes[k-f.Offset/8]
			case k < len(data):
				v = data[k]
			default:
				continue // (a later field may carry it)
			}
			last = k
			dr := physToDisp(8 * k / d.RowBits)
			row := d.Rows[dr]
			if row.Elided > 0 {
				continue
			}
			bit := 8*k - row.Bit
			c := Cell{Byte: k, Row: dr, X: d.bitX(bit) + 0.5, Y: row.Y + 0.5 + row.H - hexZone, W: 8*d.BitW - 1, H: hexZone - 0.5}
			c.Hex = newRun(c.X+c.W/2, row.Y+0.5+row.H-4, hexDigits[2*int(v):2*int(v)+2], hexSize, canvas.Middle, style.Muted, "hex")
			c.Hex.Row = dr
			if n := len(d.Cells); n > 0 && d.Cells[n-1].Byte == k-1 && d.Cells[n-1].Row == dr {
				d.Cells[n-1].W++ // meets this cell, over the border between them
			}
			d.Cells = append(d.Cells, c)
		}
	}
}

// hasCell reports whether a byte of f has a hex cell.
func (d *Diagram) hasCell(f Field) bool {
	first, last := f.Offset/8, (f.Offset+f.Bits-1)/8
	k, _ := slices.BinarySearchFunc(d.Cells, first, func(c Cell, b int) int { return c.Byte - b })
	return k < len(d.Cells) && d.Cells[k].Byte <= last
}

// snap rounds v up to a whole point, so that lines at +0.5 are crisp.
func snap(v canvas.Pt) canvas.Pt { return canvas.Pt(int(v + 0.999)) }

// offsetLabel returns the label of a row's byte offset: 0x002c, or 44 in decimal.
// elidedLabel returns the label of elision row row: the number of bytes it stands for and
// their offsets, written as the offset column writes them ("… 16 bytes, 0x0010–0x001f …"),
// or only the number when that does not fit in w.
func (sc *scratch) elidedLabel(row Row, w canvas.Pt, decimal bool) string {
	first := row.Bit / 8
	short := "… " + strconv.Itoa(row.Elided) + " bytes …"
	long := "… " + strconv.Itoa(row.Elided) + " bytes, " + sc.offsetLabel(first, decimal) + "–" + sc.offsetLabel(first+row.Elided-1, decimal) + " …"
	if canvas.Pt(mono.Width(long, float64(hexSize+0.5))) > w {
		return short
	}
	return long
}

func (sc *scratch) offsetLabel(off int, decimal bool) string {
	sc.txt.Reserve(24)
	start := sc.txt.Len()
	if decimal {
		sc.txt.Set(strconv.AppendInt(sc.txt.Buf(), int64(off), 10))
		return sc.txt.Since(start)
	}
	var buf [20]byte
	h := strconv.AppendInt(buf[:0], int64(off), 16)
	b := append(sc.txt.Buf(), "0x"...)
	for i := len(h); i < 4; i++ {
		b = append(b, '0')
	}
	sc.txt.Set(append(b, h...))
	return sc.txt.Since(start)
}

// layoutRuler sets the ruler's digits (tens above units, as in RFC 791, or as
// Diagram.RulerStyle says) and ticks.
func (d *Diagram) layoutRuler() {
	if d.RulerStyle == RulerTens && !d.LSB0 {
		d.Ruler, d.Ticks = makeRuler(d.RowBits, d.BitW, d.GridX)
		return
	}
	d.Ruler, d.Ticks = makeStyledRuler(d.RowBits, d.BitW, d.GridX, d.RulerStyle, d.LSB0)
}

// makeRuler returns the ruler's digits and ticks for rows of rb bits with the grid's left edge
// at gridX.
func makeRuler(rb int, bitW, gridX canvas.Pt) ([]Run, []Tick) {
	runs := make([]Run, 0, rb/10+1+rb)
	ticks := make([]Tick, 0, rb)
	tensY := margin + rulerSize*mono.Ascent + 1
	unitsY := tensY + rulerSize*lineFactor + 1
	for b := 0; b < rb; b++ {
		cx := gridX + (canvas.Pt(b)+0.5)*bitW
		if b%10 == 0 {
			runs = append(runs, newRun(cx, tensY, strconv.Itoa(b/10), rulerSize, canvas.Middle, style.Muted, "ruler"))
		}
		if bitW >= 12 || b%2 == 0 {
			runs = append(runs, newRun(cx, unitsY, strconv.Itoa(b%10), rulerSize, canvas.Middle, style.Muted, "ruler"))
		}
	}
	for b := 1; b < rb; b++ {
		l := canvas.Pt(2)
		if b%8 == 0 {
			l = 4
		}
		ticks = append(ticks, Tick{X: gridX + canvas.Pt(b)*bitW + 0.5, Len: l})
	}
	return runs, ticks
}

// layoutField places field i's segments and text in b.
func (d *Diagram) layoutField(b *Box, i int, f Field, physToDisp func(int) int, colour int, sc *scratch) {
	rb := d.RowBits
	if f.Variable || f.Optional {
		f.Desc = figureDesc(f)
	}
	*b = Box{
		Field: i, Path: f.Path, Offset: f.Offset, Bits: f.Bits,
		After: sc.afterOf(i).name, AfterBits: sc.afterOf(i).rel,
		Name: mono.Clean(f.Name), Value: mono.Clean(f.Value),
		Class:    "field kind-" + f.Kind.String(),
		Fill:     style.KindFill(f.Kind, colour),
		Title:    sc.tooltip(f, sc.afterOf(i)),
		Variable: f.Variable, Optional: f.Optional, Condition: mono.Clean(f.Condition),
		Label: f.Label, DoubleRule: f.DoubleRule, Caption: mono.Clean(f.Caption), Lines: f.Lines,
		LabelLine: f.LabelLine, LabelCol: f.LabelCol, LabelCols: f.LabelCols, RunOn: f.RunOn, Joined: f.Joined, Repeated: f.Repeated, Packed: f.Packed, Marks: f.Marks,
		Pieces: f.Pieces, Crossings: f.Crossings,
	}
	if f.Label == LabelStacked && strings.Contains(f.Name, "\n") {
		b.Stack = labelLines(f.Name, LabelStacked)
	}
	if f.Optional {
		b.Class += " optional"
	}
	if f.Variable {
		b.Class += " variable"
	}
	first, last := f.Offset/rb, (f.Offset+f.Bits-1)/rb
	// Segments and runs are appended to locals and stored in b once: a pointer stored in the
	// heap goes through the garbage collector's write barrier while it marks.
	segs := carve(&sc.segs, 4)    // most fields: one to three rows
	hexRuns := carve(&sc.runs, 8) // their hex, name and value
	for r := first; r <= last; r++ {
		dr := physToDisp(r)
		if len(segs) > 0 && segs[len(segs)-1].Row == dr {
			if next := rows0(r, last, dr, physToDisp); next > r {
				r = next - 1 // jump over the rest of the elision row's rows
			}
			continue // folded into the elision row
		}
		from, to := 0, rb
		if r == first {
			from = f.Offset - r*rb
		}
		if r == last {
			to = f.Offset + f.Bits - r*rb
		}
		row := d.Rows[dr]
		if row.Elided > 0 {
			from, to = 0, rb
		}
		segs = append(segs, Seg{Row: dr, X: d.GridX + canvas.Pt(from)*d.BitW + 0.5, Y: row.Y + 0.5, W: canvas.Pt(to-from) * d.BitW, H: row.H, From: from, To: to})
	}
	b.Segs = keep(&sc.segs, segs)
	b.Continue = len(b.Segs) > 1
	d.layoutBracket(b, f.Bracket)
	if g := style.Group(colour); f.Group != "" && b.Fill != g {
		b.Band = g
	}
	framing := f.Kind.Framing()
	nameFill, valueFill := style.Ink, style.Ink
	if framing {
		nameFill, valueFill = style.Muted, style.Muted
	}

	// Elision row text, and hex of each byte.
	for _, s := range b.Segs {
		row := d.Rows[s.Row]
		if row.Elided > 0 {
			txt := sc.elided[s.Row]
			r := newRun(s.X+s.W/2, s.Y+s.H/2+hexSize*0.35, txt, hexSize+0.5, canvas.Middle, style.Muted, "elided")
			r.Row = s.Row
			hexRuns = append(hexRuns, r)
			continue
		}
		if !d.Hex || len(f.Bytes) == 0 || !byteAligned(f) {
			continue // (the bytes of a field not on byte boundaries are in cells)
		}
		for bit := s.From; bit < s.To; bit += 8 {
			k := (row.Bit + bit - f.Offset) / 8
			if k < 0 || k >= len(f.Bytes) {
				continue
			}
			cx := d.GridX + (canvas.Pt(bit)+4)*d.BitW + 0.5
			r := newRun(cx, s.Y+s.H-4, hexDigits[2*int(f.Bytes[k]):2*int(f.Bytes[k])+2], hexSize, canvas.Middle, style.Muted, "hex")
			r.Row = s.Row
			hexRuns = append(hexRuns, r)
		}
	}

	best := b.labelSeg(d.Rows)
	if best < 0 {
		b.Runs = keep(&sc.runs, hexRuns)
		return
	}
	s := b.Segs[best]
	top, bottom := s.Y+2, s.Y+s.H-2
	if d.Hex {
		bottom -= hexZone
	}
	w := b.textWidth(s)
	value := b.Value // the value text drawn, with an optional field's condition
	if b.Condition != "" {
		if value != "" {
			value += ", "
		}
		value += b.Condition
	}
	var runs []Run
	ok := false
	runs, ok = d.fitBox(f, b, hexRuns, value, s, w, top, bottom, nameFill, valueFill)
	if !ok && f.Label != LabelNote && d.Hex && (len(f.Bytes) == 0 || !byteAligned(f)) && !d.hasCell(f) {
		// No hex in this box: its text may use the hex zone too.
		runs, ok = fitLabel(hexRuns, b.Name, value, s.X+s.W/2, w, top, bottom+hexZone, nameFill, valueFill, s.Row)
	}
	if !ok && f.Label != LabelNote && value != "" && b.Name != "" {
		// The name alone, with the value's note mark under it.
		mark := "[" + strconv.Itoa(len(d.Notes)+1) + "]"
		if runs, ok = fitLabel(hexRuns, b.Name, mark, s.X+s.W/2, w, top, bottom, nameFill, style.Muted, s.Row); ok {
			d.Notes = append(d.Notes, Note{Mark: len(d.Notes) + 1, Field: i, Text: b.Name + " = " + value})
		}
	}
	if !ok {
		mark := strconv.Itoa(len(d.Notes) + 1)
		text := b.Name
		if value != "" {
			text += " = " + value
		}
		d.Notes = append(d.Notes, Note{Mark: len(d.Notes) + 1, Field: i, Text: text})
		size := markSize
		for size > 6 && canvas.Pt(mono.Width(mark, float64(size))) > s.W-2 {
			size -= 0.5
		}
		r := newRun(s.X+s.W/2, (top+bottom)/2+size*0.35, mark, size, canvas.Middle, style.Muted, "mark")
		r.Row = s.Row
		runs = append(hexRuns, r)
	}
	// A field wrapped into two pieces that share no column (the end of one row, the start of
	// the next) is drawn open at the facing ends. The pieces that read as cells of their own
	// (see contPiece) get the name, muted, with a continuation mark pointing to the rest.
	if b.Continue {
		hex := d.Hex && (len(f.Bytes) > 0 && byteAligned(f) || d.hasCell(f))
		for k, s := range b.Segs {
			if !b.contPiece(k, best, rb, d.Rows) {
				continue
			}
			top, bottom := s.Y+2, s.Y+s.H-2
			if hex {
				bottom -= hexZone
			}
			runs = sc.contLabel(runs, b.Name, k < best, s, b.textWidth(s), top, bottom)
		}
	}
	b.Runs = keep(&sc.runs, runs)
}

// Bracket geometry: the bracket's bar stands bracketInset inside the border, its ticks reach
// bracketTick further in, from just under the group band to just above the bottom: within
// the box's padding at the sides, clear of its labels.
const (
	bracketInset canvas.Pt = 3.5
	bracketTick  canvas.Pt = 2.5
)

// layoutBracket sets b's bracket: "[" at the left edge of its first segment for Opens, "]" at
// the right edge of its last for Closes; none on an elision row or in a box too narrow to
// hold it beside a label.
func (d *Diagram) layoutBracket(b *Box, br Bracket) {
	if br == NoBracket || len(b.Segs) == 0 {
		return
	}
	s, x, dir := b.Segs[0], canvas.Pt(0), canvas.Pt(1)
	switch br {
	case Opens:
		x = s.X + bracketInset
	case Closes:
		s = b.Segs[len(b.Segs)-1]
		x, dir = s.X+s.W-bracketInset, -1
	default:
		return
	}
	if d.Rows[s.Row].Elided > 0 || s.W < 4*pad+2*bracketTick {
		return
	}
	top, bottom := s.Y+bandH+2.5, s.Y+s.H-2.5
	t := x + dir*bracketTick
	b.Bracket = []canvas.Pt{t, top, x, top, x, bottom, t, bottom}
	b.BracketRow = s.Row
}

// textWidth returns the width the label of b may take in its segment s: the segment less its
// padding, and, in the segment with b's bracket, less the bracket's ticks on both sides (so
// the label stays centred).
func (b *Box) textWidth(s Seg) canvas.Pt {
	w := s.W - 2*pad
	if len(b.Bracket) > 0 && b.BracketRow == s.Row {
		w -= 2 * (bracketInset + bracketTick + 1 - pad) // and a point clear of the ticks
	}
	if b.Variable && s == b.Segs[len(b.Segs)-1] && s.W >= breakMin {
		w -= 2 * (breakW - pad) // clear of the break at its open end (paintFigureMarks), centred
	}
	return w
}

// A variable field's break mark at its open end: breakW wide, in a piece at least breakMin
// wide (paintFigureMarks).
const breakW, breakMin canvas.Pt = 14, 24

// fitBox fits field f's label (its name b.Name and value) in segment s of its box b, inner
// width w between top and bottom, after the runs of its hex: turned where the diagram turns
// names (Options.TurnNames) and the name's longest word is wider than the box, else by f's
// label mode. It reports false when the label does not fit (a numbered note follows).
func (d *Diagram) fitBox(f Field, b *Box, hexRuns []Run, value string, s Seg, w, top, bottom canvas.Pt, nameFill, valueFill style.Role) ([]Run, bool) {
	if d.turn && f.Label == LabelAuto && len(b.Segs) == 1 {
		if runs, ok := fitTurned(hexRuns, b.Name, value, s, top, bottom, nameFill, valueFill); ok {
			return runs, true
		}
	}
	switch f.Label {
	case LabelStacked, LabelVertical:
		if runs, ok := fitMode(hexRuns, f.Name, value, f.Label, s.X+s.W/2, w, top, bottom, nameFill, valueFill, s.Row); ok {
			return runs, true
		}
		return fitLabel(hexRuns, b.Name, value, s.X+s.W/2, w, top, bottom, nameFill, valueFill, s.Row)
	case LabelNote:
		return hexRuns, false
	}
	return fitShort(hexRuns, b.Name, mono.Clean(f.Short), value, s.X+s.W/2, w, top, bottom, nameFill, valueFill, s.Row, nameSize)
}

// turnSize is the size of a turned name and value (Options.TurnNames): the floor of a name's.
const turnSize = nameFloor

// turnedLines returns the lines a name (and its value) is written in, turned, in a box boxW
// wide: nil when the name's longest word fits across the box at the floor size (it is fitted
// as usual, maybe wrapped) or no turned line fits across; else the name and the value side by
// side where two lines fit across, else one line "name = value".
func turnedLines(name, value string, boxW canvas.Pt) []string {
	longest := 0
	for _, w := range strings.Fields(name) {
		longest = max(longest, mono.Runes(w))
	}
	across := boxW - 2 // a turned line's height, across the box, keeps a point clear of each edge
	line := turnSize * lineFactor
	switch {
	case longest == 0 || canvas.Pt(longest)*mono.Advance*nameFloor <= boxW-2*pad || line > across:
		return nil
	case value == "":
		return []string{name}
	case 2*line <= across:
		return []string{name, value}
	}
	return []string{name + " = " + value}
}

// turnedLength is the length of the longest of the turned lines, along the box's height.
func turnedLength(lines []string) canvas.Pt {
	n := 0
	for _, l := range lines {
		n = max(n, mono.Runes(l))
	}
	return canvas.Pt(n) * mono.Advance * turnSize
}

// fitTurned appends the turned runs of a name and value (turnedLines) centred in segment s
// between top and bottom; it reports false, dst unchanged, when they are not turned or do not
// fit the row's height.
func fitTurned(dst []Run, name, value string, s Seg, top, bottom canvas.Pt, nameFill, valueFill style.Role) ([]Run, bool) {
	lines := turnedLines(name, value, s.W)
	if lines == nil || turnedLength(lines) > bottom-top {
		return dst, false
	}
	line := turnSize * lineFactor
	// Each line's baseline is vertical; the glyphs stand left of it, their middle at the
	// line's centre (0.35 of the size from the baseline, as a row's text is placed).
	x0 := s.X + s.W/2 - line*canvas.Pt(len(lines))/2 + line/2 + turnSize*0.35
	for k, l := range lines {
		fill := nameFill
		if k > 0 {
			fill = valueFill
		}
		r := newRun(x0+canvas.Pt(k)*line, (top+bottom)/2, l, turnSize, canvas.Middle, fill, "name")
		if k > 0 {
			r.Class = "value"
		}
		r.Row, r.Turned = s.Row, true
		dst = append(dst, r)
	}
	return dst, true
}

// turnNeeds adds to need the height each row needs for its turned names (Options.TurnNames),
// by the rule fitTurned follows; h is a row's height. Without TurnNames it returns need.
func (d *Diagram) turnNeeds(need map[int]canvas.Pt, fields []Field, h canvas.Pt) map[int]canvas.Pt {
	rb, bw := d.RowBits, d.BitW
	for _, f := range fields {
		if !d.turn {
			break
		}
		first := f.Offset / rb
		if f.Label != LabelAuto || first != (f.Offset+f.Bits-1)/rb {
			continue
		}
		value := mono.Clean(f.Value)
		if c := mono.Clean(f.Condition); c != "" {
			if value != "" {
				value += ", "
			}
			value += c
		}
		lines := turnedLines(mono.Clean(f.Name), value, canvas.Pt(f.Bits)*bw)
		if lines == nil {
			continue
		}
		hh := canvas.Round((h - rowH) + turnedLength(lines) + 2*pad + 4)
		if hh > h {
			if need == nil {
				need = map[int]canvas.Pt{}
			}
			need[first] = max(need[first], hh)
		}
	}
	return need
}

// labelSeg returns the index of the segment of b that holds its label: the widest that is not
// an elision row (the first of equals), or -1 when every segment is one.
func (b *Box) labelSeg(rows []Row) int {
	best := -1
	for k, s := range b.Segs {
		if s.Row < 0 || s.Row >= len(rows) || rows[s.Row].Elided > 0 {
			continue
		}
		if best < 0 || s.W > b.Segs[best].W {
			best = k
		}
	}
	return best
}

// contPiece reports whether segment k of b, whose label is in segment best, gets a
// continuation label of its own because it reads as a cell apart from the labelled one: either
// piece of a split field, or the partial first or last row of a field spanning three or more
// rows (the end of one row before full rows, the start of one after them), which the outline
// joins to the rest only along its bottom or top edge. Full rows and elision rows continue the
// labelled shape as a rectangle and get none.
func (b *Box) contPiece(k, best, rowBits int, rows []Row) bool {
	if k == best || best < 0 || k < 0 || k >= len(b.Segs) {
		return false
	}
	s := b.Segs[k]
	if s.Row < 0 || s.Row >= len(rows) || rows[s.Row].Elided > 0 {
		return false
	}
	if b.Split() {
		return true
	}
	if len(b.Segs) < 3 {
		return false
	}
	return (k == 0 && s.From > 0) || (k == len(b.Segs)-1 && s.To < rowBits)
}

// Split reports whether b is a field wrapped across two rows in two pieces that share no
// column: the end of one row and the start of the next. Such a field is drawn as two pieces
// open at their facing ends, each with a label.
func (b *Box) Split() bool {
	return len(b.Segs) == 2 && b.Segs[1].To <= b.Segs[0].From
}

// The continuation marks of a split field's secondary piece: the field goes on in the next
// row, or came from the row before.
const (
	markOn   = "›"
	markFrom = "‹"
)

// contLabel appends the label of a secondary piece s of a split field, in width w: the name with a
// continuation mark (towards the next row when before is true, else from the row before),
// muted; shrunk to the name's floor, then ellipsised; when no part of the name fits, the mark
// alone. The text is carved from sc's buffer.
func (sc *scratch) contLabel(dst []Run, name string, before bool, s Seg, w, top, bottom canvas.Pt) []Run {
	mark := markFrom
	if before {
		mark = markOn
	}
	join := func(n string) string {
		if n == "" {
			return mark
		}
		if before {
			return sc.txt.Cat(n, " ", mark)
		}
		return sc.txt.Cat(mark, " ", n)
	}
	var buf [1]label
	// The whole name, shrunk to the floor.
	if n := mono.Runes(name) + 2; name != "" && canvas.Pt(n)*mono.Advance*nameFloor <= w+0.001 {
		text := join(name)
		for size := nameSize; size >= nameFloor; size -= 0.5 {
			buf[0] = label{text, size, style.Muted, "cont", -1}
			if out, ok := place(dst, buf[:], s.X+s.W/2, w, top, bottom, s.Row); ok {
				return out
			}
		}
	}
	// Ellipsised: the mark and its space take two of the runes that fit.
	if n := mono.Fit(float64(w), float64(nameFloor)) - 2; n >= 2 && name != "" && n < mono.Runes(name) {
		buf[0] = label{join(mono.Truncate(name, n)), nameFloor, style.Muted, "cont", -1}
		if out, ok := place(dst, buf[:], s.X+s.W/2, w, top, bottom, s.Row); ok {
			return out
		}
	}
	for size := markSize; size >= 6; size -= 0.5 {
		buf[0] = label{mark, size, style.Muted, "cont", -1}
		if out, ok := place(dst, buf[:], s.X+s.W/2, s.W-2, top, bottom, s.Row); ok {
			return out
		}
	}
	return dst
}

// quietFraming keeps framing from reading louder than data: a framing label (a size, length
// or tag section) is drawn no larger than the smallest data name in its row, so that in a row
// of one-byte fields "tagged fields" does not stand at full size beside a data name shrunk to
// the floor. The label is fitted again at that size, centred as before.
func (d *Diagram) quietFraming(fields []Field) {
	rowMin := make([]canvas.Pt, len(d.Rows))
	for i := range d.Fields {
		if fields[i].Kind.Framing() {
			continue
		}
		for _, r := range d.Fields[i].Runs {
			if r.Class == "name" && r.Row >= 0 && r.Row < len(rowMin) && (rowMin[r.Row] == 0 || r.Size < rowMin[r.Row]) {
				rowMin[r.Row] = r.Size
			}
		}
	}
	for i := range d.Fields {
		b := &d.Fields[i]
		if !fields[i].Kind.Framing() {
			continue
		}
		best := b.labelSeg(d.Rows)
		if best < 0 {
			continue
		}
		s := b.Segs[best]
		m := rowMin[s.Row]
		loud := false
		for _, r := range b.Runs {
			if (r.Class == "name" || r.Class == "value") && r.Row == s.Row && m > 0 && r.Size > m {
				loud = true
			}
		}
		if !loud {
			continue
		}
		kept := make([]Run, 0, len(b.Runs))
		var label []Run
		for _, r := range b.Runs {
			if (r.Class == "name" || r.Class == "value") && r.Row == s.Row {
				label = append(label, r)
				continue
			}
			kept = append(kept, r)
		}
		top, bottom := s.Y+2, s.Y+s.H-2
		if d.Hex {
			bottom -= hexZone
		}
		if out, ok := fitShort(kept, b.Name, mono.Clean(fields[i].Short), b.Value, s.X+s.W/2, b.textWidth(s), top, bottom, style.Muted, style.Muted, s.Row, m); ok {
			b.Runs = out
		} else {
			b.Runs = append(kept, label...)
		}
	}
}

// fitLabel appends to dst the runs of a name and a value (either may be empty, both clean),
// centred at cx in width w between top and bottom: at full size, shrunk to the floor, then with
// the name (and then the value) wrapped to two lines. It reports false, with dst unchanged,
// when nothing fits.
func fitLabel(dst []Run, name, value string, cx, w, top, bottom canvas.Pt, nameFill, valueFill style.Role, row int) ([]Run, bool) {
	return fitLabelMax(dst, name, value, cx, w, top, bottom, nameFill, valueFill, row, nameSize)
}

// fitLabelMax is fitLabel with the name drawn at most at size max (and the value one point
// below it), for a framing label kept no louder than the data beside it (quietFraming).
func fitLabelMax(dst []Run, name, value string, cx, w, top, bottom canvas.Pt, nameFill, valueFill style.Role, row int, max canvas.Pt) ([]Run, bool) {
	return fitText(dst, name, value, cx, w, top, bottom, nameFill, valueFill, row, max, true)
}

// fitShort fits a label that has a short form (Field.Short): the whole name on one line,
// shrunk no further than the floor; else the short form on one line ("tags" for
// "Partitions[0] tags": the box's bracket, group colour and letter say whose, and the tooltip
// keeps the whole name), with its value, then with the value's number alone ("1" for
// "1 → FinalizedFeaturesEpoch"); else as fitLabelMax does (wrapped, then a note). A one-byte tag
// section so reads "tags / 0 → none" in two lines, not three lines of the smallest type.
// Without a short form it is fitLabelMax. (Short may equal Name: then only the value is cut.)
func fitShort(dst []Run, name, short, value string, cx, w, top, bottom canvas.Pt, nameFill, valueFill style.Role, row int, max canvas.Pt) ([]Run, bool) {
	if short != "" {
		if out, ok := fitText(dst, name, value, cx, w, top, bottom, nameFill, valueFill, row, max, false); ok {
			return out, true
		}
		if out, ok := fitText(dst, short, value, cx, w, top, bottom, nameFill, valueFill, row, max, false); ok {
			return out, true
		}
		// A value "1 → FinalizedFeaturesEpoch" as its number alone: the meaning stays in the
		// tooltip (and here names the field that follows).
		if n, _, ok := strings.Cut(value, " → "); ok && n != "" {
			if out, ok := fitText(dst, short, n, cx, w, top, bottom, nameFill, valueFill, row, max, false); ok {
				return out, true
			}
		}
	}
	return fitText(dst, name, value, cx, w, top, bottom, nameFill, valueFill, row, max, true)
}

// fitText is fitLabelMax, with the wrapped forms tried only when wrap is set.
func fitText(dst []Run, name, value string, cx, w, top, bottom canvas.Pt, nameFill, valueFill style.Role, row int, max canvas.Pt, wrap bool) ([]Run, bool) {
	if name == "" && value == "" {
		return dst, true
	}
	nameN, valueN := mono.Runes(name), mono.Runes(value)
	var buf [4]label
	// One line each, shrinking both together.
	for step := 0; ; step++ {
		ns := min(nameSize, max) - canvas.Pt(step)*0.5
		vs := min(valueSize, max-1) - canvas.Pt(step)*0.5
		if ns < nameFloor {
			break
		}
		if vs < valueFloor {
			vs = valueFloor
		}
		if canvas.Pt(nameN)*mono.Advance*ns > w+0.001 || canvas.Pt(valueN)*mono.Advance*vs > w+0.001 {
			continue
		}
		lines := buf[:0]
		if name != "" {
			lines = append(lines, label{name, ns, nameFill, "name", nameN})
		}
		if value != "" {
			lines = append(lines, label{value, vs, valueFill, "value", valueN})
		}
		if out, ok := place(dst, lines, cx, w, top, bottom, row); ok {
			return out, true
		}
	}
	if !wrap {
		return dst, false
	}
	// The name (and then the value) wrapped to two lines at the floor, at a word boundary
	// (space, punctuation, case change) nearest the middle; never mid-word ("Rese / rved"): a
	// label that does not fit in whole words gets a note mark instead (layoutField).
	for _, wrapValue := range [...]bool{false, true} {
		lines := buf[:0]
		if name != "" {
			a, b, ok := split(name)
			if !ok {
				a, b = name, ""
			}
			lines = append(lines, label{a, nameFloor, nameFill, "name", -1})
			if b != "" {
				lines = append(lines, label{b, nameFloor, nameFill, "name", -1})
			}
		}
		if value != "" {
			if a, b, ok := split(value); wrapValue && ok {
				lines = append(lines, label{a, valueFloor, valueFill, "value", -1}, label{b, valueFloor, valueFill, "value", -1})
			} else {
				lines = append(lines, label{value, valueFloor, valueFill, "value", valueN})
			}
		}
		if out, ok := place(dst, lines, cx, w, top, bottom, row); ok {
			return out, true
		}
	}
	return dst, false
}

// label is one line of a field's text before placement.
type label struct {
	s     string
	size  canvas.Pt
	fill  style.Role
	class string
	runes int // mono.Runes(s), or -1 for place to count them
}

// width is mono.Width(l.s, l.size) from the rune count, which must be known.
func (l *label) width() canvas.Pt {
	return canvas.Pt(float64(l.runes) * mono.Advance * float64(l.size))
}

// place appends the lines to dst, centred vertically between top and bottom, if each fits
// in width w and all fit in the height.
func place(dst []Run, lines []label, cx, w, top, bottom canvas.Pt, row int) ([]Run, bool) {
	lineFactor := canvas.Pt(lineFactor)
	if len(lines) > 2 {
		lineFactor = tightLineFactor
	}
	var total canvas.Pt
	for i := range lines {
		l := &lines[i]
		if l.runes < 0 {
			l.runes = mono.Runes(l.s)
		}
		if l.width() > w+0.001 {
			return dst, false
		}
		total += l.size * lineFactor
	}
	if total > bottom-top+0.001 {
		return dst, false
	}
	y := top + (bottom-top-total)/2
	for _, l := range lines {
		// centre the glyph box (ascent+descent) inside the line's slot
		base := y + (l.size*lineFactor-(mono.Ascent+mono.Descent)*l.size)/2 + mono.Ascent*l.size
		dst = append(dst, Run{X: cx, Y: base, S: l.s, Size: l.size, W: l.width(), Anchor: canvas.Middle, Fill: l.fill, Class: l.class, Row: row})
		y += l.size * lineFactor
	}
	return dst, true
}

// split breaks s in two at the word boundary nearest its middle: a space, '.', '_' or '-', or
// a lower-to-upper case change (TopicId → Topic Id). It reports false when s has none: a word
// is never cut.
func split(s string) (string, string, bool) {
	rs := []rune(s)
	if len(rs) < 2 {
		return "", "", false
	}
	best, bestDist := -1, len(rs)
	for i := 1; i < len(rs); i++ {
		ok := rs[i-1] == ' ' || rs[i-1] == '.' || rs[i-1] == '_' || rs[i-1] == '-' ||
			(isLower(rs[i-1]) && isUpper(rs[i]))
		if !ok {
			continue
		}
		dist := i - len(rs)/2
		if dist < 0 {
			dist = -dist
		}
		if dist < bestDist {
			best, bestDist = i, dist
		}
	}
	if best < 0 {
		return "", "", false
	}
	return strings.TrimRight(string(rs[:best]), " "), strings.TrimLeft(string(rs[best:]), " "), true
}

func isLower(r rune) bool { return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' }
func isUpper(r rune) bool { return r >= 'A' && r <= 'Z' }

// tooltip returns the title of a field (style.Tip, the text both twins share); after is the
// variable field it comes after, if any, its offset then counted from that field's end.
func (sc *scratch) tooltip(f Field, after varRef) string {
	head := f.Path
	if head == "" {
		head = f.Name
	}
	tip := style.Tip{Head: head, Type: f.Type, Bit: f.Offset, Bits: f.Bits, Kind: f.Kind, Value: f.Value, Desc: f.Desc}
	if after.name != "" {
		tip.Bit, tip.After = after.rel, after.name
	}
	sc.txt.Reserve(tip.Size())
	start := sc.txt.Len()
	sc.txt.Set(tip.Append(sc.txt.Buf()))
	return sc.txt.Since(start)
}

// Group marks: each group's letter (style.GroupMark), so that groups are told apart without
// colour, in the bottom-left corner of a box, on the baseline of its hex bytes, upper case and
// in ink (the hex is lower case and muted).
const (
	groupMarkSize  canvas.Pt = hexSize
	legendMarkSize canvas.Pt = 8.5 // 9 CSS px and more where a phone shows the 16-bit grid (TestPagesReadable)
)

// layoutMarks writes the group letter (style.GroupMark of the group's colour index, followed
// by the field's Item) in a corner of the box where each run of a group starts in a display
// row: every row shows the letter of every group in it, so a reader of a greyscale print reads
// a box's group without its colour. When the first box of a run has no room for the letter
// clear of its text (a narrow box, a label down to its bottom), the next box of the run takes
// it. Elision rows, fields not on byte boundaries (their bottom holds the shared hex cells)
// and ungrouped fields carry none. A diagram with fewer than two groups needs no letters and
// gets none; layoutMarks reports whether it wrote them.
func (d *Diagram) layoutMarks(fields []Field, colors map[string]int) bool {
	first, two := "", false
	for _, f := range fields {
		if f.Group == "" {
			continue
		}
		if first == "" {
			first = f.Group
		} else if f.Group != first {
			two = true
			break
		}
	}
	if !two {
		return false
	}
	type key struct{ group, item string }
	last := make([]key, len(d.Rows))
	started := make([]bool, len(d.Rows)) // a run has begun in the row
	pending := make([]bool, len(d.Rows)) // the row's current run has no letter yet
	for i := range d.Fields {
		f, b := fields[i], &d.Fields[i]
		k := key{f.Group, f.Item}
		for _, s := range b.Segs {
			r := s.Row
			if !started[r] || last[r] != k {
				started[r], last[r], pending[r] = true, k, f.Group != ""
			}
			if !pending[r] || d.Rows[r].Elided > 0 || !byteAligned(f) {
				continue
			}
			if d.placeMark(b, s, style.GroupMark(colors[f.Group])+mono.Clean(f.Item)) {
				pending[r] = false
			}
		}
	}
	return true
}

// placeMark adds the group letter mark to box b in its segment s when it fits there clear of
// the box's other text and bracket, and reports whether it did.
func (d *Diagram) placeMark(b *Box, s Seg, mark string) bool {
	x := s.X + pad
	if len(b.Bracket) > 0 && b.BracketRow == s.Row && b.Bracket[2] < s.X+s.W/2 {
		x = b.Bracket[0] + 1.5 // right of an opening bracket's ticks
	}
	r := newRun(x, s.Y+s.H-4, mark, groupMarkSize, canvas.Start, style.Ink, "group")
	r.Row = s.Row
	if r.X+r.W > s.X+s.W-pad || r.Y-r.Size*0.8 < s.Y+bandH {
		return false
	}
	for _, o := range b.Runs {
		if o.Row != s.Row {
			continue
		}
		// Clear of the run by a point each way (text boxes as checkTextInBoxes sees them).
		if r.X < o.Left()+o.W+1 && o.Left() < r.X+r.W+1 && r.Y-r.Size*0.8 < o.Y+o.Size*0.25+0.5 && o.Y-o.Size*0.8 < r.Y+r.Size*0.25+0.5 {
			return false
		}
	}
	runs := make([]Run, len(b.Runs), len(b.Runs)+1)
	copy(runs, b.Runs)
	b.Runs = append(runs, r)
	return true
}

// layoutLegend lays out the group legend and the notes under the grid (relative to its end);
// with marks, each swatch holds its group's letter.
func (d *Diagram) layoutLegend(fields []Field, colors map[string]int, marks bool) {
	var y canvas.Pt = legendGap
	x := d.GridX
	maxX := d.Width - margin
	line := legendSize * 1.6
	// The groups in order of first appearance.
	var order []string
	seen := map[string]bool{}
	for _, f := range fields {
		if f.Group != "" && !seen[f.Group] {
			seen[f.Group] = true
			order = append(order, f.Group)
		}
	}
	if len(order) > 0 {
		d.Swatch = make([]Swatch, 0, len(order))
		d.Legend = make([]Run, 0, 2*len(order)+2*len(d.Notes))
		for _, n := range order {
			r := newRun(0, 0, mono.Clean(n), legendSize, canvas.Start, style.Ink, "legend")
			sw := legendSize
			need := sw + 4 + r.W
			if x > d.GridX && x+need > maxX {
				x = d.GridX
				y += line
			}
			// Truncate a name longer than the whole line.
			if sw+4+r.W > maxX-d.GridX {
				r = newRun(0, 0, mono.Truncate(r.S, mono.Fit(float64(maxX-d.GridX-sw-4), float64(legendSize))), legendSize, canvas.Start, style.Ink, "legend")
			}
			d.Swatch = append(d.Swatch, Swatch{X: x + 0.5, Y: y + 0.5, W: sw, Fill: style.Group(colors[n])})
			if marks {
				m := style.GroupMark(colors[n])
				size := legendMarkSize
				for size > 5 && canvas.Pt(mono.Width(m, float64(size))) > sw-2 {
					size -= 0.5
				}
				d.Legend = append(d.Legend, newRun(x+0.5+sw/2, y+0.5+sw/2+size*0.35, m, size, canvas.Middle, style.Ink, "legend-mark"))
			}
			r.X, r.Y = x+sw+4, y+legendSize*mono.Ascent+0.5
			d.Legend = append(d.Legend, r)
			x += sw + 4 + r.W + 14
		}
		y += line
	}
	// Notes: "1  Name = value", in as many columns as the widest note allows, filled row by
	// row (1 2 / 3 4), so that many short notes (the bits of a field) take few lines; a note
	// wider than the whole line is truncated to it.
	markW := canvas.Pt(mono.Width("000", float64(legendSize)))
	widest := canvas.Pt(0)
	for _, n := range d.Notes {
		widest = max(widest, markW+canvas.Pt(mono.Width(n.Text, float64(legendSize))))
	}
	const colGap canvas.Pt = 14
	cols := max(1, int((maxX-d.GridX+colGap)/(widest+colGap)))
	colW := (maxX - d.GridX + colGap) / canvas.Pt(cols)
	for i, n := range d.Notes {
		x := d.GridX + canvas.Pt(i%cols)*colW
		if i > 0 && i%cols == 0 {
			y += line
		}
		mark := newRun(x, y+legendSize*mono.Ascent, strconv.Itoa(n.Mark), legendSize, canvas.Start, style.Muted, "mark")
		tx := x + markW
		fit := mono.Fit(float64(maxX-tx), float64(legendSize))
		t := newRun(tx, y+legendSize*mono.Ascent, mono.Truncate(n.Text, fit), legendSize, canvas.Start, style.Ink, "note")
		d.Legend = append(d.Legend, mark, t)
	}
	if len(d.Notes) > 0 {
		y += line
	}
	// The figure's own notes: its right margin's and the text under it (a legend, its
	// caption), a line each, as printed but for the spaces around them.
	if ns := figureNotes(d.Text); len(ns) > 0 {
		fit := mono.Fit(float64(maxX-d.GridX), float64(legendSize))
		for _, n := range ns {
			d.Legend = append(d.Legend, newRun(d.GridX, y+legendSize*mono.Ascent, mono.Truncate(n, fit), legendSize, canvas.Start, style.Ink, "note"))
			y += line
		}
	}
	if len(d.Legend) == 0 {
		d.LegendH = 0
		return
	}
	d.LegendH = y
}

// Limits on what a diagram draws, so that its size follows its meaningful content.
const (
	// MaxFieldRows is how many rows a field may span before it is elided even when
	// Options.ElideRows is negative ("never elide").
	MaxFieldRows = 1024
	// MaxRows is how many rows, elision rows included, a diagram may have: past it Layout
	// fails rather than draw megabytes.
	MaxRows = 100000
)

// rowMap maps physical rows (RowBits each, from offset 0) to display rows. Spans are in order;
// each maps n physical rows from phys to the display row disp (n > 1 only for elision rows).
// Its size follows the fields and the rows drawn, not the offsets, so a field at a huge offset
// costs no more than one near 0.
type rowMap struct {
	spans []rowSpan
	n     int // display rows
}

type rowSpan struct {
	phys, n, disp int
	elided, gap   bool
}

// mapRows folds the inner rows of each field longer than elide rows (or MaxFieldRows rows,
// whatever elide says) into one elision row, and each stretch of three or more rows no field
// touches into one gap row.
func mapRows(fields []Field, rb, elide int) (*rowMap, error) {
	m := &rowMap{}
	add := func(phys, n int, elided, gap bool) {
		m.spans = append(m.spans, rowSpan{phys: phys, n: n, disp: m.n, elided: elided, gap: gap})
		m.n++
	}
	next := 0 // the first physical row not mapped yet
	for _, f := range fields {
		first, last := f.Offset/rb, (f.Offset+f.Bits-1)/rb
		if gap := first - next; gap >= 3 {
			add(next, gap, true, true)
		} else {
			for r := next; r < first; r++ {
				add(r, 1, false, false)
			}
		}
		rows := last - first + 1
		long := rows >= 3 && (elide > 0 && rows > elide || rows > MaxFieldRows)
		for r := max(first, next); r <= last; r++ {
			if long && r == first+1 {
				add(r, last-first-1, true, false)
				r = last - 1
				continue
			}
			add(r, 1, false, false)
		}
		next = last + 1
		if m.n > MaxRows {
			return nil, fmt.Errorf("bytegrid: the diagram would have more than %d rows (field %q at bit %d); elide its long fields", MaxRows, f.Name, f.Offset)
		}
	}
	return m, nil
}

// disp returns the display row of physical row r.
func (m *rowMap) disp(r int) int {
	i, found := slices.BinarySearchFunc(m.spans, r, func(s rowSpan, r int) int {
		switch {
		case r < s.phys:
			return 1
		case r >= s.phys+s.n:
			return -1
		}
		return 0
	})
	if !found {
		return m.n - 1
	}
	return m.spans[i].disp
}

// rows0 returns the first physical row after r (up to last+1) that is not folded into display
// row dr, so that a field's walk over its rows skips an elision row's rows at once.
func rows0(r, last, dr int, disp func(int) int) int {
	lo, hi := r, last+1
	for lo < hi { // the rows of one display row are consecutive
		mid := (lo + hi) / 2
		if disp(mid) == dr {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// relativeOffsets reports whether a row that a field starts (at a multiple of rb bits) is
// after a variable field, its offset drawn relative to it ("+0x0004").
func relativeOffsets(fields []Field, rb int) bool {
	for i := range fields {
		if o := fields[i].Offset; o%rb == 0 {
			if _, _, ok := afterVariable(fields, o); ok {
				return true
			}
		}
	}
	return false
}

// varRef is where a field lies after the variable fields before it: rel bits after the end
// of the field named name ("" for a field no variable field comes before).
type varRef struct {
	name string
	rel  int
}

// afterVariables returns each field's varRef: the last variable field that ends at or before
// its offset (fields in order of offset, as Layout takes them).
func afterVariables(fields []Field) []varRef {
	out := make([]varRef, len(fields))
	last := -1
	for i := range fields {
		if last >= 0 {
			v := &fields[last]
			name := v.Path
			if name == "" {
				name = v.Name
			}
			out[i] = varRef{name: name, rel: fields[i].Offset - v.Offset - v.Bits}
		}
		if fields[i].Variable {
			last = i
		}
	}
	return out
}

// afterOf is field i's varRef (none past the fields afterVariables was given).
func (sc *scratch) afterOf(i int) varRef {
	if i < len(sc.after) {
		return sc.after[i]
	}
	return varRef{}
}

// afterVariable says where bit lies after the variable fields before it: inside one that
// starts before it (in), or rel bits after the end of the last that ends at or before it (ok).
func afterVariable(fields []Field, bit int) (rel int, in, ok bool) {
	for i := range fields {
		f := &fields[i]
		if !f.Variable || f.Offset >= bit {
			continue
		}
		if end := f.Offset + f.Bits; end > bit {
			return 0, true, false
		} else {
			rel, ok = bit-end, true
		}
	}
	return rel, false, ok
}

// figureNotes are the lines of a figure's notes right of its grid and under it (TextOptions
// RightNotes and Below), trimmed, with neither blank lines nor rulers.
func figureNotes(t TextOptions) []string {
	if t.RightNotes == "" && t.Below == "" {
		return nil
	}
	var out []string
	for _, l := range strings.Split(t.RightNotes+"\n"+t.Below, "\n") {
		if s := strings.TrimSpace(l); s != "" && strings.Trim(s, " 0123456789") != "" {
			out = append(out, s)
		}
	}
	return out
}
