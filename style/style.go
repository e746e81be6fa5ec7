// Package style holds the rules the byte grid and the tree share so that they look alike, each
// in one place: the kinds of field (framing or data), the colour roles and their palette, the
// one rule that gives groups their colours (GroupColors), the one rule that tells them apart
// without colour (GroupMark: a letter per group) and the one tooltip text (Tip).
//
// A colour is named by a Role, never by a value: the SVG painter writes it as a CSS custom
// property (var(--kg-…)) with a light and a dark value, the PDF painter takes the light RGB.
// The group palette has twelve colours that stay distinct for colour-blind readers (CIEDE2000
// ΔE 5 or more under simulated deuteranopia and protanopia, 10 or more otherwise) and whose
// neighbours differ in lightness, so adjacent groups differ even on a monochrome printer;
// groups far apart may print as one grey, so each group also carries a letter (GroupMark).
//
// It is a public package so that a user of bytegrid or tree can name roles and kinds and
// choose other colours (a Palette, given to canvas/svgcanvas or canvas/pdfcanvas) without
// reaching into an internal package. It knows nothing of Kafka, SVG or PDF; its values are
// immutable and safe to share.
package style

import "fmt"

// Kind says what a field or node is on the wire: data, or one of the framing pieces.
type Kind int

// The kinds. Plain is data; the others are framing that a reader may want to tell apart.
const (
	Plain   Kind = iota // data: a value the message carries
	Size                // a frame's size prefix
	Length              // a length or count prefix (string, bytes, array)
	Tags                // a tagged-field section's count
	Tag                 // a tagged field's tag or size varint
	Varint              // a variable-length integer that is data
	Padding             // padding or reserved bits
	Header              // a fixed header field that frames the rest (e.g. api key in a request header)
	numKinds
)

var kindNames = [...]string{"plain", "size", "length", "tags", "tag", "varint", "padding", "header"}

// String returns the kind's name as used in CSS classes (kind-length) and YAML ("length").
func (k Kind) String() string {
	if k < 0 || k >= numKinds {
		return fmt.Sprintf("kind(%d)", int(k))
	}
	return kindNames[k]
}

// ParseKind returns the kind named s ("" is Plain).
func ParseKind(s string) (Kind, error) {
	if s == "" {
		return Plain, nil
	}
	for i, n := range kindNames {
		if n == s {
			return Kind(i), nil
		}
	}
	return Plain, fmt.Errorf("unknown kind %q (want one of plain, size, length, tags, tag, varint, padding, header)", s)
}

// Kinds returns every kind, in order.
func Kinds() []Kind {
	ks := make([]Kind, numKinds)
	for i := range ks {
		ks[i] = Kind(i)
	}
	return ks
}

// Framing reports whether k is framing rather than data.
func (k Kind) Framing() bool {
	return k == Size || k == Length || k == Tags || k == Tag || k == Padding
}

// RGB is a colour for painters that need a value (PDF).
type RGB struct{ R, G, B uint8 }

// Hex returns the colour as #rrggbb.
func (c RGB) Hex() string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// Role names a colour by what it is for.
type Role string

// Colour roles beyond the group fills (see Group).
const (
	Ink       Role = "ink"        // main text and borders
	Muted     Role = "muted"      // secondary text: hex bytes, offsets, types, framing labels
	Rule      Role = "rule"       // ruler ticks, connector lines, light borders
	Paper     Role = "paper"      // background
	FrameFill Role = "frame-fill" // fill of framing fields (size, length, tags)
	TagFill   Role = "tag-fill"   // fill of tag/size varints of tagged fields
	PadFill   Role = "pad-fill"   // fill of padding
	Accent    Role = "accent"     // highlight (hover) and note marks
)

// NumGroups is the number of distinct group colours; group n uses colour n mod NumGroups.
// Twelve: the largest frames of Kafka 4.0 (the ShareFetch and Fetch responses) open ten
// groups, so no frame reuses a colour.
const NumGroups = 12

