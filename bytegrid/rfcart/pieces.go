package rfcart

import (
	"strings"

	"github.com/kafkagrid/kafkagrid/bytegrid"
)

// keepPieces keeps as printed the boxes of a field drawn in pieces, a box a row, whose name
// is printed on a rule it crosses and whose rows it does not fill (RFC 4034's RRSIG, "Signer's
// Name" beside Key Tag's rule, its edges '/': the drawing names a field on a rule only
// across whole rows), with those rules (Field.Crossings); or whose later pieces carry labels
// of their own that name it continued (RFC 6455's base framing figure:
// "Masking-key, if MASK set to 1" then "Masking-key (continued)", "Payload Data" then
// "Payload Data continued ..." between ':' edges, "Extended payload length continued, if
// payload len == 127"): the drawing's one label and its own "(continued)" would not be the
// figure, so each box is kept with its lines and side edges (Field.Pieces). When the rules
// inside every field so kept are dashed and every rule between two fields is solid, the
// figure draws its rules so (Text.Inside "dashed").
func (p *parser) keepPieces(st *fieldState, opts *bytegrid.Options) {
	kept := map[int]bool{}
	for i := range st.fields {
		cells := st.cellsOf[i]
		if len(cells) < 2 || !oneBoxARow(cells) {
			continue
		}
		switch {
		case continuedPiece(cells):
			kept[i] = true
		case nameOnCrossing(cells) && fullRows(cells, p.rb) < len(cells):
			st.fields[i].Crossings = p.crossingsAsPrinted(st, cells)
		default:
			continue
		}
		pieces := make([]string, len(cells))
		for k, c := range cells {
			pieces[k] = p.boxAsPrinted(st.bands[c.band], c)
		}
		st.fields[i].Pieces = pieces
	}
	if len(kept) > 0 {
		opts.Text.Inside = p.insideStyle(st, kept)
	}
}

// nameOnCrossing reports whether a field's name is printed on a rule it crosses (RFC 4034's
// RRSIG: "Signer's Name" on the rule under Key Tag, beside it).
func nameOnCrossing(cells []*cell) bool {
	for _, c := range cells {
		if len(c.extra) > 0 {
			return true
		}
	}
	return false
}

// crossingsAsPrinted are the rules between the boxes of a field in consecutive rows, as
// printed over the bits it covers in both (Field.Crossings); "" between rows not adjacent.
func (p *parser) crossingsAsPrinted(st *fieldState, cells []*cell) []string {
	out := make([]string, len(cells)-1)
	for k := 1; k < len(cells); k++ {
		a, b := cells[k-1], cells[k]
		rl := st.rules[b.band]
		lo, hi := max(a.from, b.from), min(a.to, b.to)
		if b.band != a.band+1 || rl < 0 || hi <= lo {
			continue
		}
		line := make([]rune, p.col(hi)-p.col(lo)+1)
		for j := range line {
			line[j] = p.at(rl, p.col(lo)+j)
		}
		out[k-1] = string(line)
	}
	return out
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

// insideStyle is how the figure draws the rules inside the fields kept in pieces (kept):
// "dashed" when every one is dashed and every rule between two fields solid (RFC 6455),
// else "".
func (p *parser) insideStyle(st *fieldState, kept map[int]bool) string {
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
	var dashed, solid, between, betweenDashed int
	for bi := 1; bi < len(st.bands); bi++ {
		rl := st.rules[bi]
		for b := 0; b < p.rb; b++ {
			u, v := at(bi-1, b), at(bi, b)
			if u < 0 || v < 0 || rl < 0 {
				continue
			}
			present, d, _ := p.ruleAtBit(rl, b)
			switch {
			case u != v:
				between++
				if d {
					betweenDashed++
				}
			case !kept[u]:
			case !present:
				return ""
			case d:
				dashed++
			default:
				solid++
			}
		}
	}
	switch {
	case dashed > 0 && solid == 0 && betweenDashed == 0:
		return "dashed"
	}
	return ""
}
