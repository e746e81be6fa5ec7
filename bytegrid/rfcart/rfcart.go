// Package rfcart reads the ASCII art of a published protocol figure, as the RFCs draw their
// header formats, into byte-grid fields, so that an author's existing figure becomes SVG in
// one command ("kafkagrid grid figure.txt -o figure.svg").
//
// # What it reads
//
// A figure is a grid of boxes: rules ("+-+-+", "+--------+", "+=+=+", dashed "+ - - +")
// between rows, "|" (or ":") edges between fields, and the fields' names inside. Above the
// grid may stand a ruler: RFC 791's bit numbers with their tens line, RFC 1035's, a line of
// units, or RFC 768's byte ruler ("0      7 8     15 …"); the width of a bit is read from the
// ruler, else from the rule. An optional first line "source: …" names the figure. Read the
// way RFC authors draw:
//   - a row of several lines is one row: a name on several lines is stacked ("Data" over
//     "Offset"), one letter a line is vertical (the flags C W R E …);
//   - boxes that continue across a rule with no dashes under them are one field (RFC 8200's
//     addresses, "+" at their side edges), named by the text in any of their lines,
//     stacked when it stands on several lines of one of them (RFC 8684's "Subtype-specific
//     data" over "(variable length)");
//   - ":" side edges, a box open at its right end, "..." after a name or under it, or a box
//     left open at the bottom of the figure make a variable field (Field.Variable); so do
//     side edges "~" (RFC 8926), "/" (RFC 1035), "." (RFC 5905) and "\" (RFC 4960), drawn
//     back as the figure has them on a row's first, middle and last lines (Options.Text.Edge);
//     a label ending in dots ("| Data ...", RFC 792; "Value ....", RFC 5389) keeps them
//     (Text.Dots), its printed column even past the box ("|  Value ...", RFC 2865), and
//     how the rule under it ends (Text.OpenRule: cut short, at the ruler's end, or none);
//     rules that run on past the row with "-..." leave the last box open (RFC 4271); a box
//     open at the row's end whose label does not end in dots, in a figure with no ':' edges,
//     is drawn back with no right edge and the grid's rules (Text.Open "open", RFC 2661's
//     "Offset pad... (opt)");
//   - a ruler shorter than the rule numbers only its bits (Text.RulerBits); byte-wide boxes
//     ("+--------+") under no ruler keep their width (Text.Bytes, RFC 791's options); a rule
//     with no '+' at a byte boundary inside a field is marked only at the fields' (Text.Ticks);
//     rules marked differently from one another (at bits, at bytes, at fields) keep each
//     its own marks (Text.RuleTicks; RFC 2453's "+-+-+", "+-----+---", "+-----+-----+");
//   - the ruler's digits keep the column they were printed in, over the middle of each bit or
//     over the '+' before it (Text.RulerShift; RFC 4271, RFC 2131, RFC 3032); a tens line
//     with no "0" over bit 0 keeps it out (Text.TensNoZero; RFC 7296's and RFC 2408's IKE
//     figures);
//   - an elision mark between dashes in the rules ("//", "/ /" or "~~": RFC 791's
//     "+---------//--------+") stands for no bits: the columns after it are read as if it
//     were not there, the box it crosses at the size drawn without it, and it is drawn back
//     where printed (Text.Elide, Text.ElideAt). A figure may carry one, at one column, in any
//     of its rules; a mark at another column is an error;
//   - a row ending in '.' on each of its lines, the next starting with '.' on each of its
//     lines, runs the value of its last field on into the next row's first (Field.RunOn, RFC
//     4340's Sequence Number in high and low bits): fields of the size drawn, not variable;
//   - a label printed off the middle of its box keeps its line (Field.LabelLine, RFC 4271's
//     Marker) and, when more than a column off centre, its column (Field.LabelCol; a stacked
//     label, each line's, Field.LabelCols: RFC 9147's "(if any," flush left); the text of
//     rows continued across a rule, standing on consecutive lines (the crossing line among
//     them), is one label stacked over them (RFC 4443's "As much of invoking packet");
//   - where a field continues across a rule, its side edge is drawn as printed, "+" (RFC
//     8200) or "|" (RFC 1035, RFC 4302's right edge) (Text.Cross); a hyphen inside a name
//     written on such a rule ("Value-ICV") is text;
//   - under a ruler, a '|' one column off a bit boundary, the boundary's column blank, is a
//     printing slip and is read on the boundary (RFC 5905's Stratum and Poll): with bits two
//     columns wide such an edge is as near either boundary, and goes to the one that is a
//     byte boundary (neither or both: an error). It is drawn back on the boundary;
//   - under no ruler, a box wider than "+-+" ("+--+", "+---+") is read as a bit when a row
//     of them is whole bytes (RFC 1035's rows of 16), and as a byte when it is not (RFC
//     1952's "+---+" boxes, 10 to a row; Text.Bytes, Text.ByteChars), which a warning says:
//     the figure does not say; boxes wider than nine columns whose rows, at two columns a
//     bit, would be no whole bytes (RFC 2205's ERROR_SPEC, RFC 5925's TCP-AO) are a byte a
//     box, warned too, and an edge inside such a box stands where byteCol puts a bit;
//   - a ruler of bytes over byte boxes (start.go, byteruler.go): their numbers 0, 1, 2, …
//     over each box (RFC 2205's RSVP header and objects) or their offsets over the
//     boundaries with a unit ("0   4   5   6   8 (BYTE)", the KCP spec) gives a byte's
//     columns, and is kept as printed above the grid (Text.Above);
//   - '!' edges (RFC 2408's ISAKMP figures) are read as '|', warned, and drawn back so;
//   - a row drawn with more lines than the rest keeps them (Field.Lines, RFC 5389; the
//     rows a field fills, as RFC 1035's WKS BIT MAP's second row); a field filling one row
//     drawn an even number of lines high, its name on one line and no width in it, is as
//     many rows as lines, one a line (Field.Packed: RFC 1035's 32-bit TTL in rows of 16, RFC
//     2865's Authenticator), which a warning says; an odd number is read as one row, warned;
//   - a width added to something ("Internet Header + 64 bits of Original Data Datagram",
//     RFC 792) is no width of the field's: a variable field;
//   - a mark on a rule that no field's edge explains (RFC 7540's '+' one bit in under
//     "Weight? (8)", RFC 1035's rule ending in '|') is kept as printed (Text.RuleMarks);
//   - rules running on past their last '+' with dashes, every rule alike ("------", RFC
//     8754; " - - - -", RFC 8200), beside text past the grid's right edge: a variable field
//     open at its end, its rules drawn back with those dashes (Text.RunTail);
//   - a grid whose first rows start right of its edge, at a bit boundary, the rule under them
//     running from the edge (RFC 2018's SACK option after two NOPs, RFC 6275's messages
//     after their header), starts its first field there (Field.Offset): the bits left of it
//     are none of the figure's;
//   - a blank box inside a row (RFC 2890's "|C| |K|S|") is an unnamed reserved field;
//   - a box of dots alone, one a line, stands for items of a list left out (RFC 7761's
//     Hello options): a variable field, drawn back with the figure's '|' edges
//     (Text.Edge "|||"); a '~', '/', '.' or '\' inside a row is text, not an edge; so does a
//     box of "..." (readDotsAlone), even one printed on a line with no edges between rows of
//     the grid (RFC 8754's SRH: read inside '|' edges, warned);
//   - crossing lines one under another, no row between (RFC 5798's addresses), stand for
//     rows left out: the field holding them is variable, warned; a ruler numbering only some
//     bits is kept as printed above the grid; a '+' alone inside a row, over a rule marking
//     fields there, is an edge, warned (the RUDP draft);
//   - text right of the grid, after a space, is a note in its margin and is left out (RFC
//     4303's "^Int. Cov-ered"); text left of the grid, on the lines from its first rule
//     and a space before the grid's edge, is a note in the left margin, read no further
//     and drawn back where printed (Text.LeftNotes; RFC 6830's "OH", "UDP", "L I S P"
//     bracketing the headers of its encapsulation figure);
//   - a dashed rule ("+ - - - +") around a box makes it optional, and ", if …" after its
//     name, or a line "(if …)", is its condition;
//   - a box with no name continues the field before it, as does "Name (continued)";
//   - a field drawn in pieces, a box a row, whose later pieces carry labels of their own
//     naming it continued (RFC 6455's "Masking-key (continued)", "Payload Data continued
//     ..." between ':' edges), or whose name stands on a rule it crosses beside another
//     field's rule (RFC 4034's RRSIG, RFC 2535's SIG: "Signer's Name", its edges '/'), keeps
//     its boxes as printed, edges included (Field.Pieces), and those crossing rules
//     (Field.Crossings) (pieces.go); rules dashed inside every such field and solid between
//     fields are drawn so (Text.Inside "dashed", RFC 6455);
//   - fields follow one another bit after bit, row after row: a figure whose rows are
//     narrower than others (RFC 7540's 24-, 16- and 32-bit rows) still gives each field the
//     offset it has on the wire.
//
// Where the figure stands is found by Locate (and told by Sniff): after a "source:" line of any
// case, after prose, under a header naming a row's bytes ("+0 (MSB)  +1 (LSB)", RFC 6891), or
// inside a code comment whose prefix every line carries (" * ", "// ", "# "; a first
// "source:" line may stand outside it, and "/**" or "<pre>" lines are prose). What stands
// around the grid is kept as printed: notes right of it (Text.RightNotes), text under it, a
// ruler, a legend or its "Figure N:" caption (Text.Below; the caption is the spec's Caption,
// the drawing's title), a header over it (Text.Above), and a title right over it, no blank
// line between (RFC 7348's "VXLAN Header:", Located.Heading: kept in Text.Above, and the
// spec's Name); a ruler over that title, blank lines between (RFC 7348's Figure 1), is the
// grid's ruler, the lines under it kept where printed (Text.UnderRuler). Grids stacked under
// titles of their own, blank lines between (RFC 7348's Figure 1: Ethernet, IPv4, UDP and VXLAN
// headers), are read each alone and made one spec, each grid's first field under its title
// (Field.Caption) on a row of its own (Field.RowBreak) (stacked.go). What the labels say is read by the rules of the labelRules
// table, each a small function: one letter a bit as one-bit flags (Field.Joined), a name over
// dots as a list (Text.ListMark), "(variable)" or a length counted by another field of the
// figure ("Value String (Length octets)", RFC 7541) as a variable field, "8 or 16 bit" as a
// variable field, so is a choice of bare counts ("(16/64)", RFC 6455, altcounts.go), a width
// written in a label
// read at that width (warned, or Field.Packed when the box is as many lines high as the rows
// the width fills). A rule closing a field mid-row ("|      +-+-+-+", RFC 5036) ends it
// there. A figure of dashes (RFC 1350: "-----" rules, the boxes' widths written over them) is
// read from those widths; a table of boxes whose names stand over a row of counts (RFC 1928's
// SOCKS messages, RFC 1661, RFC 7323, protocols' Markdown specs) from those counts
// (table.go), its text drawn back as printed (Text.Table); so is a stack of boxes one width
// whatever their size, each label saying it (RFC 4271's UPDATE, RFC 4760).
//
// # Never silently wrong
//
// Parse returns warnings with the spec (gridyaml.Spec.Warnings, "name:line:col: what"): what
// it read and cannot draw back as printed, or left out (prose, a comment's prefix). Every
// figure read is drawn back as text and compared with what was printed (DrawnBack, line by
// line with SameLine): where they differ, a warning names the first line that does. A figure
// read with no warning draws back as printed.
//
// The options come from the figure too (the ruler, the left margin, the width of a bit, rows
// of several lines and where their labels sit, rules marked only at field boundaries, the
// open end's style), so that the fields drawn as text come out as the figure was drawn.
//
// # Trust
//
// The input is untrusted: at most MaxSize bytes, MaxLines lines of at most MaxColumns
// columns, and a row of at most bytegrid.MaxRowBits bits; every error carries the name, line
// and column (name:line:col) of what is wrong. The work is linear in the size of the input.
// A figure is read whole or refused: a rule at the grid's edge below a line the grid stops
// at (a row it cannot read, as RFC 8754's "//" side edges) is an error, not a figure cut
// short.
package rfcart

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/kafkagrid/kafkagrid/bytegrid"
)

