// Package report writes what package capture decoded as files a person reads: an HTML report
// of the whole input (its connections; each request beside its response in time order; each
// frame with its byte grid, expanded tree and hex dump, as the API pages draw them; the
// records inside compressed batches as nested frames) and, per frame, the grid and tree as
// standalone SVG, the annotated frame as JSON and the text tree.
//
// A frame that failed to decode is drawn up to the failure: the bytes not decoded are one
// field marked as such in the grid, the failing byte is marked in the hex dump, and the error
// (offset, field path, what) stands above the drawings.
//
// Output is bounded by ceilings that do not multiply: at most Options.MaxExchanges exchanges
// are drawn, at most MaxDrawnFields fields of one frame and MaxReportFields of the whole
// report, a hex dump of at most MaxHexBytes of one frame and MaxReportHex of the whole (past
// it, each frame's first MinHexBytes and the lines around its failing byte), and at most
// MaxConns connections listed; the report says what it left out. index.html is written as it
// is made, one exchange at a time, so memory is one exchange's drawings and not the report's.
// Files are written under a temporary name and renamed; the same input gives the same bytes.
package report

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/canvas/svgcanvas"
	"github.com/kafkagrid/kafkagrid/capture"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site/kafkaview"
	"github.com/kafkagrid/kafkagrid/style"
	"github.com/kafkagrid/kafkagrid/tree"
)

// DefaultMaxExchanges is how many exchanges a report draws when Options.MaxExchanges is 0.
const DefaultMaxExchanges = 200

// MaxDrawnFields is the most fields of one frame a report draws as a byte grid and a tree:
// a larger frame (a Metadata response of a big cluster, a Fetch of thousands of records) gets
// its text and JSON files and its hex dump, and a note instead of drawings that no browser
// would show. The largest example frame of any release has 207 nodes.
const MaxDrawnFields = 5000

// MaxHexBytes is how much of one frame the report's hex dump shows: the first MaxHexBytes,
// and the lines around the byte where decoding failed when it lies beyond them.
const MaxHexBytes = 64 << 10

// MaxReportFields is the most fields (tree nodes) a report draws in all, nested frames
// included: past it a frame gets its text and JSON files and a note instead of drawings. Four
// frames at MaxDrawnFields; some 27 MB of index.html at the ceiling (1.3 KB of SVG a field, TestWriteCeilings).
const MaxReportFields = 20_000

// MaxReportHex is the most bytes the hex dumps of a report show in all: past it each frame's
// dump shows its first MinHexBytes (and the lines around its failing byte).
const (
	MaxReportHex = 1 << 20
	MinHexBytes  = 256
)

// MaxConns is the most connections a report lists: the rest are counted in one line.
const MaxConns = 1000

// Options configure Write. The zero value draws the first DefaultMaxExchanges exchanges.
type Options struct {
	Title        string // the report's title; "" means "kafkagrid decode"
	MaxExchanges int
	// Flat draws the frame an Envelope carries whole as bytes, not as the nested frame the
	// codec read (kafkaview.Options.Flat).
	Flat bool
	// Create, when set, writes each file: what fill writes as the file rel ("index.html",
	// "frames/c1-1-….json") of dir, put in place whole or not at all. nil writes each to a
	// temporary file beside it and renames it, creating dir/frames as needed.
	Create func(rel string, fill func(io.Writer) error) error
}

