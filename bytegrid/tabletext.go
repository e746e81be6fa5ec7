package bytegrid

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A table of counts is how RFC 1928 (SOCKS), RFC 1661 (PPP), RFC 7323 (TCP options) and many
// protocols' Markdown specs print a message: a box a field, its name in it, and its size in a
// row of counts under the names, not drawn as bits. TextOptions.Table keeps such a figure's
// layout, so that its text form is drawn as printed (its SVG is the grid's):
//
//	boxed            (where the counts stand: boxed, inline or under)
//	4 1              (each field's box: its width inside the edges, its count as printed)
//	10 1 to 255
//
// "boxed": the counts in boxes of their own under the names' (RFC 1928); "inline": on the
// names' boxes' last line (RFC 1661's "| 8/16 bits|      *      |"); "under": under the
// closing rule, with no edges, each in the middle of its box (RFC 7323). A name is drawn in
// the middle of its box, on as many lines as the box's width needs (words wrapped, from the
// top), every box as many lines as the tallest.
type tableLayout struct {
	where  string
	widths []int
	counts []string
	lines  [][]stackLine // "stack": each box's lines
}

// A stackLine is a run of words on a line of a box of a stack: the column it starts at inside
// the box and how many words of the name it holds; a line is one or more runs (none: blank).
type stackLine []struct{ col, words int }

// maxTableWidth bounds a box of a table.
const maxTableWidth = 256

// parseTableLayout reads TextOptions.Table for n fields.
func parseTableLayout(s string, n int) (tableLayout, error) {
	lines := strings.Split(s, "\n")
	t := tableLayout{where: lines[0]}
	if t.where != "boxed" && t.where != "inline" && t.where != "under" && t.where != "stack" {
		return t, fmt.Errorf("bytegrid: text table %q: want boxed, inline, under or stack on its first line", t.where)
	}
	if len(lines)-1 != n {
		return t, fmt.Errorf("bytegrid: text table of %d boxes for %d fields: want one a field", len(lines)-1, n)
	}
	if t.where == "stack" {
		return t, t.parseStack(lines[1:])
	}
	for _, l := range lines[1:] {
		w, count, _ := strings.Cut(l, " ")
		v, err := strconv.Atoi(w)
		if err != nil || v < 1 || v > maxTableWidth || utf8.RuneCountInString(count) > v || strings.TrimSpace(count) == "" {
			return t, fmt.Errorf("bytegrid: text table box %q: want its width (1 to %d) and the count printed in it", l, maxTableWidth)
		}
		t.widths, t.counts = append(t.widths, v), append(t.counts, count)
	}
	return t, nil
}

// parseStack reads the boxes of a stack: "WIDTH COL:WORDS …" a box, "-" for a blank line.
func (t *tableLayout) parseStack(boxes []string) error {
	for _, b := range boxes {
		ws := strings.Fields(b)
		w, err := strconv.Atoi(ws[0])
		if err != nil || w < 1 || w > maxTableWidth || len(ws) < 2 || len(ws) > 17 {
			return fmt.Errorf("bytegrid: text table box %q: want its width (1 to %d) and 1 to 16 lines, COL:WORDS or -", b, maxTableWidth)
		}
		var ls []stackLine
		for _, x := range ws[1:] {
			l, err := parseStackLine(x, w)
			if err != nil {
				return fmt.Errorf("bytegrid: text table box %q: %w", b, err)
			}
			ls = append(ls, l)
		}
		t.widths, t.lines = append(t.widths, w), append(t.lines, ls)
	}
	return nil
}

// parseStackLine reads a line of a stack's box w columns wide: COL:WORDS runs separated by
// commas, in order, or "-".
func parseStackLine(x string, w int) (stackLine, error) {
	var l stackLine
	if x == "-" {
		return l, nil
	}
	from := 0
	for _, run := range strings.Split(x, ",") {
		c, n, ok := strings.Cut(run, ":")
		col, e1 := strconv.Atoi(c)
		words, e2 := strconv.Atoi(n)
		if !ok || e1 != nil || e2 != nil || col < from || col >= w || words < 1 || words > w {
			return nil, fmt.Errorf("line %q: want COL:WORDS runs, in order, or -", x)
		}
		l = append(l, struct{ col, words int }{col, words})
		from = col + 1
	}
	return l, nil
}

