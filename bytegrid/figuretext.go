package bytegrid

import (
	"bufio"
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/kafkagrid/kafkagrid/internal/mono"
)

// figureText writes the text form of a diagram that uses the properties of a protocol figure
// (see WriteText): the rules and edges as RFC figures draw them.
type figureText struct {
	d     *Diagram
	rb    int
	cpb   int  // characters a bit (bits mode)
	bytes bool // RulerBytes: nine characters a byte, only byte boundaries marked
	rules int  // the rule lines written so far (Text.RuleMarks counts them)
	width int  // columns of a row, its last edge included
	owner [][]int
	lines []int // lines of each display row
	// The label of each field: its lines, and where the first goes (display row, and line
	// within the row, or, for a block label, the line within the field's whole block).
	labels []figLabel
	notes  []string
	pad    string
}

type figLabel struct {
	lines []string
	row   int // display row of the label; -1 for a block label
	line  int // first line: within the row, or within the block
	// cont holds, by display row, the label of each piece that reads as a cell of its own
	// (a split field's other piece: "Masking-key (continued)", as RFC 6455 writes it).
	cont map[int]string
}

// col returns the column of the boundary before bit b of a row.
func (t *figureText) col(b int) int {
	c := t.cpb * b
	if t.bytes {
		bc := 9
		if t.d.Text.ByteChars > 0 {
			bc = t.d.Text.ByteChars
		}
		c = bc * (b / 8)
		if b%8 != 0 {
			c += 1 + (b%8)*(bc-2)/8 // (inside the byte's box: in boxes of nine, a column a bit)
		}
	}
	if e := t.d.Text.Elide; e != "" && c >= t.d.Text.ElideAt {
		c += len(e) // the columns of the elision mark stand for no bits
	}
	return c
}

func (d *Diagram) writeFigure(bw *bufio.Writer) error {
	if d.Text.LeftNotes == "" && d.Text.RightNotes == "" && d.Text.Above == "" && d.Text.UnderRuler == "" && d.Text.Below == "" {
		return d.writeFigureLines(bw)
	}
	// The notes in the margins go on the lines from the first rule on.
	var buf bytes.Buffer
	inner := bufio.NewWriter(&buf)
	if err := d.writeFigureLines(inner); err != nil {
		return err
	}
	if err := inner.Flush(); err != nil {
		return fmt.Errorf("bytegrid: write text: %w", err)
	}
	out := strings.Split(buf.String(), "\n")
	first := -1
	for i, l := range out {
		if strings.HasPrefix(strings.TrimLeft(l, " "), "+") {
			first = i
			break
		}
	}
	d.leftNotes(out, first)
	d.rightNotes(out, first)
	if d.Text.UnderRuler != "" && first >= 0 {
		out = slices.Insert(out, first, strings.Split(d.Text.UnderRuler, "\n")...)
	}
	if d.Text.Above != "" {
		out = append(strings.Split(d.Text.Above, "\n"), out...)
	}
	if d.Text.Below != "" {
		for len(out) > 0 && out[len(out)-1] == "" {
			out = out[:len(out)-1]
		}
		out = append(append(out, strings.Split(d.Text.Below, "\n")...), "")
	}
	bw.WriteString(strings.Join(out, "\n"))
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("bytegrid: write text: %w", err)
	}
	return nil
}

// leftNotes writes the notes in the left margin (Text.LeftNotes) on the lines of out from
// the first rule's, first, on.
func (d *Diagram) leftNotes(out []string, first int) {
	for k, n := range strings.Split(d.Text.LeftNotes, "\n") {
		i := first + k
		if n == "" || first < 0 || i >= len(out) {
			continue
		}
		l := out[i]
		if len(l) < len(n) || strings.TrimLeft(l[:len(n)], " ") != "" {
			continue // (no room: the margin is narrower than the note)
		}
		out[i] = n + l[len(n):]
	}
}

// rightNotes writes the notes in the right margin (Text.RightNotes), from the column after
// the grid's right edge, on the lines of out from the first rule's, first, on.
func (d *Diagram) rightNotes(out []string, first int) {
	if d.Text.RightNotes == "" || first < 0 {
		return
	}
	right := d.Text.Margin + 1
	for _, l := range out[first:] {
		if t := strings.TrimLeft(l, " "); strings.HasPrefix(t, "+") {
			right = max(right, len(strings.TrimRight(l, " -.")))
		}
	}
	for k, n := range strings.Split(d.Text.RightNotes, "\n") {
		i := first + k
		if n == "" || i >= len(out) {
			continue
		}
		l := out[i]
		if pad := right - utf8.RuneCountInString(l); pad > 0 {
			l += strings.Repeat(" ", pad)
		}
		out[i] = l + n
	}
}

