// Package gridsvg writes a byte-grid diagram as one SVG document in a single call, so users need
// not know package canvas. The SVG follows kafkagrid's SVG contract (see canvas/svgcanvas): one
// <g class="field kind-…" data-path data-offset data-length> per field with a <title> tooltip.
package gridsvg

import (
	"fmt"
	"io"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/canvas/svgcanvas"
)

// Options configure the SVG document; the zero value is a standalone SVG.
type Options struct {
	Title, Desc string // accessible name and description
	Inline      bool   // omit the XML prolog, for HTML
	IDPrefix    string // root id and group id prefix; default a hash (see svgcanvas.Options)
}

// css makes the grid readable on hover in browsers; it is scoped under the root class.
const css = `.kg-grid .field:hover>rect{stroke-width:2}`

// WriteSVG writes d to w as an SVG document.
func WriteSVG(w io.Writer, d *bytegrid.Diagram, opts Options) error {
	c := svgcanvas.New(w, d.Width, d.Height, svgcanvas.Options{
		Title: opts.Title, Desc: opts.Desc, Inline: opts.Inline, IDPrefix: opts.IDPrefix,
		Class: "kg-grid", ExtraCSS: css,
		SizeHint: sizeHint(d),
	})
	d.Paint(c)
	if err := c.Close(); err != nil {
		return fmt.Errorf("gridsvg: %w", err)
	}
	return nil
}

// sizeHint estimates the size of the drawing of d, a little over, from what it holds: the
// canvas then keeps the drawing in one buffer it never has to grow.
func sizeHint(d *bytegrid.Diagram) int {
	const text, shape, group = 52, 62, 80 // an element's bytes besides its text, a little over
	n := 1024 + (len(d.Ruler)+len(d.Rows)+len(d.Legend))*text + len(d.Swatch)*shape
	for i := range d.Fields {
		b := &d.Fields[i]
		n += group + len(b.Class) + len(b.Path) + len(b.Title) + 2*shape*len(b.Segs)
		for _, r := range b.Runs {
			n += text + len(r.S)
		}
	}
	return n
}
