package reference

import (
	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/tree"
	"github.com/kafkagrid/kafkagrid/tree/treesvg"
)

// treeDrawing adapts a laid-out tree.
func treeDrawing(d *tree.Diagram, title, desc string) drawing {
	return drawing{
		W: d.Width, H: d.Height, Title: title, Desc: desc, Class: "kg-tree", CSS: treesvg.HoverCSS,
		Paint: d.Paint,
		Split: func(first, next canvas.Pt) [][2]int {
			var parts [][2]int
			for _, s := range d.Split(first, next) {
				parts = append(parts, [2]int{s.From, s.To})
			}
			return parts
		},
		PaintPart:  d.PaintRows,
		PartHeight: d.PartHeight,
	}
}
