package webdecoder

import (
	"fmt"
	"strings"

	"github.com/kafkagrid/kafkagrid/capture"
	"github.com/kafkagrid/kafkagrid/site"
	"github.com/kafkagrid/kafkagrid/site/report"
)

// Figure is the drawing of one frame: its heading ("Produce v12 request"), what it is (its
// size, correlation id, header version, packet), a note when it is not drawn or failed, and
// its byte grid and tree as standalone SVG (the report's frames/…-grid.svg and -tree.svg).
type Figure struct {
	Heading   string `json:"heading"`
	Meta      string `json:"meta"`
	Note      string `json:"note,omitempty"`
	Grid      string `json:"grid,omitempty"`
	GridTitle string `json:"gridTitle,omitempty"`
	GridWidth int    `json:"gridWidth,omitempty"`
	Tree      string `json:"tree,omitempty"`
	TreeTitle string `json:"treeTitle,omitempty"`
	TreeWidth int    `json:"treeWidth,omitempty"`
}

// drawExchange draws the frames of e (nil: none), request first; narrow draws the grids 16
// bits a row.
func drawExchange(e *capture.Exchange, narrow bool) []Figure {
	if e == nil {
		return nil
	}
	var out []Figure
	for side, m := range []*capture.Message{e.Request, e.Response} {
		if m != nil {
			out = append(out, drawMessage(m, side == 1, narrow))
		}
	}
	return out
}

// drawMessage draws one frame as the report does (site.Draw), when it has at most
// report.MaxDrawnFields fields: its grid 32 bits a row, or 16 when narrow, and its tree.
func drawMessage(m *capture.Message, response, narrow bool) Figure {
	name := map[bool]string{false: "request", true: "response"}[response]
	f := m.Frame
	var fg Figure
	switch {
	case f != nil && f.API != nil:
		fg.Heading = fmt.Sprintf("%s v%d %s", f.API.Name, f.Version, name)
	case m.Token:
		fg.Heading = "SASL token from the " + map[bool]string{false: "client", true: "broker"}[response]
	default:
		fg.Heading = "undecoded " + name
	}
	meta := []string{fmt.Sprintf("%d bytes", len(m.Bytes))}
	if corr, ok := m.CorrelationID(response); ok && (f != nil && f.API != nil || m.Err != nil) {
		meta = append(meta, fmt.Sprintf("correlation id %d", corr))
	}
	if f != nil && f.API != nil && (m.Err == nil || f.CorrelationID != 0) {
		meta = append(meta, fmt.Sprintf("header v%d", f.HeaderVersion))
	}
	if m.Packet > 0 {
		meta = append(meta, fmt.Sprintf("packet %d", m.Packet))
	}
	fg.Meta = strings.Join(meta, " · ")
	if m.Err != nil {
		fg.Note = "error: " + m.Err.Error()
	}
	if f == nil || f.Root == nil {
		return fg
	}
	if f.Nodes > report.MaxDrawnFields {
		fg.Note = strings.TrimSpace(fg.Note + fmt.Sprintf(" not drawn: %d fields (tree nodes), more than the page draws of one frame (%d); the Text tab and the report have it all", f.Nodes, report.MaxDrawnFields))
		return fg
	}
	figs, err := site.Draw(f, site.Options{Name: fg.Heading, Err: m.Err, Narrow: narrow})
	if err != nil {
		fg.Note = strings.TrimSpace(fg.Note + " not drawn: " + err.Error())
		return fg
	}
	gridFig := figs.Grid
	if narrow {
		gridFig = figs.Narrow
	}
	var grid, tree strings.Builder
	if site.WriteSVG(&grid, gridFig, false, "") == nil {
		fg.Grid, fg.GridTitle, fg.GridWidth = grid.String(), gridFig.Title, gridFig.Width()
	}
	if site.WriteSVG(&tree, figs.Tree, false, "") == nil {
		fg.Tree, fg.TreeTitle, fg.TreeWidth = tree.String(), figs.Tree.Title, figs.Tree.Width()
	}
	return fg
}
