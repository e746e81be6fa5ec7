package bytegrid

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/internal/mono"
	"github.com/kafkagrid/kafkagrid/style"
)

// This file holds what a protocol figure needs beyond the classic grid: rulers as figures draw
// them, stacked and vertical labels, captions between headers, and the marks of variable and
// optional fields (see Field and Options).

// checkFigure reports a field whose figure properties cannot be laid out with rows of rb bits,
// and text options out of range.
func checkFigure(fields []Field, opts Options, rb int) error {
	switch opts.Ruler {
	case RulerTens, RulerTensAll, RulerUnits, RulerNumbers, RulerBytes, RulerNone:
	default:
		return fmt.Errorf("bytegrid: ruler %q: want tens-all, units, numbers, bytes or none (or empty for tens)", opts.Ruler)
	}
	if err := checkTextTable(opts.Text.Table, len(fields)); err != nil {
		return err
	}
	for _, check := range []func(TextOptions, int) error{checkTextRows, checkTextRules, checkTextNotes} {
		if err := check(opts.Text, rb); err != nil {
			return err
		}
	}
	for i, f := range fields {
		if err := checkFigureField(i, f, rb); err != nil {
			return err
		}
	}
	return nil
}

// checkTextRows checks the text options of the grid's rows: margin, lines, alignment,
// marks, widths, open ends, ruler.
func checkTextRows(t TextOptions, rb int) error {
	switch {
	case t.Margin < 0 || t.Margin > 80:
		return fmt.Errorf("bytegrid: text margin %d: want 0 to 80", t.Margin)
	case t.RowLines < 0 || t.RowLines > 16:
		return fmt.Errorf("bytegrid: text row lines %d: want 0 to 16", t.RowLines)
	case t.Align != "" && t.Align != "middle" && t.Align != "top" && t.Align != "bottom":
		return fmt.Errorf("bytegrid: text align %q: want middle, top or bottom", t.Align)
	case t.Ticks != "" && t.Ticks != "bits" && t.Ticks != "fields":
		return fmt.Errorf("bytegrid: text ticks %q: want bits or fields", t.Ticks)
	case t.BitChars < 0 || t.BitChars == 1 || t.BitChars > 8:
		return fmt.Errorf("bytegrid: text bit chars %d: want 2 to 8", t.BitChars)
	case t.Open != "" && t.Open != "colons" && t.Open != "dots" && t.Open != "bottom" && t.Open != "edge" && t.Open != "rules" && t.Open != "open":
		return fmt.Errorf("bytegrid: text open %q: want colons, dots, bottom, edge, rules or open", t.Open)
	case t.RulerBits < 0 || t.RulerBits > rb:
		return fmt.Errorf("bytegrid: text ruler bits %d: want 0 to %d", t.RulerBits, rb)
	case len(t.Cross) > 2 || strings.Trim(t.Cross, "+|") != "":
		return fmt.Errorf("bytegrid: text cross %q: want + or |, or two of them (the second for the right edge)", t.Cross)
	}
	return nil
}

// checkTextRules checks the text options of the rules and their marks.
func checkTextRules(t TextOptions, _ int) error {
	switch {
	case t.OpenRule < -1 || t.OpenRule > 9*MaxRowBits:
		return fmt.Errorf("bytegrid: text open rule %d: want -1 to %d", t.OpenRule, 9*MaxRowBits)
	case len(t.Dots) > 64 || strings.Trim(t.Dots, ". ") != "":
		return fmt.Errorf("bytegrid: text dots %q: want spaces and dots, at most 64", t.Dots)
	case len(t.RuleTicks) > MaxRowBits*64 || strings.Trim(t.RuleTicks, "byf") != "":
		return fmt.Errorf("bytegrid: text rule ticks %q: want 'b', 'y' or 'f' for each rule", t.RuleTicks)
	case len(t.RunTail) > 9*MaxRowBits || strings.Trim(t.RunTail, "-=. ") != "":
		return fmt.Errorf("bytegrid: text run tail %q: want at most %d of '-', '=', '.' and spaces", t.RunTail, 9*MaxRowBits)
	case t.ByteChars != 0 && (t.ByteChars < 3 || t.ByteChars > 16):
		return fmt.Errorf("bytegrid: text byte chars %d: want 3 to 16", t.ByteChars)
	case len(t.ListMark) > 16 || strings.Trim(t.ListMark, ".") != "":
		return fmt.Errorf("bytegrid: text list mark %q: want up to 16 dots", t.ListMark)
	case len(t.RuleMarks) > 1<<16:
		return fmt.Errorf("bytegrid: text rule marks of %d bytes: want at most %d", len(t.RuleMarks), 1<<16)
	}
	if _, err := ParseRuleMarks(t.RuleMarks); err != nil {
		return fmt.Errorf("bytegrid: text %w", err)
	}
	return nil
}

