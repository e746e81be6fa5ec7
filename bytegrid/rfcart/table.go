package rfcart

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/kafkagrid/kafkagrid/bytegrid"
)

// A count table is the form RFC 1928 (SOCKS), RFC 1661 (PPP), RFC 7323 (TCP options) and
// many protocols' own Markdown specs print a message in: boxes of any width, each field's
// name in its box and its size in a row of counts under the names, not drawn as bits:
//
//	+----+----------+----------+
//	|VER | NMETHODS | METHODS  |
//	+----+----------+----------+
//	| 1  |    1     | 1 to 255 |
//	+----+----------+----------+
//
// The counts may stand in boxes of their own (above), in the names' boxes on their last line
// (RFC 1661's "| 8/16 bits|      *      |"), or under the closing rule with no edges (RFC
// 7323's "    1       1        4   "). A bare count is bytes ("octets" in these RFCs), which
// the figure does not say: a warning says so. Other counts: "N bits", "N bytes", "NB", "N to
// M" or "N-M" (a variable field of those bounds), "A/B bits" (either), "variable", "*" or "n"
// (variable), and a value "X'0D0A'" (a constant of its digits' bytes).
type countTable struct {
	edges []int // the columns of the boxes' edges, from the first rule
	first int   // the line of the first rule
	last  int   // the line of the closing rule
	names []int // the lines holding names
	count int   // the line of the counts
	boxed bool  // the counts stand inside the boxes
}

// tableForm reads the grid at loc as a table, a stack or a table of counts, if it is one (ok),
// and compares its drawing with the figure as Parse does.
func (p *parser) tableForm(spec *bytegrid.Spec, loc Located, raw []string) (_ *bytegrid.Spec, ok bool, err error) {
	if s, isStack := p.locateStack(loc.Rule); isStack {
		spec, err = p.parseStack(spec, s)
	} else if t, isTable := p.locateTable(loc.Rule); isTable {
		spec, err = p.parseTable(spec, t)
	} else {
		return nil, false, nil
	}
	if err != nil {
		return nil, true, err
	}
	p.checkDrawnBack(spec, raw[loc.Start:], loc.Start)
	spec.Warnings = p.warnings
	return spec, true, nil
}