// Write writes the report of r into dir (created if needed): index.html and frames/.
func Write(dir string, r *capture.Result, o Options) error {
	if o.MaxExchanges <= 0 {
		o.MaxExchanges = DefaultMaxExchanges
	}
	if o.Title == "" {
		o.Title = "kafkagrid decode"
	}
	if o.Create == nil {
		if err := os.MkdirAll(filepath.Join(dir, "frames"), 0o755); err != nil {
			return fmt.Errorf("report: %w", err)
		}
		o.Create = func(rel string, fill func(io.Writer) error) error {
			return writeFileFunc(filepath.Join(dir, filepath.FromSlash(rel)), fill)
		}
	}
	v := pageView{Title: o.Title, Kind: string(r.Kind), Packets: r.Packets, Notes: r.Notes}
	all, ok := r.Frames()
	v.Frames, v.Failed = all+r.Unlisted, all-ok+r.Unlisted
	// What is listed and drawn is known before anything is drawn: the top of the page says it.
	conns := r.Conns
	if len(conns) > MaxConns {
		lf := 0
		for _, c := range conns[MaxConns:] {
			for _, e := range c.Exchanges {
				lf += count(e.Request) + count(e.Response)
			}
		}
		v.Notes = append(slices.Clip(v.Notes), fmt.Sprintf("%d more connections (%d frames) are left out of this report: it lists %d", len(conns)-MaxConns, lf, MaxConns))
		conns = conns[:MaxConns]
	}
	drawn := 0
	for _, c := range conns {
		cv := connView{ID: c.ID, Notes: c.Notes}
		var apis []string
		for _, e := range c.Exchanges {
			for _, m := range []*capture.Message{e.Request, e.Response} {
				if m == nil {
					continue
				}
				cv.Frames++
				if m.Err != nil {
					cv.Failed++
				}
				if m.Frame != nil && m.Frame.API != nil && !slices.Contains(apis, m.Frame.API.Name) {
					apis = append(apis, m.Frame.API.Name)
				}
			}
		}
		cv.APIs = strings.Join(apis, ", ")
		if c.Server.IsValid() {
			cv.Title = fmt.Sprintf("Connection %d: %s → %s", c.ID, c.Client, c.Server)
		} else {
			cv.Title = "Frames"
		}
		n := min(len(c.Exchanges), o.MaxExchanges-drawn)
		drawn += n
		v.Left += len(c.Exchanges) - n
		v.Conns = append(v.Conns, cv)
	}
	for _, c := range r.Conns[len(conns):] {
		v.Left += len(c.Exchanges)
	}
	if v.Left == 1 {
		v.LeftText = "1 more is left out of this report"
	} else if v.Left > 0 {
		v.LeftText = fmt.Sprintf("%d more are left out of this report", v.Left)
	}
	b := &budget{fields: MaxReportFields, hex: MaxReportHex}
	return o.Create("index.html", func(w io.Writer) error {
		t := page()
		if err := t.ExecuteTemplate(w, "head", v); err != nil {
			return err
		}
		drawn := 0
		for ci, c := range conns {
			if err := t.ExecuteTemplate(w, "conn", v.Conns[ci]); err != nil {
				return err
			}
			for i, e := range c.Exchanges {
				if drawn >= o.MaxExchanges {
					break
				}
				drawn++
				ev := exchangeView{Note: e.Note}
				for side, m := range []*capture.Message{e.Request, e.Response} {
					if m == nil {
						continue
					}
					vo := kafkaview.Options{Flat: o.Flat}
					fv, err := frameView(o.Create, fmt.Sprintf("c%d-%d", c.ID, i+1), m, side == 1, vo, b)
					if err != nil {
						return err
					}
					if side == 0 {
						ev.Request = fv
					} else {
						ev.Response = fv
					}
				}
				if err := t.ExecuteTemplate(w, "exchange", ev); err != nil {
					return err
				}
			}
		}
		return t.ExecuteTemplate(w, "tail", v)
	})
}

func count(m *capture.Message) int {
	if m == nil {
		return 0
	}
	return 1
}

// budget is what a report may still draw: fields (tree nodes) and hex-dumped bytes.
type budget struct {
	fields int
	hex    int
}

type pageView struct {
	Title          string
	Kind           string
	Packets        int
	Frames, Failed int
	Left           int
	LeftText       string // "3 more are left out of this report"
	Notes          []string
	Conns          []connView
}

type connView struct {
	ID        int
	Title     string
	Frames    int    // messages in the connection
	Failed    int    // of which did not decode
	APIs      string // the APIs of its requests, in order of first use
	Notes     []string
	Exchanges []exchangeView
}

type exchangeView struct {
	Request, Response *frameV
	Note              string
}

type frameV struct {
	Heading string
	Meta    string
	Error   string
	Files   []fileLink
	Note    string // why the frame is not drawn
	Grid    template.HTML
	Tree    template.HTML
	Hex     template.HTML
	Nested  []nestedV
}