// writeFigureLines writes the figure, its notes in the left margin aside.
func (d *Diagram) writeFigureLines(bw *bufio.Writer) error {
	if d.Text.Table != "" {
		return d.writeTable(bw) // a table of counts, as printed (tabletext.go)
	}
	t := &figureText{d: d, rb: d.RowBits, cpb: 2, bytes: d.RulerStyle == RulerBytes || d.Text.Bytes}
	if t.rb <= 16 {
		t.cpb = 3
	}
	if d.Text.BitChars > 0 {
		t.cpb = d.Text.BitChars
	}
	t.width = t.col(t.rb)
	t.pad = strings.Repeat(" ", d.Text.Margin)
	t.owner = make([][]int, len(d.Rows))
	for i := range t.owner {
		t.owner[i] = make([]int, t.rb)
		for b := range t.owner[i] {
			t.owner[i][b] = -1
		}
	}
	for fi := range d.Fields {
		for _, s := range d.Fields[fi].Segs {
			for b := s.From; b < s.To; b++ {
				t.owner[s.Row][b] = fi
			}
		}
	}
	t.layoutLines()

	// A caption before the first row goes above the ruler.
	if len(d.Rows) > 0 && d.Rows[0].Caption.S != "" {
		bw.WriteString(t.pad + d.Rows[0].Caption.S + "\n")
	}
	t.writeRuler(bw)
	// blockLine[fi] counts the lines of field fi's block written so far.
	blockLine := make([]int, len(d.Fields))
	for i := range d.Rows {
		if i > 0 && d.Rows[i].Caption.S != "" {
			t.writeSep(bw, i, true, blockLine)
			bw.WriteString("\n" + t.pad + d.Rows[i].Caption.S + "\n")
			t.writeSep(bw, i, false, blockLine)
		} else {
			t.writeSep(bw, i, false, blockLine)
		}
		for l := 0; l < t.lines[i]; l++ {
			t.writeContent(bw, i, l, blockLine)
		}
	}
	if len(d.Rows) > 0 {
		t.writeSep(bw, len(d.Rows), false, blockLine)
	}
	// Notes, then values.
	if len(t.notes) > 0 {
		bw.WriteString("\n")
		for k, n := range t.notes {
			bw.WriteString(t.pad + "  " + strconv.Itoa(k+1) + "  " + n + "\n")
		}
	}
	t.writeValues(bw)
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("bytegrid: write text: %w", err)
	}
	return nil
}

func (t *figureText) writeValues(bw *bufio.Writer) {
	var vals []int
	width := 0
	for fi, b := range t.d.Fields {
		if b.Value != "" {
			width = max(width, mono.Runes(b.Name))
			vals = append(vals, fi)
		}
	}
	if len(vals) == 0 {
		return
	}
	bw.WriteString("\n")
	for _, fi := range vals {
		b := t.d.Fields[fi]
		bw.WriteString(t.pad + "  " + b.Name + strings.Repeat(" ", width-mono.Runes(b.Name)) + " = " + b.Value + "\n")
	}
}

// colonStyle reports whether field fi is a variable field drawn with ':' edges.
func (t *figureText) colonStyle(fi int) bool {
	return fi >= 0 && t.d.Fields[fi].Variable && t.d.Fields[fi].Marks == "" && !t.piecesOK(fi) && t.d.Text.Open != "dots" && t.d.Text.Open != "bottom" && t.d.Text.Open != "edge" && t.d.Text.Open != "rules" && t.d.Text.Open != "open" && t.d.Text.Edge == ""
}

// openStyle reports whether field fi is a variable field drawn with no right edge, its label
// and the rules as the rest of the grid has them (RFC 2661's "Offset pad... (opt)").
func (t *figureText) openStyle(fi int) bool {
	return fi >= 0 && t.d.Fields[fi].Variable && t.d.Text.Open == "open"
}

// runStyle reports whether field fi is a variable field drawn with no right edge and its
// rules running on past the row with "-..." (RFC 4271).
func (t *figureText) runStyle(fi int) bool {
	return fi >= 0 && t.d.Fields[fi].Variable && t.d.Text.Open == "rules"
}

// cross is the mark of a side edge at boundary b crossing a rule its field continues across
// (Text.Cross: one mark for every edge, or two, the second for the grid's right edge).
func (t *figureText) cross(b int) byte {
	c := t.d.Text.Cross
	switch {
	case c == "":
		return '+'
	case b == t.rb && len(c) == 2:
		return c[1]
	}
	return c[0]
}

// dots is what follows the label of a field open at its end.
func (t *figureText) dots() string {
	if t.d.Text.Dots != "" {
		return t.d.Text.Dots
	}
	return " ..."
}

// place returns line k of field fi's label, s, in the n columns of its box: where the
// field's LabelCols (for line k) or LabelCol puts it, if it fits there (or the box is open at
// its end, its "..." running on past it, RFC 2865's "|  Value ..."), else centred.
func (t *figureText) place(fi, k int, s string, n int) string {
	c := t.d.Fields[fi].LabelCol
	if cs := t.d.Fields[fi].LabelCols; len(cs) > 0 {
		c = 0
		if k >= 0 && k < len(cs) {
			c = cs[k]
		}
	}
	if c > 0 && c-1+mono.Runes(s) <= n {
		return strings.Repeat(" ", c-1) + s + strings.Repeat(" ", n-(c-1)-mono.Runes(s))
	} else if c > 0 && t.dotStyle(fi) && c-1 < n {
		return strings.Repeat(" ", c-1) + s
	}
	return centre(s, n)
}