// countRE is one count of a count table; the groups: a number of bytes; a number and its
// unit; two bounds (bytes); two alternatives in bits; a value in hex.
var countRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(?:(\d{1,5})|(\d{1,5}) ?(bytes?|octets?|bits?|b)|(\d{1,5}) ?(?:to|-|\.\.) ?(\d{1,5})(?: ?(?:bytes?|octets?))?|(\d{1,3}) ?/ ?(\d{1,3}) ?bits?|variable|var\.?|\*|n|(x'[0-9a-f]{2,16}'))$`)
})

// isCount reports whether s is a count of a count table.
func isCount(s string) bool { return countRE().MatchString(strings.TrimSpace(s)) }

// ruleEdges returns the columns of the '+' of a plain rule ("+----+------+"), or nil.
func ruleEdges(l []rune) []int {
	s := strings.TrimRight(string(l), " ")
	x := indent(l)
	if !isPlainRule(s[x:]) {
		return nil
	}
	var out []int
	for c, r := range l {
		if r == '+' {
			out = append(out, c)
		}
	}
	return out
}

// sameRule reports whether l is a plain rule with its '+' at edges.
func sameRule(l []rune, edges []int) bool {
	e := ruleEdges(l)
	if len(e) != len(edges) {
		return false
	}
	for i := range e {
		if e[i] != edges[i] {
			return false
		}
	}
	return true
}

// boxRow returns the text of each box of a line with '|' at every edge (and nothing past the
// last), or false.
func boxRow(l []rune, edges []int) ([]string, bool) {
	if len([]rune(strings.TrimRight(string(l), " "))) != edges[len(edges)-1]+1 || indent(l) != edges[0] {
		return nil, false
	}
	out := make([]string, len(edges)-1)
	for k := range out {
		if l[edges[k]] != '|' {
			return nil, false
		}
		out[k] = strings.TrimSpace(string(l[edges[k]+1 : edges[k+1]]))
	}
	return out, l[edges[len(edges)-1]] == '|'
}

// allCounts reports whether every cell is a count.
func allCounts(cells []string) bool {
	for _, c := range cells {
		if !isCount(c) {
			return false
		}
	}
	return len(cells) > 0
}

// locateTable reports whether the grid whose first rule is at line first is a count table:
// rules of '+' and '-' alone, each with its '+' in the same columns, two boxes or more, lines
// of boxes between them, and a line of counts (in the boxes, or under the last rule); no
// ruler over it.
func (p *parser) locateTable(first int) (countTable, bool) {
	t := countTable{first: first, count: -1}
	t.edges = ruleEdges(p.lines[first])
	if len(t.edges) < 3 || (first > 0 && isRuler(strings.TrimSpace(string(p.lines[first-1])))) {
		return t, false
	}
	var rows []int
	for i := first + 1; i < len(p.lines); i++ {
		if sameRule(p.lines[i], t.edges) {
			t.last = i
			continue
		}
		if _, ok := boxRow(p.lines[i], t.edges); !ok {
			break
		}
		rows = append(rows, i)
	}
	if t.last == 0 || len(rows) < 1 || rows[len(rows)-1] > t.last || p.gridGoesOn(t.last, t.edges[0]) {
		return t, false
	}
	if cells, _ := boxRow(p.lines[rows[len(rows)-1]], t.edges); len(rows) > 1 && allCounts(cells) {
		t.names, t.count, t.boxed = rows[:len(rows)-1], rows[len(rows)-1], true
	} else if p.countsUnder(&t) {
		t.names = rows
	} else {
		return t, false
	}
	for _, l := range t.names {
		if cells, _ := boxRow(p.lines[l], t.edges); allCounts(cells) {
			return t, false // numbers over numbers: not names
		}
	}
	return t, len(t.names) > 0
}

// gridGoesOn reports whether the line after a table's last rule goes on with the grid (an
// edge or a rule at its column x): then the figure is no table of this form, and the grid's
// reader reads it whole or refuses it, rather than a table cut short.
func (p *parser) gridGoesOn(last, x int) bool {
	l := last + 1
	return l < len(p.lines) && indent(p.lines[l]) == x && x < len(p.lines[l]) && strings.ContainsRune("+|!:", p.lines[l][x])
}

// countsUnder finds the line of counts under the table's last rule, no blank line between
// (RFC 7323): a count under the middle of each box.
func (p *parser) countsUnder(t *countTable) bool {
	l := t.last + 1
	if l >= len(p.lines) {
		return false
	}
	ps := phrases(p.lines[l])
	if len(ps) != len(t.edges)-1 {
		return false
	}
	for k, ph := range ps {
		mid := (ph.from + ph.to) / 2
		if !isCount(ph.s) || mid <= t.edges[k] || mid >= t.edges[k+1] {
			return false
		}
	}
	t.count = l
	return true
}

// countCells returns the count of each box.
func (p *parser) countCells(t countTable) []string {
	if t.boxed {
		cells, _ := boxRow(p.lines[t.count], t.edges)
		return cells
	}
	var out []string
	for _, ph := range phrases(p.lines[t.count]) {
		out = append(out, ph.s)
	}
	return out
}

// parseTable reads a count table: a field a box, named by its text, as wide as its count,
// drawn back as printed (Text.Table); reading bare counts as bytes is warned.
func (p *parser) parseTable(spec *bytegrid.Spec, t countTable) (*bytegrid.Spec, error) {
	counts := p.countCells(t)
	bare := false
	off := 0
	for k := 0; k+1 < len(t.edges); k++ {
		var name []string
		for _, l := range t.names {
			if s := strings.TrimSpace(string(p.lines[l][t.edges[k]+1 : t.edges[k+1]])); s != "" {
				name = append(name, s)
			}
		}
		if len(name) == 0 {
			return nil, p.errf(t.names[0], t.edges[k]+1, "a box with no name over the count %q", counts[k])
		}
		f, isBare, err := countField(strings.Join(name, " "), counts[k])
		if err != nil {
			return nil, p.errf(t.count, t.edges[k]+1, "%v", err)
		}
		bare = bare || isBare
		f.Offset = off
		off += f.Bits
		spec.Fields = append(spec.Fields, f)
	}
	spec.Options.RowBits = 32
	spec.Options.NoHex = true
	spec.Options.ElideRows = -1
	spec.Options.Text.Below, spec.Caption = p.below(max(t.last, t.count))
	if bare {
		p.warn(t.count, t.edges[0], "a table whose row of counts gives each field's size: the bare counts read as bytes (the figure does not say)")
	}
	p.tableText(spec, t, counts)
	if err := bytegrid.CheckFields(spec.Fields); err != nil {
		return nil, &Error{Reader: "rfcart", File: p.name, Err: err}
	}
	spec.Warnings = p.warnings
	return spec, nil
}

// tableText keeps the table's layout (bytegrid.TextOptions.Table), so that its text is drawn
// as printed (Parse compares the drawing with the figure, as for any other).
func (p *parser) tableText(spec *bytegrid.Spec, t countTable, counts []string) {
	where := "under"
	switch {
	case t.boxed && t.count > t.names[len(t.names)-1]+1:
		where = "boxed"
	case t.boxed:
		where = "inline"
	}
	lines := []string{where}
	for k := 0; k+1 < len(t.edges); k++ {
		lines = append(lines, fmt.Sprintf("%d %s", t.edges[k+1]-t.edges[k]-1, counts[k]))
	}
	spec.Options.Text.Table = strings.Join(lines, "\n")
	spec.Options.Text.Margin = t.edges[0]
}

// countField is the field named name whose count is s, and whether the count was a bare
// number (read as bytes).
func countField(name, s string) (bytegrid.Field, bool, error) {
	f := bytegrid.Field{Name: name}
	m := countRE().FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return f, false, fmt.Errorf("the count %q under %q: want a number of bytes, \"N bits\", \"N to M\", \"variable\" or a value X'..'", s, name)
	}
	n := func(i int) int { v, _ := strconv.Atoi(m[i]); return v }
	switch {
	case m[1] != "":
		f.Bits = 8 * n(1)
		return f, true, nonZero(f, s)
	case m[2] != "":
		f.Bits = n(2)
		if u := strings.ToLower(m[3]); !strings.HasPrefix(u, "bit") {
			f.Bits *= 8
		}
		return f, false, nonZero(f, s)
	case m[4] != "":
		f.Variable, f.MinBits, f.MaxBits, f.Bits = true, 8*n(4), 8*n(5), 8
		if f.MinBits > f.MaxBits {
			return f, false, fmt.Errorf("the count %q under %q: its bounds are the wrong way round", s, name)
		}
		return f, false, nil
	case m[6] != "":
		f.Variable, f.MinBits, f.MaxBits, f.Bits = true, min(n(6), n(7)), max(n(6), n(7)), 8
		return f, false, nil
	case m[8] != "":
		hex := m[8][2 : len(m[8])-1]
		if len(hex)%2 != 0 {
			return f, false, fmt.Errorf("the value %q under %q: want whole bytes of hex digits", s, name)
		}
		f.Bits, f.Value = 4*len(hex), s
		return f, false, nil
	}
	f.Variable, f.Bits = true, 8
	return f, false, nil
}

func nonZero(f bytegrid.Field, s string) error {
	if f.Bits == 0 {
		return fmt.Errorf("the count %q under %q: a field of no size", s, f.Name)
	}
	return nil
}

// A stack is the other table RFCs print: boxes one under another, all one width whatever
// their size, the size written in each label (RFC 4271's UPDATE, RFC 4760's MP_REACH_NLRI,
// RFC 7432's EVPN routes):
//
//	+---------------------------------------------------------+
//	| Address Family Identifier (2 octets)                    |
//	+---------------------------------------------------------+
//	| Network Address of Next Hop (variable)                  |
//	+---------------------------------------------------------+
//
// Every box must say its size ("(2 octets)", "(1 octet)", "(16 bits)", "(variable)", "(4 or
// 16 octets)", "(0, 4, or 16 octets)"); a figure with a box that does not is read as a grid.
type stack struct {
	x, right int     // the columns of the boxes' edges
	first    int     // the line of the first rule
	last     int     // the line of the closing rule
	boxes    [][]int // each box's lines
}

// stackSizeRE is a size written in a label: a count and its unit, alternatives ("4 or 16",
// "0, 4, or 16"), or "variable".
var stackSizeRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\((?:((?:\d{1,5},? )+)or )?(\d{1,5}) (octets?|bytes?|bits?)\)|\(variable\)`)
})