// Limits on a figure.
const (
	MaxSize    = 1 << 20
	MaxLines   = 4096
	MaxColumns = 1024
)

// Error is a problem in a figure, with its position (name:line:col): bytegrid.SpecError,
// which every reader of a spec returns, its Reader "rfcart".
type Error = bytegrid.SpecError

// Detect reports whether data looks like a figure rather than a YAML spec: its first line
// that is not blank (after an optional "source:" line) is a ruler (digits and spaces) or a rule
// starting "+-" (or "+=").
func Detect(data []byte) bool {
	first := true
	for len(data) > 0 {
		var line []byte
		if i := indexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			line, data = data, nil
		}
		s := strings.TrimSpace(string(line))
		if s == "" {
			continue
		}
		if first && strings.HasPrefix(s, "source:") {
			first = false
			continue
		}
		return strings.HasPrefix(s, "+-") || strings.HasPrefix(s, "+=") || isRuler(s)
	}
	return false
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}

// isRuler reports whether s (trimmed) is a line of bit numbers.
func isRuler(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r != ' ' && (r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// parser holds a figure being read.
type parser struct {
	name      string
	lines     [][]rune
	base      int // line number of lines[0], minus one
	x0        int // column of the grid's left edge
	cpb       int // columns a bit (bits mode)
	bytes     bool
	leadCols  int    // the columns the grid's first rows start right of its edge (leadIn)
	leadTo    int    // the line where the grid's full width starts (leadIn)
	runTail   string // what the rules run on with past the grid's last mark (runOnTail)
	byteCols  int    // with bytes: the columns of a byte, its edge included (0: nine)
	rb        int    // bits a row
	width     int    // columns of a row
	ruler     bytegrid.Ruler
	lsb0      bool
	colBase   int             // columns of a comment prefix stripped from every line
	warnings  []string        // what was read but not drawn back, or not understood
	fieldAt   []textAt        // where each field's label was printed
	doubleEnd bool            // the last rule is double
	parenUnit int             // the unit of bare counts after names ("chaddr (16)"): 8, 1 or 0
	nameWords map[string]bool // the words of the fields' names, lower case
	rowLines  int             // the lines of the figure's least row
	listMark  string          // the dots under the name of a list ("...")
	closing   map[int]bool    // lines of rules closing a field mid-row, printed with '|' at the left
	units     int             // the numbers on the ruler's units line (bits mode)
	shift     int             // columns the ruler's digits stand right of the middle of their bit
	noZero    bool            // the tens line prints no "0" over the first ten bits (RFC 7296)
	ruleTicks []byte          // how each rule is marked, from the first: 'b' bits, 'y' bytes, 'f' fields
	leftOut   []int           // lines of crossing lines one under another, rows left out (leftOutRows)
	// An elision mark the rules carry ("//"), standing for no bits: its column, and the mark.
	elideAt int
	elide   string
}

func (p *parser) errf(line, col int, format string, a ...any) error {
	if line >= 0 {
		line += p.base + 1
	}
	if col >= 0 {
		col += p.colBase
	}
	return &Error{Reader: "rfcart", File: p.name, Line: line, Col: col + 1, Err: fmt.Errorf(format, a...)}
}

// warn records a warning at line and column (0-based, -1 for none) of the text.
func (p *parser) warn(line, col int, format string, a ...any) {
	if len(p.warnings) >= maxWarnings {
		return
	}
	pos := p.name
	if line >= 0 {
		pos += fmt.Sprintf(":%d", line+p.base+1)
		if col >= 0 {
			pos += fmt.Sprintf(":%d", col+p.colBase+1)
		}
	}
	p.warnings = append(p.warnings, pos+": "+fmt.Sprintf(format, a...))
}

// maxWarnings bounds the warnings of a figure.
const maxWarnings = 64

func plural(n int, w string) string {
	if n == 1 {
		return "1 " + w
	}
	return fmt.Sprintf("%d %ss", n, w)
}

// col returns the column of the boundary before bit b of a row.
func (p *parser) col(b int) int {
	if p.bytes {
		return p.shifted(p.x0 + byteCol(b, p.byteWidth()))
	}
	return p.shifted(p.x0 + p.cpb*b)
}

// shifted is the column of the figure where column c of the grid drawn without its elision
// mark stands: the mark's columns stand for no bits.
func (p *parser) shifted(c int) int {
	if p.elide != "" && c >= p.elideAt {
		return c + len(p.elide)
	}
	return c
}

// unshifted is the column of the grid drawn without its elision mark that column c of the
// figure stands for, and false for a column of the mark.
func (p *parser) unshifted(c int) (int, bool) {
	if p.elide == "" || c < p.elideAt {
		return c, true
	}
	if c < p.elideAt+len(p.elide) {
		return 0, false
	}
	return c - len(p.elide), true
}

// byteCol is the column of the boundary before bit b in boxes of a byte bc columns wide, its
// edge included: a byte's boundary on its edge, the bits inside it within the box (each its
// own column in boxes of nine, as RFC 791 draws them).
func byteCol(b, bc int) int {
	if b%8 == 0 {
		return bc * (b / 8)
	}
	return bc*(b/8) + 1 + (b%8)*(bc-2)/8
}

// byteWidth is the columns of a byte in a figure of byte boxes, its edge included.
func (p *parser) byteWidth() int {
	if p.byteCols > 0 {
		return p.byteCols
	}
	return 9
}

// bitAt returns the bit boundary at column c, and whether c is one.
func (p *parser) bitAt(c int) (int, bool) {
	c, ok := p.unshifted(c)
	if !ok {
		return 0, false
	}
	rel := c - p.x0
	if rel < 0 {
		return 0, false
	}
	if p.bytes {
		bc := p.byteWidth()
		if bc > 9 && rel%bc != 0 {
			return p.bitInByte(rel, bc) // (wider boxes: an edge inside a byte, RFC 2205's "| Vers | Flags|")
		}
		if bc != 9 && rel%bc != 0 {
			return 0, false // (narrower boxes: their bytes' edges only)
		}
		b := 8*(rel/bc) + rel%bc
		return b, b <= p.rb
	}
	if rel%p.cpb != 0 {
		return 0, false
	}
	return rel / p.cpb, rel/p.cpb <= p.rb
}

// bitInByte returns the bit boundary inside a byte box bc columns wide at column rel of the
// row, where byteCol puts it, and false when rel is none.
func (p *parser) bitInByte(rel, bc int) (int, bool) {
	for j := 1; j < 8; j++ {
		if byteCol(j, bc) == rel%bc {
			b := 8*(rel/bc) + j
			return b, b <= p.rb
		}
	}
	return 0, false
}

// markAt reports whether the character at column c of a line is a side edge of a variable
// box other than ':': '~' (RFC 8926, RFC 4303), '/' (RFC 1035), '.' (RFC 5905) or '\' (RFC
// 4960, "\ / \" down a row), standing alone (so that "Rsvd." or "...." are text).
func (p *parser) markAt(line, c int) bool {
	switch p.at(line, c) {
	case '~', '/', '.', '\\':
		return (c == 0 || p.at(line, c-1) == ' ') && p.at(line, c+1) == ' '
	}
	return false
}

func (p *parser) at(line, c int) rune {
	if line < 0 || line >= len(p.lines) || c < 0 || c >= len(p.lines[line]) {
		return ' '
	}
	return p.lines[line][c]
}

// cell is a box of one band (a row of the figure): bits [from, to) of the band's row.
type cell struct {
	band, from, to int
	text           []string // its lines, trimmed ("" for blank lines)
	textLine       []int    // the line within the band of each non-empty text
	colon          bool     // a ':' side edge
	marks          []rune   // the left edge on each line, when one is a mark ('~', '/', '.')
	rmarks         []rune   // and the right edge
	edges          []rune   // the left and right edge on each line
	open           bool     // no right edge
	dashed, solid  int      // bits of dashed and of solid rule above and below it
	double         bool     // a double rule above
	extra          []string // text on the rules inside its field (RFC 8200's names)
	at             []textAt // where each non-empty text (and extra) starts in the figure
	line, c        int      // position, for errors
	parent         int
	runOn          bool // ends its row with '.', the next row starting with '.': the value runs on
}

// textAt is where a box's text starts: its line and column in the figure, its text.
type textAt struct {
	line, col int
	s         string
	width     int // (in a label's stack: the width inside its box)
}

// Parse reads the figure in data; name names it in errors. It returns the spec: the fields,
// in order, and the options that draw them as the figure has them.
func Parse(name string, data []byte) (*bytegrid.Spec, error) {
	if len(data) > MaxSize {
		return nil, &Error{Reader: "rfcart", File: name, Err: fmt.Errorf("%d bytes, more than a figure may have (%d)", len(data), MaxSize)}
	}
	if !utf8.Valid(data) {
		return nil, &Error{Reader: "rfcart", File: name, Err: errors.New("not UTF-8 text")}
	}
	p := &parser{name: name}
	loc, found := Locate(data)
	if parts := stackedParts(loc); found && len(parts) > 0 {
		return parseStacked(name, loc, parts)
	}
	p.colBase = loc.PrefixCols
	raw := loc.Lines
	for i := range raw {
		raw[i] = strings.ReplaceAll(raw[i], "\t", "        ")
	}
	if len(raw) > MaxLines || strings.Count(string(data), "\n") >= MaxLines {
		return nil, p.errf(MaxLines, -1, "more than %d lines", MaxLines)
	}
	spec := p.start(loc)
	p.lines = make([][]rune, len(raw))
	for i, l := range raw {
		p.lines[i] = []rune(strings.TrimRight(l, " "))
		if len(p.lines[i]) > MaxColumns {
			return nil, p.errf(i, MaxColumns, "line longer than %d columns", MaxColumns)
		}
	}
	if found && loc.Dash {
		for i := 0; i < loc.Start; i++ {
			p.lines[i] = nil
		}
		d, _ := locateDash(raw[loc.Start:])
		d.top += loc.Start
		d.bot += loc.Start
		if d.head >= 0 {
			d.head += loc.Start
		}
		return p.parseDash(spec, d)
	}
	if !found {
		return nil, p.errf(-1, -1, `no rule ("+-+-+") with a row of boxes ("|") under it found: a figure's grid starts with one`)
	}
	// The lines before the figure (its source, prose, a comment's delimiters) are read.
	for i := 0; i < loc.Start; i++ {
		p.lines[i] = nil
	}
	if s, ok, err := p.tableForm(spec, loc, raw); ok {
		return s, err
	}
	above, heading, under := p.above(loc)
	first := loc.Rule
	for _, r := range startRules {
		first, above = r.read(p, first, above)
	}
	l0 := p.lines[first]
	p.x0 = len(l0) - len([]rune(strings.TrimLeft(string(l0), " ")))
	p.leadIn(first)
	last, notes, err := p.gridLines(first)
	if err != nil {
		return nil, err
	}
	p.runOnTail(first, last)
	if err := p.readGrid(first, last); err != nil {
		return nil, err
	}
	right := p.rightNotes(first, last)
	below, caption := p.below(last)
	fields, opts, err := p.fields(first, last)
	if err != nil {
		return nil, err
	}
	if fields, err = p.applyLabelRules(fields, p.fieldAt); err != nil {
		return nil, err
	}
	if p.listMark != "" {
		opts.Text.ListMark = p.listMark
		if opts.Text.Edge == "" && opts.Text.Open == "" {
			opts.Text.Edge = "|||" // the lists keep their '|' edges (RFC 3550)
		}
	}
	spec.Fields = fields
	spec.Options = opts
	spec.Options.Text.LeftNotes = strings.Join(notes, "\n")
	spec.Options.Text.RightNotes = right
	spec.Options.Text.RunTail = p.runTail
	spec.Options.Text.Above = strings.Join(above, "\n")
	spec.Options.Text.UnderRuler = under
	spec.Options.Text.Below = below
	nameSpec(spec, heading, caption, right, below)
	if err := bytegrid.CheckFields(fields); err != nil {
		return nil, &Error{Reader: "rfcart", File: name, Err: err}
	}
	p.keepRuleMarks(spec, raw[loc.Start:])
	p.checkDrawnBack(spec, raw[loc.Start:], loc.Start)
	spec.Warnings = p.warnings
	return spec, nil
}

// start is the spec before its fields: named by the figure's source line; and the warnings
// for what was stripped or left out before the figure.
func (p *parser) start(loc Located) *bytegrid.Spec {
	spec := &bytegrid.Spec{Name: "RFC figure"}
	if loc.SourceLine >= 0 {
		src := loc.Source
		spec.Desc = src
		if i := strings.IndexAny(src, ";"); i > 0 {
			spec.Name = strings.TrimSpace(src[:i])
		} else if src != "" {
			spec.Name = src
		}
	}
	if loc.Prefix != "" {
		p.warn(0, -1, "read inside a comment: %q stripped from every line", loc.Prefix)
	}
	if len(loc.Prose) > 0 {
		a, b := loc.Prose[0], loc.Prose[len(loc.Prose)-1]
		p.warn(a, -1, "%s before the figure read as prose, not drawn (lines %d to %d)", plural(len(loc.Prose), "line"), a+1, b+1)
	}
	return spec
}

// above cuts the lines over the figure's first rule that are kept as printed above it: a
// title right over it (RFC 7348's "VXLAN Header:"), which names the figure when no caption
// under it does, and a header naming the bytes of a row ("+0 (MSB)  +1 (LSB)", RFC 6891).
func (p *parser) above(loc Located) (above []string, heading, under string) {
	if loc.Heading >= 0 {
		heading = strings.TrimSuffix(strings.TrimSpace(string(p.lines[loc.Heading])), ":")
		if loc.Start < loc.Heading {
			under = p.underRuler(loc)
		} else {
			above = append(above, string(p.lines[loc.Heading]))
		}
		p.lines[loc.Heading] = nil
	}
	for i := loc.Start; i < loc.Rule; i++ {
		if i == loc.Heading {
			continue
		}
		if s := strings.TrimSpace(string(p.lines[i])); isByteHeader(s) {
			above = append(above, string(p.lines[i]))
			p.lines[i] = nil
		} else if len(above) > 0 && !isRuler(s) {
			above = append(above, "")
		}
	}
	return above, heading, under
}

// underRuler is what stands between a ruler over the figure's title and its first rule (RFC
// 7348's Figure 1: a blank line and "Outer Ethernet Header:"), kept as printed
// (Text.UnderRuler): the lines from the one after the ruler's last to the title.
func (p *parser) underRuler(loc Located) string {
	from := loc.Heading
	for from > loc.Start && strings.TrimSpace(string(p.lines[from-1])) == "" {
		from--
	}
	var out []string
	for i := from; i <= loc.Heading; i++ {
		out = append(out, strings.TrimRight(string(p.lines[i]), " "))
	}
	return strings.Join(out, "\n")
}

// gridLines finds the grid's last line: the lines from the first rule on that start at x0
// with '+', '|' or ':' (or a side mark). Text left of the grid, a space between it and the
// grid's edge, is a note in its margin (RFC 6830's "OH", "UDP", "L I S P"), cut and returned
// by line from the first rule. A rule further down at the grid's edge, after a line the grid
// stops at, would be a part of the figure left unread: an error, not a figure cut short (RFC
// 8754's "//" rows).
func (p *parser) gridLines(first int) (last int, notes []string, err error) {
	last = first
	for i := first + 1; i < len(p.lines); i++ {
		c := p.at(i, p.x0)
		if i < p.leadTo {
			c = p.at(i, p.x0+p.leadCols)
		}
		if c != '+' && c != '|' && c != ':' && !p.markAt(i, p.x0) {
			break
		}
		note, err := p.leftNote(i)
		if err != nil {
			return 0, nil, err
		}
		if note != "" {
			for len(notes) < i-first {
				notes = append(notes, "")
			}
			notes = append(notes, note)
		}
		last = i
	}
	for i := last + 1; i < len(p.lines); i++ {
		l := p.lines[i]
		if len(l) <= p.x0 || strings.TrimSpace(string(l[:p.x0])) != "" {
			continue
		}
		if r := string(l[p.x0:]); strings.HasPrefix(r, "+-") || strings.HasPrefix(r, "+=") {
			if t, ok := p.stackedTitle(last, i); ok {
				return 0, nil, p.errf(i-1, p.x0, "a second grid under the title %q, after the grid ending at line %d (headers stacked under their titles, as RFC 7348's Figure 1 draws its encapsulation): a figure is read one grid at a time; cut it to the header wanted", t, last+1+p.base)
			}
			return 0, nil, p.errf(last+1, p.x0, "the grid stops at this line, and a rule follows at line %d: want '+', '|' or ':' (or a side mark) at column %d", i+1+p.base, p.x0+1)
		}
	}
	return last, notes, nil
}

// leadIn reads a grid whose first rows start right of its edge, the rule under them running
// from further left (RFC 6275's Binding Update and RFC 2018's SACK option start mid-row, after
// the fields of the header before them): the grid's edge is that rule's, and the bits left of
// the first rows are none of the figure's (the first field's offset: Field.Offset).
func (p *parser) leadIn(first int) {
	start := func(l []rune) int { return len(l) - len([]rune(strings.TrimLeft(string(l), " "))) }
	for i := first + 1; i < len(p.lines) && i < first+64; i++ {
		l := p.lines[i]
		s := start(l)
		if len(l) == 0 || s > p.x0 {
			return
		}
		if s == p.x0 {
			if !strings.ContainsRune("+|:", l[s]) {
				return
			}
			continue
		}
		if r := string(l[s:]); (strings.HasPrefix(r, "+-") || strings.HasPrefix(r, "+=")) && len(l) == len(p.lines[first]) {
			p.leadCols, p.leadTo, p.x0 = p.x0-s, i, s
		}
		return
	}
}

// runTailRE is what rules run on with past their last '+': dashes ("------", RFC 8754) or
// dashes spaced (" - - - -", RFC 8200).
var runTailRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(-+|-?( -)+ ?)$`) })

// runOnTail reads rules that run on past their last '+' with dashes, every rule alike, beside
// text past the grid's right edge (RFC 8200's "|  Option Data" under "- - - -"): a variable
// field, open at its end, past the last mark. The rules are read as if their marks ran on as
// far as the dashes do (each box a bit, as the rest of the rule has them), the field's box
// open, and the dashes as printed are kept to draw it back (Text.RunTail).
func (p *parser) runOnTail(first, last int) {
	tail, r, rules, text := "", -1, 0, false
	for i := first; i <= last; i++ {
		l := p.lines[i]
		if p.at(i, p.x0) != '+' {
			if r >= 0 && len(l) > r+1 && l[r] == '|' && strings.TrimSpace(string(l[r+1:])) != "" {
				text = true // (a row's text past the last mark of the rule above it)
			}
			continue
		}
		k := slices.Index(l, '+')
		for j := k; j < len(l); j++ {
			if l[j] == '+' {
				k = j
			}
		}
		t := string(l[k+1:])
		if r >= 0 && (k != r || t != tail) {
			return
		}
		r, tail = k, t
		rules++
	}
	if rules < 2 || !text || len(tail) < 4 || !runTailRE().MatchString(tail) {
		return
	}
	prev := slices.Index(p.lines[first], '+')
	for j := prev; j >= 0 && j < r; j++ {
		if p.lines[first][j] == '+' {
			prev = j
		}
	}
	g := r - prev
	if prev < 0 || g < 2 || len(tail)/g == 0 {
		return
	}
	ext := []rune(strings.Repeat(strings.Repeat("-", g-1)+"+", len(tail)/g))
	for i := first; i <= last; i++ {
		if p.at(i, p.x0) == '+' {
			p.lines[i] = append(p.lines[i][:r+1:r+1], ext...)
		}
	}
	p.runTail = tail
}

// leftNote cuts the text left of the grid's edge on line i, a space between it and the edge,
// and returns it ("" for none); text touching the edge is an error.
func (p *parser) leftNote(i int) (string, error) {
	for k := 0; k < p.x0 && k < len(p.lines[i]); k++ {
		if p.lines[i][k] == ' ' {
			continue
		}
		if p.lines[i][p.x0-1] != ' ' {
			return "", p.errf(i, k, "text left of the grid's edge (column %d)", p.x0+1)
		}
		note := strings.TrimRight(string(p.lines[i][:p.x0]), " ")
		for c := 0; c < p.x0; c++ {
			p.lines[i][c] = ' '
		}
		return note, nil
	}
	return "", nil
}

// readGrid reads the grid's geometry: its elision mark, ruler, width of a bit, rules closing
// a field mid-row and edges slipped off a bit boundary.
func (p *parser) readGrid(first, last int) error {
	if err := p.readElision(first, last); err != nil {
		return err
	}
	if err := p.readRuler(first); err != nil {
		return err
	}
	if err := p.geometry(first, last); err != nil {
		return err
	}
	p.closingRules(first, last)
	p.slippedEdges(first, last)
	return nil
}

// nameSpec names the spec: its Caption is the figure's caption as printed under it ("Figure
// 1: VXLAN Frame Format", the drawing's title); its Name the title right over the grid
// ("VXLAN Header"), else the source's name, else the caption; the source line, then the notes
// around the figure, are its description.
func nameSpec(spec *bytegrid.Spec, heading, caption, right, below string) {
	spec.Caption = caption
	switch {
	case heading != "":
		if spec.Desc == "" && spec.Name != "RFC figure" {
			spec.Desc = spec.Name
		}
		spec.Name = heading
	case caption != "" && spec.Name == "RFC figure":
		spec.Name = strings.TrimSpace(captionRE().ReplaceAllString(caption, ""))
	}
	if notes := strings.TrimSpace(right + "\n" + below); notes != "" {
		spec.Desc = strings.TrimSpace(spec.Desc + "\n" + noteText(right, below, caption))
	}
}

// rightNotes cuts from the grid's lines the text right of its right edge, a space after the
// edge ('|', '+' or ':' at the edge's column): notes and legends in its margin (RFC 6733's
// "R(equest), P(roxiable)", RFC 9147's "Legend:"), kept as printed (Text.RightNotes).
func (p *parser) rightNotes(first, last int) string {
	r := p.col(p.rb)
	// Rules running on past the grid's edge with dashes (RFC 8754's TLV, "+-+-+-----------"):
	// the text beside them is a field the ruler does not cover, not a note.
	runOn := false
	for i := first; i <= last; i++ {
		if l := p.lines[i]; p.at(i, p.x0) == '+' && len(l) > r+8 && strings.Trim(string(l[r+1:]), "-") == "" {
			runOn = true
		}
	}
	var notes []string
	for i := first; i <= last; i++ {
		l := p.lines[i]
		if len(l) <= r+1 || !strings.ContainsRune("|+:", l[r]) && !p.markAt(i, r) {
			continue
		}
		if runOn && l[r] != '+' && strings.TrimSpace(string(l[r+1:])) != "" {
			p.warn(i, r+1, "%q past the grid's right edge, under rules running on past it: a field the ruler does not cover, not read", strings.TrimSpace(string(l[r+1:])))
			continue
		}
		rest := string(l[r+1:])
		if t := strings.TrimSpace(rest); t == "" || strings.Contains(rest, "...") {
			continue // (a rule running on, an open end: the rules' own)
		}
		// After an edge a space; after a rule's last '+' a space or its dashes (RFC 2865's
		// "+-+-+-", RFC 4303's "+-+ ----" bracketing what it covers).
		if rest[0] != ' ' && !(l[r] == '+' && strings.Trim(rest, "-") == "") {
			continue
		}
		for len(notes) < i-first {
			notes = append(notes, "")
		}
		notes = append(notes, rest)
		p.lines[i] = l[:r+1]
	}
	return strings.Join(notes, "\n")
}

// captionRE is a figure's caption: "Figure 3: DTLS 1.3 Unified Header".
var captionRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?i:figure|fig\.|table)\s+[0-9A-Za-z.-]+\s*[:.-]`) })

