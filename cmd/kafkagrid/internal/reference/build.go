package reference

import (
	"context"
	"fmt"
	"html/template"
	"io"
	"path"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/kafka"
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

var formatNames = []struct {
	name string
	f    Format
}{{"svg", SVG}, {"html", HTML}, {"pdf", PDF}, {"bin", Bin}, {"json", JSON}, {"txt", Text}}

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
		found := false
		for _, n := range formatNames {
			if n.name == part || (part == "text" && n.f == Text) {
				f |= n.f
				found = true
			}
		}
		if !found {
			return 0, fmt.Errorf("reference: unknown format %q (want svg, html, pdf, bin, json or txt)", part)
		}
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
	// Verbose, when not nil, receives one line per example override left out of a frame because
	// the release or version lacks its field (kafka.Skip).
	Verbose io.Writer
	// Workers is how many APIs are built at once; 0 means GOMAXPROCS.
	Workers int
}

// Summary says what a build wrote.
type Summary struct {
	Files int
	Bytes int64
	APIs  int
}

// BookName returns the file name of the PDF book of a release: kafka-<release>-protocol.pdf.
func BookName(release string) string { return "kafka-" + release + "-protocol.pdf" }

// BaseName returns the file base name of an API's example message:
// <apiKey>-<ApiName>-v<version>-request (or -response).
func BaseName(a *kafka.API, response bool) string {
	dir := "request"
	if response {
		dir = "response"
	}
	return strconv.Itoa(int(a.Key)) + "-" + a.Name + "-v" + strconv.Itoa(int(a.Version)) + "-" + dir
}

// PageName returns the path of an API's HTML page below the output folder: api/<ApiName>.html.
func PageName(a *kafka.API) string { return "api/" + a.Name + ".html" }

// Build writes the reference of the APIs of cat into the folder out, creating it if needed.
// Files are written to temporary names and renamed; nothing else in out is touched. The output
// is deterministic: two builds of the same catalogue give byte-identical files.
func Build(ctx context.Context, cat *kafka.Catalog, out string, opts Options) (Summary, error) {
	if cat == nil {
		return Summary{}, fmt.Errorf("reference: no catalogue")
	}
	content, err := vectorContent(cat, opts.Verbose)
	if err != nil {
		return Summary{}, err
	}
	b, err := newBuilder(cat, out, opts, content)
	if err != nil {
		return Summary{}, err
	}
	return b.run(ctx)
}

// contentFunc makes what the reference shows of one API: its two example messages, encoded,
// annotated and laid out. It is the seam between the reference and the packages that encode
// and draw (see content.go).
type contentFunc func(a *kafka.API, f Format) (*apiContent, error)

// apiContent is one API's example messages.
type apiContent struct {
	API      *kafka.API
	Request  *message
	Response *message
}

// message is one example frame with its drawings.
type message struct {
	Base     string // file base name, see BaseName
	Response bool
	Bytes    []byte // the complete frame
	JSON     []byte // the annotated frame (nil unless the JSON format is built)
	Text     []byte // grid and tree as text (nil unless the txt format is built)
	Grid     drawing
	Tree     drawing
}

type builder struct {
	cat     *kafka.Catalog
	apis    []*kafka.API
	index   map[*kafka.API]int
	out     *output
	opts    Options
	release string
	content contentFunc
	tmpl    *template.Template
	sizes   [][2]int // frame sizes of each API (request, response), for the index
}

