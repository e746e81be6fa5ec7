package reference

import (
	"bytes"
	"html/template"
	"testing"
	"testing/fstest"
)

// hostile are texts a page must escape where each stands: markup and quotes, a script's end, a
// URL scheme a link must not take, a space and a query in a URL, JavaScript's line separator,
// invalid UTF-8, a template's braces.
var hostile = []string{"Produce", `<b>"x"&'y'</b>`, "javascript:alert(1)", "a b?c=1&d#e", "a\u2028b\u2029", "\x00\xff+", "{{.}}</script><!--"}

// oraclePage is a page of the shape shape (its bits choose what is there) with s in every text.
func oraclePage(s string, shape int) *pageView {
	on := func(bit int) bool { return shape>>bit&1 != 0 }
	msg := func(id string) messageView {
		m := messageView{ID: id + s, Title: "Request " + s, Base: "0-" + s, Size: 1 + len(s), Grid: "<svg>g</svg>", Tree: "<svg>t</svg>",
			GridW: 10, TreeW: 7, Hex: "<span>00</span>", Hex8: "<span>0</span>", Narrow: "<svg>n</svg>", NarrowW: 5,
			Fit: "<style>#x{}</style>\n", Detail: template.JS(`{"p":"\u003c/script>"}`), Park: on(0)}
		if on(1) {
			m.Links = []fileLink{{"grid.svg", "../svg/" + s}, {s, s}}
			m.GridParts = []partView{{W: 3, Caption: s, SVG: "<svg>p1</svg>"}, {W: 3, SVG: "<svg>p2</svg>"}}
			m.TreeParts = []partView{{W: 4, Caption: s, SVG: "<svg>q</svg>"}}
		}
		if on(2) {
			m.Nested = []messageView{{ID: id + "-n1", Caption: s, Notes: []string{s, "note"}},
				{ID: id + "-n2" + s, Caption: "c", Title: s, Base: s, Size: 3, Grid: "<svg>ng</svg>", Tree: "<svg>nt</svg>", Hex: "h", Hex8: "h8", Detail: "{}"}}
		}
		return m
	}
	v := &pageView{Release: "4.0" + s, Key: 3, Name: "Metadata" + s, Version: 12, VersionText: s, FlexVers: "9+" + s,
		Category: s, Generator: "kafkagrid" + s, Headers: s, Omitted: "", Site: ""}
	v.Messages = []messageView{msg("request"), msg("response")}
	if on(3) {
		v.Messages[1].Later = true
		v.Messages[0].TreeLater = true
		v.Lazy = "Metadata" + s + ".lazy.js"
	}
	if on(4) {
		v.Prev = &apiLink{Name: "Prev" + s, Href: s + ".html"}
		v.Next = &apiLink{Name: s, Href: "javascript:x"}
		v.Book = "../" + s + ".pdf"
		v.Flexible, v.Unstable = true, true
		v.Listeners = []string{"broker", s}
		v.Omitted = "v13: " + s
		v.Site = "<div class=site>bar</div>\n"
	}
	v.History = []versionInfo{
		{Version: 12, Headers: s, Flexible: on(5), Changes: []string{s, "b"}, Built: true, Href: s + ".html", Current: true},
		{Version: 11, Headers: "h", Deprecate: true, Built: on(5), Href: "Metadata-v11.html"},
		{Version: 10},
	}
	v.Current = v.History[0]
	if on(5) {
		v.Current.Changes = nil
		v.Comments = []commentView{{Text: s, File: s + ".json", Anchor: "request-schema-L" + s, Line: 7}}
		v.Edges = []edgeView{{Title: s, About: "about " + s, ID: "edge-" + s, Messages: []messageView{msg("edge-a"), msg("edge-b")}}}
		v.Edges[0].Messages[1].Later = true
	}
	v.Fields = []fieldTableView{{ID: "request-fields", Title: "Request fields" + s, File: s, Absent: shape & 1,
		Rows: []fieldRow{{Parent: "Topics[].", Name: s, Type: "[]" + s, Versions: "3+", About: s, Absent: true, Notes: s}, {Name: "a", Type: "int32"}}}}
	v.Schemas = []schemaView{{ID: "request-schema", Title: "Request schema " + s, File: s, Lines: 12, Source: "<span class=line>x</span>",
		Structs: []structLink{{Name: s, Anchor: "request-schema-L" + s}, {Name: "b", Anchor: "c"}}, Later: on(0)}}
	return v
}

// oracleBuilder is a builder with the page templates, its decoder page as shape asks: none, a
// release's, or a site's.
func oracleBuilder(t testing.TB, release string, shape int) *builder {
	t.Helper()
	b := &builder{release: release}
	switch shape % 3 {
	case 1:
		b.opts.Decoder = fstest.MapFS{}
	case 2:
		b.opts.Decoder, b.opts.site = fstest.MapFS{}, &siteRelease{}
	}
	tm, err := pageTemplates()
	if err != nil {
		t.Fatal(err)
	}
	b.tmpl = tm.Funcs(template.FuncMap{"decoder": b.decodeHref})
	if b.static, err = newPageStatic(b.tmpl); err != nil {
		t.Fatal(err)
	}
	return b
}

// checkPageWriter writes v with writeAPIPage and with the "api" template, and each message's
// drawings with writeDrawings and the "msgdraw" and "treedraw" templates, and compares them.
func checkPageWriter(t *testing.T, b *builder, v *pageView) {
	t.Helper()
	var want, got bytes.Buffer
	if err := b.tmpl.ExecuteTemplate(&want, "api", v); err != nil {
		t.Fatal(err)
	}
	if err := b.writeAPIPage(&got, v); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatalf("writeAPIPage differs from the template at byte %d:\n%s\n--- template:\n%s", firstDiff(got.Bytes(), want.Bytes()), got.Bytes(), want.Bytes())
	}
	for _, m := range append(v.Messages[:len(v.Messages):len(v.Messages)], v.Messages[0].Nested...) {
		for _, tree := range []bool{false, true} {
			name := "msgdraw"
			if tree {
				name = "treedraw"
			}
			want.Reset()
			got.Reset()
			got.WriteString("before")
			if err := b.tmpl.ExecuteTemplate(&want, name, &m); err != nil {
				t.Fatal(err)
			}
			if err := writeDrawings(&got, &m, tree); err != nil {
				t.Fatal(err)
			}
			if g := bytes.TrimPrefix(got.Bytes(), []byte("before")); !bytes.Equal(g, want.Bytes()) {
				t.Fatalf("writeDrawings (%s) differs from the template:\n%s\n--- template:\n%s", name, g, want.Bytes())
			}
		}
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestAPIPageWriter writes pages of every shape (64: with and without files, print parts,
// nested frames, drawings later, neighbours, edge cases, comments…) with hostile texts, each
// under the three kinds of decoder link, with writeAPIPage and with the "api" template, and
// compares the bytes; and each message's drawings for the sidecar the same way.
func TestAPIPageWriter(t *testing.T) {
	for i, s := range hostile {
		b := oracleBuilder(t, "4.0"+s, i)
		for shape := range 64 {
			checkPageWriter(t, b, oraclePage(s, shape))
		}
	}
}

// FuzzAPIPageWriter is TestAPIPageWriter with any text: the writer escapes it as the template
// does wherever it stands.
func FuzzAPIPageWriter(f *testing.F) {
	for _, s := range hostile {
		f.Add(s, 63)
	}
	f.Add("", 0)
	f.Fuzz(func(t *testing.T, s string, shape int) {
		b := oracleBuilder(t, s, shape&3)
		checkPageWriter(t, b, oraclePage(s, shape&63))
	})
}