// checkTextNotes checks the notes around the grid, the ruler's shift, the elision and edges.
func checkTextNotes(t TextOptions, _ int) error {
	switch {
	case !textOK(t.RightNotes) || !textOK(t.Above) || !textOK(t.UnderRuler) || !textOK(t.Below):
		return fmt.Errorf("bytegrid: text right notes, above and below: want at most %d lines of printable text, each of at most %d columns", maxNoteLines, 9*MaxRowBits)
	case !leftNotesOK(t.LeftNotes, t.Margin):
		return fmt.Errorf("bytegrid: text left notes: want at most %d lines of printable text, each shorter than the margin (%d)", maxNoteLines, t.Margin)
	case t.RulerShift < -8 || t.RulerShift > 8:
		return fmt.Errorf("bytegrid: text ruler shift %d: want -8 to 8", t.RulerShift)
	case t.Elide != "" && !ElisionMark(t.Elide) || t.Elide == "" && t.ElideAt != 0:
		return fmt.Errorf("bytegrid: text elide %q at %d: want \"//\", \"/ /\" or \"~~\" (and a column only with one)", t.Elide, t.ElideAt)
	case t.ElideAt < 0 || t.ElideAt > 9*MaxRowBits:
		return fmt.Errorf("bytegrid: text elide at %d: want 0 to %d", t.ElideAt, 9*MaxRowBits)
	case t.Inside != "" && t.Inside != "dashed":
		return fmt.Errorf("bytegrid: text inside %q: want \"dashed\" or none", t.Inside)
	case t.Edge != "" && (len(t.Edge) != 3 || strings.Trim(t.Edge, "|~/.:\\") != ""):
		return fmt.Errorf("bytegrid: text edge %q: want three of '|', '~', '/', '.', '\\' and ':'", t.Edge)
	}
	return nil
}

// checkFigureField checks the figure properties of field i for rows of rb bits.
func checkFigureField(i int, f Field, rb int) error {
	if len(f.Pieces) > maxNoteLines || slices.ContainsFunc(f.Pieces, func(s string) bool { return !textOK(s) }) ||
		len(f.Crossings) > maxNoteLines || slices.ContainsFunc(f.Crossings, func(s string) bool { return !textOK(s) || strings.Contains(s, "\n") }) {
		return &FieldError{Index: i, Name: f.Name, Err: fmt.Errorf("%d pieces, %d crossings: want at most %d, each of printable text (a crossing one line)", len(f.Pieces), len(f.Crossings), maxNoteLines)}
	}
	if len(f.Marks) > 64 || strings.Trim(f.Marks, "|~/.:\\ ") != "" {
		return &FieldError{Index: i, Name: f.Name, Err: fmt.Errorf("marks %q: want at most 64 of '|', '~', '/', '.', '\\', ':' and ' '", f.Marks)}
	}
	if f.Lines < 0 || f.Lines > 16 {
		return &FieldError{Index: i, Name: f.Name, Err: fmt.Errorf("lines %d: want 0 to 16", f.Lines)}
	}
	if f.LabelLine < 0 || f.LabelLine > 1<<16 || f.LabelCol < 0 || f.LabelCol > 9*MaxRowBits {
		return &FieldError{Index: i, Name: f.Name, Err: fmt.Errorf("label line %d, column %d: want 0 or more, within the grid", f.LabelLine, f.LabelCol)}
	}
	if len(f.LabelCols) > maxNoteLines {
		return &FieldError{Index: i, Name: f.Name, Err: fmt.Errorf("%d label columns: want at most %d", len(f.LabelCols), maxNoteLines)}
	}
	for _, c := range f.LabelCols {
		if c < 0 || c > 9*MaxRowBits {
			return &FieldError{Index: i, Name: f.Name, Err: fmt.Errorf("label column %d: want 0 or more, within the grid", c)}
		}
	}
	if f.Caption != "" && f.Offset%rb != 0 && !f.RowBreak {
		return &FieldError{Index: i, Name: f.Name, Err: fmt.Errorf("a caption needs the field to start a row (bit %d is not a multiple of %d, and no row break)", f.Offset, rb)}
	}
	return nil
}

// ElisionMarks are the marks a rule may carry for an elision that stands for no bits
// (TextOptions.Elide).
var elisionMarks = []string{"//", "/ /", "~~"}

