package schemas

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/kafkagrid/kafkagrid/internal/jsonw"
)

// This file reads the spec files' JSON dialect (JSON plus comments) into a small tree of
// values that remember where they start, so that every error can name a line and column.

// maxDepth bounds the nesting of JSON values; the real files nest less than 20 deep.
const maxDepth = 200

// stripComments returns a copy of data with every comment ("//" to the end of the line, and
// "/* … */") outside strings replaced by spaces. Line breaks are kept, so byte offsets and
// lines are those of data. An unterminated block comment is reported by its offset.
func stripComments(data []byte) ([]byte, int, bool) {
	out := bytes.Clone(data)
	inString, escaped := false, false
	for i := 0; i < len(out); i++ {
		c := out[i]
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch {
		case c == '"':
			inString = true
		case c == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n' && out[i] != '\r'; i++ {
				out[i] = ' '
			}
		case c == '/' && i+1 < len(out) && out[i+1] == '*':
			start := i
			out[i], out[i+1] = ' ', ' '
			i += 2
			for ; i < len(out) && !(out[i] == '*' && i+1 < len(out) && out[i+1] == '/'); i++ {
				if out[i] != '\n' && out[i] != '\r' {
					out[i] = ' '
				}
			}
			if i >= len(out) {
				return nil, start, false
			}
			out[i], out[i+1] = ' ', ' '
			i++
		}
	}
	return out, 0, true
}

// kind is the kind of a JSON value.
type kind byte

const (
	kNull kind = iota
	kBool
	kNumber
	kString
	kArray
	kObject
)

func (k kind) String() string {
	return [...]string{"null", "a boolean", "a number", "a string", "an array", "an object"}[k]
}

// node is one JSON value and the byte offset where it starts.
type node struct {
	kind    kind
	off     int
	str     string // string value, or number literal
	boolean bool
	members []member       // objects, in file order
	elems   []*node        // arrays
	index   map[string]int // objects with many keys: member index by key
}

// lookup returns the index of key among an object's members. Past a few keys it builds and
// then uses an index, so that reading an object stays linear in its size.
func (n *node) lookup(key string) (int, bool) {
	const scan = 16
	if n.index == nil && len(n.members) > scan {
		n.index = make(map[string]int, 2*len(n.members))
		for i, m := range n.members {
			n.index[m.key] = i
		}
	}
	if n.index != nil {
		i, ok := n.index[key]
		return i, ok
	}
	for i, m := range n.members {
		if m.key == key {
			return i, true
		}
	}
	return 0, false
}

// member is one key of an object.
type member struct {
	key    string
	keyOff int
	val    *node
}

// syntaxError is a JSON error at a byte offset. The same shape carries the notes on lenient
// input that decodeJSON accepts.
type syntaxError struct {
	off int
	msg string
}

// decodeJSON decodes the comment-free text into a tree. Like Kafka's generator (Jackson with
// its defaults), it accepts two things strict JSON readers refuse, and returns a note for each:
// a key repeated in an object (the last value wins, as in Jackson), and text after the
// top-level value (Kafka 2.8's generator did not check for it; its DescribeProducersRequest.json
// ends in a stray "]").
func decodeJSON(text []byte) (*node, []syntaxError, *syntaxError) {
	d := &jsonReader{text: text, dec: json.NewDecoder(bytes.NewReader(text))}
	d.dec.UseNumber()
	n, err := d.value(0)
	if err != nil {
		return nil, nil, err
	}
	if _, e := d.dec.Token(); e != io.EOF {
		d.notes = append(d.notes, syntaxError{off: d.skip(int(d.dec.InputOffset())),
			msg: "text after the top-level value ignored (Kafka 2.8's generator ignored it too)"})
	}
	return n, d.notes, nil
}

type jsonReader struct {
	text  []byte
	dec   *json.Decoder
	notes []syntaxError
}

// skip returns the offset of the next token at or after off: past white space, ':' and ','.
func (d *jsonReader) skip(off int) int {
	for off < len(d.text) {
		switch d.text[off] {
		case ' ', '\t', '\n', '\r', ':', ',':
			off++
		default:
			return off
		}
	}
	return off
}

// token reads the next token and the offset where it starts.
func (d *jsonReader) token() (json.Token, int, *syntaxError) {
	off := d.skip(int(d.dec.InputOffset()))
	t, err := d.dec.Token()
	if err != nil {
		var se *json.SyntaxError
		switch {
		case errors.As(err, &se):
			return nil, off, &syntaxError{off: d.errOffset(se, off), msg: se.Error()}
		case err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF):
			return nil, off, &syntaxError{off: len(d.text), msg: "unexpected end of file"}
		default:
			return nil, off, &syntaxError{off: off, msg: err.Error()}
		}
	}
	return t, off, nil
}

// errOffset returns the offset of the character a syntax error is about, in the token that
// starts at start. json.SyntaxError's Offset is where the decoder stood: before the culprit
// (at the value's start) in some Go releases, just after it in others (Go 1.27). The message
// names the offending character ("invalid character 'x' …"): the first of it at or after the
// token's start, or Offset if that is earlier, is the culprit.
func (d *jsonReader) errOffset(se *json.SyntaxError, start int) int {
	off := max(0, min(int(se.Offset), start, len(d.text)))
	rest, ok := strings.CutPrefix(se.Error(), "invalid character '")
	if !ok {
		// Go 1.27: "invalid escape sequence `\q` in string": the character after the '\'.
		if _, seq, ok := strings.Cut(se.Error(), "`"); ok {
			if seq, _, ok = strings.Cut(seq, "`"); ok && len(seq) > 1 {
				if i := bytes.Index(d.text[off:], []byte(seq)); i >= 0 {
					return off + i + 1
				}
			}
		}
		return off
	}
	q, _, ok := strings.Cut(rest, "' ")
	if !ok {
		q = strings.TrimSuffix(rest, "'")
	}
	if q == `\'` {
		q = "'"
	} else if u, err := strconv.Unquote(`"` + q + `"`); err == nil {
		q = u
	}
	if i := bytes.Index(d.text[off:], []byte(q)); q != "" && i >= 0 {
		return off + i
	}
	return off
}

