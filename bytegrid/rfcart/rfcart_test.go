package rfcart_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/bytegrid/gridyaml"
	"github.com/kafkagrid/kafkagrid/bytegrid/rfcart"
	"github.com/kafkagrid/kafkagrid/internal/testenv"
)

// figures returns the published figures: ../shared/rfc-figures (or $KAFKAGRID_RFC_FIGURES)
// and the copies in examples/protocols/figures.
func figures(t testing.TB) []string {
	t.Helper()
	root, err := testenv.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	shared := os.Getenv("KAFKAGRID_RFC_FIGURES")
	if shared == "" {
		shared = filepath.Join(root, "..", "shared", "rfc-figures")
	}
	a, _ := filepath.Glob(filepath.Join(shared, "*.txt"))
	b, _ := filepath.Glob(filepath.Join(root, "examples", "protocols", "figures", "*.rfc.txt"))
	c, _ := filepath.Glob(filepath.Join(root, "examples", "protocols", "figures", "*.published.txt"))
	all := append(append(a, b...), c...)
	if len(all) == 0 {
		t.Fatal("no figures")
	}
	return all
}

// TestRoundTrip reads every published figure as art and draws it as text again: the drawing
// must be the figure, line for line, but for the spaces around each label, which must start
// within a column of where the figure has it. The figures named NAME.published.txt are read
// and drawn but not held to be drawn back line for line: WebSocket's (RFC 6455; read and drawn
// back since its pieces are kept, but its YAML spec draws it otherwise, see TestRFCFigures);
// DHCP's (RFC 2131), whose chaddr, sname and file are drawn a row or two high whatever their
// size; the DNS resource record (RFC 1035), whose TTL is one 16-bit row of two lines and one of
// whose rules ends in '|'; NTP's packet header (RFC 5905), whose Stratum and Poll edges stand a
// column right of their bit boundaries, read on them and drawn there; VRRP's (RFC 5798), whose
// addresses are drawn with crossing lines one under another for the rows left out, read as
// one variable field; RFC 8754's SRH, whose segments left out are a line of dots with no
// edges, read as a variable field inside '|' edges.
func TestRoundTrip(t *testing.T) {
	for _, file := range figures(t) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			s, err := rfcart.Parse(filepath.Base(file), src)
			if err != nil {
				t.Fatal(err)
			}
			err = rfcart.DrawnBack(s, src)
			if strings.HasSuffix(file, ".published.txt") {
				if _, ok := errors.AsType[*rfcart.Mismatch](err); err != nil && !ok {
					t.Fatal(err) // (read, but not drawn at all)
				}
				return
			}
			if err != nil {
				t.Error(err)
			}
		})
	}
}

// TestThroughYAML: each figure read, written as YAML and read again draws the same text, so
// that what rfcart reads of a figure's drawing (the ruler's column, an elision mark, …) is
// carried through the spec an author edits.
func TestThroughYAML(t *testing.T) {
	draw := func(s *gridyaml.Spec) string {
		d, err := bytegrid.Layout(s.Fields, s.Options)
		if err != nil {
			t.Fatal(err)
		}
		var txt bytes.Buffer
		if err := d.WriteText(&txt); err != nil {
			t.Fatal(err)
		}
		return txt.String()
	}
	for _, file := range figures(t) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			s, err := rfcart.Parse(filepath.Base(file), src)
			if err != nil {
				t.Fatal(err)
			}
			var y bytes.Buffer
			if err := gridyaml.Write(&y, s); err != nil {
				t.Fatal(err)
			}
			again, err := gridyaml.Parse("written", y.Bytes())
			if err != nil {
				t.Fatalf("%v\n%s", err, y.String())
			}
			if a, b := draw(s), draw(again); a != b {
				t.Errorf("drawn from YAML:\n%s\nwant\n%s\n%s", b, a, y.String())
			}
		})
	}
}

