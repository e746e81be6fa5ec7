package reference

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"codeberg.org/go-pdf/fpdf"
	"golang.org/x/image/font/gofont/gobold"

	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/canvas/pdfcanvas"
	"github.com/kafkagrid/kafkagrid/internal/mono"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site"
	"github.com/kafkagrid/kafkagrid/style"
	"github.com/kafkagrid/kafkagrid/tree"
)

// The book's fonts: Go Regular and Go Bold for prose, Go Mono (pdfcanvas.MonoFamily) for
// diagrams and schemas. All are embedded as UTF-8 TrueType fonts.
const (
	sansFont = "gosans"
	monoFont = pdfcanvas.MonoFamily
)

// Book measures, in points.
const (
	marginX      = 48.0
	marginTop    = 58.0
	marginBottom = 52.0
	headerY      = 34.0 // baseline of the running header
	footerGap    = 26.0 // footer baseline above the bottom edge

	schemaSize = 6.6 // schema text
	schemaLead = 8.3 // schema line height
	tocLead    = 15.0
	captionH   = 16.0 // a drawing's caption and the gap below it
	sectionH   = 32.0 // a section heading and the gap below it
)

// Colours of the book's prose and schema text (the light, print values).
var (
	colInk     = style.Light(style.Ink)
	colMuted   = style.Light(style.Muted)
	colRule    = style.Light(style.Rule)
	colFlex    = style.RGB{R: 0x1a, G: 0x7f, B: 0x37}
	colUnst    = style.RGB{R: 0x9a, G: 0x67, B: 0x00}
	colComment = style.RGB{R: 0x6a, G: 0x73, B: 0x7d}
	colKey     = style.RGB{R: 0x05, G: 0x50, B: 0xae}
	colString  = style.RGB{R: 0x0a, G: 0x30, B: 0x69}
	colNumber  = style.RGB{R: 0x95, G: 0x38, B: 0x00}
	colLiteral = style.RGB{R: 0x82, G: 0x50, B: 0xdf}
)

// book lays out the PDF book page by page. Pages are added in reading order; the table of
// contents is reserved after the cover and filled in at the end, when the chapters' pages are
// known, and the running headers and footers ("page N of M") are drawn last of all.
type book struct {
	pdf     *fpdf.Fpdf
	paper   Paper
	release string
	source  string
	w, h    float64 // page size
	cw      float64 // content width
	bottom  float64 // lowest y content may reach
	y       float64 // the cursor: top of the next block

	titles   []string // running header of each page (index: page number)
	tocFirst int      // first page of the contents
	entries  []tocEntry
	lastCat  string
}

type tocEntry struct {
	category bool
	text     string
	key      int16
	version  int16
	link     int
	page     int
}

func (b *builder) writeBook(ctx context.Context, results []chan []*apiContent) error {
	return b.out.create(BookName(b.release), func(w io.Writer) error {
		bk, err := newBook(b.release, b.opts)
		if err != nil {
			return err
		}
		bk.cover(len(b.site))
		bk.reserveContents(b.site)
		bk.howToRead()
		st, err := builtinStoryView()
		if err != nil {
			return err
		}
		bk.story(st)
		for i, ch := range results {
			cs, ok := <-ch
			if !ok || len(cs) == 0 {
				if err := context.Cause(ctx); err != nil {
					return err
				}
				return fmt.Errorf("reference: book: a chapter is missing")
			}
			a := b.site[i]
			bk.chapter(cs, history(a, b.versions[a], -1))
			if err := bk.pdf.Error(); err != nil {
				return fmt.Errorf("reference: book: %s: %w", a.Name, err)
			}
		}
		bk.finish()
		if err := bk.pdf.Output(w); err != nil {
			return fmt.Errorf("reference: book: %w", err)
		}
		return nil
	})
}