func (d *jsonReader) value(depth int) (*node, *syntaxError) {
	t, off, err := d.token()
	if err != nil {
		return nil, err
	}
	return d.valueFrom(t, off, depth)
}

func (d *jsonReader) valueFrom(t json.Token, off, depth int) (*node, *syntaxError) {
	if depth > maxDepth {
		return nil, &syntaxError{off: off, msg: fmt.Sprintf("nested deeper than %d levels", maxDepth)}
	}
	n := &node{off: off}
	switch v := t.(type) {
	case nil:
		n.kind = kNull
	case bool:
		n.kind, n.boolean = kBool, v
	case json.Number:
		n.kind, n.str = kNumber, string(v)
	case string:
		n.kind, n.str = kString, v
	case json.Delim:
		switch v {
		case '{':
			n.kind = kObject
			for {
				t, koff, err := d.token()
				if err != nil {
					return nil, err
				}
				if t == json.Delim('}') {
					return n, nil
				}
				key, ok := t.(string)
				if !ok {
					return nil, &syntaxError{off: koff, msg: "object key is not a string"}
				}
				val, err := d.value(depth + 1)
				if err != nil {
					return nil, err
				}
				// Real files repeat a key now and then ("versions" twice in 3.9's
				// DescribeTopicPartitionsRequest). Jackson keeps the last value; so do we,
				// and say so. Keys are found through a map once an object has many, so a
				// hostile object costs linear time.
				if i, dup := n.lookup(key); dup {
					m := &n.members[i]
					what := "the same value"
					if !sameScalar(m.val, val) {
						what = "another value; the last one is used, as Kafka's generator does"
					}
					d.notes = append(d.notes, syntaxError{off: koff, msg: fmt.Sprintf("key %q repeated with %s", key, what)})
					m.keyOff, m.val = koff, val
					continue
				}
				n.members = append(n.members, member{key: key, keyOff: koff, val: val})
				if n.index != nil {
					n.index[key] = len(n.members) - 1
				}
			}
		case '[':
			n.kind = kArray
			for {
				t, eoff, err := d.token()
				if err != nil {
					return nil, err
				}
				if t == json.Delim(']') {
					return n, nil
				}
				e, err := d.valueFrom(t, eoff, depth+1)
				if err != nil {
					return nil, err
				}
				n.elems = append(n.elems, e)
			}
		default:
			return nil, &syntaxError{off: off, msg: fmt.Sprintf("unexpected %q", rune(v))}
		}
	}
	return n, nil
}

// positions converts byte offsets of a file to 1-based line and column; the column counts
// characters (runes), not bytes.
type positions struct {
	text  []byte
	lines []int // offset of each line's first byte
	// The last position asked for: the parser asks in increasing order, so counting on from it
	// keeps a file that is one long line linear.
	lastOff, lastLine, lastCol int
	scanned                    int // bytes counted over to find columns: the work a test bounds
}

func newPositions(text []byte) *positions {
	p := &positions{text: text, lines: []int{0}, lastOff: -1}
	for i, c := range text {
		if c == '\n' {
			p.lines = append(p.lines, i+1)
		}
	}
	return p
}

func (p *positions) pos(off int) Pos {
	off = max(0, min(off, len(p.text)))
	line := sort.Search(len(p.lines), func(i int) bool { return p.lines[i] > off }) - 1
	start, col := p.lines[line], 1
	if line == p.lastLine && off >= p.lastOff && p.lastOff >= start {
		start, col = p.lastOff, p.lastCol
	}
	col += utf8.RuneCount(p.text[start:off])
	p.scanned += off - start
	p.lastOff, p.lastLine, p.lastCol = off, line, col
	return Pos{Line: line + 1, Col: col}
}

// sameScalar reports whether a and b are the same string, number, boolean or null.
func sameScalar(a, b *node) bool {
	return a.kind == b.kind && a.kind != kArray && a.kind != kObject && a.str == b.str && a.boolean == b.boolean
}

// compact writes a value as compact JSON text, for keeping values of keys the format does not
// define. Strings are quoted as encoding/json quotes them.
func compact(n *node) string {
	var b strings.Builder
	var write func(n *node)
	write = func(n *node) {
		switch n.kind {
		case kNull:
			b.WriteString("null")
		case kBool:
			b.WriteString(strconv.FormatBool(n.boolean))
		case kNumber:
			b.WriteString(n.str)
		case kString:
			b.Write(jsonw.AppendString(nil, n.str)) // json.Marshal's, without its reflection
		case kArray:
			b.WriteByte('[')
			for i, e := range n.elems {
				if i > 0 {
					b.WriteByte(',')
				}
				write(e)
			}
			b.WriteByte(']')
		case kObject:
			b.WriteByte('{')
			for i, m := range n.members {
				if i > 0 {
					b.WriteByte(',')
				}
				b.Write(jsonw.AppendString(nil, m.key))
				b.WriteByte(':')
				write(m.val)
			}
			b.WriteByte('}')
		}
	}
	write(n)
	return b.String()
}
