package bytegrid

import (
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/canvas/svgcanvas"
	"github.com/kafkagrid/kafkagrid/internal/mono"
)

// TestTurnNames: with Options.TurnNames, a field within one row whose box is narrower than its
// name's longest word is named in its box, turned, with its value (side by side where two
// lines fit across, else "name = value"), the row growing to hold it, and no numbered note;
// a name that fits across (or wraps) is fitted as before. Without the option, nothing turns.
func TestTurnNames(t *testing.T) {
	fields := []Field{
		{Offset: 0, Bits: 9, Name: "unused", Value: "0"},
		{Offset: 9, Bits: 1, Name: "isTransactional", Value: "1 → true"},
		{Offset: 10, Bits: 1, Name: "isControlBatch", Value: "0 → false"},
		{Offset: 11, Bits: 2, Name: "ab", Value: "3"},
		{Offset: 13, Bits: 3, Name: "compression", Value: "0 → none"},
		{Offset: 16, Bits: 16, Name: "Next", Value: "7"},
	}
	plain, err := Layout(fields, Options{RowBits: 16, BitWidth: 16})
	if err != nil {
		t.Fatal(err)
	}
	if len(plain.Notes) == 0 {
		t.Fatal("without TurnNames the narrow boxes' names should go to notes (the case is not one that turns)")
	}
	d, err := Layout(fields, Options{RowBits: 16, BitWidth: 16, TurnNames: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Notes) != 0 {
		t.Errorf("notes %+v, want none", d.Notes)
	}
	if d.Rows[0].H <= plain.Rows[0].H || d.Rows[1].H != plain.Rows[1].H {
		t.Errorf("row heights %g, %g; without turning %g, %g: the first should grow, the second not", d.Rows[0].H, d.Rows[1].H, plain.Rows[0].H, plain.Rows[1].H)
	}
	want := map[string][]string{
		"isTransactional": {"isTransactional = 1 → true"},
		"isControlBatch":  {"isControlBatch = 0 → false"},
		"compression":     {"compression", "0 → none"},
	}
	for _, b := range d.Fields {
		var turned []string
		s := b.Segs[0]
		for _, r := range b.Runs {
			if !r.Turned {
				continue
			}
			turned = append(turned, r.S)
			// Across the box: the glyphs stand left of the baseline, a size wide.
			if r.X-r.Size < s.X || r.X+r.Size*0.3 > s.X+s.W {
				t.Errorf("%s: turned %q at x %g leaves its box %g–%g", b.Name, r.S, r.X, s.X, s.X+s.W)
			}
			if l := canvas.Pt(mono.Width(r.S, float64(r.Size))); r.Y-l/2 < s.Y || r.Y+l/2 > s.Y+s.H {
				t.Errorf("%s: turned %q (%g long) at y %g leaves its box %g–%g", b.Name, r.S, l, r.Y, s.Y, s.Y+s.H)
			}
		}
		if got, w := strings.Join(turned, "|"), strings.Join(want[b.Name], "|"); got != w {
			t.Errorf("%s: turned %q, want %q", b.Name, got, w)
		}
	}
	rec := &canvas.Recorder{}
	d.Paint(rec)
	for _, l := range rec.Calls {
		if strings.Contains(l, "isTransactional = 1") && !strings.HasSuffix(l, " turned") {
			t.Errorf("painted %q, not turned", l)
		}
	}
	var svg strings.Builder
	if err := svgcanvas.Write(&svg, d, svgcanvas.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(svg.String(), `transform="rotate(-90 `); n != 4 {
		t.Errorf("the SVG turns %d runs, want 4", n)
	}
}
