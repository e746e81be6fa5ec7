package bitfield_test

import (
	"fmt"
	"os"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/bytegrid/bitfield"
)

// A register as WaveDrom's editor writes it, drawn as bit-field draws it: bit 0 at the right.
func Example() {
	src := []byte(`{reg: [
  {name: 'EN', bits: 1},
  {name: 'MODE', bits: 3, attr: 'RW'},
  {bits: 4},
  {name: 'DIV', bits: 8, type: 4},
]}`)
	spec, err := bitfield.Parse("ctrl.json5", src, bitfield.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range spec.Fields {
		fmt.Printf("columns %2d to %2d: %q\n", f.Offset, f.Offset+f.Bits-1, f.Name)
	}
	d, err := bytegrid.Layout(spec.Fields, bytegrid.Options{RowBits: spec.Options.RowBits, NoHex: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	d.WriteText(os.Stdout)
	// Output:
	// columns  0 to  7: "DIV"
	// columns  8 to 11: ""
	// columns 12 to 14: "MODE"
	// columns 15 to 15: "EN"
	//   0                             1
	//   0  1  2  3  4  5  6  7  8  9  0  1  2  3  4  5
	// +--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+
	// |          DIV          |           |  MODE  |EN|
	// +--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+
	//
	//   MODE = RW
}