// groupRoles are the roles of the group colours, in palette order.
var groupRoles = [NumGroups]Role{"g0", "g1", "g2", "g3", "g4", "g5", "g6", "g7", "g8", "g9", "g10", "g11"}

// Group returns the role of group colour n (n mod NumGroups; a negative n counts as -n).
func Group(n int) Role {
	n %= NumGroups
	if n < 0 {
		n = -n
	}
	return groupRoles[n]
}

// colour is one role's light and dark value.
type colour struct {
	role        Role
	light, dark RGB
}

// The palette, in the order of Roles. The twelve group fills are told apart by everyone: any
// two are 10 or more apart in CIEDE2000 ΔE, and 5 or more for a reader with deuteranopia or
// protanopia (simulated as Machado, Oliveira and Fernandes 2009 at severity 1), in light and
// in dark (TestPaletteDistinct); they were found by a search under the constraints that
// follow, keeping chroma low, and ordered so that neighbours also differ most in hue (ΔE00 15
// or more). Neighbouring groups (a struct and the element nested in it take consecutive
// indexes) differ by a contrast ratio of at least 1.25 in colour and in grey, so a monochrome
// print still tells nested groups apart; two groups far apart in a frame may print as one
// grey, and then their letters (GroupMark) tell them apart. Framing fills are near-white in light and
// near-paper in dark, apart from every group by at least 1.15: framing reads as "not data" in
// colour and in grey. Ink and muted text keep 4.5:1 or more on every fill, in light, dark and
// greyscale (TestContrast). The dark paper is the page's own background, so a drawing is no
// lighter slab inside a dark page. (An array, not a map: it is static data, with nothing to
// build when the program starts.)
var palette = [...]colour{
	{Ink, RGB{0x1f, 0x23, 0x28}, RGB{0xe6, 0xe8, 0xeb}},
	{Muted, RGB{0x43, 0x4b, 0x55}, RGB{0xb4, 0xbc, 0xc6}},
	{Rule, RGB{0x8c, 0x95, 0x9f}, RGB{0x6e, 0x76, 0x81}},
	{Paper, RGB{0xff, 0xff, 0xff}, RGB{0x0d, 0x11, 0x17}},
	{FrameFill, RGB{0xfb, 0xfb, 0xfb}, RGB{0x1b, 0x1f, 0x24}},
	{TagFill, RGB{0xfe, 0xfb, 0xf3}, RGB{0x1e, 0x1b, 0x16}},
	{PadFill, RGB{0xfc, 0xfc, 0xfc}, RGB{0x18, 0x1c, 0x21}},
	{Accent, RGB{0xd9, 0x48, 0x1c}, RGB{0xff, 0x8a, 0x5c}},
	{"g0", RGB{0xdb, 0xeb, 0xff}, RGB{0x15, 0x4d, 0x73}},
	{"g1", RGB{0xf5, 0xb0, 0xb4}, RGB{0x10, 0x3e, 0x2b}},
	{"g2", RGB{0xe5, 0xec, 0xcc}, RGB{0x4d, 0x49, 0x45}},
	{"g3", RGB{0xbc, 0xbe, 0xc3}, RGB{0x29, 0x32, 0x58}},
	{"g4", RGB{0xff, 0xdf, 0xaf}, RGB{0x5f, 0x3d, 0x1e}},
	{"g5", RGB{0xdf, 0xad, 0xd3}, RGB{0x31, 0x27, 0x38}},
	{"g6", RGB{0xf1, 0xe2, 0xda}, RGB{0x64, 0x3a, 0x5b}},
	{"g7", RGB{0x9b, 0xc1, 0xf0}, RGB{0x4f, 0x1c, 0x1c}},
	{"g8", RGB{0xdb, 0xd4, 0xff}, RGB{0x41, 0x4e, 0x37}},
	{"g9", RGB{0xdc, 0xb4, 0x9b}, RGB{0x3c, 0x2c, 0x00}},
	{"g10", RGB{0xfc, 0xda, 0xe6}, RGB{0x54, 0x44, 0x4e}},
	{"g11", RGB{0x92, 0xd1, 0xba}, RGB{0x26, 0x35, 0x33}},
}

