package tlspres

import (
	"fmt"
	"math/bits"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// decl is a declaration: a struct, an enum, or a type named after another ("uint16
// ProtocolVersion;", "opaque Random[32];", "opaque DistinguishedName<1..2^16-1>;").
type decl struct {
	kind      string // "struct", "enum", "type"
	name      string
	line, col int
	members   []member // a struct's
	enumBits  int      // an enum's width
	alias     member   // a named type's definition (its name unused)
}

// member is a struct's member, or a named type's definition.
type member struct {
	typ, name string
	line, col int
	array     string // [N] or [Struct.field]: what is between the brackets
	vector    bool   // <lo..hi>
	lo, hi    uint64
	value     string
	selectOn  string   // a select: its expression; typ is "select"
	cases     []string // a select's case types
}

// parser reads declarations from tokens.
type parser struct {
	*lexer
	tok token
}

func (p *parser) advanceTok() error {
	t, err := p.next()
	p.tok = t
	return err
}

// expect passes the token want, or says what was found instead.
func (p *parser) expect(want string) error {
	if p.tok.text != want {
		return p.unexpected("%q", want)
	}
	return p.advanceTok()
}

func (p *parser) unexpected(format string, a ...any) error {
	got := strconv.Quote(p.tok.text)
	if p.tok.text == "" {
		got = "the end"
	}
	return p.errAt(p.tok.line, p.tok.col, "want %s, got %s", fmt.Sprintf(format, a...), got)
}

// ident passes a name and returns it.
func (p *parser) ident(what string) (token, error) {
	t := p.tok
	if !identRE().MatchString(t.text) {
		return t, p.unexpected("%s", what)
	}
	return t, p.advanceTok()
}

var identRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.]*$`)
})

// declStartRE is a line that starts a declaration: struct {, enum {, or a named type.
var declStartRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:(?:struct|enum)\s*(?:\{|$)|[A-Za-z_]\w*\s+[A-Za-z_]\w*\s*(?:\[[^\]]*\]|<[^>]*>)?\s*;)`)
})

// decl reads one declaration, the current token its first.
func (p *parser) decl() (*decl, error) {
	d := &decl{line: p.tok.line, col: p.tok.col}
	switch p.tok.text {
	case "struct":
		d.kind = "struct"
		if err := p.structBody(d); err != nil {
			return nil, err
		}
	case "enum":
		d.kind = "enum"
		if err := p.enumBody(d); err != nil {
			return nil, err
		}
	default:
		d.kind = "type"
		m, err := p.member()
		if err != nil {
			return nil, err
		}
		d.alias, d.name = m, m.name
		return d, nil
	}
	name, err := p.ident("the declaration's name")
	if err != nil {
		return nil, err
	}
	d.name = name.text
	return d, p.expect(";")
}

func (p *parser) structBody(d *decl) error {
	if err := p.advanceTok(); err != nil {
		return err
	}
	if err := p.expect("{"); err != nil {
		return err
	}
	for p.tok.text != "}" {
		if p.tok.text == "" {
			return p.unexpected("a member or \"}\"")
		}
		if len(d.members) >= maxMembers {
			return p.errAt(p.tok.line, p.tok.col, "more than %d members", maxMembers)
		}
		m, err := p.member()
		if err != nil {
			return err
		}
		d.members = append(d.members, m)
	}
	return p.advanceTok()
}

// enumBody reads "{ name(N), name(A..B), (MAX) }" and sets the enum's width: the bytes
// that hold its largest value (RFC 8446 section 3.8).
func (p *parser) enumBody(d *decl) error {
	if err := p.advanceTok(); err != nil {
		return err
	}
	if err := p.expect("{"); err != nil {
		return err
	}
	var top uint64
	for p.tok.text != "}" {
		if p.tok.text != "(" {
			if _, err := p.ident("a value's name or \"(\""); err != nil {
				return err
			}
		}
		v, err := p.enumValue()
		if err != nil {
			return err
		}
		top = max(top, v)
		if p.tok.text == "," {
			if err := p.advanceTok(); err != nil {
				return err
			}
		} else if p.tok.text != "}" {
			return p.unexpected("\",\" or \"}\"")
		}
	}
	d.enumBits = 8 * max(1, (bits.Len64(top)+7)/8)
	return p.advanceTok()
}