// locateStack reports whether the grid whose first rule is at line first is a stack.
func (p *parser) locateStack(first int) (stack, bool) {
	edges := ruleEdges(p.lines[first])
	if len(edges) != 2 || (first > 0 && isRuler(strings.TrimSpace(string(p.lines[first-1])))) {
		return stack{}, false
	}
	s := stack{x: edges[0], right: edges[1], first: first}
	var box []int
	for i := first + 1; i < len(p.lines); i++ {
		if sameRule(p.lines[i], edges) {
			if len(box) == 0 {
				return s, false
			}
			s.boxes, box, s.last = append(s.boxes, box), nil, i
			continue
		}
		if _, ok := boxRow(p.lines[i], edges); !ok && !p.notedRow(i, edges) {
			break
		}
		box = append(box, i)
	}
	if len(s.boxes) < 2 || p.gridGoesOn(s.last, s.x) {
		return s, false
	}
	for _, b := range s.boxes {
		if !stackSizeRE().MatchString(p.boxText(s, b)) {
			return s, false
		}
	}
	return s, true
}

// notedRow reports whether line i is a row of boxes with a note right of it, after a space
// (exabgp's "|  MAC Address (6 octets)               |  48 bits is 6 bytes").
func (p *parser) notedRow(i int, edges []int) bool {
	l, r := p.lines[i], edges[len(edges)-1]
	if len(l) <= r+1 || l[r] != '|' || l[r+1] != ' ' {
		return false
	}
	_, ok := boxRow(l[:r+1], edges)
	return ok
}