// edgeMark returns the mark of the side edges of field fi on line l of display row i, where
// it covers bits [b, e), when Text.Edge draws them (a variable field filling the row), else 0.
func (t *figureText) edgeMark(fi, i, b, e, l int) byte {
	ed := t.d.Text.Edge
	if len(ed) != 3 || fi < 0 || !t.d.Fields[fi].Variable || b != 0 || e != t.rb {
		return 0
	}
	switch n := t.lines[i]; {
	case n == 1:
		return ed[1]
	case l == 0:
		return ed[0]
	case l == n-1:
		return ed[2]
	}
	return ed[1]
}

// runOn reports whether field fi ends display row i at bit e, the row's end, and runs on
// into the field starting the next row (Field.RunOn).
func (t *figureText) runOn(fi, i, e int) bool {
	if fi < 0 || e != t.rb || !t.d.Fields[fi].RunOn || fi+1 >= len(t.d.Fields) {
		return false
	}
	segs := t.d.Fields[fi].Segs
	return len(segs) > 0 && segs[len(segs)-1].Row == i && t.at(i+1, 0) == fi+1
}

// edgeStyle reports whether field fi is a variable field whose open end is "..." in place of
// its right edge (RFC 7540's Frame Payload).
func (t *figureText) edgeStyle(fi int) bool {
	return fi >= 0 && t.d.Fields[fi].Variable && t.d.Text.Open == "edge"
}

// dotStyle reports whether field fi is a variable field drawn open at its end with "...".
func (t *figureText) dotStyle(fi int) bool {
	return fi >= 0 && t.d.Fields[fi].Variable && t.d.Text.Open == "dots"
}

// block reports whether field fi covers whole rows only, and more than one.
func (t *figureText) block(fi int) bool {
	segs := t.d.Fields[fi].Segs
	if len(segs) < 2 {
		return false
	}
	for _, s := range segs {
		if s.From != 0 || s.To != t.rb || t.d.Rows[s.Row].Elided > 0 {
			return false
		}
	}
	return true
}

// skipSep reports whether the rule above display row i is left out: both rows are wholly one
// variable field drawn with ':' edges, which reads as one block.
func (t *figureText) skipSep(i int) bool {
	if i <= 0 || i >= len(t.owner) {
		return false
	}
	fi := t.owner[i][0]
	if !t.colonStyle(fi) && !(fi >= 0 && t.d.Fields[fi].Packed) {
		return false
	}
	for b := 0; b < t.rb; b++ {
		if t.owner[i-1][b] != fi || t.owner[i][b] != fi {
			return false
		}
	}
	return true
}

// text returns the label text of field fi in n columns (its name, with ", condition" for an
// optional field and " ..." for one open at its end).
func (t *figureText) text(fi int) string {
	b := &t.d.Fields[fi]
	s := b.Name
	if b.Condition != "" {
		s += ", " + b.Condition
	}
	if t.dotStyle(fi) {
		s += t.dots()
	}
	return s
}

// layoutLines sets the lines of each row and places each field's label.
func (t *figureText) layoutLines() {
	d := t.d
	t.rowLines()
	t.labels = make([]figLabel, len(d.Fields))
	for fi := range d.Fields {
		t.layoutLabel(fi)
	}
	// Place each label within its row, or its block.
	for fi := range d.Fields {
		l := &t.labels[fi]
		if l.row == -2 {
			continue
		}
		total := t.labelSpan(fi)
		l.line = t.align(total, len(l.lines))
		if at := d.Fields[fi].LabelLine; at > 0 && at-1+len(l.lines) <= total {
			l.line = at - 1
		}
	}
}

// rowLines sets the lines of each row: the text options', one for an elided row, and a
// field's Lines in the rows it fills wholly, or, filling none, the row it starts in.
func (t *figureText) rowLines() {
	d := t.d
	t.lines = make([]int, len(d.Rows))
	for i := range t.lines {
		t.lines[i] = max(1, d.Text.RowLines)
		if d.Rows[i].Elided > 0 {
			t.lines[i] = 1
		}
	}
	for fi := range d.Fields {
		n, segs := d.Fields[fi].Lines, d.Fields[fi].Segs
		if n <= 1 || len(segs) == 0 || t.piecesOK(fi) {
			continue
		}
		full := false
		for _, s := range segs {
			if s.From == 0 && s.To == t.rb && d.Rows[s.Row].Elided == 0 {
				t.lines[s.Row] = max(t.lines[s.Row], n)
				full = true
			}
		}
		if !full && d.Rows[segs[0].Row].Elided == 0 {
			t.lines[segs[0].Row] = max(t.lines[segs[0].Row], n)
		}
	}
}

