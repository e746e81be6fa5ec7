package reference

import (
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/kafkagrid/kafkagrid/site"
)

// The views the page templates render. They hold only what a page shows, already formatted,
// so the templates stay free of logic.

type indexView struct {
	Guide [][2]string
	// GuideGrid is the guide's figure (guideFigure), "" when not built; GuideCallouts name
	// what to see in it.
	GuideGrid     template.HTML
	GuideW        int
	GuideCaption  string
	GuideCallouts [][2]string
	Release       string
	Source        string
	NumAPIs       int
	Categories    []categoryView
	Book          string // the PDF book's file name, "" when not built
	Generator     string
	Story         *storyView    // the cluster of the examples
	Site          template.HTML // the bar of a site of releases (search, release switcher), or ""
}

type categoryView struct {
	Name string
	ID   string
	APIs []apiLink
}

type apiLink struct {
	Key      int16
	Name     string
	Version  int16
	Versions string // the versions built, "v3–12" (index only)
	Href     string
	Flexible bool
	Unstable bool
	// Request and Response are the example frames' sizes in bytes (index only).
	Request, Response int
	Purpose           string // what the API is for, one line (kafka.Facts; index only)
	// Mark is where an API's list of error codes comes from, on errors.html: "K" Kafka's code,
	// "F" franz-go's kmsg docs (listSource).
	Mark string
}

type pageView struct {
	Omitted     string // the versions the schema declares beyond those drawn (omitted), or ""
	Release     string
	Key         int16
	Name        string
	Version     int16
	VersionText string // the version and the valid range (versionText)
	FlexVers    string // flexible versions ("9+", "none")
	Category    string
	Listeners   []string
	Flexible    bool
	Unstable    bool
	Prev        *apiLink
	Next        *apiLink
	Messages    []messageView
	Schemas     []schemaView
	Book        string // relative link to the PDF book, "" when not built
	Generator   string
	Headers     string           // the header versions in words
	History     []versionInfo    // every valid version, highest first
	Current     versionInfo      // this page's version
	Comments    []commentView    // Kafka's comments on this version, linked to their schema line
	Edges       []edgeView       // the special frames beside the example (the API's top page only)
	Fields      []fieldTableView // the request's and response's fields with the schema's about text
	Site        template.HTML    // the bar of a site of releases (search, release switcher), or ""
	Lazy        string           // the page's sidecar of drawings drawn when opened (lazy.go), or ""
}

// edgeView is an edge case on its API's page: what it shows, and its files.
type edgeView struct {
	Title, About, ID string
	Messages         []messageView // its frames, request first
}

type commentView struct {
	Text, File, Anchor string
	Line               int
}

type messageView struct {
	ID    string // "request" or "response"
	Title string // "Request"
	Base  string // file base name: 0-Produce-v12-request
	Size  int
	Grid  template.HTML // inline SVG
	Tree  template.HTML // inline SVG
	GridW int           // drawing widths, to size the SVGs on the page
	TreeW int
	// GridParts and TreeParts are the drawings cut in parts for print (printParts), nil
	// when they print whole.
	GridParts []partView
	TreeParts []partView
	Hex       template.HTML
	Hex8      template.HTML // the hex dump 8 bytes a line, for a phone
	// Narrow is the grid 16 bits a row (site.NarrowRowBits), NarrowW its width; Fit is the
	// message's own style choosing between the grids and whether grid and tree sit side by
	// side (site.Fit).
	Narrow  template.HTML
	NarrowW int
	Fit     template.HTML
	Links   []fileLink
	// Detail is the JSON the page's script shows in the detail panel (detailJSON).
	Detail template.JS
	// Nested are the records of the frame's compressed batches, each shown as a message of its
	// own after it (site.MessageTemplates' "nested"), with Caption and Notes.
	Nested  []messageView
	Caption string
	Notes   []string
	// Later puts a placeholder on the page for the message's drawings, which the page's
	// script inserts from the page's sidecar when they are opened (lazy.go); TreeLater
	// does so for its tree alone. Park keeps the 16-bit grid and the 8-byte hex dump in
	// <template>s, put in the page by its script when the screen shows them (lazy.go).
	Later, TreeLater, Park bool
}

