package reference

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"runtime/trace"
	"strconv"
	"strings"

	"codeberg.org/go-pdf/fpdf"
	"golang.org/x/image/font/gofont/gobold"

	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/canvas/pdfcanvas"
	"github.com/kafkagrid/kafkagrid/internal/mono"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/style"
)

// The book's fonts: Go Regular and Go Bold for prose, Go Mono (pdfcanvas.MonoFamily) for
// diagrams, listings and field paths. All are embedded as UTF-8 TrueType fonts.
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

	schemaSize = 7.0 // hex dump text: no dump under 7 pt
	schemaLead = 8.8 // hex dump line height
	tocLead    = 15.0
	captionH   = 16.0 // a drawing's caption and the gap below it
	sectionH   = 32.0 // a section heading and the gap below it
)

// Colours of the book's prose (the light, print values).
var (
	colInk   = style.Light(style.Ink)
	colMuted = style.Light(style.Muted)
	colRule  = style.Light(style.Rule)
	colFlex  = style.RGB{R: 0x1a, G: 0x7f, B: 0x37}
	colUnst  = style.RGB{R: 0x9a, G: 0x67, B: 0x00}
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
	index    map[indexKey][]int // the index's entries: their pages in order (indexAt)
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
	return b.out.Create(BookName(b.release), func(w io.Writer) error {
		bk, err := newBook(b.release, b.opts)
		if err != nil {
			return err
		}
		bk.cover(len(b.site))
		bk.reserveContents(b.site)
		ga, gm, err := b.guideMessage(PDF)
		if err != nil {
			return err
		}
		bk.howToRead(ga, gm)
		ps, err := b.primitives()
		if err != nil {
			return err
		}
		bk.primitivesChapter(ps)
		st, err := builtinStoryView()
		if err != nil {
			return err
		}
		bk.story(st)
		for i, ch := range results {
			var cs []*apiContent
			var ok bool
			trace.WithRegion(ctx, "book: wait for a chapter", func() { cs, ok = <-ch })
			if !ok || len(cs) == 0 {
				if err := context.Cause(ctx); err != nil {
					return err
				}
				return fmt.Errorf("reference: book: a chapter is missing")
			}
			a := b.site[i]
			trace.WithRegion(ctx, "book: chapter", func() { bk.chapter(cs, history(a, b.versions[a], -1)) })
			if err := bk.pdf.Error(); err != nil {
				return fmt.Errorf("reference: book: %s: %w", a.Name, err)
			}
		}
		bk.errorsChapter(errorCodeRows(b.site, func(*kafka.API) string { return "" }))
		trace.WithRegion(ctx, "book: index, headers and footers", func() {
			bk.indexChapter()
			bk.finish()
		})
		defer trace.StartRegion(ctx, "book: output").End()
		if err := pdfcanvas.Output(bk.pdf, w); err != nil {
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
		Subject: "Example frames, byte grids, trees and the message schemas' fields of every Kafka API",
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

// font selects a face and size. fpdf writes every SetFont into the page's stream, even one
// already in force, so the font is right on a page revisited with SetPage too.
func (bk *book) font(family, styl string, size float64) {
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
		"byte grid and an expanded tree, followed by the fields of its message schemas.",
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
	for _, t := range []string{errorsTitle, indexTitle} { // the chapters after the APIs'
		bk.entries = append(bk.entries, tocEntry{category: true, text: t, link: bk.pdf.AddLink()})
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
var frontChapters = []string{howToReadTitle, primitivesTitle, storyTitle}

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

// howToRead prints the guide to the drawings as a chapter of its own: its figure (guideFig),
// then its paragraphs, going on to a next page between lines when they do not fit.
func (bk *book) howToRead(a *kafka.API, fig *message) {
	y := bk.frontChapter(howToReadTitle) + 44
	const size, lead = 10.5, 15.5
	if fig != nil {
		bk.y = y
		bk.guideFig(a, fig)
		y = bk.y
	}
	for _, p := range guide {
		if p[0] == guideSchemas[0] {
			p = bookSchemas
		}
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

// guideFig draws the guide's figure, the ApiVersions request's byte grid, with the number of
// each callout (guideCallouts) in the margin beside the row of its field, and under it the
// callouts as a list with the same numbers. A row is found by its field's offset, four bytes
// a row; a grid with rows left out (none in ApiVersions) gets no numbers, nor a callout whose
// field the frame lacks: the list leaves those numbers out too.
func (bk *book) guideFig(a *kafka.API, m *message) {
	d := m.Grid
	w, h := figSize(d)
	scale := bk.scaleOf(d, 0)
	if w <= 0 || bk.y+captionH+h*scale > bk.bottom {
		return // it would not fit a page: the paragraphs say it all
	}
	bk.caption(fmt.Sprintf("The ApiVersions v%d request (%s), the first request on every connection", a.Version, byteCount(len(m.Bytes))))
	top := bk.y
	if _, err := pdfcanvas.Place(bk.pdf, d.Drawing, pdfcanvas.Placement{Rows: canvas.Span{From: 0, To: d.NumRows()}, X: marginX, Y: top, Scale: scale}); err != nil {
		return // fpdf keeps the error; writeBook reports it
	}
	bk.y = top + h*scale + 10
	offsets := map[string]int{}
	for _, f := range m.Fields {
		offsets[f.Path] = f.Offset
	}
	// rowMid is the middle of the row of byte off on the page: four bytes a row, in a grid
	// that says where its rows lie (canvas.Rowed) and left none out.
	var spans []canvas.RowSpan
	if r, ok := d.Drawing.(canvas.Rowed); ok {
		spans = r.RowSpans()
	}
	plain := len(spans) == (len(m.Bytes)+3)/4
	rowMid := func(off int) float64 {
		r := spans[off/4]
		return top + float64(r.Y+r.H/2)*scale
	}
	marked := make([]bool, len(guideCallouts))
	for k, c := range guideCallouts {
		off, ok := offsets[c[2]]
		if !plain || !ok {
			continue
		}
		marked[k] = true
		bk.calloutMark(marginX-16, rowMid(off), k+1)
	}
	const size, lead = 9.5, 13.5
	indent := 22.0
	for k, c := range guideCallouts {
		bk.font(sansFont, "", size)
		text := guideText(c[1])
		lines := bk.pdf.SplitText(c[0]+": "+text, bk.cw-indent)
		if bk.y+lead*float64(len(lines)) > bk.bottom {
			bk.newPage(howToReadTitle)
		}
		if marked[k] {
			bk.calloutMark(marginX+7, bk.y+size*0.45, k+1)
		}
		// The field names in bold, then the text: the first line drawn in two runs.
		bk.font(sansFont, "B", size)
		bk.color(colInk)
		lw := bk.text(marginX+indent, bk.y, c[0]+":", size)
		bk.font(sansFont, "", size)
		rest := bk.pdf.SplitText(text, bk.cw-indent-lw-3)
		if len(rest) > 0 {
			bk.text(marginX+indent+lw+3, bk.y, rest[0], size)
			bk.y += lead
			rest = bk.pdf.SplitText(strings.TrimSpace(strings.TrimPrefix(text, rest[0])), bk.cw-indent)
		}
		for _, l := range rest {
			bk.text(marginX+indent, bk.y, l, size)
			bk.y += lead
		}
		bk.y += 3
	}
	bk.y += 14
}

// calloutMark draws callout number n in a dark disc centred at (x, y).
func (bk *book) calloutMark(x, y float64, n int) {
	const r = 6.0
	bk.pdf.SetFillColor(int(colInk.R), int(colInk.G), int(colInk.B))
	bk.pdf.Circle(x, y, r, "F")
	s := strconv.Itoa(n)
	bk.font(sansFont, "B", 8)
	bk.pdf.SetTextColor(255, 255, 255)
	bk.text(x-bk.pdf.GetStringWidth(s)/2, y-4.1, s, 8)
	bk.color(colInk)
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