func newBook(release string, opts Options) (*book, error) {
	p := opts.Paper
	pw, ph := p.Size()
	pdf, err := pdfcanvas.NewDocument(pdfcanvas.DocOptions{
		Width: float64(pw), Height: float64(ph), Date: opts.Date,
		Title:   "Apache Kafka " + release + " wire protocol reference",
		Subject: "Example frames, byte grids, trees and message schemas of every Kafka API",
	})
	if err != nil {
		return nil, fmt.Errorf("reference: book: %w", err)
	}
	pdf.SetMargins(marginX, marginTop, marginX)
	// Go Mono is registered by NewDocument (monoFont); the prose is in Go Regular and Bold.
	// fpdf's font subsetter writes into the font bytes it is given, so each document gets its
	// own copies: the shared TTFs stay intact and two builds give the same bytes.
	pdf.AddUTF8FontFromBytes(sansFont, "", bytes.Clone(mono.RegularTTF()))
	pdf.AddUTF8FontFromBytes(sansFont, "B", bytes.Clone(gobold.TTF))
	if err := pdf.Error(); err != nil {
		return nil, fmt.Errorf("reference: book: fonts: %w", err)
	}
	bk := &book{pdf: pdf, paper: p, release: release, source: opts.Source, w: float64(pw), h: float64(ph)}
	bk.cw = bk.w - 2*marginX
	bk.bottom = bk.h - marginBottom
	bk.titles = []string{""} // pages are numbered from 1
	return bk, nil
}

func (bk *book) font(family, styl string, size float64) {
	// fpdf skips SetFont when nothing changed, but a page revisited with SetPage has its own
	// graphics state: changing the size first forces the font into the page's stream.
	bk.pdf.SetFont(family, styl, size+1)
	bk.pdf.SetFont(family, styl, size)
}

func (bk *book) color(c style.RGB) {
	bk.pdf.SetTextColor(int(c.R), int(c.G), int(c.B))
}

func (bk *book) newPage(title string) {
	bk.pdf.AddPage()
	bk.titles = append(bk.titles, title)
	bk.y = marginTop
}

// text draws s with its top-left corner at (x, y) in the current font; returns its width.
func (bk *book) text(x, y float64, s string, size float64) float64 {
	bk.pdf.Text(x, y+size*0.8, s)
	return bk.pdf.GetStringWidth(s)
}

// fit cuts s with an ellipsis so that it is at most w wide in the current font.
func (bk *book) fit(s string, w float64) string {
	if bk.pdf.GetStringWidth(s) <= w {
		return s
	}
	rs := []rune(s)
	for len(rs) > 1 && bk.pdf.GetStringWidth(string(rs)+"…") > w {
		rs = rs[:len(rs)-1]
	}
	return string(rs) + "…"
}

func (bk *book) rule(y float64) {
	bk.pdf.SetDrawColor(int(colRule.R), int(colRule.G), int(colRule.B))
	bk.pdf.SetLineWidth(0.5)
	bk.pdf.SetDashPattern(nil, 0)
	bk.pdf.Line(marginX, y, bk.w-marginX, y)
}