func TestErrors(t *testing.T) {
	for _, tt := range []struct {
		name, src, want string
	}{
		{"no rule", "hello\nworld\n", "f.txt: no rule"},
		{"rule only", "+-+-+\n", `f.txt: no rule ("+-+-+") with a row of boxes`},
		{"two rules", "+-+-+\n+-+-+\n|a|b|\n", "f.txt:2:1: two rules with no row between them"},
		{"stacked grids in a comment", "# A:\n# +-+-+\n# |a|b|\n# +-+-+\n#\n# B:\n# +-+-+\n# |c|d|\n# +-+-+\n", `f.txt:6:3: a second grid under the title "B:", after the grid ending at line 4`},
		{"edge off a bit", "+-+-+-+\n|ab |c|\n+-+-+-+\n", ""},
		{"edge between bits", "+--+--+\n|a |b| |\n+--+--+\n", "f.txt:2:6: an edge '|' between bit boundaries"},
		{"odd rule", "+-+-+-\n|a|b|\n", ""},
		{"byte rule", "+--------+-------+\n|a       |b      |\n", "f.txt:1:18: a rule 17 columns long with bits 8 columns wide"},
		{"text left", "  +-+-+\n x|a|b|\n  +-+-+\n", "f.txt:2:2: text left of the grid's edge"},
		{"empty first box", "+-+-+\n| |b|\n+-+-+\n", "f.txt:2:2: a box with no name"},
		{"too wide", "+" + strings.Repeat("-+", 129) + "\n|a" + strings.Repeat(" ", 256) + "|\n", "f.txt:1:259: rows of 129 bits"},
		{"long line", "+-+\n|" + strings.Repeat("a", MaxColumnsForTest) + "|\n", "f.txt:2:1025: line longer than 1024 columns"},
		{"not utf-8", "+-+\n|\xff|\n", "f.txt: not UTF-8"},
		{"source only", "source: RFC 0\n", "f.txt: no rule"},
		{"two elisions", "+--------+---//---+---//---+\n|a       |b       |c       |\n+--------+---//---+---//---+\n", "f.txt:1:23: a second elision mark"},
		{"elisions apart", "+--------+---//---+\n|a       |b       |\n+--------+--//----+\n", "f.txt:3:13: a second elision mark"},
		{"edge in an elision", "+--------+---//-----+\n|a       |b  |      |\n+--------+---//-----+\n", "f.txt:2:14: an edge '|' between"},
		{"ruler digits far", "0         1\n+-+-+\n|a|b|\n+-+-+\n", "f.txt:1:11: ruler digits 10 columns apart"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := rfcart.Parse("f.txt", []byte(tt.src))
			if tt.want == "" {
				if err != nil {
					t.Logf("(an error, which is fine: %v)", err)
				}
				return
			}
			if err == nil || !strings.HasPrefix(err.Error(), "rfcart: ") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

const MaxColumnsForTest = rfcart.MaxColumns

func must(s string, err error) string {
	if err != nil {
		panic(err)
	}
	return s
}

// FuzzParse: any input is read or refused with a positioned error, never a panic; what is
// read lays out and draws, in work bounded by the input.
func FuzzParse(f *testing.F) {
	for _, file := range figures(f) {
		if src, err := os.ReadFile(file); err == nil {
			f.Add(src)
		}
	}
	unseen, _ := filepath.Glob(filepath.Join("testdata", "unseen", "*.txt"))
	fresh, _ := filepath.Glob(filepath.Join("testdata", "fresh", "*.txt"))       // boxed rulers, "//" edges
	first, _ := filepath.Glob(filepath.Join("testdata", "firstround", "*.txt"))  // pieces, a ruler over a title
	rrsig, _ := filepath.Glob(filepath.Join("testdata", "heldout", "*sig*.txt")) // crossings
	unseen = append(append(append(unseen, fresh...), first...), rrsig...)
	for _, file := range unseen {
		if src, err := os.ReadFile(file); err == nil {
			f.Add(src)
		}
	}
	f.Add([]byte("+-+-+\n|a|b|\n+-+-+\n"))
	f.Add([]byte("source: x\n/**\n * <pre>\n * Title:\n * +-+-+-+-+\n * |a|(a bytes)|\n * +-+-+-+-+\n */\n")) // a source line outside a comment, a title, a counted length
	f.Add([]byte("SOURCE: x\nprose\n +0 (MSB)\n+--+--+\n|R P E|\n+--+--+  note\nFigure 1: x\n"))              // found after prose, flags
	f.Add([]byte("/*\n * +-+-+-+-+\n * |  a    |\n * |   +-+-+\n * |   |\n * +-+-+\n */\n"))                  // a comment, a rule closing mid-row
	f.Add([]byte("  2 bytes  string\n  -----------------\n | Op |  Name   |\n  -----------------\n"))         // dashes
	f.Add([]byte("+-+-+-+-+\n| 64 bit x |\n|   ...   |\n+=+=+=+=+\n"))                                        // a width, a list, a double end
	f.Add([]byte("+--------+\n|a       |\n+---- ...\n"))
	f.Add([]byte("+-+-+-+-+\n|a| |b  |\n+-+-+-+-+\n|       |\n~   c   ~\n|       |\n+-+-+-+-+\n"))
	f.Add([]byte("+--+--+\n/  a  /\n.  b  .\n+--+--+  note\n"))
	f.Add([]byte(" 0 1 2 3\n+-+-+-+-+\n|a |b|c|\n+-+-+-+-+\n"))    // an edge a column off
	f.Add([]byte(" 0 1\n+-+-+-+-+-...\n|a|b| c\n+-+-+-+-+-...\n")) // rules running on
	f.Add([]byte("+-+-+-+-+\n|a| d ...\n+-+-+-\n"))
	f.Add([]byte("+---+---+---+\n|a  | b     |\n+---+---+---+\n"))                                                                                                                                   // boxes a byte, 3 to a row                                                                                                                                                  // an open end, its rule cut
	f.Add([]byte("+-+-+-+-+- - - -\n| a | b | c\n+-+-+-+-+- - - -\n"))                                                                                                                               // rules running on with dashes
	f.Add([]byte("    +-+-+-+-+\n    |  s    |\n+-+-+-+-+-+-+\n| a |   b   |\n+-+-+-+-+-+-+\n"))                                                                                                     // a first row starting mid-row
	f.Add([]byte("+-+-+-+-+\n| a | b |\n+-+-+-+-+\n|   c   |\n+-+-+-+-+\n|   d   |\n|       |\n+-+-+-+-+\n"))                                                                                        // a stray '+', a tall row
	f.Add([]byte("+-+-+-+-+\n\\       \\\n/   v   /\n+   x-y |\n|       |\n+-+-+-+-+\n"))                                                                                                            // '\\' edges, a hyphen on a rule
	f.Add([]byte("+--------+---//---+\n|10000011|  data  |\n+--------+---//---+\n"))                                                                                                                 // an elision
	f.Add([]byte("+--------+---//-----+\n|1       |  data    |\n+--------+---//-----+\n"))                                                                                                           // an elision standing for no bits
	f.Add([]byte(" 0 1 2 3\n+-+-+-/ /+-+\n|a|b|  c |d|\n+-+-+-/ /+-+\n"))                                                                                                                            // "/ /" in a bit grid
	f.Add([]byte("0 1 2 3\n+-+-+-+-~~+\n| a | b   |\n+-+-+-+-~~+\n"))                                                                                                                                // "~~", digits over the '+'
	f.Add([]byte("  0   1\n  0 1 2 3\n+-+-+-+-+\n|a|b|c|d|\n+-+-+-+-+\n"))                                                                                                                           // digits right of their bits
	f.Add([]byte("+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+\n|   a   |   b   |       c       |\n+-------+-------+---------------+\n|               d               |\n+-------+-------+-------+-------+\n")) // each rule its own marks
	f.Add([]byte("+-+-+-+-+\n| a ... |\n+-+-+-+-+\n|   .   |\n|   .   |\n+-+-+-+-+\n"))                                                                                                              // a box of dots
	f.Add([]byte("+-+-+-+-+\n| a | b |\n+-+-+-+-+\n//  c  //\n+-+-+-+-+\n"))                                                                                                                         // a rule past a line the grid stops at
	f.Add([]byte("    +-+-+-+-+\n  / | a | b |\n O  +-+-+-+-+\n  \\ |   c   |\n    +-+-+-+-+\n"))                                                                                                    // notes in the left margin
	f.Add([]byte("+-+-+-+-+-+-+\n| a |  b (o)\n+-+-+-+-+-+-+\n"))                                                                                                                                    // a box open at its end, no "..."
	f.Add([]byte(" 0 1 2\n 0 1 2 3 4\n+-+-+-+-+-+-\n| a |  v ...\n+-+-+-+-+-+-\n"))                                                                                                                  // "..." past the box, its rule to the ruler's end
	f.Add([]byte("                  1\n0 1 2 3 4 5 6 7 8 9 0 1\n+-+-+-+-+-+-+-+-+-+-+-+-+\n| a |   b   |     c     |\n+-+-+-+-+-+-+-+-+-+-+-+-+\n"))                                                 // a tens line with no 0
	f.Add([]byte("+----+----------+\n|VER | METHODS  |\n+----+----------+\n| 1  | 1 to 255 |\n+----+----------+\n"))                                                                                 // a table of counts
	f.Add([]byte("+----+------+\n| A  |  B   |\n| 8/16 bits| *|\n+----+------+\n    1      X'0D0A'\n"))                                                                                              // counts on the names' line, and under the rule
	f.Add([]byte("+------------------+\n| A (2 octets)     |  note\n+------------------+\n|  B   (variable)  |\n+------------------+\n"))                                                            // a stack, a note right of it
	f.Add([]byte("0             1\n+-------------+-------------+\n| Vers |Flags |  Msg Type   |\n+-------------+-------------+\n"))                                                                  // a ruler of bytes
	f.Add([]byte("0   2   4 (BYTE)\n+-------+-------+\n|  a    |   b   |\n+-------+-------+\n"))                                                                                                     // byte offsets
	f.Add([]byte("+-+-+-+-+\n!  a ! b!\n+-+-+-+-+\n"))                                                                                                                                               // '!' edges
	f.Add([]byte("  0 1 2            9\n +-+-+-+-+-+-+-+-+-+-+\n |  a    +    b      |\n +---------+---------+\n"))                                                                                  // a ruler with bits left out, a '+' edge
	if ms, _ := filepath.Glob(filepath.Join(must(testenv.ModuleRoot()), "examples", "protocols", "figures", "*.unread.txt")); len(ms) > 0 {
		for _, m := range ms {
			if src, err := os.ReadFile(m); err == nil {
				f.Add(src) // figures not yet drawn back as printed: read or refused, never a panic
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		s, err := rfcart.Parse("f.txt", src)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "rfcart: f.txt") {
				t.Fatalf("error without position prefix: %v", err)
			}
			return
		}
		if len(s.Fields) > len(src) {
			t.Fatalf("%d fields from %d bytes", len(s.Fields), len(src))
		}
		d, err := bytegrid.Layout(s.Fields, s.Options)
		if err != nil {
			return // (a layout limit: reported, not drawn)
		}
		var txt bytes.Buffer
		if err := d.WriteText(&txt); err != nil {
			t.Fatal(err)
		}
		if txt.Len() > 64*len(src)+4096 {
			t.Fatalf("%d bytes of text from %d bytes of figure", txt.Len(), len(src))
		}
	})
}
