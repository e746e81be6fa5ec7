package reference

import (
	"context"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"path"
	"runtime"
	"runtime/trace"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/canvas/svgcanvas"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site"
	"github.com/kafkagrid/kafkagrid/site/kafkaview"
	"github.com/kafkagrid/kafkagrid/site/outdir"
)

// Format is a set of output formats.
type Format uint

// The output formats.
const (
	SVG        Format = 1 << iota // svg/<base>-{grid,tree}.svg
	HTML                          // index.html and api/<Name>.html
	PDF                           // kafka-<release>-protocol.pdf
	Bin                           // bin/<base>.bin
	JSON                          // json/<base>.json
	Text                          // txt/<base>.txt
	AllFormats = SVG | HTML | PDF | Bin | JSON | Text
)

// formatNames are the formats' names, site.Formats' (the one table of names, extensions and
// media types), in the order String lists them.
var formatNames = []struct {
	name string
	f    Format
}{{site.FormatSVG.Name, SVG}, {site.FormatHTML.Name, HTML}, {site.FormatPDF.Name, PDF},
	{site.FormatBin.Name, Bin}, {site.FormatJSON.Name, JSON}, {site.FormatText.Name, Text}}

// FormatNamed returns the format a name or alias of site.Formats names ("svg", "TEXT"), when
// it is one the reference writes.
func FormatNamed(name string) (Format, bool) {
	sf, ok := site.LookupFormat(name)
	if !ok {
		return 0, false
	}
	for _, n := range formatNames {
		if n.name == sf.Name {
			return n.f, true
		}
	}
	return 0, false
}

// ParseFormats parses a comma-separated list of format names (svg,html,pdf,bin,json,txt);
// "" and "all" mean every format.
func ParseFormats(s string) (Format, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "all" {
		return AllFormats, nil
	}
	var f Format
	for _, part := range strings.Split(s, ",") {
		part = strings.ToLower(strings.TrimSpace(part))
		one, ok := FormatNamed(part)
		if !ok {
			return 0, fmt.Errorf("reference: unknown format %q (want svg, html, pdf, bin, json or txt)", part)
		}
		f |= one
	}
	return f, nil
}

// String returns the formats as ParseFormats reads them.
func (f Format) String() string {
	var parts []string
	for _, n := range formatNames {
		if f&n.f != 0 {
			parts = append(parts, n.name)
		}
	}
	return strings.Join(parts, ",")
}

// Paper is a page size of the PDF book. The zero value is A4.
type Paper int

// The paper sizes.
const (
	A4     Paper = iota // 210 × 297 mm
	Letter              // 8.5 × 11 in
)

// Size returns the page's width and height in points.
func (p Paper) Size() (w, h canvas.Pt) {
	if p == Letter {
		return 612, 792
	}
	return 595.28, 841.89
}

// String returns the paper's name as ParsePaper reads it.
func (p Paper) String() string {
	if p == Letter {
		return "letter"
	}
	return "a4"
}

// ParsePaper returns the paper named s: "a4" (also "") or "letter".
func ParsePaper(s string) (Paper, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "a4":
		return A4, nil
	case "letter", "us-letter":
		return Letter, nil
	}
	return A4, fmt.Errorf("reference: unknown paper %q (want a4 or letter)", s)
}

// Options configure Build. The zero value builds every format of every API.
type Options struct {
	Formats Format   // 0 means AllFormats
	APIs    []string // names or keys of the APIs to build (Catalog.Lookup); empty means all
	Paper   Paper    // the book's page size (the zero value is A4)
	// Date is the PDF book's creation and modification date; zero means pdfcanvas.DefaultDate. The
	// command sets it from SOURCE_DATE_EPOCH.
	Date time.Time
	// Source says where the schemas came from, for the index and the book's cover.
	Source string
	// Progress, when not nil, receives one line per API as it is done ("\r" separated, for a
	// terminal).
	Progress io.Writer
	// Temps, when not nil, records the temporary files the build has open (see outdir.Temps).
	Temps *outdir.Temps
	// Force lets the build replace files in the output folder that no kafkagrid build wrote
	// there (not in its manifest); without it, such a file stops the build.
	Force bool
	// Verbose, when not nil, receives one line per example override left out of a frame because
	// the release or version lacks its field (kafka.Skip).
	Verbose io.Writer
	// Workers is how many APIs are built at once; 0 means GOMAXPROCS.
	Workers int
	// Versions selects the versions of each API to build (files and pages); the zero value is
	// each API's highest. An API with none of them is left out.
	Versions kafka.VersionSet
	// BookVersions selects the versions the book has a chapter part for; the zero value is
	// each API's highest.
	BookVersions kafka.VersionSet
	// Compression compresses the examples' record batches (Produce, Fetch, ...) with a codec;
	// Xerial writes snappy in the xerial framing.
	Compression kafka.Codec
	Xerial      bool
	// Decoder, when not nil, holds the browser decoder (DecoderWASM and DecoderGlue): a build
	// with the html format then writes decode.html and decode/ (decoder.go), and every page's
	// header links to it; in a site of releases (BuildSite) one page at the site's root serves
	// every release. nil leaves the page out.
	Decoder fs.FS

	site *siteRelease // the site of releases this release's build is part of (BuildSite), or nil
}

// Summary says what a build wrote.
type Summary struct {
	Files    int
	Bytes    int64
	APIs     int
	Versions int      // API versions built: frames are twice as many
	Notes    []string // what the build left out, and why
}

// BookName returns the file name of the PDF book of a release: kafka-<release>-protocol.pdf.
func BookName(release string) string { return "kafka-" + release + "-protocol.pdf" }

