package bytegrid_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/canvas/svgcanvas"
	"github.com/kafkagrid/kafkagrid/canvas/svgcheck"
)

// TestSplitField checks a field wrapped from the end of one row to the start of the next with
// no column in common: both pieces are labelled (the main label in the larger, the muted name
// with a continuation mark in the other), the pieces are open at their facing ends, and the
// text art has no border at those row edges.
func TestSplitField(t *testing.T) {
	for _, tc := range []struct {
		name        string
		first, bits int    // bit offset and length of the split field
		wantCont    string // the continuation label
		contRow     int
	}{
		{"tail larger", 24, 32, "Timeout ›", 0},
		{"head larger", 8, 32, "‹ Timeout", 1},
		{"one bit", 31, 9, "›", 0},
		{"ellipsised", 30, 30, "T… ›", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fields := []bytegrid.Field{}
			if tc.first > 0 {
				fields = append(fields, bytegrid.Field{Offset: 0, Bits: tc.first, Name: "A"})
			}
			fields = append(fields, bytegrid.Field{Offset: tc.first, Bits: tc.bits, Name: "Timeout", Value: "30000"})
			d, err := bytegrid.Layout(fields, bytegrid.Options{})
			if err != nil {
				t.Fatal(err)
			}
			b := d.Fields[len(d.Fields)-1]
			if !b.Split() {
				t.Fatalf("field not split: %+v", b.Segs)
			}
			var cont []bytegrid.Run
			names := 0
			for _, r := range b.Runs {
				switch r.Class {
				case "cont":
					cont = append(cont, r)
				case "name":
					names++
				}
			}
			if len(cont) != 1 || cont[0].S != tc.wantCont || cont[0].Row != tc.contRow {
				t.Errorf("continuation labels %+v, want %q in row %d", cont, tc.wantCont, tc.contRow)
			}
			if names == 0 {
				t.Errorf("no main label: %+v", b.Runs)
			}
			var svg bytes.Buffer
			if err := svgcanvas.Write(&svg, d, svgcanvas.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			if err := svgcheck.Check(svg.Bytes()); err != nil {
				t.Error(err)
			}
			// The open ends are dashed lines at the grid's right and left edges.
			var rec canvas.Recorder
			d.Paint(&rec)
			right := d.GridX + canvas.Pt(d.RowBits)*d.BitW + 0.5
			var dashed []string
			for _, call := range rec.Calls {
				if strings.Contains(call, "line ") && strings.Contains(call, "Dash:true") {
					dashed = append(dashed, strings.Fields(call)[1])
				}
			}
			want := []string{fmt.Sprint(float64(right)), fmt.Sprint(float64(d.GridX + 0.5))}
			if fmt.Sprint(dashed) != fmt.Sprint(want) {
				t.Errorf("dashed open ends at x %v, want %v", dashed, want)
			}
			var txt bytes.Buffer
			if err := d.WriteText(&txt); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(txt.String(), "\n")
			row0, row1 := lines[3], lines[5]
			if strings.HasSuffix(row0, "|") || strings.HasPrefix(row1, "|") {
				t.Errorf("text art closes the split field's open ends:\n%s", txt.String())
			}
			if tc.bits-(32-tc.first) >= 8 && 32-tc.first >= 8 && (!strings.Contains(row0, "Timeout") || !strings.Contains(row1, "Timeout")) {
				t.Errorf("text art does not name both pieces:\n%s", txt.String())
			}
		})
	}
}

