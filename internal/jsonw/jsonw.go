// Package jsonw writes and reads the little JSON the browser decoder's packages need without
// encoding/json's reflection (Marshal, Unmarshal, Decoder.Decode), which links every type's
// fields and methods into a program: the same bytes as json.Marshal and json.MarshalIndent
// write (Writer, AppendString), and an object of strings, booleans and lists of integers read
// as json.Unmarshal reads it into a struct (ReadObject). The tests compare both with
// encoding/json, on fuzzed input too.
package jsonw

import (
	"strconv"
	"unicode/utf8"
)

// AppendString appends s as json.Marshal writes a string: quoted, with <, > and & escaped
// for HTML, U+2028 and U+2029 escaped for JavaScript, and each byte of invalid UTF-8
// replaced by U+FFFD (the character itself, as encoding/json writes it).
func AppendString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, "\uFFFD"...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&15])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// Writer writes one JSON value: compact, or indented as json.MarshalIndent(v, prefix,
// indent) indents it. Objects and arrays are opened with Object and Array and closed with End;
// an object's members are each a Key and a value.
type Writer struct {
	b              []byte
	prefix, indent string
	open           []bool // per open container: whether it has an element yet
	afterKey       bool
}

// New returns a Writer; prefix and indent "" write compact JSON.
func New(prefix, indent string) *Writer { return &Writer{prefix: prefix, indent: indent} }

// Bytes returns what was written.
func (w *Writer) Bytes() []byte { return w.b }

func (w *Writer) indented() bool { return w.prefix != "" || w.indent != "" }

// newline starts a line at depth n of indentation.
func (w *Writer) newline(n int) {
	w.b = append(w.b, '\n')
	w.b = append(w.b, w.prefix...)
	for range n {
		w.b = append(w.b, w.indent...)
	}
}

// value is what comes before any value or key: its separator and line.
func (w *Writer) value() {
	if w.afterKey {
		w.afterKey = false
		return
	}
	if n := len(w.open); n > 0 {
		if w.open[n-1] {
			w.b = append(w.b, ',')
		}
		w.open[n-1] = true
		if w.indented() {
			w.newline(n)
		}
	}
}

// Key writes an object member's key.
func (w *Writer) Key(k string) {
	w.value()
	w.b = AppendString(w.b, k)
	w.b = append(w.b, ':')
	if w.indented() {
		w.b = append(w.b, ' ')
	}
	w.afterKey = true
}

// Object opens an object.
func (w *Writer) Object() { w.value(); w.b = append(w.b, '{'); w.open = append(w.open, false) }

// Array opens an array.
func (w *Writer) Array() { w.value(); w.b = append(w.b, '['); w.open = append(w.open, false) }

// End closes the object or array opened last; close is '}' or ']'.
func (w *Writer) End(close byte) {
	n := len(w.open)
	had := w.open[n-1]
	w.open = w.open[:n-1]
	if had && w.indented() {
		w.newline(n - 1)
	}
	w.b = append(w.b, close)
}

// String writes a string.
func (w *Writer) String(s string) { w.value(); w.b = AppendString(w.b, s) }

// Int writes an integer.
func (w *Writer) Int(n int) { w.value(); w.b = strconv.AppendInt(w.b, int64(n), 10) }

// Bool writes true or false.
func (w *Writer) Bool(v bool) { w.value(); w.b = strconv.AppendBool(w.b, v) }

// Null writes null.
func (w *Writer) Null() { w.value(); w.b = append(w.b, "null"...) }

// OptString writes the member key: v unless v is "", as json.Marshal writes a field tagged
// omitempty.
func (w *Writer) OptString(key, v string) {
	if v != "" {
		w.Key(key)
		w.String(v)
	}
}

// OptInt writes the member key: n unless n is 0 (omitempty).
func (w *Writer) OptInt(key string, n int) {
	if n != 0 {
		w.Key(key)
		w.Int(n)
	}
}

// OptStrings writes the member key: s unless it is empty (omitempty).
func (w *Writer) OptStrings(key string, s []string) {
	if len(s) > 0 {
		w.Key(key)
		w.Strings(s)
	}
}

// Strings writes a list of strings as json.Marshal writes a []string: null for nil.
func (w *Writer) Strings(s []string) {
	if s == nil {
		w.Null()
		return
	}
	w.Array()
	for _, e := range s {
		w.String(e)
	}
	w.End(']')
}