// lookup returns the palette entry of r; unknown roles are Ink's.
func lookup(r Role) (colour, bool) {
	for _, c := range palette {
		if c.role == r {
			return c, true
		}
	}
	return palette[0], false
}

// Known reports whether r is a role of the palette (one of Roles).
func Known(r Role) bool {
	_, ok := lookup(r)
	return ok
}

// Light returns the light (print) value of a role; unknown roles are Ink.
func Light(r Role) RGB {
	c, _ := lookup(r)
	return c.light
}

// Dark returns the dark-scheme value of a role; unknown roles are Ink.
func Dark(r Role) RGB {
	c, _ := lookup(r)
	return c.dark
}

// Colors is a role's light (print) and dark-scheme value.
type Colors struct{ Light, Dark RGB }

// Palette chooses the colours of some roles, for a painter's options (svgcanvas, pdfcanvas):
// a role it does not name keeps its colour of the default palette. The nil Palette is the
// default palette.
type Palette map[Role]Colors

// Light returns the light value of r: p's when p names r, else the default (Light).
func (p Palette) Light(r Role) RGB {
	if c, ok := p[r]; ok {
		return c.Light
	}
	return Light(r)
}

// Dark returns the dark-scheme value of r: p's when p names r, else the default (Dark).
func (p Palette) Dark(r Role) RGB {
	if c, ok := p[r]; ok {
		return c.Dark
	}
	return Dark(r)
}

// Roles returns every role in a fixed order (for writing CSS deterministically).
func Roles() []Role {
	rs := make([]Role, len(palette))
	for i, c := range palette {
		rs[i] = c.role
	}
	return rs
}

// GroupColors is the one rule that gives groups their colours, in the byte grid and the tree
// alike, so that a field and its node agree: groups lists the group of every item in order
// (repeats and "" allowed); a group named in explicit keeps its index; each other group takes,
// in order of first appearance, the next index that no explicitly coloured group of the list
// uses (mod NumGroups), while there is one. The empty group has no entry (colour 0).
func GroupColors(groups []string, explicit map[string]int) map[string]int {
	m := map[string]int{}
	var used [NumGroups]bool
	for _, g := range groups {
		if c, ok := explicit[g]; ok {
			m[g] = c
			if k := c % NumGroups; k >= 0 { // (a negative index never matches the free ones)
				used[k] = true
			}
		}
	}
	next := 0
	for _, g := range groups {
		if _, ok := m[g]; ok || g == "" {
			continue
		}
		for k := 0; k < NumGroups && used[next%NumGroups]; k++ {
			next++
		}
		m[g] = next
		used[next%NumGroups] = true
		next++
	}
	return m
}

// GroupMark is the one rule that tells groups apart without colour: the letter of group
// colour index n (as GroupColors gives it), "A" for 0, "B" for 1, … "Z", then "AA", "AB", …
// (a negative n counts as -n). Colours repeat after NumGroups and two far-apart colours may
// print as one grey; the letters do not repeat, so the byte grid writes its group's letter in
// the corner of the box where each run of a group starts in a row, the tree in the chip of
// each node that starts a group, and the legend in each swatch: a reader of a greyscale print
// (or one who cannot tell two fills apart) reads the letter.
func GroupMark(n int) string {
	if n < 0 {
		n = -n
	}
	var buf [16]byte
	i := len(buf)
	for {
		i--
		buf[i] = byte('A' + n%26)
		n = n/26 - 1
		if n < 0 {
			break
		}
	}
	return string(buf[i:])
}

// KindFill returns the fill role of a field of kind k in group colour group.
func KindFill(k Kind, group int) Role {
	switch k {
	case Size, Length, Tags:
		return FrameFill
	case Tag:
		return TagFill
	case Padding:
		return PadFill
	}
	return Group(group)
}