// labelSpan is the lines field fi's label is placed in: its row's, or its block's with the
// separators between them.
func (t *figureText) labelSpan(fi int) int {
	if l := t.labels[fi]; l.row >= 0 {
		return t.lines[l.row]
	}
	total := 0
	for k, s := range t.d.Fields[fi].Segs {
		total += t.lines[s.Row]
		if k > 0 && !t.skipSep(s.Row) {
			total++
		}
	}
	return total
}

// layoutLabel sets field fi's label: its lines in the segment it is printed in (or a note's
// number when it fits no way), its "(continued)" pieces, and the lines its row needs.
func (t *figureText) layoutLabel(fi int) {
	d := t.d
	b := &d.Fields[fi]
	if t.piecesOK(fi) {
		t.pieceLabels(fi)
		return
	}
	best := b.labelSeg(d.Rows)
	if best < 0 {
		t.labels[fi] = figLabel{row: -2}
		return
	}
	s := b.Segs[best]
	n := t.col(s.To) - t.col(s.From) - 1
	full := t.text(fi)
	lines := t.labelText(fi, full, n, s.Row)
	if b.Repeated && d.Text.ListMark != "" && len(lines) > 0 {
		lines = append(lines, d.Text.ListMark) // a list of items (RFC 3550's "SDES items" over "...")
	}
	past := (lines == nil || !fitsAll(lines, n)) && t.dotStyle(fi) && s.To == t.rb && b.LabelCol > 0 && b.LabelCol-1 < n && b.LabelCol-1+mono.Runes(full) <= n+16
	if past {
		lines = []string{full} // printed on past the open end (RFC 1661's "|    Data ...")
	}
	if !past && (lines == nil || !fitsAll(lines, n)) && full != "" {
		t.notes = append(t.notes, full)
		lines = []string{strconv.Itoa(len(t.notes))}
	}
	t.labels[fi] = figLabel{lines: lines, row: s.Row}
	if b.Split() && b.Name != "" {
		t.contLabels(fi, best)
	}
	if t.colonStyle(fi) && len(b.Segs) == 1 && t.fullRows(fi) {
		t.lines[s.Row] = max(t.lines[s.Row], 3)
	}
	if t.block(fi) {
		t.labels[fi].row = -1
	} else {
		t.lines[s.Row] = max(t.lines[s.Row], len(lines))
	}
}

// labelText is the lines of field fi's label (its text full) in a box n columns wide in row
// row: stacked or vertical as its mode says, else on one line, or a word a line in the lines
// the row has; nil when it fits no way.
func (t *figureText) labelText(fi int, full string, n, row int) []string {
	b := &t.d.Fields[fi]
	switch b.Label {
	case LabelStacked, LabelVertical:
		lines := labelLines(full, b.Label)
		if len(b.Stack) > 0 {
			lines = append([]string(nil), b.Stack...)
			if b.Condition != "" {
				lines = append(lines, b.Condition)
			}
			if t.dotStyle(fi) && len(lines) > 0 {
				lines[len(lines)-1] += t.dots()
			}
		} else if t.dotStyle(fi) && b.Label == LabelStacked {
			if lines = labelLines(b.Name, b.Label); len(lines) > 0 {
				lines[len(lines)-1] += t.dots()
			}
		}
		return lines
	case LabelNote:
		return nil
	}
	if mono.Runes(full) <= n {
		return []string{full}
	}
	if ws := strings.Fields(full); len(ws) > 1 && len(ws) <= t.lines[row] && fitsAll(ws, n) {
		return ws // stacked in the lines the row has
	}
	return nil
}

// contLabels sets the "(continued)" labels of field fi's pieces other than best, the one its
// label is printed in: the longest of "Name (continued)", "(continued)", "(cont.)" that fits.
func (t *figureText) contLabels(fi, best int) {
	b := &t.d.Fields[fi]
	for k, cs := range b.Segs {
		if !b.contPiece(k, best, t.rb, t.d.Rows) {
			continue
		}
		w := t.col(cs.To) - t.col(cs.From) - 1
		for _, c := range []string{b.Name + " (continued)", "(continued)", "(cont.)"} {
			if mono.Runes(c) <= w {
				if t.labels[fi].cont == nil {
					t.labels[fi].cont = map[int]string{}
				}
				t.labels[fi].cont[cs.Row] = c
				break
			}
		}
	}
}

// align returns the first line of a label of n lines in total lines, as Text.Align says.
func (t *figureText) align(total, n int) int {
	switch t.d.Text.Align {
	case "top":
		return 0
	case "bottom":
		return max(0, total-n)
	}
	return max(0, (total-n)/2)
}

func fitsAll(ws []string, n int) bool {
	for _, w := range ws {
		if mono.Runes(w) > n {
			return false
		}
	}
	return true
}