// below reads the lines under the grid: a ruler under the box, a legend, the figure's caption
// ("Figure 3: …"), kept as printed (Text.Below); the caption is returned too. A line under the
// grid that holds a rule or an edge at a bit boundary is a part of the figure left unread: it
// is named in a warning.
func (p *parser) below(last int) (string, string) {
	end := len(p.lines)
	for end > last+1 && strings.TrimSpace(string(p.lines[end-1])) == "" {
		end--
	}
	if end <= last+1 {
		return "", ""
	}
	var out []string
	caption := ""
	for i := last + 1; i < end; i++ {
		l := string(p.lines[i])
		s := strings.TrimSpace(l)
		out = append(out, l)
		switch {
		case s == "":
		case captionRE().MatchString(s) && caption == "":
			caption = s
		case strings.Contains(s, "+-+") || strings.Contains(s, "+--") || strings.Contains(s, "-+-"):
			p.warn(i, strings.Index(l, "+"), "a rule under the grid, not read (a second figure?): kept as text, not drawn as boxes")
		}
	}
	return strings.Join(out, "\n"), caption
}

// noteText is the notes of a figure as a description: the right margin's lines and the text
// under the grid, each trimmed, blank lines, rulers and the caption left out.
func noteText(right, below, caption string) string {
	var out []string
	for _, l := range strings.Split(right+"\n"+below, "\n") {
		if t := strings.TrimSpace(l); t != "" && t != caption && strings.Trim(t, " 0123456789") != "" {
			out = append(out, t)
		}
	}
	return strings.Join(out, "\n")
}

