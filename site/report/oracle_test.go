package report

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/kafkagrid/kafkagrid/capture"
	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site"
)

// The oracle: the html/template pages the report was written with before html.go, kept to
// check that html.go writes the same bytes for every page the tests write (writeChecked)
// and for hostile text (FuzzSameAsTemplates).

// templates are the report's pages, parsed on first use (no work at init for the verbs that
// write no report); template.Template is safe for concurrent use.
var oracleTemplates = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Funcs(template.FuncMap{
		"join": func(s []string) string { return strings.Join(s, ", ") },
		"sub":  func(a, b int) int { return a - b },
	}).Parse(site.MessageTemplates + pageHTML))
})

const pageHTML = `{{define "head"}}<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<style>
{{.CSS}}</style>
<style>
{{.ReportCSS}}</style>
{{end}}

{{define "index"}}{{template "head" .}}<title>{{.Title}}</title>
</head>
<body>
<main>
<nav class="top"><span>kafkagrid</span><span class="mid">{{.Kind}}</span><span></span></nav>
<h1>{{.Title}}</h1>
<p class="lead">Input: {{.Kind}}{{if .Packets}}, {{.Packets}} packet{{if ne .Packets 1}}s{{end}}{{end}}; {{.Frames}} frame{{if ne .Frames 1}}s{{end}}, {{if .Failed}}<strong>{{.Failed}} not decoded</strong>{{else}}all decoded{{end}}.{{if .Left}} The first {{.Drawn}} exchanges have a page; {{.LeftText}}.{{end}}</p>
{{range .Notes}}<p class="note">{{.}}</p>
{{end}}{{if gt (len .Conns) 1}}<div class="scroll"><table class="xch conns"><thead><tr><th>Connection</th><th>Frames</th><th>Not decoded</th><th>APIs</th></tr></thead><tbody>
{{range .Conns}}<tr><td><a href="#conn{{.ID}}">{{.Title}}</a></td><td>{{.Frames}}</td><td>{{.Failed}}</td><td>{{join .APIs}}</td></tr>
{{end}}</tbody></table></div>
{{end}}{{range .Conns}}<section id="conn{{.ID}}">
<h2 class="conn">{{.Title}}</h2>
{{range .Notes}}<p class="note">{{.}}</p>
{{end}}{{if .Rows}}<div class="scroll"><table class="xch ex"><thead><tr><th>#</th><th>Request</th><th>Client id</th><th>Response</th><th>Errors</th></tr></thead><tbody>
{{range .Rows}}<tr{{if .Failed}} class="bad"{{end}}><td class="num"><a href="{{.Href}}">{{.N}}</a></td><td>{{if .Request}}<a href="{{.Href}}#request">{{.Request}}</a>{{else}}none{{end}}</td><td class="mono" data-label="Client id">{{.Client}}</td><td data-label="Response">{{if .Response}}<a href="{{.Href}}#response">{{.Response}}</a>{{else}}none{{end}}</td><td class="mono" data-label="Errors">{{range $i, $e := .Errors}}{{if $i}}, {{end}}{{$e}}{{end}}{{if .MoreErrors}} and {{.MoreErrors}} more{{end}}</td></tr>
{{end}}</tbody></table></div>
{{else}}<p class="muted">No exchange.</p>
{{end}}{{if .LeftText}}<p class="muted">{{.LeftText}}.</p>
{{end}}</section>
{{end}}<footer>Written by kafkagrid. Each exchange's page draws its frames as byte grids and trees, linked to each other, to their hex dumps and to a detail panel.</footer>
</main>
</body>
</html>
{{end}}

{{define "page"}}{{template "head" .}}<title>{{.Heading}} · {{.Conn}} · {{.Title}}</title>
</head>
<body>
<main class="api">
<nav class="top">{{if .Prev}}<a href="{{.Prev}}" rel="prev">← previous</a>{{else}}<span></span>{{end}}<span class="mid"><a href="{{.Index}}">{{.Title}}</a></span><span></span></nav>
<h1>{{.Heading}}</h1>
<p class="lead">{{.Conn}}</p>
{{if .Note}}<p class="note">{{.Note}}</p>
{{end}}{{range .Sides}}{{if .Missing}}<section class="missing" id="{{.ID}}"><h2>{{.Heading}}</h2><p>{{.Missing}}</p></section>
{{else}}<section class="msg" id="{{.ID}}">
<h2>{{.Heading}}<span class="meta">{{.Meta}}</span></h2>
{{if .Error}}<div class="err">{{.Error}}</div>
{{end}}{{range .Notes}}<p class="note">{{.}}</p>
{{end}}{{template "wholenote" .}}{{template "msgbody" .}}</section>
{{template "nested" .Nested}}{{end}}{{end}}<footer><a href="{{.Index}}">{{.Title}}</a></footer>
</main>
<script>
{{.Script}}</script>
</body>
</html>
{{end}}

{{define "wholenote"}}{{with .Cut}}<p class="note cut">{{if .Shown}}Drawn here live: its first {{.Shown}} of {{.Size}} bytes, all this page's ceilings hold; the last field, "rest of the frame", stands for the other {{sub .Size .Shown}}.{{else}}{{.Why}}{{end}} {{if .Drawn}}Drawn whole in{{else}}Every field in{{end}} {{range $i, $l := .Whole}}{{if $i}}, {{end}}<a href="{{$l.Href}}">{{$l.Label}}</a>{{end}}.</p>
{{end}}{{end}}`