// cover draws the title page: a band of byte cells in the group colours, the title, what the
// book holds and where it came from.
func (bk *book) cover(numAPIs int) {
	bk.newPage("")
	pdf := bk.pdf
	// The first rows of every request, drawn like a byte grid: a reminder of what is inside.
	cell := bk.cw / 32
	y := 120.0
	const rowH = 30.0
	fields := []struct {
		bits  int
		name  string
		color style.Role
	}{
		// Coloured by the book's own rule: framing near-white, the header's fields in the
		// header's one group colour.
		{32, "size", style.FrameFill}, {16, "RequestApiKey", style.Group(0)}, {16, "RequestApiVersion", style.Group(0)},
		{32, "CorrelationId", style.Group(0)}, {16, "ClientId length", style.FrameFill}, {16, "ClientId …", style.Group(0)},
	}
	bit := 0
	for _, f := range fields {
		x := marginX + float64(bit%32)*cell
		ry := y + float64(bit/32)*rowH
		w := float64(f.bits) * cell
		fill := style.Light(f.color)
		pdf.SetFillColor(int(fill.R), int(fill.G), int(fill.B))
		pdf.SetDrawColor(int(colInk.R), int(colInk.G), int(colInk.B))
		pdf.SetLineWidth(0.6)
		pdf.Rect(x, ry, w, rowH, "FD")
		bk.font(monoFont, "", 9)
		bk.color(colInk)
		bk.text(x+(w-mono.Width(f.name, 9))/2, ry+(rowH-9)/2, f.name, 9)
		bit += f.bits
	}
	row := bit / 32
	pdf.SetDrawColor(int(colMuted.R), int(colMuted.G), int(colMuted.B))
	pdf.SetLineWidth(0.4)
	for i := 0; i <= 32; i++ {
		tx := marginX + float64(i)*cell
		l := 3.0
		if i%8 == 0 {
			l = 6
		}
		pdf.Line(tx, y-2-l, tx, y-2)
	}
	bk.font(monoFont, "", 7)
	bk.color(colMuted)
	for i := 0; i < 32; i += 8 {
		bk.text(marginX+float64(i)*cell+1, y-18, strconv.Itoa(i), 7)
	}
	y += float64(row)*rowH + 70

	bk.color(colInk)
	bk.font(sansFont, "B", 34)
	bk.text(marginX, y, "Apache Kafka "+bk.release, 34)
	y += 46
	bk.font(sansFont, "", 22)
	bk.text(marginX, y, "Wire protocol reference", 22)
	y += 50
	bk.font(sansFont, "", 11)
	bk.color(colMuted)
	for _, line := range []string{
		fmt.Sprintf("Every API of the release (%d in all), each with a minimal example request and", numAPIs),
		"response at its highest valid version, encoded byte for byte and drawn as an RFC-style",
		"byte grid and an expanded tree, followed by the message schemas they come from.",
	} {
		bk.text(marginX, y, line, 11)
		y += 16
	}
	bk.font(sansFont, "", 9)
	y = bk.h - 120
	bk.rule(y)
	y += 12
	bk.text(marginX, y, bk.fit("Source: "+bk.source, bk.cw), 9)
	y += 14
	bk.text(marginX, y, "Built by kafkagrid from Apache Kafka's JSON message schemas. Apache Kafka is a trademark of the", 9)
	y += 12
	bk.text(marginX, y, "Apache Software Foundation.", 9)
	pdf.Bookmark("Cover", 0, 0)
}

// tocSlot is where a contents line goes: page (relative to the first contents page) and y.
type tocSlot struct {
	page int
	y    float64
}

// tocLayout places the contents lines: a heading on the first page, then lines, a category
// heading taking one and a half lines and never ending a page.
func (bk *book) tocLayout(entries []tocEntry) []tocSlot {
	slots := make([]tocSlot, len(entries))
	page, y := 0, marginTop+44
	for i, e := range entries {
		need := tocLead
		if e.category {
			need = tocLead * 1.6
			if i > 0 {
				y += tocLead * 0.4
			}
			need += tocLead // keep with the first API line
		}
		if y+need > bk.bottom {
			page++
			y = marginTop
			if e.category {
				y -= tocLead * 0.4
			}
		}
		if e.category {
			y += tocLead * 0.6
		}
		slots[i] = tocSlot{page, y}
		y += tocLead
	}
	return slots
}

// reserveContents adds the blank pages the table of contents will take.
func (bk *book) reserveContents(apis []*kafka.API) {
	// The chapters before the APIs', set like a category heading (see frontChapter).
	for _, t := range frontChapters {
		bk.entries = append(bk.entries, tocEntry{category: true, text: t, link: bk.pdf.AddLink()})
	}
	cat := ""
	for _, a := range apis {
		if a.Category != cat {
			cat = a.Category
			bk.entries = append(bk.entries, tocEntry{category: true, text: cat, link: bk.pdf.AddLink()})
		}
		bk.entries = append(bk.entries, tocEntry{text: a.Name, key: a.Key, version: a.Version, link: bk.pdf.AddLink()})
	}
	slots := bk.tocLayout(bk.entries)
	pages := 1
	if n := len(slots); n > 0 {
		pages = slots[n-1].page + 1
	}
	for i := 0; i < pages; i++ {
		bk.newPage("Contents")
		if i == 0 {
			bk.tocFirst = bk.pdf.PageNo()
			bk.pdf.Bookmark("Contents", 0, 0)
		}
	}
}