// labelAt returns the label text of field fi on a line: k lines into its block (block labels)
// or line l of display row i.
func (t *figureText) labelAt(fi, i, l, k int) (string, int) {
	lb := &t.labels[fi]
	var at int
	switch {
	case lb.row == -1:
		at = k
	case lb.row == i:
		at = l
	default:
		if c, ok := lb.cont[i]; ok && l == t.align(t.lines[i], 1) {
			return c, -1
		}
		return "", -1
	}
	if at < lb.line || at >= lb.line+len(lb.lines) {
		return "", -1
	}
	return lb.lines[at-lb.line], at - lb.line
}

func (t *figureText) writeRuler(bw *bufio.Writer) {
	d := t.d
	if d.RulerStyle == RulerNone {
		return
	}
	num := func(b int) int {
		if d.LSB0 {
			return t.rb - 1 - b
		}
		return b
	}
	// The lines are drawn with their margin, so that digits shifted left of the grid's
	// edge (RulerShift) keep their place.
	m := len(t.pad)
	tens := []byte(strings.Repeat(" ", m+t.width+16))
	units := []byte(strings.Repeat(" ", m+t.width+16))
	put := func(line []byte, at int, s string) {
		at += m
		if at >= 0 && at+len(s) <= len(line) {
			copy(line[at:], s)
		}
	}
	mid := (t.cpb+1)/2 + d.Text.RulerShift
	nb := t.rb
	if d.Text.RulerBits > 0 {
		nb = min(nb, d.Text.RulerBits)
	}
	for b := 0; b < nb; b++ {
		n := num(b)
		switch d.RulerStyle {
		case RulerBytes:
			if b%8 == 0 {
				put(units, t.col(b)+1+d.Text.RulerShift, strconv.Itoa(n))
			}
			if b%8 == 7 || b == nb-1 {
				s := strconv.Itoa(n)
				put(units, t.col(b+1)-len(s)+d.Text.RulerShift, s)
			}
			continue
		case RulerTens:
			if n%10 == 0 && !(d.Text.TensNoZero && n < 10) {
				put(tens, t.col(b)+mid, strconv.Itoa(n/10%10))
			}
		case RulerTensAll:
			if n >= 10 {
				put(tens, t.col(b)+mid, strconv.Itoa(n/10%10))
			}
		case RulerNumbers:
			s := strconv.Itoa(n)
			put(units, t.col(b)+mid-len(s)+1, s)
			continue
		}
		put(units, t.col(b)+mid, strconv.Itoa(n%10))
	}
	if s := strings.TrimRight(string(tens), " "); s != "" {
		bw.WriteString(s + "\n")
	}
	bw.WriteString(strings.TrimRight(string(units), " ") + "\n")
}

// at returns the field owning bit b of display row i, or -1 (also out of range).
func (t *figureText) at(i, b int) int {
	if i < 0 || i >= len(t.owner) || b < 0 || b >= t.rb {
		return -1
	}
	return t.owner[i][b]
}

// vedge reports whether display row i has an edge before bit b.
func (t *figureText) vedge(i, b int) bool {
	l, r := t.at(i, b-1), t.at(i, b)
	if l == r {
		return false
	}
	// The open end of a field drawn with "..." has no edge.
	if l >= 0 && r < 0 && (t.dotStyle(l) || t.runStyle(l) || t.openStyle(l)) {
		return false
	}
	return true
}

// junction reports whether the rule may have a mark at the boundary before bit b.
func (t *figureText) junctionCol(b int) bool { return !t.bytes || b%8 == 0 || b == t.rb }

// writeSep writes the rule above display row i (below the last row when i == len(Rows)); with
// closing, the rule under row i-1 alone (before a caption). Fields that continue across it
// leave it open, with a '+' at each side edge (RFC 8200); a line with nothing on it is left
// out. The rule is drawn in steps: its fills between fields (sepFills), its marks at bit
// boundaries (sepMarks), the open ends of variable fields (openEnds) and the block labels
// that fall on it (ruleLabels).
func (t *figureText) writeSep(bw *bufio.Writer, i int, closing bool, blockLine []int) {
	if t.skipSep(i) && !closing {
		return
	}
	up := func(b int) int { return t.at(i-1, b) }
	dn := func(b int) int {
		if closing {
			return -1
		}
		return t.at(i, b)
	}
	upper := i - 1
	if !closing && i > 0 && i < len(t.d.Rows) && t.d.Rows[i].Caption.S != "" {
		up = func(int) int { return -1 }
		upper = -1
	}
	line := []byte(strings.Repeat(" ", t.width+1))
	horiz := t.sepFills(up, dn)
	if i == len(t.d.Rows) && t.d.Text.DoubleEnd {
		for b := range horiz {
			if horiz[b] == '-' {
				horiz[b] = '='
			}
		}
	}
	t.sepMarks(line, horiz, upper, i, closing)
	if upper >= 0 {
		line = t.openEnds(line, up, dn)
	}
	t.elide(line)
	if t.runStyle(up(t.rb-1)) || t.runStyle(dn(t.rb-1)) {
		line = append(line[:t.width+1], "-..."...) // RFC 4271: the rule runs on
	}
	if !closing && i > 0 && i < len(t.owner) {
		t.ruleLabels(line, i, up, blockLine)
	}
	if strings.TrimSpace(string(line)) == "" {
		return
	}
	line = t.runTail(line, up, dn)
	t.crossings(line, i)
	t.ruleMarks(line)
	s := strings.TrimRight(string(line), " ")
	bw.WriteString(strings.TrimRight(t.pad+s, " ") + "\n")
}

