package reference

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/kafkagrid/kafkagrid/canvas/pdfcanvas"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site"
	"github.com/kafkagrid/kafkagrid/site/kafkaview"
)

// ShowOptions configure Show. The zero value prints the request at the highest version as text.
type ShowOptions struct {
	Response bool   // the response instead of the request
	Format   Format // Text (default), SVG or JSON: exactly one
	Tree     bool   // with SVG: the expanded tree instead of the byte grid
	// Version is the version to show when HasVersion is set; else the highest.
	Version    int16
	HasVersion bool
	// Inline writes an SVG without its XML prolog (for HTML), IDPrefix its root id (empty:
	// a hash of the drawing).
	Inline   bool
	IDPrefix string
	// Theme is an SVG's palette: svgcanvas.ThemeAuto (or empty), ThemeLight or ThemeDark.
	Theme string
	// Date is a PDF's creation date (zero: pdfcanvas.DefaultDate).
	Date time.Time
}

// ShowVersions writes what Show writes of each version of versions, in their order: as text
// one after the other, a blank line between; as JSON an array of the frames. opts.Version is
// each of them in turn.
func ShowVersions(w io.Writer, cat *kafka.Catalog, a *kafka.API, opts ShowOptions, versions []int16) error {
	sep := "\n"
	if opts.Format == JSON {
		sep = ",\n"
		io.WriteString(w, "[\n")
	}
	for i, v := range versions {
		opts.Version, opts.HasVersion = v, true
		var buf bytes.Buffer
		if err := Show(&buf, cat, a, opts); err != nil {
			return err
		}
		out := strings.TrimRight(buf.String(), "\n") + "\n"
		if i > 0 {
			out = sep + out
		}
		if _, err := io.WriteString(w, out); err != nil {
			return err
		}
	}
	if opts.Format == JSON {
		io.WriteString(w, "]\n")
	}
	return nil
}

// Show writes one API's example request or response to w: as text (the version's header
// versions and what changed in it, the byte grid as RFC ASCII art and the expanded tree), as a
// standalone SVG (the byte grid, or the tree), or as the annotated frame in JSON with what
// changed in the version ("changes", "kafka_comments"). The frame is the one Build writes for
// the API at that version.
func Show(w io.Writer, cat *kafka.Catalog, a *kafka.API, opts ShowOptions) error {
	if cat == nil || a == nil {
		return fmt.Errorf("reference: show: no API")
	}
	f, err := showFormat(opts.Format)
	if err != nil {
		return err
	}
	v := a.Version
	vs := kafka.VersionSet{}
	if opts.HasVersion {
		v = opts.Version
		if !a.Request.ValidIn(v) {
			return fmt.Errorf("reference: show: %s v%d is not a valid version in Kafka %s (valid: %s)", a.Name, v, a.Release, a.Request.ValidVersions)
		}
		var err error
		if vs, err = kafka.ParseVersionSet(strconv.Itoa(int(v))); err != nil {
			return err
		}
	}
	info := history(a, nil, v)
	var vi versionInfo
	for _, h := range info {
		if h.Version == v {
			vi = h
		}
	}
	// The one API drawn: its examples only, not the catalogue's.
	content, _, err := vectorContentOpts(cat, kafka.VectorOptions{Versions: vs, APIs: []*kafka.API{a}}, nil)
	if err != nil {
		return err
	}
	c, err := content(a, v, f)
	if err != nil {
		return err
	}
	m := c.Request
	if opts.Response {
		m = c.Response
	}
	return writeMessage(w, m, &vi, f, opts)
}

// ShowFrame writes a frame decoded from real bytes as Show writes an example frame: the same
// drawings, text and JSON (without what changed in the version). request is the response's
// request when known (an Envelope response carries a frame the request's names), else nil.
func ShowFrame(w io.Writer, cat *kafka.Catalog, fr, request *kafka.Frame, opts ShowOptions) error {
	if cat == nil || fr == nil || fr.API == nil || fr.Root == nil {
		return fmt.Errorf("reference: show: no decoded frame")
	}
	f, err := showFormat(opts.Format)
	if err != nil {
		return err
	}
	if fr.Response && request != nil && fr.API.Facts().Envelope {
		// The nested response is read as the answer to the request's nested frame: read the
		// frame again as its request's answer, in case it was decoded without it.
		if again, err := cat.DecodeResponse(fr.Bytes, request, kafka.DecodeOptions{}); err == nil {
			fr = again
		}
	}
	m, err := frameMessage(fr, kafkaview.Options{}, f)
	if err != nil {
		return err
	}
	return writeMessage(w, m, nil, f, opts)
}

