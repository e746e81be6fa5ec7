package rfcart_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/bytegrid/rfcart"
)

// TestLabelRules gives each rule of the reader its own figure: the fields read ("name/bits",
// "var" for a variable field), and whether the reader warns.
func TestLabelRules(t *testing.T) {
	for _, tt := range []struct {
		rule, src, want string
		warns           bool
	}{
		{"one letter a bit", `
   0 1 2 3 4 5 6 7
  +-+-+-+-+-+-+-+-+
  |R P E T r r r r|
  +-+-+-+-+-+-+-+-+
`, "R/1 P/1 E/1 T/1 r/1 r/1 r/1 r/1", false},
		{"a letter over every bit", `
  +-+-+-+-+-+-+-+-+
  |0|0|1|C|S|L|E E|
  +-+-+-+-+-+-+-+-+
`, "0/1 0/1 1/1 C/1 S/1 L/1 E E/2", false},
		{"a constant", `
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
  |1 1 1 1 1 1 1 1|    Payload    |
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
`, "1 1 1 1 1 1 1 1/8 Payload/8", false},
		{"a constant of mixed digits", `
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
  |0 1 1 0|  Len  |  Tag  |S|R R R|
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
`, "0 1 1 0/4 Len/4 Tag/4 S/1 R R R/3", false},
		{"a list", `
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
  |            length             |
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
  |          SDES items           |
  |              ...              |
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
`, "length/16 SDES items/var", false},
		{"a length counted by another field", `
     0   1   2   3   4   5   6   7
   +---+---+---+---+---+---+---+---+
   | H |     Value Length (7+)     |
   +---+---------------------------+
   | Value String (Length octets)  |
   +-------------------------------+
`, "H/1 Value Length (7+)/7 Value String (Length octets)/var", false},
		{"said variable, ending its row", `
      0                   1                   2                   3
      0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
      +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
      | Error code    | Error subcode |   Data (variable)             |
      +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
`, "Error code/8 Error subcode/8 Data (variable)/var", false},
		{"said variable, ending before its row", `
      0                   1                   2                   3
      0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
      +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
      | Data (variable)               |         Checksum              |
      +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
`, "Data (variable)/16 Checksum/16", true},
		{"a qualifier, not a count", `
    0                   1                   2                   3
    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   |                    Sequence Number (low bits)                 |
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
`, "Sequence Number (low bits)/32", false},
		{"alternative widths", `
    0 1 2 3 4 5 6 7
    +-+-+-+-+-+-+-+-+
    |  8 or 16 bit  |
    |Sequence Number|
    +-+-+-+-+-+-+-+-+
`, "8 or 16 bit Sequence Number/var", false},
		{"alternative counts", `
     0                   1                   2                   3
     0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
    +-+-+-+-+-------+---------------+-------------------------------+
    |A|B|C|D| op (4)|     K (8)     |        Length (16/32)         |
    +-+-+-+-+-------+---------------+-------------------------------+
`, "A/1 B/1 C/1 D/1 op (4)/4 K (8)/8 Length (16/32)/var", false},
		{"stated width", `
    0 1 2 3 4 5 6 7
    +-+-+-+-+-+-+-+-+
    |     Type      |
    +-+-+-+-+-+-+-+-+
    | 16 bit Length |
    +-+-+-+-+-+-+-+-+
`, "Type/8 16 bit Length/16", true},
		{"stated width, rows a line each", `
    0                   1                   2                   3
    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   |                         Magic Cookie                          |
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   |                                                               |
   |                     Transaction ID (96 bits)                  |
   |                                                               |
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
`, "Magic Cookie/32 Transaction ID (96 bits)/96", false},
		{"a sum, not a width", `
    0                   1                   2                   3
    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   |                             unused                            |
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   |             IP header + 8 octets of the datagram              |
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
`, "unused/32 IP header + 8 octets of the datagram/var", false},
		{"a tall row of an even count of lines", `
    +--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+
    |                     CLASS                     |
    +--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+
    |                      TTL                      |
    |                                               |
    +--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+
`, "CLASS/16 TTL/32", true},
		{"a tall row of an odd count of lines", `
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   |          Era Number           |
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   |                               |
   |           Fraction            |
   |                               |
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
`, "Era Number/16 Fraction/16", true},
		{"a range is no width", `
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   |     Padding (0-255 bytes)     |
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
`, "Padding (0-255 bytes)/16", false},
		{"a rule closing a field mid-row", `
    0                   1                   2                   3
    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   |  Version                      |         PDU Length            |
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   |                         LDP Identifier                        |
   |                               +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   |                               |
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
`, "Version/16 PDU Length/16 LDP Identifier/48", false},
		{"notes, legend and caption kept", `
      +-----+-----+-----+-----+-----+-----+-----+-----+
      |          DS FIELD, DSCP           | ECN FIELD |  note
      +-----+-----+-----+-----+-----+-----+-----+-----+

        DSCP: differentiated services codepoint

          Figure 1: The DS and ECN Fields in IP.
`, "DS FIELD, DSCP/6 ECN FIELD/2", false},
		{"a figure of dashes", `
          2 bytes     string    1 byte
          ----------------------------
         | Opcode |  Filename  |   0  |
          ----------------------------
`, "Opcode/16 Filename/var 0/8", true},
	} {
		t.Run(tt.rule, func(t *testing.T) {
			s, err := rfcart.Parse("f.txt", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range s.Fields {
				w := fmt.Sprint(f.Bits)
				if f.Variable {
					w = "var"
				}
				got = append(got, strings.Join(strings.Fields(f.Name), " ")+"/"+w)
			}
			if g := strings.Join(got, " "); g != tt.want {
				t.Errorf("fields %s, want %s", g, tt.want)
			}
			if (len(s.Warnings) > 0) != tt.warns {
				t.Errorf("warnings %q, want some: %v", s.Warnings, tt.warns)
			}
		})
	}
}

// TestNeverSilentlyWrong: a figure that the reader cannot draw back as printed is refused
// or read with a warning naming the line that differs.
func TestNeverSilentlyWrong(t *testing.T) {
	for _, src := range []string{
		"+-+-+-+-+\n|  a    |\n+-+-+ +-+\n",                         // a rule with a gap
		"  +-+-+-+-+\n  |a  |b |\n  +-+-+-+-+\n",                    // an edge off the bits
		"+-+-+-+-+\n|  a    |\n+-+-+-+-+\n+-+-+-+-+\n",              // two rules
		"+-+-+-+-+-+-+-+-+\n| 16 bit Length |\n+-+-+-+-+-+-+-+-+\n", // a width the box does not have
	} {
		s, err := rfcart.Parse("f.txt", []byte(src))
		if err != nil {
			continue
		}
		if len(s.Warnings) == 0 {
			t.Errorf("%q: read with no warning: %+v", src, s.Fields)
		}
	}
}

// TestBoxUnit: under no ruler, "+-+" is a bit; wider boxes are read as bits when a row of them
// is whole bytes (RFC 1035's "+--+--+", 16 to a row), and as bytes, warned, when it is not
// (RFC 1952's "+---+" bytes, 10 to a row): the figure does not say what a box holds. Either
// way the figure is drawn back as printed (no other warning).
func TestBoxUnit(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		warns     bool
		first     int
	}{
		{"bytes", `
         +---+---+---+---+---+---+---+---+---+---+
         |ID1|ID2|CM |FLG|     MTIME     |XFL|OS |
         +---+---+---+---+---+---+---+---+---+---+
`, true, 8},
		{"rows of 16", `
    +--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+
    |                      ID                       |
    +--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+--+
`, false, 16},
		{"boxes wider than a byte of nine", `
    +-------------+-------------+-------------+-------------+
    |            IPv4 Error Node Address (4 bytes)          |
    +-------------+-------------+-------------+-------------+
    |    Flags    |  Error Code |        Error Value        |
    +-------------+-------------+-------------+-------------+
`, true, 32},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, err := rfcart.Parse("f.txt", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			got, other := false, false
			for _, w := range s.Warnings {
				got = got || strings.Contains(w, "what a box holds")
				other = other || !strings.Contains(w, "what a box holds")
			}
			if got != tt.warns || other {
				t.Errorf("warned %v, want %v: %q", got, tt.warns, s.Warnings)
			}
			if s.Fields[0].Bits != tt.first {
				t.Errorf("first field %d bits, want %d", s.Fields[0].Bits, tt.first)
			}
		})
	}
}

