package rfcart

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/kafkagrid/kafkagrid/bytegrid"
)

// A labelRule reads what a field's label says beyond its name: a width written in it, one
// letter a bit, a list. It gets the field as the grid drew it and where its label was
// printed, and returns the fields it reads there (the field itself, changed or not, or
// several), warning where what it reads is not what the grid drew. Each rule is one small
// function, with its own figure in TestLabelRules.
type labelRule struct {
	name string
	read func(p *parser, f bytegrid.Field, at textAt) ([]bytegrid.Field, error)
}

// labelRules are applied in order, each to the fields the one before returned.
var labelRules = []labelRule{
	{"rule characters", readRuleChars},
	{"one letter a bit", readFlags},
	{"a list", readList},
	{"dots alone", readDotsAlone},
	{"said variable", readSaidVariable},
	{"a sum", readSum},
	{"alternative widths", readAlternatives},
	{"alternative counts", readAltCounts},
	{"stated width", readStatedWidth},
	{"tall row", readTallRow},
}

// applyLabelRules runs the label rules over fields, at[i] being where field i's label was
// printed, and lays the fields out again one after the other where a rule changed a width.
func (p *parser) applyLabelRules(fields []bytegrid.Field, at []textAt) ([]bytegrid.Field, error) {
	p.parenUnit = parenUnit(fields)
	p.nameWords = nameWords(fields)
	for _, r := range labelRules {
		var out []bytegrid.Field
		var outAt []textAt
		for i, f := range fields {
			a := textAt{line: -1, col: -1}
			if i < len(at) {
				a = at[i]
			}
			fs, err := r.read(p, f, a)
			if err != nil {
				return nil, err
			}
			for range fs {
				outAt = append(outAt, a)
			}
			out = append(out, fs...)
		}
		fields, at = out, outAt
	}
	// Offsets: each field where the one before it ends, or where the grid put it when later
	// (a row broken short, RFC 7540).
	shift := 0
	for i := range fields {
		fields[i].Offset += shift
		if i > 0 {
			if end := fields[i-1].Offset + fields[i-1].Bits; fields[i].Offset < end {
				shift += end - fields[i].Offset
				fields[i].Offset = end
			}
		}
	}
	return fields, nil
}

