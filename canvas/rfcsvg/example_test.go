package rfcsvg_test

import (
	"bytes"
	"fmt"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/canvas/rfcsvg"
)

// A byte grid written for an RFC: presentation attributes, black and white, and a document
// the profile check passes.
func ExampleWrite() {
	d, err := bytegrid.Layout([]bytegrid.Field{
		{Offset: 0, Bits: 16, Name: "Source Port", Group: "Ports"},
		{Offset: 16, Bits: 16, Name: "Destination Port", Group: "Ports"},
	}, bytegrid.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	var b bytes.Buffer
	if err := rfcsvg.Write(&b, d, rfcsvg.WriteOptions{Title: "UDP ports", Inline: true}); err != nil {
		fmt.Println(err)
		return
	}
	svg := b.String()
	fmt.Println(svg[:bytes.IndexByte(b.Bytes(), '\n')])
	fmt.Println(rfcsvg.Check(b.Bytes()))
	// Output:
	// <svg xmlns="http://www.w3.org/2000/svg" version="1.2" baseProfile="tiny" width="567" height="106" viewBox="0 0 567 106" role="img" font-family="monospace">
	// <nil>
}

// The check names what departs from the profile, with its offset.
func ExampleCheck() {
	err := rfcsvg.Check([]byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"><style>rect{fill:red}</style></svg>`))
	fmt.Println(err)
	// Output:
	// offset 58: element <style> is not in the profile
	// offset 58: <style> may not be a child of <svg>
}
