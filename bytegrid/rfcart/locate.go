package rfcart

import (
	"strings"
	"unicode"
)

// Located is where a figure stands in a text: after a "source:" line (any case), prose, or
// inside a code comment whose prefix every line carries.
type Located struct {
	// Lines are the text's lines, the comment prefix stripped, "\r\n" read as "\n"; Lines[i]
	// is the text's line i+1.
	Lines []string
	// Prefix is the comment prefix stripped from every line (" * ", "// ", "# "), "" for none;
	// PrefixCols the columns it took (the columns of an error are the text's).
	Prefix     string
	PrefixCols int
	// Source is the text of a first "source:" line (any case: "SOURCE:", "Source:"), and
	// SourceLine its index in Lines (-1 for none).
	Source     string
	SourceLine int
	// Start is the index in Lines of the figure's first line: its ruler, the header above
	// its first rule, or the rule; Rule is the index of its first rule.
	Start, Rule int
	// Dash says that the figure is one of dashes (RFC 1350's "-----" rules, the boxes'
	// widths written over them), not of "+-+" rules; Start is its first line.
	Dash bool
	// Prose are the indexes in Lines of the text before the figure that is not blank, not
	// the source line and not a comment's delimiter ("/*", "*/").
	Prose []int
	// Heading is the index in Lines of a line of text right over the figure, no blank line
	// between (RFC 7348's "VXLAN Header:"): the figure's title, kept as printed (Start is
	// then that line); -1 for none.
	Heading int
}

// commentPrefixes are the comment marks a figure copied from code may carry on each line.
var commentPrefixes = []string{"*", "//", "#", "--", ";"}

// Sniff reports whether src holds a figure in RFC ASCII art, wherever it starts (after a
// "source:" line of any case, after prose, inside a code comment), and the comment prefix its
// lines carry ("" for none).
func Sniff(src []byte) (ok bool, prefix string) {
	l, ok := Locate(src)
	return ok, l.Prefix
}

// IsDash reports whether a located figure is one of dashes (RFC 1350), which Parse reads but
// does not draw back as printed.
func (l Located) IsDash() bool { return l.Dash }

// Locate finds the figure in src: a rule ("+-", "+=" or "+ -" at the start of a line, spaces
// before it) with a row under it that starts at the rule's column with '|', ':' or a side
// mark. It reports false when there is none.
func Locate(src []byte) (Located, bool) {
	text := strings.ReplaceAll(string(src[:min(len(src), MaxSize)]), "\r\n", "\n")
	text = strings.TrimPrefix(text, "\ufeff")
	raw := strings.Split(text, "\n")
	if len(raw) > MaxLines {
		raw = raw[:MaxLines]
	}
	loc := Located{SourceLine: -1, Start: -1, Rule: -1, Heading: -1}
	loc.Lines, loc.Prefix, loc.PrefixCols = stripComment(raw)
	ls := loc.Lines
	if i := sourceLine(ls); i >= 0 {
		s := strings.TrimSpace(ls[i])
		loc.Source, loc.SourceLine = strings.TrimSpace(s[len("source:"):]), i
	}
	loc.Rule = firstRule(ls, loc.SourceLine)
	if loc.Rule < 0 {
		from := loc.SourceLine + 1
		d, ok := locateDash(ls[from:])
		if !ok {
			return loc, false
		}
		loc.Dash, loc.Start = true, from+d.top
		if d.head >= 0 {
			loc.Start = from + d.head
		}
		loc.Prose = proseBefore(ls, loc.Start, loc.SourceLine)
		return loc, true
	}
	// Up from the rule: a ruler's lines, a header over the columns ("+0 (MSB)  +1 (LSB)"),
	// no blank line between; then a title over them.
	loc.Start = loc.Rule
	for i := loc.Rule - 1; i >= 0 && i > loc.SourceLine; i-- {
		s := strings.TrimSpace(ls[i])
		if s == "" || !isRuler(s) && !isByteHeader(s) && !isUnitRuler(s) {
			break
		}
		loc.Start = i
	}
	if h := loc.Start - 1; h > loc.SourceLine && h >= 0 && isHeading(ls[h], ls[loc.Start]) {
		loc.Heading, loc.Start = h, h
		if r := rulerOverTitle(ls, h, loc.SourceLine); r >= 0 {
			loc.Start = r
		}
	}
	loc.Prose = proseBefore(ls, loc.Start, loc.SourceLine)
	return loc, true
}

