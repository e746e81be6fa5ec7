package bytegrid_test

import (
	"fmt"
	"os"

	"github.com/kafkagrid/kafkagrid/bytegrid"
)

// A variable field (TCP's Data), an optional one with its condition (GRE's checksum words),
// stacked and vertical labels, drawn as text as RFC 9293 draws them.
func ExampleField_variable() {
	fields := []bytegrid.Field{
		{Offset: 0, Bits: 4, Name: "Data Offset", Label: bytegrid.LabelStacked},
		{Offset: 4, Bits: 4, Name: "Rsrvd", Kind: bytegrid.Reserved},
		{Offset: 8, Bits: 1, Name: "CWR", Label: bytegrid.LabelVertical},
		{Offset: 9, Bits: 1, Name: "ECE", Label: bytegrid.LabelVertical},
		{Offset: 10, Bits: 22, Name: "Window"},
		{Offset: 32, Bits: 32, Name: "Checksum", Optional: true, Condition: "if C"},
		{Offset: 64, Bits: 32, Name: "Data", Variable: true, LengthFrom: "Data Offset"},
	}
	d, err := bytegrid.Layout(fields, bytegrid.Options{})
	if err != nil {
		panic(err)
	}
	d.WriteText(os.Stdout)
	// Output:
	//  0                   1                   2                   3
	//  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
	// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
	// | Data  |       |C|E|                                           |
	// |Offset | Rsrvd |W|C|                  Window                   |
	// |       |       |R|E|                                           |
	// + - - - + - - - + + + - - - - - - - - - - - - - - - - - - - - - +
	// |                        Checksum, if C                         |
	// + - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - +
	// |                                                               :
	// :                             Data                              :
	// :                                                               |
	// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
}

// Options as figures have them: no ruler, rows of 24 bits marked only at field boundaries and a
// double rule before the payload (RFC 7540's frame), a caption between stacked headers, and a
// margin.
func ExampleOptions_figure() {
	fields := []bytegrid.Field{
		{Offset: 0, Bits: 24, Name: "Length (24)"},
		{Offset: 24, Bits: 8, Name: "Type (8)"},
		{Offset: 32, Bits: 8, Name: "Flags (8)"},
		{Offset: 40, Bits: 1, Name: "R"},
		{Offset: 41, Bits: 31, Name: "Stream Identifier (31)"},
		{Offset: 72, Bits: 48, Name: "Frame Payload (0...)", Variable: true, DoubleRule: true, Caption: "Payload:"},
	}
	d, err := bytegrid.Layout(fields, bytegrid.Options{
		RowBits: 24,
		Ruler:   bytegrid.RulerNone,
		Text:    bytegrid.TextOptions{Margin: 4, Ticks: "fields", Open: "dots"},
	})
	if err != nil {
		panic(err)
	}
	d.WriteText(os.Stdout)
	// Output:
	//     +-----------------------------------------------+
	//     |                  Length (24)                  |
	//     +---------------+---------------+-+-------------+
	//     |   Type (8)    |   Flags (8)   |R|             |
	//     +---------------+---------------+-+             +
	//     |            Stream Identifier (31)             |
	//     +-----------------------------------------------+
	//
	//     Payload:
	//     +===============================================+
	//     |
	//     +           Frame Payload (0...) ...
	//     |
	//     +---------------------- ...
}

// Bits numbered from the right (LSB0), as register maps and MQTT's tables number them, with
// RFC 1035's ruler.
func ExampleOptions_lsb0() {
	fields := []bytegrid.Field{
		{Offset: 0, Bits: 4, Name: "Type"},
		{Offset: 4, Bits: 1, Name: "D"},
		{Offset: 5, Bits: 2, Name: "QoS"},
		{Offset: 7, Bits: 1, Name: "R"},
	}
	d, err := bytegrid.Layout(fields, bytegrid.Options{RowBits: 8, LSB0: true, Ruler: bytegrid.RulerUnits})
	if err != nil {
		panic(err)
	}
	d.WriteText(os.Stdout)
	// Output:
	//   7  6  5  4  3  2  1  0
	// +--+--+--+--+--+--+--+--+
	// |   Type    |D | QoS |R |
	// +--+--+--+--+--+--+--+--+
}

// Notes in the left margin, beside the grid, as RFC 6830 brackets each header of its
// encapsulation figure ("UDP").
func ExampleTextOptions_leftNotes() {
	fields := []bytegrid.Field{
		{Offset: 0, Bits: 16, Name: "Source Port"},
		{Offset: 16, Bits: 16, Name: "Dest Port"},
		{Offset: 32, Bits: 16, Name: "UDP Length"},
		{Offset: 48, Bits: 16, Name: "UDP Checksum"},
	}
	d, err := bytegrid.Layout(fields, bytegrid.Options{
		RowBits: 32,
		Ruler:   bytegrid.RulerNone,
		Text:    bytegrid.TextOptions{Margin: 6, LeftNotes: "\n  / \nUDP\n  \\"},
	})
	if err != nil {
		panic(err)
	}
	d.WriteText(os.Stdout)
	_, err = bytegrid.Layout(fields, bytegrid.Options{Text: bytegrid.TextOptions{Margin: 2, LeftNotes: "UDP"}})
	fmt.Println(err)
	// Output:
	//       +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
	//   /   |          Source Port          |           Dest Port           |
	// UDP   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
	//   \   |          UDP Length           |         UDP Checksum          |
	//       +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
	// bytegrid: text left notes: want at most 4096 lines of printable text, each shorter than the margin (2)
}