// runTail draws the rule from the left edge of a variable field ending the row above or
// below it (up, dn) on as Text.RunTail has it (RFC 8200's " - - - -").
func (t *figureText) runTail(line []byte, up, dn func(int) int) []byte {
	if t.d.Text.RunTail == "" || t.rb < 1 {
		return line
	}
	fi := up(t.rb - 1)
	if fi < 0 || !t.d.Fields[fi].Variable {
		fi = dn(t.rb - 1)
	}
	if fi < 0 || !t.d.Fields[fi].Variable {
		return line
	}
	b := t.rb - 1
	for b > 0 && (up(b-1) == fi || dn(b-1) == fi) {
		b--
	}
	c := t.col(b) + 1
	if c > len(line) {
		return line
	}
	return append(line[:c:c], t.d.Text.RunTail...)
}

// ruleMarks draws the marks Text.RuleMarks keeps on the rule line written next (counted in
// t.rules), where its fields would draw others.
func (t *figureText) ruleMarks(line []byte) {
	ms, _ := ParseRuleMarks(t.d.Text.RuleMarks) // (checked by Layout)
	for _, m := range ms {
		if c := t.col(m.Bit); m.Rule == t.rules && m.Bit <= t.rb && c < len(line) {
			line[c] = m.Mark
		}
	}
	t.rules++
}

// elide draws the elision mark (Text.Elide) into a rule that has dashes on both sides of
// it and under it.
func (t *figureText) elide(line []byte) {
	e, at := t.d.Text.Elide, t.d.Text.ElideAt
	if e == "" || at < 1 || at+len(e) >= len(line) {
		return
	}
	side := func(c byte) bool { return c == '-' || c == '+' }
	if !side(line[at-1]) || !side(line[at+len(e)]) || strings.Trim(string(line[at:at+len(e)]), "-") != "" {
		return
	}
	copy(line[at:], e)
}

// sepFills is the fill of each bit of a rule between the fields above (up) and below (dn):
// 0 none (the same field on both sides), '-', '=' (a field with a double rule below) or 'd'
// (dashed, along an optional field).
func (t *figureText) sepFills(up, dn func(int) int) []byte {
	horiz := make([]byte, t.rb)
	for b := 0; b < t.rb; b++ {
		u, v := up(b), dn(b)
		if f, ok := t.insideFill(u, v); ok {
			horiz[b] = f
			continue
		}
		if u == v {
			continue
		}
		switch {
		case v >= 0 && t.d.Fields[v].DoubleRule:
			horiz[b] = '='
		case u >= 0 && t.d.Fields[u].Optional || v >= 0 && t.d.Fields[v].Optional:
			horiz[b] = 'd'
		default:
			horiz[b] = '-'
		}
	}
	return horiz
}

// sepMarks draws a rule's fills and the marks at its bit boundaries into line: '+' where an
// edge meets it from above (display row upper, -1 for none) or below (row i, unless closing)
// or a fill ends; between two fills a '+', or with Ticks "fields" the fill itself, and '-'
// beside a dashed one. Inside a byte of a byte-wide grid only edges get a mark.
func (t *figureText) sepMarks(line, horiz []byte, upper, i int, closing bool) {
	fieldTicks, byteTicks := t.d.Text.Ticks == "fields", false
	if rt := t.d.Text.RuleTicks; i >= 0 && i < len(rt) {
		fieldTicks, byteTicks = rt[i] != 'b', rt[i] == 'y'
	}
	for b := 0; b <= t.rb; b++ {
		c := t.col(b)
		hl := b > 0 && horiz[b-1] != 0
		hr := b < t.rb && horiz[b] != 0
		vu := upper >= 0 && t.vedge(upper, b)
		vd := !closing && t.vedge(i, b)
		if b < t.rb && hr {
			t.fill(line, b, horiz[b])
		}
		if !t.junctionCol(b) {
			if hl && hr {
				line[c] = fillChar(horiz[b])
			}
			if vu || vd {
				line[c] = '+'
			}
			continue
		}
		switch {
		case vu && vd && !hl && !hr && t.cross(b) == '|':
			line[c] = '|' // a side edge crossing a rule its field continues across (RFC 1035)
		case vu || vd:
			line[c] = '+'
		case hl && hr:
			line[c] = junctionMark(horiz, b, byteTicks, fieldTicks)
		case hl || hr:
			line[c] = '+'
		}
	}
}

// fill draws a rule's fill over bit b: its character, or spaces for a dashed rule's ('d').
func (t *figureText) fill(line []byte, b int, fill byte) {
	for k := t.col(b) + 1; k < t.col(b+1); k++ {
		switch fill {
		case 'd':
			line[k] = ' '
		default:
			line[k] = fill
		}
	}
}

