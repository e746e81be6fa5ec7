package style

import (
	"fmt"
	"math"
	"testing"
)

func TestKindNames(t *testing.T) {
	for _, k := range Kinds() {
		got, err := ParseKind(k.String())
		if err != nil || got != k {
			t.Errorf("ParseKind(%q) = %v, %v; want %v", k.String(), got, err, k)
		}
	}
	if k, err := ParseKind(""); err != nil || k != Plain {
		t.Errorf(`ParseKind("") = %v, %v`, k, err)
	}
	if _, err := ParseKind("frame"); err == nil {
		t.Error(`ParseKind("frame") gave no error`)
	}
	if s := Kind(99).String(); s != "kind(99)" {
		t.Errorf("Kind(99) = %q", s)
	}
}

func TestEveryRoleHasBothColours(t *testing.T) {
	seen := map[Role]bool{}
	for _, r := range Roles() {
		if seen[r] {
			t.Errorf("role %q listed twice", r)
		}
		seen[r] = true
		if !Known(r) {
			t.Errorf("role %q has no colours", r)
		}
	}
	if Known("nope") || Light("nope") != Light(Ink) || Dark("nope") != Dark(Ink) {
		t.Error("an unknown role is not Ink")
	}
	for i, g := range groupRoles {
		if want := Role(fmt.Sprintf("g%d", i)); g != want || !Known(g) {
			t.Errorf("group role %d = %q, want a known %q", i, g, want)
		}
	}
	if len(seen) != len(palette) {
		t.Errorf("Roles lists %d roles, palette has %d", len(seen), len(palette))
	}
	if Group(NumGroups+1) != Group(1) || Group(-3) != Group(3) {
		t.Error("Group does not wrap around the palette")
	}
}

// luma is the greyscale value a printer makes of c (Rec. 601 weights).
func luma(c RGB) float64 { return 0.299*float64(c.R) + 0.587*float64(c.G) + 0.114*float64(c.B) }

// TestGroupsReadOnPaper checks that text is legible on every fill, in light and dark, by
// contrast of luma, and that each light group fill stays lighter than the text by far.
func TestGroupsReadOnPaper(t *testing.T) {
	for i := 0; i < NumGroups; i++ {
		g := Group(i)
		if d := math.Abs(luma(Light(g)) - luma(Light(Ink))); d < 150 {
			t.Errorf("%s light: ink contrast %.0f < 150", g, d)
		}
		if d := math.Abs(luma(Dark(g)) - luma(Dark(Ink))); d < 120 {
			t.Errorf("%s dark: ink contrast %.0f < 120", g, d)
		}
	}
}

func TestKindFill(t *testing.T) {
	if KindFill(Length, 3) != FrameFill || KindFill(Tag, 3) != TagFill || KindFill(Plain, 3) != Group(3) {
		t.Error("KindFill maps kinds to the wrong roles")
	}
	for _, k := range []Kind{Size, Length, Tags, Tag, Padding} {
		if !k.Framing() {
			t.Errorf("%v is not framing", k)
		}
	}
	if Plain.Framing() || Varint.Framing() {
		t.Error("data kinds reported as framing")
	}
}

// relLum is the WCAG 2 relative luminance of c.
func relLum(c RGB) float64 {
	lin := func(v uint8) float64 {
		x := float64(v) / 255
		if x <= 0.04045 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.R) + 0.7152*lin(c.G) + 0.0722*lin(c.B)
}

