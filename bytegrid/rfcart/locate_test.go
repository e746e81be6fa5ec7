package rfcart_test

import (
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/bytegrid/rfcart"
)

const udpArt = `    0      7 8     15 16    23 24    31
    +--------+--------+--------+--------+
    |     Source      |   Destination   |
    |      Port       |      Port       |
    +--------+--------+--------+--------+
`

// TestLocate finds a figure wherever its text starts: after a "source:" line of any case,
// after prose, inside a comment whose prefix every line carries; and finds none in YAML, the
// notation or prose alone.
func TestLocate(t *testing.T) {
	prefixed := func(p string) string {
		var b strings.Builder
		for _, l := range strings.Split(strings.TrimSuffix(udpArt, "\n"), "\n") {
			b.WriteString(strings.TrimRight(p+l, " ") + "\n")
		}
		return b.String()
	}
	for _, tt := range []struct {
		name, src string
		ok        bool
		prefix    string
		source    string
		prose     int
	}{
		{"bare", udpArt, true, "", "", 0},
		{"source", "source: RFC 768\n" + udpArt, true, "", "RFC 768", 0},
		{"SOURCE", "SOURCE: RFC 768\n\n" + udpArt, true, "", "RFC 768", 0},
		{"Source", "Source: RFC 768\n" + udpArt, true, "", "RFC 768", 0},
		{"prose", "The header is:\n\n" + udpArt, true, "", "", 1},
		{"source and prose", "source: x\nFormat of the header:\n\n" + udpArt, true, "", "x", 1},
		{"heading", "source: x\nUDP Header:\n" + udpArt, true, "", "x", 0},
		{"fence", "The header:\n\n```\n" + udpArt + "```\n", true, "", "", 2},
		{"c block", "/*\n" + prefixed(" * ") + " */\n", true, " * ", "", 0},
		{"line comments", prefixed("// "), true, "// ", "", 0},
		{"source outside the comment", "source: RFC 768\n/**\n" + prefixed(" * ") + " */\n", true, " * ", "RFC 768", 0},
		{"javadoc", "source: RFC 768\n/**\n * <pre>\n" + prefixed(" * ") + " * </pre>\n */\n", true, " * ", "RFC 768", 1},
		{"shell comments", prefixed("# "), true, "# ", "", 0},
		{"doc comments", "/// The header:\n///\n" + prefixed("/// "), true, "/// ", "", 1},
		{"lisp comments after a licence", ";;;; Licence.\n\n" + prefixed(";;; "), true, ";;; ", "", 1},
		{"another mark on the prose", "//= https://example.com#1\n//# The frame:\n//#\n" + prefixed("//# "), true, "//# ", "", 2},
		{"byte header", "      +0 (MSB)   +1 (LSB)\n    +--+--+\n 0: |  A  |\n    +--+--+\n", true, "", "", 0},
		{"yaml", "name: UDP\nfields:\n  - {name: a, bits: 8}\n", false, "", "", 0},
		{"notation", "Frame {\n  Type (8),\n}\n", false, "", "", 0},
		{"rule alone", "+-+-+\n", false, "", "", 0},
		{"prose with a plus", "a +-b\nc | d\n", false, "", "", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			loc, ok := rfcart.Locate([]byte(tt.src))
			if ok != tt.ok {
				t.Fatalf("ok = %v, want %v", ok, tt.ok)
			}
			if ok2, p := rfcart.Sniff([]byte(tt.src)); ok2 != ok || p != loc.Prefix {
				t.Errorf("Sniff = %v, %q; Locate %v, %q", ok2, p, ok, loc.Prefix)
			}
			if !ok {
				return
			}
			if loc.Prefix != tt.prefix || loc.Source != tt.source || len(loc.Prose) != tt.prose {
				t.Errorf("prefix %q source %q prose %v, want %q %q %d", loc.Prefix, loc.Source, loc.Prose, tt.prefix, tt.source, tt.prose)
			}
			// Read whole, the same fields wherever the figure stands.
			s, err := rfcart.Parse("f.txt", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Fields) == 0 {
				t.Fatal("no fields")
			}
			if (tt.prefix != "" || tt.prose > 0) && len(s.Warnings) == 0 {
				t.Errorf("no warning saying what was stripped or left out")
			}
			if tt.name == "heading" && (loc.Heading != 1 || s.Name != "UDP Header" || !strings.HasPrefix(s.Options.Text.Above, "UDP Header:")) {
				t.Errorf("heading at %d, name %q, above %q: want the title kept and naming the figure", loc.Heading, s.Name, s.Options.Text.Above)
			}
		})
	}
}