// ruleCharsRE is a piece of a rule ("+-+", "-+-", "+=+") or an edge standing alone (" | ").
var ruleCharsRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\+[-=]+\+|[-=]\+[-=]|-{4,}|(^|\s)\|(\s|$)`) })

// readDotsAlone reads a box holding dots alone ("...", RFC 8754's segments left out between
// Segment List[0] and [n]) as items of a list left out: a variable field, whatever rows it is
// drawn over.
func readDotsAlone(p *parser, f bytegrid.Field, _ textAt) ([]bytegrid.Field, error) {
	if n := strings.TrimSpace(f.Name); n != "" && strings.Trim(n, ". \n") == "" && !f.Variable {
		f.Variable = true
		p.keepEdges(&f)
	}
	return []bytegrid.Field{f}, nil
}

// readRuleChars refuses a label holding a piece of a rule: a rule the reader did not follow
// (one starting inside a box, RFC 5036's "|      +-+-+") would otherwise be read as a name.
func readRuleChars(p *parser, f bytegrid.Field, at textAt) ([]bytegrid.Field, error) {
	for _, l := range strings.Split(f.Name, "\n") {
		if loc := ruleCharsRE().FindStringIndex(l); loc != nil {
			return nil, p.errf(at.line, at.col, "a rule %q inside the label of %q: want rules from edge to edge (or a box's closing rule starting at an edge)", l[loc[0]:loc[1]], firstLine(f.Name))
		}
	}
	return []bytegrid.Field{f}, nil
}

// readFlags reads a label of one letter a bit, the letters spaced ("|R P E T r r r r|", RFC
// 6733's command flags) as that many one-bit flags, drawn back in one box (Field.Joined); the
// same letter over every bit ("E E", RFC 9147's epoch) is one field of them all, and a
// binary digit over every bit ("1 1 1 1 1 1 1 1", CoAP's payload marker; "1 1 0 0 0", RFC
// 4944's dispatch) a constant of those bits.
func readFlags(_ *parser, f bytegrid.Field, _ textAt) ([]bytegrid.Field, error) {
	if f.Variable || f.Bits < 2 || strings.Contains(f.Name, "\n") {
		return []bytegrid.Field{f}, nil
	}
	ws := strings.Split(f.Name, " ")
	if len(ws) != f.Bits {
		return []bytegrid.Field{f}, nil
	}
	same, binary := true, true
	for _, w := range ws {
		if utf8.RuneCountInString(w) != 1 || !isWord([]rune(w)[0]) {
			return []bytegrid.Field{f}, nil
		}
		same = same && w == ws[0]
		binary = binary && (w == "0" || w == "1")
	}
	if binary {
		f.Kind = bytegrid.Reserved // a constant: every bit printed ("1 1 0 0 0", RFC 4944's dispatch)
		return []bytegrid.Field{f}, nil
	}
	if same {
		return []bytegrid.Field{f}, nil
	}
	out := make([]bytegrid.Field, len(ws))
	for i, w := range ws {
		g := f
		g.Name, g.Bits, g.Offset = w, 1, f.Offset+i
		g.LabelCol, g.LabelLine, g.Label = 0, 0, bytegrid.LabelAuto
		g.Joined = i > 0
		g.RowBreak = f.RowBreak && i == 0
		g.Kind = bytegrid.Plain
		if w == "r" || w == "0" {
			g.Kind = bytegrid.Reserved // (a capital R is a flag: RFC 6733's Request)
		}
		out[i] = g
	}
	return out, nil
}

// readList reads a label whose last line is "..." alone ("SDES items" over "...", RFC 3550)
// as a list of items of varying length: a variable field, repeated, named by the lines above
// the dots, drawn back with them (Text.ListMark).
func readList(p *parser, f bytegrid.Field, _ textAt) ([]bytegrid.Field, error) {
	ls := strings.Split(f.Name, "\n")
	if len(ls) < 2 || f.Label != bytegrid.LabelStacked || strings.Trim(ls[len(ls)-1], ".") != "" || len(ls[len(ls)-1]) < 3 {
		return []bytegrid.Field{f}, nil
	}
	name := ls[:len(ls)-1]
	if strings.Trim(strings.Join(name, ""), ". ") == "" {
		return []bytegrid.Field{f}, nil // (a box of dots alone: the items left out)
	}
	f.Name = strings.Join(name, "\n")
	if len(name) == 1 {
		f.Label = bytegrid.LabelAuto
	}
	f.Variable, f.Repeated = true, true
	if p.listMark == "" {
		p.listMark = ls[len(ls)-1]
	}
	return []bytegrid.Field{f}, nil
}

// widthRE is a width written in a label: "16 bit", "32-bit", "(32 bytes)", "8 or 16 bit";
// its unit in group 3, the sizes in 1 and 2 (2 for "A or B").
var widthRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:^|[\s(])(\d{1,4})(?:\s*(?:or|/)\s*(\d{1,4}))?[\s-]?(bits?|bytes?|octets?)\b`)
})

// widthsIn returns the widths in bits a label writes, and whether it writes two ("8 or 16
// bit"); none for a range ("0-255 bytes", "up to 40 bytes") or a count of units that is not
// the field's ("a multiple of 4 octets").
func widthsIn(name string) (a, b int, ok bool) {
	flat := strings.ReplaceAll(name, "\n", " ")
	m := widthRE().FindStringSubmatchIndex(flat)
	if m == nil {
		return 0, 0, false
	}
	before := strings.ToLower(strings.TrimSpace(flat[:m[2]]))
	for _, w := range []string{"-", "+", "to", "up to", "of", "multiple of", "max", "min", "maximum", "minimum", "at most", "at least", "variable", "n x", "x"} {
		if strings.HasSuffix(before, w) {
			return 0, 0, false
		}
	}
	if m[1] < len(flat) && strings.HasPrefix(strings.TrimSpace(flat[m[1]:]), "-") {
		return 0, 0, false
	}
	unit := 1
	if u := strings.ToLower(flat[m[6]:m[7]]); !strings.HasPrefix(u, "bit") {
		unit = 8
	}
	a, _ = strconv.Atoi(flat[m[2]:m[3]])
	if m[4] >= 0 {
		b, _ = strconv.Atoi(flat[m[4]:m[5]])
	}
	return a * unit, b * unit, a > 0
}

