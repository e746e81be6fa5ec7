package bitfield

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The reader of the JSON that bit-field and WaveDrom take: JSON, and the JSON5 that WaveDrom's
// editor and documentation write (unquoted keys, single-quoted strings, trailing commas,
// comments, hexadecimal and signed numbers). Every value keeps its line and column.

type kind int

const (
	kNull kind = iota
	kBool
	kNum
	kStr
	kArr
	kObj
)

func (k kind) String() string {
	return [...]string{"null", "true or false", "a number", "a string", "an array", "an object"}[k]
}

type value struct {
	kind      kind
	b         bool
	num       float64
	str       string
	arr       []*value
	keys      []string
	vals      []*value
	keyPos    [][2]int // line and column of each key
	line, col int
}

// get returns the value of key in an object, or nil.
func (v *value) get(key string) *value {
	for i, k := range v.keys {
		if k == key {
			return v.vals[i]
		}
	}
	return nil
}

// scanKeys reports whether keys holds k, by a scan: the duplicate check of an object's first
// keys (a variable, so that a test counts the keys scanned).
var scanKeys = slices.Contains[[]string, string]

// maxDepth bounds nesting; maxValues the values of a document.
const (
	maxDepth  = 64
	maxValues = 1 << 20
)

type reader struct {
	file      string
	src       []byte
	pos       int
	line, col int
	values    int
}

func (r *reader) errAt(line, col int, format string, a ...any) error {
	return &Error{Reader: "bitfield", File: r.file, Line: line, Col: col, Err: fmt.Errorf(format, a...)}
}

func (r *reader) errf(format string, a ...any) error { return r.errAt(r.line, r.col, format, a...) }

func (r *reader) eof() bool { return r.pos >= len(r.src) }

func (r *reader) peek() byte {
	if r.eof() {
		return 0
	}
	return r.src[r.pos]
}

func (r *reader) next() byte {
	c := r.src[r.pos]
	r.pos++
	if c == '\n' {
		r.line++
		r.col = 1
	} else if c < 0x80 || c >= 0xc0 {
		r.col++
	}
	return c
}

// space skips white space and comments.
func (r *reader) space() error {
	for !r.eof() {
		switch c := r.peek(); {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			r.next()
		case c == 0xef && strings.HasPrefix(string(r.src[r.pos:min(r.pos+3, len(r.src))]), "\ufeff"):
			r.pos += 3
		case c == '/' && r.pos+1 < len(r.src) && r.src[r.pos+1] == '/':
			for !r.eof() && r.peek() != '\n' {
				r.next()
			}
		case c == '/' && r.pos+1 < len(r.src) && r.src[r.pos+1] == '*':
			line, col := r.line, r.col
			r.next()
			r.next()
			for {
				if r.eof() {
					return r.errAt(line, col, "comment not closed")
				}
				if r.peek() == '*' && r.pos+1 < len(r.src) && r.src[r.pos+1] == '/' {
					r.next()
					r.next()
					break
				}
				r.next()
			}
		default:
			return nil
		}
	}
	return nil
}

// document reads one value and nothing after it.
func (r *reader) document() (*value, error) {
	v, err := r.value(0)
	if err != nil {
		return nil, err
	}
	if err := r.space(); err != nil {
		return nil, err
	}
	if !r.eof() {
		return nil, r.errf("unexpected %q after the document", r.peek())
	}
	return v, nil
}

func (r *reader) value(depth int) (*value, error) {
	if err := r.space(); err != nil {
		return nil, err
	}
	if depth > maxDepth {
		return nil, r.errf("nested more than %d deep", maxDepth)
	}
	if r.values++; r.values > maxValues {
		return nil, r.errf("more than %d values", maxValues)
	}
	v := &value{line: r.line, col: r.col}
	if r.eof() {
		return nil, r.errf("unexpected end of input, want a value")
	}
	switch c := r.peek(); {
	case c == '[':
		v.kind = kArr
		r.next()
		if err := r.array(v, depth); err != nil {
			return nil, err
		}
		return v, nil
	case c == '{':
		v.kind = kObj
		r.next()
		if err := r.object(v, depth); err != nil {
			return nil, err
		}
		return v, nil
	case c == '"' || c == '\'':
		s, err := r.string()
		if err != nil {
			return nil, err
		}
		v.kind, v.str = kStr, s
		return v, nil
	case c == '-' || c == '+' || c == '.' || c >= '0' && c <= '9':
		n, err := r.number()
		if err != nil {
			return nil, err
		}
		v.kind, v.num = kNum, n
		return v, nil
	case isIdentStart(c):
		if err := r.word(v); err != nil {
			return nil, err
		}
		return v, nil
	}
	return nil, r.unexpected("a value")
}

// array reads the elements of the array v, after its "[", up to its "]".
func (r *reader) array(v *value, depth int) error {
	for {
		if err := r.space(); err != nil {
			return err
		}
		if r.peek() == ']' {
			r.next()
			return nil
		}
		e, err := r.value(depth + 1)
		if err != nil {
			return err
		}
		v.arr = append(v.arr, e)
		if err := r.space(); err != nil {
			return err
		}
		switch r.peek() {
		case ',':
			r.next()
		case ']':
		default:
			return r.unexpected("\",\" or \"]\"")
		}
	}
}

