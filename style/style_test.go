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

// The colour science of TestPaletteDistinct, written out so that the test depends on nothing:
// sRGB to linear light, CIE XYZ (D65) and CIELAB; colour-vision deficiency simulated as in
// Machado, Oliveira and Fernandes, "A Physiologically-based Model for Simulation of Color
// Vision Deficiency" (IEEE TVCG 2009), severity 1.0, applied to linear RGB; and the CIEDE2000
// colour difference (Sharma, Wu and Dalal 2005).

func linear(c RGB) [3]float64 {
	f := func(v uint8) float64 {
		x := float64(v) / 255
		if x <= 0.04045 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return [3]float64{f(c.R), f(c.G), f(c.B)}
}

var (
	machadoDeuteranopia = [3][3]float64{{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}}
	machadoProtanopia   = [3][3]float64{{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}}
)

func simulate(m [3][3]float64, l [3]float64) [3]float64 {
	var o [3]float64
	for i := range o {
		o[i] = math.Max(0, math.Min(1, m[i][0]*l[0]+m[i][1]*l[1]+m[i][2]*l[2]))
	}
	return o
}

func toLab(l [3]float64) [3]float64 {
	x := (0.4124564*l[0] + 0.3575761*l[1] + 0.1804375*l[2]) / 0.95047
	y := 0.2126729*l[0] + 0.7151522*l[1] + 0.0721750*l[2]
	z := (0.0193339*l[0] + 0.1191920*l[1] + 0.9503041*l[2]) / 1.08883
	f := func(t float64) float64 {
		if t > 216.0/24389 {
			return math.Cbrt(t)
		}
		return (24389.0/27*t + 16) / 116
	}
	fx, fy, fz := f(x), f(y), f(z)
	return [3]float64{116*fy - 16, 500 * (fx - fy), 200 * (fy - fz)}
}

func ciede2000(p, q [3]float64) float64 {
	const rad = math.Pi / 180
	c1, c2 := math.Hypot(p[1], p[2]), math.Hypot(q[1], q[2])
	cb7 := math.Pow((c1+c2)/2, 7)
	g := 0.5 * (1 - math.Sqrt(cb7/(cb7+math.Pow(25, 7))))
	a1, a2 := (1+g)*p[1], (1+g)*q[1]
	c1p, c2p := math.Hypot(a1, p[2]), math.Hypot(a2, q[2])
	hue := func(b, a float64) float64 {
		if a == 0 && b == 0 {
			return 0
		}
		h := math.Atan2(b, a) / rad
		if h < 0 {
			h += 360
		}
		return h
	}
	h1, h2 := hue(p[2], a1), hue(q[2], a2)
	dh := 0.0
	if c1p*c2p != 0 {
		dh = h2 - h1
		if dh > 180 {
			dh -= 360
		} else if dh < -180 {
			dh += 360
		}
	}
	dL, dC, dH := q[0]-p[0], c2p-c1p, 2*math.Sqrt(c1p*c2p)*math.Sin(dh*rad/2)
	lb, cb := (p[0]+q[0])/2, (c1p+c2p)/2
	hb := h1 + h2
	if c1p*c2p != 0 {
		switch {
		case math.Abs(h1-h2) <= 180:
			hb = (h1 + h2) / 2
		case h1+h2 < 360:
			hb = (h1 + h2 + 360) / 2
		default:
			hb = (h1 + h2 - 360) / 2
		}
	}
	t := 1 - 0.17*math.Cos((hb-30)*rad) + 0.24*math.Cos(2*hb*rad) + 0.32*math.Cos((3*hb+6)*rad) - 0.20*math.Cos((4*hb-63)*rad)
	dTheta := 30 * math.Exp(-math.Pow((hb-275)/25, 2))
	cbp7 := math.Pow(cb, 7)
	rc := 2 * math.Sqrt(cbp7/(cbp7+math.Pow(25, 7)))
	sl := 1 + 0.015*(lb-50)*(lb-50)/math.Sqrt(20+(lb-50)*(lb-50))
	sc, sh := 1+0.045*cb, 1+0.015*cb*t
	rt := -math.Sin(2*dTheta*rad) * rc
	return math.Sqrt((dL/sl)*(dL/sl) + (dC/sc)*(dC/sc) + (dH/sh)*(dH/sh) + rt*(dC/sc)*(dH/sh))
}

// TestCIEDE2000 checks the formula against pairs of Sharma, Wu and Dalal's test data.
func TestCIEDE2000(t *testing.T) {
	for _, c := range []struct {
		p, q [3]float64
		want float64
	}{
		{[3]float64{50, 2.6772, -79.7751}, [3]float64{50, 0, -82.7485}, 2.0425},
		{[3]float64{50, -1, 2}, [3]float64{50, 0, 0}, 2.3669},
		{[3]float64{50, 2.5, 0}, [3]float64{73, 25, -18}, 27.1492},
		{[3]float64{60.2574, -34.0099, 36.2677}, [3]float64{60.4626, -34.1751, 39.4387}, 1.2644},
		{[3]float64{22.7233, 20.0904, -46.694}, [3]float64{23.0331, 14.973, -42.5619}, 2.0373},
		{[3]float64{2.0776, 0.0795, -1.135}, [3]float64{0.9033, -0.0636, -0.5514}, 0.9082},
	} {
		if got := ciede2000(c.p, c.q); math.Abs(got-c.want) > 1e-4 {
			t.Errorf("ΔE00(%v, %v) = %.4f, want %.4f", c.p, c.q, got, c.want)
		}
	}
}

// TestPaletteDistinct: every two group colours are at least 10 apart (CIEDE2000) for normal
// colour vision and at least 5 apart under simulated deuteranopia and protanopia (Machado 2009,
// severity 1), in the light and the dark scheme, so that a frame's twelve groups (ShareFetch's
// legend has twelve) are all told apart by colour-blind readers too.
func TestPaletteDistinct(t *testing.T) {
	for _, scheme := range []struct {
		name string
		rgb  func(Role) RGB
	}{{"light", Light}, {"dark", Dark}} {
		for _, vision := range []struct {
			name string
			min  float64
			see  func([3]float64) [3]float64
		}{
			{"normal vision", 10, func(l [3]float64) [3]float64 { return l }},
			{"deuteranopia", 5, func(l [3]float64) [3]float64 { return simulate(machadoDeuteranopia, l) }},
			{"protanopia", 5, func(l [3]float64) [3]float64 { return simulate(machadoProtanopia, l) }},
		} {
			for i := 0; i < NumGroups; i++ {
				for j := i + 1; j < NumGroups; j++ {
					a, b := scheme.rgb(Group(i)), scheme.rgb(Group(j))
					if d := ciede2000(toLab(vision.see(linear(a))), toLab(vision.see(linear(b)))); d < vision.min {
						t.Errorf("%s, %s: %s %s and %s %s are ΔE00 %.1f apart, want %g", scheme.name, vision.name, Group(i), a.Hex(), Group(j), b.Hex(), d, vision.min)
					}
				}
			}
		}
	}
}

func TestGroupMark(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "A"}, {1, "B"}, {11, "L"}, {12, "M"}, {25, "Z"}, {26, "AA"}, {27, "AB"}, {51, "AZ"}, {52, "BA"}, {701, "ZZ"}, {702, "AAA"}, {-3, "D"}} {
		if got := GroupMark(c.n); got != c.want {
			t.Errorf("GroupMark(%d) = %q, want %q", c.n, got, c.want)
		}
	}
	seen := map[string]int{}
	for n := 0; n < 5000; n++ {
		m := GroupMark(n)
		if o, ok := seen[m]; ok {
			t.Fatalf("GroupMark(%d) = GroupMark(%d) = %q", n, o, m)
		}
		seen[m] = n
	}
}

