package svgcanvas_test

import (
	"bytes"
	"fmt"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/canvas/svgcanvas"
)

// Paint a drawing once and write it twice: a file of its own and the same drawing inline in
// a page, each byte for byte what Write writes with those options.
func ExamplePaint() {
	d, err := bytegrid.Layout([]bytegrid.Field{
		{Offset: 0, Bits: 16, Name: "Source Port", Value: "53211", Path: "SrcPort", Bytes: []byte{0xcf, 0xdb}},
		{Offset: 16, Bits: 16, Name: "Destination Port", Value: "53", Path: "DstPort", Bytes: []byte{0, 53}},
	}, bytegrid.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := svgcanvas.Paint(d, canvas.Span{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer p.Release()
	for _, opt := range []svgcanvas.WriteOptions{{Title: "UDP ports"}, {Title: "UDP ports", Inline: true}} {
		var painted, written bytes.Buffer
		if err := p.Write(&painted, opt); err != nil {
			fmt.Println(err)
			return
		}
		if err := svgcanvas.Write(&written, d, opt); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("inline:", opt.Inline, "same as Write:", bytes.Equal(painted.Bytes(), written.Bytes()))
	}
	// Output:
	// inline: false same as Write: true
	// inline: true same as Write: true
}
