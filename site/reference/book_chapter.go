package reference

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kafkagrid/kafkagrid/internal/mono"
	"github.com/kafkagrid/kafkagrid/style"
)

// chapter lays out one API, starting on a new page: its facts, its version history, the
// request and response of each version in the book (cs, highest first), its edge cases, and
// the fields of its request and response schemas as tables. The book prints each schema once,
// as its field table (path, type, versions, nullable and tagged forms, the schema's about text:
// what a client author looks up, in the version the chapter draws), not also as its raw JSON,
// which is on the API's web page, every line numbered and linked from the fields.
func (bk *book) chapter(cs []*apiContent, hist []versionInfo) {
	c := cs[0]
	a := c.API
	pdf := bk.pdf
	bk.newPage(a.Name)
	page := pdf.PageNo()
	if a.Category != bk.lastCat {
		bk.lastCat = a.Category
		pdf.Bookmark(a.Category, 0, 0)
		for i := range bk.entries {
			if bk.entries[i].category && bk.entries[i].text == a.Category && bk.entries[i].page == 0 {
				bk.entries[i].page = page
				pdf.SetLink(bk.entries[i].link, 0, page)
				break
			}
		}
	}
	pdf.Bookmark(a.Name, 1, 0)
	bk.indexAt(indexAPI, a.Name)
	for i := range bk.entries {
		e := &bk.entries[i]
		if !e.category && e.text == a.Name && e.page == 0 {
			e.page = page
			pdf.SetLink(e.link, 0, page)
			break
		}
	}

	// Header block.
	y := bk.y
	bk.font(sansFont, "", 9)
	bk.color(colMuted)
	bk.text(marginX, y, a.Category, 9)
	y += 14
	bk.font(sansFont, "B", 24)
	bk.color(colInk)
	nw := bk.text(marginX, y, a.Name, 24)
	bx := marginX + nw + 12
	if a.Flexible {
		bx += bk.badge(bx, y+7, "flexible", colFlex) + 6
	}
	if a.Unstable {
		bk.badge(bx, y+7, "unstable", colUnst)
	}
	y += 34
	listeners := "none"
	if len(a.Listeners) > 0 {
		listeners = strings.Join(a.Listeners, ", ")
	}
	version := versionText(a)
	encoding := "classic: fixed-width lengths, no tagged fields"
	if a.Flexible {
		encoding = "flexible: compact strings and arrays, tagged fields"
	}
	encoding += " (flexible versions " + a.Request.FlexibleVersions.String() + ")"
	y = bk.facts(y, [][2]string{
		{"API key", strconv.Itoa(int(a.Key))},
		{"Version", version},
		{"Headers", headerText(a, a.Version)},
		{"Listeners", listeners},
		{"Encoding", encoding},
		{"Frames", fmt.Sprintf("request %s, response %s", byteCount(len(c.Request.Bytes)), byteCount(len(c.Response.Bytes)))},
	})
	bk.rule(y + 4)
	bk.y = y + 16
	bk.history(hist)

	for _, c := range cs {
		for _, m := range []*message{c.Request, c.Response} {
			title := "Request"
			if m.Response {
				title = "Response"
			}
			if len(cs) > 1 {
				title += " v" + strconv.Itoa(int(c.Version))
			}
			if bk.breaksBefore(m.Grid, bk.y+sectionH, bk.scaleOf(m.Grid, 0)) {
				bk.newPage(a.Name) // keep the heading with its grid
			}
			bk.section(title, m.Base+" · "+byteCount(len(m.Bytes)), 0)
			pdf.Bookmark(title, 2, bk.y-24)
			bk.place("Byte grid", m.Grid, 0)
			bk.indexErrors(m)
			bk.place("Expanded tree", m.Tree, treeWidth)
			bk.hexDump(m.Bytes)
		}
	}
	bk.edgeCases(cs[0].Edges, cs)
	for _, ft := range fieldTables(a.Request, a.Response, cs[0].Version) {
		bk.fieldTable(ft, cs[0].Version)
	}
}