// frontChapters are the titles of the chapters before the APIs', in order.
var frontChapters = []string{howToReadTitle, storyTitle}

const (
	howToReadTitle = "How to read this book"
	storyTitle     = "The cluster in these examples"
)

// frontChapter starts a chapter before the APIs' on a new page: its outline entry, its
// contents line pointed at the page, and its title; it returns the y of the title's line.
func (bk *book) frontChapter(title string) (y float64) {
	bk.newPage(title)
	bk.pdf.Bookmark(title, 0, 0)
	page := bk.pdf.PageNo()
	for i := range bk.entries {
		if e := &bk.entries[i]; e.category && e.text == title && e.page == 0 {
			e.page = page
			bk.pdf.SetLink(e.link, 0, page)
			break
		}
	}
	bk.font(sansFont, "B", 20)
	bk.color(colInk)
	bk.text(marginX, marginTop, title, 20)
	return marginTop
}

// howToRead prints the guide to the drawings as a chapter of its own, going on to a next
// page between lines when it does not fit.
func (bk *book) howToRead() {
	y := bk.frontChapter(howToReadTitle) + 44
	const size, lead = 10.5, 15.5
	for _, p := range guide {
		if y+2*lead > bk.bottom {
			bk.newPage(howToReadTitle)
			y = marginTop
		}
		bk.font(sansFont, "B", size)
		bk.color(colInk)
		lw := bk.text(marginX, y, p[0], size) + 4
		bk.font(sansFont, "", size)
		bk.color(colInk)
		x := marginX + lw
		for _, word := range strings.Fields(guideText(p[1])) {
			w := bk.pdf.GetStringWidth(word)
			if x+w > marginX+bk.cw {
				x = marginX
				y += lead
				if y+lead > bk.bottom {
					bk.newPage(howToReadTitle)
					y = marginTop
					bk.font(sansFont, "", size)
					bk.color(colInk)
				}
			}
			bk.text(x, y, word, size)
			x += w + bk.pdf.GetStringWidth(" ")
		}
		y += lead * 1.7
	}
	bk.y = y
}

// wrap draws text in the current font from (x, y), wrapped at words to width w, and returns
// the y below it.
func (bk *book) wrap(x, y, w float64, text string, size, lead float64) float64 {
	for _, l := range bk.pdf.SplitText(text, w) {
		bk.text(x, y, l, size)
		y += lead
	}
	return y
}

// story prints the cluster of the examples (storyView) as a chapter of its own: what it is for,
// its facts, and its partitions as a table.
func (bk *book) story(st *storyView) {
	const title = storyTitle
	y := bk.frontChapter(title) + 40
	const size, lead = 10.5, 15.5
	bk.font(sansFont, "", size)
	y = bk.wrap(marginX, y, bk.cw, st.Lead, size, lead) + lead*0.8
	const labelW = 92.0
	for _, f := range st.Facts {
		bk.font(sansFont, "B", 9.5)
		bk.color(colInk)
		bk.text(marginX, y, f[0], 9.5)
		bk.font(sansFont, "", 9.5)
		y = bk.wrap(marginX+labelW, y, bk.cw-labelW, f[1], 9.5, 13) + 5
	}
	y += 10
	bk.font(sansFont, "B", 12)
	bk.color(colInk)
	bk.text(marginX, y, "Partitions", 12)
	y += 22
	// Columns: the partition's name, then five short numbers or lists.
	xs := []float64{0, 90, 150, 200, 280, 360}
	bk.font(sansFont, "B", 8.5)
	bk.color(colMuted)
	for i, h := range storyHeads {
		bk.text(marginX+xs[i], y, h, 8.5)
	}
	y += 13
	bk.rule(y - 2)
	for _, p := range st.Partitions {
		styl := ""
		if p.Log {
			styl = "B"
		}
		bk.color(colInk)
		for i, c := range p.cells() {
			if i == 0 {
				bk.font(monoFont, "", 9)
			} else {
				bk.font(sansFont, styl, 9.5)
			}
			bk.text(marginX+xs[i], y+2, c, 9.5)
		}
		y += 16
		bk.rule(y - 2)
	}
	y += 8
	bk.font(sansFont, "", 9)
	bk.color(colMuted)
	bk.text(marginX, y, "The partition in bold is the log the producer writes to and Fetch reads.", 9)
	bk.y = y + 20
}