// firstRule is the index of the first line of ls (but the source line) that is a rule with a
// row under it, at its column: the lines below that go on at that column hold an edge; -1 for
// none.
func firstRule(ls []string, source int) int {
	for i := range ls {
		if i == source {
			continue
		}
		x, ok := ruleAt(ls[i])
		if !ok {
			continue
		}
		for j := i + 1; j < len(ls) && j <= i+64; j++ { // (bounded: the work stays linear)
			r := []rune(strings.ReplaceAll(ls[j], "\t", "        "))
			if x >= len(r) || !strings.ContainsRune("+|:~/.\\!", r[x]) {
				break
			}
			if r[x] == '|' || r[x] == ':' || r[x] == '!' {
				return i
			}
		}
	}
	return -1
}

// rulerOverTitle is the index of the first line of a ruler over the figure's title at line h,
// blank lines between (RFC 7348's Figure 1: its ruler, a blank line, "Outer Ethernet
// Header:", the grid): one or two lines of bit numbers (the last of four numbers or more),
// no blank line between them; -1 for none.
func rulerOverTitle(ls []string, h, source int) int {
	i := h - 1
	for i > source && i >= 0 && h-i <= 3 && strings.TrimSpace(ls[i]) == "" {
		i--
	}
	if i < 0 || i <= source || len(strings.Fields(ls[i])) < 4 {
		return -1 // (bit numbers, not a lone number: a year, a page)
	}
	first := -1
	for ; i > source && i >= 0 && h-i <= 5 && isRuler(strings.TrimSpace(ls[i])); i-- {
		first = i
	}
	return first
}

// proseBefore are the indexes of the lines before start that are not blank, not the source
// line and not a comment's delimiter.
func proseBefore(ls []string, start, source int) []int {
	var out []int
	for i := 0; i < start; i++ {
		if s := strings.TrimSpace(ls[i]); s != "" && i != source && !isDelimiter(s) {
			out = append(out, i)
		}
	}
	return out
}

// maxHeading bounds a heading's length: a title, not a paragraph's last line.
const maxHeading = 60

// isHeading reports whether line h, right over the figure's first line next, is the figure's
// title: short text, not a sentence going on from the line before (it starts at or left of
// the figure's first column) and not a comment's delimiter, "<pre>" or a Markdown fence.
func isHeading(h, next string) bool {
	s := strings.TrimSpace(h)
	if s == "" || isDelimiter(s) || strings.HasPrefix(s, "<") || strings.HasPrefix(s, "```") || strings.HasPrefix(s, "~~~") ||
		len([]rune(s)) > maxHeading || strings.HasSuffix(s, ".") || !strings.ContainsFunc(s, unicode.IsLetter) {
		return false // (a fence, a comment's delimiter, an HTML tag, a sentence)
	}
	indent := func(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }
	return indent(h) <= indent(next)
}

// ruleAt reports whether l is a rule, and the column of its first '+'.
func ruleAt(l string) (int, bool) {
	l = strings.ReplaceAll(l, "\t", "        ")
	s := strings.TrimLeft(l, " ")
	if strings.HasPrefix(s, "+-") || strings.HasPrefix(s, "+=") || strings.HasPrefix(s, "+ -") {
		return len([]rune(l)) - len([]rune(s)), true
	}
	return 0, false
}

// isByteHeader reports whether s names the bytes of a row by their offset in it, "+0 (MSB)
// +1 (LSB)" (RFC 6891, RFC 1035's "+0 +1"): each word "+N" or a parenthesised word.
func isByteHeader(s string) bool {
	n := 0
	for _, w := range strings.Fields(s) {
		switch {
		case len(w) > 1 && w[0] == '+' && isRuler(w[1:]):
			n++
		case strings.HasPrefix(w, "(") && strings.HasSuffix(w, ")"):
		default:
			return false
		}
	}
	return n > 0
}

// isDelimiter reports whether s opens or closes a block comment.
func isDelimiter(s string) bool {
	return s == "/*" || s == "*/" || s == "/**" || s == "(*" || s == "*)"
}