type fileLink struct{ Label, Href string }

type schemaView struct {
	ID      string // "request-schema"
	Title   string
	File    string
	Lines   int
	Source  template.HTML
	Structs []structLink
	Later   bool // the source is a template, cloned when it nears the screen (lazy.go)
}

type structLink struct {
	Name   string
	Anchor string
}

// schemaHTML renders a schema file as line-numbered, lightly coloured HTML for a <pre>. Each
// line is a span with id prefix-N, so a page can link to a line.
func schemaHTML(src []byte, prefix string) (template.HTML, int) {
	lines := tokenizeLines(src)
	var sb strings.Builder
	sb.Grow(len(src) * 2)
	for i, ts := range lines {
		// The line number is the CSS counter of pre.src .line (pageCSS), not an element: a
		// schema's lines are hundreds of elements on the page, and a copy leaves them out.
		fmt.Fprintf(&sb, `<span class="line" id="%s%d">`, prefix, i+1)
		for _, t := range ts {
			class := tokenClass[t.Kind]
			if class != "" {
				fmt.Fprintf(&sb, `<span class="%s">`, class)
			}
			template.HTMLEscape(&sb, []byte(t.Text))
			if class != "" {
				sb.WriteString("</span>")
			}
		}
		sb.WriteString("\n</span>") // the newline inside: a printed line is a block (pageCSS)
	}
	return template.HTML(sb.String()), len(lines)
}

var tokenClass = [...]string{tokText: "", tokComment: "c", tokKey: "k", tokString: "s", tokNumber: "n", tokLiteral: "l"}

// pageTemplates are parsed once per build; template.Template is safe for concurrent use.
func pageTemplates() (*template.Template, error) {
	t, err := template.New("page").Funcs(template.FuncMap{
		"join":   strings.Join,
		"bytes":  byteCount,
		"wbr":    wbr,
		"plural": plural,
		// decoder is the link to the browser decoder from a page at the given path from the
		// release's folder, "" for none (a builder's own: builder.decodeHref).
		"decoder": func(string) string { return "" },
	}).Parse(pageCSS + pageScript + site.MessageTemplates + templatesHTML + errorsHTML + primitivesHTML + lazyHead + lazyPlaceholder + lazyTree + lazyScript)
	if err != nil {
		return nil, fmt.Errorf("reference: page templates: %w", err)
	}
	return t, nil
}

func renderIndex(t *template.Template, w io.Writer, v *indexView) error {
	if err := t.ExecuteTemplate(w, "index", v); err != nil {
		return fmt.Errorf("reference: index.html: %w", err)
	}
	return nil
}

// renderPage writes an API's page (writeAPIPage: the "api" template's page, without the
// template).
func (b *builder) renderPage(w io.Writer, v *pageView) error {
	if err := b.writeAPIPage(w, v); err != nil {
		return fmt.Errorf("reference: %s.html: %w", v.Name, err)
	}
	return nil
}

// wbr escapes a field path or type and lets it break after each dot and after "[]".
func wbr(s string) template.HTML {
	e := template.HTMLEscapeString(s)
	e = strings.ReplaceAll(e, ".", ".<wbr>")
	e = strings.ReplaceAll(e, "[]", "[]<wbr>")
	return template.HTML(e)
}

