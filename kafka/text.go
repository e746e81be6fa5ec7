package kafka

import (
	"bytes"
	"encoding/binary"
	"io"
	"strconv"
	"sync"
	"unicode/utf8"
)

// WriteText writes the annotated tree as text, one node per line in byte order: offset and
// length (decimal bytes), the wire type, the name indented by depth, and the value.
//
//	offset len  type                    node
//	     0   4  int32                   size = 150 bytes
//	     4  13  struct                  header = RequestHeader v2
//	     4   2  int16                     RequestApiKey = 0
func WriteText(w io.Writer, root *Node) error {
	t := textPool.Get().(*textWriter)
	t.w, t.buf, t.err = w, t.buf[:0], nil
	t.line(lineHeading, 0, 0, "type", 0, "node", "")
	t.tree(root, 0)
	if t.err == nil && len(t.buf) > 0 {
		_, t.err = w.Write(t.buf)
	}
	err := t.err
	t.w = nil
	if cap(t.buf) <= 1<<20 {
		textPool.Put(t)
	}
	return err
}

// tree writes n's line and those of its subtree (a method, not a closure: direct calls).
func (t *textWriter) tree(n *Node, depth int) {
	name := n.Name
	if n.Kind == KindFrame {
		name = "frame"
	}
	t.node(n.Offset, n.Length, n.WireType, depth, name, n.Value)
	if c, ok := n.Raw.(*Compressed); ok && c.Root != nil {
		// The decompressed records: their own offsets, from the start of the data.
		t.line(lineBlank, 0, 0, "", depth+1, decompressedHead(c.Codec), "")
		t.tree(c.Root, depth+2)
	}
	for _, c := range n.Children {
		if c.Kind == KindData && len(n.Children) <= 2 && c.Value == n.Value {
			// A string's content repeats its field's value: show it compactly.
			t.node(c.Offset, c.Length, c.WireType, depth+1, "data", "")
			continue
		}
		t.tree(c, depth+1)
	}
}

// textWriter writes WriteText's lines into a buffer it reuses, as fmt.Fprintf("%6d %4d  %-24s
// %s\n") would write them (TestWriteTextPlain checks it byte for byte), without fmt's cost on
// every node of a capture's frames.
type textWriter struct {
	w   io.Writer
	buf []byte
	err error
}

var textPool = sync.Pool{New: func() any { return &textWriter{buf: make([]byte, 0, 32<<10)} }}

// The kinds of line: a node's, the heading (its "offset" and "len"), one with blank columns.
const (
	lineNode = iota
	lineHeading
	lineBlank
)

// line writes one line: offset and length right-aligned, the wire type padded to 24 runes,
// the name indented by depth, and " = value" when there is one.
func (t *textWriter) line(kind, offset, length int, wireType string, depth int, name, value string) {
	b := t.buf
	switch kind {
	case lineHeading:
		b = append(b, "offset  len  "...)
	case lineBlank:
		b = append(b, "             "...)
	default:
		b = appendPadded(b, offset, 6)
		b = append(b, ' ')
		b = appendPadded(b, length, 4)
		b = append(b, "  "...)
	}
	b = append(b, wireType...)
	if n := utf8.RuneCountInString(wireType); n < 24 {
		b = append(b, spaces[:24-n]...)
	}
	b = append(b, ' ')
	for d := 2 * depth; d > 0; d -= len(spaces) {
		b = append(b, spaces[:min(d, len(spaces))]...)
	}
	b = append(b, name...)
	if value != "" {
		b = append(append(b, " = "...), value...)
	}
	b = append(b, '\n')
	if len(b) >= 32<<10 && t.err == nil {
		_, t.err = t.w.Write(b)
		b = b[:0]
	}
	t.setBuf(b)
}

// setBuf makes b, t.buf appended to, the buffer: only its length stored when it did not
// move, as storing the pointer costs a write barrier per line while the collector marks.
func (t *textWriter) setBuf(b []byte) {
	if cap(b) == cap(t.buf) {
		t.buf = t.buf[:len(b)]
	} else {
		t.buf = b
	}
}

// spaces pads the columns and indents the names: a slice of it is one append, where a space
// at a time took a tenth of WriteText's time.
const spaces = "                                                                                                                                "

// node writes a node's line as line does, in one block: the columns and the indent copied
// from spaces at once, the digits put in place (from 62 to about 40 ns a line; WriteText is
// most of decode's text). Anything out of the columns' widths goes to line.
func (t *textWriter) node(offset, length int, wireType string, depth int, name, value string) {
	const head = 6 + 1 + 4 + 2 + 24 + 1 // offset, length, wire type and their spaces
	if offset < 0 || offset > 999999 || length < 0 || length > 9999 || len(wireType) > 24 ||
		head+2*depth > len(spaces) {
		t.line(lineNode, offset, length, wireType, depth, name, value)
		return
	}
	b := t.buf
	at := len(b)
	b = append(b, spaces[:head+2*depth]...)
	// The wire type copied, then checked to be ASCII (one rune a byte) 8 bytes at a time in
	// its column, which holds it and spaces: in place of utf8.RuneCountInString, 4% of
	// decode's text instructions.
	copy(b[at+13:], wireType)
	col := b[at+13 : at+13+24]
	if (binary.LittleEndian.Uint64(col)|binary.LittleEndian.Uint64(col[8:])|binary.LittleEndian.Uint64(col[16:]))&0x8080808080808080 != 0 {
		t.buf = b[:at]
		t.line(lineNode, offset, length, wireType, depth, name, value)
		return
	}
	putDigits(b[at:at+6], offset)
	putDigits(b[at+7:at+11], length)
	b = append(b, name...)
	if value != "" {
		b = append(append(b, ' ', '=', ' '), value...) // three byte stores, not a memmove call
	}
	b = append(b, '\n')
	if len(b) >= 32<<10 && t.err == nil {
		_, t.err = t.w.Write(b)
		b = b[:0]
	}
	t.setBuf(b)
}

// putDigits writes v, at least 0, right-aligned in dst, which holds it.
func putDigits(dst []byte, v int) {
	i := len(dst) - 1
	for v >= 10 {
		dst[i] = byte('0' + v%10)
		v /= 10
		i--
	}
	dst[i] = byte('0' + v)
}

// appendPadded appends n right-aligned in width, as fmt's %*d does.
func appendPadded(b []byte, n, width int) []byte {
	var d [20]byte
	s := strconv.AppendInt(d[:0], int64(n), 10)
	if pad := width - len(s); pad > 0 {
		b = append(b, spaces[:min(pad, len(spaces))]...)
	}
	return append(b, s...)
}

// MarshalJSON writes the frame as JSON: api, key, version, response, headerVersion,
// correlationId, size, hex (the bytes) and root (the annotated tree; see Node.MarshalJSON).
// It is WriteJSON's compact form; the output is deterministic.
func (f *Frame) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	err := f.WriteJSON(&b, "", "")
	return b.Bytes(), err
}
