package htmlw_test

import (
	"bytes"
	"html/template"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/site/htmlw"
)

// oracle is html/template's output for each context Writer writes.
var oracle = template.Must(template.New("o").Parse(`<title>{{.}}</title><p title="{{.}}">{{.}}</p><a href="{{.}}">x</a><a href="#c{{.}}">y</a><a href="../f/{{.}}">z</a>`))

func mine(s string) string {
	var b bytes.Buffer
	w := htmlw.New(&b)
	w.Raw("<title>")
	w.Text(s)
	w.Raw(`</title><p title="`)
	w.Text(s)
	w.Raw(`">`)
	w.Text(s)
	w.Raw(`</p><a href="`)
	w.URL(s)
	w.Raw(`">x</a><a href="#c`)
	w.URLQuery(s)
	w.Raw(`">y</a><a href="../f/`)
	w.URLPath(s)
	w.Raw(`">z</a>`)
	if err := w.Flush(); err != nil {
		panic(err)
	}
	return b.String()
}

func same(t *testing.T, s string) {
	t.Helper()
	var want bytes.Buffer
	if err := oracle.Execute(&want, s); err != nil {
		t.Fatal(err)
	}
	if got := mine(s); got != want.String() {
		t.Errorf("%.200q:\n got %.300q\nwant %.300q", s, got, want.String())
	}
}

var hostile = []string{"", "plain", `<script>alert("x")</script>`, `a"b'c&d+e<f>g`, "javascript:alert(1)", "JavaScript:x",
	"data:text/html,<b>", "http://h/a b?c=d&e=f#g", "mailto:x@y", "https:x", "/a:b", "a/b:c", "%41%4", "%zz%", "100%",
	"\x00nul", "line\u2028sep\u2029", "\xff\xfe bad utf8 \xc3", "é ü 🦀", "\ufdd0\ufffe", "tab\tnl\n", "`back`", "{{.}}", strings.Repeat("<&>", 20000)}

func TestSameAsTemplate(t *testing.T) {
	for _, s := range hostile {
		same(t, s)
	}
}

func FuzzSameAsTemplate(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { same(t, s) })
}
