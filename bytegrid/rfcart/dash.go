package rfcart

import (
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/bytegrid/gridyaml"
)

// A dash figure is the other form RFCs print packets in (RFC 1350's TFTP packets): one row of
// boxes between '|' edges, under and over a rule of dashes alone, each box's width written
// over it ("2 bytes", "1 byte", "string", "n bytes"):
//
//	 2 bytes     string    1 byte     string   1 byte
//	 ------------------------------------------------
//	| Opcode |  Filename  |   0  |    Mode    |   0  |
//	 ------------------------------------------------
type dashFigure struct {
	head     int // the line of the widths, -1 for none
	top, bot int // the lines of the rules
}

// isDashRule reports whether s (trimmed) is a rule of dashes alone, eight or more.
func isDashRule(s string) bool {
	return len(s) >= 8 && strings.Trim(s, "-") == ""
}

// locateDash finds a dash figure in ls: a rule of dashes, lines of boxes with two '|' edges
// or more, a rule of dashes.
func locateDash(ls []string) (dashFigure, bool) {
	for i := 0; i+2 < len(ls); i++ {
		if !isDashRule(strings.TrimSpace(ls[i])) {
			continue
		}
		j := i + 1
		for j < len(ls) && strings.Count(ls[j], "|") >= 2 && !isDashRule(strings.TrimSpace(ls[j])) {
			j++
		}
		if j == i+1 || j >= len(ls) || !isDashRule(strings.TrimSpace(ls[j])) {
			continue
		}
		d := dashFigure{head: -1, top: i, bot: j}
		if i > 0 && strings.TrimSpace(ls[i-1]) != "" {
			d.head = i - 1
		}
		return d, true
	}
	return dashFigure{}, false
}

// dashWidthRE is a width written over a box: "2 bytes", "1 byte", "4 octets", "16 bits", or a
// variable one: "n bytes", "string", "variable".
var dashWidthRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(?:(\d{1,4}|n|N|m|M)\s*(bytes?|octets?|bits?)|string|variable|var)$`)
})

// phrase is text of a line: words a space apart.
type phrase struct {
	from, to int // columns, [from, to)
	s        string
}

// phrases splits l into its phrases: runs of words separated by single spaces.
func phrases(l []rune) []phrase {
	var out []phrase
	for i := 0; i < len(l); {
		if l[i] == ' ' {
			i++
			continue
		}
		j := i
		for j < len(l) && !(l[j] == ' ' && (j+1 >= len(l) || l[j+1] == ' ')) {
			j++
		}
		out = append(out, phrase{from: i, to: j, s: string(l[i:j])})
		i = j
	}
	return out
}

// parseDash reads a dash figure: a field a box, named by its text, as wide as what is written
// over it. A box with no width over it, or one not understood, is an error at its column. The
// fields are drawn as a grid of the project's own form, which a warning says.
func (p *parser) parseDash(spec *gridyaml.Spec, d dashFigure) (*gridyaml.Spec, error) {
	box := p.lines[d.top+1]
	var edges []int
	for c, r := range box {
		if r == '|' {
			edges = append(edges, c)
		}
	}
	for l := d.top + 2; l < d.bot; l++ {
		for _, c := range edges {
			if p.at(l, c) != '|' {
				return nil, p.errf(l, c, "a box's edge '|' on line %d and not on this one: want the boxes' edges in the same columns", d.top+2+p.base)
			}
		}
	}
	var heads []phrase
	if d.head >= 0 {
		heads = phrases(p.lines[d.head])
	}
	off := 0
	for k := 0; k+1 < len(edges); k++ {
		c0, c1 := edges[k], edges[k+1]
		var name []string
		for l := d.top + 1; l < d.bot; l++ {
			if t := strings.TrimSpace(string(p.lines[l][c0+1 : c1])); t != "" {
				name = append(name, t)
			}
		}
		if len(name) == 0 {
			return nil, p.errf(d.top+1, c0+1, "a box with no name")
		}
		width := ""
		for _, h := range heads {
			if mid := (h.from + h.to) / 2; mid > c0 && mid < c1 {
				width = h.s
			}
		}
		if width == "" {
			return nil, p.errf(d.top+1, c0+1, "no width written over the box %q: want \"2 bytes\", \"1 byte\", \"string\" or \"n bytes\" over each box", strings.Join(name, " "))
		}
		m := dashWidthRE().FindStringSubmatch(width)
		if m == nil {
			return nil, p.errf(d.head, c0+1, "the width %q over the box %q: want \"2 bytes\", \"1 byte\", \"string\" or \"n bytes\"", width, strings.Join(name, " "))
		}
		f := bytegrid.Field{Name: strings.Join(name, " "), Offset: off}
		if n, err := strconv.Atoi(m[1]); err == nil && n > 0 {
			f.Bits = n
			if !strings.HasPrefix(strings.ToLower(m[2]), "bit") {
				f.Bits *= 8
			}
		} else {
			f.Bits, f.Variable = 8, true // a string, n bytes: of no fixed size
		}
		off += f.Bits
		spec.Fields = append(spec.Fields, f)
	}
	if len(spec.Fields) == 0 {
		return nil, p.errf(d.top+1, -1, "a row of boxes with no box")
	}
	spec.Options.RowBits = 32
	spec.Options.NoHex = true
	spec.Options.ElideRows = -1
	for i := d.bot + 1; i < len(p.lines); i++ {
		if s := strings.TrimSpace(string(p.lines[i])); captionRE().MatchString(s) {
			nameSpec(spec, "", s, "", "")
			break
		}
	}
	p.warn(d.top, -1, "a figure of dashes with the widths written over its boxes: read, and drawn in the grid's own form, not as printed")
	if err := bytegrid.CheckFields(spec.Fields); err != nil {
		return nil, &Error{Reader: "rfcart", File: p.name, Err: err}
	}
	spec.Warnings = p.warnings
	return spec, nil
}
