package webdecoder

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/kafkagrid/kafkagrid/capture"
	"github.com/kafkagrid/kafkagrid/capture/decode"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site/report"
)

// Result is what the page shows of a decode: decode's standard output (text), what it prints
// on standard error ("kafkagrid: …") and its exit status; a line saying what was read; the
// drawing of the first exchange; and how many exchanges the report has.
type Result struct {
	Text    string   `json:"text"`
	Stderr  string   `json:"stderr"`
	Status  int      `json:"status"`
	Summary string   `json:"summary,omitempty"`
	Figures []Figure `json:"figures,omitempty"`
	// Exchanges is how many exchanges were read: the report (Decoder.Report) has a page for
	// each, up to report.DefaultMaxExchanges.
	Exchanges int `json:"exchanges,omitempty"`
	// Need says the decode looked for the bytes in the other releases and some of them were
	// not loaded yet (Releases.Load said so): the page loads them all and asks again.
	Need bool `json:"need,omitempty"`
}

// Decoder decodes what the page gives it, and keeps the last decode for its JSON and its
// report, made only when asked. It is not safe for concurrent use (the page is one thread).
type Decoder struct {
	rels Releases
	last *decoded
}

// decoded is the last decode: what its JSON and report are made from.
type decoded struct {
	cat  *kafka.Catalog
	name string
	data []byte          // a capture's bytes, read again as it streams
	opts capture.Options // its reader's options
	res  *capture.Result // any other input, read whole
	rep  *reportFiles    // once written
}

// New returns a decoder of the releases rels.
func New(rels Releases) *Decoder { return &Decoder{rels: rels} }

// Decode decodes data as "kafkagrid decode -schemas SITE-SCHEMAS -release q.Release [flags] NAME"
// does, where SITE-SCHEMAS is the folder of the releases the site was built from: the text it
// prints, its error and exit status; and the drawing of the first exchange. The JSON and the
// report wait for JSON and Report.
func (d *Decoder) Decode(ctx context.Context, q Request, data []byte) Result {
	d.last = nil
	var res Result
	if err := d.run(ctx, q, data, &res); err != nil {
		res.Stderr, res.Status = errorText(err)
	}
	return res
}

// errorText is what the command prints of err on standard error and its exit status.
func errorText(err error) (string, int) {
	status := 1
	var u usageError
	if errors.As(err, &u) {
		status = 2
	}
	return "kafkagrid: " + err.Error() + "\n", status
}

func (d *Decoder) run(ctx context.Context, q Request, data []byte, res *Result) error {
	f, err := q.flags()
	if err != nil {
		return err
	}
	name := q.name()
	if err := InputSize(name, len(data)); err != nil {
		return err
	}
	if !slices.Contains(d.rels.Names, q.Release) {
		return usagef("decode: -release %q: this site has Kafka %s", q.Release, strings.Join(d.rels.Names, ", "))
	}
	c, ok, err := d.rels.Load(q.Release)
	if err != nil {
		return fmt.Errorf("decode: %w", err)
	}
	if !ok {
		res.Need = true
		return nil
	}
	rels := decode.Releases{Others: d.rels.others(q.Release, &res.Need), Flag: func(rel string) string { return "-release " + rel }}
	r, err := decode.NewReader(ctx, c, f, name, rels)
	if err != nil {
		return usage(err)
	}
	last := &decoded{cat: c, name: name, opts: r.Options}
	if capture.IsPcap(data) {
		last.data = data
		d.last = last
		return d.stream(res, q.Narrow)
	}
	rd, err := r.Read(data)
	if res.Need {
		return nil
	}
	if err != nil {
		return fmt.Errorf("decode: %s: %w", shownName(name), err)
	}
	var text bytes.Buffer
	if err := decode.Write(&text, rd, decode.Format{}); err != nil {
		return fmt.Errorf("decode: %w", err)
	}
	res.Text = text.String()
	last.res = rd
	d.last = last
	n := decode.CountOf(rd)
	first, exchanges := firstExchange(rd)
	res.Exchanges = exchanges
	res.Summary = summary(n, exchanges, len(rd.Conns))
	res.Figures = drawExchange(first, q.Narrow)
	return status(c, name, rd, n)
}

// status is decode's outcome, after the input's name.
func status(c *kafka.Catalog, name string, r *capture.Result, n decode.Count) error {
	if err := decode.Status(c, r, n); err != nil {
		return fmt.Errorf("decode: %s: %w", shownName(name), err)
	}
	return nil
}