// The views as the templates read them: the HTML, CSS and JavaScript typed as html/template's.
type oIndex struct {
	indexView
	CSS, ReportCSS template.CSS
}

type oPage struct {
	Title, Heading, Conn string
	Index, Prev          string
	Note                 string
	Sides                []*oFrame
	CSS, ReportCSS       template.CSS
	Script               template.JS
}

type oFrame struct {
	ID, Heading, Caption, Meta, Missing, Error string
	Notes                                      []string
	Nested                                     []*oFrame
	Links                                      []site.Link
	Fit, Grid, Narrow, Tree                    template.HTML
	GridW, NarrowW, TreeW                      int
	GridParts, TreeParts                       []oPart
	Hex, Hex8                                  template.HTML
	Detail                                     template.JS
	Cut                                        *cutView
	Later, TreeLater, Park                     bool
}

type oPart struct {
	W       int
	Caption string
	SVG     template.HTML
}

func oracleFrame(fv *frameView) *oFrame {
	m := &fv.Message
	o := &oFrame{ID: m.ID, Heading: fv.Heading, Caption: fv.Caption, Meta: fv.Meta, Missing: fv.Missing, Error: fv.Error,
		Notes: fv.Notes, Links: m.Links, Fit: template.HTML(m.Fit), Grid: template.HTML(m.Grid), Narrow: template.HTML(m.Narrow),
		Tree: template.HTML(m.Tree), GridW: m.GridW, NarrowW: m.NarrowW, TreeW: m.TreeW, Hex: template.HTML(m.Hex),
		Hex8: template.HTML(m.Hex8), Detail: template.JS(m.Detail), Cut: fv.Cut, Park: m.Park}
	for _, p := range m.GridParts {
		o.GridParts = append(o.GridParts, oPart{W: p.W, Caption: p.Caption, SVG: template.HTML(p.SVG)})
	}
	for _, p := range m.TreeParts {
		o.TreeParts = append(o.TreeParts, oPart{W: p.W, Caption: p.Caption, SVG: template.HTML(p.SVG)})
	}
	for _, n := range fv.Nested {
		o.Nested = append(o.Nested, oracleFrame(n))
	}
	return o
}

func oraclePage(out io.Writer, pv *pageView) error {
	o := oPage{Title: pv.Title, Heading: pv.Heading, Conn: pv.Conn, Index: pv.Index, Prev: pv.Prev, Note: pv.Note,
		CSS: template.CSS(site.CSS), ReportCSS: template.CSS(reportCSS), Script: template.JS(site.Script)}
	for _, fv := range pv.Sides {
		o.Sides = append(o.Sides, oracleFrame(fv))
	}
	return oracleTemplates().ExecuteTemplate(out, "page", o)
}

func oracleIndex(out io.Writer, v *indexView) error {
	return oracleTemplates().ExecuteTemplate(out, "index", oIndex{*v, template.CSS(site.CSS), template.CSS(reportCSS)})
}

// checked has w write each page with html.go and with the templates, and t fail where they
// differ.
func checked(t testing.TB, w *Writer) *Writer {
	w.writeIndex = func(out io.Writer, v *indexView) error { return both(t, out, "index.html", v, writeIndex, oracleIndex) }
	w.writePage = func(out io.Writer, pv *pageView) error { return both(t, out, pv.Heading, pv, writePage, oraclePage) }
	return w
}

func both[V any](t testing.TB, out io.Writer, name string, v V, mine, oracle func(io.Writer, V) error) error {
	t.Helper()
	var got, want bytes.Buffer
	if err := oracle(&want, v); err != nil {
		t.Fatalf("%s: the template: %v", name, err)
	}
	if err := mine(&got, v); err != nil {
		return err
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Errorf("%s: html.go and the template differ %s", name, firstDiff(got.String(), want.String()))
	}
	_, err := out.Write(got.Bytes())
	return err
}

// firstDiff says where a and b first differ, with some text around it.
func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(i-80, 0)
	return fmt.Sprintf("at byte %d (of %d and %d):\n got …%q…\nwant …%q…", i, len(a), len(b), a[lo:min(i+80, len(a))], b[lo:min(i+80, len(b))])
}

