package reference

import (
	"fmt"
	"html/template"
	"io"

	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/canvas/svgcanvas"
	"github.com/kafkagrid/kafkagrid/schemas"
	"github.com/kafkagrid/kafkagrid/site"
)

// figSize returns the figure's width and height, zero for none.
func figSize(f site.Figure) (w, h float64) {
	if f.Drawing == nil {
		return 0, 0
	}
	fw, fh := f.Size()
	return float64(fw), float64(fh)
}

// The printed page (pageCSS's @media print): the content box of the smaller of A4 and Letter
// inside the 12 mm @page margins, in points. A drawing prints 1 unit to 1 pt, narrowed to
// printWidth when wider.
const (
	printWidth  = 518 // Letter: 8.5 in − 2 × 12 mm
	printHeight = 724 // Letter: 11 in − 2 × 12 mm
	// printHeading is the room a drawing's heading takes above it.
	printHeading = 40
	// printPart is the tallest part a drawing too tall for a page prints in: under half a page,
	// so that the first part mostly fits in what the text before it leaves of a page
	// (browsers move a drawing that does not fit to the next page; they cannot cut one).
	printPart = 0.45 * printHeight
)

// partView is one part of a drawing printed in parts.
type partView struct {
	W       int // the drawing's width, to size the SVG as the whole one
	Caption string
	SVG     template.HTML
}

// printParts cuts d into parts for print when it is taller than a printed page, each part
// an SVG of whole rows under the drawing's repeated ruler or header, at most printPart tall on
// paper. It returns nil when d prints whole on a page (or cannot be cut); the page then
// prints d itself. id is d's id on the page; the parts are id-p1, id-p2…, held by the page's
// bytes pb.
func printParts(pb *pageBytes, d site.Figure, id, caption string) ([]partView, error) {
	w, h := figSize(d)
	if w <= 0 {
		return nil, nil
	}
	scale := min(1, printWidth/w)
	if h*scale <= printHeight-printHeading {
		return nil, nil
	}
	limit := canvas.Pt(printPart / scale)
	rows := canvas.Paginate(d, limit, limit)
	if len(rows) < 2 {
		return nil, nil
	}
	parts := make([]partView, 0, len(rows))
	for i, r := range rows {
		svg, err := pb.html(func(buf io.Writer) error {
			return svgcanvas.Write(buf, d.Drawing, svgcanvas.WriteOptions{
				Title:    fmt.Sprintf("%s, part %d of %d", d.Title, i+1, len(rows)),
				Desc:     d.Desc,
				Inline:   true,
				IDPrefix: fmt.Sprintf("%s-p%d", id, i+1),
				Rows:     r,
			})
		})
		if err != nil {
			return nil, fmt.Errorf("reference: %s: part %d: %w", id, i+1, err)
		}
		pv := partView{W: int(w + 0.5), SVG: svg}
		if i > 0 {
			pv.Caption = caption + " (continued)"
		}
		parts = append(parts, pv)
	}
	return parts, nil
}

func structNames(ss []*schemas.Struct) []string {
	var names []string
	for _, s := range ss {
		names = append(names, s.Name)
	}
	return names
}

func structLines(ss []*schemas.Struct) []int {
	var lines []int
	for _, s := range ss {
		lines = append(lines, s.Pos.Line)
	}
	return lines
}