// checkTextTable checks TextOptions.Table for n fields.
func checkTextTable(s string, n int) error {
	if s == "" {
		return nil
	}
	_, err := parseTableLayout(s, n)
	return err
}

// writeTable writes the figure as the table of counts its Text.Table says.
func (d *Diagram) writeTable(bw *bufio.Writer) error {
	t, err := parseTableLayout(d.Text.Table, len(d.Fields))
	if err != nil {
		return err
	}
	pad := strings.Repeat(" ", d.Text.Margin)
	if t.where == "stack" {
		return d.writeStack(bw, t, pad)
	}
	names := make([][]string, len(d.Fields))
	rows := 1
	for i, f := range d.Fields {
		names[i] = wrapWords(f.Name, t.widths[i])
		rows = max(rows, len(names[i]))
	}
	rule := pad + "+"
	for _, w := range t.widths {
		rule += strings.Repeat("-", w) + "+"
	}
	bw.WriteString(rule + "\n")
	for l := 0; l < rows; l++ {
		bw.WriteString(t.boxLine(pad, func(i int) string {
			if l < len(names[i]) {
				return names[i][l]
			}
			return ""
		}) + "\n")
	}
	count := func(i int) string { return t.counts[i] }
	switch t.where {
	case "boxed":
		bw.WriteString(rule + "\n" + t.boxLine(pad, count) + "\n" + rule + "\n")
	case "inline":
		bw.WriteString(t.boxLine(pad, count) + "\n" + rule + "\n")
	default:
		bw.WriteString(rule + "\n" + t.underLine(pad) + "\n")
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("bytegrid: write text: %w", err)
	}
	return nil
}

// boxLine is a line of the table's boxes, text(i) in the middle of box i.
func (t tableLayout) boxLine(pad string, text func(int) string) string {
	var b strings.Builder
	b.WriteString(pad + "|")
	for i, w := range t.widths {
		b.WriteString(centred(text(i), w) + "|")
	}
	return b.String()
}

// underLine is the line of counts under the table, each in the middle of its box.
func (t tableLayout) underLine(pad string) string {
	line := pad + " "
	for i, w := range t.widths {
		line += centred(t.counts[i], w) + " "
	}
	return strings.TrimRight(line, " ")
}

// centred is s in the middle of w columns (the extra column, if any, after it).
func centred(s string, w int) string {
	n := utf8.RuneCountInString(s)
	if n >= w {
		return s
	}
	left := (w - n) / 2
	return strings.Repeat(" ", left) + s + strings.Repeat(" ", w-n-left)
}

// wrapWords breaks s into lines of at most w columns between words (a word longer than that
// on a line of its own).
func wrapWords(s string, w int) []string {
	var out []string
	line := ""
	for _, word := range strings.Fields(s) {
		switch {
		case line == "":
			line = word
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(word) <= w:
			line += " " + word
		default:
			out = append(out, line)
			line = word
		}
	}
	return append(out, line)
}

// writeStack writes a stack: a box a field, one under another, each name's words on the
// lines and at the columns its layout says.
func (d *Diagram) writeStack(bw *bufio.Writer, t tableLayout, pad string) error {
	for i, f := range d.Fields {
		w := t.widths[i]
		if i == 0 || t.widths[i-1] != w {
			bw.WriteString(pad + "+" + strings.Repeat("-", w) + "+\n")
		}
		words := strings.Fields(f.Name)
		for _, l := range t.lines[i] {
			line := ""
			for _, run := range l {
				if run.words > len(words) {
					return fmt.Errorf("bytegrid: text table: the box of %q has %d words on a line, and %d are left", f.Name, run.words, len(words))
				}
				if n := utf8.RuneCountInString(line); n < run.col {
					line += strings.Repeat(" ", run.col-n)
				} else if line != "" {
					line += " "
				}
				line += strings.Join(words[:run.words], " ")
				words = words[run.words:]
			}
			if n := utf8.RuneCountInString(line); n < w {
				line += strings.Repeat(" ", w-n)
			}
			bw.WriteString(pad + "|" + line + "|\n")
		}
		if len(words) > 0 {
			return fmt.Errorf("bytegrid: text table: the box of %q leaves %d words of its name undrawn", f.Name, len(words))
		}
		bw.WriteString(pad + "+" + strings.Repeat("-", w) + "+\n")
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("bytegrid: write text: %w", err)
	}
	return nil
}