// object reads the keys and values of the object v, after its "{", up to its "}".
func (r *reader) object(v *value, depth int) error {
	// The keys so far, for the duplicate check: a scan while they are few, a set once
	// they are many (an object of 100,000 keys took 15 s of comparisons).
	var seen map[string]bool
	for {
		if err := r.space(); err != nil {
			return err
		}
		if r.peek() == '}' {
			r.next()
			return nil
		}
		kline, kcol := r.line, r.col
		k, err := r.key()
		if err != nil {
			return err
		}
		if seen[k] || seen == nil && scanKeys(v.keys, k) {
			return r.errAt(kline, kcol, "key %q given twice", k)
		}
		if err := r.space(); err != nil {
			return err
		}
		if r.peek() != ':' {
			return r.unexpected("\":\" after the key " + strconv.Quote(k))
		}
		r.next()
		e, err := r.value(depth + 1)
		if err != nil {
			return err
		}
		v.keys, v.vals = append(v.keys, k), append(v.vals, e)
		v.keyPos = append(v.keyPos, [2]int{kline, kcol})
		switch {
		case seen != nil:
			seen[k] = true
		case len(v.keys) > 16:
			seen = make(map[string]bool, 2*len(v.keys))
			for _, k := range v.keys {
				seen[k] = true
			}
		}
		if err := r.space(); err != nil {
			return err
		}
		switch r.peek() {
		case ',':
			r.next()
		case '}':
		default:
			return r.unexpected("\",\" or \"}\"")
		}
	}
}

// word reads a bare word, as v: true, false or null.
func (r *reader) word(v *value) error {
	switch w := r.ident(); w {
	case "true", "false":
		v.kind, v.b = kBool, w == "true"
	case "null":
		v.kind = kNull
	default:
		return r.errAt(v.line, v.col, "unexpected word %q, want a value", w)
	}
	return nil
}

func (r *reader) unexpected(want string) error {
	if r.eof() {
		return r.errf("unexpected end of input, want %s", want)
	}
	c, _ := utf8.DecodeRune(r.src[r.pos:])
	return r.errf("unexpected %q, want %s", c, want)
}

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$'
}

func (r *reader) ident() string {
	start := r.pos
	for !r.eof() {
		c := r.peek()
		if !isIdentStart(c) && !(c >= '0' && c <= '9') {
			break
		}
		r.next()
	}
	return string(r.src[start:r.pos])
}

// key reads an object key: a string or an identifier.
func (r *reader) key() (string, error) {
	if c := r.peek(); c == '"' || c == '\'' {
		return r.string()
	}
	if isIdentStart(r.peek()) {
		return r.ident(), nil
	}
	return "", r.unexpected("a key")
}

// string reads a string quoted with " or '.
func (r *reader) string() (string, error) {
	line, col := r.line, r.col
	q := r.next()
	var b strings.Builder
	for {
		if r.eof() {
			return "", r.errAt(line, col, "string not closed")
		}
		c := r.next()
		switch {
		case c == q:
			return b.String(), nil
		case c == '\n':
			return "", r.errAt(line, col, "string not closed on its line")
		case c == '\\':
			if r.eof() {
				return "", r.errAt(line, col, "string not closed")
			}
			e := r.next()
			switch e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case '0':
				b.WriteByte(0)
			case 'u':
				if r.pos+4 > len(r.src) {
					return "", r.errf("\\u wants four hex digits")
				}
				n, err := strconv.ParseUint(string(r.src[r.pos:r.pos+4]), 16, 32)
				if err != nil {
					return "", r.errf("\\u wants four hex digits")
				}
				for range 4 {
					r.next()
				}
				b.WriteRune(rune(n))
			case '\n':
			default:
				b.WriteByte(e)
			}
		default:
			b.WriteByte(c)
		}
	}
}

// number reads a decimal or hexadecimal number, signed or not.
func (r *reader) number() (float64, error) {
	line, col := r.line, r.col
	start := r.pos
	if c := r.peek(); c == '-' || c == '+' {
		r.next()
	}
	for !r.eof() {
		c := r.peek()
		if c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '.' ||
			(c == '+' || c == '-') && (r.src[r.pos-1] == 'e' || r.src[r.pos-1] == 'E') && !strings.HasPrefix(strings.TrimLeft(string(r.src[start:r.pos]), "+-"), "0x") {
			r.next()
			continue
		}
		break
	}
	s := string(r.src[start:r.pos])
	t := strings.TrimPrefix(s, "+")
	neg := strings.HasPrefix(t, "-")
	u := strings.TrimPrefix(t, "-")
	if strings.HasPrefix(u, "0x") || strings.HasPrefix(u, "0X") {
		n, err := strconv.ParseUint(u[2:], 16, 53)
		if err != nil {
			return 0, r.errAt(line, col, "bad number %q", s)
		}
		if neg {
			return -float64(n), nil
		}
		return float64(n), nil
	}
	n, err := strconv.ParseFloat(t, 64)
	if err != nil || strings.ContainsAny(u, "xXnNiI_") {
		return 0, r.errAt(line, col, "bad number %q", s)
	}
	return n, nil
}