// BaseName returns the file base name of an API's example message at a version:
// <apiKey>-<ApiName>-v<version>-request (or -response).
func BaseName(a *kafka.API, v int16, response bool) string {
	return kafka.BaseName(a.Key, a.Name, v, response)
}

// frameFile is the path, below the output folder, of a frame's file in format f: the format's
// own folder (svg/, bin/, json/, txt/) and site.FrameFile's name.
func frameFile(base, figure string, f site.Format) string {
	return f.Name + "/" + site.FrameFile(base, figure, f)
}

// PageName returns the path of an API's HTML page below the output folder: api/<ApiName>.html,
// which shows the highest version built.
func PageName(a *kafka.API) string { return "api/" + a.Name + ".html" }

// VersionPageName returns the path of the page of one version of an API: the API's page for
// the highest version built (top), api/<ApiName>-v<version>.html for the others.
func VersionPageName(a *kafka.API, v, top int16) string {
	if v == top {
		return PageName(a)
	}
	return "api/" + a.Name + "-v" + strconv.Itoa(int(v)) + ".html"
}

// Build writes the reference of the APIs of cat into the folder out, creating it if needed.
// Files are written to temporary names and renamed; nothing else in out is touched. The output
// is deterministic: two builds of the same catalogue give byte-identical files.
func Build(ctx context.Context, cat *kafka.Catalog, out string, opts Options) (Summary, error) {
	if cat == nil {
		return Summary{}, fmt.Errorf("reference: no catalogue")
	}
	content, notes, err := vectorContentOpts(cat, kafka.VectorOptions{Versions: opts.Versions.Union(opts.BookVersions),
		Compression: opts.Compression, Xerial: opts.Xerial}, opts.Verbose)
	if err != nil {
		return Summary{}, err
	}
	b, err := newBuilder(cat, out, opts, content)
	if err != nil {
		return Summary{}, err
	}
	b.notes = notes
	return b.run(ctx)
}

// contentFunc makes what the reference shows of one API: its two example messages, encoded,
// annotated and laid out. It is the seam between the reference and the packages that encode
// and draw (see content.go).
type contentFunc func(a *kafka.API, v int16, f Format) (*apiContent, error)

// apiContent is one API's example messages at one version.
type apiContent struct {
	API      *kafka.API
	Version  int16
	Request  *message
	Response *message
	// Edges are the API's edge cases, drawn; only the book's first content of an API has them.
	Edges []*edgeContent
}

// edgeContent is one edge case (kafka.EdgeCase) laid out: its frames, request first, each with
// its drawings.
type edgeContent struct {
	Case   kafka.EdgeCase
	Frames []*kafka.Frame
	Msgs   []*message
}

// edgeContents lays out an API's edge cases, rendering the forms f asks for.
func (b *builder) edgeContents(a *kafka.API, f Format) ([]*edgeContent, error) {
	var out []*edgeContent
	for _, e := range b.edges[a] {
		ec := &edgeContent{Case: e}
		for _, fr := range []*kafka.Frame{e.Request, e.Response} {
			if fr == nil {
				continue
			}
			m, err := frameMessage(fr, kafkaview.Options{}, f)
			if err != nil {
				return nil, err
			}
			m.Base = e.BaseName(fr)
			ec.Frames = append(ec.Frames, fr)
			ec.Msgs = append(ec.Msgs, m)
		}
		out = append(out, ec)
	}
	return out, nil
}

// message is one example frame with its drawings.
type message struct {
	Base     string // file base name, see BaseName
	Response bool
	Bytes    []byte // the complete frame
	JSON     []byte // the annotated frame (nil unless the JSON format is built)
	Text     []byte // grid and tree as text (nil unless the txt format is built)
	Grid     site.Figure
	Tree     site.Figure
	Narrow   site.Figure // the grid 16 bits a row, for pages (site.NarrowRowBits); nil without HTML
	// Fields describes every node of the annotated frame for the page's detail panel.
	Fields []fieldInfo
	// Nested are the records of the frame's compressed batches (pages only).
	Nested []site.Nested

	// painted are the grid and the tree painted once (painting) for the SVG files and the
	// page, until release.
	painted [2]*svgcanvas.Painting
}

// The figures of a message that are painted once for its files and its page.
const (
	paintGrid = iota
	paintTree
)

// figure returns the grid (paintGrid) or the tree (paintTree).
func (m *message) figure(i int) site.Figure {
	if i == paintTree {
		return m.Tree
	}
	return m.Grid
}

// painting returns the figure i painted, painting it on first use: its SVG file and its
// drawing on the page are written from one painting. Nil for no figure.
func (m *message) painting(i int) (*svgcanvas.Painting, error) {
	if p := m.painted[i]; p != nil {
		return p, nil
	}
	f := m.figure(i)
	if f.Drawing == nil {
		return nil, nil
	}
	p, err := svgcanvas.Paint(f.Drawing, canvas.Span{})
	if err != nil {
		return nil, fmt.Errorf("reference: %s: %w", f.Title, err)
	}
	m.painted[i] = p
	return p, nil
}

// writeFigure writes the figure i as SVG, as site.WriteSVG does: standalone, or inline with
// its ids prefixed id. No figure writes nothing.
func (m *message) writeFigure(w io.Writer, i int, inline bool, id string) error {
	p, err := m.painting(i)
	if p == nil || err != nil {
		return err
	}
	f := m.figure(i)
	return p.Write(w, svgcanvas.WriteOptions{Title: f.Title, Desc: f.Desc, Inline: inline, IDPrefix: id})
}

