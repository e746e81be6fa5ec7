package bytegrid

import "strings"

// piecesOK reports whether field fi is drawn as Field.Pieces prints it: one piece a
// segment, each line of each as wide as its box from its left edge to its right and of
// printable ASCII.
func (t *figureText) piecesOK(fi int) bool {
	if fi < 0 {
		return false
	}
	b := &t.d.Fields[fi]
	if len(b.Pieces) == 0 || len(b.Pieces) != len(b.Segs) {
		return false
	}
	for k, s := range b.Segs {
		w := t.col(s.To) - t.col(s.From) + 1
		for _, x := range strings.Split(b.Pieces[k], "\n") {
			if len(x) != w || strings.ContainsFunc(x, func(r rune) bool { return r < ' ' || r > '~' }) {
				return false
			}
		}
	}
	return true
}

// pieceLine is line l of field fi's box in display row i as Field.Pieces prints it, its side
// edges included, when piecesOK; a line past the piece's own is blank between the edges its
// last line has.
func (t *figureText) pieceLine(fi, i, l int) (string, bool) {
	if !t.piecesOK(fi) {
		return "", false
	}
	b := &t.d.Fields[fi]
	for k, s := range b.Segs {
		if s.Row != i {
			continue
		}
		ls := strings.Split(b.Pieces[k], "\n")
		if l < len(ls) {
			return ls[l], true
		}
		last := ls[len(ls)-1]
		return last[:1] + strings.Repeat(" ", len(last)-2) + last[len(last)-1:], true
	}
	return "", false
}

// pieceLabels lays out field fi's label as its pieces (Field.Pieces): no label of its own,
// each piece's row as many lines high as the piece.
func (t *figureText) pieceLabels(fi int) {
	b := &t.d.Fields[fi]
	t.labels[fi] = figLabel{row: -2}
	for k, s := range b.Segs {
		t.lines[s.Row] = max(t.lines[s.Row], strings.Count(b.Pieces[k], "\n")+1)
	}
}

// insideFill is the fill of a rule's bit between the fields above (u) and below (v) when
// Text.Inside is "dashed" (RFC 6455): dashed inside one field, solid between two, double
// over a field with a double rule; ok is false when Inside is not set.
func (t *figureText) insideFill(u, v int) (fill byte, ok bool) {
	if t.d.Text.Inside != "dashed" {
		return 0, false
	}
	switch {
	case u == v && u >= 0:
		return 'd', true
	case u == v:
		return 0, true
	case v >= 0 && t.d.Fields[v].DoubleRule:
		return '=', true
	}
	return '-', true
}

// crossings draws into the rule above display row i the lines of the fields that cross it
// between two of their pieces as Field.Crossings prints them.
func (t *figureText) crossings(line []byte, i int) {
	if i <= 0 || i >= len(t.owner) {
		return
	}
	for fi := range t.d.Fields {
		b := &t.d.Fields[fi]
		if len(b.Crossings) == 0 || !t.piecesOK(fi) {
			continue
		}
		for k := 1; k < len(b.Segs) && k-1 < len(b.Crossings); k++ {
			if b.Segs[k].Row != i || b.Segs[k-1].Row != i-1 {
				continue
			}
			lo, hi := max(b.Segs[k].From, b.Segs[k-1].From), min(b.Segs[k].To, b.Segs[k-1].To)
			c0, c1 := t.col(lo), t.col(hi)
			if x := b.Crossings[k-1]; hi > lo && len(x) == c1-c0+1 && c1 < len(line) && !strings.ContainsFunc(x, func(r rune) bool { return r < ' ' || r > '~' }) {
				copy(line[c0:], x)
			}
		}
	}
}