// TestStackedLabels: a label of several lines keeps each line's column where the figure
// printed one off the centre (Field.LabelCols), in one box or over rows continued across a
// rule, its lines on the crossing line too; drawn back as printed, so with no warning.
func TestStackedLabels(t *testing.T) {
	for _, tt := range []struct {
		name, src, want string
	}{
		{"flush left in one box", `
    +-+-+-+-+-+-+-+-+
    | Connection ID |
    | (if any,      |
    |  length as    |
    +-+-+-+-+-+-+-+-+
`, "[2 2 3]"},
		{"over a crossing line", `
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   |                    As much of invoking packet                 |
   +               as possible without the ICMPv6 packet           +
   |               exceeding the minimum IPv6 MTU [IPv6]           |
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
`, "[21 16 16]"},
		{"centred", `
    +-+-+-+-+-+-+-+-+
    |  8 or 16 bit  |
    |Sequence Number|
    +-+-+-+-+-+-+-+-+
`, "[]"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, err := rfcart.Parse("f.txt", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Fields) != 1 {
				t.Fatalf("%d fields, want 1: %+v", len(s.Fields), s.Fields)
			}
			if got := fmt.Sprint(s.Fields[0].LabelCols); got != tt.want {
				t.Errorf("label columns %s, want %s", got, tt.want)
			}
			if len(s.Warnings) > 0 {
				t.Errorf("warnings %q", s.Warnings)
			}
		})
	}
}

