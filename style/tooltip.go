package style

import (
	"strconv"

	"github.com/kafkagrid/kafkagrid/internal/mono"
)

// Tip is what the tooltip of a grid field or a tree node says: the one tooltip text of both
// twins, so that hovering a field and its node reads the same.
type Tip struct {
	Head      string // the path, or the name of an item without one
	Type      string // wire type, optional
	Bit, Bits int    // bit offset and bit length
	// After names the variable-length field Bit is counted from the end of, for an item
	// after one (where its offset from the start is not known); "" when Bit is from the start.
	After string
	Kind  Kind
	Value string // the whole value, optional
	Desc  string // description, optional
}

// Append appends the tooltip to b: the head; the type, the offset and the length (in bytes,
// with the offset also in hex; in bits where the item does not lie on byte boundaries) and a
// framing kind; the value; the description. Each part is cleaned with mono.CleanAttr, so one
// line cannot run into the next.
//
//	Topics[0].Name
//	compact_string, offset 60 (0x3c), 7 bytes
//	value: "orders"
//	The topic name.
func (t Tip) Append(b []byte) []byte {
	b = append(b, mono.CleanAttr(t.Head)...)
	b = append(b, '\n')
	if t.Type != "" {
		b = append(b, mono.CleanAttr(t.Type)...)
		b = append(b, ", "...)
	}
	rel := ""
	if t.After != "" {
		rel = "+"
	}
	if t.Bit%8 == 0 && t.Bits%8 == 0 {
		b = append(b, "offset "+rel...)
		b = strconv.AppendInt(b, int64(t.Bit/8), 10)
		b = append(b, " (0x"...)
		b = strconv.AppendInt(b, int64(t.Bit/8), 16)
		b = append(b, ")"...)
		b = t.appendAfter(b)
		b = append(b, ", "...)
		b = strconv.AppendInt(b, int64(t.Bits/8), 10)
		b = append(b, " byte"...)
		if t.Bits != 8 {
			b = append(b, 's')
		}
	} else {
		b = append(b, "bit offset "+rel...)
		b = strconv.AppendInt(b, int64(t.Bit), 10)
		b = t.appendAfter(b)
		b = append(b, ", "...)
		b = strconv.AppendInt(b, int64(t.Bits), 10)
		b = append(b, " bit"...)
		if t.Bits != 1 {
			b = append(b, 's')
		}
	}
	if t.Kind != Plain {
		b = append(b, ", "...)
		b = append(b, t.Kind.String()...)
	}
	if t.Value != "" {
		b = append(b, "\nvalue: "...)
		b = append(b, mono.CleanAttr(t.Value)...)
	}
	if t.Desc != "" {
		b = append(b, '\n')
		b = append(b, mono.CleanAttr(t.Desc)...)
	}
	return b
}

// appendAfter appends " after the end of NAME" for an item after a variable-length field.
func (t Tip) appendAfter(b []byte) []byte {
	if t.After == "" {
		return b
	}
	b = append(b, " after the end of "...)
	return append(b, mono.CleanAttr(t.After)...)
}

// Size returns an upper bound of the length of the tooltip without its cleaning (which only
// replaces runes), for reserving room.
func (t Tip) Size() int {
	return len(t.Head) + len(t.Type) + len(t.Value) + len(t.Desc) + len(t.After) + 116
}