// edgeCases draws an API's edge cases after its example: for each, its title, what it shows,
// and each of its frames: as the fields it changes in the example's frame of its version and
// side (cs), with its hex dump, when it changes few (smallDiff); else as its byte grid and tree.
func (bk *book) edgeCases(edges []*edgeContent, cs []*apiContent) {
	if len(edges) == 0 {
		return
	}
	pdf := bk.pdf
	const size, lead = 9, 12.5
	for i, e := range edges {
		bk.font(sansFont, "", size)
		about := pdf.SplitText(e.Case.About, bk.cw)
		// The heading, the title and the text stay together, with room for a first part of a
		// drawing, or the label and the first rows of a listing.
		need := 22 + lead*float64(len(about)) + 60
		if len(e.Msgs) > 0 {
			fr := e.Frames[0]
			if base := exampleOf(cs, fr.Version, fr.Response); base != nil && smallDiff(messageDiff(base, e.Msgs[0]), e.Msgs[0]) {
				need = 22 + lead*float64(len(about)) + 8 + diffKeep
			}
		}
		if i == 0 {
			need += sectionH
		}
		if bk.y+need > bk.bottom {
			bk.newPage(bk.titles[len(bk.titles)-1])
		}
		if i == 0 {
			bk.section("Edge cases", plural(len(edges), "case")+" beside the example", 0)
			pdf.Bookmark("Edge cases", 2, bk.y-24)
		}
		pdf.Bookmark(e.Case.Title, 3, bk.y)
		bk.font(sansFont, "B", 11)
		bk.color(colInk)
		for _, l := range pdf.SplitText(e.Case.Title, bk.cw) {
			bk.text(marginX, bk.y, l, 11)
			bk.y += 15
		}
		bk.y += 3
		bk.font(sansFont, "", size)
		bk.color(colInk)
		for _, l := range about {
			bk.text(marginX, bk.y, l, size)
			bk.y += lead
		}
		bk.y += 8
		for j, m := range e.Msgs {
			fr := e.Frames[j]
			side := "Request"
			if fr.Response {
				side = "Response"
			}
			label := fmt.Sprintf("%s v%d", side, fr.Version)
			base := exampleOf(cs, fr.Version, fr.Response)
			var diff []fieldDiff
			if base != nil {
				diff = messageDiff(base, m)
			}
			listed := base != nil && smallDiff(diff, m)
			if listed {
				// The label, the sentence and the table's heads and first row stay together.
				if bk.y+diffKeep > bk.bottom {
					bk.newPage(bk.titles[len(bk.titles)-1])
				}
			} else if bk.breaksBefore(m.Grid, bk.y+captionH, bk.scaleOf(m.Grid, 0)) {
				bk.newPage(bk.titles[len(bk.titles)-1])
			}
			bk.font(sansFont, "B", 10)
			bk.color(colInk)
			w := bk.text(marginX, bk.y, label, 10)
			bk.font(monoFont, "", 8)
			bk.color(colMuted)
			bk.text(marginX+w+8, bk.y+1.5, bk.fit(m.Base+" · "+byteCount(len(m.Bytes)), bk.cw-w-8), 8)
			bk.y += 18
			if listed {
				bk.indexErrors(m)
				bk.diffListing(diff, strings.ToLower(side), base, m)
				continue
			}
			bk.place("Byte grid", m.Grid, 0)
			bk.indexErrors(m)
			bk.place("Expanded tree", m.Tree, treeWidth)
		}
		bk.y += 6
	}
}

// Field table measures: the columns' widths (the about text takes the rest), text sizes and
// the line height.
const (
	fieldPathW  = 168.0 // 35 runes at 8 pt: the longest field name (34) on one line
	fieldTypeW  = 92.0
	fieldVersW  = 54.0
	fieldGap    = 8.0
	fieldMono   = 8.0 // no table text under 8 pt
	fieldSans   = 8.0
	fieldLead   = 10.0
	fieldHeadH  = 14.0
	fieldRowPad = 4.0
	headSize    = 8.0 // a table's column heads
)

// tableBreaks says before which rows a table of rows of heights hs goes on to a new page, from
// the y the first row starts at, the page's bottom and a new page's room for rows (below the
// repeated heads): a row goes on when it does not fit, and no page holds one row of a table of
// more where that can be helped (the first row alone at the bottom of a page: the table starts
// on the next; the last row alone on the next page: the row before it goes with it, when its
// page keeps two). breaks[i] is true before row i.
func tableBreaks(hs []float64, y, bottom, room float64) []bool {
	n := len(hs)
	breaks := make([]bool, n)
	if n > 1 && y+hs[0] <= bottom && y+hs[0]+hs[1] > bottom {
		breaks[0] = true
		y = bottom - room
	}
	start := 0 // the first row of the page
	for i := 0; i < n; i++ {
		if i == start || y+hs[i] <= bottom {
			y += hs[i]
			continue
		}
		if i == n-1 && i-start >= 3 && hs[i-1]+hs[i] <= room {
			i--
		}
		breaks[i] = true
		start, y = i, bottom-room+hs[i]
	}
	return breaks
}