// ElisionMark reports whether s is one of the elision marks a rule may carry ("//", "/ /",
// "~~").
func ElisionMark(s string) bool {
	for _, m := range elisionMarks {
		if s == m {
			return true
		}
	}
	return false
}

// figure reports whether the diagram uses any property of a protocol figure, and so is written
// as text in the figure manner (see WriteText).
func (d *Diagram) figure() bool {
	if d.RulerStyle != RulerTens || d.LSB0 || d.Text != (TextOptions{}) {
		return true
	}
	switch d.RowBits {
	case 8, 16, 32, 64:
	default:
		return true
	}
	for i := range d.Fields {
		b := &d.Fields[i]
		if b.Variable || b.Optional || b.Label != LabelAuto || b.DoubleRule || b.Caption != "" || b.Lines > 1 || b.LabelLine > 0 || b.LabelCol > 0 || len(b.LabelCols) > 0 || b.Joined || b.Packed || b.Marks != "" || len(b.Pieces) > 0 || len(b.Crossings) > 0 {
			return true
		}
	}
	return false
}

// labelLines returns the lines of a name in label mode m: a word a line when stacked, a letter
// a line when vertical, else the name (nil for an empty name).
func labelLines(name string, m LabelMode) []string {
	if name == "" {
		return nil
	}
	switch m {
	case LabelStacked:
		if strings.Contains(name, "\n") {
			var out []string
			for _, l := range strings.Split(name, "\n") {
				out = append(out, strings.TrimSpace(mono.Clean(l)))
			}
			return out
		}
		return strings.Fields(mono.Clean(name))
	case LabelVertical:
		var out []string
		for _, r := range mono.Clean(name) {
			if r != ' ' {
				out = append(out, string(r))
			}
		}
		return out
	}
	return []string{name}
}

// rowNeeds returns, by physical row, the height a row must have for the stacked and vertical
// labels of the fields within it (h being the usual height), and the captions of rows.
func rowNeeds(fields []Field, rb int, h canvas.Pt) (map[int]canvas.Pt, map[int]string) {
	var need map[int]canvas.Pt
	var captions map[int]string
	for _, f := range fields {
		if f.Caption != "" {
			if captions == nil {
				captions = map[int]string{}
			}
			captions[f.Offset/rb] = f.Caption
		}
		if f.Label != LabelStacked && f.Label != LabelVertical {
			continue
		}
		first, last := f.Offset/rb, (f.Offset+f.Bits-1)/rb
		if first != last {
			continue
		}
		n := len(labelLines(f.Name, f.Label))
		if f.Value != "" {
			n++
		}
		if f.Condition != "" {
			n++
		}
		lf := canvas.Pt(lineFactor)
		if n > 2 {
			lf = tightLineFactor
		}
		hh := (h - rowH) + canvas.Pt(n)*nameSize*lf + 8
		if hh > h {
			if need == nil {
				need = map[int]canvas.Pt{}
			}
			need[first] = max(need[first], canvas.Round(hh))
		}
	}
	return need, captions
}

// fitMode appends the runs of a stacked or vertical label (b.Name in mode m, then the value
// text), shrunk from the name's size to its floor; it reports false when it does not fit.
func fitMode(dst []Run, name, value string, m LabelMode, cx, w, top, bottom canvas.Pt, nameFill, valueFill style.Role, row int) ([]Run, bool) {
	words := labelLines(name, m)
	if len(words) == 0 {
		return dst, false
	}
	buf := make([]label, 0, len(words)+1)
	for size := nameSize; size >= nameFloor; size -= 0.5 {
		lines := buf[:0]
		for _, w := range words {
			lines = append(lines, label{w, size, nameFill, "name", -1})
		}
		if value != "" {
			lines = append(lines, label{value, max(valueFloor, size-1), valueFill, "value", -1})
		}
		if out, ok := place(dst, lines, cx, w, top, bottom, row); ok {
			return out, true
		}
	}
	return dst, false
}

// figureDesc returns the tooltip description of f: its own, then what its figure properties
// say (its length range and length field, its condition).
func figureDesc(f Field) string {
	var parts []string
	if f.Desc != "" {
		parts = append(parts, f.Desc)
	}
	if f.Variable {
		s := "Variable length"
		switch {
		case f.MaxBits > 0:
			s += ": " + strconv.Itoa(f.MinBits) + " to " + strconv.Itoa(f.MaxBits) + " bits"
		case f.MinBits > 0:
			s += ": at least " + strconv.Itoa(f.MinBits) + " bits"
		}
		if f.LengthFrom != "" {
			s += ", given by " + f.LengthFrom
		}
		parts = append(parts, s+"; drawn "+strconv.Itoa(f.Bits)+" bits long.")
	}
	if f.Optional {
		if f.Condition != "" {
			parts = append(parts, "Present "+f.Condition+".")
		} else {
			parts = append(parts, "Optional.")
		}
	}
	return strings.Join(parts, " ")
}

