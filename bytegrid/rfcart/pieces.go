package rfcart

import (
	"strings"

	"github.com/kafkagrid/kafkagrid/bytegrid"
)

// keepPieces keeps as printed the boxes of a field drawn in pieces, a box a row, whose later
// pieces carry labels of their own that name it continued (RFC 6455's base framing figure:
// "Masking-key, if MASK set to 1" then "Masking-key (continued)", "Payload Data" then
// "Payload Data continued ..." between ':' edges, "Extended payload length continued, if
// payload len == 127"): the drawing's one label and its own "(continued)" would not be the
// figure, so each box is kept with its lines and side edges (Field.Pieces). When the rules
// inside every field so kept are dashed and every rule between two fields is solid, the
// figure draws its rules so (Text.Inside "dashed").
func (p *parser) keepPieces(st *fieldState, opts *bytegrid.Options) {
	kept := false
	for i := range st.fields {
		cells := st.cellsOf[i]
		if len(cells) < 2 || !continuedPiece(cells) || !oneBoxARow(cells) {
			continue
		}
		pieces := make([]string, len(cells))
		for k, c := range cells {
			pieces[k] = p.boxAsPrinted(st.bands[c.band], c)
		}
		st.fields[i].Pieces = pieces
		kept = true
	}
	if kept && p.dashedInside(st) {
		opts.Text.Inside = "dashed"
	}
}

// continuedPiece reports whether a box after the first of a field names it continued
// ("… continued", "(continued)").
func continuedPiece(cells []*cell) bool {
	for _, c := range cells[1:] {
		for _, t := range c.text {
			if strings.Contains(strings.ToLower(t), "continued") {
				return true
			}
		}
	}
	return false
}

// oneBoxARow reports whether the boxes each stand in a row of their own, in order.
func oneBoxARow(cells []*cell) bool {
	for k := 1; k < len(cells); k++ {
		if cells[k].band <= cells[k-1].band {
			return false
		}
	}
	return true
}

// boxAsPrinted is box c of band bd as printed: each line of the band from its left edge to
// its right, both included.
func (p *parser) boxAsPrinted(bd band, c *cell) string {
	c0, c1 := p.col(c.from), p.col(c.to)
	var out []string
	for l := bd.from; l < bd.to; l++ {
		line := make([]rune, c1-c0+1)
		for k := range line {
			line[k] = ' '
			if r := p.at(l, c0+k); r != 0 {
				line[k] = r
			}
		}
		out = append(out, string(line))
	}
	return strings.Join(out, "\n")
}

// dashedInside reports whether every rule of the figure between two boxes of one field is
// dashed, and every rule between two fields solid (or double): RFC 6455's convention.
func (p *parser) dashedInside(st *fieldState) bool {
	byBand := make([][]*cell, len(st.bands))
	owner := map[*cell]int{}
	for i, cs := range st.cellsOf {
		for _, c := range cs {
			owner[c] = i
			byBand[c.band] = append(byBand[c.band], c)
		}
	}
	at := func(band, b int) int {
		for _, c := range byBand[band] {
			if c.from <= b && b < c.to {
				return owner[c]
			}
		}
		return -1
	}
	inside := 0
	for bi := 1; bi < len(st.bands); bi++ {
		rl := st.rules[bi]
		if rl < 0 {
			return false
		}
		for b := 0; b < p.rb; b++ {
			u, v := at(bi-1, b), at(bi, b)
			if u < 0 || v < 0 {
				continue
			}
			present, dashed, _ := p.ruleAtBit(rl, b)
			switch {
			case !present, u == v && !dashed, u != v && dashed:
				return false
			case u == v:
				inside++
			}
		}
	}
	return inside > 0
}