// fieldTable prints a message's fields (fieldRows) as a table: path, type, versions and the
// schema's about text, each cell wrapped within its column (paths after a dot, mono text at a
// column's last rune, prose at words), rows kept whole and the heads repeated on a new page.
// Rows not in version v are grey.
func (bk *book) fieldTable(ft fieldTableView, v int16) {
	pdf := bk.pdf
	xs := []float64{0, fieldPathW + fieldGap, fieldPathW + fieldTypeW + 2*fieldGap, fieldPathW + fieldTypeW + fieldVersW + 3*fieldGap}
	aboutW := bk.cw - xs[3]
	rows := make([][4][]string, len(ft.Rows))
	height := func(r [4][]string) float64 {
		n := 1
		for _, c := range r {
			n = max(n, len(c))
		}
		return float64(n)*fieldLead + fieldRowPad + 1.5
	}
	for i, r := range ft.Rows {
		bk.font(sansFont, "", fieldSans)
		rows[i] = [4][]string{
			wrapPath(r.Parent+r.Name, mono.Fit(fieldPathW, fieldMono)),
			wrapPath(r.Type, mono.Fit(fieldTypeW, fieldMono)),
			pdf.SplitText(r.Versions, fieldVersW),
			pdf.SplitText(r.About, aboutW),
		}
		if r.About == "" {
			rows[i][3] = nil
		}
	}
	note := ft.File + " · " + plural(len(ft.Rows), "field")
	// The heading stays with the heads and two rows (one where there is one), and with all
	// three of a table of three: split anywhere, three rows leave one alone on a page.
	keep := 2
	if len(rows) == 3 {
		keep = 3
	}
	first := fieldHeadH
	for _, r := range rows[:min(len(rows), keep)] {
		first += height(r)
	}
	bk.section(ft.Title, note, first)
	pdf.Bookmark(ft.Title, 2, bk.y-24)
	if ft.Absent > 0 {
		bk.font(sansFont, "", 8)
		bk.color(colMuted)
		bk.text(marginX, bk.y-8, fmt.Sprintf("Grey rows are not in v%d.", v), 8)
		bk.y += 8
	}
	heads := func() {
		bk.font(sansFont, "B", headSize)
		bk.color(colMuted)
		for i, h := range []string{"Field", "Type", "Versions", "About"} {
			bk.text(marginX+xs[i], bk.y, h, headSize)
		}
		bk.y += fieldHeadH - 3
		bk.rule(bk.y - 2)
	}
	hs := make([]float64, len(rows))
	for i, r := range rows {
		hs[i] = height(r)
	}
	breaks := tableBreaks(hs, bk.y+fieldHeadH-3, bk.bottom, bk.bottom-marginTop-(fieldHeadH-3))
	if len(breaks) > 0 && breaks[0] {
		bk.newPage(bk.titles[len(bk.titles)-1])
	}
	heads()
	for i, r := range rows {
		h := hs[i]
		if i > 0 && breaks[i] {
			bk.newPage(bk.titles[len(bk.titles)-1])
			heads()
		}
		bk.indexAt(indexField, ft.Rows[i].Name)
		ink := colInk
		if ft.Rows[i].Absent {
			ink = colMuted
		}
		for c, lines := range r {
			size := fieldSans
			if c < 2 {
				size = fieldMono
			}
			bk.font(map[bool]string{true: monoFont, false: sansFont}[c < 2], "", size)
			par := 0 // runes of the path above the field still to draw (grey)
			if c == 0 && !ft.Rows[i].Absent {
				par = len([]rune(ft.Rows[i].Parent))
			}
			for k, l := range lines {
				x, y := marginX+xs[c], bk.y+1.5+float64(k)*fieldLead
				lr := []rune(l)
				if n := min(par, len(lr)); n > 0 {
					bk.color(colMuted)
					x += bk.text(x, y, string(lr[:n]), size)
					lr, par = lr[n:], par-n
				}
				bk.color(ink)
				bk.text(x, y, string(lr), size)
			}
		}
		bk.y += h
		bk.rule(bk.y - 2.5)
	}
	bk.y += 12
}

