package kafka

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"strconv"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/kafkagrid/kafkagrid/internal/jsonw"
)

// WriteJSON writes the frame's JSON, what MarshalJSON makes, indented as json.Encoder writes it
// with SetIndent(prefix, indent) (without the Encoder's newline after it); with both empty, it
// writes it compact, byte for byte what MarshalJSON returns. It writes node by node, so that
// its memory is the tree's and not the text's: indented, the JSON of a frame of a million nodes
// is some 700 MB, and encoding/json holds it twice over to indent it.
func (f *Frame) WriteJSON(w io.Writer, prefix, indent string) error {
	return f.WriteJSONError(w, prefix, indent, nil)
}

// WriteJSONError is WriteJSON of a frame that failed with err (nil: WriteJSON): after its
// tree, decoded up to the failure, an "error" member says where and what, as the text does:
// {"message": the error's text, "path": the field's path, "offset": the byte offset} (path
// and offset when err is an *Error).
func (f *Frame) WriteJSONError(w io.Writer, prefix, indent string, err error) error {
	j := newJSONWriter(w, prefix, indent)
	j.open('{')
	api, key := "", int64(-1)
	if f.API != nil {
		api, key = f.API.Name, int64(f.API.Key)
	}
	j.key("api")
	j.str(api)
	j.key("key")
	j.int(key)
	j.key("version")
	j.int(int64(f.Version))
	j.key("response")
	j.bool(f.Response)
	j.key("headerVersion")
	j.int(int64(f.HeaderVersion))
	j.key("correlationId")
	j.int(int64(f.CorrelationID))
	j.key("size")
	j.int(int64(len(f.Bytes)))
	j.key("hex")
	j.b = append(j.b, '"')
	for b := f.Bytes; len(b) > 0; {
		n := min(len(b), jsonFlush/2)
		j.b = hex.AppendEncode(j.b, b[:n])
		b = b[n:]
		j.spill()
	}
	j.b = append(j.b, '"')
	j.key("root")
	j.node(f.Root)
	if err != nil {
		j.key("error")
		j.open('{')
		j.key("message")
		j.str(err.Error())
		var ke *Error
		if errors.As(err, &ke) {
			j.key("path")
			j.str(ke.Path)
			j.key("offset")
			j.int(int64(ke.Offset))
		}
		j.close('}')
	}
	j.close('}')
	return j.flush()
}

// newJSONWriter writes to w through a buffer of its own, taken from jsonPool: every piece is
// appended to it, and it goes to w in blocks of at least jsonFlush bytes (a call to w for each
// piece, as through a bufio.Writer, took a fifth of decode -format json's time).
func newJSONWriter(w io.Writer, prefix, indent string) *jsonWriter {
	j := jsonPool.Get().(*jsonWriter)
	j.w, j.b, j.err = w, j.b[:0], nil
	j.prefix, j.indent, j.compact = prefix, indent, prefix == "" && indent == ""
	j.depth, j.first = 0, j.first[:0]
	return j
}

// jsonPool keeps jsonWriters and their buffers between frames.
var jsonPool = sync.Pool{New: func() any { return &jsonWriter{b: make([]byte, 0, 2*jsonFlush)} }}

// jsonFlush is the size of the blocks a jsonWriter writes.
const jsonFlush = 32 << 10

// flush writes out what is buffered, puts the writer back in jsonPool (it is not used after)
// and returns the first error.
func (j *jsonWriter) flush() error {
	if j.err == nil && len(j.b) > 0 {
		_, j.err = j.w.Write(j.b)
	}
	err := j.err
	j.w = nil
	if cap(j.b) <= 1<<20 {
		jsonPool.Put(j)
	}
	return err
}

// spill writes out the buffer once it holds a block.
func (j *jsonWriter) spill() {
	if len(j.b) >= jsonFlush {
		if j.err == nil {
			_, j.err = j.w.Write(j.b)
		}
		j.b = j.b[:0]
	}
}

// jsonWriter writes indented JSON as encoding/json's Indent lays it out.
type jsonWriter struct {
	w              io.Writer
	b              []byte // written, not yet passed to w
	prefix, indent string
	compact        bool // no newlines, no space after a colon
	depth          int
	first          []bool // per open container: no member written yet
	err            error
}

func (j *jsonWriter) raw(s string) { j.b = append(j.b, s...) }

func (j *jsonWriter) newline() {
	if j.compact {
		return
	}
	j.b = append(j.b, '\n')
	j.b = append(j.b, j.prefix...)
	for range j.depth {
		j.b = append(j.b, j.indent...)
	}
}

func (j *jsonWriter) open(c byte) {
	j.b = append(j.b, c)
	j.depth++
	j.first = append(j.first, true)
}

func (j *jsonWriter) close(c byte) {
	empty := j.first[len(j.first)-1]
	j.first = j.first[:len(j.first)-1]
	j.depth--
	if !empty {
		j.newline()
	}
	j.b = append(j.b, c)
}

