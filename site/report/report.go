// Package report writes what package capture decoded as a site a person reads, a page of the
// same site as the reference (site/reference), built on the same floor (package site): the
// same stylesheet (light and dark, a phone's width), the same linked grid, tree, hex dump and
// detail panel of each frame, the same elision rule, and the records inside compressed
// batches as nested frames, each with its own grid, tree, hex dump and panel.
//
// The report is light: index.html is a table of the connections and their exchanges, each
// exchange (a request beside its response, in time order) linking to a page of its own,
// exchanges/c<conn>-<n>.html. Per frame it also writes, under frames/, the grid and the tree
// as standalone SVG, the annotated frame as JSON and the text tree.
//
// A frame that failed to decode is drawn up to the failure (site.Draw): the bytes not decoded
// are one field marked as such in the grid, the failing byte is marked in the hex dump, and
// the error (offset, field path, what) stands above the drawings.
//
// # Ceilings
//
// Output is bounded by ceilings that do not multiply. A page holds at most MaxPageElements
// HTML and SVG elements and MaxPageBytes bytes: of a frame whose drawings would take it over,
// the page draws the first screen live (site.Cut: its first fields, then one "rest of the
// frame"), linked to its hex dump and detail panel like any drawing, and links the whole (its
// SVG files, else its text and JSON); so does it of a compressed record set; its hex dump shows its first bytes
// (at least MinHexBytes, at most MaxHexBytes) and the lines around its failing byte. At most
// Options.MaxExchanges exchanges get a page, at most MaxDrawnFields fields of one frame and
// MaxReportFields of the whole report are drawn (nested frames included), and at most
// MaxConns connections are listed; the report says what it left out.
//
// # Streaming
//
// New, Add and Close write a report as a capture is decoded: Add writes the page and files of
// one exchange and keeps only the line the index shows of it, so the memory of a Writer is
// what the index needs (at most MaxExchanges lines and MaxConns connections), not the frames.
// Write is New, an Add per exchange and Close (WriteAll). The files go into an output folder
// (outdir.Folder, of kind outdir.KindReport) by its rules, or to Options.Create; NewFiles
// writes them only there, and links no folder code. The same input
// gives the same bytes. A Writer is not safe for concurrent use.
package report

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/kafkagrid/kafkagrid/capture"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site"
	"github.com/kafkagrid/kafkagrid/site/kafkaview"
	"github.com/kafkagrid/kafkagrid/site/outdir"
)

// DefaultMaxExchanges is how many exchanges a report gives a page when Options.MaxExchanges
// is 0.
const DefaultMaxExchanges = 200

// MaxDrawnFields is the most fields of one frame a report draws as a byte grid and a tree:
// a larger frame (a Metadata response of a big cluster, a Fetch of thousands of records) gets
// its text and JSON files and its hex dump, and a note instead of drawings that no browser
// would show. The largest example frame of any release has 207 nodes.
const MaxDrawnFields = 5000

// MaxReportFields is the most fields (tree nodes) a report draws in all, nested frames
// included: past it a frame gets its text and JSON files and a note instead of drawings. Four
// frames at MaxDrawnFields; some 26 MB of SVG files at the ceiling (1.3 KB of SVG a field).
const MaxReportFields = 20_000

// MaxPageElements and MaxPageBytes are the ceilings of one exchange's page: the HTML and SVG
// elements a browser builds of it, and its size. What would take a page over them is left
// to the frame's files (its drawings) or cut (its hex dump), with a note.
const (
	MaxPageElements = 3000
	MaxPageBytes    = 800 << 10
)

// MaxHexBytes is the most of one frame a page's hex dump shows, MinHexBytes the least (of a
// frame that long): between them, what the page's ceilings leave. The lines around the byte
// where decoding failed are shown besides.
const (
	MaxHexBytes = 4096
	MinHexBytes = 256
)

// MaxConns is the most connections a report lists: the rest are counted in one line.
const MaxConns = 1000

// pageReserve is what a page's frame of text takes of its ceilings besides its messages:
// head, navigation, headings, notes (the page tests check every page against the ceilings).
// msgChrome is what one message's section takes besides its drawings and hex dumps: its
// heading, links, the pair, panel and dump boxes, the detail script (some 25 elements).
const (
	pageReserveElements = 60
	pageReserveBytes    = 40 << 10
	msgChrome           = 40
	msgChromeBytes      = 4 << 10
)

// Options configure Write and New. The zero value gives a page to the first
// DefaultMaxExchanges exchanges.
type Options struct {
	Title        string // the report's title; "" means "kafkagrid decode"
	MaxExchanges int
	// Flat draws the frame an Envelope carries whole as bytes, not as the nested frame the
	// codec read (kafkaview.Options.Flat).
	Flat bool
	// Create, when set, writes each file: what fill writes as the file rel ("index.html",
	// "exchanges/c1-1.html", "frames/c1-1-….json") of dir, put in place whole or not at all;
	// what it wrote when the report fails is then the caller's. nil writes the files into dir
	// through a outdir.Folder (outdir.Open, of kind outdir.KindReport) by the README's rules
	// of an output folder: one writer at a time, each file put in place by rename, its
	// temporary removed on every way out, only a report's own files replaced, no symbolic
	// link below dir followed, the files of an earlier report that this one did not write
	// removed when it closes. A report that fails or is aborted leaves what it wrote listed
	// in the folder's manifest, for the next report to replace.
	Create func(rel string, fill func(io.Writer) error) error
	// Context and Temps are the folder's when Create is nil: Context cancelled stops the
	// writing of further files (nil: never); Temps lists the temporary files open, for a
	// signal handler that cannot wait (nil: none).
	Context context.Context
	Temps   *outdir.Temps
}