// makeStyledRuler returns the ruler's digits and ticks in style rs (see Ruler), numbered from
// the right when lsb0.
func makeStyledRuler(rb int, bitW, gridX canvas.Pt, rs Ruler, lsb0 bool) ([]Run, []Tick) {
	if rs == RulerNone {
		return nil, nil
	}
	num := func(b int) int {
		if lsb0 {
			return rb - 1 - b
		}
		return b
	}
	runs := make([]Run, 0, 2*rb)
	ticks := make([]Tick, 0, rb)
	tensY := margin + rulerSize*mono.Ascent + 1
	unitsY := tensY + rulerSize*lineFactor + 1
	for b := 0; b < rb; b++ {
		cx := gridX + (canvas.Pt(b)+0.5)*bitW
		n := num(b)
		switch rs {
		case RulerBytes:
			if b%8 == 0 || b%8 == 7 || b == rb-1 {
				x, a := gridX+canvas.Pt(b)*bitW+2, canvas.Start
				if b%8 == 7 || b == rb-1 {
					x, a = gridX+canvas.Pt(b+1)*bitW-2, canvas.End
				}
				runs = append(runs, newRun(x, unitsY, strconv.Itoa(n), rulerSize, a, style.Muted, "ruler"))
			}
			continue
		case RulerTens:
			if n%10 == 0 {
				runs = append(runs, newRun(cx, tensY, strconv.Itoa(n/10), rulerSize, canvas.Middle, style.Muted, "ruler"))
			}
		case RulerTensAll:
			if n >= 10 {
				runs = append(runs, newRun(cx, tensY, strconv.Itoa(n/10), rulerSize, canvas.Middle, style.Muted, "ruler"))
			}
		}
		label := strconv.Itoa(n % 10)
		if rs == RulerNumbers {
			label = strconv.Itoa(n)
		}
		if bitW >= 12 || b%2 == 0 {
			runs = append(runs, newRun(cx, unitsY, label, rulerSize, canvas.Middle, style.Muted, "ruler"))
		}
	}
	for b := 1; b < rb; b++ {
		l := canvas.Pt(2)
		if b%8 == 0 {
			l = 4
		} else if rs == RulerBytes {
			continue
		}
		ticks = append(ticks, Tick{X: gridX + canvas.Pt(b)*bitW + 0.5, Len: l})
	}
	return runs, ticks
}

// paintFigureMarks draws the marks of b's figure properties in rows [from, to): a double rule
// along its top, and, for a variable field, a slanted break at its open end (bytefield-svg's
// mark: the border cut by two parallel slants, paper between them).
func (d *Diagram) paintFigureMarks(c canvas.Canvas, b *Box, from, to int, dy canvas.Pt) {
	if b.DoubleRule {
		if s := b.Segs[0]; s.Row >= from && s.Row < to {
			c.Line(s.X, s.Y+dy+2.5, s.X+s.W, s.Y+dy+2.5, borderStyle)
		}
	}
	if !b.Variable {
		return
	}
	s := b.Segs[len(b.Segs)-1]
	if s.Row < from || s.Row >= to || d.Rows[s.Row].Elided > 0 || s.W < breakMin {
		return
	}
	x, top, bottom := s.X+s.W, s.Y+dy, s.Y+s.H+dy
	const gap, slant canvas.Pt = 5, 7
	x0 := x - gap - slant - 1
	// Paper over the end, inside the box, and over its right edge (a line, so that the shape
	// stays within the box; the top and bottom rules, which a neighbour may share, stay).
	c.Rect(x0, top+1, x-x0-0.5, s.H-2, canvas.Style{Fill: style.Paper})
	c.Line(x, top+1, x, bottom-1, canvas.Style{Stroke: style.Paper, Width: 1.5})
	c.Line(x0, bottom, x0+slant, top, borderStyle)
	c.Line(x0+gap, bottom, x0+gap+slant, top, borderStyle)
}