func newBuilder(cat *kafka.Catalog, out string, opts Options, content contentFunc) (*builder, error) {
	if cat == nil || cat.Release == nil {
		return nil, fmt.Errorf("reference: no catalogue")
	}
	if opts.Formats == 0 {
		opts.Formats = AllFormats
	}
	if opts.Workers <= 0 {
		opts.Workers = runtime.GOMAXPROCS(0)
	}
	b := &builder{cat: cat, out: newOutput(out), opts: opts, release: cat.Release.Name(), content: content,
		index: map[*kafka.API]int{}}
	if b.opts.Source == "" {
		b.opts.Source = "schema folder " + b.release
	}
	if len(opts.APIs) == 0 {
		b.apis = cat.APIs
	} else {
		want := map[*kafka.API]bool{}
		for _, n := range opts.APIs {
			a, ok := cat.Lookup(n)
			if !ok {
				return nil, fmt.Errorf("reference: no API %q in %s", n, b.release)
			}
			want[a] = true
		}
		for _, a := range cat.APIs { // index order, whatever order they were asked in
			if want[a] {
				b.apis = append(b.apis, a)
			}
		}
	}
	for i, a := range b.apis {
		b.index[a] = i
	}
	b.sizes = make([][2]int, len(b.apis))
	if opts.Formats&HTML != 0 {
		t, err := pageTemplates()
		if err != nil {
			return nil, err
		}
		b.tmpl = t
	}
	return b, nil
}

func (b *builder) run(ctx context.Context) (Summary, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)

	// Workers take APIs in index order; each API's result goes to its own buffered slot (a
	// send never blocks), which the book, written in order as one file, waits on.
	results := make([]chan *apiContent, len(b.apis))
	for i := range results {
		results[i] = make(chan *apiContent, 1)
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
				c, err := b.buildAPI(b.apis[i])
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
					fmt.Fprintf(b.opts.Progress, "\rkafkagrid: %d/%d APIs %-40s", done, len(b.apis), b.apis[i].Name)
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
	for i := range b.apis {
		select {
		case next <- i:
		case <-ctx.Done():
			// Unfed slots are closed so the book goroutine stops waiting.
			for j := i; j < len(b.apis); j++ {
				close(results[j])
			}
			break feed
		}
	}
	close(next)
	wg.Wait()
	bookWG.Wait()
	if err := context.Cause(ctx); err != nil {
		return b.summary(), err
	}
	if b.opts.Formats&HTML != 0 {
		if err := b.writeIndex(); err != nil {
			return b.summary(), err
		}
	}
	if b.opts.Progress != nil {
		fmt.Fprintf(b.opts.Progress, "\r%-70s\r", "")
	}
	return b.summary(), nil
}

func (b *builder) summary() Summary {
	f, n := b.out.counts()
	return Summary{Files: f, Bytes: n, APIs: len(b.apis)}
}

// buildAPI makes one API's content and writes its files (all but the book).
func (b *builder) buildAPI(a *kafka.API) (*apiContent, error) {
	c, err := b.content(a, b.opts.Formats)
	if err != nil {
		return nil, err
	}
	b.sizes[b.index[a]] = [2]int{len(c.Request.Bytes), len(c.Response.Bytes)} // each worker its own element
	f := b.opts.Formats
	for _, m := range []*message{c.Request, c.Response} {
		if f&Bin != 0 {
			if err := b.out.write("bin/"+m.Base+".bin", m.Bytes); err != nil {
				return nil, err
			}
		}
		if f&JSON != 0 {
			if err := b.out.write("json/"+m.Base+".json", m.JSON); err != nil {
				return nil, err
			}
		}
		if f&Text != 0 {
			if err := b.out.write("txt/"+m.Base+".txt", m.Text); err != nil {
				return nil, err
			}
		}
		if f&SVG != 0 {
			for _, d := range []struct {
				suffix string
				d      drawing
			}{{"-grid.svg", m.Grid}, {"-tree.svg", m.Tree}} {
				if err := b.out.create("svg/"+m.Base+d.suffix, func(w io.Writer) error {
					return writeSVG(w, d.d, false, "")
				}); err != nil {
					return nil, err
				}
			}
		}
	}
	if f&HTML != 0 {
		v, err := b.pageView(c)
		if err != nil {
			return nil, err
		}
		if err := b.out.create(PageName(a), func(w io.Writer) error { return renderPage(b.tmpl, w, v) }); err != nil {
			return nil, err
		}
	}
	if f&PDF == 0 {
		return nil, nil // the book is the only later user of the content
	}
	return c, nil
}

func (b *builder) link(a *kafka.API, from string) *apiLink {
	href := PageName(a)
	if from == "api" {
		href = path.Base(href)
	}
	return &apiLink{Key: a.Key, Name: a.Name, Version: a.Version, Href: href, Flexible: a.Flexible, Unstable: a.Unstable}
}