// Write writes the report of r into dir (created if needed): index.html, exchanges/ and
// frames/. It is New, an Add for each exchange of r's connections in order, and Close.
func Write(dir string, r *capture.Result, o Options) error {
	w, err := New(dir, o)
	if err != nil {
		return err
	}
	return w.WriteAll(r)
}

// WriteAll is an Add for each exchange of r's connections in order, then Close: what Write
// does once its Writer is made (New, or NewFiles).
func (w *Writer) WriteAll(r *capture.Result) error {
	for _, c := range r.Conns {
		for _, e := range c.Exchanges {
			if err := w.Add(c, e); err != nil {
				w.Abort()
				return err
			}
		}
	}
	return w.Close(r)
}

// Writer writes a report one exchange at a time (New, Add, Close or Abort).
type Writer struct {
	o      Options
	folder folder // the output folder (an *outdir.Folder), when Options.Create is nil
	done   bool

	conns     map[int]*connSum // the first MaxConns connections Add saw
	order     []*connSum       // in order of first Add
	frames    int              // messages added
	failed    int              // of which did not decode
	exchanges int              // exchanges added
	drawn     int              // of which have a page
	fields    int              // fields the report may still draw
	prev      string           // the last page written, for its successor's link

	// writeIndex and writePage write the index and a page (html.go's; the tests set their
	// own, which also render the views with the html/template pages they replaced).
	writeIndex func(io.Writer, *indexView) error
	writePage  func(io.Writer, *pageView) error
}

// connSum is what the index shows of a connection.
type connSum struct {
	ID             int
	Title          string
	Frames, Failed int
	APIs           []string
	Notes          []string
	Rows           []rowView
	n              int // exchanges added
	Left           int // of which have no page
	LeftText       string
}

type rowView struct {
	N                 int
	Href              string
	Request, Response string // what each side is, with its size: "Produce v12 · 412 B"
	Failed            bool
	Client            string   // the request header's client id, "" for none
	Errors            []string // the response's error codes other than NONE, by name, each once
	MoreErrors        int      // the distinct codes past maxRowErrors
}

// maxRowErrors is the most error names a row of the index lists.
const maxRowErrors = 4

