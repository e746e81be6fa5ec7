// Package notation reads and writes the packet notation of RFC 9000 section 1.3, the form in
// which QUIC (RFC 9000), HTTP/2 (RFC 9113), HTTP/3 (RFC 9114) and MASQUE describe their
// packets and frames, as byte-grid fields (package bytegrid):
//
//	Long Header Packet {
//	  Header Form (1) = 1,
//	  Fixed Bit (1) = 1,
//	  Long Packet Type (2),
//	  Type-Specific Bits (4),
//	  Version (32),
//	  Destination Connection ID Length (8),
//	  Destination Connection ID (0..160),
//	  Source Connection ID Length (8),
//	  Source Connection ID (0..160),
//	  Type-Specific Payload (..),
//	}
//
// # What is read
//
// A document is one or more structures, each a name, "{", fields separated by commas (the
// last comma optional) and "}"; blank lines and figure captions ("Figure 13: Long Header
// Packet Format", a line starting with "Figure") may stand between them. The structure drawn
// is the one the caption names, else the first that no other refers to (RFC 9114 prints the
// helper "Setting" before "SETTINGS Frame"), else the first; the others are the structures it
// refers to, and those it does not refer to are named in a warning (or, with ParseOptions and
// Options.All, drawn after it, each from a row of its own under a caption of its name). A
// field is
//
//   - Name (L): L bits long;
//   - Name (i): a variable-length integer (RFC 9000 section 16: 1, 2, 4 or 8 bytes): Kind
//     Varint, Variable, MinBits 8 and MaxBits 64;
//   - Name (A..B), (A..), (..B), (..): a field of A to B bits, either bound open (Variable,
//     MinBits A, MaxBits B; 0 means no bound);
//   - Name (L) = C or = C..D: with a constant value (or a range of them), the field's Value
//     ("C", "C..D"), drawn under its name;
//   - [field]: an optional field (Optional);
//   - field ...: a field repeated zero or more times (Repeated; "[field] ..." and "[field ...]"
//     alike);
//   - a field whose name is another structure's (RFC 9000's "ACK Range (..) ..."): that
//     structure's fields in its place, in a group of its name (Group, and Path "Name.Field"),
//     each optional or repeated when the reference is; a reference may be nested, but not
//     cyclic, and a fixed length given for it must be its fields' sum.
//
// A variable-length field is drawn to the end of the row it starts in (a whole row from a row's
// start), as RFCs draw an open-ended field, or to the end of the next row when its minimum
// needs more, and at most at its maximum; a variable-length integer with a constant value at
// the size that encodes it (Type (i) = 0x06: one byte). A
// variable-length field right after a field of its name followed by " Length" (QUIC's
// "Token Length (i), Token (..)") has that field as its LengthFrom. Rows are 32 bits.
//
// Errors carry the file, line and column. The input is untrusted: at most MaxSize bytes and
// 100,000 fields after references are expanded (so a chain of structures each referring twice
// to the next cannot blow up), 64 MiB of their paths all told (so a deep chain of long names
// cannot either), and lengths of at most 2^27 bits.
//
// # What is written
//
// Write writes fields as one structure, and a substructure for each run of fields whose Path
// is their Group's name followed by "." (as Parse makes them): the run becomes a reference,
// its length the sum of its fields' or "..", optional or repeated when all of them are. Lengths
// are written as Parse reads them ((i), (N), (A..B), (0..B) for a maximum alone, (A..), (..)),
// and a Value as the field's constant, "= Value": the notation states constants, so a caller
// with example values (a YAML spec's) clears them first, as "kafkagrid grid -format notation"
// does. The notation has no gaps, no unnamed fields, no conditions, no names holding
// ( ) [ ] { } or "," and no values holding , [ ] { }, a line break or a final "...": Write
// refuses them with an error naming the field, but for the condition of an optional field,
// which is not written.
package notation

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/kafkagrid/kafkagrid/bytegrid"
)

// MaxSize bounds a document's text.
const MaxSize = 16 << 20

// maxFields bounds the fields of the drawn structure once references are expanded; maxLen a
// length in bits.
const (
	maxFields = 100000
	maxLen    = 1 << 27
	// maxPathBytes bounds the bytes of the expanded fields' paths ("Outer.Inner.Field") and of
	// the prefixes they are made from: a chain of a few hundred long-named structures, each
	// referring to the next, would otherwise make each of 100,000 fields' paths tens of KB
	// long (a 72 KB document ran out of memory past 1.3 GB).
	maxPathBytes = 64 << 20
)

