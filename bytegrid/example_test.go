package bytegrid_test

import (
	"fmt"
	"os"

	"github.com/kafkagrid/kafkagrid/bytegrid"
)

// The UDP header of RFC 768, laid out in rows of 32 bits and written as RFC-style text.
func ExampleLayout() {
	fields := []bytegrid.Field{
		{Offset: 0, Bits: 16, Name: "Source Port", Value: "53211"},
		{Offset: 16, Bits: 16, Name: "Destination Port", Value: "53"},
		{Offset: 32, Bits: 16, Name: "Length", Value: "8", Kind: bytegrid.Size},
		{Offset: 48, Bits: 16, Name: "Checksum", Value: "0"},
	}
	d, err := bytegrid.Layout(fields, bytegrid.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d rows, %gx%g pt\n", len(d.Rows), d.Width, d.Height)
	d.WriteText(os.Stdout)
	// Output:
	// 2 rows, 567x112 pt
	//  0                   1                   2                   3
	//  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
	// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
	// |          Source Port          |       Destination Port        |
	// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
	// |            Length             |           Checksum            |
	// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
	//
	//   Source Port      = 53211
	//   Destination Port = 53
	//   Length           = 8
	//   Checksum         = 0
}

// A field that does not fit its box is replaced by a numbered mark, explained under the grid.
func ExampleDiagram_Notes() {
	d, _ := bytegrid.Layout([]bytegrid.Field{
		{Offset: 0, Bits: 1, Name: "Flag", Value: "1"},
		{Offset: 1, Bits: 31, Name: "Rest"},
	}, bytegrid.Options{})
	for _, n := range d.Notes {
		fmt.Printf("%d: %s\n", n.Mark, n.Text)
	}
	// Output:
	// 1: Flag = 1
}

// Groups are told apart without colour: each run of a group in a row carries the group's
// letter (style.GroupMark) in a box's corner, followed by the field's Item where a group
// repeats (the elements of one array), and the legend's swatches hold the same letters. A
// one-byte box too narrow for its name on one line shows its Short name instead.
func ExampleField_Item() {
	b := func(n int) []byte { return make([]byte, n) }
	d, err := bytegrid.Layout([]bytegrid.Field{
		{Offset: 0, Bits: 32, Name: "CorrelationId", Value: "7", Group: "header", Bytes: b(4)},
		{Offset: 32, Bits: 16, Name: "ErrorCode", Value: "0", Group: "body", Bytes: b(2)},
		{Offset: 48, Bits: 16, Name: "ApiKey", Value: "0", Group: "ApiKeys", Item: "[0]", Bytes: b(2)},
		{Offset: 64, Bits: 24, Name: "Versions", Value: "0-12", Group: "ApiKeys", Item: "[0]", Bytes: b(3)},
		{Offset: 88, Bits: 8, Name: "ApiKeys[0] tagged fields", Short: "tags", Value: "0 → none", Group: "ApiKeys", Item: "[0]", Kind: bytegrid.Tags, Bytes: b(1)},
		{Offset: 96, Bits: 16, Name: "ApiKey", Value: "1", Group: "ApiKeys", Item: "[1]", Bytes: b(2)},
	}, bytegrid.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range d.Fields {
		for _, r := range f.Runs {
			if r.Class == "group" || r.Class == "name" && f.Name != r.S {
				fmt.Printf("row %d, %s: %s %q\n", r.Row, f.Name, r.Class, r.S)
			}
		}
	}
	for _, r := range d.Legend {
		if r.Class == "legend-mark" {
			fmt.Print(r.S, " ")
		}
	}
	fmt.Println()
	// Output:
	// row 0, CorrelationId: group "A"
	// row 1, ErrorCode: group "B"
	// row 1, ApiKey: group "C[0]"
	// row 2, Versions: group "C[0]"
	// row 2, ApiKeys[0] tagged fields: name "tags"
	// row 3, ApiKey: group "C[1]"
	// A B C
}