// inlineFigure is site.InlineSVG of the figure i from its painting: an inline <svg>, "" for
// none, held by the page's bytes pb.
func (m *message) inlineFigure(pb *pageBytes, i int, id string) (template.HTML, error) {
	if m.figure(i).Drawing == nil {
		return "", nil
	}
	h, err := pb.html(func(w io.Writer) error { return m.writeFigure(w, i, true, id) })
	if err != nil {
		return "", fmt.Errorf("site: %s: %w", m.figure(i).Title, err)
	}
	return h, nil
}

// inlineNarrow is site.InlineSVG of a figure painted for the page alone (the 16-bit grid),
// held by the page's bytes pb.
func inlineNarrow(pb *pageBytes, f site.Figure, id string) (template.HTML, error) {
	if f.Drawing == nil {
		return "", nil
	}
	h, err := pb.html(func(w io.Writer) error { return site.WriteSVG(w, f, true, id) })
	if err != nil {
		return "", fmt.Errorf("site: %s: %w", f.Title, err)
	}
	return h, nil
}

// release gives back the buffers of the message's paintings, once its files and page are
// written.
func (m *message) release() {
	for i, p := range m.painted {
		if p != nil {
			p.Release()
			m.painted[i] = nil
		}
	}
}

type builder struct {
	edges    map[*kafka.API][]kafka.EdgeCase // the special frames beside each API's example
	cat      *kafka.Catalog
	apis     []*kafka.API           // the APIs built
	site     []*kafka.API           // the APIs of the site: built now, or before in this folder (index order)
	built    map[*kafka.API]bool    // in apis
	versions map[*kafka.API][]int16 // the versions built, highest first
	book     map[*kafka.API][]int16 // the versions in the book, highest first
	index    map[*kafka.API]int
	out      *outdir.Folder  // the output folder (outdir.Folder: the README's rules of one)
	outDir   string          // the output folder, opened (out) when the build runs
	ctx      context.Context // the build's, cancelled when it stops
	opts     Options
	release  string
	content  contentFunc
	tmpl     *template.Template
	static   *pageStatic // the pages' parts that hold no value (with tmpl)
	sizes    [][2]int    // frame sizes of each API (request, response), for the index

	notes exampleNotes // what the build says of the examples, once
}

// apisAsked are the APIs of cat that names (names or keys) ask for, in index order whatever
// order they were asked in; every API when names is empty.
func apisAsked(cat *kafka.Catalog, names []string) ([]*kafka.API, error) {
	if len(names) == 0 {
		return cat.APIs, nil
	}
	want := map[*kafka.API]bool{}
	for _, n := range names {
		a, ok := cat.Lookup(n)
		if !ok {
			return nil, fmt.Errorf("reference: no API %q in %s", n, cat.Release.Name())
		}
		want[a] = true
	}
	var apis []*kafka.API
	for _, a := range cat.APIs {
		if want[a] {
			apis = append(apis, a)
		}
	}
	return apis, nil
}

// siteVersions sets the versions of each API of the site (inSite), and of the book, in index
// order; an API none of whose versions asked for is valid is left out of the site and of what
// is built.
func (b *builder) siteVersions(inSite map[*kafka.API]bool) {
	b.versions, b.book = map[*kafka.API][]int16{}, map[*kafka.API][]int16{}
	for _, a := range b.cat.APIs { // index order
		if !inSite[a] {
			continue
		}
		vs := b.opts.Versions.Of(a)
		if len(vs) == 0 {
			delete(b.built, a)
			continue // none of the versions asked for is valid for this API
		}
		b.versions[a] = vs
		b.book[a] = b.opts.BookVersions.Of(a)
		b.site = append(b.site, a)
	}
}

func newBuilder(cat *kafka.Catalog, out string, opts Options, content contentFunc) (_ *builder, err error) {
	if cat == nil || cat.Release == nil {
		return nil, fmt.Errorf("reference: no catalogue")
	}
	if opts.Formats == 0 {
		opts.Formats = AllFormats
	}
	if opts.Workers <= 0 {
		opts.Workers = runtime.GOMAXPROCS(0)
	}
	// What earlier builds left here, read before anything in the folder is touched: the plan
	// is checked against it first.
	prev, err := outdir.ReadManifest(out)
	if err != nil {
		return nil, err
	}
	if err := prev.CheckKind(out, ""); err != nil {
		return nil, err
	}
	b := &builder{cat: cat, opts: opts, release: cat.Release.Name(), content: content,
		index: map[*kafka.API]int{}, built: map[*kafka.API]bool{}}
	if b.opts.Source == "" {
		b.opts.Source = "schema folder " + b.release
	}
	if b.apis, err = apisAsked(cat, opts.APIs); err != nil {
		return nil, err
	}
	// A partial build (-apis) into a folder built from another release would replace part of
	// that site with pages of this one, and its index and book with this build's few APIs.
	if len(opts.APIs) > 0 && prev.Release != "" && prev.Release != b.release {
		return nil, fmt.Errorf("reference: %s holds a build of release %s (its %s says so), and these schemas are release %s: "+
			"a partial build (-apis) of another release would break its index and book; build every API (no -apis), "+
			"build into another folder, or, if these are the same release's schemas, name them -name %s",
			out, prev.Release, outdir.ManifestName, b.release, prev.Release)
	}
	// A partial build (-apis) into a folder that holds a build of the same release keeps the
	// site whole: the index, the book and the pages' neighbours have the APIs built there before.
	inSite := map[*kafka.API]bool{}
	for _, a := range b.apis {
		inSite[a] = true
		b.built[a] = true
	}
	if len(opts.APIs) > 0 && prev.Release == b.release {
		for _, n := range prev.APIs {
			if a, ok := cat.Lookup(n); ok {
				inSite[a] = true
			}
		}
	}
	b.siteVersions(inSite)
	kept := b.apis[:0:0]
	for _, a := range b.apis {
		if b.built[a] {
			kept = append(kept, a)
		}
	}
	if len(kept) == 0 {
		return nil, fmt.Errorf("reference: no API of %s has a version in %s", b.release, opts.Versions)
	}
	b.apis = kept
	for i, a := range b.site {
		b.index[a] = i
	}
	b.sizes = make([][2]int, len(b.site))
	if cat.Release != nil {
		edges, err := cat.EdgeCases()
		if err != nil {
			return nil, fmt.Errorf("reference: edge cases: %w", err)
		}
		// The site's APIs: the book has the edge cases of every API in it, built now or before.
		b.edges = map[*kafka.API][]kafka.EdgeCase{}
		for _, e := range edges {
			if _, ok := b.index[e.API]; ok {
				b.edges[e.API] = append(b.edges[e.API], e)
			}
		}
	}
	if opts.Formats&HTML != 0 {
		t, err := pageTemplates()
		if err != nil {
			return nil, err
		}
		b.tmpl = t.Funcs(template.FuncMap{"decoder": b.decodeHref})
		if b.static, err = newPageStatic(b.tmpl); err != nil {
			return nil, err
		}
	}
	// Every file the build will write is checked before the first is: a file in the way stops
	// the build with nothing written, not part way through.
	if err := outdir.CheckPlan(out, opts.Force, prev, b.plan()); err != nil {
		return nil, err
	}
	b.outDir = out
	return b, nil
}