// enumValue reads "(N)" or "(A..B)" and returns the largest number.
func (p *parser) enumValue() (uint64, error) {
	if err := p.expect("("); err != nil {
		return 0, err
	}
	v, err := p.number()
	if err != nil {
		return 0, err
	}
	if p.tok.text == ".." {
		if err := p.advanceTok(); err != nil {
			return 0, err
		}
		if v, err = p.number(); err != nil {
			return 0, err
		}
	}
	return v, p.expect(")")
}

// number reads N, 0xN, or a sum of terms N and N^M ("2^16-1", "2^8-2").
func (p *parser) number() (uint64, error) {
	v, err := p.term()
	for err == nil && (p.tok.text == "-" || p.tok.text == "+") {
		op := p.tok
		if err = p.advanceTok(); err != nil {
			break
		}
		var t uint64
		if t, err = p.term(); err != nil {
			break
		}
		switch {
		case op.text == "+" && v+t >= v:
			v += t
		case op.text == "-" && t <= v:
			v -= t
		default:
			err = p.errAt(op.line, op.col, "a number out of range")
		}
	}
	return v, err
}

func (p *parser) term() (uint64, error) {
	t := p.tok
	v, err := strconv.ParseUint(t.text, 0, 64)
	if err != nil {
		return 0, p.unexpected("a number")
	}
	if err := p.advanceTok(); err != nil {
		return 0, err
	}
	if p.tok.text != "^" {
		return v, nil
	}
	if err := p.advanceTok(); err != nil {
		return 0, err
	}
	e := p.tok
	n, err := strconv.ParseUint(e.text, 10, 8)
	r, ok := uint64(1), err == nil
	for i := uint64(0); ok && i < n; i++ {
		hi, lo := bits.Mul64(r, v)
		r, ok = lo, hi == 0
	}
	if !ok {
		return 0, p.errAt(e.line, e.col, "want a power below 2^64, got %s^%s", t.text, e.text)
	}
	return r, p.advanceTok()
}

// member reads "Type name;", "Type name[N];", "Type name<lo..hi>;", "Type name = V;" or a
// select.
func (p *parser) member() (member, error) {
	if p.tok.text == "select" {
		return p.selectMember()
	}
	typ, err := p.ident("a type")
	if err != nil {
		return member{}, err
	}
	name, err := p.ident("a name after the type " + typ.text)
	if err != nil {
		return member{}, err
	}
	m := member{typ: typ.text, name: name.text, line: typ.line, col: typ.col}
	if err := p.bounds(&m); err != nil {
		return m, err
	}
	if p.tok.text == "=" {
		if m.value, err = p.valueText(); err != nil {
			return m, err
		}
	}
	return m, p.expect(";")
}

// bounds reads a member's [N] or <lo..hi>, if any.
func (p *parser) bounds(m *member) error {
	switch p.tok.text {
	case "[":
		if err := p.advanceTok(); err != nil {
			return err
		}
		t := p.tok
		if _, err := p.ident("a length"); err != nil && !digitRE().MatchString(t.text) {
			return err
		} else if err != nil {
			if _, err := p.number(); err != nil {
				return err
			}
		}
		m.array = t.text
		return p.expect("]")
	case "<":
		return p.vectorBounds(m)
	}
	return nil
}

var digitRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]`) })

func (p *parser) vectorBounds(m *member) error {
	if err := p.advanceTok(); err != nil {
		return err
	}
	lo, err := p.number()
	if err != nil {
		return err
	}
	if err := p.expect(".."); err != nil {
		return err
	}
	at := p.tok
	hi, err := p.number()
	if err != nil {
		return err
	}
	if hi < lo || hi == 0 || hi >= 1<<32 {
		return p.errAt(at.line, at.col, "a vector's ceiling must be at least its floor, and from 1 to 2^32-1")
	}
	m.vector, m.lo, m.hi = true, lo, hi
	return p.expect(">")
}

// valueText reads "= V" up to the ";": a constant ("0x0303"), or braces ("{ 3, 3 }").
func (p *parser) valueText() (string, error) {
	if err := p.advanceTok(); err != nil {
		return "", err
	}
	var parts []string
	for p.tok.text != ";" {
		if p.tok.text == "" || p.tok.text == "}" && !strings.Contains(strings.Join(parts, ""), "{") {
			return "", p.unexpected("a value and \";\"")
		}
		parts = append(parts, p.tok.text)
		if err := p.advanceTok(); err != nil {
			return "", err
		}
	}
	return strings.Join(parts, " "), nil
}

// selectMember reads "select (E) { case a: T; case b, c: T name; … } [name];".
func (p *parser) selectMember() (member, error) {
	m := member{typ: "select", line: p.tok.line, col: p.tok.col}
	if err := p.advanceTok(); err != nil {
		return m, err
	}
	on, err := p.parenText()
	if err != nil {
		return m, err
	}
	m.selectOn = on
	if err := p.expect("{"); err != nil {
		return m, err
	}
	for p.tok.text != "}" {
		if err := p.selectCase(&m); err != nil {
			return m, err
		}
	}
	if err := p.advanceTok(); err != nil {
		return m, err
	}
	if p.tok.text != ";" {
		name, err := p.ident("the select's name or \";\"")
		if err != nil {
			return m, err
		}
		m.name = name.text
	}
	return m, p.expect(";")
}

// parenText reads "( … )" and returns what is inside, its tokens joined.
func (p *parser) parenText() (string, error) {
	if err := p.expect("("); err != nil {
		return "", err
	}
	var parts []string
	for p.tok.text != ")" {
		if p.tok.text == "" || p.tok.text == "{" || p.tok.text == ";" {
			return "", p.unexpected("\")\"")
		}
		parts = append(parts, p.tok.text)
		if err := p.advanceTok(); err != nil {
			return "", err
		}
	}
	return strings.Join(parts, " "), p.advanceTok()
}

// selectCase reads "case a, b:" and the members under it ("T;", "T name;", none).
func (p *parser) selectCase(m *member) error {
	if err := p.expect("case"); err != nil {
		return err
	}
	var values []string
	for {
		v, err := p.ident("a case's value")
		if err != nil {
			return err
		}
		values = append(values, v.text)
		if p.tok.text != "," {
			break
		}
		if err := p.advanceTok(); err != nil {
			return err
		}
	}
	if err := p.expect(":"); err != nil {
		return err
	}
	var types []string
	for p.tok.text != "case" && p.tok.text != "}" {
		if len(m.cases)+len(types) >= maxMembers {
			return p.errAt(p.tok.line, p.tok.col, "more than %d cases", maxMembers)
		}
		t, err := p.caseMember()
		if err != nil {
			return err
		}
		types = append(types, t)
	}
	if len(types) == 0 {
		types = []string{"nothing"}
	}
	m.cases = append(m.cases, strings.Join(values, ", ")+": "+strings.Join(types, ", "))
	return nil
}

// caseMember reads one member of a case, "T;" (RFC 8446's "case client_hello: ClientHello;")
// or a whole member ("opaque cert_data<1..2^24-1>;"), and returns it as printed, shortly.
func (p *parser) caseMember() (string, error) {
	typ, err := p.ident("a type, \"case\" or \"}\"")
	if err != nil {
		return "", err
	}
	if p.tok.text == ";" {
		return typ.text, p.advanceTok()
	}
	name, err := p.ident("a name or \";\"")
	if err != nil {
		return "", err
	}
	var skip member
	if err := p.bounds(&skip); err != nil {
		return "", err
	}
	return typ.text + " " + name.text, p.expect(";")
}