// member starts the next member of the innermost container.
func (j *jsonWriter) member() {
	if top := len(j.first) - 1; j.first[top] {
		j.first[top] = false
	} else {
		j.b = append(j.b, ',')
	}
	j.newline()
}

// key starts a member named k, which needs no escaping (every key is a constant here).
func (j *jsonWriter) key(k string) {
	j.member()
	j.b = append(j.b, '"')
	j.b = append(j.b, k...)
	if j.compact {
		j.b = append(j.b, `":`...)
	} else {
		j.b = append(j.b, `": `...)
	}
}

func (j *jsonWriter) int(v int64) { j.b = strconv.AppendInt(j.b, v, 10) }

func (j *jsonWriter) bool(b bool) {
	if b {
		j.raw("true")
	} else {
		j.raw("false")
	}
}

// str writes a JSON string escaped as encoding/json escapes it: appendJSONString.
func (j *jsonWriter) str(s string) { j.b = appendJSONString(j.b, s) }

// jsonSafe8 reports whether the 8 bytes of s all are jsonSafe, a word at a time: none under
// 0x20 or from 0x80, none a quote, backslash, <, > or & (the tests of "Bit Twiddling Hacks",
// haszero and hasless, exact for the word as a whole). It scans a node's long "about" text 8
// bytes at a step; the byte loop took a quarter of decode -format json.
func jsonSafe8(s string) bool {
	const ones, high = 0x0101010101010101, 0x8080808080808080
	w := binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s), 8))
	bad := w | (w-ones*0x20)&^w
	x := w ^ ones*'"'
	bad |= (x - ones) &^ x
	x = w ^ ones*'\\'
	bad |= (x - ones) &^ x
	x = w ^ ones*'<'
	bad |= (x - ones) &^ x
	x = w ^ ones*'>'
	bad |= (x - ones) &^ x
	x = w ^ ones*'&'
	bad |= (x - ones) &^ x
	return bad&high == 0
}

// appendMarshalled appends json.Marshal's string s (internal/jsonw's, the same bytes without
// encoding/json's reflection, which the browser decoder would link).
func appendMarshalled(b []byte, s string) []byte {
	return jsonw.AppendString(b, s)
}

// jsonSafe is encoding/json's htmlSafeSet: the ASCII bytes a string keeps as they are (every
// byte from 0x20 but the quote, the backslash and the HTML characters <, > and &).
var jsonSafe = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// appendJSONString appends s quoted and escaped byte for byte as json.Marshal writes a string
// (HTML characters as \u003c, control characters, U+2028 and U+2029 escaped; a string of
// invalid UTF-8 is json.Marshal's; FuzzAppendJSONString checks it against json.Marshal): runs of bytes that need no
// escape are copied at once. It took the JSON of decode's frames from calling json.Marshal for
// every value with a non-ASCII rune in it (the "→" of every length prefix) to no allocation.
func appendJSONString(b []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	at := len(b)
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		for i+8 <= len(s) && jsonSafe8(s[i:]) {
			i += 8
		}
		if i == len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if jsonSafe[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			// Invalid UTF-8 (rare): what json.Marshal writes of it differs between
			// encoding/json's two implementations (\ufffd escaped, or U+FFFD as it is), so
			// the string is written by json.Marshal, as it was before this fast path.
			return appendMarshalled(b[:at], s)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// node writes n: kind, name, path, offset, length, type, value, then spec, about, children and
// nested, each left out when empty.
func (j *jsonWriter) node(n *Node) {
	if n == nil {
		j.raw("null")
		return
	}
	j.open('{')
	j.key("kind")
	j.str(n.Kind.String())
	j.key("name")
	j.str(n.Name)
	j.key("path")
	j.str(n.Path)
	j.key("offset")
	j.int(int64(n.Offset))
	j.key("length")
	j.int(int64(n.Length))
	j.key("type")
	j.str(n.WireType)
	j.key("value")
	j.str(n.Value)
	if n.Spec != "" {
		j.key("spec")
		j.str(n.Spec)
	}
	if n.About != "" {
		j.key("about")
		j.str(n.About)
	}
	if len(n.Children) > 0 {
		j.key("children")
		j.open('[')
		for _, c := range n.Children {
			j.member()
			j.node(c)
		}
		j.close(']')
	}
	if c, ok := n.Raw.(*Compressed); ok && c != nil {
		j.key("nested")
		j.open('{')
		j.key("codec")
		j.str(c.Codec.String())
		if c.Framing != "" {
			j.key("framing")
			j.str(c.Framing)
		}
		if c.Note != "" {
			j.key("note")
			j.str(c.Note)
		}
		j.key("decompressedSize")
		j.int(int64(len(c.Data)))
		if c.Root != nil {
			j.key("root")
			j.node(c.Root)
		}
		j.close('}')
	}
	j.close('}')
	j.spill()
}