// stream decodes the last decode's capture as decode does, streaming (decode.WriteStream):
// the text and the outcome are decode's; a second reading keeps the first exchange, to draw
// (16 bits a row when narrow).
func (d *Decoder) stream(res *Result, narrow bool) error {
	l := d.last
	var text bytes.Buffer
	r, n, err := decode.WriteStream(&text, l.cat, bytes.NewReader(l.data), l.opts, decode.Format{})
	res.Text = text.String()
	if ie := (*decode.InputError)(nil); errors.As(err, &ie) {
		return fmt.Errorf("decode: %s: %w", shownName(l.name), ie.Err)
	}
	if err != nil {
		return fmt.Errorf("decode: %w", err)
	}
	var first *capture.Exchange
	exchanges := 0
	if _, _, err := decode.Stream(l.cat, bytes.NewReader(l.data), l.opts, func(_ *capture.Conn, e *capture.Exchange) error {
		if exchanges++; first == nil {
			first = e
		}
		return nil
	}); err == nil {
		res.Figures = drawExchange(first, narrow)
	}
	res.Exchanges = exchanges
	res.Summary = summary(n, exchanges, len(r.Conns))
	return status(l.cat, l.name, r, n)
}

// firstExchange is the first exchange of r and how many r has.
func firstExchange(r *capture.Result) (*capture.Exchange, int) {
	var first *capture.Exchange
	n := 0
	for _, c := range r.Conns {
		for _, e := range c.Exchanges {
			if n++; first == nil {
				first = e
			}
		}
	}
	return first, n
}

// summary says what was read: the frames, how many decoded, the exchanges and connections.
func summary(n decode.Count, exchanges, conns int) string {
	s := fmt.Sprintf("%s, %d decoded", plural(n.Frames, "frame"), n.Frames-n.Failed)
	if conns > 1 {
		s += fmt.Sprintf(", in %s", plural(conns, "connection"))
	}
	if exchanges > 1 {
		s += fmt.Sprintf("; the first of %d exchanges is drawn", exchanges)
	}
	return s
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// JSON is the last decode's JSON, what decode -format json prints of it, and the notes it
// prints on standard error when the JSON is one frame alone ("kafkagrid: decode: note: …").
func (d *Decoder) JSON() (js, notes string, err error) {
	l := d.last
	if l == nil {
		return "", "", errors.New("decode: nothing decoded")
	}
	var b bytes.Buffer
	if l.res == nil {
		_, _, err := decode.WriteStream(&b, l.cat, bytes.NewReader(l.data), l.opts, decode.Format{JSON: true})
		if err != nil {
			return b.String(), "", err
		}
		return b.String(), "", nil
	}
	if err := decode.Write(&b, l.res, decode.Format{JSON: true}); err != nil {
		return "", "", err
	}
	var nb strings.Builder
	for _, n := range decode.JSONNotes(l.res) {
		fmt.Fprintf(&nb, "kafkagrid: decode: note: %s\n", n)
	}
	return b.String(), nb.String(), nil
}

// reportFiles are the files of a report, each written when asked for (File): what the
// report's writer would write, kept as the functions that write them.
type reportFiles struct {
	fill map[string]func(io.Writer) error
}

func (rf *reportFiles) create(rel string, fill func(io.Writer) error) error {
	rf.fill[rel] = fill
	return nil
}

// Report lays out the last decode's report, what decode -o writes (report.Write; a capture
// as it streams, report.Writer.Add), and lists its files by their paths in the report's
// folder (index.html, exchanges/c1-1.html, frames/…), sorted; first is the page to show first:
// the one exchange's when there is one, else the index. No file is written until File asks.
func (d *Decoder) Report() (files []string, first string, err error) {
	l := d.last
	if l == nil {
		return nil, "", errors.New("decode: nothing decoded")
	}
	if l.rep == nil {
		rf := &reportFiles{fill: map[string]func(io.Writer) error{}}
		o := report.Options{Title: "kafkagrid decode " + l.name, Create: rf.create}
		if err := writeReport(l, o); err != nil {
			return nil, "", fmt.Errorf("decode: %w", err)
		}
		l.rep = rf
	}
	pages := 0
	for rel := range l.rep.fill {
		files = append(files, rel)
		if strings.HasPrefix(rel, "exchanges/") {
			pages++
			first = rel
		}
	}
	sort.Strings(files)
	if pages != 1 {
		first = "index.html"
	}
	return files, first, nil
}

// writeReport writes the report of l with o.
func writeReport(l *decoded, o report.Options) error {
	// NewFiles, not New or Write: the page's report goes into memory, and the output folder's
	// code stays out of the WebAssembly.
	w, err := report.NewFiles(o)
	if err != nil {
		return err
	}
	if l.res != nil {
		return w.WriteAll(l.res)
	}
	r, _, err := decode.Stream(l.cat, bytes.NewReader(l.data), l.opts, w.Add)
	if err != nil {
		w.Abort()
		return fmt.Errorf("%s: %w", shownName(l.name), err)
	}
	return w.Close(r)
}

// File writes the file rel of the last decode's report (Report lists them).
func (d *Decoder) File(rel string) (string, error) {
	if d.last == nil || d.last.rep == nil {
		return "", errors.New("decode: no report")
	}
	fill, ok := d.last.rep.fill[rel]
	if !ok {
		return "", fmt.Errorf("decode: the report has no %s", rel)
	}
	var b bytes.Buffer
	if err := fill(&b); err != nil {
		return "", fmt.Errorf("decode: %s: %w", rel, err)
	}
	return b.String(), nil
}
