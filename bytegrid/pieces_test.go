package bytegrid_test

import (
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/bytegrid"
)

// TestPieces: a field's pieces are drawn as given (Field.Pieces), its rules inside dashed and
// those between fields solid (Text.Inside "dashed"); a piece not as wide as its box is
// drawn as usual; an unknown Inside is refused.
func TestPieces(t *testing.T) {
	fields := []bytegrid.Field{
		{Offset: 0, Bits: 8, Name: "Type"},
		{Offset: 8, Bits: 24, Name: "Data", Variable: true, Pieces: []string{"|     Data      |", ":        Data continued         :"}},
	}
	opts := bytegrid.Options{RowBits: 16, Ruler: bytegrid.RulerNone, NoHex: true, Text: bytegrid.TextOptions{Inside: "dashed", BitChars: 2, Ticks: "fields"}}
	draw := func(fs []bytegrid.Field, o bytegrid.Options) (string, error) {
		d, err := bytegrid.Layout(fs, o)
		if err != nil {
			return "", err
		}
		var b strings.Builder
		err = d.WriteText(&b)
		return b.String(), err
	}
	got, err := draw(fields, opts)
	if err != nil {
		t.Fatal(err)
	}
	want := `+---------------+---------------+
|     Type      |     Data      |
+---------------+ - - - - - - - +
:        Data continued         :
+-------------------------------+
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	fields[1].Pieces = []string{"|Data|", "|Data|"}
	if got, err = draw(fields, opts); err != nil || strings.Contains(got, "continued") || strings.Contains(got, "|Data|") {
		t.Errorf("pieces of the wrong width drawn: %v\n%s", err, got)
	}
	opts.Text.Inside = "dotted"
	if _, err := draw(fields, opts); err == nil {
		t.Error("inside \"dotted\" drawn")
	}
}
