package bytegrid_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/bytegrid/gridcheck"
	"github.com/kafkagrid/kafkagrid/bytegrid/gridsvg"
	"github.com/kafkagrid/kafkagrid/canvas"
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
			if err := gridsvg.WriteSVG(&svg, d, gridsvg.Options{}); err != nil {
				t.Fatal(err)
			}
			if err := gridcheck.Check(svg.Bytes()); err != nil {
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
			if err := bytegrid.WriteText(&txt, d); err != nil {
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
