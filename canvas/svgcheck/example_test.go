package svgcheck_test

import (
	"bytes"
	"fmt"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/canvas/svgcanvas"
	"github.com/kafkagrid/kafkagrid/canvas/svgcheck"
)

// Check a byte grid written by svgcanvas: every label lies in its box and no boxes overlap.
func ExampleCheck() {
	d, err := bytegrid.Layout([]bytegrid.Field{
		{Offset: 0, Bits: 16, Name: "Source Port", Value: "49152", Bytes: []byte{0xc0, 0x00}},
		{Offset: 16, Bits: 16, Name: "Destination Port", Value: "53", Bytes: []byte{0x00, 0x35}},
		{Offset: 32, Bits: 16, Name: "Length", Value: "8"},
		{Offset: 48, Bits: 16, Name: "Checksum", Value: "0x0000"},
	}, bytegrid.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	var svg bytes.Buffer
	if err := svgcanvas.Write(&svg, d, svgcanvas.WriteOptions{Title: "UDP header"}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(svgcheck.Check(svg.Bytes()))
	// A label that leaves its box is reported.
	bad := `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50"><style>.t0{font-size:12px}</style>` +
		`<g class="field"><rect x="0" y="0" width="20" height="20"/><text class="t0" x="2" y="14">Too long</text></g></svg>`
	fmt.Println(svgcheck.Check([]byte(bad)))
	// Output:
	// <nil>
	// svgcheck: #0: text "Too long" {2 4.399999999999999 57.599999999999994 12.600000000000001} lies outside its box [{0 0 20 20}]
}
