package rfcart_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/bytegrid/rfcart"
)

// TestKeepPieces: a field whose later pieces carry labels naming it continued keeps its
// boxes as printed (Field.Pieces), and rules dashed inside its fields and solid between
// them are drawn so (Text.Inside); a field continued with no label of its own is not kept.
func TestKeepPieces(t *testing.T) {
	fig := `
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   |     Type      |  Key, if K    |
   +-+-+-+-+-+-+-+-+---------------+
   |Key (continued)|     Data      |
   +---------------+ - - - - - - - +
   :         Data continued        :
   +-------------------------------+
`
	s, err := rfcart.Parse("f.txt", []byte(fig))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range s.Fields {
		got = append(got, fmt.Sprintf("%s/%d/%d", f.Name, f.Bits, len(f.Pieces)))
	}
	if g := strings.Join(got, " "); g != "Type/8/0 Key/16/2 Data/24/2" || s.Options.Text.Inside != "dashed" {
		t.Errorf("fields %s, inside %q", g, s.Options.Text.Inside)
	}
	if len(s.Warnings) > 0 {
		t.Errorf("warnings %q", s.Warnings)
	}
	if err := rfcart.DrawnBack(s, []byte(fig)); err != nil {
		t.Error(err)
	}
	plain := `
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   |     Type      |               |
   +-+-+-+-+-+-+-+-+               +
   |             Address           |
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
`
	s, err = rfcart.Parse("f.txt", []byte(plain))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range s.Fields {
		if len(f.Pieces) > 0 || s.Options.Text.Inside != "" {
			t.Errorf("%s kept in pieces with no label of their own", f.Name)
		}
	}
}

// TestKeepCrossings: a variable field starting mid-row whose name is printed on the rule it
// crosses (RFC 4034's RRSIG) keeps its boxes and that rule as printed, its '/' edges with
// them, and is drawn back so; a '/' closing the rule under it is kept as a rule mark.
func TestKeepCrossings(t *testing.T) {
	for _, fig := range []string{`
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   |      Tag      |               /
   +-+-+-+-+-+-+-+-+     Name      /
   /                               /
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
`, `
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   |      Tag      |               |
   +-+-+-+-+-+-+-+-+     Name      +
   |                               /
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-/
   |            Other              |
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
`} {
		s, err := rfcart.Parse("f.txt", []byte(fig))
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Fields) < 2 || s.Fields[1].Name != "Name" || !s.Fields[1].Variable || len(s.Fields[1].Crossings) != 1 {
			t.Errorf("fields %+v", s.Fields)
		}
		if len(s.Warnings) > 0 {
			t.Errorf("warnings %q", s.Warnings)
		}
		if err := rfcart.DrawnBack(s, []byte(fig)); err != nil {
			t.Error(err)
		}
	}
}
