package rfcart

import (
	"errors"
	"fmt"
	"strings"

	"github.com/kafkagrid/kafkagrid/bytegrid"
)

// stackedTitle reports whether the rule at line next, under the grid ending at line last,
// starts another grid under a title of its own, blank lines between them (RFC 7348's Figure
// 1: "Outer IPv4 Header:" over the IPv4 header, under the Ethernet header), and the title.
func (p *parser) stackedTitle(last, next int) (string, bool) {
	h := next - 1
	if h <= last+1 {
		return "", false
	}
	for i := last + 1; i < h; i++ {
		if strings.TrimSpace(string(p.lines[i])) != "" {
			return "", false
		}
	}
	if !isHeading(string(p.lines[h]), string(p.lines[next])) {
		return "", false
	}
	return strings.TrimSpace(string(p.lines[h])), true
}

// maxStacked bounds the headers a stacked figure may have.
const maxStacked = 64

// stackedParts are the lines of the titles of the grids stacked under the first in a figure
// with no comment prefix (RFC 7348's Figure 1: "Outer IPv4 Header:", "Outer UDP Header:", …,
// each over its grid at the first one's column, blank lines between a grid and the next
// title): none for a figure of one grid.
func stackedParts(loc Located) []int {
	if loc.Prefix != "" || loc.Dash || loc.Rule < 0 {
		return nil
	}
	ls := loc.Lines
	x, _ := ruleAt(ls[loc.Rule])
	edge := func(i int) bool {
		r := []rune(strings.ReplaceAll(ls[i], "\t", "        "))
		return x < len(r) && strings.ContainsRune("+|:", r[x]) && strings.TrimSpace(string(r[:x])) == ""
	}
	var parts []int
	for i := loc.Rule; i < len(ls) && len(parts) < maxStacked; {
		for i+1 < len(ls) && edge(i+1) {
			i++
		}
		j := i + 1
		for j < len(ls) && strings.TrimSpace(ls[j]) == "" {
			j++
		}
		if j == i+1 || j+1 >= len(ls) || !isHeading(ls[j], ls[j+1]) {
			break
		}
		if k, ok := ruleAt(ls[j+1]); !ok || k != x {
			break
		}
		parts = append(parts, j)
		i = j + 1
	}
	return parts
}

// parseStacked reads a figure of grids stacked under their titles (stackedParts) as one spec:
// each grid read alone, its lines at their own line numbers, the fields one after the other,
// the first field of each grid after the first starting a row (Field.RowBreak when the grid
// before ends mid-row) under its title (Field.Caption). The grids must be drawn alike (the
// same row width, margin and text options); the figure's caption is the last one's.
func parseStacked(name string, loc Located, parts []int) (*bytegrid.Spec, error) {
	ls := loc.Lines
	bounds := append([]int{0}, parts...)
	bounds = append(bounds, len(ls))
	var specs []*bytegrid.Spec
	for k := 0; k+1 < len(bounds); k++ {
		text := strings.Repeat("\n", bounds[k]) + strings.Join(ls[bounds[k]:bounds[k+1]], "\n")
		s, err := Parse(name, []byte(text))
		if err != nil {
			return nil, err
		}
		specs = append(specs, s)
	}
	spec := specs[0]
	last := specs[len(specs)-1]
	total := 0
	for _, f := range spec.Fields {
		total = max(total, f.Offset+f.Bits)
	}
	rb := max(spec.Options.RowBits, 1)
	for k, s := range specs[1:] {
		if err := sameDrawing(&spec.Options, s.Options); err != nil {
			return nil, &Error{Reader: "rfcart", File: name, Line: parts[k] + 1, Err: fmt.Errorf("the header under %q is drawn otherwise than the first: %v", strings.TrimSpace(ls[parts[k]]), err)}
		}
		for i, f := range s.Fields {
			f.Offset += total
			if i == 0 {
				f.Caption = strings.TrimSpace(ls[parts[k]])
				f.RowBreak = f.RowBreak || f.Offset%rb != 0
			}
			spec.Fields = append(spec.Fields, f)
		}
		total = spec.Fields[len(spec.Fields)-1].Offset + spec.Fields[len(spec.Fields)-1].Bits
		spec.Warnings = append(spec.Warnings, s.Warnings...)
	}
	spec.Options.Text.Below = last.Options.Text.Below
	spec.Caption = last.Caption
	if spec.Caption != "" {
		spec.Name = strings.TrimSpace(captionRE().ReplaceAllString(spec.Caption, ""))
	}
	if err := bytegrid.CheckFields(spec.Fields); err != nil {
		return nil, &Error{Reader: "rfcart", File: name, Err: err}
	}
	p := &parser{name: name}
	printed := make([]string, len(ls)-loc.Start)
	for i := range printed {
		printed[i] = strings.ReplaceAll(ls[loc.Start+i], "\t", "        ")
	}
	p.checkDrawnBack(spec, printed, loc.Start)
	spec.Warnings = append(spec.Warnings, p.warnings...)
	return spec, nil
}

// sameDrawing reports how the options b of a stacked grid differ from the first grid's, a:
// the row width, and the text options but for what stands above and under each grid; a mark
// only one of them uses (Text.Cross, Text.Edge, Text.Inside: drawn only where a field crosses
// a rule, fills a variable row, or is drawn in pieces) is taken into a.
func sameDrawing(a *bytegrid.Options, b bytegrid.Options) error {
	for _, m := range []struct{ a, b *string }{{&a.Text.Cross, &b.Text.Cross}, {&a.Text.Edge, &b.Text.Edge}, {&a.Text.Inside, &b.Text.Inside}} {
		if *m.a == "" {
			*m.a = *m.b
		}
		if *m.b == "" {
			*m.b = *m.a
		}
	}
	ta, tb := a.Text, b.Text
	ta.Above, tb.Above, ta.UnderRuler, tb.UnderRuler, ta.Below, tb.Below = "", "", "", "", "", ""
	switch {
	case a.RowBits != b.RowBits:
		return fmt.Errorf("rows of %d bits, not %d", b.RowBits, a.RowBits)
	case ta != tb:
		return errors.New("its text options (margin, marks, rules) are not the first's")
	}
	return nil
}