type nestedV struct {
	Caption string
	Grid    template.HTML
	Tree    template.HTML
}

type fileLink struct{ Name, Href string }

// frameView draws one message and writes its files.
func frameView(create func(string, func(io.Writer) error) error, id string, m *capture.Message, response bool, vo kafkaview.Options, b *budget) (*frameV, error) {
	fv := &frameV{}
	side := "request"
	if response {
		side = "response"
	}
	f := m.Frame
	base := id + "-" + side
	switch {
	case f != nil && f.API != nil:
		fv.Heading = fmt.Sprintf("%s v%d %s", f.API.Name, f.Version, side)
		base = id + "-" + f.BaseName()
	case m.Token && response:
		fv.Heading = "SASL token from the broker"
	case m.Token:
		fv.Heading = "SASL token from the client"
	default:
		fv.Heading = "undecoded " + side
	}
	meta := []string{fmt.Sprintf("%d bytes", len(m.Bytes))}
	if f != nil && f.API != nil {
		meta = append(meta, fmt.Sprintf("correlation id %d", f.CorrelationID), fmt.Sprintf("header v%d", f.HeaderVersion))
	}
	if m.Packet > 0 {
		meta = append(meta, fmt.Sprintf("packet %d", m.Packet), m.Time.UTC().Format("15:04:05.000000"))
	}
	meta = append(meta, fmt.Sprintf("stream offset %d", m.Offset))
	fv.Meta = strings.Join(meta, " · ")
	errAt := -1
	if m.Err != nil {
		fv.Error = m.Err.Error()
		var ke *kafka.Error
		if errors.As(m.Err, &ke) {
			errAt = ke.Offset
		}
	}
	shown := max(min(MaxHexBytes, b.hex), MinHexBytes)
	b.hex -= min(shown, len(m.Bytes))
	fv.Hex = hexDump(m.Bytes, errAt, f != nil && f.Root != nil, shown)
	if f == nil || f.Root == nil {
		return fv, nil
	}
	title := fv.Heading
	files := map[string][]byte{}
	exts := []string{".json", ".txt"}
	if f.Nodes > MaxDrawnFields {
		fv.Note = fmt.Sprintf("not drawn: %d fields (tree nodes), more than a report draws of one frame (%d); its text and JSON are in the files above", f.Nodes, MaxDrawnFields)
	} else if f.Nodes > b.fields {
		fv.Note = fmt.Sprintf("not drawn: %d fields (tree nodes), and the report has drawn as many as it draws in all (%d); its text and JSON are in the files above", f.Nodes, MaxReportFields)
	} else {
		b.fields -= f.Nodes
		view := kafkaview.NewWith(f, vo)
		fields := view.Fields
		end := 0
		for _, fd := range fields {
			end = max(end, (fd.Offset+fd.Bits)/8)
		}
		short := ""
		var ke *kafka.Error
		if errors.As(m.Err, &ke) {
			// The error on the grid: where, which field, what.
			short = fmt.Sprintf("offset %d, %s: %v", ke.Offset, ke.Path, ke.Err)
			for i := range fields {
				if at := ke.Offset * 8; fields[i].Offset <= at && at < fields[i].Offset+fields[i].Bits {
					fields = slices.Clone(fields)
					fields[i].Name += " (failed here)"
					fields[i].Desc = fv.Error
					break
				}
			}
		}
		if end < len(m.Bytes) {
			// What was not decoded: one field, so the grid shows where decoding stopped.
			value := fmt.Sprintf("%d bytes", len(m.Bytes)-end)
			if short != "" {
				value = short
			}
			fields = append(fields, bytegrid.Field{Offset: end * 8, Bits: (len(m.Bytes) - end) * 8, Name: "not decoded",
				Value: value, Kind: style.Padding, Bytes: m.Bytes[end:], Path: "#undecoded", Desc: fv.Error})
		}
		grid, tr, err := layouts(fields, view, title)
		if err != nil {
			return nil, fmt.Errorf("report: %s: %w", base, err)
		}
		if fv.Grid, err = svg(grid, title+": byte grid", id+side[:3]+"g", true); err != nil {
			return nil, err
		}
		if fv.Tree, err = svg(tr, title+": expanded tree", id+side[:3]+"t", true); err != nil {
			return nil, err
		}
		if files[".grid.svg"], err = svgBytes(grid, title+": byte grid", false, ""); err != nil {
			return nil, err
		}
		if files[".tree.svg"], err = svgBytes(tr, title+": expanded tree", false, ""); err != nil {
			return nil, err
		}
		exts = []string{".grid.svg", ".tree.svg", ".json", ".txt"}
	}
	// The JSON and the text are written as they are made: a frame may have a million nodes.
	write := map[string]func(io.Writer) error{
		".json": func(w io.Writer) error { return f.WriteJSON(w, "", "") },
		".txt": func(w io.Writer) error {
			if err := kafka.WriteText(w, f.Root); err != nil || fv.Error == "" {
				return err
			}
			_, err := io.WriteString(w, "error: "+fv.Error+"\n")
			return err
		},
	}
	for _, ext := range exts {
		fn := write[ext]
		if fn == nil {
			data := files[ext]
			fn = func(w io.Writer) error { _, err := w.Write(data); return err }
		}
		if err := create("frames/"+base+ext, fn); err != nil {
			return nil, err
		}
		fv.Files = append(fv.Files, fileLink{strings.TrimPrefix(ext, "."), "frames/" + base + ext})
	}
	// The records of compressed batches: nested frames, offsets from the decompressed data.
	n := 0
	var nerr error
	f.Root.Walk(func(x *kafka.Node) bool {
		c, ok := x.Raw.(*kafka.Compressed)
		if !ok || c.Root == nil || nerr != nil {
			return true
		}
		n++
		caption := fmt.Sprintf("%s: the %d bytes decompressed with %s (offsets from the start of the decompressed data)", x.Path, len(c.Data), c.Codec)
		if c.Note != "" {
			caption += "; " + c.Note
		}
		nodes := 0 // counted before anything is laid out
		c.Root.Walk(func(*kafka.Node) bool { nodes++; return true })
		if nodes > MaxDrawnFields {
			fv.Nested = append(fv.Nested, nestedV{Caption: fmt.Sprintf("%s; not drawn: %d fields (tree nodes), more than a report draws (%d)", caption, nodes, MaxDrawnFields)})
			return true
		}
		if nodes > b.fields {
			fv.Nested = append(fv.Nested, nestedV{Caption: fmt.Sprintf("%s; not drawn: %d fields (tree nodes), and the report has drawn as many as it draws in all (%d)", caption, nodes, MaxReportFields)})
			return true
		}
		b.fields -= nodes
		iv := kafkaview.New(&kafka.Frame{Bytes: c.Data, Root: c.Root})
		g, t, err := layouts(iv.Fields, iv, caption)
		if err != nil {
			nerr = err
			return false
		}
		nv := nestedV{Caption: caption}
		if nv.Grid, nerr = svg(g, caption+": byte grid", fmt.Sprintf("%s%sn%dg", id, side[:3], n), true); nerr != nil {
			return false
		}
		if nv.Tree, nerr = svg(t, caption+": expanded tree", fmt.Sprintf("%s%sn%dt", id, side[:3], n), true); nerr != nil {
			return false
		}
		fv.Nested = append(fv.Nested, nv)
		return true
	})
	if nerr != nil {
		return nil, fmt.Errorf("report: %s: %w", base, nerr)
	}
	return fv, nil
}