// wrapPath cuts a field path or type into lines of at most cols runes, after a dot or "[]"
// where one falls in the second half of a line (after "[]" anywhere), else at the line's last
// rune. The lines joined
// give the text back.
func wrapPath(s string, cols int) []string {
	rs := []rune(s)
	if cols < 1 {
		cols = 1
	}
	var out []string
	for len(rs) > cols {
		cut := cols
		for k := cols; k >= 2; k-- {
			if k > cols/2 && rs[k-1] == '.' || rs[k-2] == '[' && rs[k-1] == ']' {
				cut = k
				break
			}
		}
		out = append(out, string(rs[:cut]))
		rs = rs[cut:]
	}
	return append(out, string(rs))
}

// history draws an API's version history: each valid version, highest first, with its header
// versions and what changed in it, wrapped to the page.
func (bk *book) history(hist []versionInfo) {
	if len(hist) == 0 {
		return
	}
	pdf := bk.pdf
	bk.section("Versions", fmt.Sprintf("%d valid, what each changed", len(hist)), 40)
	const col = 34.0
	width := bk.w - 2*marginX - col
	for _, vi := range hist {
		bk.font(sansFont, "", 8.5)
		lines := pdf.SplitText(vi.changeSummary(), width)
		need := 12 + 11*float64(len(lines)) + 4
		if bk.y+need > bk.bottom {
			bk.newPage(bk.titles[len(bk.titles)-1])
		}
		y := bk.y
		bk.font(monoFont, "", 9)
		bk.color(colInk)
		bk.text(marginX, y, "v"+strconv.Itoa(int(vi.Version)), 9)
		bk.font(sansFont, "", 8.5)
		bk.color(colMuted)
		h := vi.Headers
		if vi.Flexible {
			h += "; flexible"
		}
		if vi.Deprecate {
			h += "; deprecated"
		}
		bk.text(marginX+col, y, bk.fit(h, width), 8.5)
		y += 12
		bk.color(colInk)
		for _, l := range lines {
			bk.text(marginX+col, y, l, 8.5)
			y += 11
		}
		bk.y = y + 4
	}
	bk.rule(bk.y)
	bk.y += 12
}

// badge draws a rounded label at (x, y) (top left) and returns its width.
func (bk *book) badge(x, y float64, s string, c style.RGB) float64 {
	pdf := bk.pdf
	bk.font(sansFont, "B", 8)
	w := pdf.GetStringWidth(s) + 10
	pdf.SetDrawColor(int(c.R), int(c.G), int(c.B))
	pdf.SetLineWidth(0.8)
	pdf.SetDashPattern(nil, 0)
	pdf.RoundedRect(x, y, w, 13, 6.5, "1234", "D")
	bk.color(c)
	bk.text(x+5, y+2.6, s, 8)
	return w
}

// facts draws label/value pairs in two columns and returns the y below them.
func (bk *book) facts(y float64, rows [][2]string) float64 {
	for _, r := range rows {
		bk.font(sansFont, "", 9.5)
		bk.color(colMuted)
		bk.text(marginX, y, r[0], 9.5)
		bk.color(colInk)
		// A long value (ApiVersions' header note) wraps at words within the page.
		w := bk.cw - 70
		line := ""
		for _, word := range strings.Fields(r[1]) {
			if next := strings.TrimSpace(line + " " + word); line != "" && bk.pdf.GetStringWidth(next) > w {
				bk.text(marginX+70, y, line, 9.5)
				y += 12
				line = word
			} else {
				line = next
			}
		}
		bk.text(marginX+70, y, bk.fit(line, w), 9.5)
		y += 14
	}
	return y
}

// section starts a headed section, on a new page unless keep points fit below the heading.
func (bk *book) section(title, note string, keep float64) {
	if bk.y+sectionH+keep > bk.bottom {
		bk.newPage(bk.titles[len(bk.titles)-1])
	}
	y := bk.y + 6
	bk.font(sansFont, "B", 14)
	bk.color(colInk)
	w := bk.text(marginX, y, title, 14)
	if note != "" {
		bk.font(monoFont, "", 8)
		bk.color(colMuted)
		bk.text(marginX+w+10, y+4.5, note, 8)
	}
	bk.y = y + sectionH - 6
}