// stripComment strips from every line the comment prefix all of its lines that are not blank
// carry (" * ", "// ", "# ", ";; "), spaces before it, but for a first "source:" line. The
// prefix is a mark of commentPrefixes in one column, and after it the marks the figure's own
// lines (a rule or a row: '+' or '|' after the prefix) all carry (commentExt: "///" and "//!"
// doc comments, "//#", ";;;"); a line before the figure that carries the mark but not those
// (s2n-quic's "//= https://…" over "//# " lines, a licence's ";;;;") is prose, stripped of what
// it carries. Each line loses the columns up to and with the prefix, and one space after it
// when every figure line has one there. It returns the lines, the prefix as the figure's
// first line printed it, and the columns it took.
func stripComment(raw []string) ([]string, string, int) {
	src := sourceLine(raw)
	for _, mark := range commentPrefixes {
		col, ok := markColumn(raw, mark, src)
		if !ok {
			continue
		}
		ext, space, first := commentExt(raw, mark, col, src)
		prefix := mark + ext
		cut := col + len(prefix)
		if space {
			cut++
		}
		out := make([]string, len(raw))
		for i, l := range raw {
			out[i] = stripLine(l, mark, prefix, col, cut, i == src)
		}
		pr := ""
		if first >= 0 {
			pr = raw[first][:min(len(raw[first]), cut)]
		}
		return out, pr, cut
	}
	return raw, "", 0
}

// markColumn reports whether every line of raw that is not blank, the source line or a
// comment's delimiter starts with mark, spaces before it, in one column (at least two such
// lines), and that column.
func markColumn(raw []string, mark string, src int) (int, bool) {
	n, col := 0, -1
	for i, l := range raw {
		s := strings.TrimLeftFunc(l, unicode.IsSpace)
		if i == src || s == "" || isDelimiter(strings.TrimSpace(s)) || mark == "*" && strings.HasPrefix(s, "/*") {
			continue
		}
		c := len(l) - len(s)
		if !strings.HasPrefix(s, mark) || col >= 0 && c != col {
			return 0, false // (the marks in one column, or the figure's columns are not kept)
		}
		col = c
		n++
	}
	return col, n >= 2
}

// extMarks are the characters a comment's mark may be followed by as part of its prefix.
const extMarks = "/!#;*=%'-"

// commentExt is what the figure's lines (a rule or a row after the mark) all carry after the
// mark at col, of extMarks; whether each has a space (or nothing) after that; and the index
// of the first of them (-1 for none).
func commentExt(raw []string, mark string, col, src int) (ext string, space bool, first int) {
	first, space = -1, true
	for i, l := range raw {
		if i == src || len(l) < col+len(mark) || l[col:col+len(mark)] != mark {
			continue
		}
		rest := l[col+len(mark):]
		run := rest[:len(rest)-len(strings.TrimLeft(rest, extMarks))]
		body := strings.TrimLeft(rest[len(run):], " \t")
		if !strings.HasPrefix(body, "+") && !strings.HasPrefix(body, "|") {
			continue
		}
		if first < 0 {
			first, ext = i, run
		}
		ext = commonPrefix(ext, run)
		if after := rest[len(ext):]; after != "" && after[0] != ' ' {
			space = false
		}
	}
	return ext, space, first
}

func commonPrefix(a, b string) string {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return a[:n]
}

// stripLine is line l without its comment prefix: the whole prefix (cut columns) when it
// carries it, else the mark and a space after it.
func stripLine(l, mark, prefix string, col, cut int, isSource bool) string {
	s := strings.TrimSpace(l)
	switch {
	case isSource:
		return l
	case s == "" || isDelimiter(s), mark == "*" && strings.HasPrefix(strings.TrimLeftFunc(l, unicode.IsSpace), "/*"):
		return ""
	case len(l) >= col+len(prefix) && strings.HasPrefix(l[col:], prefix):
		return l[min(len(l), cut):]
	case len(l) >= col+len(mark):
		return strings.TrimPrefix(l[col+len(mark):], " ")
	}
	return ""
}

// sourceLine is the index of a first line "source: …" (any case), the lines before it blank
// or a comment's delimiters, which
// names the figure and need not carry the comment's prefix: -1 for none.
func sourceLine(raw []string) int {
	for i, l := range raw {
		s := strings.TrimSpace(l)
		if s == "" || isDelimiter(s) {
			continue
		}
		if k := len("source:"); len(s) >= k && strings.EqualFold(s[:k], "source:") {
			return i
		}
		return -1
	}
	return -1
}