// readElision finds an elision mark ("//", "/ /" or "~~", between dashes) in the grid's rules
// (RFC 791's "+---------//--------+"): it stands for no bits, and is read as the dashes it
// interrupts. A figure may carry one, at one column, in any of its rules.
func (p *parser) readElision(first, last int) error {
	side := func(r rune) bool { return r == '-' || r == '+' }
	for i := first; i <= last; i++ {
		if p.at(i, p.x0) != '+' {
			continue
		}
		line := p.lines[i]
		for c := p.x0 + 1; c < len(line); c++ {
			if line[c] != '/' && line[c] != '~' {
				continue
			}
			for _, m := range []string{"//", "/ /", "~~"} {
				w := len(m)
				if c+w >= len(line) || string(line[c:c+w]) != m || !side(line[c-1]) || !side(line[c+w]) {
					continue
				}
				if p.elide != "" && (c != p.elideAt || m != p.elide) {
					return p.errf(i, c, "a second elision mark %q: a figure may elide at one column, and has %q at column %d", m, p.elide, p.elideAt+1)
				}
				p.elide, p.elideAt = m, c
				for k := c; k < c+w; k++ {
					line[k] = '-'
				}
				break
			}
		}
	}
	return nil
}

// readRuler reads the ruler lines above the first rule (the last two lines of digits).
func (p *parser) readRuler(first int) error {
	rl := p.rulerLines(first)
	p.ruler = bytegrid.RulerNone
	if len(rl) == 0 {
		return nil
	}
	nums := numbers(p.lines[rl[len(rl)-1]])
	multi := multiDigit(nums)
	// Bit numbers counting 0, 1, 2, … evenly spaced, some of two digits (RFC 3168's "0   1 …
	// 10  11"), are a line of units, not RFC 768's byte ruler ("0      7 8     15").
	numbered := multi && len(rl) == 1 && len(nums) >= 3 && evenCount(nums)
	if numbered {
		multi = false
		// (the columns of a number's last digit are the even ones)
		for k := range nums {
			nums[k].start = nums[k].end - 1
		}
	}
	switch {
	case multi && len(rl) == 1:
		p.ruler = bytegrid.RulerBytes
		p.bytes = true
	case len(rl) == 2:
		p.readTens(numbers(p.lines[rl[0]]), nums)
	case numbered:
		p.ruler = bytegrid.RulerNumbers // drawn back with its numbers whole
	default:
		p.ruler = bytegrid.RulerUnits
	}
	if p.bytes || len(nums) < 2 {
		return nil
	}
	return p.readUnits(rl[len(rl)-1], nums)
}

// rulerLines are the lines of the ruler over the figure's first rule (one or two: its tens
// and its units), blank lines between them and the rule allowed.
func (p *parser) rulerLines(first int) []int {
	var rl []int
	for i := first - 1; i >= 0 && len(rl) < 2; i-- {
		s := strings.TrimSpace(string(p.lines[i]))
		if s == "" {
			if len(rl) > 0 {
				break
			}
			continue
		}
		if !isRuler(s) {
			break
		}
		rl = append([]int{i}, rl...)
	}
	return rl
}

// multiDigit reports whether a ruler line holds a number of several digits.
func multiDigit(nums []number) bool {
	for _, n := range nums {
		if n.end-n.start > 1 {
			return true
		}
	}
	return false
}

// evenCount reports whether nums count 0, 1, 2, … (from the first) evenly spaced.
func evenCount(nums []number) bool {
	for k, n := range nums {
		if n.v != nums[0].v+k || k > 0 && n.end-nums[k-1].end != nums[1].end-nums[0].end {
			return false
		}
	}
	return true
}

// readTens reads a ruler of two lines, tens over units: RFC 791's (a tens digit over every
// tenth bit), RFC 1035's (over every bit from 10), RFC 7296's (no "0" over bit 0).
func (p *parser) readTens(tens, nums []number) {
	p.ruler = bytegrid.RulerTens
	if len(tens) >= 2 && len(nums) >= 2 && tens[1].start-tens[0].start == nums[1].start-nums[0].start {
		p.ruler = bytegrid.RulerTensAll
	}
	p.noZero = p.ruler == bytegrid.RulerTens && len(tens) > 0
	for _, t := range tens {
		if t.v == 0 {
			p.noZero = false
		}
	}
}

// readUnits reads the width of a bit from the units line (line l) and where its digits stand
// in their bit: over its middle, or over the '+' before it (RFC 4271).
func (p *parser) readUnits(l int, nums []number) error {
	p.units = len(nums)
	p.cpb = nums[1].start - nums[0].start
	if p.cpb < 2 || p.cpb > 8 {
		return p.errf(l, nums[1].start, "ruler digits %d columns apart: want 2 to 8", p.cpb)
	}
	if nums[0].v > nums[1].v {
		p.lsb0 = true
	}
	p.shift = nums[0].start - p.x0 - (p.cpb+1)/2
	if p.shift < -8 || p.shift > 8 {
		return p.errf(l, nums[0].start, "ruler digit %d columns off its bit", p.shift)
	}
	return nil
}

type number struct{ start, end, v int }

// numbers returns the numbers of a ruler line.
func numbers(l []rune) []number {
	var out []number
	for i := 0; i < len(l); {
		if l[i] < '0' || l[i] > '9' {
			i++
			continue
		}
		n := number{start: i}
		for i < len(l) && l[i] >= '0' && l[i] <= '9' {
			if n.v < 1<<20 {
				n.v = n.v*10 + int(l[i]-'0')
			}
			i++
		}
		n.end = i
		out = append(out, n)
	}
	return out
}

// geometry sets the width of a bit (when no ruler gave it) and of a row, from the rules.
func (p *parser) geometry(first, last int) error {
	minGap, right := 0, 0
	allNine := true
	for i := first; i <= last; i++ {
		if p.at(i, p.x0) != '+' {
			continue
		}
		prev := -1
		for c := p.x0; c < len(p.lines[i]); c++ {
			if p.lines[i][c] != '+' {
				continue
			}
			if prev >= 0 {
				g := c - prev
				if p.elide != "" && prev < p.elideAt && c > p.elideAt {
					g -= len(p.elide)
				}
				if minGap == 0 || g < minGap {
					minGap = g
				}
				if g%9 != 0 {
					allNine = false
				}
			}
			prev = c
			right = max(right, c)
		}
	}
	if right <= p.x0 {
		return p.errf(first, p.x0, "the rule has no right end")
	}
	p.width = right - p.x0
	if p.elide != "" && right > p.elideAt {
		p.width -= len(p.elide)
	}
	p.boxUnit(first, minGap, allNine)
	if p.bytes {
		if bc := p.byteWidth(); p.width%bc != 0 {
			return p.errf(first, right, "a byte-wide rule %d columns long: want a multiple of %d", p.width, bc)
		}
		p.rb = p.width / p.byteWidth() * 8
	} else {
		if p.width%p.cpb != 0 {
			return p.errf(first, right, "a rule %d columns long with bits %d columns wide", p.width, p.cpb)
		}
		p.rb = p.width / p.cpb
	}
	if p.rb < 1 || p.rb > bytegrid.MaxRowBits {
		return p.errf(first, right, "rows of %d bits: want 1 to %d", p.rb, bytegrid.MaxRowBits)
	}
	return nil
}

// boxUnit decides what a box of the rule holds when no ruler said it: the narrowest box
// minGap columns wide, allNine when every box is a multiple of nine.
func (p *parser) boxUnit(first, minGap int, allNine bool) {
	switch {
	case p.bytes:
	case p.cpb > 0:
	case minGap >= 9 && allNine:
		p.bytes = true
	case minGap >= 2 && minGap <= 8:
		p.cpb = minGap
		if minGap > 2 && p.width%minGap == 0 && (p.width/minGap)%8 != 0 {
			// "+-+" is a bit wherever RFCs draw it; a wider box under no ruler may be a bit,
			// a byte (RFC 1952's "+---+---+") or more, which the figure does not say: rows of
			// whole bytes (RFC 1035's "+--+--+" rows of 16) are read a box a bit; a row that
			// would not be whole bytes so is read a box a byte, and said.
			p.warn(first, p.x0, "no ruler says what a box holds, the rule's '+' marks stand %d columns apart, and a row of one bit a box would be %d bits, not whole bytes: each box read as one byte", minGap, p.width/minGap)
			p.bytes, p.byteCols, p.cpb = true, minGap, 0
		}
	case minGap > 9 && p.width%minGap == 0 && p.width/minGap >= 2 && (p.width%2 != 0 || (p.width/2)%8 != 0):
		// Boxes wider than a byte of nine columns under no ruler (RFC 2205's ERROR_SPEC,
		// fourteen columns; RFC 5925's TCP-AO, thirteen): bits of two columns would make a
		// row of no whole bytes, so each box is read as one byte, and said (a row of one
		// box says nothing: RFC 4760's boxes one width whatever their size).
		p.warn(first, p.x0, "no ruler says what a box holds, the rule's '+' marks stand %d columns apart, and bits of two columns would make rows of no whole bytes: each box read as one byte", minGap)
		p.bytes, p.byteCols = true, minGap
	default:
		p.cpb = 2
	}
}

// band is a run of a figure's content lines, [from, to): one row of boxes.
type band struct{ from, to int }

// bands reads the lines first..last of a figure into its bands and the rules between them:
// rules[i] is the line of the rule above band i (-1 for none), and one more is below the last.
func (p *parser) bands(first, last int) ([]band, []int, error) {
	var bands []band
	var rules []int // rules[i] is the line of the rule above band i (-1 for none); one more below
	rule := first
	for i := first + 1; i <= last+1; i++ {
		if i <= last && p.at(i, p.x0) != '+' {
			if len(bands) == 0 || bands[len(bands)-1].to != i {
				bands = append(bands, band{i, i + 1})
				rules = append(rules, rule)
				rule = -1
			} else {
				bands[len(bands)-1].to++
			}
			continue
		}
		if i <= last {
			if rule >= 0 && (len(bands) == 0 || bands[len(bands)-1].to <= rule) {
				return nil, nil, p.errf(i, p.x0, "two rules with no row between them")
			}
			rule = i
		}
	}
	rules = append(rules, rule) // below the last band (-1: open at the bottom)
	if len(bands) == 0 {
		return nil, nil, p.errf(first, p.x0, "a rule with no row under it")
	}
	if rules[len(rules)-1] >= 0 && rules[len(rules)-1] < bands[len(bands)-1].to {
		rules[len(rules)-1] = -1
	}
	return bands, rules, nil
}

// bandCells are the boxes of a figure's bands: all of them in order, those of each band, the
// bands whose boxes end before the row does, and whether "..." stands for a right edge (RFC
// 7540).
type bandCells struct {
	cells    []*cell
	byBand   [][]*cell
	index    map[*cell]int // a box's place in cells
	short    []bool
	edgeDots bool
	// Votes for how the rules are drawn: side edges crossing a rule not drawn there ('|' or
	// '+'), rules running on past the row with "-..." or not.
	crossBar, crossPlus [2]int
	runs, closed        int
}

