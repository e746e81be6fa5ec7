package bytegrid_test

import (
	"fmt"
	"testing"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/internal/mono"
)

// TestCells checks that the bytes covered by fields not on byte boundaries show their hex once,
// in a cell spanning the byte below the labels of those fields.
func TestCells(t *testing.T) {
	for _, tc := range []struct {
		spec  string
		bytes string // index=hex of the cells
	}{
		{"ipv4", "[0=46 6=40 7=00]"},
		{"tcp", "[12=60 13=18]"},
		{"dns", "[2=01 3=00]"},
		{"udp", "[]"},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			s := protocol(t, tc.spec)
			d, err := bytegrid.Layout(s.Fields, s.Options)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range d.Cells {
				got = append(got, fmt.Sprintf("%d=%s", c.Byte, c.Hex.S))
				if c.Hex.Left() < c.X || c.Hex.Left()+c.Hex.W > c.X+c.W {
					t.Errorf("byte %d: hex %+v leaves its cell %+v", c.Byte, c.Hex, c)
				}
				for _, b := range d.Fields {
					for _, r := range b.Runs {
						if r.Row == c.Row && r.Class != "hex" && r.Y+mono.Descent*r.Size > c.Y &&
							r.Left() < c.X+c.W && r.Left()+r.W > c.X {
							t.Errorf("byte %d: label %q of %s reaches into the cell %+v", c.Byte, r.S, b.Name, c)
						}
					}
				}
			}
			if fmt.Sprint(got) != tc.bytes && !(len(got) == 0 && tc.bytes == "[]") {
				t.Errorf("cells %v, want %s", got, tc.bytes)
			}
			// NoHex turns them off.
			s.Options.NoHex = true
			if d, err = bytegrid.Layout(s.Fields, s.Options); err != nil || len(d.Cells) != 0 {
				t.Errorf("NoHex: %d cells, err %v", len(d.Cells), err)
			}
			// The same bytes given with the fields (the whole bytes each touches) instead of
			// Options.Data make the same cells.
			data := s.Options.Data
			s.Options.NoHex, s.Options.Data = false, nil
			fields := make([]bytegrid.Field, len(s.Fields))
			copy(fields, s.Fields)
			for i, f := range fields {
				if (f.Offset%8 != 0 || f.Bits%8 != 0) && f.Offset/8 < len(data) {
					fields[i].Bytes = data[f.Offset/8 : min((f.Offset+f.Bits+7)/8, len(data))]
				}
			}
			d2, err := bytegrid.Layout(fields, s.Options)
			if err != nil {
				t.Fatal(err)
			}
			var got2 []string
			for _, c := range d2.Cells {
				got2 = append(got2, fmt.Sprintf("%d=%s", c.Byte, c.Hex.S))
			}
			if fmt.Sprint(got2) != fmt.Sprint(got) {
				t.Errorf("cells from the fields' bytes %v, want %v", got2, got)
			}
		})
	}
}
