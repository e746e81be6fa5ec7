package tlspres

import (
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/kafkagrid/kafkagrid/bytegrid"
)

// builtin are the widths of the language's own types.
var builtin = map[string]int{"uint8": 8, "uint16": 16, "uint24": 24, "uint32": 32, "uint64": 64, "opaque": 8}

// rfc8446 are widths of types RFC 8446 declares, for a structure copied without them: read
// at these widths, and said in a warning.
var rfc8446 = map[string]int{
	"ProtocolVersion": 16, "ContentType": 8, "HandshakeType": 8, "ExtensionType": 16,
	"NamedGroup": 16, "SignatureScheme": 16, "CipherSuite": 16, "Random": 256,
	"AlertLevel": 8, "AlertDescription": 8, "CertificateType": 8, "PskKeyExchangeMode": 8,
	"KeyUpdateRequest": 8, "CertificateStatusType": 8,
}

// spec lays out the root structure (and, with o.All, the others none refers to).
func (d *document) spec(o Options) (*Spec, error) {
	roots := d.roots()
	if len(roots) == 0 {
		return d.typeSpec()
	}
	top := roots[0]
	if others := roots[1:]; len(others) > 0 && !o.All {
		d.warnings = append(d.warnings, fmt.Sprintf("%s: drawn: %s; not drawn (no structure refers to them; grid -all draws them): %s", d.file, top.name, names(others)))
	}
	e := &expander{doc: d, seen: map[string]bool{}}
	if err := e.structure(top, "", "", false, 0); err != nil {
		return nil, err
	}
	if o.All {
		if err := e.detached(roots[1:]); err != nil {
			return nil, err
		}
	}
	s := &Spec{Name: top.name, Fields: e.fields, Options: bytegrid.Options{RowBits: rowBits}}
	s.Desc = strings.TrimSpace(d.source + "\n" + d.caption)
	s.Caption = d.caption
	s.Warnings = append(d.warnings, e.warnings...)
	if err := bytegrid.CheckFields(s.Fields); err != nil {
		return nil, &Error{Reader: "tlspres", File: d.file, Err: err}
	}
	return s, nil
}

// typeSpec draws a document of named types and enums only: the last declared, as one
// structure of one member.
func (d *document) typeSpec() (*Spec, error) {
	last := d.decls[len(d.decls)-1]
	x := &decl{kind: "struct", name: last.name, line: last.line, col: last.col}
	m := member{typ: last.name, name: last.name, line: last.line, col: last.col}
	if last.kind == "type" {
		m = last.alias
	}
	x.members = []member{m}
	e := &expander{doc: d, seen: map[string]bool{}}
	if err := e.structure(x, "", "", false, 0); err != nil {
		return nil, err
	}
	s := &Spec{Name: last.name, Fields: e.fields, Options: bytegrid.Options{RowBits: rowBits}, Warnings: append(d.warnings, e.warnings...)}
	s.Desc = strings.TrimSpace(d.source + "\n" + d.caption)
	s.Caption = d.caption
	return s, nil
}

// roots are the structures no other refers to, the one the caption names first.
func (d *document) roots() []*decl {
	used := map[string]bool{}
	for _, x := range d.decls {
		for _, m := range x.members {
			used[m.typ] = true
			for _, c := range m.cases {
				used[c] = true
			}
		}
	}
	var roots []*decl
	for _, x := range d.decls {
		if x.kind == "struct" && (!used[x.name] || d.captionNames(x.name)) {
			roots = append(roots, x)
		}
	}
	slices.SortStableFunc(roots, func(a, b *decl) int {
		return b2i(d.captionNames(b.name)) - b2i(d.captionNames(a.name))
	})
	return roots
}

