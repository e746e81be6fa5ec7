package reference

import (
	"github.com/kafkagrid/kafkagrid/canvas"
)

// drawing is a laid-out diagram (a byte grid or a tree) with the name and description the
// reference gives it. Everything else (painting it, cutting it into parts, its SVG class and
// style) comes from canvas.Drawing; a nil Drawing is no drawing.
type drawing struct {
	canvas.Drawing
	Title, Desc string
}

// size returns the drawing's width and height, zero for none.
func (d drawing) size() (w, h float64) {
	if d.Drawing == nil {
		return 0, 0
	}
	dw, dh := d.Size()
	return float64(dw), float64(dh)
}

// width returns the drawing's width in whole points.
func width(d drawing) int {
	w, _ := d.size()
	return int(w + 0.5)
}