// TestGroupsApartInGreyscale: groups are told apart in greyscale by something besides colour.
// Two group colour indexes whose fills print as greys closer than a contrast ratio of 1.25 (in
// the light or the dark scheme, through Rec. 601 luma), or that share a fill because the
// palette wrapped, must carry different letters (GroupMark); the count of such pairs is
// reported, so a palette change that makes more of them is seen.
func TestGroupsApartInGreyscale(t *testing.T) {
	const n = 3 * NumGroups // more groups than colours: the palette wraps twice
	close := 0
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			lg := contrast(grey(Light(Group(i))), grey(Light(Group(j))))
			dg := contrast(grey(Dark(Group(i))), grey(Dark(Group(j))))
			if lg >= 1.25 && dg >= 1.25 && Group(i) != Group(j) {
				continue
			}
			close++
			if GroupMark(i) == GroupMark(j) {
				t.Errorf("groups %d (%s) and %d (%s) print as greys %.2f:1 (light), %.2f:1 (dark) apart and share the mark %q", i, Group(i), j, Group(j), lg, dg, GroupMark(i))
			}
		}
	}
	if close == 0 {
		t.Error("no two groups print alike: the test checks nothing")
	}
	t.Logf("%d of %d pairs of groups print alike in grey and are told apart by their letters", close, n*(n-1)/2)
}

// TestDarkGroupsApartFromFraming: in the dark scheme every group fill is at least 10 apart
// (CIEDE2000, normal vision) from every framing fill and the paper, so data never reads as a
// length or a tag's frame on a dark page (a fill 5.7 apart from the framing fill did). The
// light scheme's near-white fills are told from framing by the 1.15 contrast TestContrast holds.
func TestDarkGroupsApartFromFraming(t *testing.T) {
	least, which := 1e9, ""
	for i := 0; i < NumGroups; i++ {
		for _, f := range []Role{FrameFill, PadFill, TagFill, Paper} {
			g := Dark(Group(i))
			d := ciede2000(toLab(linear(g)), toLab(linear(Dark(f))))
			if d < 10 {
				t.Errorf("dark: %s %s and %s %s are ΔE00 %.1f apart, want 10", Group(i), g.Hex(), f, Dark(f).Hex(), d)
			}
			if d < least {
				least, which = d, fmt.Sprintf("%s %s and %s %s", Group(i), g.Hex(), f, Dark(f).Hex())
			}
		}
	}
	// The figure docs/site.md records (issue 41's "one dark group fill ΔE 5.7 from framing").
	t.Logf("dark: the closest group fill to a framing fill: %s, ΔE00 %.1f", which, least)
}
