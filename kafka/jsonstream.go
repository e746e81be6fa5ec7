package kafka

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"io"
	"strconv"
)

// WriteJSON writes the frame's JSON, what MarshalJSON makes, indented as json.Encoder writes it
// with SetIndent(prefix, indent) (without the Encoder's newline after it); with both empty, it
// writes it compact, byte for byte what MarshalJSON returns. It writes node by node, so that
// its memory is the tree's and not the text's: indented, the JSON of a frame of a million nodes
// is some 700 MB, and encoding/json holds it twice over to indent it.
func (f *Frame) WriteJSON(w io.Writer, prefix, indent string) error {
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
	j.raw(`"`)
	if j.err == nil {
		_, j.err = hex.NewEncoder(j.w).Write(f.Bytes)
	}
	j.raw(`"`)
	j.key("root")
	j.node(f.Root)
	j.close('}')
	return j.flush()
}

// newJSONWriter writes to w through a buffer, unless w is a bytes.Buffer already.
func newJSONWriter(w io.Writer, prefix, indent string) *jsonWriter {
	j := &jsonWriter{prefix: prefix, indent: indent, compact: prefix == "" && indent == ""}
	if b, ok := w.(*bytes.Buffer); ok {
		j.w = b
	} else {
		j.buf = bufio.NewWriterSize(w, 64<<10)
		j.w = j.buf
	}
	return j
}

// flush writes out what is buffered and returns the first error.
func (j *jsonWriter) flush() error {
	if j.err != nil || j.buf == nil {
		return j.err
	}
	return j.buf.Flush()
}

// jsonWriter writes indented JSON as encoding/json's Indent lays it out.
type jsonWriter struct {
	w interface {
		io.Writer
		io.StringWriter
	}
	buf            *bufio.Writer // w's buffer, when it has one to flush
	prefix, indent string
	compact        bool // no newlines, no space after a colon
	depth          int
	first          []bool // per open container: no member written yet
	err            error
	num            []byte
}

func (j *jsonWriter) raw(s string) {
	if j.err == nil {
		_, j.err = j.w.WriteString(s)
	}
}

func (j *jsonWriter) newline() {
	if j.compact {
		return
	}
	j.raw("\n")
	j.raw(j.prefix)
	for range j.depth {
		j.raw(j.indent)
	}
}

func (j *jsonWriter) open(c byte) {
	j.raw(string(c))
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
	j.raw(string(c))
}

// member starts the next member of the innermost container.
func (j *jsonWriter) member() {
	if top := len(j.first) - 1; j.first[top] {
		j.first[top] = false
	} else {
		j.raw(",")
	}
	j.newline()
}

func (j *jsonWriter) key(k string) {
	j.member()
	j.str(k)
	if j.compact {
		j.raw(":")
	} else {
		j.raw(": ")
	}
}

func (j *jsonWriter) int(v int64) {
	j.num = strconv.AppendInt(j.num[:0], v, 10)
	if j.err == nil {
		_, j.err = j.w.Write(j.num)
	}
}

func (j *jsonWriter) bool(b bool) {
	if b {
		j.raw("true")
	} else {
		j.raw("false")
	}
}

// str writes a JSON string escaped as encoding/json escapes it (HTML characters, U+2028 and
// U+2029, invalid UTF-8): ASCII here, quotes and HTML characters included (every quoted value
// has them), anything else through json.Marshal.
func (j *jsonWriter) str(s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x7f || c < 0x20 && c != '\n' && c != '\r' && c != '\t' {
			b, err := json.Marshal(s)
			if err != nil {
				j.err = err
				return
			}
			if j.err == nil {
				_, j.err = j.w.Write(b)
			}
			return
		}
	}
	j.raw(`"`)
	start := 0
	for i := 0; i < len(s); i++ {
		var esc string
		switch s[i] {
		case '"':
			esc = `\"`
		case '\\':
			esc = `\\`
		case '<':
			esc = `\u003c`
		case '>':
			esc = `\u003e`
		case '&':
			esc = `\u0026`
		case '\n':
			esc = `\n`
		case '\r':
			esc = `\r`
		case '\t':
			esc = `\t`
		default:
			continue
		}
		j.raw(s[start:i])
		j.raw(esc)
		start = i + 1
	}
	j.raw(s[start:])
	j.raw(`"`)
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
}