// bandCells reads the boxes of each band from its '|' (or ':') edges on bit boundaries, with
// their text, line by line.
func (p *parser) bandCells(bands []band) (bandCells, error) {
	var cells []*cell
	byBand := make([][]*cell, len(bands))
	short := make([]bool, len(bands)) // a band whose boxes end before the row does
	edgeDots := false                 // "..." in place of a right edge (RFC 7540)
	for _, bd := range bands {
		p.snapEdges(bd)
	}
	for bi, bd := range bands {
		edges, open, dots := p.bandEdges(bd)
		edgeDots = edgeDots || dots
		short[bi] = len(edges) > 0 && edges[len(edges)-1] < p.rb
		if len(edges) < 2 {
			return bandCells{}, p.errf(bd.from, p.x0, "a row with no box: want '|' edges on bit boundaries")
		}
		if edges[0] != 0 && !(bi == 0 && p.leadCols > 0 && p.col(edges[0]) == p.x0+p.leadCols) {
			return bandCells{}, p.errf(bd.from, p.col(edges[0]), "a row that does not start at the grid's left edge")
		}
		if err := p.edgesOnBits(bd); err != nil {
			return bandCells{}, err
		}
		for k := 0; k+1 < len(edges); k++ {
			c := p.readCell(bi, bd, edges[k], edges[k+1], open && k == len(edges)-2)
			c.parent = len(cells)
			cells = append(cells, c)
			byBand[bi] = append(byBand[bi], c)
		}
	}
	p.runOnRows(bands, byBand)
	index := make(map[*cell]int, len(cells))
	for i, c := range cells {
		index[c] = i
	}
	return bandCells{cells: cells, byBand: byBand, index: index, short: short, edgeDots: edgeDots}, nil
}

// edgeOK reports whether line l holds an edge at column c: '|', ':' or a side mark.
func (p *parser) edgeOK(l, c int) bool {
	r := p.at(l, c)
	return r == '|' || r == ':' || p.markAt(l, c)
}

// bandEdges are the bits a band's boxes have edges at, the right end of the row added when
// its last box is open (anything on a line past its last edge), and whether "..." stands in
// place of the right edge (RFC 7540).
func (p *parser) bandEdges(bd band) (edges []int, open, dots bool) {
	for b := 0; b <= p.rb; b++ {
		if p.byteCols > 0 && p.byteCols <= 9 && b%8 != 0 {
			continue // (boxes a byte narrower than a column a bit: edges at bytes only)
		}
		c := p.col(b)
		for l := bd.from; l < bd.to; l++ {
			// (A mark inside the row is text, not an edge: RFC 7761's column of dots
			// standing for the options left out.)
			if r := p.at(l, c); b > 0 && b < p.rb && r != '|' && r != ':' {
				continue
			}
			if p.edgeOK(l, c) {
				edges = append(edges, b)
				break
			}
		}
	}
	if len(edges) > 0 && edges[len(edges)-1] < p.rb {
		end := p.col(edges[len(edges)-1])
		for l := bd.from; l < bd.to; l++ {
			if len(p.lines[l]) > end+1 {
				open = true
			}
		}
	}
	if !open {
		return edges, false, false
	}
	for l := bd.from; l < bd.to; l++ {
		if s := string(p.lines[l]); strings.HasSuffix(s, "...") && len(p.lines[l])-1 == p.col(p.rb) {
			dots = true
		}
	}
	return append(edges, p.rb), true, dots
}

// edgesOnBits refuses edge characters of a band that are not on a bit boundary: the
// figure's columns do not agree with its ruler or rules.
func (p *parser) edgesOnBits(bd band) error {
	for l := bd.from; l < bd.to; l++ {
		for c, r := range p.lines[l] {
			// (Text right of the grid is a note in its margin: RFC 4303's "^Int.")
			if c < p.x0 || c > p.col(p.rb) || !p.edgeOK(l, c) {
				continue
			}
			if _, ok := p.bitAt(c); !ok && r == '|' {
				return p.errf(l, c, "an edge '|' between bit boundaries (bits are %d columns wide from column %d)", p.cpb, p.x0+1)
			}
		}
	}
	return nil
}

// readCell reads the box of band bi from bit from to bit to: its text line by line, its side
// edges and marks as printed.
func (p *parser) readCell(bi int, bd band, from, to int, open bool) *cell {
	c := &cell{band: bi, from: from, to: to, line: bd.from, c: p.col(from) + 1, open: open}
	c0, c1 := p.col(c.from)+1, p.col(c.to)
	if c.open {
		c1 = MaxColumns + 1
	}
	for l := bd.from; l < bd.to; l++ {
		if p.at(l, c0-1) == ':' || p.at(l, c1) == ':' {
			c.colon = true
		}
		if p.markAt(l, c0-1) || p.markAt(l, c1) {
			c.marks = make([]rune, bd.to-bd.from)
		}
		s, lead := "", 0
		if c0 < len(p.lines[l]) {
			raw := p.lines[l][c0:min(c1, len(p.lines[l]))]
			for lead < len(raw) && raw[lead] == ' ' {
				lead++
			}
			s = strings.TrimSpace(string(raw))
		}
		c.text = append(c.text, s)
		if s != "" {
			c.textLine = append(c.textLine, l-bd.from)
			c.at = append(c.at, textAt{line: l, col: c0 + lead, s: s})
		}
	}
	for l := bd.from; l < bd.to; l++ {
		c.edges = append(c.edges, p.at(l, c0-1), p.at(l, c1))
	}
	if c.marks != nil {
		c.rmarks = make([]rune, bd.to-bd.from)
		for l := bd.from; l < bd.to; l++ {
			c.marks[l-bd.from] = p.at(l, c0-1)
			c.rmarks[l-bd.from] = p.at(l, c1)
		}
	}
	return c
}

// runOnRows marks a row ending in '.' on every line whose next row starts with '.' on every
// line: the value of its last box runs on into the next row's first box (RFC 4340's Sequence
// Number, high bits and low bits), two fields of fixed size.
func (p *parser) runOnRows(bands []band, byBand [][]*cell) {
	for bi := 0; bi+1 < len(bands); bi++ {
		if len(byBand[bi]) == 0 || len(byBand[bi+1]) == 0 {
			continue
		}
		l, f := byBand[bi][len(byBand[bi])-1], byBand[bi+1][0]
		if l.to != p.rb || l.open || f.from != 0 || f.open || !p.dotted(bands[bi], p.col(p.rb)) || !p.dotted(bands[bi+1], p.col(0)) ||
			p.otherMarks(bands[bi], p.col(l.from)) || p.otherMarks(bands[bi+1], p.col(f.to)) {
			continue
		}
		l.marks, f.marks, l.runOn = nil, nil, true
	}
}

// dotted reports whether every line of a band has a '.' side mark at column c.
func (p *parser) dotted(bd band, c int) bool {
	for l := bd.from; l < bd.to; l++ {
		if p.at(l, c) != '.' || !p.markAt(l, c) {
			return false
		}
	}
	return true
}

// otherMarks reports whether a line of a band has a side mark at column c.
func (p *parser) otherMarks(bd band, c int) bool {
	for l := bd.from; l < bd.to; l++ {
		if p.markAt(l, c) {
			return true
		}
	}
	return false
}

// snapEdges moves each '|' of a band that stands one column off a bit boundary onto it, when
// a ruler says where the boundaries are and the boundary's column is blank: a printing slip
// (RFC 5905's Stratum and Poll edges stand a column right). An edge in the middle of a bit
// two columns wide is as near the boundary on its left as the one on its right: it goes to
// the one that is a byte boundary; when neither or both are, it goes the way the line's other
// edges went if they all went one way (a row printed a column short, RFC 2516's PPPoE
// header), with a warning, and else stays (an error, later).
func (p *parser) snapEdges(bd band) {
	if p.bytes || p.ruler == bytegrid.RulerNone || p.cpb < 2 {
		return
	}
	for l := bd.from; l < bd.to; l++ {
		p.snapLine(l)
	}
}

// snapLine snaps the edges of line l (see snapEdges).
func (p *parser) snapLine(l int) {
	dir := 0 // the way the line's edges moved: -1 left, 1 right, 2 both
	var torn []int
	for c := p.x0 + 1; c < p.col(p.rb) && c < len(p.lines[l]); c++ {
		if p.lines[l][c] != '|' {
			continue
		}
		b, to, ok := p.snapTo(c)
		switch {
		case !ok:
		case to < 0:
			torn = append(torn, c)
		case p.moveEdge(l, c, to):
			dir = moved(dir, to-b)
		}
	}
	if dir != -1 && dir != 1 {
		return
	}
	for _, c := range torn {
		b, _, _ := p.snapTo(c)
		to := b + max(dir, 0)
		if p.moveEdge(l, c, to) {
			p.warn(l, c, "an edge '|' a column off between the boundaries before bits %d and %d: read on bit %d's, as this line's other edges each stand a column %s of theirs", b, b+1, to, map[int]string{-1: "right", 1: "left"}[dir])
		}
	}
}

// moved is the way a line's edges moved (see snapLine) once one more moved to the boundary
// on its left (k 0) or on its right (k 1).
func moved(dir, k int) int {
	d := 2*k - 1
	if dir == 0 || dir == d {
		return d
	}
	return 2
}

// snapTo says where the edge at column c goes: ok is false when it stands on a boundary (or
// in an elision mark); b is the boundary on its left; to is the boundary it goes to, -1 when
// both are as near and the byte boundaries do not choose.
func (p *parser) snapTo(c int) (b, to int, ok bool) {
	u, ok := p.unshifted(c)
	if !ok {
		return 0, 0, false
	}
	rel := u - p.x0
	r := rel % p.cpb
	if r == 0 {
		return 0, 0, false
	}
	b, to = rel/p.cpb, -1 // the boundary on the left; b+1 on the right
	switch {
	case r == 1 && p.cpb == 2:
		if b%8 == 0 && (b+1)%8 != 0 {
			to = b
		} else if (b+1)%8 == 0 && b%8 != 0 {
			to = b + 1
		}
	case r == 1:
		to = b
	case p.cpb-r == 1:
		to = b + 1
	}
	if to > p.rb {
		return 0, 0, false
	}
	return b, to, true
}

// moveEdge moves the edge at column c of line l onto the boundary before bit to, when that
// column is blank or just past the line's end (a right edge printed a column short).
func (p *parser) moveEdge(l, c, to int) bool {
	tc := p.col(to)
	if tc == len(p.lines[l]) && c == tc-1 {
		p.lines[l] = append(p.lines[l], ' ')
	}
	line := p.lines[l]
	if tc >= len(line) || line[tc] != ' ' {
		return false
	}
	line[tc], line[c] = '|', ' '
	return true
}

// readRules reads the rules between the bands: a rule present over a bit (solid, dashed or
// double) counts for the boxes above and below it; an absent one joins them into one field,
// whose name may be written on the rule (RFC 8200). It reports whether a rule holds "..."
// and whether rules are ticked only where fields begin and end, and sets opts.Text.Open for a
// figure open at the bottom.
func (p *parser) readRules(rules []int, bc *bandCells, opts *bytegrid.Options) (dots, ticksAtFields bool) {
	// The rules: horizontal present over each bit, dashed, double; an absent one joins the
	// boxes above and below.
	for ri, rl := range rules {
		above, below := ri-1, ri
		if rl < 0 {
			// Open at the bottom: the boxes of the last band are variable.
			if ri == len(rules)-1 {
				for _, c := range bc.byBand[above] {
					c.colon = true
				}
				opts.Text.Open = "bottom"
			}
			continue
		}
		line := p.lines[rl]
		if strings.Contains(string(line), "...") {
			dots = true
		}
		if !p.bytes {
			p.ruleStyle(ri, rl)
		}
		ticksAtFields = ticksAtFields || p.ticksAtFields(rl)
		last := ri == len(rules)-1
		present, textOn, textFrom := p.ruleBits(rl, above, below, last, bc)
		p.crossEdges(rl, present, above, below, bc)
		// Rules that run on past the row's end with "-..." (RFC 4271).
		if strings.HasPrefix(string(line[min(p.col(p.rb)+1, len(line)):]), "-...") {
			bc.runs++
		} else {
			bc.closed++
		}
		p.nameOnRule(rl, textOn, textFrom, above, below, bc)
	}
	return dots, ticksAtFields
}