// contrast is the WCAG 2 contrast ratio of a and b (1 to 21).
func contrast(a, b RGB) float64 {
	la, lb := relLum(a), relLum(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// grey is what a monochrome printer or a greyscale screen makes of c (Rec. 601 luma).
func grey(c RGB) RGB {
	y := uint8(math.Round(luma(c)))
	return RGB{y, y, y}
}

// TestContrast checks the palette in light, dark and greyscale (each scheme through Rec. 601
// luma): small text (ink, and the muted hex bytes, offsets and framing labels) at 4.5:1 or
// more on every fill (WCAG 2 AA); neighbouring group colours (consecutive indexes, as nested
// groups get) apart by 1.25 or more; framing fills apart from every group by 1.15 or more.
func TestContrast(t *testing.T) {
	fills := []Role{FrameFill, TagFill, PadFill, Paper}
	for i := 0; i < NumGroups; i++ {
		fills = append(fills, Group(i))
	}
	for _, scheme := range []struct {
		name string
		rgb  func(Role) RGB
	}{
		{"light", Light},
		{"dark", Dark},
		{"light greyscale", func(r Role) RGB { return grey(Light(r)) }},
		{"dark greyscale", func(r Role) RGB { return grey(Dark(r)) }},
	} {
		t.Run(scheme.name, func(t *testing.T) {
			c := scheme.rgb
			for _, text := range []Role{Ink, Muted} {
				for _, f := range fills {
					if r := contrast(c(text), c(f)); r < 4.5 {
						t.Errorf("%s on %s: %.2f:1, want 4.5:1", text, f, r)
					}
				}
			}
			for i := 0; i < NumGroups; i++ {
				if r := contrast(c(Group(i)), c(Group(i+1))); r < 1.25 {
					t.Errorf("%s next to %s: %.2f:1, want 1.25:1", Group(i), Group(i+1), r)
				}
				for _, f := range []Role{FrameFill, TagFill, PadFill} {
					if r := contrast(c(f), c(Group(i))); r < 1.15 {
						t.Errorf("%s next to %s: %.2f:1, want 1.15:1", f, Group(i), r)
					}
				}
			}
		})
	}
}

// TestGroupColors checks the one colour rule directly; the byte grid's and the tree's tests
// check that both twins follow it.
func TestGroupColors(t *testing.T) {
	tests := []struct {
		name     string
		groups   []string
		explicit map[string]int
		want     string
	}{
		{"first appearance", []string{"x", "y", "x", "", "z"}, nil, "map[x:0 y:1 z:2]"},
		{"explicit first", []string{"x", "y", "z"}, map[string]int{"z": 0}, "map[x:1 y:2 z:0]"},
		{"explicit absent reserves nothing", []string{"x", "y"}, map[string]int{"w": 1}, "map[x:0 y:1]"},
		{"ungrouped explicit", []string{"", "x"}, map[string]int{"": 3}, "map[:3 x:0]"},
		{"twelve without reuse", []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"}, nil, "map[a:0 b:1 c:2 d:3 e:4 f:5 g:6 h:7 i:8 j:9 k:10 l:11]"},
		{"wraps", []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m"}, nil, "map[a:0 b:1 c:2 d:3 e:4 f:5 g:6 h:7 i:8 j:9 k:10 l:11 m:24]"},
		{"negative explicit", []string{"x", "y"}, map[string]int{"x": -3}, "map[x:-3 y:0]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := fmt.Sprint(GroupColors(tt.groups, tt.explicit)); got != tt.want {
				t.Errorf("GroupColors = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestTip(t *testing.T) {
	tests := []struct {
		name string
		tip  Tip
		want string
	}{
		{"bytes", Tip{Head: "Topics[0].Name", Type: "compact_string", Bit: 480, Bits: 56, Value: `"orders"`, Desc: "The topic name."},
			"Topics[0].Name\ncompact_string, offset 60 (0x3c), 7 bytes\nvalue: \"orders\"\nThe topic name."},
		{"one byte, framing", Tip{Head: "Name#length", Type: "uvarint", Bit: 8, Bits: 8, Kind: Length},
			"Name#length\nuvarint, offset 1 (0x1), 1 byte, length"},
		{"bits", Tip{Head: "Flags", Bit: 49, Bits: 3, Value: "DF"}, "Flags\nbit offset 49, 3 bits\nvalue: DF"},
		{"one bit", Tip{Head: "More", Bit: 50, Bits: 1}, "More\nbit offset 50, 1 bit"},
		{"cleaned", Tip{Head: "a\nb", Bits: 16, Value: "x\u202ey", Desc: "tab\there"},
			"a b\noffset 0 (0x0), 2 bytes\nvalue: x\ufffdy\ntab here"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(tt.tip.Append(nil))
			if got != tt.want {
				t.Errorf("Append =\n%s\nwant\n%s", got, tt.want)
			}
			if len(got) > tt.tip.Size()+len(tt.tip.Value) { // cleaning may grow a rune to U+FFFD
				t.Errorf("%d bytes, over Size %d", len(got), tt.tip.Size())
			}
		})
	}
}
