package rfcart

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/bytegrid/gridyaml"
)

// checkDrawnBack draws the fields read as text and compares the drawing with the figure's
// lines (printed, from the text's line start on) with SameLine: where they differ, a warning
// names the first line that does and how many do, so that no reading that cannot be the
// figure's goes unsaid.
func (p *parser) checkDrawnBack(spec *gridyaml.Spec, printed []string, start int) {
	d, err := bytegrid.Layout(spec.Fields, spec.Options)
	if err != nil {
		p.warn(start, -1, "the fields read cannot be drawn back: %v", err)
		return
	}
	var txt bytes.Buffer
	if err := d.WriteText(&txt); err != nil {
		p.warn(start, -1, "the fields read cannot be drawn back: %v", err)
		return
	}
	want, got := trimLines(printed), trimLines(strings.Split(txt.String(), "\n"))
	first, n := -1, 0
	for i := 0; i < max(len(want), len(got)); i++ {
		w, g := "", ""
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		if !SameLine(w, g) {
			if first < 0 {
				first = i
			}
			n++
		}
	}
	if first < 0 {
		return
	}
	w, g := "", ""
	if first < len(want) {
		w = want[first]
	}
	if first < len(got) {
		g = got[first]
	}
	p.warn(start+first, -1, "drawn back otherwise than printed (%s of %d): printed %q, drawn %q", plural(n, "line"), len(want), w, g)
}

// keepRuleMarks keeps the marks printed on the rules that the fields read do not draw (RFC
// 7540's '+' one bit in under "Weight? (8)", RFC 1035's rule ending in '|' where no field
// continues): where the drawing has the figure's lines, a rule line of the drawing differing
// from the printed one only in marks ('+', '-', '=', '|') at bit boundaries gets the printed
// ones (Text.RuleMarks). Nothing else is changed: checkDrawnBack still compares the rest.
func (p *parser) keepRuleMarks(spec *gridyaml.Spec, printed []string) {
	if c := spec.Options.Text.Cross; c != "" && c[0] != '+' {
		return // (crossing lines starting with '|' cannot be told from rows)
	}
	d, err := bytegrid.Layout(spec.Fields, spec.Options)
	if err != nil {
		return
	}
	var txt bytes.Buffer
	if err := d.WriteText(&txt); err != nil {
		return
	}
	want, got := trimLines(printed), trimLines(strings.Split(txt.String(), "\n"))
	if len(want) != len(got) {
		return
	}
	var marks []string
	rule := 0
	above := 0 // the lines kept as printed above the grid are not its rules (a boxed ruler)
	if a := spec.Options.Text.Above; a != "" {
		above = strings.Count(a, "\n") + 1
	}
	for i, g := range got {
		if t := strings.TrimSpace(g); i < above || t == "" || t[0] != '+' {
			continue
		}
		marks = append(marks, p.lineMarks(rule, want[i], g)...)
		rule++
	}
	if len(marks) > 0 && spec.Options.Text.RuleMarks == "" {
		spec.Options.Text.RuleMarks = strings.Join(marks, " ")
	}
}

// lineMarks are the RuleMarks items that make rule line got of the drawing printed line
// want, the rule-th: none unless the two differ only in rule marks at bit boundaries.
func (p *parser) lineMarks(rule int, want, got string) []string {
	if len(want) != len(got) || want == got {
		return nil
	}
	var out []string
	for c := range len(got) {
		if want[c] == got[c] {
			continue
		}
		b, ok := p.bitAt(c)
		if !ok || !strings.ContainsRune("+-=|", rune(want[c])) || !strings.ContainsRune("+-=|", rune(got[c])) {
			return nil
		}
		out = append(out, fmt.Sprintf("%d:%d:%c", rule, b, want[c]))
	}
	return out
}

// trimLines are ls with the spaces ending each line and the blank lines ending them cut.
func trimLines(ls []string) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = strings.TrimRight(strings.ReplaceAll(l, "\t", "        "), " ")
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// SameLine is bytegrid's figure comparison: edges in the same columns, the text between them
// the same once trimmed and starting within a column of where the figure has it (authors round
// a centre either way), rules and ruler lines identical (but for spaces at their end).
func SameLine(want, got string) bool {
	if want == got {
		return true
	}
	if strings.Trim(want, "+-=:. ") == "" || strings.Trim(want, " 0123456789") == "" {
		return false // a rule or a ruler: as printed, digit for digit
	}
	type tok struct {
		s    string
		col  int
		edge bool
	}
	cells := func(s string) []tok {
		rs := []rune(s)
		var out []tok
		start := 0
		text := func(from, to int) {
			seg := string(rs[from:to])
			if t := strings.TrimSpace(seg); t != "" {
				out = append(out, tok{s: t, col: from + len(seg) - len(strings.TrimLeft(seg, " "))})
			}
		}
		for i, r := range rs {
			alone := (i == 0 || rs[i-1] == ' ') && (i == len(rs)-1 || rs[i+1] == ' ')
			edge := r == '|' || r == '+' || strings.ContainsRune(":~/.\\", r) && alone
			if !edge {
				continue
			}
			text(start, i)
			out = append(out, tok{s: string(r), col: i, edge: true})
			start = i + 1
		}
		rest := string(rs[start:])
		if strings.HasSuffix(rest, "  ...") && strings.TrimSpace(rest) != "..." {
			text(start, len(rs)-3)
			return append(out, tok{s: "...", col: len(rs), edge: true})
		}
		text(start, len(rs))
		return out
	}
	a, b := cells(want), cells(got)
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		d := a[i].col - b[i].col
		if a[i].s != b[i].s || a[i].edge != b[i].edge || a[i].edge && d != 0 || d > 1 || d < -1 {
			return false
		}
	}
	return true
}