func (b *builder) writeIndex() error {
	v := &indexView{Release: b.release, Source: b.opts.Source, NumAPIs: len(b.apis), Generator: "kafkagrid"}
	for _, p := range guide {
		v.Guide = append(v.Guide, [2]string{p[0], guideText(p[1])})
	}
	if b.opts.Formats&PDF != 0 {
		v.Book = BookName(b.release)
	}
	for _, cat := range b.cat.Categories {
		cv := categoryView{Name: cat.Name, ID: anchorID(cat.Name)}
		for _, a := range cat.APIs {
			if i, ok := b.index[a]; ok {
				l := *b.link(a, "")
				l.Request, l.Response = b.sizes[i][0], b.sizes[i][1]
				cv.APIs = append(cv.APIs, l)
			}
		}
		if len(cv.APIs) > 0 {
			v.Categories = append(v.Categories, cv)
		}
	}
	return b.out.create("index.html", func(w io.Writer) error { return renderIndex(b.tmpl, w, v) })
}

func (b *builder) pageView(c *apiContent) (*pageView, error) {
	a := c.API
	i := b.index[a]
	v := &pageView{
		Release: b.release, Key: a.Key, Name: a.Name, Version: a.Version, Category: a.Category,
		Listeners: a.Listeners, Flexible: a.Flexible, Unstable: a.Unstable, Generator: "kafkagrid",
		VersionText: versionText(a), FlexVers: a.Request.FlexibleVersions.String(),
	}
	if i > 0 {
		v.Prev = b.link(b.apis[i-1], "api")
	}
	if i+1 < len(b.apis) {
		v.Next = b.link(b.apis[i+1], "api")
	}
	if b.opts.Formats&PDF != 0 {
		v.Book = "../" + BookName(b.release)
	}
	for _, m := range []*message{c.Request, c.Response} {
		mv := messageView{ID: "request", Title: "Request", Base: m.Base, Size: len(m.Bytes), Hex: hexDumpHTML(m.Bytes),
			GridW: width(m.Grid), TreeW: width(m.Tree)}
		short := "rq"
		if m.Response {
			mv.ID, mv.Title, short = "response", "Response", "rs"
		}
		var err error
		if mv.Grid, err = inlineSVG(m.Grid, short+"-grid"); err != nil {
			return nil, err
		}
		if mv.Tree, err = inlineSVG(m.Tree, short+"-tree"); err != nil {
			return nil, err
		}
		if mv.GridParts, err = printParts(m.Grid, short+"-grid", "Byte grid"); err != nil {
			return nil, err
		}
		if mv.TreeParts, err = printParts(m.Tree, short+"-tree", "Expanded tree"); err != nil {
			return nil, err
		}
		f := b.opts.Formats
		if f&SVG != 0 {
			mv.Links = append(mv.Links, fileLink{"grid.svg", "../svg/" + m.Base + "-grid.svg"}, fileLink{"tree.svg", "../svg/" + m.Base + "-tree.svg"})
		}
		if f&Bin != 0 {
			mv.Links = append(mv.Links, fileLink{"frame .bin", "../bin/" + m.Base + ".bin"})
		}
		if f&JSON != 0 {
			mv.Links = append(mv.Links, fileLink{"annotated .json", "../json/" + m.Base + ".json"})
		}
		if f&Text != 0 {
			mv.Links = append(mv.Links, fileLink{"text .txt", "../txt/" + m.Base + ".txt"})
		}
		v.Messages = append(v.Messages, mv)
	}
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
		v.Schemas = append(v.Schemas, sv)
	}
	return v, nil
}

// versionText describes an API's version: "12, the highest valid version (3-12)", or "0, the
// only valid version", and whether it is unstable.
func versionText(a *kafka.API) string {
	r := a.Request.ValidVersions
	s := fmt.Sprintf("%d, the highest valid version (%s)", a.Version, r)
	if r.Lo == r.Hi {
		s = fmt.Sprintf("%d, the only valid version", a.Version)
	}
	if a.Unstable {
		s += "; unstable: brokers do not enable it by default"
	}
	return s
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
