package site_test

import (
	"bytes"
	"encoding/json"
	"html/template"
	"testing"

	"github.com/kafkagrid/kafkagrid/site"
	"github.com/kafkagrid/kafkagrid/site/htmlw"
)

// tmplMessage is site.Message as MessageTemplates read it.
type tmplMessage struct {
	ID                    string
	Links                 []site.Link
	Fit, Grid, Narrow     template.HTML
	Tree                  template.HTML
	GridW, NarrowW, TreeW int
	GridParts, TreeParts  []tmplPart
	Hex, Hex8             template.HTML
	Detail                template.JS
	Park, Later           bool
	TreeLater             bool
}

type tmplPart struct {
	W       int
	Caption string
	SVG     template.HTML
}

// TestWriteMessageSameAsTemplates writes messages of every shape (files, parked views, print
// parts, a later placeholder, a tree later, no grid) with hostile text, with WriteMessage and
// with MessageTemplates' "msgbody", and compares the bytes.
func TestWriteMessageSameAsTemplates(t *testing.T) {
	tm := template.Must(template.New("m").Parse(site.MessageTemplates +
		`{{define "later"}}<p class="later" data-id="{{.ID}}">later</p>{{end}}{{define "treelater"}}<p>tree {{.ID}}</p>{{end}}`))
	later := func(w *htmlw.Writer, id string) {
		w.Raw(`<p class="later" data-id="`)
		w.Text(id)
		w.Raw(`">later</p>`)
	}
	for _, s := range []string{"request", `<b>"x"&'y'</b>`, "javascript:alert(1)", "a\u2028b", "\x00\xff"} {
		for shape := range 16 {
			m := site.Message{ID: s, Fit: "<style>x</style>\n", Grid: "<svg>g</svg>", Narrow: "<svg>n</svg>", Tree: "<svg>t</svg>",
				GridW: 10, NarrowW: 5, TreeW: 7, Hex: "<span>00</span>", Hex8: "<span>8</span>", Detail: `{"p":"\u003c"}`}
			if shape&1 != 0 {
				m.Links = []site.Link{{Label: s, Href: "../frames/" + s}, {Label: "x", Href: s}}
				m.GridParts = []site.Part{{W: 3, Caption: s, SVG: "<svg>p</svg>"}, {W: 4, SVG: "<svg>q</svg>"}}
				m.TreeParts = []site.Part{{W: 5, Caption: s, SVG: "<svg>r</svg>"}}
			}
			if shape&2 != 0 {
				m.Park = true
				m.TreeLater = func(w *htmlw.Writer) { w.Raw("<p>tree "); w.Text(s); w.Raw("</p>") }
			}
			if shape&4 != 0 {
				m.Grid, m.Narrow = "", ""
			}
			if shape&8 != 0 {
				m.Later = func(w *htmlw.Writer) { later(w, s) }
			}
			tv := tmplMessage{ID: m.ID, Links: m.Links, Fit: template.HTML(m.Fit), Grid: template.HTML(m.Grid), Narrow: template.HTML(m.Narrow),
				Tree: template.HTML(m.Tree), GridW: m.GridW, NarrowW: m.NarrowW, TreeW: m.TreeW, Hex: template.HTML(m.Hex),
				Hex8: template.HTML(m.Hex8), Detail: template.JS(m.Detail), Park: m.Park, Later: m.Later != nil, TreeLater: m.TreeLater != nil}
			for _, p := range m.GridParts {
				tv.GridParts = append(tv.GridParts, tmplPart{W: p.W, Caption: p.Caption, SVG: template.HTML(p.SVG)})
			}
			for _, p := range m.TreeParts {
				tv.TreeParts = append(tv.TreeParts, tmplPart{W: p.W, Caption: p.Caption, SVG: template.HTML(p.SVG)})
			}
			var want, got bytes.Buffer
			if err := tm.ExecuteTemplate(&want, "msgbody", tv); err != nil {
				t.Fatal(err)
			}
			w := htmlw.New(&got)
			site.WriteMessage(w, &m)
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			if got.String() != want.String() {
				t.Errorf("%q, shape %d:\n got %q\nwant %q", s, shape, got.String(), want.String())
			}
		}
	}
}

// TestDetailJSONSameAsMarshal: DetailJSON writes what json.Marshal wrote of its maps.
func TestDetailJSONSameAsMarshal(t *testing.T) {
	type view struct {
		Fields  map[string]site.Field `json:"fields"`
		Anchors map[string]string     `json:"anchors"`
	}
	for _, s := range []string{"Topics[0]#tags", `<b>"x"&'y'</b>`, "a\u2028b", "\x00\xff", "é", "Z", "a"} {
		fields := []site.Field{{Path: s, Name: s, Type: s, Offset: 3, Length: 4, Value: s, About: s, Spec: s, Line: 9},
			{Path: "frame", Name: "x"}, {Path: s + "#length", Type: "int32"}, {Path: s, Name: "again"}}
		for _, anchors := range []map[string]string{nil, {s: s, "B.json": "b-L", "a.json": "a-L"}} {
			got, err := site.DetailJSON(fields, anchors)
			if err != nil {
				t.Fatal(err)
			}
			v := view{Fields: map[string]site.Field{}, Anchors: anchors}
			if v.Anchors == nil {
				v.Anchors = map[string]string{}
			}
			for _, f := range fields {
				if r := site.ReaderPath(f.Path); r != f.Path {
					f.Shown = r
				}
				v.Fields[f.Path] = f
			}
			want, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("%q:\n got %s\nwant %s", s, got, want)
			}
		}
	}
}
