package bytegrid_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/bytegrid"
)

// TestTableText draws a table of counts as Text.Table lays it out (a name wrapped to its box,
// the counts where the table says), a stack (each name's words on its lines and columns), and
// refuses a layout that does not fit the fields (want "draw": when drawn).
func TestTableText(t *testing.T) {
	fields := []bytegrid.Field{{Name: "VER", Bits: 8}, {Name: "Frame Type", Bits: 16, Offset: 8}, {Name: "DATA", Bits: 8, Offset: 24, Variable: true}}
	for _, tt := range []struct{ table, want, err string }{
		{"boxed\n4 1\n7 2\n10 Variable", "" +
			"  +----+-------+----------+\n" +
			"  |VER | Frame |   DATA   |\n" +
			"  |    | Type  |          |\n" +
			"  +----+-------+----------+\n" +
			"  | 1  |   2   | Variable |\n" +
			"  +----+-------+----------+\n", ""},
		{"under\n4 1\n12 2\n6 *", "" +
			"  +----+------------+------+\n" +
			"  |VER | Frame Type | DATA |\n" +
			"  +----+------------+------+\n" +
			"    1        2         *\n", ""},
		{"sideways\n4 1\n7 2\n10 Variable", "", "want boxed, inline, under or stack"},
		{"stack\n12 1:1\n12 0:1 3:1\n12 - 2:1", "" +
			"  +------------+\n" +
			"  | VER        |\n" +
			"  +------------+\n" +
			"  |Frame       |\n" +
			"  |   Type     |\n" +
			"  +------------+\n" +
			"  |            |\n" +
			"  |  DATA      |\n" +
			"  +------------+\n", ""},
		{"stack\n12 1:1\n12 0:3\n12 2:1", "draw", "has 3 words on a line"}, // (an error drawing: the names are the diagram's)
		{"inline\n4 1\n7 2", "", "2 boxes for 3 fields"},
		{"inline\n4 1\n7 2\n3 Variable", "", "want its width"},
	} {
		d, err := bytegrid.Layout(fields, bytegrid.Options{RowBits: 32, Text: bytegrid.TextOptions{Table: tt.table, Margin: 2}})
		if tt.err != "" && tt.want != "draw" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: error %v, want %q", tt.table, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := d.WriteText(&b); err != nil {
			if tt.want == "draw" && strings.Contains(err.Error(), tt.err) {
				continue
			}
			t.Fatal(err)
		}
		if b.String() != tt.want {
			t.Errorf("%q drawn\n%s\nwant\n%s", tt.table, b.String(), tt.want)
		}
	}
}

// FuzzTableText lays out and draws fields with any Text.Table: an error or a drawing, never a
// panic, and text bounded by the boxes' widths and the names' words.
func FuzzTableText(f *testing.F) {
	f.Add("boxed\n4 1\n7 2\n10 Variable", "VER|Frame Type|DATA")
	f.Add("under\n4 1\n12 2\n6 *", "a|b|c")
	f.Add("stack\n12 1:1\n12 0:1,3:1\n12 - 2:1", "VER|Frame Type|DATA")
	f.Add("inline\n3 1\n3 2\n3 3", "x|y y y y|z")
	f.Fuzz(func(t *testing.T, table, names string) {
		var fields []bytegrid.Field
		for i, n := range strings.SplitN(names, "|", 8) {
			fields = append(fields, bytegrid.Field{Name: n, Bits: 8, Offset: 8 * i})
		}
		d, err := bytegrid.Layout(fields, bytegrid.Options{RowBits: 32, Text: bytegrid.TextOptions{Table: table}})
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := d.WriteText(&b); err != nil {
			return
		}
		// (a line at most 8 boxes of 256 columns, lines at most the names' words and six)
		if max := (8*257 + 2) * (len(strings.Fields(names)) + 16); b.Len() > max {
			t.Fatalf("%d bytes of text, more than %d, from a table of %d bytes", b.Len(), max, len(table))
		}
	})
}