// writeChecked is Write with every page checked against the templates.
func writeChecked(t testing.TB, dir string, r *capture.Result, o Options) error {
	w, err := New(dir, o)
	if err != nil {
		return err
	}
	checked(t, w)
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

// hostile are strings a capture may carry where a page shows text: client ids, topic names,
// error text.
var hostile = []string{`<script>alert("x")</script>`, `a"b'c&d+e<f>g`, "javascript:alert(1)", "line\u2028sep\u2029",
	"\x00nul", "\xff\xfe bad utf8", "é 🦀 </title>", "{{.Title}}", "</script><!--", "%41%zz", "../../etc/passwd?x=1#y"}

// apiVersionsRequest is an ApiVersions v3 request with the client id and software name given.
func apiVersionsRequest(client, software string) []byte {
	body := []byte{0, 18, 0, 3, 0, 0, 0, 7}
	body = append(body, byte(len(client)>>8), byte(len(client)))
	body = append(body, client...)
	body = append(body, 0) // header tags
	for _, s := range []string{software, "1.0"} {
		body = append(body, byte(len(s)+1))
		body = append(body, s...)
	}
	body = append(body, 0)
	return append([]byte{0, 0, byte(len(body) >> 8), byte(len(body))}, body...)
}

// TestHostileSameAsTemplates writes the report of requests whose client ids and strings are
// hostile text, each page checked against the templates, and that text is escaped.
func TestHostileSameAsTemplates(t *testing.T) {
	cat, err := kafka.LoadCatalog(testenv.Release(t, "4.0"))
	if err != nil {
		t.Fatal(err)
	}
	var data []byte
	for _, s := range hostile {
		if len(s) < 100 {
			data = append(data, apiVersionsRequest(s, s+"x")...)
		}
	}
	r, err := capture.Read(cat, data, capture.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := writeChecked(t, dir, r, Options{Title: `kafkagrid <"&'> decode`}); err != nil {
		t.Fatal(err)
	}
	html := readAll(t, dir)
	for _, bad := range []string{"<script>alert", `"x")</script>`, "🦀 </title>", "</script><!--"} {
		if strings.Contains(html, bad) {
			t.Errorf("the report holds %q unescaped", bad)
		}
	}
	if !strings.Contains(html, `&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;`) {
		t.Error("the client id is not in the index, escaped")
	}
}

// hostileViews are an index and a page whose every text is s.
func hostileViews(s string) (*indexView, *pageView) {
	link := site.Link{Label: s, Href: s}
	cut := &cutView{Shown: 3, Size: 9, Drawn: true, Whole: []fileLink{link, {Label: "x", Href: "javascript:" + s}}}
	msg := site.Message{ID: s, Links: []site.Link{link}, Fit: "<style></style>\n", Grid: "<svg></svg>", Narrow: "<svg>16</svg>",
		Tree: "<svg>t</svg>", GridW: 3, NarrowW: 2, TreeW: 1, Hex: "h", Hex8: "h8", Detail: `{"a":1}`,
		GridParts: []site.Part{{W: 4, Caption: s, SVG: "<svg/>"}}, TreeParts: []site.Part{{W: 5, SVG: "<svg/>"}}}
	nested := &frameView{Message: msg, Caption: s, Notes: []string{s}, Cut: &cutView{Size: 4, Why: s, Whole: []fileLink{link}}}
	empty := &frameView{Message: site.Message{ID: s}, Caption: s}
	fv := &frameView{Message: msg, Heading: s, Meta: s, Error: s, Notes: []string{s, s}, Cut: cut, Nested: []*frameView{nested, empty}}
	parked := &frameView{Message: msg, Heading: s}
	parked.Park = true
	pv := &pageView{Title: s, Heading: s, Conn: s, Index: s, Prev: s, Note: s,
		Sides: []*frameView{fv, parked, {Message: site.Message{ID: s}, Heading: s, Missing: s}}}
	row := rowView{N: 1, Href: s, Request: s, Response: s, Failed: true, Client: s, Errors: []string{s, s}, MoreErrors: 2}
	conn := &connSum{ID: 3, Title: s, Frames: 2, Failed: 1, APIs: []string{s, s}, Notes: []string{s}, Rows: []rowView{row, {N: 2, Href: s}}, LeftText: s}
	iv := &indexView{Title: s, Kind: s, Packets: 1, Frames: 2, Failed: 1, Drawn: 1, Left: 2, LeftText: s, Notes: []string{s},
		Conns: []*connSum{conn, {ID: 4, Title: s}}}
	return iv, pv
}

func sameAsTemplates(t *testing.T, s string) {
	iv, pv := hostileViews(s)
	if err := both(t, io.Discard, "index", iv, writeIndex, oracleIndex); err != nil {
		t.Fatal(err)
	}
	if err := both(t, io.Discard, "page", pv, writePage, oraclePage); err != nil {
		t.Fatal(err)
	}
}

func TestViewsSameAsTemplates(t *testing.T) {
	for _, s := range append(hostile, "", "plain") {
		sameAsTemplates(t, s)
	}
}

func FuzzSameAsTemplates(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Fuzz(sameAsTemplates)
}