// TestRulerOverTitle: a ruler over the figure's title, a blank line between (RFC 7348's
// Figure 1), is the grid's ruler, and the blank line and the title under it are kept where
// they were printed; the caption under the grid is the spec's Caption, the title its Name.
// Lone numbers over a title (a year) are no ruler, and prose.
func TestRulerOverTitle(t *testing.T) {
	fig := "source: x\n\n" +
		"    0                   1\n" +
		"    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5\n" +
		"\n" +
		"   Tag Header:\n" +
		"   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+\n" +
		"   |R|R|R|I|        Reserved       |\n" +
		"   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+\n" +
		"\n" +
		"            Figure 1: A Tag\n"
	s, err := rfcart.Parse("f.txt", []byte(fig))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Warnings) > 0 || s.Options.Ruler != "tens" && s.Options.Ruler != "" {
		t.Errorf("warnings %q, ruler %q: want the ruler read", s.Warnings, s.Options.Ruler)
	}
	if s.Name != "Tag Header" || s.Caption != "Figure 1: A Tag" || s.Options.Text.UnderRuler != "\n   Tag Header:" {
		t.Errorf("name %q, caption %q, under the ruler %q", s.Name, s.Caption, s.Options.Text.UnderRuler)
	}
	if err := rfcart.DrawnBack(s, []byte(fig)); err != nil {
		t.Error(err)
	}
	year := "2014\n\nTag Header:\n+-+-+-+-+\n|A  |B  |\n+-+-+-+-+\n"
	if loc, ok := rfcart.Locate([]byte(year)); !ok || len(loc.Prose) != 1 {
		t.Errorf("a year over a title read as a ruler: %+v", loc)
	}
}

// TestStackedGrids: grids stacked under titles of their own, blank lines between (RFC 7348's
// Figure 1), read as one spec, each grid's first field under its title (Field.Caption) on a
// row of its own (Field.RowBreak after a half row), and drawn back as printed; stacked grids
// drawn otherwise than the first are refused.
func TestStackedGrids(t *testing.T) {
	fig := "   A:\n   +-+-+-+-+\n   |a  |b  |\n   +-+-+-+-+\n   |c  |\n   +-+-+\n\n   B:\n   +-+-+-+-+\n   |d  |e  |\n   +-+-+-+-+\n\n      Figure 2: Two\n"
	s, err := rfcart.Parse("f.txt", []byte(fig))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range s.Fields {
		got = append(got, f.Name+"/"+f.Caption)
	}
	if g := strings.Join(got, " "); g != "a/ b/ c/ d/B: e/" || !s.Fields[3].RowBreak || s.Caption != "Figure 2: Two" {
		t.Errorf("fields %s, row break %v, caption %q", g, s.Fields[3].RowBreak, s.Caption)
	}
	if len(s.Warnings) > 0 {
		t.Errorf("warnings %q", s.Warnings)
	}
	if err := rfcart.DrawnBack(s, []byte(fig)); err != nil {
		t.Error(err)
	}
	other := "   A:\n   +-+-+-+-+\n   |a  |b  |\n   +-+-+-+-+\n\n   B:\n   +--+--+--+--+\n   |d    |e    |\n   +--+--+--+--+\n"
	if _, err := rfcart.Parse("f.txt", []byte(other)); err == nil || !strings.Contains(err.Error(), `f.txt:6: the header under "B:" is drawn otherwise`) {
		t.Errorf("grids drawn otherwise read as one: %v", err)
	}
}