// stackNotes cuts the notes right of a stack, line by line from its first rule
// (Text.RightNotes).
func (p *parser) stackNotes(s stack) string {
	var notes []string
	for i := s.first; i <= s.last; i++ {
		if l := p.lines[i]; len(l) > s.right+1 {
			for len(notes) < i-s.first {
				notes = append(notes, "")
			}
			notes = append(notes, string(l[s.right+1:]))
			p.lines[i] = l[:s.right+1]
		}
	}
	return strings.Join(notes, "\n")
}

// boxText is the text of a stack's box, its lines joined.
func (p *parser) boxText(s stack, box []int) string {
	var ws []string
	for _, l := range box {
		ws = append(ws, strings.Fields(string(p.lines[l][s.x+1:s.right]))...)
	}
	return strings.Join(ws, " ")
}

// parseStack reads a stack: a field a box, named by its text, as wide as its label says, its
// text drawn back as printed (Text.Table "stack": each box's lines, the column of each line's
// text and its words).
func (p *parser) parseStack(spec *bytegrid.Spec, s stack) (*bytegrid.Spec, error) {
	layout := []string{"stack"}
	spec.Options.Text.RightNotes = p.stackNotes(s)
	off := 0
	for _, b := range s.boxes {
		f := bytegrid.Field{Name: p.boxText(s, b), Offset: off}
		m := stackSizeRE().FindStringSubmatch(f.Name)
		switch {
		case m[2] == "":
			f.Variable, f.Bits = true, 8
		case m[1] != "":
			lo, hi := 1<<30, 0
			for _, w := range strings.FieldsFunc(m[1]+" "+m[2], func(r rune) bool { return r == ',' || r == ' ' }) {
				v, _ := strconv.Atoi(w)
				lo, hi = min(lo, v), max(hi, v)
			}
			unit := 8
			if strings.HasPrefix(strings.ToLower(m[3]), "bit") {
				unit = 1
			}
			f.Variable, f.Bits, f.MinBits, f.MaxBits = true, 8, lo*unit, hi*unit
		default:
			v, _ := strconv.Atoi(m[2])
			f.Bits = v
			if !strings.HasPrefix(strings.ToLower(m[3]), "bit") {
				f.Bits *= 8
			}
			if f.Bits == 0 {
				return nil, p.errf(b[0], s.x+1, "the box %q: a field of no size", f.Name)
			}
		}
		off += f.Bits
		spec.Fields = append(spec.Fields, f)
		layout = append(layout, p.stackLines(s, b))
	}
	spec.Options.RowBits = 32
	spec.Options.NoHex = true
	spec.Options.ElideRows = -1
	spec.Options.Text.Table = strings.Join(layout, "\n")
	spec.Options.Text.Margin = s.x
	spec.Options.Text.Below, spec.Caption = p.below(s.last)
	if err := bytegrid.CheckFields(spec.Fields); err != nil {
		return nil, &Error{Reader: "rfcart", File: p.name, Err: err}
	}
	return spec, nil
}

// stackLines is a box's layout: its width, then each line's text as column:words, a pair for
// each run of words a space apart, separated by commas ("-" for a blank line).
func (p *parser) stackLines(s stack, box []int) string {
	out := []string{strconv.Itoa(s.right - s.x - 1)}
	for _, l := range box {
		var segs []string // (each run of words a space apart, at its column: "RD   (8 octets)")
		for _, ph := range phrases(p.lines[l][s.x+1 : s.right]) {
			segs = append(segs, fmt.Sprintf("%d:%d", ph.from, len(strings.Fields(ph.s))))
		}
		if len(segs) == 0 {
			segs = []string{"-"}
		}
		out = append(out, strings.Join(segs, ","))
	}
	return strings.Join(out, " ")
}