func (d *document) captionNames(name string) bool {
	m := captionRE().FindStringSubmatch(d.caption)
	return m != nil && (strings.EqualFold(strings.TrimSpace(m[1]), name) ||
		slices.Contains(strings.Fields(m[1]), name))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func names(ds []*decl) string {
	var n []string
	for _, d := range ds {
		n = append(n, d.name)
	}
	return strings.Join(n, ", ")
}

// expander lays out fields one after the other.
type expander struct {
	doc      *document
	fields   []bytegrid.Field
	off      int
	seen     map[string]bool // the structures being expanded, against cycles
	warnings []string
	warned   map[string]bool
}

func (e *expander) errAt(m member, format string, a ...any) error {
	return &Error{Reader: "tlspres", File: e.doc.file, Line: m.line, Col: m.col, Field: strconv.Quote(m.name), Err: fmt.Errorf(format, a...)}
}

func (e *expander) warnOnce(key string, m member, format string, a ...any) {
	if e.warned == nil {
		e.warned = map[string]bool{}
	}
	if e.warned[key] {
		return
	}
	e.warned[key] = true
	e.warnings = append(e.warnings, fmt.Sprintf("%s:%d:%d: %s", e.doc.file, m.line, m.col, fmt.Sprintf(format, a...)))
}

// detached lays out each structure after the root from a row of its own, under a caption.
func (e *expander) detached(others []*decl) error {
	for _, x := range others {
		first := len(e.fields)
		if e.off%rowBits != 0 {
			e.off += rowBits - e.off%rowBits
		}
		if err := e.structure(x, x.name, x.name, false, 0); err != nil {
			return err
		}
		if first < len(e.fields) {
			e.fields[first].Caption = x.name
			e.fields[first].RowBreak = true
		}
	}
	return nil
}

// structure lays out x's members, in group (with paths under path), repeated when rep.
func (e *expander) structure(x *decl, group, path string, rep bool, depth int) error {
	if depth > maxDepth {
		return e.errAt(member{name: x.name, line: x.line, col: x.col}, "structures nested more than %d deep", maxDepth)
	}
	if e.seen[x.name] {
		return e.errAt(member{name: x.name, line: x.line, col: x.col}, "structure %q contains itself", x.name)
	}
	e.seen[x.name] = true
	defer delete(e.seen, x.name)
	for _, m := range x.members {
		if err := e.member(m, group, path, rep, depth); err != nil {
			return err
		}
	}
	return nil
}

// member lays out one member: a select, a vector, an array, or a value of its type.
func (e *expander) member(m member, group, path string, rep bool, depth int) error {
	if m.typ == "select" && m.name == "" {
		m.name = "select (" + m.selectOn + ")"
	}
	base := bytegrid.Field{Name: m.name, Group: group, Repeated: rep, Value: m.value, Type: m.typ, Path: m.name}
	if path != "" {
		base.Path = path + "." + m.name
	}
	switch {
	case m.typ == "select":
		return e.selectField(m, base)
	case m.vector:
		return e.vector(m, base, depth)
	case m.array != "":
		return e.array(m, base)
	}
	return e.typed(m, base, depth)
}

func (e *expander) selectField(m member, f bytegrid.Field) error {
	f.Type = ""
	f.Desc = selectDesc + strings.Join(m.cases, "; ")
	return e.variable(m, f, 0, 0)
}

// selectDesc starts the description of a select's field, its cases after it.
const selectDesc = "one of: "

// Select reports whether f is a select as Parse reads one ("select (E) { case a: T; … }"),
// and if so its cases as printed ("a: T"): a variable field standing for one of several
// structures, which a form without a choice (RFC 9000 notation) cannot write back.
func Select(f bytegrid.Field) (cases []string, ok bool) {
	c, ok := strings.CutPrefix(f.Desc, selectDesc)
	if !ok || !f.Variable {
		return nil, false
	}
	return strings.Split(c, "; "), true
}

// vector lays out a length prefix sized from the ceiling, then the elements.
func (e *expander) vector(m member, f bytegrid.Field, depth int) error {
	prefix := f
	prefix.Name, prefix.Kind, prefix.Value, prefix.Type = m.name+" length", bytegrid.Length, "", ""
	prefix.Bits = 8 * max(1, (bits.Len64(m.hi)+7)/8)
	if prefix.Path != "" {
		prefix.Path += " length"
	}
	if err := e.add(m, prefix); err != nil {
		return err
	}
	if x := e.doc.byName[m.typ]; x != nil && x.kind == "struct" {
		return e.structure(x, m.typ, f.Path, true, depth+1)
	}
	f.LengthFrom = prefix.Name
	return e.variable(m, f, int(min(m.lo, 1<<24))*8, int(min(m.hi, 1<<24))*8)
}

// array lays out T name[N] (N elements of a fixed T) or T name[field] (a count another
// field gives: variable).
func (e *expander) array(m member, f bytegrid.Field) error {
	n, err := strconv.ParseUint(m.array, 0, 32)
	if err != nil {
		ref := m.array[strings.LastIndexByte(m.array, '.')+1:]
		if slices.ContainsFunc(e.fields, func(g bytegrid.Field) bool { return g.Name == ref }) {
			f.LengthFrom = ref
		}
		return e.variable(m, f, 0, 0)
	}
	w, ok := e.width(m)
	if !ok {
		return e.variable(m, f, 0, 0)
	}
	if n == 0 || uint64(w)*n > 1<<27 {
		return e.errAt(m, "%d elements of %d bits: want 1 to 2^27 bits", n, w)
	}
	f.Bits = w * int(n)
	return e.add(m, f)
}

// typed lays out a member of a plain type: built in, an enum, a named type, a struct.
func (e *expander) typed(m member, f bytegrid.Field, depth int) error {
	x := e.doc.byName[m.typ]
	switch {
	case x != nil && x.kind == "struct":
		return e.structure(x, m.typ, f.Path, f.Repeated, depth+1)
	case x != nil && x.kind == "type" && (x.alias.vector || x.alias.array != ""):
		a := x.alias
		a.name, a.line, a.col, a.value = m.name, m.line, m.col, m.value
		return e.member(a, f.Group, strings.TrimSuffix(f.Path, "."+m.name), f.Repeated, depth+1)
	}
	w, ok := e.width(m)
	if !ok {
		return e.variable(m, f, 0, 0)
	}
	f.Bits = w
	return e.add(m, f)
}

// width is the width of one value of m's type, when it has a fixed one.
func (e *expander) width(m member) (int, bool) {
	if w, ok := builtin[m.typ]; ok {
		return w, true
	}
	if x := e.doc.byName[m.typ]; x != nil {
		return e.declWidth(x, m)
	}
	if w, ok := rfc8446[m.typ]; ok {
		e.warnOnce(m.typ, m, "type %s is not declared here: read as RFC 8446 declares it, %d bits", m.typ, w)
		return w, true
	}
	e.warnOnce(m.typ, m, "type %s is not declared here and its width is not known: drawn as a variable field", m.typ)
	return 0, false
}

// declWidth is the fixed width of a declared type, when it has one.
func (e *expander) declWidth(x *decl, m member) (int, bool) {
	switch x.kind {
	case "enum":
		return x.enumBits, true
	case "type":
		a := x.alias
		if a.vector || a.typ == x.name {
			return 0, false
		}
		inner := member{typ: a.typ, name: m.name, line: m.line, col: m.col}
		w, ok := e.width(inner)
		if n, err := strconv.ParseUint(a.array, 0, 16); ok && a.array != "" && err == nil {
			return w * int(n), true
		}
		return w, ok && a.array == ""
	}
	return 0, false
}

// variable lays out a field of no fixed length: drawn to its row's end (a whole row from a
// row's start, more for a minimum that needs it), at most its maximum.
func (e *expander) variable(m member, f bytegrid.Field, lo, hi int) error {
	f.Variable, f.MinBits, f.MaxBits = true, lo, hi
	n := rowBits - e.off%rowBits
	for n < lo && n < 1<<20 {
		n += rowBits
	}
	if hi > 0 && n > hi {
		n = hi
	}
	f.Bits = n
	return e.add(m, f)
}

func (e *expander) add(m member, f bytegrid.Field) error {
	if len(e.fields) >= maxFields {
		return e.errAt(m, "more than %d fields", maxFields)
	}
	if e.off+f.Bits > 1<<30 {
		return e.errAt(m, "the fields pass 2^30 bits")
	}
	f.Offset = e.off
	e.off += f.Bits
	e.fields = append(e.fields, f)
	return nil
}