// finish fills in the contents and draws every page's running header and footer.
func (bk *book) finish() {
	pdf := bk.pdf
	slots := bk.tocLayout(bk.entries)
	for i, e := range bk.entries {
		s := slots[i]
		pdf.SetPage(bk.tocFirst + s.page)
		if i == 0 || slots[i-1].page != s.page {
			bk.font(sansFont, "B", 20)
			bk.color(colInk)
			if s.page == 0 {
				bk.text(marginX, marginTop, "Contents", 20)
			}
		}
		pageText := strconv.Itoa(e.page)
		if e.category {
			bk.font(sansFont, "B", 11.5)
			bk.color(colInk)
			bk.text(marginX, s.y, e.text, 11.5)
			bk.font(sansFont, "", 10)
			bk.color(colMuted)
			w := pdf.GetStringWidth(pageText)
			bk.text(bk.w-marginX-w, s.y+1, pageText, 10)
			pdf.Link(marginX, s.y-2, bk.cw, tocLead, e.link)
			continue
		}
		bk.font(monoFont, "", 9)
		bk.color(colMuted)
		key := fmt.Sprintf("%3d", e.key)
		bk.text(marginX+8, s.y+1, key, 9)
		bk.font(sansFont, "", 10.5)
		bk.color(colInk)
		nx := marginX + 8 + mono.Width(key, 9) + 10
		nw := bk.text(nx, s.y, e.text, 10.5)
		bk.font(sansFont, "", 9)
		bk.color(colMuted)
		vs := "v" + strconv.Itoa(int(e.version))
		vw := bk.text(nx+nw+6, s.y+1.2, vs, 9)
		bk.font(sansFont, "", 10.5)
		pw := pdf.GetStringWidth(pageText)
		// Dot leaders between the name and the page number.
		lx, rx := nx+nw+6+vw+8, bk.w-marginX-pw-6
		pdf.SetFillColor(int(colRule.R), int(colRule.G), int(colRule.B))
		for x := rx - 0.6; x > lx; x -= 4 {
			pdf.Circle(x, s.y+9, 0.45, "F")
		}
		bk.color(colInk)
		bk.text(bk.w-marginX-pw, s.y, pageText, 10.5)
		pdf.Link(marginX, s.y-2, bk.cw, tocLead, e.link)
	}
	contents := pdf.AddLink()
	pdf.SetLink(contents, 0, bk.tocFirst)
	n := pdf.PageCount()
	for p := 2; p <= n; p++ {
		pdf.SetPage(p)
		bk.font(sansFont, "", 8)
		bk.color(colMuted)
		hw := bk.text(marginX, headerY-8, "Apache Kafka "+bk.release+" wire protocol", 8)
		if p != bk.tocFirst {
			pdf.Link(marginX, headerY-10, hw, 12, contents) // back to the contents
		}
		if t := bk.titles[p]; t != "" {
			bk.font(sansFont, "B", 8)
			bk.color(colInk)
			w := pdf.GetStringWidth(t)
			bk.text(bk.w-marginX-w, headerY-8, t, 8)
		}
		bk.rule(headerY + 4)
		bk.font(sansFont, "", 8)
		bk.color(colMuted)
		f := fmt.Sprintf("page %d of %d", p, n)
		w := pdf.GetStringWidth(f)
		bk.text((bk.w-w)/2, bk.h-footerGap-8, f, 8)
	}
	pdf.SetPage(n)
}