// parenRE is a bare count after a name: "chaddr (16)" (RFC 2131 gives each field's size in
// octets so).
var parenRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(.*\S)\s+\((\d{1,4})\)$`) })

// parenUnit is the unit of the bare counts after the names of a figure's fields ("op (1)",
// "xid (4)", "chaddr (16)"): 8 when two or more of them, and most, are the drawn size in
// bytes, 1 when in bits; 0 when the figure does not say.
func parenUnit(fields []bytegrid.Field) int {
	var n, bytesAgree, bitsAgree int
	for _, f := range fields {
		m := parenRE().FindStringSubmatch(f.Name)
		if m == nil || f.Variable {
			continue
		}
		v, _ := strconv.Atoi(m[2])
		n++
		if v*8 == f.Bits {
			bytesAgree++
		}
		if v == f.Bits {
			bitsAgree++
		}
	}
	switch {
	case bytesAgree >= 2 && 2*bytesAgree > n:
		return 8
	case bitsAgree >= 2 && 2*bitsAgree > n:
		return 1
	}
	return 0
}

// variableRE is a label saying its field has no fixed length: "options (variable)" (RFC
// 2131), "Value (variable length)".
var variableRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\(\s*variable(\s+length)?\s*\)`) })

// countedRE is a length in units counted by a field the group names: "Name String (Length
// octets)" (RFC 7541), the count a word, not a number ("(up to 40 bytes)" is a bound).
var countedRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\(\s*([a-z][\w./-]*)\s+(?:octets|bytes|bits)\s*\)`)
})

// saysVariable reports whether a label says its field has no fixed length: "(variable)", or
// a length counted by another field of the figure ("(Length octets)" beside "Name Length";
// not "(low bits)", which names no field).
func (p *parser) saysVariable(name string) bool {
	if variableRE().MatchString(name) {
		return true
	}
	m := countedRE().FindStringSubmatch(name)
	return m != nil && p.nameWords[strings.ToLower(m[1])]
}

// nameWords are the words of the fields' names, lower case, the parentheses' left out.
func nameWords(fields []bytegrid.Field) map[string]bool {
	out := map[string]bool{}
	for _, f := range fields {
		for _, w := range strings.Fields(strings.ToLower(parenTextRE().ReplaceAllString(f.Name, " "))) {
			out[w] = true
		}
	}
	return out
}

// parenTextRE is text between parentheses.
var parenTextRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\([^()]*\)`) })

// readSaidVariable reads a field that ends its row, in one row, whose label says it is
// variable as variable, drawn back with its edges as printed (RFC 2131's options filling a
// row, RFC 4271's "Data (variable)" after two one-byte fields); one in several rows, or ending
// before its row does, is read at the size drawn, which a warning says.
func readSaidVariable(p *parser, f bytegrid.Field, at textAt) ([]bytegrid.Field, error) {
	if f.Variable || !p.saysVariable(f.Name) {
		return []bytegrid.Field{f}, nil
	}
	endsRow := (f.Offset+f.Bits)%p.rb == 0 && f.Offset/p.rb == (f.Offset+f.Bits-1)/p.rb
	if !endsRow {
		p.warn(at.line, at.col, "%q says it is variable and is drawn with a fixed size's edges: read at the size drawn, %s", firstLine(f.Name), plural(f.Bits, "bit"))
		return []bytegrid.Field{f}, nil
	}
	f.Variable = true
	p.keepEdges(&f)
	return []bytegrid.Field{f}, nil
}

