package reference

import (
	"bytes"
	"html/template"
	"io"

	"github.com/kafkagrid/kafkagrid/canvas/svgcanvas"
	"github.com/kafkagrid/kafkagrid/schemas"
)

// writeSVG paints d as one SVG document: standalone (with the XML prolog), or inline for an
// HTML page, where id must be unique on the page.
func writeSVG(w io.Writer, d drawing, inline bool, id string) error {
	c := svgcanvas.New(w, d.W, d.H, svgcanvas.Options{
		Title: d.Title, Desc: d.Desc, Inline: inline, IDPrefix: id, Class: d.Class, ExtraCSS: d.CSS,
	})
	d.Paint(c)
	return c.Close()
}

// inlineSVG is writeSVG for a page.
func inlineSVG(d drawing, id string) (template.HTML, error) {
	if d.Paint == nil {
		return "", nil
	}
	var buf bytes.Buffer
	if err := writeSVG(&buf, d, true, id); err != nil {
		return "", err
	}
	return template.HTML(buf.String()), nil
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