// chapter lays out one API, starting on a new page: its facts, its version history, the
// request and response of each version in the book (cs, highest first), and its schemas.
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
			bk.place("Expanded tree", m.Tree, treeWidth)
			bk.hexDump(m.Bytes)
		}
	}
	bk.edgeCases(cs[0].Edges)
	for _, ft := range fieldTables(a.Request, a.Response, cs[0].Version) {
		bk.fieldTable(ft, cs[0].Version)
	}
	bk.schema("Request schema", a.Request.File, a.Request.Raw)
	bk.schema("Response schema", a.Response.File, a.Response.Raw)
}

// edgeCases draws an API's edge cases after its example: for each, its title, what it shows,
// and the byte grid and tree of each of its frames.
func (bk *book) edgeCases(edges []*edgeContent) {
	if len(edges) == 0 {
		return
	}
	pdf := bk.pdf
	const size, lead = 9, 12.5
	for i, e := range edges {
		bk.font(sansFont, "", size)
		about := pdf.SplitText(e.Case.About, bk.cw)
		// The heading, the title and the text stay together, with room for a first part of a drawing.
		need := 22 + lead*float64(len(about)) + 60
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
			if bk.breaksBefore(m.Grid, bk.y+captionH, bk.scaleOf(m.Grid, 0)) {
				bk.newPage(bk.titles[len(bk.titles)-1])
			}
			bk.font(sansFont, "B", 10)
			bk.color(colInk)
			w := bk.text(marginX, bk.y, label, 10)
			bk.font(monoFont, "", 7.5)
			bk.color(colMuted)
			bk.text(marginX+w+8, bk.y+1.5, bk.fit(m.Base+" · "+byteCount(len(m.Bytes)), bk.cw-w-8), 7.5)
			bk.y += 18
			bk.place("Byte grid", m.Grid, 0)
			bk.place("Expanded tree", m.Tree, treeWidth)
		}
		bk.y += 6
	}
}