func byteCount(n int) string {
	if n == 1 {
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}

// pageCSS is shared by every page: system fonts only (no network), the reader's light or dark
// preference, and a print style.
var pageCSS = `{{define "css"}}<style>
` + site.CSS + `</style>{{end}}`

// pageScript links a tree node and its grid field (the same data-path) and the bytes of the
// field in the hex dump, both ways. It is inline, small and needs no network.
//
// Where grid and tree sit side by side (site.Fit), they are a viewer a screen tall (the page
// snaps to it): the grid scrolls in its own box, and the pane beside it holds the detail panel
// (a fixed slot: what it shows changes, its size does not, so nothing moves under the
// pointer), the hex dump and the tree, each scrolling in its own box. Pointing at a field in
// one view scrolls the others' boxes so that its box, row and bytes are in view; the page
// itself never moves under the pointer. Where they sit one under the other, hovering scrolls
// nothing; a click or tap selects a field and shows the panel as a sheet at the screen's
// bottom, the selected box scrolled above it and room left under the page so it covers
// nothing the reader cannot scroll above it. The panel's × closes it.
var pageScript = `{{define "script"}}<script>
` + site.Script + `</script>{{end}}`

const templatesHTML = `{{define "head"}}<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="generator" content="{{.Generator}}">
{{end}}

{{define "index"}}{{template "head" .}}<title>Kafka {{.Release}} wire protocol reference</title>
{{template "css"}}
</head>
<body>
<main>
<nav class="top"><span>kafkagrid</span><span class="mid">Kafka {{.Release}}{{with decoder ""}} · <a href="{{.}}">Decode bytes</a>{{end}}</span>{{if .Book}}<a href="{{.Book}}">PDF book</a>{{else}}<span></span>{{end}}</nav>
{{.Site}}<h1>Kafka {{.Release}} wire protocol</h1>
<p class="lead">Every API of Apache Kafka {{.Release}} ({{.NumAPIs}} in all) with a minimal example request and response at its highest version, encoded byte for byte and drawn as a byte grid and an expanded tree, next to the message schemas they come from. Every value comes from <a href="#cluster">one small cluster</a>.</p>
<p class="noprint"><input type="search" id="filter" placeholder="Filter: name or key" aria-label="Filter the APIs by name or key" autocomplete="off"></p>
<details class="guide"><summary>How to read the pages</summary>
{{if .GuideGrid}}<div class="guidefig"><figure style="--w:{{.GuideW}}"><figcaption>{{.GuideCaption}}</figcaption>{{.GuideGrid}}</figure>
<ol class="callouts">{{range .GuideCallouts}}<li><strong>{{index . 0}}</strong> {{index . 1}}</li>{{end}}</ol></div>
{{end}}{{range .Guide}}<p><strong>{{index . 0}}</strong> {{index . 1}}</p>
{{end}}</details>
<div class="toc noprint">{{range .Categories}}<a href="#{{.ID}}">{{.Name}} ({{len .APIs}})</a>{{end}}{{if .Story}}<a href="#cluster">The cluster in these examples</a>{{end}}<a href="errors.html">Error codes</a><a href="primitives.html">Primitive types</a></div>
{{range .Categories}}
<div class="cat">
<h2 id="{{.ID}}">{{.Name}}</h2>
<table class="apis">
<colgroup><col class="key"><col><col class="ver"><col class="size"><col class="size"><col class="badges"></colgroup>
<thead><tr><th>Key</th><th>API</th><th>Versions</th><th class="r size">Request</th><th class="r size">Response</th><th></th></tr></thead>
<tbody>
{{range .APIs}}<tr><td class="num">{{.Key}}</td><td><a href="{{.Href}}">{{.Name}}</a>{{if .Purpose}}<span class="purpose">{{.Purpose}}</span>{{end}}</td><td class="num">{{.Versions}}</td><td class="num r size">{{.Request}} B</td><td class="num r size">{{.Response}} B</td><td>{{if .Unstable}}<span class="badge unst">unstable</span>{{end}}</td></tr>
{{end}}</tbody>
</table>
</div>
{{end}}
{{with .Story}}<section class="story" id="cluster">
<h2>The cluster in these examples</h2>
<p class="lead">{{.Lead}}</p>
<dl class="meta">{{range .Facts}}<dt>{{index . 0}}</dt><dd>{{index . 1}}</dd>
{{end}}</dl>
<div class="scroll"><table class="parts-t">
<thead><tr><th>Partition</th><th>Leader</th><th>Epoch</th><th>Replicas</th><th>ISR</th><th>Offline</th></tr></thead>
<tbody>
{{range .Partitions}}<tr{{if .Log}} class="log"{{end}}><td class="mono">{{.Name}}</td><td>{{.Leader}}</td><td>{{.Epoch}}</td><td>{{.Replicas}}</td><td>{{.ISR}}</td><td>{{.Offline}}</td></tr>
{{end}}</tbody></table></div>
<p class="muted">The partition in bold is the log the producer writes to and Fetch reads.</p>
</section>
{{end}}<footer>Built by kafkagrid from the message schemas of Apache Kafka {{.Release}}. Source: {{.Source}}. Apache Kafka is a trademark of the Apache Software Foundation.</footer>
</main>
<script>
(function(){
 var box=document.getElementById('filter');
 box.addEventListener('input',function(){
  var q=box.value.trim().toLowerCase();
  Array.prototype.forEach.call(document.querySelectorAll('.cat'),function(cat){
   var shown=0;
   Array.prototype.forEach.call(cat.querySelectorAll('tbody tr'),function(tr){
    var key=tr.cells[0].textContent.trim(),name=tr.cells[1].querySelector('a').textContent.toLowerCase();
    var ok=q===''||name.indexOf(q)>=0||key===q;
    tr.hidden=!ok;if(ok)shown++;
   });
   cat.hidden=shown===0;
  });
 });
})();
</script>
</body>
</html>
{{end}}

{{define "api"}}{{template "head" .}}<title>{{.Name}} (key {{.Key}}, v{{.Version}}) · Kafka {{.Release}} protocol</title>
{{template "css"}}
{{template "lazyhead"}}
</head>
<body>
<main class="api">
<nav class="top">{{if .Prev}}<a href="{{.Prev.Href}}" rel="prev">← {{.Prev.Name}}</a>{{else}}<span></span>{{end}}<span class="mid"><a href="../index.html">Kafka {{.Release}} index</a>{{if .Book}} · <a href="{{.Book}}">PDF book</a>{{end}}{{with decoder "../"}} · <a href="{{.}}">Decode bytes</a>{{end}}</span>{{if .Next}}<a href="{{.Next.Href}}" rel="next">{{.Next.Name}} →</a>{{else}}<span></span>{{end}}</nav>
{{.Site}}<h1>{{.Name}}{{if .Flexible}}<span class="badge flex">flexible</span>{{end}}{{if .Unstable}}<span class="badge unst">unstable</span>{{end}}</h1>
<dl class="meta">
<dt>API key</dt><dd class="mono">{{.Key}}</dd>
<dt>Version</dt><dd>{{.VersionText}}</dd>
<dt>Headers</dt><dd>{{.Headers}}</dd>
<dt>Category</dt><dd>{{.Category}}</dd>
<dt>Listeners</dt><dd>{{if .Listeners}}{{join .Listeners ", "}}{{else}}none{{end}}</dd>
<dt>Encoding</dt><dd>{{if .Flexible}}flexible: compact strings and arrays, tagged fields{{else}}classic: fixed-width lengths, no tagged fields{{end}} (flexible versions <span class="mono">{{.FlexVers}}</span>)</dd>
{{range .Messages}}<dt>{{.Title}} frame</dt><dd>{{bytes .Size}}</dd>
{{end}}</dl>
<nav class="versions noprint" aria-label="Versions of {{.Name}}"><span>Versions</span>{{range .History}}{{if .Built}}<a href="{{.Href}}"{{if .Current}} aria-current="page"{{end}}>v{{.Version}}</a>{{end}}{{end}}</nav>
{{if .Omitted}}<p class="muted">{{.Omitted}}</p>
{{end}}<section class="changes" id="changes">
<h2>What changed in v{{.Version}}</h2>
<ul>{{range .Current.Changes}}<li>{{.}}</li>{{else}}<li>Nothing in the bytes: this version changes what the broker does, not the schema.</li>{{end}}</ul>
{{if .Comments}}<p class="muted">Kafka's own comments on this version:</p>
{{range .Comments}}<blockquote>{{.Text}} <a class="cite" href="#{{.Anchor}}">{{.File}}:{{.Line}}</a></blockquote>
{{end}}{{end}}</section>
<p class="noprint">{{range $i, $m := .Messages}}{{if $i}} · {{end}}<a href="#{{$m.ID}}">{{$m.Title}}</a>{{end}}{{if .Edges}} · <a href="#edge-cases">Edge cases</a>{{end}}{{range .Fields}} · <a href="#{{.ID}}">{{.Title}}</a>{{end}} · <a href="#versions">Version history</a>{{range .Schemas}} · <a href="#{{.ID}}">{{.Title}}</a>{{end}}</p>
{{range .Messages}}
<section class="msg" id="{{.ID}}">
<h2>{{.Title}} <span class="mono" style="font-size:.7em;color:var(--muted)">{{.Base}} · {{bytes .Size}}</span></h2>
{{template "msgbody" .}}</section>{{template "nested" .Nested}}
{{end}}
{{if .Edges}}<section class="edges" id="edge-cases">
<h2>Edge cases</h2>
<p class="muted">Special frames beside the example, the ones client and proxy authors get wrong, encoded and checked like it; open one to draw it:</p>
{{range .Edges}}<details class="edge" id="{{.ID}}"><summary><h3 class="edge">{{.Title}}</h3></summary>
<p class="about">{{.About}}</p>
{{range .Messages}}<section class="msg" id="{{.ID}}">
<h4>{{.Title}} <span class="mono" style="font-size:.8em;color:var(--muted)">{{.Base}} · {{bytes .Size}}</span></h4>
{{template "msgbody" .}}</section>{{template "nested" .Nested}}
{{end}}</details>
{{end}}</section>
{{end}}{{range .Fields}}<section class="fields" id="{{.ID}}">
<h2>{{.Title}} <span class="mono" style="font-size:.7em;color:var(--muted)">{{.File}} · {{plural (len .Rows) "field"}}</span></h2>
<p class="muted">Every field of the schema, nested fields under the field that holds them, with the versions it is in and the schema's description.{{if .Absent}} Greyed rows are not in v{{$.Version}}.{{end}}</p>
<table class="fields"><colgroup><col class="fpath"><col class="ftype"><col class="fver"><col></colgroup>
<thead><tr><th>Field</th><th>Type</th><th>Versions</th><th>About</th></tr></thead>
<tbody>
{{range .Rows}}<tr{{if .Absent}} class="absent"{{end}}><td class="mono">{{if .Parent}}<span class="par">{{wbr .Parent}}</span>{{end}}{{.Name}}</td><td class="mono">{{wbr .Type}}</td><td>{{.Versions}}</td><td>{{if .Notes}}<span class="kg-fnote">{{.Notes}}</span>{{end}}{{.About}}</td></tr>
{{end}}</tbody></table>
</section>
{{end}}<section class="history" id="versions">
<h2>Version history</h2>
<div class="scroll"><table class="hist">
<thead><tr><th>Version</th><th>Headers</th><th>What changed</th></tr></thead>
<tbody>
{{range .History}}<tr{{if .Current}} class="cur"{{end}}><td class="num">{{if .Built}}<a href="{{.Href}}">v{{.Version}}</a>{{else}}v{{.Version}}{{end}}</td><td>{{.Headers}}{{if .Flexible}}; flexible{{end}}{{if .Deprecate}}; deprecated{{end}}</td><td>{{if .Changes}}<ul>{{range .Changes}}<li>{{.}}</li>{{end}}</ul>{{else}}no change to the bytes{{end}}</td></tr>
{{end}}</tbody></table></div>
</section>
{{range .Schemas}}
<section class="schema" id="{{.ID}}">
<h2>{{.Title}} <span class="mono" style="font-size:.7em;color:var(--muted)">{{.File}} · {{.Lines}} lines</span></h2>
{{if .Structs}}<p>Common structs: {{range $i, $s := .Structs}}{{if $i}}, {{end}}<a href="#{{$s.Anchor}}">{{$s.Name}}</a>{{end}}</p>{{end}}
{{if .Later}}<noscript><p class="muted">The page shows this source with script: it is Kafka's {{.File}}.</p></noscript>
{{end}}<pre class="src" tabindex="0" role="region" aria-label="{{.File}}, line by line">{{if .Later}}<template class="kg-near">{{.Source}}</template>{{else}}{{.Source}}{{end}}</pre>
</section>
{{end}}
<footer>Built by kafkagrid from the message schemas of Apache Kafka {{.Release}}. <a href="../index.html">Index</a></footer>
</main>
{{template "script"}}
{{template "lazyscript" .Lazy}}
</body>
</html>
{{end}}`
