package bytegrid

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/kafkagrid/kafkagrid/internal/mono"
)

// WriteText writes d as the ASCII art of an RFC header figure (RFC 791 section 3.1): a bit
// ruler, rows framed by +-+-+ lines, fields separated by |, names centred, a field that spans
// rows drawn without borders between its rows (and, when it wraps from the end of one row to
// the start of the next, without borders at those row edges) and named, as in the drawing, in
// its widest piece and in each piece that reads as a cell of its own (a split field's other
// piece, the partial first or last row of a field spanning three or more rows), and an elided
// field's middle as one "... N bytes ..." row. The fields' values, when any has one, are
// listed under the figure. Each bit takes two characters (three in rows of 16 bits or fewer,
// as in RFC 1035); labels that do not fit are cut. A diagram that uses a figure property (see
// "Protocol figures" in the package doc) is written in the figure manner instead: its ruler,
// margin, rows of several lines, stacked and vertical labels, blocks with "+" side marks,
// variable and optional fields' edges, captions and double rules, and a numbered note for a
// label that fits no way.
func (d *Diagram) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	if d.figure() {
		return d.writeFigure(bw)
	}
	rb := d.RowBits
	// Ruler.
	cpb := 2 // characters per bit, as in RFC 791; narrow rows get 3, as in RFC 1035
	if rb <= 16 {
		cpb = 3
	}
	tens := []byte(strings.Repeat(" ", cpb*rb+1))
	units := []byte(strings.Repeat(" ", cpb*rb+1))
	for b := 0; b < rb; b++ {
		if b%10 == 0 {
			tens[cpb*b+cpb-1] = byte('0' + b/10%10)
		}
		units[cpb*b+cpb-1] = byte('0' + b%10)
	}
	bw.WriteString(strings.TrimRight(string(tens), " ") + "\n")
	bw.WriteString(strings.TrimRight(string(units), " ") + "\n")

	// owner[i][b] is the field owning bit b of display row i, or -1.
	owner := make([][]int, len(d.Rows))
	for i := range owner {
		owner[i] = make([]int, rb)
		for b := range owner[i] {
			owner[i][b] = -1
		}
	}
	// named[i] holds the pieces named in display row i: the one with each field's label, and,
	// as in the drawing, those that read as cells of their own (see Box.contPiece), whose name
	// carries a continuation mark.
	named := make([][]textPiece, len(d.Rows))
	for fi := range d.Fields {
		box := &d.Fields[fi]
		for _, s := range box.Segs {
			for b := s.From; b < s.To; b++ {
				owner[s.Row][b] = fi
			}
		}
		best := box.labelSeg(d.Rows)
		for k, s := range box.Segs {
			switch {
			case k == best:
				named[s.Row] = append(named[s.Row], textPiece{fi, 0})
			case box.contPiece(k, best, rb, d.Rows):
				cont := 1
				if k > best {
					cont = -1
				}
				named[s.Row] = append(named[s.Row], textPiece{fi, cont})
			}
		}
	}
	// split[i] holds the fields drawn open at the end (split[i][1]) or start (split[i][0]) of
	// display row i: the pieces of a field wrapped across two rows that share no column. As in
	// RFC 791, such a piece has no border at the row's edge, and both pieces carry the name.
	split := make([][2]int, len(d.Rows))
	for i := range split {
		split[i] = [2]int{-1, -1}
	}
	for fi := range d.Fields {
		if box := &d.Fields[fi]; box.Split() {
			split[box.Segs[0].Row][1] = fi
			split[box.Segs[1].Row][0] = fi
		}
	}
	extent := func(i int) int {
		if i < 0 || i >= len(owner) {
			return 0
		}
		if d.Rows[i].Gap.S != "" {
			return len(owner[i]) // a gap row spans the whole width
		}
		e := 0
		for b, o := range owner[i] {
			if o >= 0 {
				e = b + 1
			}
		}
		return e
	}
	sep := func(i int) string { // the line above display row i
		n := max(extent(i-1), extent(i))
		if n == 0 {
			return ""
		}
		same := func(b int) bool {
			return i > 0 && i < len(owner) && owner[i-1][b] >= 0 && owner[i-1][b] == owner[i][b]
		}
		line := make([]byte, cpb*n+1)
		for b := 0; b < n; b++ {
			for k := 1; k < cpb; k++ {
				line[cpb*b+k] = '-'
				if same(b) {
					line[cpb*b+k] = ' '
				}
			}
			line[cpb*b] = '+'
			if b > 0 && same(b-1) && same(b) && owner[i][b-1] == owner[i][b] {
				line[cpb*b] = ' '
			}
		}
		line[cpb*n] = '+'
		if same(0) {
			line[0] = '|'
		}
		if n == rb && same(rb-1) {
			line[cpb*n] = '|'
		}
		return string(line)
	}
	for i, row := range d.Rows {
		// A line that is open all along (a field continuing across the whole row) is left
		// out, so a long field reads as one block.
		if l := sep(i); strings.ContainsAny(l, "+-") {
			bw.WriteString(l + "\n")
		}
		n := extent(i)
		line := []byte{'|'}
		if split[i][0] >= 0 && owner[i][0] == split[i][0] {
			line[0] = ' '
		}
		if row.Elided > 0 {
			line = append(line, centre(fmt.Sprintf("... %d bytes ...", row.Elided), cpb*n-1)...)
			line = append(line, '|')
		} else {
			for b := 0; b < n; {
				e := b + 1
				for e < n && owner[i][e] == owner[i][b] {
					e++
				}
				s := ""
				fi := owner[i][b]
				if k := slices.IndexFunc(named[i], func(p textPiece) bool { return p.field == fi }); fi >= 0 && k >= 0 {
					s = contText(d.Fields[fi].Name, named[i][k].cont, cpb*(e-b)-1)
				}
				line = append(line, centre(s, cpb*(e-b)-1)...)
				if e == rb && fi >= 0 && split[i][1] == fi {
					line = append(line, ' ')
				} else {
					line = append(line, '|')
				}
				b = e
			}
		}
		bw.WriteString(strings.TrimRight(string(line), " ") + "\n") // (a row open at its end)
	}
	if s := sep(len(d.Rows)); s != "" {
		bw.WriteString(s + "\n")
	}
	// Values.
	var vals []int
	width := 0
	for fi, b := range d.Fields {
		if b.Value != "" {
			width = max(width, mono.Runes(b.Name))
			vals = append(vals, fi)
		}
	}
	if len(vals) > 0 {
		bw.WriteString("\n")
		for _, fi := range vals {
			b := d.Fields[fi]
			bw.WriteString("  " + b.Name + strings.Repeat(" ", width-mono.Runes(b.Name)) + " = " + b.Value + "\n")
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("bytegrid: write text: %w", err)
	}
	return nil
}

