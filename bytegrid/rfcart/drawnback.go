package rfcart

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/bytegrid/gridyaml"
)

// checkDrawnBack draws the fields read as text and compares the drawing with the figure's
// lines (printed, from the text's line start on) as DrawnBack does: where they differ, a
// warning names the first line that does and how many do, so that no reading that cannot be
// the figure's goes unsaid.
func (p *parser) checkDrawnBack(spec *gridyaml.Spec, printed []string, start int) {
	err := drawnBack(spec, printed, start)
	var m *Mismatch
	switch {
	case err == nil:
	case errors.As(err, &m):
		p.warn(m.Line-1, -1, "drawn back otherwise than printed (%s of %d): printed %q, drawn %q", plural(m.Lines, "line"), m.Of, m.Printed, m.Drawn)
	default:
		p.warn(start, -1, "the fields read cannot be drawn back: %v", err)
	}
}

// A Mismatch is a figure drawn back otherwise than printed (DrawnBack): the first line that
// differs, and how many do.
type Mismatch struct {
	Line    int    // the first differing line's number in the source (1-based)
	Printed string // that line as printed (tabs expanded, the spaces ending it cut)
	Drawn   string // the drawing's line in its place ("" past the drawing's end)
	Lines   int    // how many of the figure's lines differ
	Of      int    // how many lines the figure has, from its first on
}

func (m *Mismatch) Error() string {
	return fmt.Sprintf("drawn back otherwise than printed (%s of %d): line %d printed %q, drawn %q", plural(m.Lines, "line"), m.Of, m.Line, m.Printed, m.Drawn)
}

// DrawnBack draws s as text (bytegrid's text form) and compares it, line by line with
// SameLine, with the figure in src as printed: found as Parse finds it (Locate: the lines
// before it and a comment prefix left out), the spaces ending each line and the lines closing
// it that are blank or end its comment or fence ("*/", "</pre>", "```") cut from both. It
// returns nil when every line is the same, a *Mismatch naming the first that is not, or the
// error that kept s from being drawn or the figure from being found. It is the measure of
// "drawn back as printed" that Parse's own warning, the tests and the measurements share.
func DrawnBack(s *bytegrid.Spec, src []byte) error {
	loc, ok := Locate(src)
	if !ok {
		return errors.New("no figure found: no rule with a row of boxes under it")
	}
	return drawnBack(s, loc.Lines[loc.Start:], loc.Start)
}

// drawnBack is DrawnBack on the figure's lines from its first (printed), the first being
// line start (0-based) of its source.
func drawnBack(s *bytegrid.Spec, printed []string, start int) error {
	got, err := drawText(s)
	if err != nil {
		return err
	}
	want := trimLines(printed)
	m := &Mismatch{Line: -1, Of: len(want)}
	for i := 0; i < max(len(want), len(got)); i++ {
		w, g := "", ""
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		if SameLine(w, g) {
			continue
		}
		if m.Lines == 0 {
			m.Line, m.Printed, m.Drawn = start+i+1, w, g
		}
		m.Lines++
	}
	if m.Lines == 0 {
		return nil
	}
	return m
}

// drawText is s drawn as text, its lines trimmed as trimLines trims them.
func drawText(s *bytegrid.Spec) ([]string, error) {
	d, err := bytegrid.Layout(s.Fields, s.Options)
	if err != nil {
		return nil, fmt.Errorf("the fields read cannot be drawn: %w", err)
	}
	var txt bytes.Buffer
	if err := d.WriteText(&txt); err != nil {
		return nil, fmt.Errorf("the fields read cannot be drawn: %w", err)
	}
	return trimLines(strings.Split(txt.String(), "\n")), nil
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
	got, err := drawText(spec)
	if err != nil {
		return
	}
	want := trimLines(printed)
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
		if !ok || !strings.ContainsRune("+-=|/", rune(want[c])) || !strings.ContainsRune("+-=|", rune(got[c])) {
			return nil
		}
		out = append(out, fmt.Sprintf("%d:%d:%c", rule, b, want[c]))
	}
	return out
}

// trimLines are ls with tabs expanded, the spaces ending each line cut, and the lines ending
// them that are blank or close a comment or fence around the figure ("*/", "</pre>", "```")
// left out.
func trimLines(ls []string) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = strings.TrimRight(strings.ReplaceAll(l, "\t", "        "), " ")
	}
	for len(out) > 0 {
		switch strings.TrimSpace(out[len(out)-1]) {
		case "", "*/", "</pre>", "```":
			out = out[:len(out)-1]
			continue
		}
		break
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
