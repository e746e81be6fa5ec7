package tree_test

import (
	"fmt"
	"os"

	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/tree"
)

// exampleTree is a small response: a throttle time and an array of one topic.
func exampleTree() *tree.Node {
	topic := &tree.Node{Name: tree.IndexLabel(0), Type: "Topic", Offset: 5, Length: 8, Path: "Topics[0]"}
	topic.Add(
		&tree.Node{Name: "Name", Value: `"orders"`, Type: "compact_string", Offset: 5, Length: 7, Path: "Topics[0].Name"},
		&tree.Node{Name: "TaggedFields", Value: "0", Type: "tagged_fields", Offset: 12, Length: 1, Kind: tree.Tags, Path: "Topics[0].TaggedFields"},
	)
	root := &tree.Node{Name: "Response", Type: "ExampleResponse", Length: 13}
	return root.Add(
		&tree.Node{Name: "ThrottleTimeMs", Value: "0", Type: "int32", Offset: 0, Length: 4, Path: "ThrottleTimeMs"},
		(&tree.Node{Name: tree.ArrayLabel("Topics", 1), Type: "[]Topic", Offset: 4, Length: 9, Path: "Topics"}).Add(
			&tree.Node{Name: "Length", Value: "2", Type: "uvarint", Offset: 4, Length: 1, Kind: tree.Length, Path: "Topics.Length"},
			topic),
	)
}

func ExampleDiagram_WriteText() {
	d, err := tree.Layout(exampleTree(), tree.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := d.WriteText(os.Stdout); err != nil {
		fmt.Println(err)
	}
	// Output:
	// Name                         Offset  Dec  Length  Type
	// Response                     0x0000    0      13  ExampleResponse
	// ├── ThrottleTimeMs: 0        0x0000    0       4  int32
	// └── Topics [1]               0x0004    4       9  []Topic
	//     ├── Length: 2            0x0004    4       1  uvarint
	//     └── [0]                  0x0005    5       8  Topic
	//         ├── Name: "orders"   0x0005    5       7  compact_string
	//         └── TaggedFields: 0  0x000c   12       1  tagged_fields
}

func ExampleLayout() {
	d, err := tree.Layout(exampleTree(), tree.Options{HideFraming: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d rows, %gx%g pt\n", d.NumRows(), d.Width, d.Height)
	for _, r := range d.Rows {
		fmt.Printf("%*s%s (%s, %d bytes at %d)\n", 2*r.Depth, "", r.Label, r.Path, r.Length, r.Offset)
	}
	fmt.Println(d.Check())
	// Output:
	// 5 rows, 477x120 pt
	// Response (, 13 bytes at 0)
	//   ThrottleTimeMs (ThrottleTimeMs, 4 bytes at 0)
	//   Topics [1] (Topics, 9 bytes at 4)
	//     [0] (Topics[0], 8 bytes at 5)
	//       Name (Topics[0].Name, 7 bytes at 5)
	// <nil>
}

// ExampleDiagram_PaintRows continues a tree across two parts, as a book does across pages:
// each part starts with the column header, and canvas.Paginate says which rows fit where.
func ExampleDiagram_PaintRows() {
	d, err := tree.Layout(exampleTree(), tree.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, sp := range canvas.Paginate(d, 80, 100) {
		var c canvas.Recorder // a real caller passes a pdfcanvas.Canvas placed on a page
		d.PaintRows(&c, sp.From, sp.To)
		fmt.Printf("rows %d-%d: %g pt high, %d drawing calls\n", sp.From, sp.To-1, d.PartHeight(sp.From, sp.To), len(c.Calls))
	}
	// Output:
	// rows 0-2: 80 pt high, 48 drawing calls
	// rows 3-6: 100 pt high, 64 drawing calls
}
