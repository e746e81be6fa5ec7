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