// Spec is a parsed document: the drawn structure's name (Name) and its fields, laid out one
// after the other, Desc the document's "source:" line and caption, if any, Caption the
// caption ("Figure 18: Retry Packet": the drawing's title, md's alt text), and Warnings what
// was read but not drawn (the structures other than the one drawn that it does not refer to,
// prose left out: "file:line:col: what"); bytegrid.Spec, which every reader of a spec returns.
type Spec = bytegrid.Spec

// Error is a problem in a document, with its position (file:line:col): bytegrid.SpecError,
// which every reader of a spec returns, its Reader "notation".
type Error = bytegrid.SpecError

// length is a field's length as written.
type length struct {
	varint   bool
	fixed    int // > 0 for (N)
	min, max int // for a range; 0 means no bound
	open     bool
}

type member struct {
	name               string
	line, col          int
	len                length
	value              string
	optional, repeated bool
}

type structure struct {
	name      string
	line, col int
	members   []member
}

type parser struct {
	file      string
	src       []byte
	pos       int
	line, col int
}

func (p *parser) errAt(line, col int, format string, a ...any) error {
	return &Error{Reader: "notation", File: p.file, Line: line, Col: col, Err: fmt.Errorf(format, a...)}
}

func (p *parser) errf(format string, a ...any) error { return p.errAt(p.line, p.col, format, a...) }

func (p *parser) eof() bool { return p.pos >= len(p.src) }

func (p *parser) peek() byte {
	if p.eof() {
		return 0
	}
	return p.src[p.pos]
}

func (p *parser) next() byte {
	c := p.src[p.pos]
	p.pos++
	if c == '\n' {
		p.line++
		p.col = 1
	} else if c < 0x80 || c >= 0xc0 { // count runes, not bytes
		p.col++
	}
	return c
}

// space skips white space, newlines included.
func (p *parser) space() {
	for !p.eof() {
		switch p.peek() {
		case ' ', '\t', '\r', '\n', '\f':
			p.next()
		default:
			return
		}
	}
}

// restOfLine returns the text up to the end of the line, consumed.
func (p *parser) restOfLine() string {
	start := p.pos
	for !p.eof() && p.peek() != '\n' {
		p.next()
	}
	return string(p.src[start:p.pos])
}

// Options are how ParseOptions reads a document.
type Options struct {
	// All draws every structure: the root, then each structure it does not refer to (a
	// helper printed beside it, another frame), each from a row of its own and named by its
	// first field's Caption, its fields in a group of its name. Write writes such a run back
	// as a structure of its own, so that nothing of the document is lost.
	All bool
}

// Parse reads the document in src; file names it in errors. It draws the root structure and
// those it refers to, and warns of the others (ParseOptions with All draws them too).
func Parse(file string, src []byte) (*Spec, error) { return ParseOptions(file, src, Options{}) }