// ruleStyle notes how rule ri (line rl) is marked: at every bit ('b'), at every byte ('y':
// RFC 2453's "+---------------+---------------+" under a 32-bit field) or only where fields
// begin and end ('f').
func (p *parser) ruleStyle(ri, rl int) {
	style := byte('b')
	for b := 1; b < p.rb; b++ {
		if f := p.at(rl, p.col(b)); (f == '-' || f == '=') && p.at(rl, p.col(b)-1) == f {
			if b%8 == 0 {
				style = 'f'
				break
			}
			style = 'y'
		}
	}
	for len(p.ruleTicks) < ri {
		p.ruleTicks = append(p.ruleTicks, 'b')
	}
	p.ruleTicks = append(p.ruleTicks, style)
}

// ticksAtFields reports whether the rule on line rl is marked only where fields begin and end
// (RFC 7540, RFC 6455; RFC 791's "+---------//--------+" over two bytes).
func (p *parser) ticksAtFields(rl int) bool {
	for b := 1; b < p.rb; b++ {
		if p.bytes && (b%8 != 0 || p.at(rl, p.col(p.rb)) != '+') {
			continue // (a byte rule cut short: RFC 768's "+---------------- ...")
		}
		if p.at(rl, p.col(b)) == '-' && p.at(rl, p.col(b)-1) == '-' {
			return true
		}
	}
	return false
}

// ruleBits reads the rule on line rl bit by bit: present (solid, dashed or double) over the
// boxes of bands above and below, which it counts, or absent, joining them; it returns where
// it is present, and the text written on it where absent (and the column of its first
// character).
func (p *parser) ruleBits(rl, above, below int, last bool, bc *bandCells) (present []bool, textOn []rune, textFrom int) {
	textFrom = -1
	present = make([]bool, p.rb)
	for b := 0; b < p.rb; b++ {
		var dashed, double bool
		present[b], dashed, double = p.ruleAtBit(rl, b)
		a, d := bc.cellAt(above, b), bc.cellAt(below, b)
		if present[b] {
			countRule(a, d, dashed)
			if double && d != nil {
				d.double = true
			}
			if double && d == nil && last {
				p.doubleEnd = true // the grid closed by a double rule (RFC 3550)
			}
			continue
		}
		if a != nil && d != nil {
			x, y := bc.find(bc.index[a]), bc.find(bc.index[d])
			if x != y {
				bc.cells[y].parent = x
			}
			if textFrom < 0 {
				textFrom = p.col(b) + 1
			}
			for c := p.col(b) + 1; c <= p.col(b+1); c++ {
				if r := p.at(rl, c); c < p.col(b+1) || !isEdgeMark(r, b+1 == p.rb) {
					textOn = append(textOn, r)
				}
			}
		}
		if a != nil && d == nil && last && strings.Contains(string(p.lines[rl]), "...") {
			a.open = true
		}
	}
	return present, textOn, textFrom
}

// ruleAtBit reports whether the rule on line rl is drawn over bit b, dashed ("+ - +") or
// double ("+=+").
func (p *parser) ruleAtBit(rl, b int) (present, dashed, double bool) {
	lo, hi := p.col(b)+1, p.col(b+1)
	if p.bytes {
		bc := p.byteWidth()
		lo = p.shifted(p.x0 + bc*(b/8) + 1 + (b%8)*(bc-2)/8)
		hi = lo + 1
	}
	for c := lo; c < hi; c++ {
		switch p.at(rl, c) {
		case '-':
			// (but a hyphen in a name written on the rule: "Value-ICV")
			present = present || p.ruleDash(rl, c)
		case '=':
			present, double = true, true
		}
	}
	if !present && !p.bytes && p.ruleDash(rl, p.col(b+1)) {
		return true, true, double
	}
	if !present && !p.bytes && b > 0 && p.ruleDash(rl, p.col(b)) {
		return true, true, double
	}
	return present, dashed, double
}

// countRule counts a rule drawn over boxes a (above) and d (below), either nil, as dashed or
// solid.
func countRule(a, d *cell, dashed bool) {
	for _, c := range []*cell{a, d} {
		switch {
		case c == nil:
		case dashed:
			c.dashed++
		default:
			c.solid++
		}
	}
}

// crossEdges counts the side edges crossing the rule on line rl where no rule meets them:
// '+' (RFC 8200) or '|' (RFC 1035), as the figure draws them.
func (p *parser) crossEdges(rl int, present []bool, above, below int, bc *bandCells) {
	for b := 0; b <= p.rb; b++ {
		if b > 0 && present[b-1] || b < p.rb && present[b] {
			continue
		}
		bb := min(b, p.rb-1)
		if bc.cellAt(above, bb) == nil || bc.cellAt(below, bb) == nil {
			continue
		}
		side := 0 // the grid's left edge and the inner ones
		if b == p.rb {
			side = 1 // its right edge (RFC 4302 draws '+' on the left, '|' on the right)
		}
		switch p.at(rl, p.col(b)) {
		case '|':
			bc.crossBar[side]++
		case '+':
			if b == 0 && p.closing[rl] {
				bc.crossBar[side]++ // (printed '|', read as a rule's '+')
			} else {
				bc.crossPlus[side]++
			}
		}
	}
}

// isEdgeMark reports whether r, on a rule line at a boundary between bits, is an edge mark
// rather than a letter of a name written on the rule: '+' or '|' anywhere, and at the grid's
// right edge also the marks of a variable field's side ('/', '\\', ':', '~'; RFC 4034's
// "+-+-+         Signer's Name         /").
func isEdgeMark(r rune, gridEdge bool) bool {
	return r == '+' || r == '|' || gridEdge && strings.ContainsRune(`/\:~`, r)
}

// nameOnRule gives the name written on an inner rule (RFC 8200), textOn from column textFrom,
// to the field of the boxes it joins.
func (p *parser) nameOnRule(rl int, textOn []rune, textFrom, above, below int, bc *bandCells) {
	t := strings.TrimSpace(string(textOn))
	if t == "" || strings.Trim(t, "+-= ") == "" {
		return
	}
	for b := 0; b < p.rb; b++ {
		if d := bc.cellAt(below, b); d != nil && bc.cellAt(above, b) != nil {
			root := bc.cells[bc.find(bc.index[d])]
			root.extra = append(root.extra, strings.TrimSpace(strings.Trim(t, "+")))
			lead := 0
			for lead < len(textOn) && textOn[lead] == ' ' {
				lead++
			}
			root.at = append(root.at, textAt{line: rl, col: textFrom + lead, s: root.extra[len(root.extra)-1]})
			return
		}
	}
}

// cellAt is the box of band bi over bit b, or nil.
func (bc *bandCells) cellAt(bi, b int) *cell {
	if bi < 0 || bi >= len(bc.byBand) {
		return nil
	}
	for _, c := range bc.byBand[bi] {
		if b >= c.from && b < c.to {
			return c
		}
	}
	return nil
}

// find is the first box of the field box i is joined into (union-find, paths halved).
func (bc *bandCells) find(i int) int {
	cells := bc.cells
	for cells[i].parent != i {
		cells[i].parent = cells[cells[i].parent].parent
		i = cells[i].parent
	}
	return i
}

var ifRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(.*?),? (\(?if .*\)?)$`) })

// fields reads the grid's bands and rules into fields.
func (p *parser) fields(first, last int) ([]bytegrid.Field, bytegrid.Options, error) {
	var opts bytegrid.Options
	bands, rules, err := p.bands(first, last)
	if err != nil {
		return nil, opts, err
	}
	bc, err := p.bandCells(bands)
	if err != nil {
		return nil, opts, err
	}
	dots, ticksAtFields := p.readRules(rules, &bc, &opts)
	st := &fieldState{bands: bands, rules: rules, short: bc.short, alignVotes: map[string]int{}}
	if p.leadCols > 0 {
		b, ok := p.bitAt(p.x0 + p.leadCols)
		if !ok || b >= p.rb {
			return nil, opts, p.errf(first, p.x0+p.leadCols, "the grid's first rows start %d columns right of its edge, not at a bit boundary", p.leadCols)
		}
		st.off = b // (the bits before are none of the figure's)
	}
	for _, bd := range bands {
		if n := bd.to - bd.from; st.rowLines == 0 || n < st.rowLines {
			st.rowLines = n
		}
	}
	groups := bc.groups()
	for gi, g := range groups {
		if err := p.readGroup(st, g, gi > 0 && groups[gi-1][len(groups[gi-1])-1].band != g[0].band); err != nil {
			return nil, opts, err
		}
	}
	p.rowLines = st.rowLines
	p.gridOptions(&opts, st, ticksAtFields)
	p.openOptions(&opts, st, &bc, dots)
	p.placeLabels(st.fields, st.places, opts)
	p.keepPieces(st, &opts)
	if len(st.fields) == 0 {
		return nil, opts, p.errf(first, p.x0, "no fields")
	}
	return st.fields, opts, nil
}

// fieldState is what fields gathers reading the groups of boxes, field after field: the
// fields, and the votes and marks that say how the figure draws them.
type fieldState struct {
	bands      []band
	rules      []int
	short      []bool
	fields     []bytegrid.Field
	off        int
	rowLines   int
	alignVotes map[string]int
	marks      [3]map[rune]int // the side marks of variable rows: first, middle, last line
	places     []labelPlace    // where the figure printed each field's label
	dotsLabel  string          // the text after a label open at its end ("...")
	dotsBottom bool            // the figure ends under it
	openRule   int
	openBox    bool // a box open at its right, its label not ending "..."
	colons     bool // a ':' or marked edge
	// barVariable: a variable field drawn with '|' side edges (a box of dots).
	barVariable bool
	cellsOf     [][]*cell // the boxes of each field, in order
}

// groups are the groups of joined boxes, in the order of their first box: the fields.
func (bc *bandCells) groups() [][]*cell {
	var groups [][]*cell
	seen := map[int]int{}
	for i, c := range bc.cells {
		r := bc.find(i)
		g, ok := seen[r]
		if !ok {
			g = len(groups)
			seen[r] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], c)
	}
	return groups
}

// readGroup reads the field of a group of boxes, g, into st; newRow says the group before it
// ended in an earlier row.
func (p *parser) readGroup(st *fieldState, g []*cell, newRow bool) error {
	f := bytegrid.Field{Offset: st.off}
	multi := len(g) > 1
	lines, bits := p.groupBoxes(st, g, &f)
	f.Bits = bits
	// A box of dots alone, a line each, stands for the items of a list left out (RFC 7761's
	// Hello options): a variable field.
	dotsBox := len(lines) > 1 && strings.Trim(strings.Join(lines, ""), ".") == ""
	if dotsBox {
		f.Variable, st.barVariable = true, true
	}
	// A box continued across a rule whose name stands on several lines of one of its boxes
	// (RFC 8684's "Subtype-specific data" over "(variable length)") is stacked there.
	if namedBoxes(g) == 1 || consecutiveText(g) {
		multi = false
	}
	f.Label, f.Name = labelOf(lines, multi)
	if dotsBox {
		f.Label, f.Name = bytegrid.LabelStacked, strings.Join(lines, " ") // a dot a line
	}
	if f.Variable {
		p.openLabel(st, g, &f)
	}
	readCondition(&f)
	c0 := g[0]
	if tall := p.tallness(st, g); tall > st.rowLines {
		f.Lines = tall
	}
	bd := st.bands[c0.band]
	if f.Name == "" && len(g) == 1 && c0.from > 0 && !c0.open && !newRow {
		// A blank box between two edges inside a row (RFC 2890's "|C| |K|S|") is a field of
		// its own, unnamed: a field continued from the row before starts its row.
		f.Kind = bytegrid.Reserved
		st.fields = append(st.fields, f)
		st.cellsOf = append(st.cellsOf, g)
		p.fieldAt = append(p.fieldAt, textAt{line: bd.from, col: c0.c})
		st.off += bits
		return nil
	}
	if f.Name == "" || isContinued(f.Name, st.fields) {
		// A box with no name, or "Name (continued)", continues the field before it.
		if len(st.fields) == 0 {
			return p.errf(bd.from, c0.c, "a box with no name, and no field before it to continue")
		}
		prev := &st.fields[len(st.fields)-1]
		st.cellsOf[len(st.cellsOf)-1] = append(st.cellsOf[len(st.cellsOf)-1], g...)
		prev.Bits += bits
		prev.Variable = prev.Variable || f.Variable
		st.off += bits
		return nil
	}
	p.addField(st, g, f)
	return nil
}

// addField adds f, the field of the boxes g, to st with where its label was printed.
func (p *parser) addField(st *fieldState, g []*cell, f bytegrid.Field) {
	c0 := g[0]
	if isReserved(f.Name) {
		f.Kind = bytegrid.Reserved
	}
	// A field starting a row after a short one (RFC 7540's rows of 24 and 16 bits).
	if c0.from == 0 && c0.band > 0 && st.short[c0.band-1] {
		f.RowBreak = true
	}
	if !f.Optional {
		f.Condition = ""
	}
	if f.Variable && f.Label != bytegrid.LabelAuto && f.Label != bytegrid.LabelStacked {
		f.Label = bytegrid.LabelAuto
	}
	p.leftOutIn(st, g, &f)
	st.places = append(st.places, p.placeOf(g, st.bands, len(st.fields)))
	st.fields = append(st.fields, f)
	st.cellsOf = append(st.cellsOf, g)
	at := textAt{line: st.bands[c0.band].from, col: c0.c}
	if len(c0.at) > 0 {
		at = c0.at[0]
	}
	p.fieldAt = append(p.fieldAt, at)
	st.off += f.Bits
}

// groupBoxes reads the boxes of a group: their text's lines and bits, and what their edges
// and rules say of the field (variable, its marks, optional, double rule, run on), with the
// votes for where a row's label stands.
func (p *parser) groupBoxes(st *fieldState, g []*cell, f *bytegrid.Field) (lines []string, bits int) {
	multi := len(g) > 1
	dashedAll := true // every rule around it is dashed: an optional field
	for _, c := range g {
		bits += c.to - c.from
		for _, t := range c.text {
			if t != "" {
				lines = append(lines, t)
			}
		}
		lines = append(lines, c.extra...)
		if c.colon || c.open || c.marks != nil {
			f.Variable = true
		}
		st.colons = st.colons || c.colon || c.marks != nil
		if m := p.boxMarks(st, g, c); m != "" {
			f.Marks = m
		}
		dashedAll = dashedAll && c.dashed > 0 && c.solid == 0
		if c.double {
			f.DoubleRule = true
		}
		f.RunOn = c.runOn // (the group's last box)
		if !multi {
			voteAlign(st.alignVotes, c)
		}
	}
	f.Optional = dashedAll
	return lines, bits
}

// boxMarks are the side edges of a box filling a row of a field of one row that the
// default does not draw: ':' edges (RFC 3550's ": ... :"), marks no one pattern draws (RFC
// 9147's '/' on one line of four), kept line by line; "" for none. The marks of every
// variable row are counted in st.
func (p *parser) boxMarks(st *fieldState, g []*cell, c *cell) string {
	if c.from != 0 || c.to != p.rb {
		return ""
	}
	if c.colon && c.marks == nil && fullRows(g, p.rb) == 1 && !colonPattern(c.edges) {
		return string(c.edges)
	}
	if c.marks == nil {
		return ""
	}
	edgeVotes(c.marks, &st.marks)
	if fullRows(g, p.rb) != 1 || regularMarks(c.marks, c.rmarks) {
		return ""
	}
	var m strings.Builder
	for k := range c.marks {
		m.WriteRune(c.marks[k])
		m.WriteRune(c.rmarks[k])
	}
	return m.String()
}

// voteAlign counts where the text of a box of one field stands in its lines: "middle", "top"
// or "bottom".
func voteAlign(votes map[string]int, c *cell) {
	n := len(c.textLine)
	if n == 0 || n >= len(c.text) || c.textLine[n-1]-c.textLine[0] != n-1 {
		return
	}
	switch c.textLine[0] {
	case (len(c.text) - n) / 2:
		votes["middle"]++
	case 0:
		votes["top"]++
	case len(c.text) - n:
		votes["bottom"]++
	}
}

// namedBoxes counts the names in a group: its boxes with text, and the names on its rules.
func namedBoxes(g []*cell) int {
	named := 0
	for _, c := range g {
		named += len(c.extra)
		for _, t := range c.text {
			if t != "" {
				named++
				break
			}
		}
	}
	return named
}

// consecutiveText reports whether the text of the boxes g, a field continued across rules,
// stands on consecutive lines of the figure, the rule lines between its rows included (RFC
// 4443's "As much of invoking packet" over "as possible without the ICMPv6 packet", on the
// crossing line, over "exceeding the minimum IPv6 MTU"): one label stacked over its rows.
func consecutiveText(g []*cell) bool {
	var ls []int
	for _, c := range g {
		for _, a := range c.at {
			ls = append(ls, a.line)
		}
	}
	if len(ls) < 2 {
		return false
	}
	slices.Sort(ls)
	for i := 1; i < len(ls); i++ {
		if ls[i] != ls[i-1]+1 {
			return false
		}
	}
	return true
}

// labelOf is the label of a field of lines of text: one letter a line is vertical (TCP's
// flags), several lines of one box stacked, else one name.
func labelOf(lines []string, multi bool) (bytegrid.LabelMode, string) {
	switch {
	case len(lines) > 1 && !multi && allShort(lines):
		return bytegrid.LabelVertical, strings.Join(lines, "")
	case len(lines) > 1 && !multi && anySpace(lines):
		return bytegrid.LabelStacked, strings.Join(lines, "\n")
	case len(lines) > 1 && !multi:
		return bytegrid.LabelStacked, strings.Join(lines, " ")
	}
	return bytegrid.LabelAuto, strings.Join(lines, " ")
}

// openLabel reads the label of a variable field: a box open at its right whose label ends
// "..." (RFC 768, RFC 792, RFC 5389) keeps what follows the name as printed, and how the rule
// under it ends; one whose label does not (RFC 2661's "Offset pad... (opt)") has no right
// edge. The dots are cut from the name but for a box of dots alone or dots on a line of their
// own (a list, read by readList).
func (p *parser) openLabel(st *fieldState, g []*cell, f *bytegrid.Field) {
	name := strings.TrimSpace(f.Name)
	last := g[len(g)-1]
	if last.open && strings.HasSuffix(name, "...") && len(last.at) > 0 && st.dotsLabel == "" {
		p.dotsAfter(st, last)
	}
	if last.open && !strings.HasSuffix(name, "...") && last.to == p.rb {
		st.openBox = true
	}
	f.Name = strings.TrimSpace(strings.TrimRight(name, "."))
	if !strings.HasSuffix(name, "...") || f.Name == "" {
		f.Name = name // (a box of dots alone keeps them: the items left out)
	}
	if ls := strings.Split(name, "\n"); len(ls) > 1 && strings.Trim(ls[len(ls)-1], ".") == "" {
		f.Name = name // (dots on a line of their own: a list, read by readList)
	}
}

// dotsAfter keeps the text after the name of the open box last, whose label ends "...", as
// printed (st.dotsLabel), and how the rule under it ends (st.openRule, st.dotsBottom).
func (p *parser) dotsAfter(st *fieldState, last *cell) {
	at := last.at[len(last.at)-1]
	lt := []rune(at.s)
	k := len(lt)
	for k > 0 && lt[k-1] == '.' {
		k--
	}
	j := k
	for j > 0 && lt[j-1] == ' ' {
		j--
	}
	if j == 0 || p.at(at.line, p.col(p.rb)) == '.' && len(p.lines[at.line]) == p.col(p.rb)+1 {
		return
	}
	st.dotsLabel = string(lt[j:])
	below := st.rules[last.band+1]
	st.dotsBottom = below < 0
	if below >= 0 && !strings.Contains(string(p.lines[below]), "...") {
		if e := len(p.lines[below]) - 1; e > p.col(last.from) {
			st.openRule = e - p.col(last.from)
		}
	}
}

// leftOutIn makes f variable, with a warning, when its cells hold rows left out
// (leftOutRows): the figure does not say how many rows it has.
func (p *parser) leftOutIn(st *fieldState, g []*cell, f *bytegrid.Field) {
	for _, l := range p.leftOut {
		for _, c := range g {
			if bd := st.bands[c.band]; l >= bd.from && l < bd.to {
				f.Variable = true
				p.warn(l, p.x0, "crossing lines one under another, no row between (rows left out): %q read as a variable field, not drawn back as printed", firstLine(f.Name))
				return
			}
		}
	}
}

// readCondition reads a field's condition: "Name, if …" or a line "(if …)"; it makes the
// field optional.
func readCondition(f *bytegrid.Field) {
	if f.Label == bytegrid.LabelStacked && strings.Contains(f.Name, "\n") {
		ls := strings.Split(f.Name, "\n")
		if l := ls[len(ls)-1]; strings.HasPrefix(l, "(if ") && strings.HasSuffix(l, ")") {
			f.Optional, f.Condition = true, l
			f.Name = strings.Join(ls[:len(ls)-1], "\n")
		}
	} else if m := ifRE().FindStringSubmatch(f.Name); m != nil && m[1] != "" && strings.Contains(f.Name, ", if ") {
		f.Optional, f.Condition, f.Name = true, m[2], m[1]
	}
}

// tallness is the lines of the rows a group fills (its tallest whole row), or of the one it
// starts in.
func (p *parser) tallness(st *fieldState, g []*cell) int {
	tall := 0
	for _, c := range g {
		if c.from == 0 && c.to == p.rb {
			tall = max(tall, st.bands[c.band].to-st.bands[c.band].from)
		}
	}
	if tall == 0 {
		b := st.bands[g[0].band]
		tall = b.to - b.from
	}
	return tall
}

// gridOptions are the options that draw the grid as the figure has it: its rows, ruler,
// margin, marks and rules.
func (p *parser) gridOptions(opts *bytegrid.Options, st *fieldState, ticksAtFields bool) {
	best, lineAlign := 0, ""
	for _, a := range []string{"middle", "top", "bottom"} {
		if st.alignVotes[a] > best {
			best, lineAlign = st.alignVotes[a], a
		}
	}
	opts.RowBits = p.rb
	opts.Ruler = p.ruler
	opts.LSB0 = p.lsb0
	opts.ElideRows = -1
	opts.NoHex = true
	opts.Text.Margin = p.x0
	opts.Text.RulerShift = p.shift
	opts.Text.TensNoZero = p.noZero
	opts.Text.DoubleEnd = p.doubleEnd
	if p.elide != "" {
		opts.Text.Elide, opts.Text.ElideAt = p.elide, p.elideAt-p.x0
	}
	if st.rowLines > 1 {
		opts.Text.RowLines = st.rowLines
	}
	if lineAlign != "" && lineAlign != "middle" {
		opts.Text.Align = lineAlign
	}
	if ticksAtFields {
		opts.Text.Ticks = "fields"
	}
	// Rules marked differently from one another, or at bytes, keep each its own marks.
	if rt := string(p.ruleTicks); strings.Contains(rt, "y") || strings.Contains(rt, "b") && strings.Contains(rt, "f") {
		opts.Text.RuleTicks = rt
	}
	if !p.bytes {
		def := 2
		if p.rb <= 16 {
			def = 3
		}
		if p.cpb != def {
			opts.Text.BitChars = p.cpb
		}
	}
	opts.Text.Edge = edgePattern(st.marks)
	if p.bytes && p.ruler != bytegrid.RulerBytes {
		opts.Text.Bytes = true // byte-wide boxes under no ruler (RFC 791's options)
		if p.byteCols > 0 {
			opts.Text.ByteChars = p.byteCols // a byte a box of its own width (RFC 1952)
		}
	}
	if p.units > 0 && p.units < p.rb {
		opts.Text.RulerBits = p.units // a ruler shorter than the row (RFC 4271)
	}
}

// openOptions say how the figure draws its open ends and crossing edges: rules running on,
// "..." after a label or in place of an edge, a box with no right edge, '|' edges kept.
func (p *parser) openOptions(opts *bytegrid.Options, st *fieldState, bc *bandCells, dots bool) {
	if bc.runs > 0 && bc.closed == 0 && opts.Text.Open == "" {
		opts.Text.Open = "rules" // RFC 4271: every rule runs on past the row
	}
	if st.dotsLabel != "" && (opts.Text.Open == "" || opts.Text.Open == "bottom" && st.dotsBottom) {
		opts.Text.Open = "dots"
		if st.dotsLabel != " ..." {
			opts.Text.Dots = st.dotsLabel
		}
		opts.Text.OpenRule = st.openRule
		if st.dotsBottom {
			opts.Text.OpenRule = -1
		}
	}
	switch {
	case opts.Text.Open != "":
	case bc.edgeDots:
		opts.Text.Open = "edge"
	case dots:
		opts.Text.Open = "dots"
	case st.openBox && !st.colons:
		opts.Text.Open = "open"
	}
	if st.barVariable && !st.colons && opts.Text.Open == "" && opts.Text.Edge == "" {
		opts.Text.Edge = "|||" // the variable fields keep their '|' edges (RFC 7761)
	}
	cross := func(side int) string {
		if bc.crossBar[side] > bc.crossPlus[side] {
			return "|"
		}
		return "+"
	}
	if l, r := cross(0), cross(1); l+r != "++" {
		opts.Text.Cross = l + r
	}
}

// labelPlace is where the figure printed a field's label: the field, the line of its block
// holding the label's first line (from 0) and the block's lines, and, for a label of one line,
// the column where it starts within its box (from 1, the left edge 0) and the box's inner width.
type labelPlace struct {
	field       int
	line, total int
	n           int // lines of the label; 0: no place read
	col, width  int
	printed     string
	stack       []textAt // a stacked label's lines, in one box: where each was printed
}

// placeOf reads where the label of the field of cells (field fi) was printed, for a field of
// one box or a block of whole rows.
func (p *parser) placeOf(cells []*cell, bands []band, fi int) labelPlace {
	pl := labelPlace{field: fi}
	whole, widest := true, 0
	for _, c := range cells {
		whole = whole && c.from == 0 && c.to == p.rb
		widest = max(widest, c.to-c.from)
	}
	var ats []textAt
	var box *cell
	for _, c := range cells {
		for _, a := range c.at {
			if len(ats) == 0 || a.line < ats[0].line {
				box = c
			}
			ats = append(ats, a)
		}
	}
	if len(ats) == 0 {
		return pl
	}
	from, to := bands[cells[0].band].from, bands[cells[len(cells)-1].band].to
	first := ats[0].line
	for _, a := range ats {
		first = min(first, a.line)
	}
	pl.n = len(ats)
	if len(cells) == 1 || whole {
		pl.line, pl.total = first-from, to-from
	} else {
		pl.line = -1 // (the text form places the label of such a field in its widest piece)
	}
	if len(ats) == 1 && (len(cells) == 1 || box.to-box.from == widest) {
		c1 := p.col(box.to)
		if box.open {
			c1 = p.col(p.rb)
		}
		pl.col = ats[0].col - p.col(box.from)
		pl.width = c1 - p.col(box.from) - 1
		pl.printed = ats[0].s
	}
	if len(ats) > 1 && (len(cells) == 1 || whole) {
		pl.stack = p.stackOf(cells)
	}
	return pl
}

// stackOf is where the lines of the label of the boxes cells (one box, or whole rows) were
// printed, in order of lines, each column counted from its box's left edge (0), with the
// width inside the box.
func (p *parser) stackOf(cells []*cell) []textAt {
	var out []textAt
	for _, c := range cells {
		for _, a := range c.at {
			out = append(out, textAt{line: a.line, col: a.col - p.col(c.from), s: a.s, width: p.col(c.to) - p.col(c.from) - 1})
		}
	}
	slices.SortStableFunc(out, func(a, b textAt) int { return a.line - b.line })
	return out
}

// placeLabels gives each field whose label the figure printed off the place the text form
// would give it its LabelLine (another line of its box than Align says) and LabelCol (more
// than a column off the centre: authors round the centre either way).
func (p *parser) placeLabels(fields []bytegrid.Field, places []labelPlace, opts bytegrid.Options) {
	for _, pl := range places {
		if pl.n == 0 || pl.field >= len(fields) {
			continue
		}
		f := &fields[pl.field]
		n := pl.n
		if f.Label == bytegrid.LabelAuto || f.Label == bytegrid.LabelNote {
			n = 1
		}
		if f.Condition != "" && f.Label == bytegrid.LabelAuto {
			n = 1
		}
		want := max(0, (pl.total-n)/2)
		switch opts.Text.Align {
		case "top":
			want = 0
		case "bottom":
			want = max(0, pl.total-n)
		}
		if pl.line >= 0 && pl.line != want && n == pl.n {
			f.LabelLine = pl.line + 1
		}
		if f.Label == bytegrid.LabelStacked && len(pl.stack) > 1 {
			f.LabelCols = stackCols(f.Name, pl.stack)
			continue
		}
		if pl.width == 0 || f.Label != bytegrid.LabelAuto {
			continue
		}
		text := f.Name
		if f.Condition != "" {
			text += ", " + f.Condition
		}
		if f.Variable && opts.Text.Open == "dots" {
			if opts.Text.Dots != "" {
				text += opts.Text.Dots
			} else {
				text += " ..."
			}
		}
		printed := pl.printed
		if f.Variable && opts.Text.Open == "edge" {
			printed = strings.TrimSpace(strings.TrimSuffix(printed, "...")) // "..." for the edge
		}
		w := utf8.RuneCountInString(text)
		if w != utf8.RuneCountInString(printed) {
			continue // (printed otherwise: "..." for an edge, a margin note)
		}
		if centred := 1 + max(0, pl.width-w)/2; pl.col-centred > 1 || centred-pl.col > 1 {
			f.LabelCol = pl.col
		}
	}
}

// stackCols are the LabelCols of a stacked label printed at stack (its lines in order):
// where each line starts, when one of them stands more than a column off the centre the
// writer would give it (RFC 9147's "(if any," flush left under "Connection ID", RFC 4443's
// first line further right than the two under it); else none, the writer's centring.
func stackCols(name string, stack []textAt) []int {
	ls := strings.Split(name, "\n")
	if len(ls) != len(stack) {
		return nil
	}
	off := false
	cols := make([]int, len(stack))
	for i, a := range stack {
		w := utf8.RuneCountInString(ls[i])
		if strings.TrimSpace(a.s) != strings.TrimSpace(ls[i]) || a.col < 1 || a.col-1+w > a.width {
			return nil
		}
		if centred := 1 + (a.width-w)/2; a.col-centred > 1 || centred-a.col > 1 {
			off = true
		}
		cols[i] = a.col
	}
	if !off {
		return nil
	}
	return cols
}

// ruleDash reports whether the '-' at column c of a rule line is a rule's, not a hyphen in a
// name written on the rule ("Value-ICV", RFC 4302).
func (p *parser) ruleDash(rl, c int) bool {
	return p.at(rl, c) == '-' && !(isWord(p.at(rl, c-1)) && isWord(p.at(rl, c+1)))
}

func isWord(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}

func allShort(ls []string) bool {
	for _, l := range ls {
		if utf8.RuneCountInString(l) != 1 {
			return false
		}
	}
	return true
}

func anySpace(ls []string) bool {
	for _, l := range ls {
		if strings.Contains(l, " ") {
			return true
		}
	}
	return false
}

// isContinued reports whether name is "(continued)" or "X (continued)" with X the name of the
// last field (before its condition).
//
// "X continued" (RFC 6455's "Payload Data continued ...") continues it too.
func isContinued(name string, fields []bytegrid.Field) bool {
	if len(fields) == 0 {
		return false
	}
	name = strings.TrimSpace(strings.TrimSuffix(name, "..."))
	rest, ok := strings.CutSuffix(name, "(continued)")
	if !ok {
		rest, ok = strings.CutSuffix(name, " continued")
	}
	if !ok {
		return false
	}
	rest = strings.TrimSpace(rest)
	return rest == "" || strings.HasPrefix(fields[len(fields)-1].Name, rest)
}

var reservedRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(reserved\d*|rsrvd|rsv\d*|resv|padding|r|z|0|mbz)( \(optional\))?$`)
})