// TestLongFieldEnds checks a field spanning three or more rows: its partial first and last
// rows, which the outline joins to the labelled full row only along one edge, carry the
// muted name with a continuation mark (shrunk, ellipsised, or the mark alone as room allows);
// full rows and elision rows carry none; the drawing passes svgcheck; and the text art names
// the same pieces with ASCII marks.
func TestLongFieldEnds(t *testing.T) {
	for _, tc := range []struct {
		name        string
		first, bits int      // bit offset and length of the long field
		rows        int      // row bits (0: 32)
		elide       int      // Options.ElideRows
		want        []string // the continuation labels, in row order, as "row:text"
		wantText    []string // substrings of the text art's lines, one per row of the field
	}{
		// Produce v12's BaseOffset: an int64 from byte 1 of a row.
		{"int64 at byte 1", 8, 64, 0, 0, []string{"0:BaseOffset ›", "2:‹ BaseOffset"}, []string{"BaseOffset >", "BaseOffset", "< BaseOffset"}},
		// Fetch v17's FetchOffset: an int64 from byte 3, the head one byte wide.
		{"one-byte head", 24, 64, 0, 0, []string{"0:BaseOffset ›", "2:‹ BaseOffset"}, []string{"BaseOffset >", "BaseOffset", "< BaseOffset"}},
		// A full first row takes the label; only the partial last row is marked.
		{"full first row", 0, 72, 0, 0, []string{"2:‹ BaseOffset"}, []string{"BaseOffset", "|", "< BaseOffset"}},
		// A full last row continues the labelled rectangle: only the head is marked.
		{"full last row", 16, 80, 0, 0, []string{"0:BaseOffset ›"}, []string{"BaseOffset >", "BaseOffset", "|"}},
		// Elided (the head, the elision row, the tail): the wider head has the label.
		{"elided, tail marked", 16, 16 + 32*6 + 8, 0, 0, []string{"2:‹ BaseOffset"}, []string{"BaseOffset", "... 24 bytes ...", "< BaseOffset"}},
		// Elided with the wider tail labelled: the head is marked.
		{"elided, head marked", 24, 8 + 32*5 + 24, 0, 0, []string{"0:BaseOffset ›"}, []string{"BaseOffset >", "... 20 bytes ...", "BaseOffset"}},
		// A one-bit head (the mark alone), two full rows, a tail.
		{"mark only", 31, 1 + 64 + 8, 0, 0, []string{"0:›", "3:‹ BaseOffset"}, nil},
		// 64-bit rows: a head three bits wide holds an ellipsised name.
		{"ellipsised", 61, 3 + 64 + 8, 64, 0, []string{"0:B… ›", "2:‹ BaseOffset"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rb := tc.rows
			if rb == 0 {
				rb = 32
			}
			var fields []bytegrid.Field
			if tc.first > 0 {
				fields = append(fields, bytegrid.Field{Offset: 0, Bits: tc.first, Name: "A"})
			}
			fields = append(fields, bytegrid.Field{Offset: tc.first, Bits: tc.bits, Name: "BaseOffset", Value: "0"})
			if end := tc.first + tc.bits; end%rb != 0 {
				fields = append(fields, bytegrid.Field{Offset: end, Bits: rb - end%rb, Name: "Z"})
			}
			d, err := bytegrid.Layout(fields, bytegrid.Options{RowBits: tc.rows, ElideRows: tc.elide})
			if err != nil {
				t.Fatal(err)
			}
			b := d.Fields[len(d.Fields)-1]
			if b.Name != "BaseOffset" {
				b = d.Fields[len(d.Fields)-2]
			}
			if b.Split() || len(b.Segs) < 3 {
				t.Fatalf("not a field of three or more rows: %+v", b.Segs)
			}
			var got []string
			names := 0
			for _, r := range b.Runs {
				switch r.Class {
				case "cont":
					got = append(got, fmt.Sprintf("%d:%s", r.Row, r.S))
				case "name":
					names++
				}
			}
			if len(got) != len(tc.want) {
				t.Errorf("continuation labels %q, want %q", got, tc.want)
			} else {
				for k := range got {
					if !strings.HasPrefix(got[k], tc.want[k]) {
						t.Errorf("continuation label %q, want %q", got[k], tc.want[k])
					}
				}
			}
			if names == 0 {
				t.Errorf("no main label: %+v", b.Runs)
			}
			var svg bytes.Buffer
			if err := svgcanvas.Write(&svg, d, svgcanvas.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			if err := svgcheck.Check(svg.Bytes()); err != nil {
				t.Error(err)
			}
			if tc.wantText == nil {
				return
			}
			var txt bytes.Buffer
			if err := d.WriteText(&txt); err != nil {
				t.Fatal(err)
			}
			// Rows are lines 3, 5 (or 4 when no border separates them), …: take the lines
			// that start with '|' or ' ' after the ruler and are not border lines.
			var rowLines []string
			for _, l := range strings.Split(txt.String(), "\n")[2:] {
				if l == "" {
					break
				}
				if !strings.HasPrefix(l, "+") && !strings.Contains(l, "+-") {
					rowLines = append(rowLines, l)
				}
			}
			first := b.Segs[0].Row
			for k, want := range tc.wantText {
				if first+k >= len(rowLines) || !strings.Contains(rowLines[first+k], want) {
					t.Errorf("text art row %d lacks %q:\n%s", first+k, want, txt.String())
				} else if !strings.ContainsAny(want, "<>") && strings.ContainsAny(rowLines[first+k], "<>") {
					t.Errorf("text art row %d has a continuation mark:\n%s", first+k, txt.String())
				}
			}
		})
	}
}

// TestBrackets checks a framing field's bracket: "[" inside the left edge of its first
// segment for Opens, "]" inside the right edge of its last for Closes, none where the box is
// too narrow; and the label kept clear of the bracket's ticks.
func TestBrackets(t *testing.T) {
	for _, tc := range []struct {
		name     string
		offset   int // bits
		bits     int
		bracket  bytegrid.Bracket
		want     bool // a bracket is drawn
		leftEdge bool // at the left edge (else the right)
	}{
		{"opens", 0, 8, bytegrid.Opens, true, true},
		{"closes", 8, 8, bytegrid.Closes, true, false},
		{"none", 0, 8, bytegrid.NoBracket, false, false},
		{"narrow", 0, 1, bytegrid.Opens, false, false},
		{"opens/split", 24, 16, bytegrid.Opens, true, true},
		{"closes/split", 24, 16, bytegrid.Closes, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fields := []bytegrid.Field{{Offset: tc.offset, Bits: tc.bits, Name: "Partitions", Value: "2 → 1 element", Kind: bytegrid.Length, Group: "a", Bracket: tc.bracket}}
			if end := tc.offset + tc.bits; end < 64 {
				fields = append(fields, bytegrid.Field{Offset: end, Bits: 64 - end, Name: "Rest", Group: "b"})
			}
			if tc.offset > 0 {
				fields = append([]bytegrid.Field{{Offset: 0, Bits: tc.offset, Name: "First", Group: "a"}}, fields...)
			}
			d, err := bytegrid.Layout(fields, bytegrid.Options{})
			if err != nil {
				t.Fatal(err)
			}
			b := d.Fields[0]
			if tc.offset > 0 {
				b = d.Fields[1]
			}
			if got := len(b.Bracket) > 0; got != tc.want {
				t.Fatalf("bracket %v, want one: %v", b.Bracket, tc.want)
			}
			if !tc.want {
				return
			}
			s := b.Segs[0]
			if !tc.leftEdge {
				s = b.Segs[len(b.Segs)-1]
			}
			if b.BracketRow != s.Row {
				t.Errorf("bracket in row %d, want %d", b.BracketRow, s.Row)
			}
			bar := b.Bracket[2] // the x of the bar
			if tc.leftEdge && (bar <= s.X || bar > s.X+s.W/2) || !tc.leftEdge && (bar >= s.X+s.W || bar < s.X+s.W/2) {
				t.Errorf("bar at x %g, segment %+v", bar, s)
			}
			lo, hi := min(b.Bracket[0], b.Bracket[2]), max(b.Bracket[0], b.Bracket[2])
			for _, r := range b.Runs {
				if r.Row == b.BracketRow && r.Class != "hex" && r.Left() < hi && r.Left()+r.W > lo {
					t.Errorf("label %q (%g..%g) reaches the bracket (%g..%g)", r.S, r.Left(), r.Left()+r.W, lo, hi)
				}
			}
		})
	}
}
