package kafka

import (
	"bytes"
	"fmt"

	"github.com/kafkagrid/kafkagrid/schemas"
)

// NodeKind says what part of a frame a Node stands for.
type NodeKind uint8

// The kinds of Node. The first group are containers or schema fields; the second are the
// framing pieces the wire format adds around values.
const (
	KindFrame      NodeKind = iota // the whole frame: size, header, body
	KindHeader                     // the request or response header
	KindBody                       // the message body
	KindStruct                     // a struct-typed field, or a record batch or record header
	KindArray                      // an array-typed field: its length, then its elements
	KindElement                    // one element of an array ("[0]")
	KindField                      // a field of a struct (primitive, string, bytes, records)
	KindData                       // the content bytes of a string, bytes or record key/value
	KindSize                       // the frame's int32 size prefix
	KindLength                     // a length or count prefix, or a null marker
	KindTagSection                 // the count of a tagged-field section (00 when empty)
	KindTagKey                     // the tag number of one tagged field
	KindTagSize                    // the byte size of one tagged field
)

var kindNames = [...]string{
	KindFrame:      "frame",
	KindHeader:     "header",
	KindBody:       "body",
	KindStruct:     "struct",
	KindArray:      "array",
	KindElement:    "element",
	KindField:      "field",
	KindData:       "data",
	KindSize:       "size",
	KindLength:     "length",
	KindTagSection: "tags",
	KindTagKey:     "tag",
	KindTagSize:    "tagsize",
}

// String returns the kind's lower-case name, as written in JSON.
func (k NodeKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// MarshalText writes the kind's name.
func (k NodeKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a kind's name.
func (k *NodeKind) UnmarshalText(b []byte) error {
	for i, n := range kindNames {
		if n == string(b) {
			*k = NodeKind(i)
			return nil
		}
	}
	return fmt.Errorf("kafka: unknown node kind %q", b)
}

// Framing reports whether the kind is a piece the wire format adds (size, length, tag
// section, tag key, tag size) rather than a value of the schema.
func (k NodeKind) Framing() bool { return k >= KindSize }

// Node is one piece of an annotated frame. Nodes form a tree: the frame holds the size prefix,
// the header and the body; structs hold fields; arrays hold their length prefix and elements;
// a string or bytes field holds its length prefix and (unless null or empty) a KindData leaf
// with its content; a records field holds its length prefix and its record batches.
//
// The leaves (nodes without children) tile the frame's bytes in order with no gap and no
// overlap. The only leaves of length 0 are structs with no field at that version (a
// non-flexible empty struct); every other leaf covers at least one byte.
type Node struct {
	Kind NodeKind `json:"kind"`
	// Name is the label: the field name ("TopicData", "Name"), "[0]" for an element, or the
	// framing piece ("length", "size", "tagged fields", "tag", "tag size").
	Name string `json:"name"`
	// Path is unique within the frame. Body fields have plain paths
	// ("TopicData[0].PartitionData[0].Index"), header fields start with "header."; framing
	// pieces add a suffix to their owner's path: "#size" (the frame size), "…Name#length",
	// "…#tags" (a struct's tagged-field count, "body#tags" and "header#tags" at the top),
	// "…Field#tag" and "…Field#tagsize", "…Name#data" (string/bytes content), "…#present"
	// (a nullable struct's marker). Record batches are "…Records[0]", their records
	// "…Records[0].Records[0]".
	Path string `json:"path"`
	// Offset and Length are in bytes from the start of the frame (the size prefix is at 0).
	Offset int `json:"offset"`
	Length int `json:"length"`
	// WireType is the encoding: int8 … int64, uint16, uint32, float64, bool, uuid, string,
	// compact_string, nullable_string, compact_nullable_string, bytes, compact_bytes, …,
	// records, compact_records, array, compact_array, struct, uvarint, varint, utf8 (string
	// content), raw (bytes content).
	WireType string `json:"type"`
	// Value is the display value: 42, "orders" (quoted), null, a uuid in 8-4-4-4-12 form,
	// bytes in hex, and for a length prefix what it encodes ("7 → length 6", "0 → null",
	// "2 → 1 element").
	Value string `json:"value"`
	// Raw is the typed value (int64, float64, bool, string, []byte, UUID, nil for null,
	// []*RecordBatch for records); nil for containers and most framing nodes.
	Raw any `json:"-"`
	// Spec is the spec file the field comes from (ProduceRequest.json, RequestHeader.json);
	// empty for record batch pieces.
	Spec string `json:"spec,omitempty"`
	// Field is the schema field; nil for framing and synthetic nodes.
	Field *schemas.Field `json:"-"`
	// About is the field's "about" text, or a sentence explaining a framing piece.
	About    string  `json:"about,omitempty"`
	Children []*Node `json:"children,omitempty"`
}

// Walk calls fn for n and its descendants in depth-first pre-order (the byte order of the
// frame). If fn returns false, Walk does not descend into that node's children.
func (n *Node) Walk(fn func(*Node) bool) {
	if n == nil || !fn(n) {
		return
	}
	for _, c := range n.Children {
		c.Walk(fn)
	}
}

// Leaves returns the nodes without children, in byte order.
func (n *Node) Leaves() []*Node {
	var out []*Node
	n.Walk(func(x *Node) bool {
		if len(x.Children) == 0 {
			out = append(out, x)
		}
		return true
	})
	return out
}

// Find returns the node with the given path, or nil.
func (n *Node) Find(path string) *Node {
	var found *Node
	n.Walk(func(x *Node) bool {
		if found != nil {
			return false
		}
		if x.Path == path {
			found = x
			return false
		}
		return true
	})
	return found
}

// shift moves n and its descendants d bytes later in the frame.
func (n *Node) shift(d int) {
	n.Walk(func(x *Node) bool {
		x.Offset += d
		return true
	})
}

// MarshalJSON writes the node as JSON with lower-case field names (kind, name, path,
// offset, length, type, value, spec, about, children). The output is deterministic.
//
// The node of a compressed batch's records adds "nested": the codec, the framing, a note, the
// decompressed size and the decoded records (offsets from the start of the decompressed data).
func (n *Node) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	j := newJSONWriter(&b, "", "")
	j.node(n)
	if err := j.flush(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