// Field table measures: the columns' widths (the about text takes the rest), text sizes and
// the line height.
const (
	fieldPathW  = 152.0
	fieldTypeW  = 92.0
	fieldVersW  = 54.0
	fieldGap    = 8.0
	fieldMono   = 6.6
	fieldSans   = 7.5
	fieldLead   = 9.2
	fieldHeadH  = 14.0
	fieldRowPad = 4.0
)

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
	first := fieldHeadH
	if len(rows) > 0 {
		first += height(rows[0])
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
		bk.font(sansFont, "B", 7.5)
		bk.color(colMuted)
		for i, h := range []string{"Field", "Type", "Versions", "About"} {
			bk.text(marginX+xs[i], bk.y, h, 7.5)
		}
		bk.y += fieldHeadH - 3
		bk.rule(bk.y - 2)
	}
	heads()
	for i, r := range rows {
		h := height(r)
		if bk.y+h > bk.bottom {
			bk.newPage(bk.titles[len(bk.titles)-1])
			heads()
		}
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

// treeWidth is the width every tree of the book is drawn as if it had: one scale for all
// trees (the page width over treeWidth: 7.5 pt text on A4), so that their text is the same size
// in every chapter. It holds nine in ten trees of a release whole (their widths at 12 pt run
// from about 500 to 930 points, the tenth widest 800). A wider tree is not shrunk: it is
// printed in two column windows at the same scale (treeWindows), the second continuing the
// first.
const treeWidth = 800

// scaleOf returns the scale d is drawn at: the page width over the wider of d and ref (0 for
// d's own width), never enlarged. For trees (ref treeWidth) place keeps this scale also when d
// is wider, cutting it into column windows.
func (bk *book) scaleOf(d drawing, ref float64) float64 {
	w, _ := d.size()
	return min(1, bk.cw/max(w, ref))
}

// span is a run of a drawing's x coordinates, [from, to).
type span struct{ from, to float64 }

// window is a horizontal slice of a drawing printed as one: its spans of the drawing's x, side
// by side, and a caption note.
type window struct {
	spans []span
	note  string
}

// treeWindows cuts a tree wider than ref into column windows at most ref wide, cut between
// columns, never in one: the first holds the Name column (the tree itself: labels and values)
// and as many columns after it as fit; the second the Name column again, so that each row is
// still known, and the columns left, joined with a dashed rule. It returns nil when the tree is
// not wider than ref, is not a tree, or cannot be cut so (a Name column near ref wide), and the
// caller then scales it down to fit instead.
func treeWindows(d drawing, ref float64) []window {
	t, ok := d.Drawing.(*tree.Diagram)
	w, _ := d.size()
	if !ok || w <= ref || len(t.Columns) < 2 {
		return nil
	}
	cols := t.Columns
	// edge(i) is the boundary after column i: midway to the next column, the drawing's edge
	// after the last.
	edge := func(i int) float64 {
		if i+1 >= len(cols) {
			return w
		}
		return float64(cols[i].X+cols[i].W+cols[i+1].X) / 2
	}
	k := 0 // the last column of the first window
	for k+1 < len(cols) && edge(k+1) <= ref {
		k++
	}
	if k == 0 || k+1 >= len(cols) {
		return nil
	}
	first := window{spans: []span{{0, edge(k)}}}
	second := window{spans: []span{{0, edge(0)}, {edge(k), w}}}
	if edge(0)+w-edge(k) > ref {
		return nil
	}
	var names []string
	for _, c := range cols[k+1:] {
		names = append(names, c.Name)
	}
	rest := strings.Join(names, ", ")
	if len(names) == 1 {
		first.note = " (its " + rest + " column follows it)"
	} else {
		first.note = " (its " + rest + " columns follow it)"
	}
	second.note = ": " + cols[0].Name + " and " + rest
	return []window{first, second}
}

// place draws a drawing scaled to the page width as if it were ref wide (scaleOf; never
// enlarged), split between rows across pages when it does not fit. A tree wider than ref is
// printed at the same scale in column windows (treeWindows), one after the other.
func (bk *book) place(caption string, d drawing, ref float64) {
	w, _ := d.size()
	if w <= 0 {
		return
	}
	scale := bk.scaleOf(d, ref)
	wins := treeWindows(d, ref)
	if len(wins) > 0 {
		scale = min(1, bk.cw/ref)
	} else {
		wins = []window{{spans: []span{{0, w}}}}
	}
	for wi, win := range wins {
		if bk.breaksBefore(d, bk.y, scale) {
			bk.newPage(bk.titles[len(bk.titles)-1])
		}
		parts := func(s float64) []canvas.Span {
			return canvas.Paginate(d, canvas.Pt((bk.bottom-bk.y-captionH)/s), canvas.Pt((bk.bottom-marginTop-captionH)/s))
		}
		ps := parts(scale)
		// A drawing that runs a page longer only by its last few rows (a page holding one
		// grid row) is drawn a little smaller instead (bookShrinkSteps).
		if len(ps) > 1 && len(wins) == 1 {
			for _, f := range bookShrinkSteps {
				if q := parts(scale * f); len(q) < len(ps) {
					scale *= f
					ps = q
					break
				}
			}
		}
		for i, p := range ps {
			if i > 0 {
				bk.newPage(bk.titles[len(bk.titles)-1])
			}
			cap := caption + win.note
			switch {
			case wi > 0 && i == 0:
				cap = caption + ", continued" + win.note
			case i > 0:
				cap += " (continued)"
			}
			bk.caption(cap)
			h := float64(d.PartHeight(p.From, p.To)) * scale
			x := marginX
			for si, sp := range win.spans {
				sw := (sp.to - sp.from) * scale
				clip := len(win.spans) > 1 || sp.from > 0 || sp.to < w
				if clip {
					bk.pdf.ClipRect(x, bk.y, sw, h, false)
					// The clip's q…Q restores the page's font; make fpdf set the drawing's anew.
					bk.pdf.SetFont(sansFont, "", 1)
				}
				var err error
				if clip {
					// Only the text runs inside the span are written: the clip hides the others,
					// but a reader's search and copy would still find them.
					c := pdfcanvas.New(bk.pdf, x-sp.from*scale, bk.y, scale, pdfcanvas.Options{})
					d.PaintRows(spanCanvas{c, canvas.Pt(sp.from), canvas.Pt(sp.to)}, p.From, p.To)
					err = c.Close()
					bk.pdf.ClipEnd()
				} else {
					_, err = pdfcanvas.Place(bk.pdf, d.Drawing, pdfcanvas.Placement{Rows: p, X: x, Y: bk.y, Scale: scale})
				}
				if err != nil {
					return // fpdf keeps the error; the chapter loop reports it
				}
				if si > 0 {
					// The join between windows: a dashed rule where columns were left out.
					bk.pdf.SetDrawColor(int(colMuted.R), int(colMuted.G), int(colMuted.B))
					bk.pdf.SetLineWidth(0.6)
					bk.pdf.SetDashPattern([]float64{2, 2}, 0)
					bk.pdf.Line(x, bk.y, x, bk.y+h)
					bk.pdf.SetDashPattern(nil, 0)
				}
				x += sw
			}
			bk.y += h + 14
		}
	}
}

// spanCanvas passes on the text runs that lie within [from, to] of a drawing's x and drops the
// others; shapes pass whole (the window's clip cuts them). Text is Go Mono, so a run's width
// is measured as every painter measures it.
type spanCanvas struct {
	canvas.Canvas
	from, to canvas.Pt
}

func (s spanCanvas) Text(x, y canvas.Pt, t canvas.Text) {
	w := canvas.Pt(mono.Width(t.S, float64(t.Size)))
	l := x
	switch t.Anchor {
	case canvas.Middle:
		l -= w / 2
	case canvas.End:
		l -= w
	}
	if l >= s.from-0.5 && l+w <= s.to+0.5 {
		s.Canvas.Text(x, y, t)
	}
}

// breaksBefore reports whether place, called with the cursor at y, would start d on a new
// page: when little of the page is left, or when d would fit whole on a fresh page but less
// than a third of it fits here; never while the cursor is above the middle of the text area,
// which would leave a page more than half blank.
func (bk *book) breaksBefore(d drawing, y, scale float64) bool {
	w, h := d.size()
	if w <= 0 {
		return false
	}
	h *= scale
	first := bk.bottom - y - captionH
	full := bk.bottom - marginTop - captionH
	if h <= first {
		return false
	}
	if y < marginTop+(bk.bottom-marginTop)/2 {
		return false // a page would end above half its text area: split the drawing instead
	}
	return first < 0.15*full || (h <= full && first < 0.3*h)
}

// bookShrinkSteps are the scales, relative to its own, a drawing may take in the book to end
// a page sooner (place): at most 10% smaller, so its text stays over 7 pt.
var bookShrinkSteps = []float64{0.97, 0.94, 0.9}

// hexDump prints a frame's bytes as a hex dump (offset, 16 bytes, their ASCII), after its
// drawings, in the schema's small mono; it moves whole to the next page when it would leave
// fewer than four lines here.
func (bk *book) hexDump(b []byte) {
	lines := strings.Split(strings.TrimRight(site.HexDump(b), "\n"), "\n")
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

func (bk *book) caption(s string) {
	bk.font(sansFont, "B", 8.5)
	bk.color(colMuted)
	bk.text(marginX, bk.y, s, 8.5)
	bk.y += captionH
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