// frameErrors returns the names of the error codes other than NONE that f's ErrorCode fields
// carry (every field whose name ends in ErrorCode, nested frames' too), each once, in the
// order they appear, at most maxRowErrors of them, and how many distinct ones are left out.
func frameErrors(f *kafka.Frame) ([]string, int) {
	if f == nil || f.Root == nil {
		return nil, 0
	}
	var out []string
	more := 0
	seen := map[int64]bool{}
	var walk func(n *kafka.Node)
	walk = func(n *kafka.Node) {
		if v, ok := n.Raw.(int64); ok && v != 0 && strings.HasSuffix(n.Name, "ErrorCode") && !seen[v] {
			seen[v] = true
			if len(out) < maxRowErrors {
				out = append(out, kafka.ErrorName(int16(v)))
			} else {
				more++
			}
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(f.Root)
	return out, more
}

// folder is what a Writer does with its output folder (*outdir.Folder) when it is done.
type folder interface {
	Finish(outdir.FinishOptions) error
	Close() error
}

// New opens dir (created if needed; an output folder, outdir.Open) for a report written
// with Add and Close, or with Options.Create when it is set (dir is then unused).
func New(dir string, o Options) (*Writer, error) {
	w := newWriter(o)
	if o.Create == nil {
		ctx := o.Context
		if ctx == nil {
			ctx = context.Background()
		}
		f, err := outdir.Open(ctx, dir, outdir.Options{Kind: outdir.KindReport, Temps: o.Temps})
		if err != nil {
			return nil, err // site's errors name the folder
		}
		w.folder, w.o.Create = f, f.Create
	}
	return w, nil
}

// NewFiles is New for a report written only through Options.Create, which must be set: no
// output folder is opened, and a program that calls NewFiles, not New or Write, links none of
// the folder's code (the browser decoder, which writes its report into memory).
func NewFiles(o Options) (*Writer, error) {
	if o.Create == nil {
		return nil, errors.New("report: NewFiles without Options.Create")
	}
	return newWriter(o), nil
}

// newWriter is a Writer of o, its defaults filled in.
func newWriter(o Options) *Writer {
	if o.MaxExchanges <= 0 {
		o.MaxExchanges = DefaultMaxExchanges
	}
	if o.Title == "" {
		o.Title = "kafkagrid decode"
	}
	return &Writer{o: o, conns: map[int]*connSum{}, fields: MaxReportFields, writeIndex: writeIndex, writePage: writePage}
}

var errClosed = errors.New("report: the writer is closed")

// Add writes the page of exchange e of connection c, and its frames' files, while the report
// gives pages (Options.MaxExchanges), and counts it in the index. Call it once per exchange,
// in order; c.Exchanges may be empty (a capture decoded as it streams): Add reads c's ID,
// Client, Server and Notes.
func (w *Writer) Add(c *capture.Conn, e *capture.Exchange) error {
	if w.done {
		return errClosed
	}
	w.exchanges++
	sum := w.conns[c.ID]
	if sum == nil && len(w.conns) < MaxConns {
		sum = &connSum{ID: c.ID}
		w.conns[c.ID] = sum
		w.order = append(w.order, sum)
	}
	var apis []string
	var frames, failed int
	for _, m := range []*capture.Message{e.Request, e.Response} {
		if m == nil {
			continue
		}
		frames++
		if m.Err != nil {
			failed++
		}
		if m.Frame != nil && m.Frame.API != nil {
			apis = append(apis, m.Frame.API.Name)
		}
	}
	w.frames += frames
	w.failed += failed
	if sum == nil {
		return nil // counted in the line of connections left out
	}
	sum.describe(c)
	sum.Frames += frames
	sum.Failed += failed
	for _, a := range apis {
		if !slices.Contains(sum.APIs, a) && len(sum.APIs) < 100 {
			sum.APIs = append(sum.APIs, a)
		}
	}
	sum.n++
	if w.drawn >= w.o.MaxExchanges {
		sum.Left++
		return nil
	}
	w.drawn++
	row, err := w.page(c, sum.n, e)
	if err != nil {
		return err
	}
	sum.Rows = append(sum.Rows, row)
	return nil
}

// describe takes what the index says of c from its latest state.
func (s *connSum) describe(c *capture.Conn) {
	if c.Server.IsValid() {
		s.Title = fmt.Sprintf("Connection %d: %s → %s", c.ID, c.Client, c.Server)
	} else {
		s.Title = "Frames"
	}
	s.Notes = slices.Clone(c.Notes)
}

// Abort ends a report that will not be closed. Its output folder, when it has one, records
// what was written (the next report into it replaces those files, and removes what it does
// not write again) and is let go. It may be called after a failed Add or Close, and more
// than once.
func (w *Writer) Abort() {
	w.done = true
	w.release(false)
}

// release lets the output folder go, its manifest recording what was written; complete says
// the report is whole, so that an earlier report's files it did not write are removed.
func (w *Writer) release(complete bool) error {
	if w.folder == nil {
		return nil
	}
	err := w.folder.Finish(outdir.FinishOptions{Complete: complete})
	w.folder.Close()
	w.folder = nil
	return err
}

// Close writes the index of the report: r is the summary of what was decoded (its Kind,
// Packets, Notes and counts; its connections in the order the index lists them, also those
// no exchange was added for, with or without their Exchanges). On failure it ends the report
// as Abort does.
func (w *Writer) Close(r *capture.Result) error {
	if w.done {
		return errClosed
	}
	if r == nil {
		r = &capture.Result{}
	}
	v := indexView{Title: w.o.Title, Kind: string(r.Kind), Packets: r.Packets, Notes: slices.Clone(r.Notes)}
	v.Frames, v.Failed = w.frames+r.Unlisted, w.failed+r.Unlisted
	// The connections in r's order, those with exchanges first to be listed.
	var all []*connSum
	seen := map[int]bool{}
	for _, c := range r.Conns {
		if seen[c.ID] {
			continue
		}
		seen[c.ID] = true
		s := w.conns[c.ID]
		if s == nil {
			s = &connSum{ID: c.ID}
		}
		s.describe(c)
		all = append(all, s)
	}
	for _, s := range w.order {
		if !seen[s.ID] {
			all = append(all, s)
		}
	}
	listed := all
	if len(all) > MaxConns {
		keep := map[*connSum]bool{}
		for _, s := range all {
			if len(keep) < MaxConns && w.conns[s.ID] == s {
				keep[s] = true
			}
		}
		for _, s := range all {
			if len(keep) < MaxConns {
				keep[s] = true
			}
		}
		listed = slices.DeleteFunc(slices.Clone(all), func(s *connSum) bool { return !keep[s] })
	}
	listedFrames, listedExchanges := 0, 0
	for _, s := range listed {
		listedFrames += s.Frames
		listedExchanges += s.n
		if s.Left == 1 {
			s.LeftText = "1 more exchange of this connection has no page: the report gives pages to the first " + strconv.Itoa(w.o.MaxExchanges)
		} else if s.Left > 1 {
			s.LeftText = fmt.Sprintf("%d more exchanges of this connection have no page: the report gives pages to the first %d", s.Left, w.o.MaxExchanges)
		}
	}
	if n := len(all) - len(listed); n > 0 || w.exchanges > listedExchanges {
		v.Notes = append(v.Notes, fmt.Sprintf("%s (%s) %s left out of this report: it lists %d", counted(max(n, 0), "more connection", "more connections"), counted(w.frames-listedFrames, "frame", "frames"), isAre(max(n, 0)), MaxConns))
	}
	v.Left = w.exchanges - w.drawn
	if v.Left == 1 {
		v.LeftText = "1 more has no page"
	} else if v.Left > 0 {
		v.LeftText = fmt.Sprintf("%d more have none", v.Left)
	}
	v.Drawn = w.drawn
	v.Conns = listed
	err := w.o.Create("index.html", func(wr io.Writer) error { return w.writeIndex(wr, &v) })
	if err != nil {
		w.Abort()
		return fmt.Errorf("report: index.html: %w", err)
	}
	w.done = true
	w.conns, w.order = nil, nil
	if err := w.release(true); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

type indexView struct {
	Title          string
	Kind           string
	Packets        int
	Frames, Failed int
	Drawn, Left    int
	LeftText       string // "3 more have none"
	Notes          []string
	Conns          []*connSum
}

// pageView is one exchange's page.
type pageView struct {
	Title, Heading, Conn string
	Index, Prev          string
	Note                 string
	Sides                []*frameView
}

// frameView is one frame (or the frames nested in it) as a section of a page: its heading and
// notes, and what site.WriteMessage writes of it (ID is the section's id: "request",
// "response-n1"; the report draws every view at load, and cuts no drawing in parts for print).
type frameView struct {
	site.Message
	Heading string
	Caption string // a nested frame's: what it is
	Meta    string
	Missing string // why the side is missing ("no response"), when it is
	Error   string
	Notes   []string
	Nested  []*frameView

	// Cut says the page draws only the frame's first screen (site.Cut), to byte Cut.Shown.
	Cut *cutView

	bytes   []byte
	figs    *site.Figures // the frame drawn whole, nil if not (too many fields)
	frame   *kafka.Frame  // what the first screen is cut from (site.Cut)
	err     error         // why decoding failed, nil if it did not
	view    kafkaview.Options
	hexOpts site.HexOptions
	base    string // the frame's file base name under frames/
	parent  *frameView
	hexRoom budget // what place took for a nested frame's least hex dump
}

type fileLink = site.Link

// cutView is what a page says of a frame it draws the first screen of: how many of its bytes
// the drawings show, and the files that hold it whole (the drawings, else its text and JSON).
type cutView struct {
	Shown, Size int
	Drawn       bool // Whole are drawings of the whole frame, not its text and JSON
	Whole       []fileLink
	Why         string // why nothing of it is drawn, when Shown is 0
}

// page writes the page of the n-th exchange of connection c and the files of its frames, and
// returns its line in the index.
func (w *Writer) page(c *capture.Conn, n int, e *capture.Exchange) (rowView, error) {
	id := fmt.Sprintf("c%d-%d", c.ID, n)
	rel := "exchanges/" + id + ".html"
	row := rowView{N: n, Href: rel}
	pv := pageView{Title: w.o.Title, Index: "../index.html", Prev: w.prev, Note: e.Note}
	if c.Server.IsValid() {
		pv.Conn = fmt.Sprintf("Connection %d: %s → %s, exchange %d", c.ID, c.Client, c.Server, n)
	} else {
		pv.Conn = fmt.Sprintf("Exchange %d", n)
	}
	for side, m := range []*capture.Message{e.Request, e.Response} {
		name := [2]string{"request", "response"}[side]
		if m == nil {
			miss := "no request in the input"
			if side == 1 {
				miss = "no response"
			}
			pv.Sides = append(pv.Sides, &frameView{Message: site.Message{ID: name}, Heading: [2]string{"Request", "Response"}[side], Missing: miss})
			continue
		}
		vo := kafkaview.Options{Flat: w.o.Flat}
		fv, err := w.frame(id, name, m, vo)
		if err != nil {
			return row, err
		}
		pv.Sides = append(pv.Sides, fv)
		label := fmt.Sprintf("%s · %d B", strings.TrimSuffix(strings.TrimSuffix(fv.Heading, " request"), " response"), len(m.Bytes))
		if m.Err != nil {
			label += " · not decoded"
			row.Failed = true
		}
		if side == 0 {
			row.Request = label
			if m.Frame != nil {
				row.Client, _ = m.Frame.Header["ClientId"].(string)
			}
		} else {
			row.Response = label
			row.Errors, row.MoreErrors = frameErrors(m.Frame)
		}
	}
	switch {
	case row.Request != "":
		pv.Heading = strings.SplitN(row.Request, " · ", 2)[0]
	case row.Response != "":
		pv.Heading = strings.SplitN(row.Response, " · ", 2)[0]
	}
	if err := fitPage(pv.Sides); err != nil {
		return row, fmt.Errorf("report: %s: %w", rel, err)
	}
	if err := w.wholeFiles(pv.Sides); err != nil {
		return row, err
	}
	if err := w.o.Create(rel, func(wr io.Writer) error {
		return w.writePage(wr, &pv)
	}); err != nil {
		return row, err
	}
	w.prev = id + ".html"
	return row, nil
}

// frame writes the files of one message and draws it (site.Draw) when the report's budget of
// fields allows; fitPage then puts on the page what fits.
func (w *Writer) frame(id, name string, m *capture.Message, vo kafkaview.Options) (*frameView, error) {
	fv := &frameView{Message: site.Message{ID: name}, bytes: m.Bytes, err: m.Err, view: vo}
	f := m.Frame
	base := site.Prefixed(id, name)
	defer func() { fv.base = base }()
	switch {
	case f != nil && f.API != nil:
		fv.Heading = fmt.Sprintf("%s v%d %s", f.API.Name, f.Version, name)
		base = site.Prefixed(id, f.BaseName())
	case m.Token && name == "response":
		fv.Heading = "SASL token from the broker"
	case m.Token:
		fv.Heading = "SASL token from the client"
	default:
		fv.Heading = "undecoded " + name
	}
	meta := []string{fmt.Sprintf("%d bytes", len(m.Bytes))}
	if corr, ok := m.CorrelationID(name == "response"); ok && (f != nil && f.API != nil || m.Err != nil) {
		meta = append(meta, fmt.Sprintf("correlation id %d", corr))
	}
	if f != nil && f.API != nil && (m.Err == nil || f.CorrelationID != 0) {
		meta = append(meta, fmt.Sprintf("header v%d", f.HeaderVersion))
	}
	if m.Packet > 0 {
		meta = append(meta, fmt.Sprintf("packet %d", m.Packet), m.Time.UTC().Format("15:04:05.000000"))
	}
	meta = append(meta, fmt.Sprintf("stream offset %d", m.Offset))
	fv.Meta = strings.Join(meta, " · ")
	fv.hexOpts = site.HexOptions{}
	if m.Err != nil {
		fv.Error = m.Err.Error()
		var ke *kafka.Error
		if errors.As(m.Err, &ke) {
			fv.hexOpts.Failed, fv.hexOpts.FailAt = true, ke.Offset
		}
	}
	if f == nil || f.Root == nil {
		return fv, nil
	}
	fv.hexOpts.HaveJSON = true
	fv.frame = f
	exts := []string{jsonExt, textExt} // the ends of site.FrameFile's names
	switch {
	case f.Nodes > MaxDrawnFields:
		fv.Notes = append(fv.Notes, fmt.Sprintf("not drawn whole: %d fields (tree nodes), more than a report draws of one frame (%d); its text and JSON are in the files above", f.Nodes, MaxDrawnFields))
	case f.Nodes > w.fields:
		fv.Notes = append(fv.Notes, fmt.Sprintf("not drawn whole: %d fields (tree nodes), and the report has drawn as many as it draws in all (%d); its text and JSON are in the files above", f.Nodes, MaxReportFields))
	default:
		figs, err := site.Draw(f, site.Options{View: vo, Name: fv.Heading, Narrow: true, Err: m.Err, MaxNested: nestedMax(w.fields - f.Nodes)})
		if err != nil {
			return nil, fmt.Errorf("report: %s: %w", base, err)
		}
		w.fields -= figs.Nodes
		fv.figs = figs
		exts = []string{gridExt, treeExt, jsonExt, textExt}
	}
	// The JSON and the text are written as they are made: a frame may have a million nodes.
	write := map[string]func(io.Writer) error{
		gridExt: func(wr io.Writer) error { return site.WriteSVG(wr, fv.figs.Grid, false, "") },
		treeExt: func(wr io.Writer) error { return site.WriteSVG(wr, fv.figs.Tree, false, "") },
		jsonExt: func(wr io.Writer) error { return f.WriteJSON(wr, "", "") },
		textExt: func(wr io.Writer) error {
			if err := kafka.WriteText(wr, f.Root); err != nil || fv.Error == "" {
				return err
			}
			_, err := io.WriteString(wr, "error: "+fv.Error+"\n")
			return err
		},
	}
	for _, ext := range exts {
		if err := w.o.Create("frames/"+base+ext, write[ext]); err != nil {
			return nil, err
		}
		fv.Links = append(fv.Links, fileLink{Label: strings.TrimPrefix(strings.TrimPrefix(ext, "-"), "."), Href: "../frames/" + base + ext})
	}
	return fv, nil
}

// wholeFiles writes, for each message and nested frame the page draws the first screen of,
// the files of its whole drawings it does not have yet, and lists them in its Cut: a frame's
// 16-bit grid (…-grid16.svg, for a phone) beside its grid and tree; a nested frame's grid,
// 16-bit grid and tree (…-n1-grid.svg). Without whole drawings (too many fields), Cut lists
// the frame's text and JSON.
func (w *Writer) wholeFiles(sides []*frameView) error {
	for _, fv := range sides {
		for _, v := range append([]*frameView{fv}, fv.Nested...) {
			if v.Cut == nil {
				continue
			}
			if err := w.wholeFilesOf(v); err != nil {
				return err
			}
		}
	}
	return nil
}

func (w *Writer) wholeFilesOf(v *frameView) error {
	top := v.parent == nil
	base := v.base
	if !top {
		base = v.parent.base + strings.TrimPrefix(v.ID, v.parent.ID)
	}
	if v.figs == nil {
		from := v
		if !top {
			from = v.parent
		}
		for _, l := range from.Links {
			if l.Label == "json" || l.Label == "txt" {
				v.Cut.Whole = append(v.Cut.Whole, l)
			}
		}
		return nil
	}
	v.Cut.Drawn = true
	files := []struct {
		label, ext string
		fig        site.Figure
		have       bool
	}{
		{"grid.svg", gridExt, v.figs.Grid, top},
		{"16-bit grid (for a phone)", narrowExt, v.figs.Narrow, false},
		{"tree.svg", treeExt, v.figs.Tree, top},
	}
	for _, f := range files {
		if f.fig.Drawing == nil {
			continue
		}
		name := "frames/" + base + f.ext
		if !f.have {
			fig := f.fig
			if err := w.o.Create(name, func(wr io.Writer) error { return site.WriteSVG(wr, fig, false, "") }); err != nil {
				return err
			}
		}
		v.Cut.Whole = append(v.Cut.Whole, fileLink{Label: f.label, Href: "../" + name})
	}
	return nil
}

// nestedMax is site.Options.MaxNested for a frame that leaves left fields of what the report
// draws in all: at most site.DefaultMaxNested, and -1 (no nested frame drawn) when none are
// left, since a MaxNested of 0 would mean site.DefaultMaxNested.
func nestedMax(left int) int {
	if left <= 0 {
		return -1
	}
	return min(site.DefaultMaxNested, left)
}

// fitPage puts on the page what its ceilings hold: first each frame's least hex dump (its
// first MinHexBytes) and the first screen of each frame's drawings (site.Cut), so that every
// message has live drawings linked to its bytes; then, in order, each frame and nested frame
// drawn whole where that fits, else its first screen where that fits; the narrow grid of
// each frame drawn whole for a phone while it fits; then more of each hex dump, up to
// MaxHexBytes.
func fitPage(sides []*frameView) error {
	room := &budget{MaxPageElements - pageReserveElements, MaxPageBytes - pageReserveBytes}
	var frames []*frameView
	for _, fv := range sides {
		if fv.Missing == "" {
			frames = append(frames, fv)
		}
	}
	hexShown := make([]int, len(frames))
	for i, fv := range frames {
		hexShown[i] = min(len(fv.bytes), MinHexBytes)
		e, b := hexCost(hexShown[i], fv.hexOpts, len(fv.bytes))
		room.take(e+msgChrome, b+msgChromeBytes)
	}
	items, err := collect(frames, room)
	if err != nil {
		return err
	}
	nested := place(items, room)
	// More of each hex dump with what is left, frames first.
	for i, fv := range frames {
		n := hexShown[i]
		for n < min(len(fv.bytes), MaxHexBytes) {
			next := min(n+256, len(fv.bytes), MaxHexBytes)
			e0, b0 := hexCost(n, fv.hexOpts, len(fv.bytes))
			e1, b1 := hexCost(next, fv.hexOpts, len(fv.bytes))
			if !room.fits(e1-e0, b1-b0) {
				break
			}
			room.take(e1-e0, b1-b0)
			n = next
		}
		fv.hexOpts.Limit = n
		fv.setHex()
	}
	for _, nv := range nested {
		room.take(-nv.hexRoom.elements, -nv.hexRoom.size)
		n := min(len(nv.bytes), MaxHexBytes)
		for n > 0 {
			if e, b := hexCost(n, site.HexOptions{}, len(nv.bytes)); room.fits(e, b) {
				room.take(e, b)
				break
			}
			n = (n - 1) &^ 255
		}
		if n <= 0 {
			nv.Notes = append(nv.Notes, "its bytes are in the frame's JSON: the page has no room for their hex dump")
			continue
		}
		nv.hexOpts = site.HexOptions{Limit: n, HaveJSON: true}
		nv.setHex()
	}
	return nil
}

// budget is what a page may still hold: elements and bytes.
type budget struct{ elements, size int }

func (r *budget) fits(e, b int) bool { return e <= r.elements && b <= r.size }
func (r *budget) take(e, b int)      { r.elements, r.size = r.elements-e, r.size-b }

// collect renders what could be drawn on the page: each frame and its nested frames, in
// order, whole (when drawn) and their first screen, taking each section's own cost from
// room; nested frames past what a page holds are counted in a note.
func collect(frames []*frameView, room *budget) ([]*drawn, error) {
	var items []*drawn
	for _, fv := range frames {
		if fv.frame == nil {
			continue
		}
		d, err := renderBoth(fv, fv.figs, room)
		if err != nil {
			return nil, err
		}
		items = append(items, d)
		if fv.figs == nil {
			continue
		}
		for j, n := range fv.figs.Nested {
			if !room.fits(2*msgChrome, 2*msgChromeBytes) {
				// A section even without drawings costs the page: the rest are counted.
				fv.Notes = append(fv.Notes, fmt.Sprintf("%d more nested frames (the records of compressed batches) are not on this page: their records are in the frame's JSON and text", len(fv.figs.Nested)-j))
				break
			}
			room.take(msgChrome, msgChromeBytes)
			nv := &frameView{Message: site.Message{ID: fmt.Sprintf("%s-n%d", fv.ID, j+1)}, Caption: n.Caption, frame: n.Frame, figs: n.Figures, parent: fv}
			fv.Nested = append(fv.Nested, nv)
			if n.Note != "" {
				nv.Notes = append(nv.Notes, n.Note)
			}
			if n.Frame == nil {
				continue
			}
			nv.bytes = n.Frame.Bytes
			d, err := renderBoth(nv, n.Figures, room)
			if err != nil {
				return nil, err
			}
			items = append(items, d)
		}
	}
	return items, nil
}

// renderBoth renders fv's drawings whole (from fs, when drawn) and its first screen (site.Cut)
// at each of cutNodes, largest first: none when the frame fits a first screen and is drawn
// whole.
func renderBoth(fv *frameView, fs *site.Figures, room *budget) (*drawn, error) {
	d := &drawn{fv: fv}
	if fs != nil {
		var err error
		if d, err = render(fv, fs, room.elements, room.size); err != nil {
			return nil, err
		}
	}
	rest, about := "in the hex dump, text and JSON", "This page draws the first bytes of this frame, which has too many fields for a page; this field stands for the others. Each byte is in the hex dump (its first 4 KB), and every field in the frame's text and JSON files."
	if fs != nil {
		rest = "drawn whole in the files"
		about = "This page draws the first bytes of this frame, whose drawings would take the page over its ceilings; this field stands for the others. Each byte is in the hex dump (its first 4 KB), and the whole frame is drawn in the files linked above the drawings."
	}
	name := fv.Heading
	if name == "" {
		name = "records"
	}
	for _, nodes := range cutNodes {
		cf, at := site.Cut(fv.frame, nodes, func(left int) (string, string) { return fmt.Sprintf("%d bytes, %s", left, rest), about })
		if at >= len(fv.frame.Bytes) && fs != nil {
			return d, nil // the first screen is the whole
		}
		figs, err := site.Draw(cf, site.Options{View: fv.view, Name: name, Narrow: true, Err: fv.err, MaxNested: -1})
		if err != nil {
			return nil, fmt.Errorf("report: %s: first screen: %w", name, err)
		}
		c, err := render(fv, figs, MaxPageElements, MaxPageBytes)
		if err != nil {
			return nil, err
		}
		// A first screen is shown with its narrow grid: a phone shows that one.
		c.elements += c.narrowElements
		c.bytes += c.narrowBytes
		c.cutAt = at
		d.cuts = append(d.cuts, c)
	}
	return d, nil
}

// cutNodes are the sizes of a frame's first screen a page tries, in fields (site.Cut): the
// largest that fits the page is drawn.
var cutNodes = []int{site.FirstScreenNodes, 40, 32, 26, 20, 14, 8}

// place puts the drawings on each section: first the first screen of each frame (not nested),
// or the frame when it is no bigger, so that every message is drawn live; then, in order, each frame and nested frame whole where
// that fits (a frame's first screen given back), else a nested frame's first screen where that
// fits; then, with what is left, the narrow grid of each frame drawn whole, in order, while it
// fits (a phone shows that one whole; a message without it scrolls its 32-bit grid in its own
// box). It returns the nested sections drawn (whose hex dumps come last).
func place(items []*drawn, room *budget) []*frameView {
	// Each frame's least drawing is held for it first (its smallest first screen, else
	// itself, no bigger than a first screen): the nested frames placed before a response
	// cannot leave it undrawn.
	reserved := map[*drawn]*drawn{}
	for _, d := range items {
		c := d
		if len(d.cuts) > 0 {
			c = d.cuts[len(d.cuts)-1]
		}
		if d.fv.parent == nil && c.grid != "" && room.fits(c.elements, c.bytes) {
			room.take(c.elements, c.bytes)
			reserved[d] = c
		}
	}
	var nested, whole []*drawn
	for _, d := range items {
		fv := d.fv
		if c := reserved[d]; c != nil {
			room.take(-c.elements, -c.bytes)
		}
		// A nested frame's drawings come with room for its least hex dump, taken now and
		// given back when its dump is made (fitPage): no drawing without its bytes.
		var hex budget
		if fv.parent != nil {
			hex.elements, hex.size = hexCost(min(len(fv.bytes), MinHexBytes), site.HexOptions{}, len(fv.bytes))
		}
		if d.grid != "" && room.fits(d.elements+hex.elements, d.bytes+hex.size) {
			room.take(d.elements+hex.elements, d.bytes+hex.size)
			fv.hexRoom = hex
			fv.show(d, d.fs.Grid.Width(), d.fs.Tree.Width())
			whole = append(whole, d)
		} else if c := fitting(d.cuts, room, hex); c != nil {
			room.take(c.elements+hex.elements, c.bytes+hex.size)
			fv.hexRoom = hex
			fv.show(c, c.fs.Grid.Width(), c.fs.Tree.Width())
			fv.Narrow, fv.NarrowW = c.narrow, c.fs.Narrow.Width()
			fv.Fit = site.Fit(fv.ID, fv.GridW, fv.NarrowW, fv.TreeW)
			fv.Cut = &cutView{Shown: c.cutAt, Size: len(fv.frame.Bytes)}
		} else {
			fv.Cut = &cutView{Size: len(fv.frame.Bytes), // links the whole
				Why: fmt.Sprintf("Not drawn on this page: it would take it over its ceiling of %d elements and %d KB.", MaxPageElements, MaxPageBytes>>10)}
			continue
		}
		if fv.parent != nil {
			nested = append(nested, d)
		}
	}
	for _, d := range whole {
		fv := d.fv
		if d.narrow != "" && room.fits(d.narrowElements, d.narrowBytes) {
			room.take(d.narrowElements, d.narrowBytes)
			fv.Narrow, fv.NarrowW = d.narrow, d.fs.Narrow.Width()
			fv.Fit = site.Fit(fv.ID, fv.GridW, fv.NarrowW, fv.TreeW)
		} else {
			fv.Fit = site.FitWide(fv.ID, fv.GridW, fv.TreeW)
		}
	}
	out := make([]*frameView, len(nested))
	for i, d := range nested {
		out[i] = d.fv
	}
	return out
}

// fitting returns the first of cuts (the largest) that fits room with more, nil if none.
func fitting(cuts []*drawn, room *budget, more budget) *drawn {
	for _, c := range cuts {
		if room.fits(c.elements+more.elements, c.bytes+more.size) {
			return c
		}
	}
	return nil
}

// show puts d's grid, tree and detail data on fv's section.
func (fv *frameView) show(d *drawn, gridW, treeW int) {
	fv.Grid, fv.Tree, fv.Detail = d.grid, d.tree, d.detail
	fv.GridW, fv.TreeW = gridW, treeW
}

// setHex writes fv's hex dumps, 16 and 8 bytes a line.
func (fv *frameView) setHex() {
	fv.Hex = site.HexHTML(fv.bytes, fv.hexOpts)
	o8 := fv.hexOpts
	o8.PerLine = 8
	fv.Hex8 = site.HexHTML(fv.bytes, o8)
}

// hexCost is what the two hex dumps (16 and 8 bytes a line) of n bytes of a frame of size
// bytes cost a page: elements and bytes, with the lines around a failing byte past them.
func hexCost(n int, o site.HexOptions, size int) (elements, bytes int) {
	if n < size && o.Failed && o.FailAt >= n {
		n += 288 // the lines around the failing byte (site.HexHTML)
	}
	n = min(n, size)
	elements = site.HexElements(n, 16) + site.HexElements(n, 8)
	return elements, 2 * (n*22 + (n/8+2)*40)
}

// drawn is a frame's drawings rendered for a page, with what they cost it.
type drawn struct {
	fv                          *frameView
	fs                          *site.Figures
	cuts                        []*drawn // the first screen (site.Cut) at each of cutNodes
	cutAt                       int      // of a first screen: the byte where its rest starts
	grid, narrow, tree          string
	detail                      string
	elements, bytes             int // grid, tree and detail data
	narrowElements, narrowBytes int
}

// render paints fs's drawings for fv's section, unless even a lower bound of what they cost
// (a box and a text a field in the grid, a row of three texts a node in the tree) is more
// than elements: then its grid is "".
func render(fv *frameView, fs *site.Figures, elements, size int) (*drawn, error) {
	d := &drawn{fv: fv, fs: fs}
	if fs.Nodes*4 > elements {
		return d, nil
	}
	var err error
	if d.grid, err = site.InlineSVG(fs.Grid, fv.ID+"-grid"); err != nil {
		return nil, err
	}
	if d.narrow, err = site.InlineSVG(fs.Narrow, fv.ID+"-grid16"); err != nil {
		return nil, err
	}
	if d.tree, err = site.InlineSVG(fs.Tree, fv.ID+"-tree"); err != nil {
		return nil, err
	}
	if d.detail, err = site.DetailJSON(fs.Fields, nil); err != nil {
		return nil, err
	}
	d.elements = site.Elements([]byte(d.grid)) + site.Elements([]byte(d.tree))
	d.bytes = len(d.grid) + len(d.tree) + len(d.detail)
	d.narrowElements, d.narrowBytes = site.Elements([]byte(d.narrow)), len(d.narrow)
	return d, nil
}

// The ends of a frame's files' names, site.FrameFile's ("c1-2-0-Produce-v12-request-grid.svg"),
// fixed here: the formats' table is not linked into the browser decoder (TestFileExts checks
// them against it).
const (
	gridExt = "-" + site.FigureGrid + ".svg"
	treeExt = "-" + site.FigureTree + ".svg"
	jsonExt = ".json"
	textExt = ".txt"
	// narrowExt ends the file of a frame's 16-bit grid, written where the page draws its
	// first screen (the whole a phone opens).
	narrowExt = "-grid16.svg"
)

// reportCSS adds the report's pieces to the site's stylesheet (site.CSS), with its colours,
// so they follow the reader's light or dark preference and fit a phone.
const reportCSS = `.err{background:var(--panel);border-left:4px solid var(--accent);padding:.4rem .6rem;font-family:"Go Mono","DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:13px;white-space:pre-wrap;overflow-wrap:anywhere}
.missing{color:var(--muted);font-style:italic;border:1px dashed var(--rule);border-radius:6px;padding:.75rem}
h2 .meta{display:block;font-size:13px;font-weight:normal;color:var(--muted);overflow-wrap:anywhere}
table.xch{border-collapse:collapse;width:100%;font-size:14px;margin:.25rem 0 1rem}
table.xch th,table.xch td{text-align:left;vertical-align:top;padding:.3rem .6rem;border-bottom:1px solid var(--rule);overflow-wrap:anywhere}
table.xch th{font-size:13px;color:var(--muted);font-weight:600}table.xch td.num{width:3.5em;font-variant-numeric:tabular-nums}
table.xch tr.bad td{color:var(--accent)}
h1,h2.conn,p.lead,nav.top>*,footer{overflow-wrap:anywhere;min-width:0}table.xch th{overflow-wrap:normal}
@media (max-width:640px){table.xch{font-size:13px}table.xch th,table.xch td{padding:.25rem .3rem}
 table.xch.ex thead{display:none}table.xch.ex tr{display:block;padding:.3rem 0;border-bottom:1px solid var(--rule)}
 table.xch.ex td{display:inline-block;border:none;padding:.1rem .3rem}table.xch.ex td[data-label]{display:block}
 table.xch.ex td[data-label]:empty{display:none}table.xch.ex td[data-label]::before{content:attr(data-label) ": ";color:var(--muted);font-family:system-ui,sans-serif}table.xch.ex td.num{width:auto}}
`

// counted counts n things: "1 frame", "2 frames".
func counted(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// isAre is the verb of a count of n things.
func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}
