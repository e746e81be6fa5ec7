package canvas_test

import (
	"fmt"

	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/style"
)

// A layout paints through the Canvas interface; the Recorder shows the calls a backend gets.
func ExampleRecorder() {
	var c canvas.Canvas = &canvas.Recorder{}
	c.Begin(canvas.Group{Class: "field kind-plain", Attrs: []canvas.Attr{{Name: "data-path", Value: "Acks"}}, Title: "Acks: int16"})
	c.Rect(10, 10, 80, 24, canvas.Style{Fill: style.Group(1), Stroke: style.Ink})
	c.Text(50, 26, canvas.Text{S: "Acks", Size: 11, Anchor: canvas.Middle})
	c.End()
	for _, call := range c.(*canvas.Recorder).Calls {
		fmt.Println(call)
	}
	// Output:
	// begin "" "field kind-plain" [{data-path Acks}] "Acks: int16"
	//   rect 10 10 80 24 {Fill:g1 Stroke:ink Width:0 Dash:false Class:}
	//   text 50 26 {S:Acks Size:11 Anchor:1 Fill: Bold:false Class:}
	// end
}

func ExampleRound() {
	fmt.Println(canvas.Round(12.3456), canvas.Round(-0.005), canvas.Round(7))
	// Output: 12.35 -0.01 7
}