// plan lists every file the build writes (the manifest aside), slash-separated and relative
// to the output folder, as writeVersion, writeEdges, writeIndex and writeBook name them.
func (b *builder) plan() []string {
	f := b.opts.Formats
	var out []string
	message := func(base string) {
		if f&Bin != 0 {
			out = append(out, frameFile(base, "", site.FormatBin))
		}
		if f&JSON != 0 {
			out = append(out, frameFile(base, "", site.FormatJSON))
		}
		if f&Text != 0 {
			out = append(out, frameFile(base, "", site.FormatText))
		}
		if f&SVG != 0 {
			out = append(out, frameFile(base, site.FigureGrid, site.FormatSVG), frameFile(base, site.FigureTree, site.FormatSVG))
		}
	}
	for _, a := range b.apis {
		vs := b.versions[a]
		for _, v := range vs {
			message(BaseName(a, v, false))
			message(BaseName(a, v, true))
			if f&HTML != 0 {
				out = append(out, VersionPageName(a, v, vs[0]), lazyName(VersionPageName(a, v, vs[0]))) // every page has a response, drawn later (writePage)
			}
		}
		for _, e := range b.edges[a] {
			for _, fr := range []*kafka.Frame{e.Request, e.Response} {
				if fr != nil {
					message(e.BaseName(fr))
				}
			}
		}
	}
	if f&HTML != 0 {
		out = append(out, "index.html", "errors.html", "primitives.html")
		if b.opts.Decoder != nil && b.opts.site == nil {
			out = append(out, decoderFiles([]string{b.release})...)
		}
	}
	if f&PDF != 0 {
		out = append(out, BookName(b.release))
	}
	return out
}

func (b *builder) run(ctx context.Context) (Summary, error) {
	// The build is a runtime/trace task: with tracing on (go test -trace, see the README's
	// Speed section) its regions show where each goroutine's time goes and what waits on what.
	ctx, task := trace.NewTask(ctx, "reference build")
	defer task.End()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	out, err := outdir.Open(ctx, b.outDir, outdir.Options{Force: b.opts.Force, Temps: b.opts.Temps})
	if err != nil {
		return Summary{}, err
	}
	defer out.Close() // the folder's lock
	b.out, b.ctx = out, ctx

	// Workers take the site's APIs in index order (building those in b.apis, only laying out
	// the others for the book and the index); each API's result goes to its own buffered slot
	// (a send never blocks), which the book, written in order as one file, waits on.
	results := make([]chan []*apiContent, len(b.site))
	for i := range results {
		results[i] = make(chan []*apiContent, 1)
	}
	var (
		wg   sync.WaitGroup
		next = make(chan int)
		done int
		mu   sync.Mutex
	)
	fail := func(err error) { cancel(err) }
	for w := 0; w < b.opts.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				var c []*apiContent
				var err error
				trace.WithRegion(ctx, "api", func() {
					if a := b.site[i]; b.built[a] {
						c, err = b.buildAPI(a)
					} else {
						c, err = b.layOut(a)
					}
				})
				if err != nil {
					fail(err)
					close(results[i])
					continue
				}
				results[i] <- c
				close(results[i])
				if b.opts.Progress != nil {
					mu.Lock()
					done++
					fmt.Fprintf(b.opts.Progress, "\rkafkagrid: %d/%d APIs %-40s", done, len(b.site), b.site[i].Name)
					mu.Unlock()
				}
			}
		}()
	}
	var bookWG sync.WaitGroup
	if b.opts.Formats&PDF != 0 {
		bookWG.Add(1)
		go func() {
			defer bookWG.Done()
			if err := b.writeBook(ctx, results); err != nil {
				fail(err)
			}
		}()
	}