// TestRuleMarks: a mark printed on a rule where no field begins or ends (RFC 7540's '+' one
// bit in, copied from the rule above) is kept as printed (Text.RuleMarks), so the figure is
// drawn back with it and read with no warning.
func TestRuleMarks(t *testing.T) {
	src := `
    +-+-------------+-------------------------------+
    |E|             Stream Dependency               |
    +-+-------------+-------------------------------+
    |    Weight     |
    +-+-------------+-------------------------------+
    |                   Fragment                    |
    +-----------------------------------------------+
`
	s, err := rfcart.Parse("f.txt", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if s.Options.Text.RuleMarks == "" || len(s.Warnings) > 0 {
		t.Errorf("rule marks %q, warnings %q: want marks and no warning", s.Options.Text.RuleMarks, s.Warnings)
	}
}

// TestLeadIn: a grid whose first row starts right of its edge, at a bit boundary, the rule
// under it running from the edge, starts its first field there (RFC 2018's SACK option after
// two NOPs) and is drawn back so; one starting off a bit boundary is refused.
func TestLeadIn(t *testing.T) {
	s, err := rfcart.Parse("f.txt", []byte(`
                +-+-+-+-+-+-+-+-+
                |      Seq      |
+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
|A|  Reserved   |   Lifetime    |
+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
`))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range s.Fields {
		got = append(got, fmt.Sprintf("%s@%d/%d", f.Name, f.Offset, f.Bits))
	}
	if g := strings.Join(got, " "); g != "Seq@8/8 A@16/1 Reserved@17/7 Lifetime@24/8" || len(s.Warnings) > 0 {
		t.Errorf("fields %s, warnings %q", g, s.Warnings)
	}
	_, err = rfcart.Parse("f.txt", []byte("   +-+-+-+-+-+\n   |   Seq    |\n+-+-+-+-+-+-+-+\n| a |    b    |\n+-+-+-+-+-+-+-+\n"))
	if err == nil {
		t.Errorf("a first row off a bit boundary: %v", err)
	}
}

// TestRunTail: rules running on past their last '+' with dashes, beside text past the grid's
// edge, make that text a variable field, drawn back with the dashes as printed.
func TestRunTail(t *testing.T) {
	for _, tail := range []string{"- - - - - - - -", "-----------"} {
		src := "+-+-+-+-+-+-+-+-+" + tail + "\n|   A   |   B   |  C data\n+-+-+-+-+-+-+-+-+" + tail + "\n"
		s, err := rfcart.Parse("f.txt", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range s.Fields {
			w := fmt.Sprint(f.Bits)
			if f.Variable {
				w = "var"
			}
			got = append(got, f.Name+"/"+w)
		}
		if g := strings.Join(got, " "); g != "A/4 B/4 C data/var" || len(s.Warnings) > 0 || s.Options.Text.RunTail != tail {
			t.Errorf("%q: fields %s, tail %q, warnings %q", tail, g, s.Options.Text.RunTail, s.Warnings)
		}
	}
}

// TestStartRules: a ruler drawn in a box of its own over the grid is read as the ruler (kept
// as printed above the grid), not as one-bit fields named by digits; a row of digits that do
// not number the bits stays a row of fields.
func TestStartRules(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"  +-------------------+\n  |0|1|2|3|4|5|6|7|8|9|\n  +-+-+-+-+-+-+-+-+-+-+\n  |  Kind   |   Len   |\n  +-+-+-+-+-+-+-+-+-+-+\n", "Kind/5 Len/5"},
		{"+-------------------------------+\n|0|1|2|3|4|5|6|7|0|1|2|3|4|5|6|7|\n+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+\n|V|Code |     Identifier        |\n+-------------------------------+\n", "V/1 Code/3 Identifier/12"},
		{"+-+-+-+-+-+-+-+-+\n|1|1|0|1|0|0|1|1|\n+-+-+-+-+-+-+-+-+\n|  A    |   B   |\n+-+-+-+-+-+-+-+-+\n", "1/1 1/1 0/1 1/1 0/1 0/1 1/1 1/1 A/4 B/4"},
		{"0             1\n+-------------+-------------+\n| Vers |Flags |  Msg Type   |\n+-------------+-------------+\n", "Vers/4 Flags/4 Msg Type/8"},
		{"0       2   3   4 (BYTE)\n+-------+---+---+\n| conv  |cmd|frg|\n+-------+---+---+\n", "conv/16 cmd/8 frg/8"},
		{"  0 1 2 3 4 5 6 7 8            15\n +-+-+-+-+-+-+-+-+---------------+\n |A|B|C|D|E|F|G|H|       I       |\n +-+-+-+-+-+-+-+-+---------------+\n", "A/1 B/1 C/1 D/1 E/1 F/1 G/1 H/1 I/8"},
	} {
		s, err := rfcart.Parse("f.txt", []byte(c.src))
		if err != nil {
			t.Fatalf("%q: %v", c.src, err)
		}
		var got []string
		for _, f := range s.Fields {
			got = append(got, fmt.Sprintf("%s/%d", f.Name, f.Bits))
		}
		if g := strings.Join(got, " "); g != c.want || len(s.Warnings) > 0 {
			t.Errorf("%q: fields %s, warnings %q; want %s", c.src, g, s.Warnings, c.want)
		}
	}
}

