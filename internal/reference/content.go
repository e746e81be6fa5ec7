package reference

import (
	"bytes"
	"fmt"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/tree"
)

// The seam between the reference and the packages that encode and draw: package kafka encodes
// the example frames (Catalog.Vectors) and translates each into the generic fields of a byte
// grid and nodes of a tree (kafka.NewView); bytegrid and tree lay them out.

// vectorContent returns the content function of a build: the frames are encoded once, up
// front (encoding every API takes milliseconds), and laid out per API by the workers.
func vectorContent(cat *kafka.Catalog) (contentFunc, error) {
	return vectorContentOpts(cat, kafka.VectorOptions{})
}

// vectorContentOpts is vectorContent with the examples' options (compression).
func vectorContentOpts(cat *kafka.Catalog, vo kafka.VectorOptions) (contentFunc, error) {
	vecs, err := cat.Vectors(vo)
	if err != nil {
		return nil, fmt.Errorf("reference: %w", err)
	}
	byAPI := make(map[*kafka.API]kafka.Vector, len(vecs))
	for _, v := range vecs {
		byAPI[v.API] = v
	}
	return func(a *kafka.API, f Format) (*apiContent, error) {
		v, ok := byAPI[a]
		if !ok || v.Request == nil || v.Response == nil {
			return nil, fmt.Errorf("reference: %s: no example frames", a.Name)
		}
		req, err := frameMessage(v.Request, f)
		if err != nil {
			return nil, err
		}
		resp, err := frameMessage(v.Response, f)
		if err != nil {
			return nil, err
		}
		return &apiContent{API: a, Request: req, Response: resp}, nil
	}, nil
}

// frameMessage lays out one frame as a byte grid and a tree, and renders the forms f asks for.
func frameMessage(fr *kafka.Frame, f Format) (*message, error) {
	base := fr.BaseName()
	side := "request"
	if fr.Response {
		side = "response"
	}
	name := fmt.Sprintf("%s v%d %s", fr.API.Name, fr.Version, side)
	view := kafka.NewView(fr)
	grid, err := bytegrid.Layout(view.Fields, bytegrid.Options{GroupColors: view.Groups})
	if err != nil {
		return nil, fmt.Errorf("reference: %s: byte grid: %w", base, err)
	}
	tr, err := tree.Layout(view.Tree, tree.Options{GroupColors: view.Groups, Title: name + ": expanded tree"})
	if err != nil {
		return nil, fmt.Errorf("reference: %s: tree: %w", base, err)
	}
	what := fmt.Sprintf("the %d-byte example %s (API key %d)", len(fr.Bytes), name, fr.API.Key)
	m := &message{
		Base: base, Response: fr.Response, Bytes: fr.Bytes,
		Grid: gridDrawing(grid, name+": byte grid", "Byte grid of "+what+", 32 bits a row, each field boxed and labelled with its name and value."),
		Tree: treeDrawing(tr, name+": expanded tree", "Expanded tree of "+what+": every field with its value, byte offset, length and wire type."),
	}
	if f&JSON != 0 {
		j, err := fr.MarshalJSON()
		if err != nil {
			return nil, fmt.Errorf("reference: %s: json: %w", base, err)
		}
		var buf bytes.Buffer
		buf.Grow(len(j) + len(j)/4)
		if err := jsonIndent(&buf, j); err != nil {
			return nil, fmt.Errorf("reference: %s: json: %w", base, err)
		}
		m.JSON = buf.Bytes()
	}
	if f&Text != 0 {
		var buf bytes.Buffer
		if err := writeMessageText(&buf, name, grid, tr); err != nil {
			return nil, fmt.Errorf("reference: %s: text: %w", base, err)
		}
		m.Text = buf.Bytes()
	}
	return m, nil
}

// gridDrawing adapts a laid-out byte grid.
func gridDrawing(d *bytegrid.Diagram, title, desc string) drawing {
	return drawing{
		W: d.Width, H: d.Height, Title: title, Desc: desc, Class: "kg-grid", CSS: gridCSS,
		Paint: d.Paint,
		Split: func(first, next canvas.Pt) [][2]int {
			return splitRows(len(d.Rows), first, next, d.PartHeight, func(i int) bool { return d.Rows[i].Joined })
		},
		PaintPart:  d.PaintRows,
		PartHeight: d.PartHeight,
	}
}

// gridCSS is the byte grid's hover style (as bytegrid/gridsvg writes it).
const gridCSS = `.kg-grid .field:hover>rect{stroke-width:2}`

// splitRows cuts n rows into parts whose height (partHeight) fits in first, then next, each
// cut before a row that does not continue a field from the row above (joined reports those
// that do) when the part has one. A part holds at least one row.
func splitRows(n int, first, next canvas.Pt, partHeight func(from, to int) canvas.Pt, joined func(int) bool) [][2]int {
	var parts [][2]int
	avail := first
	for from := 0; from < n; {
		to := from + 1
		for to < n && partHeight(from, to+1) <= avail {
			to++
		}
		if to < n {
			// Cut where no field crosses: in the part's second half if possible, else
			// anywhere in it (white space is better than a split field); only a part with
			// no such row at all is cut mid-field.
			cut := 0
			for k := to; k > from; k-- {
				if !joined(k) {
					cut = k
					break
				}
			}
			if cut > from {
				to = cut
			}
		}
		parts = append(parts, [2]int{from, to})
		from, avail = to, next
	}
	return parts
}