// ParseOptions reads the document in src as o says; file names it in errors.
func ParseOptions(file string, src []byte, o Options) (*Spec, error) {
	if len(src) > MaxSize {
		return nil, &Error{Reader: "notation", File: file, Err: fmt.Errorf("%d bytes, more than a document may have (%d)", len(src), MaxSize)}
	}
	p := &parser{file: file, src: src, line: 1, col: 1}
	var structs []*structure
	byName := map[string]*structure{}
	var caption, source string
	var warnings []string
	for {
		p.space()
		if p.eof() {
			break
		}
		// A line with no "{" outside a structure is no structure's: a caption ("Figure 7:
		// SETTINGS Frame"), a "source:" line, or prose, read and not drawn.
		if rest := p.src[p.pos:]; !bytes.ContainsRune(rest[:lineEnd(rest)], '{') || markdownLine(rest[:lineEnd(rest)]) {
			line, col := p.line, p.col
			text := strings.TrimSpace(p.restOfLine())
			switch {
			case captionRE().MatchString(text):
				if caption == "" {
					caption = text
				}
			case ialTitle(text) != "":
				if caption == "" {
					caption = ialTitle(text)
				}
			case len(text) >= 7 && strings.EqualFold(text[:7], "source:"):
				if source == "" {
					source = strings.TrimSpace(text[7:])
				}
			case strings.HasPrefix(text, "~~~") || strings.HasPrefix(text, "```"):
				// a Markdown fence around the figure: a delimiter, not prose
			default:
				warnings = append(warnings, fmt.Sprintf("%s:%d:%d: text outside the structures, read as prose and not drawn", file, line, col))
			}
			continue
		}
		s, err := p.structure()
		if err != nil {
			return nil, err
		}
		if prev, ok := byName[s.name]; ok {
			return nil, p.errAt(s.line, s.col, "structure %q defined again (first at line %d)", s.name, prev.line)
		}
		byName[s.name] = s
		structs = append(structs, s)
	}
	if len(structs) == 0 {
		return nil, p.errAt(p.line, p.col, "no structure (want Name { Field (8), … })")
	}
	top, w := root(structs, byName, caption)
	if w != "" && !o.All {
		warnings = append(warnings, file+": "+w)
	}
	spec := &Spec{Name: top.name, Options: bytegrid.Options{RowBits: rowBits}, Warnings: warnings}
	spec.Desc = strings.TrimSpace(source + "\n" + caption)
	spec.Caption = caption
	e := expander{p: p, byName: byName, onStack: map[string]bool{top.name: true}}
	for _, m := range top.members {
		if err := e.member(m, "", nil, false, false); err != nil {
			return nil, err
		}
	}
	if o.All {
		if err := e.detached(top, structs); err != nil {
			return nil, err
		}
	}
	spec.Fields = e.fields
	if err := bytegrid.CheckFields(spec.Fields); err != nil {
		return nil, &Error{Reader: "notation", File: file, Err: err}
	}
	return spec, nil
}

// detached lays out, after the root top's fields, each structure top does not reach, in the
// document's order: from a row of its own, its first field captioned with its name, its
// fields in a group of its name (as a reference to it would make them).
func (e *expander) detached(top *structure, structs []*structure) error {
	seen := reached(top, e.byName)
	for _, s := range structs {
		if seen[s.name] {
			continue
		}
		if r := e.off % rowBits; r != 0 {
			e.off += rowBits - r
		}
		first := len(e.fields)
		e.onStack = map[string]bool{}
		if err := e.member(member{name: s.name, line: s.line, col: s.col}, "", nil, false, false); err != nil {
			return err
		}
		if len(e.fields) > first {
			e.fields[first].Caption = s.name
		}
		for k, r := range reached(s, e.byName) {
			seen[k] = seen[k] || r
		}
	}
	return nil
}

// markdownLine reports whether a line holding a '{' is Markdown's, not a structure's: a
// kramdown attribute list ("{: #datagram-format title=\"DATAGRAM Frame Format\"}", which the
// drafts of QUIC, HTTP/3 and MASQUE print under each figure) or prose holding a reference
// ("(see {{iana-types}} for the value)").
func markdownLine(l []byte) bool {
	t := bytes.TrimSpace(l)
	return bytes.HasPrefix(t, []byte("{:")) || bytes.Contains(t, []byte("{{"))
}

// ialTitleRE is the title of a kramdown attribute list: {: #id title="Figure's title"}.
var ialTitleRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\{:.*\btitle="([^"]+)".*\}$`) })

// ialTitle is the title a kramdown attribute list gives the figure over it, "" for none.
func ialTitle(text string) string {
	if m := ialTitleRE().FindStringSubmatch(text); m != nil {
		return m[1]
	}
	return ""
}