// writeMessage writes m in format f; vi, when not nil, is the version's history for the text
// and JSON forms.
func writeMessage(w io.Writer, m *message, vi *versionInfo, f Format, opts ShowOptions) error {
	var err error
	d := m.Grid
	if opts.Tree {
		d = m.Tree
	}
	switch f {
	case SVG:
		ew := &errWriter{w: w}
		if err := site.WriteThemedSVG(ew, d, opts.Inline, opts.IDPrefix, opts.Theme); err != nil {
			return fmt.Errorf("reference: show: %w", err)
		}
		return ew.err
	case PDF:
		err = pdfcanvas.Write(w, d.Drawing, pdfcanvas.DocOptions{Title: d.Title, Subject: d.Desc, Date: opts.Date})
	case JSON:
		out := m.JSON
		if vi != nil {
			out, err = withChanges(m.JSON, *vi)
		}
		if err == nil {
			_, err = w.Write(out)
		}
	default:
		if vi != nil {
			_, err = io.WriteString(w, changesText(*vi))
		}
		if err == nil {
			_, err = w.Write(m.Text)
		}
	}
	if err != nil {
		return fmt.Errorf("reference: show: %w", err)
	}
	return nil
}

// changesText is a version's header versions and what changed in it, for the text form.
func changesText(vi versionInfo) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Version %d: %s\n", vi.Version, vi.Headers)
	fmt.Fprintf(&b, "What changed in v%d:\n", vi.Version)
	if len(vi.Changes) == 0 {
		fmt.Fprintln(&b, "  nothing in the bytes (a version that changes behaviour only)")
	}
	for _, c := range vi.Changes {
		fmt.Fprintf(&b, "  %s\n", c)
	}
	for _, c := range vi.Comments {
		fmt.Fprintf(&b, "  Kafka's comment, %s:%d: %s\n", c.File, c.Line, c.Text)
	}
	b.WriteString("\n")
	return b.String()
}

// withChanges adds a version's changes to an annotated frame's JSON object, as its last keys.
func withChanges(frame []byte, vi versionInfo) ([]byte, error) {
	type comment struct {
		File string `json:"file"`
		Line int    `json:"line"`
		Text string `json:"text"`
	}
	extra := struct {
		Headers  string    `json:"headers"`
		Changes  []string  `json:"changes"`
		Comments []comment `json:"kafka_comments"`
	}{Headers: vi.Headers, Changes: vi.Changes, Comments: []comment{}}
	if extra.Changes == nil {
		extra.Changes = []string{}
	}
	for _, c := range vi.Comments {
		extra.Comments = append(extra.Comments, comment{c.File, c.Line, c.Text})
	}
	add, err := json.MarshalIndent(extra, "", "  ")
	if err != nil {
		return nil, err
	}
	body := bytes.TrimRight(frame, " \n")
	if len(body) < 2 || body[len(body)-1] != '}' {
		return nil, fmt.Errorf("reference: show: the frame's JSON is not an object")
	}
	var out bytes.Buffer
	out.Write(bytes.TrimRight(body[:len(body)-1], " \n")) // without its closing brace
	out.WriteString(",\n")
	out.Write(bytes.Trim(add[1:len(add)-1], "\n")) // the members, indented as the frame's
	out.WriteString("\n}\n")
	if !json.Valid(out.Bytes()) {
		return nil, fmt.Errorf("reference: show: could not add the changes to the frame's JSON")
	}
	return out.Bytes(), nil
}

// showFormat is the format Show and ShowFrame write: opts.Format, Text when unset; one of
// Text, SVG, JSON and PDF.
func showFormat(f Format) (Format, error) {
	if f == 0 {
		f = Text
	}
	if f != Text && f != SVG && f != JSON && f != PDF {
		return f, fmt.Errorf("reference: show: format %s: want one of txt, svg, json, pdf", f)
	}
	return f, nil
}