// junctionMark is the mark at bit boundary b between two fills: '-' beside a dashed one, '+'
// at a byte (byteTicks) or between fields, the fill itself when marked only at fields.
func junctionMark(horiz []byte, b int, byteTicks, fieldTicks bool) byte {
	switch {
	case horiz[b] == 'd' || horiz[b-1] == 'd':
		return '-'
	case byteTicks && b%8 == 0:
		return '+'
	case fieldTicks:
		return fillChar(horiz[b])
	}
	return '+'
}

// openEnds draws the ends of the variable fields above a rule that are open: one open at
// the bottom (RFC 4443's Message Body) has no rule under it; one drawn with "..." has its
// bottom rule run half its width, then "...", which may lengthen the line (returned).
func (t *figureText) openEnds(line []byte, up, dn func(int) int) []byte {
	for b := 0; b < t.rb; {
		fi := up(b)
		e := b + 1
		for e < t.rb && up(e) == fi {
			e++
		}
		if fi >= 0 && t.d.Fields[fi].Variable && t.d.Text.Open == "bottom" && dn(b) < 0 {
			t.openBottom(line, b, e, fi, up)
		}
		if t.dotStyle(fi) && dn(b) != fi && (e == t.rb || up(e) < 0) {
			line = t.dotsEnd(line, b, e, fi, up)
		}
		b = e
	}
	return line
}

// openBottom blanks the rule under field fi (bits b to e), open at the bottom (RFC 4443's
// Message Body), but for the corners of its neighbours.
func (t *figureText) openBottom(line []byte, b, e, fi int, up func(int) int) {
	for k := t.col(b); k <= t.col(e) && k < len(line); k++ {
		if (k == t.col(b) && b > 0 && up(b-1) >= 0 && up(b-1) != fi) || (k == t.col(e) && e < t.rb && up(e) >= 0) {
			continue // the corner of a neighbour
		}
		line[k] = ' '
	}
}

// dotsEnd draws the rule under field fi (bits b to e), drawn with "...": stopping where the
// figure's does (RFC 792), none (RFC 5389), or half its width then "...", which may lengthen
// the line (returned).
func (t *figureText) dotsEnd(line []byte, b, e, fi int, up func(int) int) []byte {
	if t.d.Text.OpenRule != 0 {
		from := t.col(b) + 1 + t.d.Text.OpenRule // RFC 792: the rule stops
		if t.d.Text.OpenRule < 0 && (b == 0 || up(b-1) < 0 || up(b-1) == fi) {
			from = t.col(b) // RFC 5389: no rule
		}
		for k := from; k <= t.col(e) && k < len(line); k++ {
			line[k] = ' '
		}
		return line
	}
	mid := t.col(b + (e-b)/2)
	for k := t.col(b) + 1; k <= t.col(e) && k < len(line); k++ {
		line[k] = ' '
	}
	for k := t.col(b) + 1; k < mid-1; k++ {
		line[k] = '-'
	}
	s := line[:max(mid-1, t.col(b)+1)]
	return append(append([]byte{}, s...), " ..."...)
}

// ruleLabels writes into line the labels of the blocks that continue across the rule above
// display row i (RFC 8200 names its addresses on an inner rule), counting each block's lines
// in blockLine.
func (t *figureText) ruleLabels(line []byte, i int, up func(int) int, blockLine []int) {
	for b := 0; b < t.rb; {
		fi := t.at(i, b)
		e := b + 1
		for e < t.rb && t.at(i, e) == fi {
			e++
		}
		if fi >= 0 && up(b) == fi {
			if t.labels[fi].row == -1 {
				if s, k := t.labelAt(fi, -1, 0, blockLine[fi]); s != "" {
					copy(line[t.col(b)+1:], t.place(fi, k, s, t.col(e)-t.col(b)-1))
				}
			}
			blockLine[fi]++
		}
		b = e
	}
}

func fillChar(f byte) byte {
	if f == 'd' {
		return '-'
	}
	return f
}

// writeContent writes line l of display row i.
func (t *figureText) writeContent(bw *bufio.Writer, i, l int, blockLine []int) {
	d := t.d
	// (room past the right edge for the label of a box open at its end, "|  Value ...")
	line := []byte(strings.Repeat(" ", t.width+1+16))
	if d.Rows[i].Elided > 0 || d.Rows[i].Gap.S != "" {
		t.elidedLine(line, i)
	} else {
		for b := 0; b < t.rb; {
			e := t.pieceEnd(i, b)
			t.writePiece(line, i, l, b, e, blockLine)
			b = e
		}
	}
	bw.WriteString(strings.TrimRight(t.pad+string(line), " ") + "\n")
	for b := 0; b < t.rb; {
		fi := t.owner[i][b]
		e := t.pieceEnd(i, b)
		if fi >= 0 {
			blockLine[fi]++
		}
		b = e
	}
}

