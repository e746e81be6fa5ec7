package kafka

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
)

// WriteText writes the annotated tree as text, one node per line in byte order: offset and
// length (decimal bytes), the wire type, the name indented by depth, and the value.
//
//	offset len  type                    node
//	     0   4  int32                   size = 150 bytes
//	     4  13  struct                  header = RequestHeader v2
//	     4   2  int16                     RequestApiKey = 0
func WriteText(w io.Writer, root *Node) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%6s %4s  %-24s %s\n", "offset", "len", "type", "node")
	var walk func(n *Node, depth int)
	walk = func(n *Node, depth int) {
		name := n.Name
		if n.Kind == KindFrame {
			name = "frame"
		}
		line := strings.Repeat("  ", depth) + name
		if n.Value != "" {
			line += " = " + n.Value
		}
		fmt.Fprintf(bw, "%6d %4d  %-24s %s\n", n.Offset, n.Length, n.WireType, line)
		if c, ok := n.Raw.(*Compressed); ok && c.Root != nil {
			// The decompressed records: their own offsets, from the start of the data.
			fmt.Fprintf(bw, "%6s %4s  %-24s %s\n", "", "", "", strings.Repeat("  ", depth+1)+"decompressed ("+c.Codec.String()+
				", offsets from the start of the decompressed data):")
			walk(c.Root, depth+2)
		}
		for _, c := range n.Children {
			if c.Kind == KindData && len(n.Children) <= 2 && c.Value == n.Value {
				// A string's content repeats its field's value: show it compactly.
				fmt.Fprintf(bw, "%6d %4d  %-24s %s\n", c.Offset, c.Length, c.WireType, strings.Repeat("  ", depth+1)+"data")
				continue
			}
			walk(c, depth+1)
		}
	}
	walk(root, 0)
	return bw.Flush()
}

// MarshalJSON writes the frame as JSON: api, key, version, response, headerVersion,
// correlationId, size, hex (the bytes) and root (the annotated tree; see Node.MarshalJSON).
// It is WriteJSON's compact form; the output is deterministic.
func (f *Frame) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	err := f.WriteJSON(&b, "", "")
	return b.Bytes(), err
}
