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
		// A grid writes about one byte per 23 to 28 square points.
		SizeHint: int(float64(d.Width)*float64(d.Height)/22) + 1024,
	})
	d.Paint(c)
	if err := c.Close(); err != nil {
		return fmt.Errorf("gridsvg: %w", err)
	}
	return nil
}