// pieceEnd is the bit where the piece of display row i starting at bit b ends: the next bit
// another field (or none) owns.
func (t *figureText) pieceEnd(i, b int) int {
	fi := t.owner[i][b]
	e := b + 1
	for e < t.rb && t.owner[i][e] == fi {
		e++
	}
	return e
}

// elidedLine draws display row i, elided or a gap, into line: "... N bytes ..." between its
// edges, ':' for the inner rows of a variable field drawn with ':' edges.
func (t *figureText) elidedLine(line []byte, i int) {
	d := t.d
	n := 0
	for b := 0; b < t.rb; b++ {
		if t.owner[i][b] >= 0 {
			n = b + 1
		}
	}
	if d.Rows[i].Gap.S != "" {
		n = t.rb
	}
	edge := byte('|')
	if fi := t.owner[i][0]; t.colonStyle(fi) {
		edge = ':'
	}
	line[0] = edge
	copy(line[1:], centre("... "+strconv.Itoa(d.Rows[i].Elided)+" bytes ...", t.col(n)-1))
	line[t.col(n)] = edge
}

// writePiece draws line l of the piece of display row i from bit b to bit e into line: its
// left edge, its label's line, its right edge at the row's end, and the marks the figure
// draws its edges with.
func (t *figureText) writePiece(line []byte, i, l, b, e int, blockLine []int) {
	d := t.d
	fi := t.owner[i][b]
	c0, c1 := t.col(b), t.col(e)
	if t.vedge(i, b) {
		line[c0] = t.edgeChar(fi, t.at(i, b-1), blockLine)
		if fi > 0 && b > 0 && d.Fields[fi].Joined && t.at(i, b-1) == fi-1 {
			line[c0] = ' ' // one box with the field before it (RFC 6733's flags)
		}
	}
	if s, ok := t.pieceLine(fi, i, l); ok {
		copy(line[c0:], s) // the box as printed, its edges with it (Field.Pieces)
		return
	}
	if fi >= 0 {
		if s, k := t.labelAt(fi, i, l, blockLine[fi]); s != "" {
			copy(line[c0+1:], t.place(fi, k, s, c1-c0-1))
		}
	}
	if e == t.rb && t.vedge(i, t.rb) {
		line[c1] = t.edgeChar(-1, fi, blockLine)
	}
	t.pieceMarks(line, fi, i, l, b, e)
}

// pieceMarks draws the marks of a piece's edges: '.' where a value runs on into the next row
// (RFC 4340), side marks, the marks as printed (RFC 9147), "..." for an open end (RFC 7540).
func (t *figureText) pieceMarks(line []byte, fi, i, l, b, e int) {
	d := t.d
	c0, c1 := t.col(b), t.col(e)
	if t.runOn(fi, i, e) {
		line[c1] = '.' // the value runs on into the next row (RFC 4340)
	}
	if b == 0 && fi > 0 && t.runOn(fi-1, i-1, t.rb) && t.at(i-1, t.rb-1) == fi-1 {
		line[c0] = '.'
	}
	if m := t.edgeMark(fi, i, b, e, l); m != 0 {
		line[c0], line[c1] = m, m
	}
	if fi >= 0 && b == 0 && e == t.rb && 2*l+1 < len(d.Fields[fi].Marks) {
		m := d.Fields[fi].Marks
		line[c0], line[c1] = m[2*l], m[2*l+1] // the marks as printed (RFC 9147)
	}
	if t.edgeStyle(fi) && c1-c0 > 4 && d.Fields[fi].Marks == "" {
		if segs := d.Fields[fi].Segs; segs[len(segs)-1].Row == i {
			copy(line[c1-2:], "...") // RFC 7540's open end: "..." for the edge
		}
	}
}

// edgeChar returns the edge between field left and field right on the current line: ':' for
// the sides of a variable field drawn with colons (but '|' on its first line's left and its
// last line's right, as RFC 9293 draws Data), else '|'.
//
// A variable field that does not fill its rows (IPv4's Options beside its Padding) has its
// open end, the right edge, drawn ':' on every line.
func (t *figureText) edgeChar(right, left int, blockLine []int) byte {
	if t.colonStyle(right) && t.fullRows(right) && blockLine[right] > 0 {
		return ':'
	}
	if t.colonStyle(left) && (!t.fullRows(left) || blockLine[left] < t.blockLines(left)-1) {
		return ':'
	}
	return '|'
}

// fullRows reports whether field fi fills each of its rows.
func (t *figureText) fullRows(fi int) bool {
	for _, s := range t.d.Fields[fi].Segs {
		if s.From != 0 || s.To != t.rb {
			return false
		}
	}
	return true
}

// blockLines returns the number of lines of field fi's block: the lines of its rows and the
// rules between them that are drawn.
func (t *figureText) blockLines(fi int) int {
	n := 0
	for k, s := range t.d.Fields[fi].Segs {
		n += t.lines[s.Row]
		if k > 0 && !t.skipSep(s.Row) {
			n++
		}
	}
	return n
}