// TestBangEdges: RFC 2408's '!' edges are read as '|', a warning on each line that has them
// (the figure is drawn back with '|'); a '!' inside a name stays.
func TestBangEdges(t *testing.T) {
	src := "+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+\n!  Next Payload ! Hi!   ! MnVer !\n+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+\n!            Length             !\n+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+\n"
	s, err := rfcart.Parse("f.txt", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range s.Fields {
		got = append(got, fmt.Sprintf("%s/%d", f.Name, f.Bits))
	}
	if g := strings.Join(got, " "); g != "Next Payload/8 Hi!/4 MnVer/4 Length/16" {
		t.Errorf("fields %s", g)
	}
	if len(s.Warnings) != 3 || !strings.Contains(s.Warnings[0], "f.txt:2:1: '!' edges read as '|'") || !strings.Contains(s.Warnings[2], "drawn back otherwise") {
		t.Errorf("warnings %q: want one for each line with '!' edges, and the drawing's", s.Warnings)
	}
	if ok, _ := rfcart.Sniff([]byte(src)); !ok {
		t.Error("not found as a figure")
	}
}

// TestPlusEdges: a '+' alone inside a row (the RUDP draft's "Sequence #   +   Ack Number"),
// over a rule marking fields there, is an edge, warned; a '+' in a name ("C++") is text, and
// one over a rule marked at every bit is a sum's (TestLabelRules, "IP header + 8 octets").
func TestPlusEdges(t *testing.T) {
	src := "+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+\n|  Sequence #   +   Ack Number  |\n+---------------+---------------+\n|      C++      |    Length     |\n+---------------+---------------+\n"
	s, err := rfcart.Parse("f.txt", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range s.Fields {
		got = append(got, fmt.Sprintf("%s/%d", f.Name, f.Bits))
	}
	if g := strings.Join(got, " "); g != "Sequence #/8 Ack Number/8 C++/8 Length/8" {
		t.Errorf("fields %s", g)
	}
	if len(s.Warnings) == 0 || !strings.Contains(s.Warnings[0], "f.txt:2:17: '+' inside the row read as an edge") {
		t.Errorf("warnings %q: want one at the '+'", s.Warnings)
	}
}

// TestLeftOutRows: crossing lines one under another, no row between (RFC 5798's addresses),
// make the field holding them variable, warned; one crossing line is a field's own.
func TestLeftOutRows(t *testing.T) {
	src := "+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+\n|     Count     |   Checksum    |\n+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+\n|                               |\n+                               +\n|          Addresses            |\n+                               +\n+                               +\n|                               |\n+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+\n"
	s, err := rfcart.Parse("f.txt", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s.Fields); n != 3 || !s.Fields[2].Variable || s.Fields[0].Variable {
		t.Errorf("fields %+v: want Count, Checksum, and Addresses variable", s.Fields)
	}
	if len(s.Warnings) == 0 || !strings.Contains(s.Warnings[0], "f.txt:8:1: crossing lines one under another") {
		t.Errorf("warnings %q: want one at the second crossing line", s.Warnings)
	}
}

// TestEdgelessDots: a line of dots with no edges between rows of the grid (RFC 8754's SRH) is
// read inside '|' edges, warned, and its box of dots alone is a variable field.
func TestEdgelessDots(t *testing.T) {
	src := "+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+\n|            List[0]            |\n+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+\n|                               |\n              ...\n|                               |\n+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+\n|            List[n]            |\n+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+\n"
	s, err := rfcart.Parse("f.txt", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s.Fields); n != 3 || s.Fields[1].Name != "..." || !s.Fields[1].Variable {
		t.Errorf("fields %+v: want List[0], ... (variable), List[n]", s.Fields)
	}
	if len(s.Warnings) == 0 || !strings.Contains(s.Warnings[0], "f.txt:5:1: a line of dots with no edges") {
		t.Errorf("warnings %q: want one at the dots", s.Warnings)
	}
}

// TestNumbersRuler: a ruler of whole bit numbers, two digits from 10 on, is drawn back with
// its numbers whole, not as units.
func TestNumbersRuler(t *testing.T) {
	src := "  0   1   2   3   4   5   6   7   8   9  10  11\n" +
		"+---+---+---+---+---+---+---+---+---+---+---+---+\n" +
		"|     Kind      |  Len  |   Code    | A | B | C |\n" +
		"+---+---+---+---+---+---+---+---+---+---+---+---+\n"
	s, err := rfcart.Parse("f.txt", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if s.Options.Ruler != bytegrid.RulerNumbers || len(s.Warnings) > 0 {
		t.Fatalf("ruler %q, warnings %q", s.Options.Ruler, s.Warnings)
	}
	d, err := bytegrid.Layout(s.Fields, s.Options)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := d.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if got := strings.SplitN(b.String(), "\n", 2)[0]; got != strings.SplitN(src, "\n", 2)[0] {
		t.Errorf("ruler drawn %q", got)
	}
}

// TestRowPrintedShort: under a ruler, a row whose edges each stand a column left of their
// bit boundaries (RFC 2516's) is read on the boundaries, with a warning for the edge that
// stands between two boundaries neither of which is a byte's; alone, such an edge is refused.
func TestRowPrintedShort(t *testing.T) {
	ruler := " 0                   1\n 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5\n+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+\n"
	s, err := rfcart.Parse("f.txt", []byte(ruler+"|  A |    B    |       C       |\n+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+\n"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range s.Fields {
		got = append(got, fmt.Sprintf("%s/%d", f.Name, f.Bits))
	}
	if g := strings.Join(got, " "); g != "A/3 B/5 C/8" || len(s.Warnings) == 0 || !strings.Contains(s.Warnings[0], "f.txt:4:6: an edge '|' a column off") {
		t.Errorf("fields %s, warnings %q", g, s.Warnings)
	}
	_, err = rfcart.Parse("f.txt", []byte(ruler+"|  A |           B              |\n+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+\n"))
	if err == nil || !strings.Contains(err.Error(), "f.txt:4:6: an edge '|' between bit boundaries") {
		t.Errorf("an edge between two boundaries, the row's others on theirs: %v", err)
	}
}

// TestEdgeMarkOnRule: a name written on a rule whose line ends with a variable field's edge
// mark ('/') at the grid's right edge does not take the mark into the name (RFC 4034's).
func TestEdgeMarkOnRule(t *testing.T) {
	s, err := rfcart.Parse("f.txt", []byte("+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+\n|      Tag      |               /\n+-+-+-+-+-+-+-+-+     Name      /\n/                               /\n+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+\n"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range s.Fields {
		got = append(got, f.Name)
	}
	if g := strings.Join(got, ","); g != "Tag,Name" {
		t.Errorf("fields %q", g)
	}
}

// TestDoubleSlashEdges: "//" side edges (both sides, or the right one alone) are read as one
// '/' each, with a warning, and never taken into the field's name.
func TestDoubleSlashEdges(t *testing.T) {
	for _, row := range []string{"//             B               //", "|              B               //"} {
		s, err := rfcart.Parse("f.txt", []byte("+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+\n|       A       |       C       |\n+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+\n"+row+"\n+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+\n"))
		if err != nil {
			t.Fatalf("%q: %v", row, err)
		}
		var got []string
		for _, f := range s.Fields {
			got = append(got, f.Name)
		}
		if g := strings.Join(got, ","); g != "A,C,B" || len(s.Warnings) == 0 || !strings.Contains(s.Warnings[0], `f.txt:4:1: side edges "//"`) {
			t.Errorf("%q: fields %q, warnings %q", row, g, s.Warnings)
		}
	}
}