// captionRE is a figure's caption: "Figure 7: SETTINGS Frame".
var captionRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?i:figure|fig\.)\s+[0-9A-Za-z.-]+\s*[:.-]\s*(.*)$`)
})

func lineEnd(b []byte) int {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return i
	}
	return len(b)
}

// root is the structure a document draws: the one its caption names ("Figure 7: SETTINGS
// Frame"), else the one no other structure refers to, else the first. The warning names the
// structures neither drawn nor referred to by it, which are not drawn ("" for none).
func root(structs []*structure, byName map[string]*structure, caption string) (*structure, string) {
	if m := captionRE().FindStringSubmatch(caption); m != nil {
		want := strings.TrimSpace(m[1])
		for _, s := range structs {
			if strings.EqualFold(s.name, want) {
				return s, unreached(s, structs, byName)
			}
		}
	}
	referred := map[string]bool{}
	for _, s := range structs {
		for _, m := range s.members {
			if m.name != s.name && byName[m.name] != nil {
				referred[m.name] = true
			}
		}
	}
	var roots []*structure
	for _, s := range structs {
		if !referred[s.name] {
			roots = append(roots, s)
		}
	}
	top := structs[0]
	if len(roots) > 0 {
		top = roots[0]
	}
	return top, unreached(top, structs, byName)
}

// unreached names the structures top does not reach through its references.
func unreached(top *structure, structs []*structure, byName map[string]*structure) string {
	seen := reached(top, byName)
	var out []string
	for _, s := range structs {
		if !seen[s.name] {
			out = append(out, fmt.Sprintf("%q (line %d)", s.name, s.line))
		}
	}
	if len(out) == 0 {
		return ""
	}
	return fmt.Sprintf("drew %q; not drawn, as it does not refer to them: %s", top.name, strings.Join(out, ", "))
}

// reached are the names of top and the structures it reaches through its references.
func reached(top *structure, byName map[string]*structure) map[string]bool {
	seen := map[string]bool{top.name: true}
	stack := []*structure{top}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, m := range s.members {
			if r := byName[m.name]; r != nil && !seen[r.name] {
				seen[r.name] = true
				stack = append(stack, r)
			}
		}
	}
	return seen
}

// sniffRE is a structure's first line, "Name {", and a field's, "Name (length)".
var (
	sniffOpen  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^[ \t]*[A-Za-z0-9][^{}():,\n]*\{[ \t]*\r?$`) })
	sniffField = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^[ \t]*\[?[A-Za-z][^{}():,\n]*\([^()\n]*\)`) })
)

// Sniff reports whether src holds a document in the notation, wherever it starts (after a
// "source:" line, prose, a caption): a line "Name {" with a field "Name (length)" after it and
// a line "}" after that.
func Sniff(src []byte) bool {
	src = src[:min(len(src), 64<<10)]
	loc := sniffOpen().FindIndex(src)
	if loc == nil {
		return false
	}
	rest := src[loc[1]:]
	f := sniffField().FindIndex(rest)
	return f != nil && bytes.Contains(rest[f[1]:], []byte("}"))
}

// structure reads "Name { fields }".
func (p *parser) structure() (*structure, error) {
	s := &structure{line: p.line, col: p.col}
	start := p.pos
	for !p.eof() && p.peek() != '{' {
		switch p.peek() {
		case '\n', '}', '(', ')', ',', '[', ']':
			return nil, p.errf("want a structure, \"Name {\", got %q", strings.TrimSpace(string(p.src[start:p.pos])+string(p.peek())))
		}
		p.next()
	}
	if p.eof() {
		return nil, p.errf("want \"{\" after the structure's name")
	}
	s.name = strings.TrimSpace(string(p.src[start:p.pos]))
	if s.name == "" {
		return nil, p.errf("a structure without a name")
	}
	p.next() // {
	for {
		p.space()
		if p.eof() {
			return nil, p.errf("structure %q (line %d) has no closing \"}\"", s.name, s.line)
		}
		if p.peek() == '}' {
			p.next()
			return s, nil
		}
		m, err := p.member()
		if err != nil {
			return nil, err
		}
		s.members = append(s.members, m)
		p.space()
		switch p.peek() {
		case ',':
			p.next()
		case '}':
		default:
			if p.eof() {
				return nil, p.errf("structure %q (line %d) has no closing \"}\"", s.name, s.line)
			}
			return nil, p.errf("want \",\" or \"}\" after field %q, got %q", m.name, p.peek())
		}
	}
}

// member reads one field: [Name (L) = V] ...
func (p *parser) member() (member, error) {
	m := member{line: p.line, col: p.col}
	if p.peek() == '[' {
		m.optional = true
		p.next()
		p.space()
	}
	start := p.pos
	for !p.eof() && p.peek() != '(' {
		switch p.peek() {
		case '\n', ',', '{', '}', '[', ']', ')':
			return m, p.errf("want a field, \"Name (length)\", got %q", strings.TrimSpace(string(p.src[start:p.pos])))
		}
		p.next()
	}
	m.name = strings.TrimSpace(string(p.src[start:p.pos]))
	if p.eof() {
		return m, p.errf("want \"(length)\" after %q", m.name)
	}
	if m.name == "" {
		return m, p.errf("a field without a name")
	}
	p.next() // (
	lline, lcol := p.line, p.col
	start = p.pos
	for !p.eof() && p.peek() != ')' {
		if c := p.peek(); c == '\n' || c == '(' || c == ',' {
			return m, p.errf("field %q: want \")\" after its length", m.name)
		}
		p.next()
	}
	if p.eof() {
		return m, p.errf("field %q: want \")\" after its length", m.name)
	}
	var err error
	if m.len, err = parseLength(strings.TrimSpace(string(p.src[start:p.pos]))); err != nil {
		return m, p.errAt(lline, lcol, "field %q: %v", m.name, err)
	}
	p.next() // )
	p.hspace()
	if p.peek() == '=' {
		p.next()
		vline, vcol := p.line, p.col
		start = p.pos
		for !p.eof() {
			c := p.peek()
			if c == ',' || c == ']' || c == '}' || c == '\n' {
				break
			}
			p.next()
		}
		v := strings.TrimSpace(string(p.src[start:p.pos]))
		if rest, ok := strings.CutSuffix(v, "..."); ok {
			v = strings.TrimSpace(rest)
			m.repeated = true
		}
		if v == "" {
			return m, p.errAt(vline, vcol, "field %q: \"=\" without a value", m.name)
		}
		m.value = v
	}
	p.hspace()
	if !m.repeated && p.dots() {
		m.repeated = true
		p.hspace()
	}
	if m.optional {
		if p.peek() != ']' {
			return m, p.errf("field %q: want \"]\" to close the optional field", m.name)
		}
		p.next()
		p.hspace()
		if p.dots() {
			if m.repeated {
				return m, p.errf("field %q: repeated twice (\"...\" inside and outside the brackets)", m.name)
			}
			m.repeated = true
		}
	}
	return m, nil
}

// hspace skips spaces and tabs on the line.
func (p *parser) hspace() {
	for c := p.peek(); c == ' ' || c == '\t' || c == '\r'; c = p.peek() {
		p.next()
	}
}

// dots consumes "..." if it comes next.
func (p *parser) dots() bool {
	if bytes.HasPrefix(p.src[p.pos:], []byte("...")) {
		p.next()
		p.next()
		p.next()
		return true
	}
	return false
}

// parseLength reads what stands between a field's parentheses.
func parseLength(s string) (length, error) {
	if s == "i" {
		return length{varint: true}, nil
	}
	num := func(t string) (int, error) {
		t = strings.TrimSpace(t)
		n, err := strconv.Atoi(t)
		if err != nil || n < 0 || t == "" || t[0] == '+' || t[0] == '-' {
			return 0, fmt.Errorf("length %q: want a number of bits, a range A..B, \"..\" or \"i\"", s)
		}
		if n > maxLen {
			return 0, fmt.Errorf("length %d: more than %d bits", n, maxLen)
		}
		return n, nil
	}
	a, b, isRange := strings.Cut(s, "..")
	if !isRange {
		n, err := num(s)
		if err != nil {
			return length{}, err
		}
		if n == 0 {
			return length{}, errors.New("length 0: a field has at least one bit")
		}
		return length{fixed: n}, nil
	}
	l := length{open: true}
	var err error
	if strings.TrimSpace(a) != "" {
		if l.min, err = num(a); err != nil {
			return l, err
		}
	}
	if strings.TrimSpace(b) != "" {
		if l.max, err = num(b); err != nil {
			return l, err
		}
		if l.max == 0 {
			return l, fmt.Errorf("length %q: a maximum of 0 bits", s)
		}
		if l.max < l.min {
			return l, fmt.Errorf("length %q: the maximum is below the minimum", s)
		}
	}
	return l, nil
}

// expander lays the drawn structure's fields out, references expanded.
type expander struct {
	p         *parser
	byName    map[string]*structure
	onStack   map[string]bool
	fields    []bytegrid.Field
	off       int
	steps     int // members visited, references included: bounded, so that empty structures referred to in a doubling chain cannot take forever
	pathBytes int // bytes of the paths and prefixes made: bounded by maxPathBytes
}

// addPath counts n bytes of a path or prefix about to be made, refusing past maxPathBytes.
func (e *expander) addPath(m member, n int) error {
	if e.pathBytes += n; e.pathBytes > maxPathBytes {
		return e.p.errAt(m.line, m.col, "the expanded fields' paths pass %d bytes (structures nested too deep, or with names too long, for their fields' number)", maxPathBytes)
	}
	return nil
}

// pathPrefix is the path of the references a member sits in ("Outer.Inner."), made on first
// use: a structure with no field (at the end of a doubling chain) makes none.
type pathPrefix struct {
	parent *pathPrefix
	name   string // the structure's name
	made   bool
	s      string
}

// get returns the prefix, making (and counting) it at m the first time.
func (p *pathPrefix) get(e *expander, m member) (string, error) {
	if p == nil {
		return "", nil
	}
	if !p.made {
		outer, err := p.parent.get(e, m)
		if err != nil {
			return "", err
		}
		if err := e.addPath(m, len(outer)+len(p.name)+1); err != nil {
			return "", err
		}
		p.s, p.made = outer+p.name+".", true
	}
	return p.s, nil
}

// member appends the field (or the structure) m; group and prefix are those of the reference
// it sits in, opt and rep whether that reference is optional or repeated.
func (e *expander) member(m member, group string, prefix *pathPrefix, opt, rep bool) error {
	if e.steps++; e.steps > 4*maxFields {
		return e.p.errAt(m.line, m.col, "more than %d fields and references once structures are expanded", 4*maxFields)
	}
	if s, ok := e.byName[m.name]; ok {
		if e.onStack[s.name] {
			return e.p.errAt(m.line, m.col, "structure %q refers to itself", s.name)
		}
		if m.value != "" {
			return e.p.errAt(m.line, m.col, "reference to structure %q: a structure has no value", s.name)
		}
		e.onStack[s.name] = true
		defer delete(e.onStack, s.name)
		g := group
		if g == "" {
			g = s.name
		}
		start, first := e.off, len(e.fields)
		inner := &pathPrefix{parent: prefix, name: s.name}
		for _, sm := range s.members {
			if err := e.member(sm, g, inner, opt || m.optional, rep || m.repeated); err != nil {
				return err
			}
		}
		if m.len.fixed > 0 {
			fixed := true
			for _, f := range e.fields[first:] {
				fixed = fixed && !f.Variable
			}
			if fixed && e.off-start != m.len.fixed {
				return e.p.errAt(m.line, m.col, "reference to structure %q: length %d, but its fields add up to %d bits", s.name, m.len.fixed, e.off-start)
			}
		}
		return nil
	}
	if len(e.fields) >= maxFields {
		return e.p.errAt(m.line, m.col, "more than %d fields once structures are expanded", maxFields)
	}
	pre, err := prefix.get(e, m)
	if err != nil {
		return err
	}
	if err := e.addPath(m, len(pre)+len(m.name)); err != nil {
		return err
	}
	f := bytegrid.Field{
		Offset: e.off, Name: m.name, Group: group, Path: pre + m.name,
		Optional: opt || m.optional, Repeated: rep || m.repeated,
	}
	f.Value = m.value
	switch l := m.len; {
	case l.varint:
		f.Kind, f.Variable, f.MinBits, f.MaxBits, f.Type = bytegrid.Varint, true, 8, 64, "varint (i)"
		f.Bits = toRowEnd(e.off, 8, 64)
		if v, ok := firstNumber(m.value); ok {
			f.Bits = varintBits(v)
		}
	case l.fixed > 0:
		f.Bits = l.fixed
	default:
		f.Variable, f.MinBits, f.MaxBits = true, l.min, l.max
		f.Bits = toRowEnd(e.off, l.min, l.max)
	}
	if f.Variable && len(e.fields) > 0 {
		if prev := e.fields[len(e.fields)-1]; prev.Name == f.Name+" Length" {
			f.LengthFrom = prev.Name
		}
	}
	if e.off+f.Bits > maxLen {
		return e.p.errAt(m.line, m.col, "the fields pass %d bits", maxLen)
	}
	e.off += f.Bits
	e.fields = append(e.fields, f)
	return nil
}

// toRowEnd is the length a variable-length field starting at bit off is drawn at: to the end
// of its row (a whole row from a row's start), or of the next row when that is too short for
// its minimum, and no longer than its maximum.
func toRowEnd(off, lo, hi int) int {
	n := rowBits - off%rowBits
	for n < lo {
		n += rowBits
	}
	if hi > 0 && n > hi {
		n = hi
	}
	return n
}

// rowBits is the width of the rows a notation's fields are laid out in.
const rowBits = 32

// firstNumber reads the first number of a value ("0x02..0x03": 2).
func firstNumber(v string) (uint64, bool) {
	v, _, _ = strings.Cut(v, "..")
	n, err := strconv.ParseUint(strings.TrimSpace(v), 0, 64)
	return n, err == nil
}

// varintBits is the size of the shortest QUIC variable-length integer that holds v.
func varintBits(v uint64) int {
	switch {
	case v < 1<<6:
		return 8
	case v < 1<<14:
		return 16
	case v < 1<<30:
		return 32
	}
	return 64
}

// Write writes fields as a structure named name, with a substructure for each run of fields
// in a group whose Path starts with the group's name and "." (see the package doc).
func Write(w io.Writer, name string, fields []bytegrid.Field) error {
	if err := checkName(name); err != nil {
		return fmt.Errorf("notation: structure %q: %w", name, err)
	}
	bw := bufio.NewWriter(w)
	sw := &structWriter{w: bw, defined: map[string]int{}}
	fmt.Fprintf(bw, "%s {\n", name)
	end := 0
	for i := 0; i < len(fields); {
		f := fields[i]
		var j int
		var err error
		switch {
		case detachedAt(fields, i):
			j, err = sw.own(fields, i, name)
		case len(sw.owned) > 0:
			return fmt.Errorf("notation: field %q at bit %d: after the structures of their own, a field of the drawn one", f.Name, f.Offset)
		case f.Offset != end:
			return fmt.Errorf("notation: bits %d to %d have no field (the notation has no gaps)", end, f.Offset)
		case f.Group != "" && strings.HasPrefix(f.Path, f.Group+"."):
			j, err = sw.reference(fields, i)
		default:
			j, err = i+1, writeMember(bw, f)
		}
		if err != nil {
			return err
		}
		end = fields[j-1].Offset + fields[j-1].Bits
		i = j
	}
	bw.WriteString("}\n")
	if err := checkNames(name, fields, sw.defined); err != nil {
		return err
	}
	for _, s := range append(sw.subs, sw.owned...) {
		fmt.Fprintf(bw, "\n%s {\n%s}\n", s.name, s.text)
	}
	return bw.Flush()
}

// sub is a structure Write writes after the drawn one: its name and its members, written.
type sub struct {
	name, text string
}

// structWriter is what Write writes after the drawn structure: the structures its groups are
// written as (subs) and those of their own (owned), and each one's first field's offset.
type structWriter struct {
	w       *bufio.Writer
	subs    []sub
	owned   []sub
	defined map[string]int
}

// reference writes the run of fields from i in one group as a reference to a structure of the
// group's name, defined once (a later run must be the same fields), and returns where the
// run ends.
func (sw *structWriter) reference(fields []bytegrid.Field, i int) (int, error) {
	f := fields[i]
	j := i
	run := fields[i:i]
	for j < len(fields) && fields[j].Group == f.Group && strings.HasPrefix(fields[j].Path, f.Group+".") && (j == i || fields[j].Offset == fields[j-1].Offset+fields[j-1].Bits) {
		run = fields[i : j+1]
		j++
	}
	allOpt, allRep, fixed, bits := true, true, true, 0
	for _, g := range run {
		allOpt, allRep = allOpt && g.Optional, allRep && g.Repeated
		fixed = fixed && !g.Variable && !g.Repeated
		bits += g.Bits
	}
	ref := bytegrid.Field{Name: f.Group, Optional: allOpt, Repeated: allRep, Variable: !fixed, Bits: bits}
	if err := writeMember(sw.w, ref); err != nil {
		return 0, err
	}
	members := make([]bytegrid.Field, len(run))
	for k, g := range run {
		g.Optional, g.Repeated = g.Optional && !allOpt, g.Repeated && !allRep
		members[k] = g
	}
	text, err := membersText(members)
	if err != nil {
		return 0, err
	}
	// A structure has one definition: a later run of the group must be the same fields, or
	// the reference would read back as the first run's.
	if at, ok := sw.defined[f.Group]; !ok {
		sw.defined[f.Group] = f.Offset
		sw.subs = append(sw.subs, sub{f.Group, text})
	} else if k := slices.IndexFunc(sw.subs, func(s sub) bool { return s.name == f.Group }); k < 0 || sw.subs[k].text != text {
		return 0, fmt.Errorf("notation: field %q at bit %d: its group %q is written as a structure, defined by the fields at bit %d, and these fields differ from them", f.Name, f.Offset, f.Group, at)
	}
	return j, nil
}

// own keeps the run of fields from i, a structure of its own (detachedAt), to be written
// after the drawn one (named name), and returns where the run ends.
func (sw *structWriter) own(fields []bytegrid.Field, i int, name string) (int, error) {
	f := fields[i]
	j := i + 1
	for j < len(fields) && !detachedAt(fields, j) && fields[j].Group == f.Group && strings.HasPrefix(fields[j].Path, f.Group+".") {
		j++
	}
	text, err := membersText(fields[i:j])
	if err != nil {
		return 0, err
	}
	if _, ok := sw.defined[f.Group]; ok || f.Group == name {
		return 0, fmt.Errorf("notation: field %q at bit %d: structure %q written twice", f.Name, f.Offset, f.Group)
	}
	sw.defined[f.Group] = f.Offset
	sw.owned = append(sw.owned, sub{f.Group, text})
	return j, nil
}

// checkNames refuses names that would read back otherwise: every field is written as a
// member under its name, and a member named as a structure is read as a reference to it
// (or, the drawn one's, as a cycle).
func checkNames(name string, fields []bytegrid.Field, defined map[string]int) error {
	for _, f := range fields {
		if f.Name == name {
			return fmt.Errorf("notation: field %q at bit %d: its name is the structure's, so it would read back as a reference to it", f.Name, f.Offset)
		}
		if _, ok := defined[f.Name]; ok {
			return fmt.Errorf("notation: field %q at bit %d: its name is that of the structure its group %q is written as, so it would read back as a reference to it", f.Name, f.Offset, f.Name)
		}
	}
	if _, ok := defined[name]; ok {
		return fmt.Errorf("notation: structure %q: a group of its fields has its name, and the two structures would be one", name)
	}
	return nil
}

// detachedAt reports whether fields[i] starts a structure of its own, as ParseOptions' All
// lays one out: captioned with the name of its group, its path in it.
func detachedAt(fields []bytegrid.Field, i int) bool {
	f := fields[i]
	return f.Caption != "" && f.Caption == f.Group && strings.HasPrefix(f.Path, f.Group+".")
}

// membersText is the members of a structure as Write writes them.
func membersText(fields []bytegrid.Field) (string, error) {
	var b strings.Builder
	bw := bufio.NewWriter(&b)
	for _, f := range fields {
		if err := writeMember(bw, f); err != nil {
			return "", err
		}
	}
	bw.Flush()
	return b.String(), nil
}

// writeMember writes one field line.
func writeMember(w *bufio.Writer, f bytegrid.Field) error {
	if f.Name == "" {
		return fmt.Errorf("notation: the field at bit %d has no name, which the notation needs", f.Offset)
	}
	if err := checkName(f.Name); err != nil {
		return fmt.Errorf("notation: field %q: %w", f.Name, err)
	}
	w.WriteString("  ")
	if f.Optional {
		w.WriteByte('[')
	}
	w.WriteString(f.Name)
	w.WriteString(" (")
	switch {
	case f.Variable && f.Kind == bytegrid.Varint && f.MinBits == 8 && f.MaxBits == 64:
		w.WriteByte('i')
	case !f.Variable:
		w.WriteString(strconv.Itoa(f.Bits))
	case f.MinBits == 0 && f.MaxBits == 0:
		w.WriteString("..")
	case f.MaxBits == 0:
		w.WriteString(strconv.Itoa(f.MinBits) + "..")
	default:
		w.WriteString(strconv.Itoa(f.MinBits) + ".." + strconv.Itoa(f.MaxBits))
	}
	w.WriteByte(')')
	if v := f.Value; v != "" {
		if strings.ContainsAny(v, ",[]{}\n") || strings.HasSuffix(v, "...") || strings.TrimSpace(v) != v {
			return fmt.Errorf("notation: field %q: the value %q cannot be written as a constant", f.Name, v)
		}
		w.WriteString(" = ")
		w.WriteString(v)
	}
	if f.Optional {
		w.WriteByte(']')
	}
	if f.Repeated {
		w.WriteString(" ...")
	}
	w.WriteString(",\n")
	return nil
}

// checkName reports a name the notation cannot hold.
func checkName(n string) error {
	if strings.TrimSpace(n) != n || n == "" {
		return errors.New("a name must not be empty or start or end with a space")
	}
	if i := strings.IndexAny(n, "()[]{},\n"); i >= 0 {
		return fmt.Errorf("the name holds %q, which the notation cannot hold", n[i])
	}
	return nil
}
