package reference

import (
	"fmt"
	"io"

	"github.com/kafkagrid/kafkagrid/kafka"
)

// ShowOptions configure Show. The zero value prints the request as text.
type ShowOptions struct {
	Response bool   // the response instead of the request
	Format   Format // Text (default), SVG or JSON: exactly one
	Tree     bool   // with SVG: the expanded tree instead of the byte grid
}

// Show writes one API's example request or response to w: as text (the byte grid as RFC
// ASCII art and the expanded tree), as a standalone SVG (the byte grid, or the tree), or as
// the annotated frame in JSON. The frame is the one Build writes for the API.
func Show(w io.Writer, cat *kafka.Catalog, a *kafka.API, opts ShowOptions) error {
	if cat == nil || a == nil {
		return fmt.Errorf("reference: show: no API")
	}
	f := opts.Format
	if f == 0 {
		f = Text
	}
	if f != Text && f != SVG && f != JSON {
		return fmt.Errorf("reference: show: format %s: want one of txt, svg, json", f)
	}
	content, err := vectorContent(cat, nil)
	if err != nil {
		return err
	}
	c, err := content(a, f)
	if err != nil {
		return err
	}
	m := c.Request
	if opts.Response {
		m = c.Response
	}
	switch f {
	case SVG:
		d := m.Grid
		if opts.Tree {
			d = m.Tree
		}
		ew := &errWriter{w: w}
		if err := writeSVG(ew, d, false, ""); err != nil {
			return fmt.Errorf("reference: show: %w", err)
		}
		return ew.err
	case JSON:
		_, err = w.Write(m.JSON)
	default:
		_, err = w.Write(m.Text)
	}
	if err != nil {
		return fmt.Errorf("reference: show: %w", err)
	}
	return nil
}