func layouts(fields []bytegrid.Field, view *kafkaview.View, title string) (canvas.Drawing, canvas.Drawing, error) {
	g, err := bytegrid.Layout(fields, bytegrid.Options{GroupColors: view.Groups})
	if err != nil {
		return nil, nil, fmt.Errorf("byte grid: %w", err)
	}
	t, err := tree.Layout(view.Tree, tree.Options{GroupColors: view.Groups, Title: title + ": expanded tree"})
	if err != nil {
		return nil, nil, fmt.Errorf("tree: %w", err)
	}
	return g, t, nil
}

// svgBytes writes d as one SVG document (svgcanvas.Write, the one way a drawing becomes SVG).
func svgBytes(d canvas.Drawing, title string, inline bool, id string) ([]byte, error) {
	var buf bytes.Buffer
	if err := svgcanvas.Write(&buf, d, svgcanvas.WriteOptions{Title: title, Desc: title, Inline: inline, IDPrefix: id}); err != nil {
		return nil, fmt.Errorf("report: %s: %w", title, err)
	}
	return buf.Bytes(), nil
}

func svg(d canvas.Drawing, title, id string, inline bool) (template.HTML, error) {
	b, err := svgBytes(d, title, inline, id)
	return template.HTML(b), err
}

// hexDumpHTML is a classic hex dump, 16 bytes a line, the byte at bad (if any) marked, of the
// first MaxHexBytes and the lines around bad.
func hexDumpHTML(b []byte, bad int, haveJSON bool) template.HTML {
	return hexDump(b, bad, haveJSON, MaxHexBytes)
}