// layoutBreaks lays out fields some of which start a new row (Field.RowBreak): the fields are
// laid out at display offsets, each break moving the rest to the next row's start, and the
// boxes and row offsets then given back the fields' own offsets.
func layoutBreaks(fields []Field, opts Options, rb int) (*Diagram, error) {
	disp := make([]Field, len(fields))
	shift := 0
	for i, f := range fields {
		if f.RowBreak {
			if r := (f.Offset + shift) % rb; r != 0 {
				shift += rb - r
			}
		}
		f.RowBreak = false
		if len(opts.Data) > 0 && len(f.Bytes) == 0 && !byteAligned(f) {
			// The bytes a field not on byte boundaries touches, which the hex cells show.
			if first, last := f.Offset/8, (f.Offset+f.Bits-1)/8; last < len(opts.Data) {
				f.Bytes = opts.Data[first : last+1]
			}
		}
		if f.Offset+shift > maxBits-f.Bits {
			return nil, &FieldError{Index: i, Name: f.Name, Err: fmt.Errorf("its row break moves it past bit %d", maxBits)}
		}
		f.Offset += shift
		disp[i] = f
	}
	o := opts
	o.Data = nil
	d, err := Layout(disp, o)
	if err != nil {
		return nil, err
	}
	var sc scratch
	after := afterVariables(fields)
	for i := range d.Fields {
		b := &d.Fields[i]
		b.Offset = fields[i].Offset
		f := fields[i]
		if f.Variable || f.Optional {
			f.Desc = figureDesc(f)
		}
		b.Title = sc.tooltip(f, after[i])
		b.After, b.AfterBits = after[i].name, after[i].rel
	}
	// Each row's offset: the own offset of its first field's bit there.
	for ri := range d.Rows {
		row := &d.Rows[ri]
		if row.Elided > 0 || row.Offset.S == "" {
			continue
		}
		for i, b := range d.Fields {
			k := slices.IndexFunc(b.Segs, func(s Seg) bool { return s.Row == ri })
			if k < 0 {
				continue
			}
			s := b.Segs[k]
			wire := fields[i].Offset + (row.Bit + s.From - disp[i].Offset) - s.From
			label := sc.offsetLabel(max(0, wire)/8, opts.DecimalOffsets)
			row.Offset = newRun(row.Offset.X, row.Offset.Y, label, offsetSize, canvas.End, style.Muted, "offset")
			break
		}
	}
	return d, nil
}

// maxNoteLines bounds the lines of Text.LeftNotes.
const maxNoteLines = 4096

// textOK reports whether s, lines separated by "\n", is at most maxNoteLines lines of
// printable text, each at most 9*MaxRowBits runes.
func textOK(s string) bool {
	if s == "" {
		return true
	}
	ls := strings.Split(s, "\n")
	if len(ls) > maxNoteLines {
		return false
	}
	for _, l := range ls {
		n := 0
		for _, r := range l {
			if r < ' ' || r == 0x7f || r >= 0x80 && r < 0xa0 {
				return false
			}
			n++
		}
		if n > 9*MaxRowBits {
			return false
		}
	}
	return true
}

// leftNotesOK reports whether notes, lines separated by "\n", fit in a left margin of m
// columns: each line shorter than m, of printable text, no more than maxNoteLines of them.
func leftNotesOK(notes string, m int) bool {
	if notes == "" {
		return true
	}
	ls := strings.Split(notes, "\n")
	if len(ls) > maxNoteLines {
		return false
	}
	for _, l := range ls {
		if len(l) >= max(m, 1) {
			return false
		}
		for _, r := range l {
			if r < ' ' || r > '~' {
				return false
			}
		}
	}
	return true
}

// A RuleMark is one item of TextOptions.RuleMarks: Mark drawn on the Rule-th rule line at
// the boundary before bit Bit.
type RuleMark struct {
	Rule, Bit int
	Mark      byte
}

// ParseRuleMarks reads TextOptions.RuleMarks.
func ParseRuleMarks(s string) ([]RuleMark, error) {
	var out []RuleMark
	for _, it := range strings.Fields(s) {
		parts := strings.Split(it, ":")
		if len(parts) != 3 || len(parts[2]) != 1 || !strings.Contains("+-=|/_", parts[2]) {
			return nil, fmt.Errorf("rule mark %q: want RULE:BIT:MARK, MARK one of + - = | / _", it)
		}
		r, err1 := strconv.Atoi(parts[0])
		b, err2 := strconv.Atoi(parts[1])
		if err1 != nil || err2 != nil || r < 0 || r > 1<<16 || b < 0 || b > MaxRowBits {
			return nil, fmt.Errorf("rule mark %q: want a rule from 0 and a bit within the row", it)
		}
		m := parts[2][0]
		if m == '_' {
			m = ' '
		}
		out = append(out, RuleMark{Rule: r, Bit: b, Mark: m})
	}
	return out, nil
}