// textPiece is a named piece of a field in the text art: the field, and whether its name
// carries a continuation mark (1: the field goes on in the next row, -1: it came from the row
// before, 0: none, the piece with the field's label).
type textPiece struct{ field, cont int }

// contText returns the text of a piece of a field named name in n cells: the name alone when
// cont is 0, else the name with an ASCII continuation mark, "Name >" or "< Name", the name cut
// (ending in '.') to keep the mark, or the mark alone when no part of the name fits.
func contText(name string, cont, n int) string {
	if cont == 0 {
		return name
	}
	rs := []rune(name)
	if len(rs)+2 > n {
		if n-2 < 2 {
			rs = nil
		} else {
			rs = append(rs[:n-3:n-3], '.')
		}
	}
	switch {
	case len(rs) == 0 && cont > 0:
		return ">"
	case len(rs) == 0:
		return "<"
	case cont > 0:
		return string(rs) + " >"
	}
	return "< " + string(rs)
}

// centre centres s in n cells, cutting it (with "…" replaced by ".") when it is longer.
func centre(s string, n int) string {
	if n <= 0 {
		return ""
	}
	rs := []rune(s)
	if len(rs) > n {
		rs = rs[:n]
		if n > 2 {
			rs[n-1] = '.'
		}
	}
	left := (n - len(rs)) / 2
	return strings.Repeat(" ", left) + string(rs) + strings.Repeat(" ", n-len(rs)-left)
}