// hexDump is hexDumpHTML showing the first limit bytes (a multiple of 16).
func hexDump(b []byte, bad int, haveJSON bool, limit int) template.HTML {
	var sb strings.Builder
	line := func(lo, hi int) { // the lines of b[lo:hi], lo a multiple of 16
		for off := lo; off < hi; off += 16 {
			hexLine(&sb, b, off, min(off+16, hi), bad)
		}
	}
	if len(b) <= limit {
		line(0, len(b))
		return template.HTML(sb.String())
	}
	line(0, limit)
	shown := limit
	if bad >= limit && bad <= len(b) { // at len(b): the frame ends too soon; show its end
		lo := max(bad&^15-128, limit)
		hi := min(bad&^15+144, len(b))
		if lo > shown {
			fmt.Fprintf(&sb, "… %d bytes not shown …\n", lo-shown)
		}
		line(lo, hi)
		shown = hi
	}
	if shown < len(b) {
		if haveJSON {
			fmt.Fprintf(&sb, "… %d bytes not shown (the frame's JSON holds them all, in hex) …\n", len(b)-shown)
		} else {
			fmt.Fprintf(&sb, "… %d bytes not shown …\n", len(b)-shown)
		}
	}
	return template.HTML(sb.String())
}

// hexLine writes one line of the hex dump: b[off:end], marking the byte at bad.
func hexLine(sb *strings.Builder, b []byte, off, end, bad int) {
	fmt.Fprintf(sb, `<span class="off">%08x</span> `, off)
	for i := off; i < off+16; i++ {
		if i == off+8 {
			sb.WriteByte(' ')
		}
		switch {
		case i >= end:
			sb.WriteString("   ")
		case i == bad:
			fmt.Fprintf(sb, ` <span class="bad" title="decoding failed here">%02x</span>`, b[i])
		default:
			fmt.Fprintf(sb, " %02x", b[i])
		}
	}
	sb.WriteString("  |")
	for i := off; i < end; i++ {
		c := b[i]
		if c < 0x20 || c > 0x7e {
			c = '.'
		}
		template.HTMLEscape(sb, []byte{c})
	}
	sb.WriteString("|\n")
}

// writeFileFunc writes what fill writes to a temporary file beside path and renames it into
// place, so that an error leaves no partial file. A new file has what the umask leaves of 0666.
func writeFileFunc(path string, fill func(io.Writer) error) error {
	var tmp *os.File
	var err error
	for i := 0; i < 100; i++ {
		name := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp-kafkagrid-"+strconv.FormatUint(uint64(rand.Uint32()), 10))
		if tmp, err = os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666); !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("report: write %s: %w", path, err)
	}
	err = fill(tmp)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		var pe *fs.PathError
		var le *os.LinkError
		switch { // the temporary file's name is no one's business: path's is given
		case errors.As(err, &pe):
			err = pe.Err
		case errors.As(err, &le):
			err = le.Err
		}
		return fmt.Errorf("report: write %s: %w", path, err)
	}
	return nil
}

