package tree

import (
	"strconv"

	"github.com/kafkagrid/kafkagrid/style"
)

// Kind says what a node is on the wire: data, or one of the framing pieces. It is the kind the
// byte grid uses, so the same bytes are styled alike in both.
type Kind = style.Kind

// The kinds, re-exported from the shared style package.
const (
	Plain   = style.Plain   // data: a value the message carries
	Size    = style.Size    // a frame's size prefix
	Length  = style.Length  // a length or count prefix (string, bytes, array)
	Tags    = style.Tags    // a tagged-field section's count
	Tag     = style.Tag     // a tagged field's tag or size varint
	Varint  = style.Varint  // a variable-length integer that is data
	Padding = style.Padding // padding or reserved bits
	Header  = style.Header  // a fixed header field that frames the rest
)

// A Node is one item of the structure: a field, a struct, an array or one of its elements.
type Node struct {
	// Name is the node's name as drawn, e.g. "ErrorCode", "Topics [2]" or "[0]"
	// (see ArrayLabel and IndexLabel); bytegrid.Field.Name of the same bytes.
	Name string `json:"name"`
	// Value is the node's value as text ("0", "\"my-topic\""); empty for structs and arrays.
	Value string `json:"value,omitempty"`
	// Type is the wire type, e.g. "int16", "compact_string", "[]Topic".
	Type string `json:"type,omitempty"`
	// Offset and Length are the node's bytes in the frame.
	Offset int `json:"offset"`
	Length int `json:"length"`
	// Group names the colour the node shares with the byte grid; empty inherits the parent's.
	Group string `json:"group,omitempty"`
	// Kind is data or framing.
	Kind Kind `json:"kind"`
	// Path is the data-path, identical to the byte grid field's for the same bytes,
	// e.g. "Topics[0].Partitions[1].ErrorCode".
	Path string `json:"path,omitempty"`
	// Desc is the field's description, shown in the tooltip (as bytegrid.Field.Desc).
	Desc string `json:"desc,omitempty"`
	// Children are drawn below the node, one level deeper, in order.
	Children []*Node `json:"children,omitempty"`
}

// Add appends children to n and returns n, so trees can be written as nested calls.
func (n *Node) Add(children ...*Node) *Node {
	n.Children = append(n.Children, children...)
	return n
}

// ArrayLabel returns the label of an array node with count elements: "Topics [2]".
// A negative count (a null array) gives "Topics null".
func ArrayLabel(name string, count int) string {
	if count < 0 {
		return name + " null"
	}
	return name + " [" + strconv.Itoa(count) + "]"
}

// IndexLabel returns the label of an array's element i: "[0]".
func IndexLabel(i int) string { return "[" + strconv.Itoa(i) + "]" }