feed:
	for i := range b.site {
		select {
		case next <- i:
		case <-ctx.Done():
			// Unfed slots are closed so the book goroutine stops waiting.
			for j := i; j < len(b.site); j++ {
				close(results[j])
			}
			break feed
		}
	}
	close(next)
	wg.Wait()
	trace.Log(ctx, "build", "workers done")
	// The index pages need only what the workers made: they are written while the book
	// finishes its last pages and its output, on the core the workers left.
	if context.Cause(ctx) == nil && b.opts.Formats&HTML != 0 {
		trace.WithRegion(ctx, "index pages", func() {
			if err := b.writeIndex(); err != nil {
				fail(err)
			}
		})
	}
	bookWG.Wait()
	err = context.Cause(ctx)
	// The manifest records what was written, also when the build failed part way, so that the
	// next build may replace those files.
	names := make([]string, len(b.site))
	for i, a := range b.site {
		names[i] = a.Name
	}
	if merr := b.out.Finish(outdir.FinishOptions{Release: b.release, APIs: names}); err == nil {
		err = merr
	}
	if err != nil {
		return b.summary(), err
	}
	if b.opts.Progress != nil {
		fmt.Fprintf(b.opts.Progress, "\r%-70s\r", "")
	}
	return b.summary(), nil
}

// layOut makes the content an API built before in this folder needs for this build's book and
// index (its book versions, and its frame sizes), writing nothing.
func (b *builder) layOut(a *kafka.API) ([]*apiContent, error) {
	var out []*apiContent
	vs := b.book[a]
	if b.opts.Formats&PDF == 0 {
		vs = b.versions[a][:1]
	}
	for _, v := range vs {
		c, err := b.content(a, v, b.opts.Formats&PDF)
		if err != nil {
			return nil, err
		}
		if v == b.versions[a][0] {
			b.sizes[b.index[a]] = [2]int{len(c.Request.Bytes), len(c.Response.Bytes)}
		}
		out = append(out, c)
	}
	if b.opts.Formats&PDF == 0 {
		return nil, nil
	}
	edges, err := b.edgeContents(a, PDF)
	if err != nil {
		return nil, err
	}
	if len(out) > 0 {
		out[0].Edges = edges
	}
	return out, nil
}

func (b *builder) summary() Summary {
	f, n := b.out.Counts()
	vs := 0
	for _, a := range b.apis {
		vs += len(b.versions[a])
	}
	sum := Summary{Files: f, Bytes: n, APIs: len(b.apis), Versions: vs}
	for _, a := range b.apis {
		if note := omitted(a); note != "" {
			sum.Notes = append(sum.Notes, note)
		}
	}
	sum.Notes = append(sum.Notes, b.misfitNotes()...)
	if note := b.compressionNote(); note != "" {
		sum.Notes = append(sum.Notes, note)
	}
	return sum
}

// misfitNotes says what each example value chosen by a field's name that its type cannot hold
// became (kafka.Misfit), once for the versions of an API that share it: "DeleteTopics v1-3
// response: ThrottleTimeMs: …".
func (b *builder) misfitNotes() []string {
	type group struct {
		m  kafka.Misfit
		vs []int16
	}
	var groups []*group
	byDetail := map[string]*group{}
	for _, m := range b.notes.misfits {
		a, ok := b.cat.Lookup(m.API)
		if !ok || !b.built[a] {
			continue
		}
		side := "request"
		if m.Response {
			side = "response"
		}
		key := m.API + " " + side + ": " + m.Detail()
		g := byDetail[key]
		if g == nil {
			g = &group{m: m}
			byDetail[key] = g
			groups = append(groups, g)
		}
		g.vs = append(g.vs, m.Version)
	}
	out := make([]string, 0, len(groups))
	for _, g := range groups {
		side := "request"
		if g.m.Response {
			side = "response"
		}
		out = append(out, g.m.API+" "+versionRanges(g.vs)+" "+side+": "+g.m.Detail())
	}
	return out
}

