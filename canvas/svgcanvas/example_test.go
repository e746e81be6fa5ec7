package svgcanvas_test

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/canvas/svgcanvas"
	"github.com/kafkagrid/kafkagrid/style"
)

// A tiny drawing: one labelled box in a group. The document is written on Close.
func ExampleNew() {
	var buf bytes.Buffer
	c := svgcanvas.New(&buf, 120, 40, svgcanvas.Options{Title: "Box", IDPrefix: "ex", Inline: true})
	c.Begin(canvas.Group{Class: "field", Title: "A field"})
	c.Rect(0.5, 0.5, 119, 39, canvas.Style{Fill: style.Paper, Stroke: style.Ink})
	c.Text(60, 24, canvas.Text{S: "Name", Size: 12, Anchor: canvas.Middle, Fill: style.Ink})
	c.End()
	if err := c.Close(); err != nil {
		fmt.Println(err)
		return
	}
	svg := buf.String()
	fmt.Println(svg[:strings.Index(svg, ">")+1])
	fmt.Println(strings.Count(svg, "<rect"), strings.Count(svg, "<text"), strings.Contains(svg, ">Name</text>"))
	// Output:
	// <svg xmlns="http://www.w3.org/2000/svg" id="ex" class="kg ex" width="120" height="40" viewBox="0 0 120 40" role="img" aria-labelledby="ex-title ex-desc">
	// 1 1 true
}
