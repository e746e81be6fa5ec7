// Package treesvg writes a laid-out tree (package tree) as one standalone SVG document, through
// canvas/svgcanvas, in one call. It adds the tree's hover style: a node's row is tinted while
// the pointer is over it, so a page can also light up the byte grid field with the same
// data-path.
package treesvg

import (
	"fmt"
	"io"
	"strconv"

	"github.com/kafkagrid/kafkagrid/canvas/svgcanvas"
	"github.com/kafkagrid/kafkagrid/tree"
)

// Options configure the document. The zero value writes a standalone SVG titled by the
// diagram's Title.
type Options struct {
	// Desc is the accessible description (<desc>); empty means a count of the nodes.
	Desc string
	// Inline omits the XML prolog, for SVG embedded in HTML.
	Inline bool
	// IDPrefix is the root element's id (see svgcanvas.Options).
	IDPrefix string
}

// HoverCSS is the style sheet Write adds: the row under the pointer is tinted. The generated
// paint classes are scoped by the root id, so the tint needs !important to win over them.
const HoverCSS = `.kg-tree .node .hit{pointer-events:all}` +
	`.kg-tree .node:hover .hit{fill:var(--kg-accent,#d9481c)!important;fill-opacity:.08}`

// Write writes d as an SVG document to w.
func Write(w io.Writer, d *tree.Diagram, opt Options) error {
	if d == nil {
		return fmt.Errorf("treesvg: nil diagram")
	}
	title := d.Title
	if title == "" {
		title = "Object tree"
	}
	desc := opt.Desc
	if desc == "" {
		desc = "Expanded object tree of " + strconv.Itoa(d.NumRows()) + " nodes: name, value, offset, length and type of each."
	}
	c := svgcanvas.New(w, d.Width, d.Height, svgcanvas.Options{
		Title: title, Desc: desc, Inline: opt.Inline, IDPrefix: opt.IDPrefix,
		Class: "kg-tree", ExtraCSS: HoverCSS,
		SizeHint: sizeHint(d),
	})
	d.Paint(c)
	if err := c.Close(); err != nil {
		return fmt.Errorf("treesvg: %w", err)
	}
	return nil
}

// sizeHint estimates the size of the drawing of d, a little over, from what it holds: the
// canvas then keeps the drawing in one buffer it never has to grow.
func sizeHint(d *tree.Diagram) int {
	const text, shape, group = 50, 60, 96 // an element's bytes besides its text, a little over
	n := 2048 + len(d.Header)*text + len(d.Rules)*shape
	for i := range d.Rows {
		r := &d.Rows[i]
		n += group + 2*len(r.Path) + len(r.Title) + 4*shape // zebra, hit, elbow, chip
		for _, t := range r.Runs {
			n += text + len(t.S)
		}
	}
	return n
}
