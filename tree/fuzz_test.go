package tree_test

import (
	"bytes"
	"encoding/xml"
	"io"
	"testing"

	"github.com/kafkagrid/kafkagrid/canvas/svgcanvas"
	"github.com/kafkagrid/kafkagrid/tree"
)

// FuzzSVG draws trees with arbitrary labels, values, types, paths and descriptions, nested and
// side by side, and checks that layout succeeds, the geometry passes Check, the SVG is
// well-formed XML and the text output can be written.
func FuzzSVG(f *testing.F) {
	f.Add("ErrorCode", "0", "int16", "Topics[0].ErrorCode", "The error code.", uint8(3), uint8(2), uint8(0))
	f.Add("<g>&amp;", "\"]]>", "</svg>", "a\"b'c<d>", "\x00\x01\xff\xfe", uint8(1), uint8(1), uint8(1))
	f.Add("", "", "", "", "", uint8(0), uint8(0), uint8(2))
	f.Add("bidi\u202e", "日本 ✓ \t\n", "\u2028", "p\u0085q", "desc\r\n", uint8(40), uint8(5), uint8(255))
	f.Fuzz(func(t *testing.T, label, value, typ, path, desc string, depth, width, kind uint8) {
		leafNode := func(i int) *tree.Node {
			return &tree.Node{Name: label, Value: value, Type: typ, Path: path, Desc: desc,
				Offset: i, Length: int(width), Kind: tree.Kind(kind % 10), Group: label}
		}
		root := leafNode(0)
		n := root
		for i := 0; i < int(depth%64); i++ {
			for j := 0; j < int(width%8); j++ {
				n.Children = append(n.Children, leafNode(j))
			}
			c := leafNode(i)
			n.Children = append(n.Children, c)
			n = c
		}
		for _, hide := range []bool{false, true} {
			d, err := tree.Layout(root, tree.Options{HideFraming: hide, Title: label})
			if err != nil {
				t.Fatal(err)
			}
			if err := d.Check(); err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := svgcanvas.Write(&b, d, svgcanvas.WriteOptions{IDPrefix: path}); err != nil {
				t.Fatal(err)
			}
			dec := xml.NewDecoder(&b)
			for {
				_, err := dec.Token()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("SVG is not well-formed: %v", err)
				}
			}
			if err := d.WriteText(io.Discard); err != nil {
				t.Fatal(err)
			}
		}
	})
}