// sumRE is a width added to something: "Internet Header + 64 bits of Original Data Datagram"
// (RFC 792), "IP header + 8 octets".
var sumRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\S\s*\+\s*\d{1,4}[\s-]?(bits?|bytes?|octets?)\b`)
})

// readSum reads a label that adds a width to something of its own length ("Internet Header
// + 64 bits of Original Data Datagram", RFC 792) as a variable field: the width written is
// a part, not the field's. One ending its row, in one row, keeps its edges as printed; one
// that does not is read at the size drawn, which a warning says.
func readSum(p *parser, f bytegrid.Field, at textAt) ([]bytegrid.Field, error) {
	if f.Variable || !sumRE().MatchString(strings.ReplaceAll(f.Name, "\n", " ")) {
		return []bytegrid.Field{f}, nil
	}
	endsRow := (f.Offset+f.Bits)%p.rb == 0 && f.Offset/p.rb == (f.Offset+f.Bits-1)/p.rb
	if !endsRow {
		p.warn(at.line, at.col, "%q adds a width to a part of no fixed length and is drawn with a fixed size's edges: read at the size drawn, %s", firstLine(f.Name), plural(f.Bits, "bit"))
		return []bytegrid.Field{f}, nil
	}
	f.Variable = true
	p.keepEdges(&f)
	return []bytegrid.Field{f}, nil
}

// readAlternatives reads "8 or 16 bit Sequence Number" (RFC 9147) as a variable field of
// those widths (MinBits, MaxBits).
func readAlternatives(p *parser, f bytegrid.Field, at textAt) ([]bytegrid.Field, error) {
	a, b, ok := widthsIn(f.Name)
	if !ok || b == 0 {
		return []bytegrid.Field{f}, nil
	}
	f.Variable, f.MinBits, f.MaxBits = true, min(a, b), max(a, b)
	p.keepEdges(&f)
	return []bytegrid.Field{f}, nil
}

// readStatedWidth reads a field whose label writes its width ("16 bit Length", RFC 9147;
// "Fingerprint (32 bytes)") at that width when the grid drew another, and warns: the drawing
// cannot be the figure's.
func readStatedWidth(p *parser, f bytegrid.Field, at textAt) ([]bytegrid.Field, error) {
	a, b, ok := widthsIn(f.Name)
	if m := parenRE().FindStringSubmatch(f.Name); !ok && m != nil && p.parenUnit > 0 {
		// A bare count, in the unit the figure's other counts are in (RFC 2131's "(16)").
		v, _ := strconv.Atoi(m[2])
		a, b, ok = v*p.parenUnit, 0, v > 0
	}
	if !ok || b != 0 || f.Variable || a == f.Bits || a > 1<<20 {
		return []bytegrid.Field{f}, nil
	}
	// A whole row drawn as many lines high as the rows its label says (RFC 5389's
	// "Transaction ID (96 bits)" in a box three lines high): those rows, one line each.
	if f.Offset%p.rb == 0 && f.Bits == p.rb && f.Lines > 1 && a == f.Lines*p.rb && p.rowLines == 1 {
		f.Bits, f.Lines, f.Packed = a, 0, true
		return []bytegrid.Field{f}, nil
	}
	p.warn(at.line, at.col, "%q is drawn %s wide and its label says %s: read at %s, as its label says (drawn back at that width)", firstLine(f.Name), plural(f.Bits, "bit"), plural(a, "bit"), plural(a, "bit"))
	f.Bits = a
	f.Lines = 0
	return []bytegrid.Field{f}, nil
}

// readTallRow reads a field filling one row drawn taller than the figure's rows, its name on
// one line and no width in it. Drawn an even number of lines high, with no line to centre
// its name on, it stands for as many rows as lines, as RFC 1035 draws its 32-bit TTL and
// SERIAL in rows of 16, RFC 7296 its 8-octet SPIs and RFC 2865 its 16-octet Authenticator:
// read so, and said. Drawn an odd number, it may be one row with its name centred or as many
// rows as lines (RFC 5905's 64-bit Fraction is three lines high): read as one row, and said.
func readTallRow(p *parser, f bytegrid.Field, at textAt) ([]bytegrid.Field, error) {
	if f.Variable || f.Packed || f.Offset%p.rb != 0 || f.Bits != p.rb || f.Lines <= max(p.rowLines, 1) || strings.Contains(f.Name, "\n") || strings.HasSuffix(f.Name, "...") {
		return []bytegrid.Field{f}, nil
	}
	if _, _, ok := widthsIn(f.Name); ok || p.parenUnit > 0 && parenRE().MatchString(f.Name) {
		return []bytegrid.Field{f}, nil
	}
	if f.Lines%2 == 0 && p.rowLines <= 1 && f.Lines*p.rb <= 1<<20 {
		p.warn(at.line, at.col, "%q fills one row drawn %d lines high, no line the middle one: read as %d rows, %s, one a line, as figures drawn so mean", f.Name, f.Lines, f.Lines, plural(f.Lines*p.rb, "bit"))
		f.Bits, f.Lines, f.Packed = f.Lines*p.rb, 0, true
		return []bytegrid.Field{f}, nil
	}
	p.warn(at.line, at.col, "%q fills one row drawn %d lines high, as a field of %d rows may be: read as one row of %s, as its label says no width", f.Name, f.Lines, f.Lines, plural(f.Bits, "bit"))
	return []bytegrid.Field{f}, nil
}

// keepEdges keeps the '|' edges a field ending its row was printed with, now that a label
// rule reads it as variable (which the text form would draw with ':' or the figure's marks).
func (p *parser) keepEdges(f *bytegrid.Field) {
	if f.Marks != "" || (f.Offset+f.Bits)%p.rb != 0 || f.Offset/p.rb != (f.Offset+f.Bits-1)/p.rb {
		return
	}
	f.Marks = strings.Repeat("||", max(f.Lines, p.rowLines, 1))
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}