// page is the report's HTML template, parsed on first use (no work at init for the verbs
// that write no report).
var page = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Parse(`{{define "head"}}<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body{font-family:system-ui,sans-serif;margin:1.5rem;color:#1a1a1a;background:#fff}
h1{font-size:1.4rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #ccc}
.pair{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(32rem,100%),1fr));gap:1.5rem;margin:1rem 0 2rem;align-items:start}
.frame{border:1px solid #ccc;border-radius:4px;padding:.75rem;min-width:0;overflow-x:auto}
.frame h3{font-size:1rem;margin:.1rem 0}
.meta,.files{font-size:.85rem;color:#555}
.files a{margin-right:.6rem}
.err{background:#fde8e8;border-left:4px solid #c00;padding:.4rem .6rem;font-family:monospace;font-size:.85rem;white-space:pre-wrap;overflow-wrap:anywhere}
.note{font-size:.9rem;color:#6a4a00;background:#fff6dc;padding:.3rem .6rem;margin:.3rem 0}
.missing{color:#777;font-style:italic;border:1px dashed #ccc;border-radius:4px;padding:.75rem}
pre.hex{font-size:.8rem;line-height:1.25;overflow-x:auto}
pre.hex .off{color:#888}pre.hex .bad{background:#c00;color:#fff;font-weight:bold}
svg{max-width:100%;height:auto}
details{margin:.5rem 0}summary{cursor:pointer;font-size:.9rem}
.nested{border-left:3px solid #7a9cc6;padding-left:.6rem;margin-top:.6rem}
table.conns{border-collapse:collapse;font-size:.9rem}table.conns td,table.conns th{border-bottom:1px solid #ddd;padding:.2rem .6rem;text-align:left}
@media (prefers-color-scheme: dark){body{background:#111;color:#ddd}.frame{border-color:#444}.err{background:#3a1515}.note{background:#3a300f;color:#f0d890}.meta,.files{color:#aaa}}
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p>Input: {{.Kind}}{{if .Packets}}, {{.Packets}} packets{{end}}; {{.Frames}} frames, {{if .Failed}}<strong>{{.Failed}} not decoded</strong>{{else}}all decoded{{end}}.{{if .Left}} The first exchanges are drawn; {{.LeftText}}.{{end}}</p>
{{range .Notes}}<p class="note">{{.}}</p>
{{end}}
{{if gt (len .Conns) 1}}<table class="conns"><thead><tr><th>connection</th><th>frames</th><th>not decoded</th><th>APIs</th></tr></thead><tbody>
{{range .Conns}}<tr><td><a href="#conn{{.ID}}">{{.Title}}</a></td><td>{{.Frames}}</td><td>{{.Failed}}</td><td>{{.APIs}}</td></tr>
{{end}}</tbody></table>{{end}}
{{end}}{{define "conn"}}<h2 id="conn{{.ID}}">{{.Title}}</h2>
{{range .Notes}}<p class="note">{{.}}</p>
{{end}}
{{end}}{{define "exchange"}}{{if .Note}}<p class="note">{{.Note}}</p>{{end}}
<div class="pair">
{{if .Request}}{{template "frame" .Request}}{{else}}<div class="missing">no request in the input</div>{{end}}
{{if .Response}}{{template "frame" .Response}}{{else}}<div class="missing">no response</div>{{end}}
</div>
{{end}}{{define "tail"}}
</body>
</html>
{{end}}{{define "frame"}}<section class="frame">
<h3>{{.Heading}}</h3>
<div class="meta">{{.Meta}}</div>
{{if .Files}}<div class="files">{{range .Files}}<a href="{{.Href}}">{{.Name}}</a>{{end}}</div>{{end}}
{{if .Error}}<div class="err">{{.Error}}</div>{{end}}
{{if .Note}}<p class="note">{{.Note}}</p>{{end}}
{{if .Grid}}<details open><summary>byte grid</summary>{{.Grid}}</details>{{end}}
{{if .Tree}}<details><summary>expanded tree</summary>{{.Tree}}</details>{{end}}
{{range .Nested}}<div class="nested"><details open><summary>{{.Caption}}</summary>{{.Grid}}{{if .Tree}}<details><summary>expanded tree</summary>{{.Tree}}</details>{{end}}</details></div>{{end}}
<details><summary>hex dump</summary><pre class="hex">{{.Hex}}</pre></details>
</section>{{end}}
`))
})