// compressionNote says, once for the build, which versions of the APIs built keep their records
// uncompressed because they may not carry the codec asked for (kafka.Vector.Uncompressed).
func (b *builder) compressionNote() string {
	var parts []string
	for _, a := range b.apis {
		if vs := b.notes.uncompressed[a]; len(vs) > 0 {
			parts = append(parts, a.Name+" "+versionRanges(vs))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	list := parts[0]
	if n := len(parts); n > 1 {
		list = strings.Join(parts[:n-1], ", ") + " and " + parts[n-1]
	}
	c := b.opts.Compression
	why := "Kafka does not allow it there"
	if c == kafka.CodecZstd {
		why = "KIP-110: zstd from Produce v7 and Fetch v10, never in a legacy message set"
	}
	return fmt.Sprintf("-compression %s: the records of %s may not carry %s (%s): they are written uncompressed", c, list, c, why)
}

// versionRanges writes versions (in any order) as ranges: "v0-6", "v0-2, 4".
func versionRanges(vs []int16) string {
	s := slices.Clone(vs)
	slices.Sort(s)
	var out []string
	for i := 0; i < len(s); {
		j := i
		for j+1 < len(s) && s[j+1] == s[j]+1 {
			j++
		}
		r := strconv.Itoa(int(s[i]))
		if j > i {
			r += "-" + strconv.Itoa(int(s[j]))
		}
		out = append(out, r)
		i = j + 1
	}
	return "v" + strings.Join(out, ", ")
}

// buildAPI makes one API's content at every version built, writes its files (all but the
// book), and returns the content of the versions the book has.
func (b *builder) buildAPI(a *kafka.API) ([]*apiContent, error) {
	var book []*apiContent
	inBook := map[int16]bool{}
	for _, v := range b.book[a] {
		inBook[v] = true
	}
	vs := b.versions[a]
	edges, err := b.edgeContents(a, b.opts.Formats)
	if err != nil {
		return nil, err
	}
	var shared *apiPages
	if b.opts.Formats&HTML != 0 {
		shared = b.apiPages(a)
		shared.edges = edges
	}
	for _, v := range vs {
		if err := context.Cause(b.ctx); err != nil {
			return nil, err
		}
		c, err := b.content(a, v, b.opts.Formats)
		if err != nil {
			return nil, err
		}
		if v == vs[0] {
			b.sizes[b.index[a]] = [2]int{len(c.Request.Bytes), len(c.Response.Bytes)} // each worker its own element
		}
		if err := b.writeVersion(c, shared); err != nil {
			return nil, err
		}
		if v == vs[0] {
			if err := b.writeEdges(edges); err != nil {
				return nil, err
			}
			for _, e := range edges {
				for _, m := range e.Msgs {
					m.release()
				}
			}
		}
		if b.opts.Formats&PDF != 0 && inBook[v] {
			book = append(book, c)
		}
		delete(inBook, v)
	}
	// Book versions that are not built as files (-versions highest with a book of all).
	for _, v := range b.book[a] {
		if !inBook[v] || b.opts.Formats&PDF == 0 {
			continue
		}
		c, err := b.content(a, v, b.opts.Formats&PDF)
		if err != nil {
			return nil, err
		}
		book = append(book, c)
	}
	if len(book) > 0 {
		book[0].Edges = edges
	}
	return book, nil
}

// writeEdges writes the files of an API's edge cases (kafka.EdgeCase): the frames, their JSON
// and text, and their grid and tree SVGs, named <base>-<case> ("18-ApiVersions-v0-response-
// unsupported-version.bin"); the API's page draws them.
func (b *builder) writeEdges(edges []*edgeContent) error {
	for _, e := range edges {
		for _, m := range e.Msgs {
			if err := b.writeMessageFiles(m); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeMessageFiles writes a frame's files in the formats the build makes: its bytes (.bin),
// annotated JSON, text, and grid and tree SVGs, named by the message's base name.
func (b *builder) writeMessageFiles(m *message) error {
	f := b.opts.Formats
	if f&Bin != 0 {
		if err := b.out.Write(frameFile(m.Base, "", site.FormatBin), m.Bytes); err != nil {
			return err
		}
	}
	if f&JSON != 0 {
		if err := b.out.Write(frameFile(m.Base, "", site.FormatJSON), m.JSON); err != nil {
			return err
		}
	}
	if f&Text != 0 {
		if err := b.out.Write(frameFile(m.Base, "", site.FormatText), m.Text); err != nil {
			return err
		}
	}
	if f&SVG != 0 {
		for i, figure := range [...]string{paintGrid: site.FigureGrid, paintTree: site.FigureTree} {
			if err := b.out.Create(frameFile(m.Base, figure, site.FormatSVG), func(w io.Writer) error {
				return m.writeFigure(w, i, false, "")
			}); err != nil {
				return err
			}
		}
	}
	return nil
}

// edgeViews draws an API's edge cases on its page: for each, what it shows, then each frame's
// grid, tree and hex dump like the example's, with links to the files built. The drawings' ids
// are prefixed e<case>-<frame>-, so that they differ from the example's and each other's.
func (b *builder) edgeViews(a *kafka.API, edges []*edgeContent, pb *pageBytes) ([]edgeView, error) {
	var out []edgeView
	for i, e := range edges {
		ev := edgeView{Title: e.Case.Title, About: e.Case.About, ID: "edge-" + e.Case.Name}
		for j, m := range e.Msgs {
			fr := e.Frames[j]
			side := "request"
			if fr.Response {
				side = "response"
			}
			mv, err := b.messageView(pb, a, m, fmt.Sprintf("edge-%s-%s", e.Case.Name, side),
				fmt.Sprintf("%s v%d", strings.ToUpper(side[:1])+side[1:], fr.Version), fmt.Sprintf("e%d-%d", i+1, j+1))
			if err != nil {
				return nil, err
			}
			ev.Messages = append(ev.Messages, mv)
		}
		out = append(out, ev)
	}
	return out, nil
}

// writeVersion writes the files and the page of one version of an API.
func (b *builder) writeVersion(c *apiContent, shared *apiPages) error {
	a := c.API
	f := b.opts.Formats
	for _, m := range []*message{c.Request, c.Response} {
		if err := b.writeMessageFiles(m); err != nil {
			return err
		}
	}
	if f&HTML != 0 {
		pb := new(pageBytes)
		defer pb.release() // after the page and its sidecar are written
		v, err := b.pageView(c, shared, pb)
		if err != nil {
			return err
		}
		name := VersionPageName(a, c.Version, b.versions[a][0])
		if err := b.writePage(name, v); err != nil {
			return err
		}
	}
	c.Request.release()
	c.Response.release()
	return nil
}

func (b *builder) link(a *kafka.API, from string) *apiLink {
	href := PageName(a)
	if from == "api" {
		href = path.Base(href)
	}
	return &apiLink{Key: a.Key, Name: a.Name, Version: a.Version, Href: href, Flexible: a.Flexible, Unstable: a.Unstable}
}

func (b *builder) writeIndex() error {
	v := &indexView{Release: b.release, Source: b.opts.Source, NumAPIs: len(b.site), Generator: "kafkagrid", Site: b.siteBar(nil, 0)}
	for _, p := range guide {
		v.Guide = append(v.Guide, [2]string{p[0], guideText(p[1])})
	}
	if err := b.guideFigure(v); err != nil {
		return err
	}
	st, err := builtinStoryView()
	if err != nil {
		return err
	}
	v.Story = st
	if b.opts.Formats&PDF != 0 {
		v.Book = BookName(b.release)
	}
	for _, cat := range b.cat.Categories {
		cv := categoryView{Name: cat.Name, ID: anchorID(cat.Name)}
		for _, a := range cat.APIs {
			if i, ok := b.index[a]; ok {
				l := *b.link(a, "")
				l.Request, l.Response = b.sizes[i][0], b.sizes[i][1]
				l.Versions = versionsBuilt(b.versions[a])
				l.Purpose = a.Facts().Purpose
				cv.APIs = append(cv.APIs, l)
			}
		}
		if len(cv.APIs) > 0 {
			v.Categories = append(v.Categories, cv)
		}
	}
	if err := b.out.Create("index.html", func(w io.Writer) error { return renderIndex(b.tmpl, w, v) }); err != nil {
		return err
	}
	if err := b.writeErrorCodes(); err != nil {
		return err
	}
	if err := b.writePrimitives(); err != nil {
		return err
	}
	if b.opts.Decoder != nil && b.opts.site == nil {
		return writeDecoder(b.out, b.opts.Decoder, []*kafka.Catalog{b.cat}, "index.html", "Kafka "+b.release+" index")
	}
	return nil
}

// guideFigure adds the figure of "How to read the pages": the byte grid of the ApiVersions
// request at its highest version, the first request of every connection, with call-outs. It
// is encoded here, whatever APIs the build includes, so a partial build's index is the full
// build's; a release without ApiVersions has no figure.
func (b *builder) guideFigure(v *indexView) error {
	a, m, err := b.guideMessage(HTML)
	if err != nil || m == nil {
		return err
	}
	if v.GuideGrid, err = inlineSVG(m.Grid, "guide-grid"); err != nil {
		return err
	}
	v.GuideW = m.Grid.Width()
	v.GuideCaption = fmt.Sprintf("The ApiVersions v%d request (%s), the first request on every connection.", a.Version, byteCount(len(m.Bytes)))
	for _, p := range guideCallouts {
		v.GuideCallouts = append(v.GuideCallouts, [2]string{p[0], guideText(p[1])})
	}
	return nil
}

// guideMessage lays out the guide's figure, the ApiVersions request at its highest version,
// in the forms f asks for (the index's and the book's "How to read"); nil without ApiVersions.
func (b *builder) guideMessage(f Format) (*kafka.API, *message, error) {
	a, ok := b.cat.Lookup("ApiVersions")
	if !ok {
		return nil, nil, nil
	}
	vecs, err := b.cat.Vectors(kafka.VectorOptions{})
	if err != nil {
		return nil, nil, fmt.Errorf("reference: guide figure: %w", err)
	}
	for _, vec := range vecs {
		if vec.API == a && vec.Request != nil {
			m, err := frameMessage(vec.Request, kafkaview.Options{}, f)
			return a, m, err
		}
	}
	return a, nil, nil
}

// apiPages is what every version's page of an API shares: the version history and the
// schemas, made once per API.
type apiPages struct {
	history []versionInfo
	schemas []schemaView
	edges   []*edgeContent // drawn on the top page
}

func (b *builder) apiPages(a *kafka.API) *apiPages {
	p := &apiPages{history: history(a, b.versions[a], -1)}
	for _, s := range []struct {
		id, title string
		raw       []byte
		file      string
		structs   []string
		lines     []int
	}{
		{"request-schema", "Request schema", a.Request.Raw, a.Request.File, structNames(a.Request.CommonStructs), structLines(a.Request.CommonStructs)},
		{"response-schema", "Response schema", a.Response.Raw, a.Response.File, structNames(a.Response.CommonStructs), structLines(a.Response.CommonStructs)},
	} {
		prefix := s.id + "-L"
		src, n := schemaHTML(s.raw, prefix)
		sv := schemaView{ID: s.id, Title: s.title, File: s.file, Lines: n, Source: src}
		for j, name := range s.structs {
			sv.Structs = append(sv.Structs, structLink{Name: name, Anchor: prefix + strconv.Itoa(s.lines[j])})
		}
		p.schemas = append(p.schemas, sv)
	}
	return p
}

func (b *builder) pageView(c *apiContent, shared *apiPages, pb *pageBytes) (*pageView, error) {
	a := c.API
	i := b.index[a]
	ver := c.Version
	v := &pageView{
		Release: b.release, Key: a.Key, Name: a.Name, Version: ver, Category: a.Category,
		Listeners: a.Listeners, Flexible: a.Request.FlexibleIn(ver), Unstable: a.Request.UnstableIn(ver), Generator: "kafkagrid",
		VersionText: versionTextAt(a, ver), FlexVers: a.Request.FlexibleVersions.String(), Headers: headerText(a, ver),
		History: append([]versionInfo(nil), shared.history...), Schemas: shared.schemas,
		Fields: fieldTables(a.Request, a.Response, ver), Omitted: omitted(a), Site: b.siteBar(a, ver),
	}
	b.fieldNotes(a, v.Fields)
	for j := range v.History {
		if h := &v.History[j]; h.Version == ver {
			h.Current = true
			v.Current = *h
		}
	}
	if ver == b.versions[a][0] {
		var err error
		if v.Edges, err = b.edgeViews(a, shared.edges, pb); err != nil {
			return nil, err
		}
	}
	for _, cm := range v.Current.Comments {
		anchor := "request-schema-L"
		if cm.File == a.Response.File {
			anchor = "response-schema-L"
		}
		v.Comments = append(v.Comments, commentView{Text: cm.Text, File: cm.File, Line: cm.Line, Anchor: anchor + strconv.Itoa(cm.Line)})
	}
	if i > 0 {
		v.Prev = b.link(b.site[i-1], "api")
	}
	if i+1 < len(b.site) {
		v.Next = b.link(b.site[i+1], "api")
	}
	if b.opts.Formats&PDF != 0 {
		v.Book = "../" + BookName(b.release)
	}
	for _, m := range []*message{c.Request, c.Response} {
		id, title, short := "request", "Request", "rq"
		if m.Response {
			id, title, short = "response", "Response", "rs"
		}
		mv, err := b.messageView(pb, a, m, id, title, short)
		if err != nil {
			return nil, err
		}
		v.Messages = append(v.Messages, mv)
	}
	return v, nil
}

// messageView shows one frame on a page: its drawings inline (ids prefixed short-), their print
// parts, its hex dump, the detail panel's data and links to its files (named after m.Base).
func (b *builder) messageView(pb *pageBytes, a *kafka.API, m *message, id, title, short string) (messageView, error) {
	mv := messageView{ID: id, Title: title, Base: m.Base, Size: len(m.Bytes), Hex: hexHTML(m.Bytes, site.HexOptions{}), Hex8: hexHTML(m.Bytes, site.HexOptions{PerLine: 8}),
		GridW: m.Grid.Width(), TreeW: m.Tree.Width(), Park: true}
	var err error
	if mv.Detail, err = detailJSON(m.Fields, a); err != nil {
		return mv, err
	}
	if mv.Grid, err = m.inlineFigure(pb, paintGrid, short+"-grid"); err != nil {
		return mv, err
	}
	if mv.Tree, err = m.inlineFigure(pb, paintTree, short+"-tree"); err != nil {
		return mv, err
	}
	if mv.Narrow, err = inlineNarrow(pb, m.Narrow, short+"-grid16"); err != nil {
		return mv, err
	}
	mv.NarrowW = m.Narrow.Width()
	mv.Fit = template.HTML(site.Fit(id, mv.GridW, mv.NarrowW, mv.TreeW))
	if mv.GridParts, err = printParts(pb, m.Grid, short+"-grid", "Byte grid"); err != nil {
		return mv, err
	}
	if mv.TreeParts, err = printParts(pb, m.Tree, short+"-tree", "Expanded tree"); err != nil {
		return mv, err
	}
	f := b.opts.Formats
	if f&SVG != 0 {
		mv.Links = append(mv.Links, fileLink{"grid.svg", "../" + frameFile(m.Base, site.FigureGrid, site.FormatSVG)}, fileLink{"tree.svg", "../" + frameFile(m.Base, site.FigureTree, site.FormatSVG)})
	}
	if f&Bin != 0 {
		mv.Links = append(mv.Links, fileLink{"frame .bin", "../" + frameFile(m.Base, "", site.FormatBin)})
	}
	if f&JSON != 0 {
		mv.Links = append(mv.Links, fileLink{"annotated .json", "../" + frameFile(m.Base, "", site.FormatJSON)})
	}
	if f&Text != 0 {
		mv.Links = append(mv.Links, fileLink{"text .txt", "../" + frameFile(m.Base, "", site.FormatText)})
	}
	// The records of compressed batches, each a message of its own (site.Draw's Nested).
	for j, n := range m.Nested {
		nid := fmt.Sprintf("%s-n%d", id, j+1)
		if n.Figures == nil {
			mv.Nested = append(mv.Nested, messageView{ID: nid, Caption: n.Caption, Notes: []string{n.Note}})
			continue
		}
		nm := &message{Base: m.Base, Bytes: n.Figures.Bytes, Grid: n.Figures.Grid, Narrow: n.Figures.Narrow, Tree: n.Figures.Tree, Fields: n.Figures.Fields}
		nv, err := b.messageView(pb, a, nm, nid, n.Caption, fmt.Sprintf("%s-n%d", short, j+1))
		nm.release()
		if err != nil {
			return mv, err
		}
		nv.Caption, nv.Links = n.Caption, nil // its files are the frame's
		mv.Nested = append(mv.Nested, nv)
	}
	return mv, nil
}

// versionText describes an API's highest version: "12, the highest valid version (3-12)", or
// "0, the only valid version", and whether it is unstable.
func versionText(a *kafka.API) string { return versionTextAt(a, a.Version) }

// versionTextAt describes a version of an API: "12, the highest valid version (3-12)", "5 of
// the valid versions 3-12", "0, the only valid version", and whether it is unstable or
// deprecated.
func versionTextAt(a *kafka.API, v int16) string {
	r := a.Request.ValidVersions
	var s string
	switch {
	case r.Lo == r.Hi:
		s = fmt.Sprintf("%d, the only valid version", v)
	case v == a.Version:
		s = fmt.Sprintf("%d, the highest valid version (%s)", v, r)
	case v == r.Lo:
		s = fmt.Sprintf("%d, the lowest valid version (%s)", v, r)
	default:
		s = fmt.Sprintf("%d of the valid versions %s", v, r)
	}
	if a.Request.UnstableIn(v) {
		s += "; unstable: brokers do not enable it by default"
	}
	if a.Request.DeprecatedIn(v) {
		s += "; deprecated"
	}
	return s
}

// versionsBuilt is the index's version column: "v12" for one version, "v3–12" for a run,
// "v0, v3–5" otherwise.
func versionsBuilt(vs []int16) string {
	if len(vs) == 0 {
		return ""
	}
	var parts []string
	for i := 0; i < len(vs); {
		j := i
		for j+1 < len(vs) && vs[j+1] == vs[j]-1 {
			j++
		}
		if i == j {
			parts = append(parts, strconv.Itoa(int(vs[i])))
		} else {
			parts = append(parts, strconv.Itoa(int(vs[j]))+"–"+strconv.Itoa(int(vs[i])))
		}
		i = j + 1
	}
	for i, k := 0, len(parts)-1; i < k; i, k = i+1, k-1 {
		parts[i], parts[k] = parts[k], parts[i]
	}
	return "v" + strings.Join(parts, ", v")
}

// anchorID turns a heading into an id: lower case, runs of other characters as "-".
func anchorID(s string) string {
	var sb strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if dash && sb.Len() > 0 {
				sb.WriteByte('-')
			}
			sb.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
	}
	return sb.String()
}