func isReserved(name string) bool { return reservedRE().MatchString(name) }

// edgeVotes counts the side marks of a variable row of len(m) lines: its first line's, its
// middle lines' and its last line's (a row of one line has only a middle).
func edgeVotes(m []rune, v *[3]map[rune]int) {
	vote := func(k int, r rune) {
		if v[k] == nil {
			v[k] = map[rune]int{}
		}
		v[k][r]++
	}
	switch n := len(m); {
	case n == 1:
		vote(1, m[0])
	case n >= 2:
		vote(0, m[0])
		vote(2, m[n-1])
		for _, r := range m[1 : n-1] {
			vote(1, r)
		}
	}
}

// edgePattern is Text.Edge from the votes: the mark most drawn at each place, a place with
// none taking the middle's (or the first mark's); "" when no row had a mark.
func edgePattern(v [3]map[rune]int) string {
	var out [3]rune
	var any rune
	for k := range v {
		best := 0
		for _, r := range []rune{'|', ':', '~', '/', '.', '\\'} { // in order, so that ties go the same way
			if n := v[k][r]; n > best {
				best, out[k] = n, r
			}
		}
		if out[k] != 0 && out[k] != '|' && any == 0 {
			any = out[k]
		}
	}
	if any == 0 {
		return ""
	}
	if out[1] == 0 || out[1] == '|' {
		out[1] = any
	}
	for k := range out {
		if out[k] == 0 {
			out[k] = out[1]
		}
	}
	return string(out[:])
}

// closingRules reads a rule that starts inside a row at a bit boundary and runs to the grid's
// right edge, the row's side edge '|' on its line ("|       +-+-+-+-+-+-+-+", RFC 5036's LDP
// Identifier and TLV Value): the field of the row goes on under it, in the bits left of the
// rule, and ends there (6 octets for the LDP Identifier: a row and 16 bits). The line is read
// as a rule whose left part the field crosses (its left edge '|' kept: Text.Cross).
func (p *parser) closingRules(first, last int) {
	r := p.col(p.rb)
	for i := first + 1; i < last; i++ {
		l := p.lines[i]
		if p.at(i, p.x0) != '|' || len(l) != r+1 || l[r] != '+' {
			continue
		}
		// The rule's start: the first '+' after blanks.
		c := p.x0 + 1
		for c < r && l[c] == ' ' {
			c++
		}
		b, ok := p.bitAt(c)
		if !ok || b == 0 || b >= p.rb || l[c] != '+' || strings.Trim(string(l[c:]), "+-") != "" || !strings.Contains(string(l[c:]), "-") {
			continue
		}
		// Under it, a row of the bits left of the rule.
		if p.at(i+1, p.x0) != '|' && p.at(i+1, p.x0) != ':' && !p.markAt(i+1, p.x0) {
			continue
		}
		l[p.x0] = '+'
		if p.closing == nil {
			p.closing = map[int]bool{}
		}
		p.closing[i] = true
	}
}

// regularMarks reports whether a row's side marks, left and right on each line, are drawn by
// one pattern (Text.Edge): the same on both sides, and the same on each middle line.
func regularMarks(left, right []rune) bool {
	for k := range left {
		if k >= len(right) || left[k] != right[k] {
			return false
		}
		if k > 1 && k < len(left)-1 && left[k] != left[k-1] {
			return false
		}
	}
	return true
}

// fullRows counts the boxes of cells that fill their row.
func fullRows(cells []*cell, rb int) int {
	n := 0
	for _, c := range cells {
		if c.from == 0 && c.to == rb {
			n++
		}
	}
	return n
}

// colonPattern reports whether a row's edges, left and right on each line, are those the text
// form draws for a variable field with ':' edges: '|' and ':' on the first line, ':' on both
// sides of the middle ones, ':' and '|' on the last, three lines or more.
func colonPattern(e []rune) bool {
	n := len(e) / 2
	if n < 3 {
		return false
	}
	for k := 0; k < n; k++ {
		want := "::"
		switch k {
		case 0:
			want = "|:"
		case n - 1:
			want = ":|"
		}
		if string(e[2*k:2*k+2]) != want {
			return false
		}
	}
	return true
}

// slippedEdges reads a row's right edge printed one column past the grid's (a hand-drawn
// figure's "|            Stream ID               |", the rule above and below a column
// shorter) at the grid's edge, and warns: it is a printing slip, not a label's character.
func (p *parser) slippedEdges(first, last int) {
	r := p.col(p.rb)
	for i := first + 1; i < last; i++ {
		l := p.lines[i]
		if p.at(i, p.x0) == '+' || len(l) != r+2 || l[r+1] != '|' || l[r] != ' ' {
			continue
		}
		l[r], l[r+1] = '|', ' '
		p.lines[i] = l[:r+1]
		p.warn(i, r+1, "an edge '|' one column past the grid's right edge (column %d): read at it", r+1+p.colBase)
	}
}
