package reference

import (
	"strconv"
	"strings"

	"github.com/kafkagrid/kafkagrid/internal/mono"
	"github.com/kafkagrid/kafkagrid/style"
)

// hexDump prints a frame's bytes as a hex dump (offset, 16 bytes, their ASCII), after its
// drawings, in the schema's small mono; it moves whole to the next page when it would leave
// fewer than four lines here.
func (bk *book) hexDump(b []byte) {
	lines := strings.Split(strings.TrimRight(hexDump(b), "\n"), "\n")
	if bk.y+captionH+float64(min(len(lines), 4))*schemaLead > bk.bottom {
		bk.newPage(bk.titles[len(bk.titles)-1])
	}
	bk.caption("Hex dump")
	for _, l := range lines {
		if bk.y+schemaLead > bk.bottom {
			bk.newPage(bk.titles[len(bk.titles)-1])
		}
		bk.font(monoFont, "", schemaSize)
		bk.color(colInk)
		bk.text(marginX, bk.y, l, schemaSize)
		bk.y += schemaLead
	}
	bk.y += 14
}

// schemaRow is one printed row of a schema: a line, or the continuation of a long one.
type schemaRow struct {
	num   string // the line number ("" on a continuation row)
	col   int    // the column the text starts in
	runes []rune
	kinds []tokenKind
}

// minSchemaLead is the tightest line height a schema's last page may be squeezed to, so
// that a few last rows do not take a page of their own.
const minSchemaLead = 0.86 * schemaLead

// schema prints a schema file in small mono with line numbers and light colouring: the
// licence header folded to one line (the numbers still follow the file), long lines wrapped
// under a hanging indent, continuing on new pages. When the rows left overflow the page by
// a little (minSchemaLead), the page's rows are drawn closer together instead.
func (bk *book) schema(title, file string, raw []byte) {
	pdf := bk.pdf
	numW := mono.Width("0000", schemaSize) + 8
	cols := mono.Fit(bk.cw-numW, schemaSize)
	charW := mono.Advance * schemaSize
	rows := schemaRows(tokenizeLines(raw), cols)
	// A schema that fits a page but would leave its last few rows (six or fewer, beyond what
	// squeezing takes in) to a page of their own starts on a new page instead, unless that
	// would leave this page more than half blank.
	if n := float64(len(rows)); n*schemaLead <= bk.bottom-marginTop-sectionH && bk.y >= marginTop+(bk.bottom-marginTop)/2 {
		room := bk.bottom - bk.y - sectionH
		if over := n*minSchemaLead - room; over > 0 && over <= 6*schemaLead {
			bk.newPage(bk.titles[len(bk.titles)-1])
		}
	}
	bk.section(title, file, 6*schemaLead)
	pdf.Bookmark(title, 2, bk.y-24)
	cur := style.RGB{R: 1} // no colour yet
	setColor := func(c style.RGB) {
		if c != cur {
			bk.color(c)
			cur = c
		}
	}
	// leadFor returns the line height of the rows from i on, on the page as it stands.
	leadFor := func(i int) float64 {
		left := float64(len(rows) - i)
		if room := bk.bottom - bk.y; left*schemaLead > room && left*minSchemaLead <= room {
			return room / left
		}
		return schemaLead
	}
	bk.font(monoFont, "", schemaSize)
	lead := leadFor(0)
	for i, r := range rows {
		if bk.y+lead > bk.bottom+0.001 {
			bk.newPage(bk.titles[len(bk.titles)-1])
			bk.font(monoFont, "", schemaSize)
			cur = style.RGB{R: 1}
			lead = leadFor(i)
		}
		if r.num != "" {
			setColor(colMuted)
			bk.text(marginX+numW-8-mono.Width(r.num, schemaSize), bk.y, r.num, schemaSize)
		}
		for a := 0; a < len(r.runes); {
			b := a + 1
			for b < len(r.runes) && r.kinds[b] == r.kinds[a] {
				b++
			}
			if chunk := string(r.runes[a:b]); strings.TrimSpace(chunk) != "" {
				setColor(tokenColor(r.kinds[a]))
				bk.text(marginX+numW+float64(r.col+a)*charW, bk.y, chunk, schemaSize)
			}
			a = b
		}
		bk.y += lead
	}
	bk.y += 10
}

// schemaRows cuts a schema's lines into printed rows of at most cols columns: the licence
// header as one row, each line cut at spaces where possible, its continuation rows hanging
// under its indent.
func schemaRows(lines [][]token, cols int) []schemaRow {
	var rows []schemaRow
	first := licenceLines(lines)
	if first > 0 {
		text := []rune("// Apache License, Version 2.0: the licence header, folded")
		kinds := make([]tokenKind, len(text))
		for k := range kinds {
			kinds[k] = tokComment
		}
		rows = append(rows, schemaRow{num: "1–" + strconv.Itoa(first), runes: text, kinds: kinds})
	}
	for n := first; n < len(lines); n++ {
		var rs []rune
		var kinds []tokenKind
		for _, t := range lines[n] {
			for _, r := range mono.Clean(t.Text) {
				rs = append(rs, r)
				kinds = append(kinds, t.Kind)
			}
		}
		indent := 0
		for indent < len(rs) && rs[indent] == ' ' {
			indent++
		}
		hang := min(indent+4, cols/2)
		num := strconv.Itoa(n + 1)
		if len(rs) == 0 {
			rows = append(rows, schemaRow{num: num})
			continue
		}
		for start, col := 0, 0; start < len(rs); col = hang {
			width := cols - col
			end := min(start+width, len(rs))
			if end < len(rs) {
				for k := end; k > start+width/2; k-- {
					if rs[k-1] == ' ' {
						end = k
						break
					}
				}
			}
			rows = append(rows, schemaRow{num: num, col: col, runes: rs[start:end], kinds: kinds[start:end]})
			num = ""
			start = end
		}
	}
	return rows
}

// licenceLines returns how many lines the licence header at the top of a schema takes: the
// leading comment lines, up to the first blank or code line after them, when they hold the
// Apache licence; 0 when the file does not start with it.
func licenceLines(lines [][]token) int {
	n, licence := 0, false
	for _, ts := range lines {
		if !commentLine(ts) {
			break
		}
		for _, t := range ts {
			if t.Kind == tokComment && strings.Contains(t.Text, "Licensed to the Apache Software Foundation") {
				licence = true
			}
		}
		n++
	}
	if !licence || n < 3 {
		return 0
	}
	return n
}

// commentLine reports whether a line holds a comment and nothing else but spaces.
func commentLine(ts []token) bool {
	comment := false
	for _, t := range ts {
		switch {
		case t.Kind == tokComment:
			comment = true
		case strings.TrimSpace(t.Text) != "":
			return false
		}
	}
	return comment
}

func tokenColor(k tokenKind) style.RGB {
	switch k {
	case tokComment:
		return colComment
	case tokKey:
		return colKey
	case tokString:
		return colString
	case tokNumber:
		return colNumber
	case tokLiteral:
		return colLiteral
	}
	return colInk
}
