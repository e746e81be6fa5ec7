package reference

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"strings"
	"sync"

	"github.com/kafkagrid/kafkagrid/site"
	"github.com/kafkagrid/kafkagrid/site/htmlw"
)

// An API's page, written without html/template: the "api" template's markup in Go, each value
// escaped by htmlw as html/template escapes it where it stands (text, attribute, URL, URL
// fragment, script), and each message by site.WriteMessage. The build writes some hundreds of
// these pages; executing the template through reflection was a fifth of the extra work of a
// build of every version. The template stays, the definition of the page: TestAPIPageWriter
// writes pages of every shape, with hostile text, both ways and compares the bytes.

// pageStatic are the parts of a page that hold no value: the templates' own output, once a
// build (html/template drops the comments of the style sheet and the script as it writes them).
type pageStatic struct {
	css, script, lazyHead string
	// lazyPre and lazyPost are the page's lazy script before and after its sidecar's name.
	lazyPre, lazyPost string
}

// lazyMarker stands for the sidecar's name in the lazy script as the template writes it.
const lazyMarker = "kgLazySidecarName"

// newPageStatic executes the static templates of t once.
func newPageStatic(t *template.Template) (*pageStatic, error) {
	var ps pageStatic
	for _, p := range []struct {
		name string
		data any
		s    *string
	}{{"css", nil, &ps.css}, {"script", nil, &ps.script}, {"lazyhead", nil, &ps.lazyHead}, {"lazyscript", lazyMarker, &ps.lazyPre}} {
		var sb strings.Builder
		if err := t.ExecuteTemplate(&sb, p.name, p.data); err != nil {
			return nil, fmt.Errorf("reference: page templates: %w", err)
		}
		*p.s = sb.String()
	}
	var ok bool
	if ps.lazyPre, ps.lazyPost, ok = strings.Cut(ps.lazyPre, `"`+lazyMarker+`"`); !ok {
		return nil, fmt.Errorf("reference: page templates: the lazy script does not name its sidecar as a JSON string")
	}
	return &ps, nil
}

// headHTML is the "head" template's text before and after the generator's name.
const (
	headPre  = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<meta name=\"color-scheme\" content=\"light dark\">\n<meta name=\"generator\" content=\""
	headPost = "\">\n"
)

// pageWriter is an htmlw.Writer kept from page to page (pageWriters), so that its buffer,
// grown to hold a page's largest drawing, is not made and grown again for each: for its
// io.Writer it has sink, pointed at each page's.
type pageWriter struct {
	*htmlw.Writer
	sink sink
}

type sink struct{ w io.Writer }

func (s *sink) Write(p []byte) (int, error) { return s.w.Write(p) }

var pageWriters = sync.Pool{New: func() any {
	pw := new(pageWriter)
	pw.Writer = htmlw.New(&pw.sink)
	return pw
}}

// newPageWriter returns a writer to out; give it back with done.
func newPageWriter(out io.Writer) *pageWriter {
	pw := pageWriters.Get().(*pageWriter)
	pw.sink.w = out
	return pw
}

// done flushes the writer and gives it back, unless a write failed (an htmlw.Writer keeps
// its first error); it returns Flush's error.
func (pw *pageWriter) done() error {
	err := pw.Flush()
	pw.sink.w = nil
	if err == nil {
		pageWriters.Put(pw)
	}
	return err
}

// writeAPIPage writes the page of v as the "api" template does.
func (b *builder) writeAPIPage(out io.Writer, v *pageView) error {
	pw := newPageWriter(out)
	w := pw.Writer
	w.Raw(headPre)
	w.Text(v.Generator)
	w.Raw(headPost)
	w.Raw("<title>")
	w.Text(v.Name)
	w.Raw(" (key ")
	w.Int(int(v.Key))
	w.Raw(", v")
	w.Int(int(v.Version))
	w.Raw(") · Kafka ")
	w.Text(v.Release)
	w.Raw(" protocol</title>\n")
	w.Raw(b.static.css)
	w.Raw("\n")
	w.Raw(b.static.lazyHead)
	w.Raw("\n</head>\n<body>\n<main class=\"api\">\n")
	b.writeTopNav(w, v)
	writeMeta(w, v)
	writeChanges(w, v)
	writeContents(w, v)
	for i := range v.Messages {
		m := &v.Messages[i]
		w.Raw("\n<section class=\"msg\" id=\"")
		w.Text(m.ID)
		w.Raw("\">\n<h2>")
		writeMessageHeading(w, m)
		w.Raw("</h2>\n")
		site.WriteMessage(w, siteMessage(m))
		w.Raw("</section>")
		writeNested(w, m.Nested)
		w.Raw("\n")
	}
	w.Raw("\n")
	writeEdges(w, v)
	writeFieldTables(w, v)
	writeHistory(w, v)
	writeSchemas(w, v)
	w.Raw("\n<footer>Built by kafkagrid from the message schemas of Apache Kafka ")
	w.Text(v.Release)
	w.Raw(". <a href=\"../index.html\">Index</a></footer>\n</main>\n")
	w.Raw(b.static.script)
	w.Raw("\n")
	src, err := json.Marshal(v.Lazy) // html/template's value in a script: JSON, "<" and ">" escaped
	if err != nil {
		pw.done()
		return err
	}
	w.Raw(b.static.lazyPre)
	w.Raw(string(src))
	w.Raw(b.static.lazyPost)
	w.Raw("\n</body>\n</html>\n")
	return pw.done()
}

// writeTopNav writes the page's top bar (previous and next API, index, book, decoder), the
// site's bar and the heading.
func (b *builder) writeTopNav(w *htmlw.Writer, v *pageView) {
	w.Raw(`<nav class="top">`)
	if v.Prev != nil {
		w.Raw(`<a href="`)
		w.URL(v.Prev.Href)
		w.Raw(`" rel="prev">← `)
		w.Text(v.Prev.Name)
		w.Raw("</a>")
	} else {
		w.Raw("<span></span>")
	}
	w.Raw(`<span class="mid"><a href="../index.html">Kafka `)
	w.Text(v.Release)
	w.Raw(" index</a>")
	if v.Book != "" {
		w.Raw(` · <a href="`)
		w.URL(v.Book)
		w.Raw(`">PDF book</a>`)
	}
	if d := b.decodeHref("../"); d != "" {
		w.Raw(` · <a href="`)
		w.URL(d)
		w.Raw(`">Decode bytes</a>`)
	}
	w.Raw("</span>")
	if v.Next != nil {
		w.Raw(`<a href="`)
		w.URL(v.Next.Href)
		w.Raw(`" rel="next">`)
		w.Text(v.Next.Name)
		w.Raw(" →</a>")
	} else {
		w.Raw("<span></span>")
	}
	w.Raw("</nav>\n")
	w.Raw(string(v.Site))
	w.Raw("<h1>")
	w.Text(v.Name)
	if v.Flexible {
		w.Raw(`<span class="badge flex">flexible</span>`)
	}
	if v.Unstable {
		w.Raw(`<span class="badge unst">unstable</span>`)
	}
	w.Raw("</h1>\n")
}

// writeMeta writes the facts of the version and the versions' bar.
func writeMeta(w *htmlw.Writer, v *pageView) {
	w.Raw("<dl class=\"meta\">\n<dt>API key</dt><dd class=\"mono\">")
	w.Int(int(v.Key))
	w.Raw("</dd>\n<dt>Version</dt><dd>")
	w.Text(v.VersionText)
	w.Raw("</dd>\n<dt>Headers</dt><dd>")
	w.Text(v.Headers)
	w.Raw("</dd>\n<dt>Category</dt><dd>")
	w.Text(v.Category)
	w.Raw("</dd>\n<dt>Listeners</dt><dd>")
	if len(v.Listeners) > 0 {
		w.Text(strings.Join(v.Listeners, ", "))
	} else {
		w.Raw("none")
	}
	w.Raw("</dd>\n<dt>Encoding</dt><dd>")
	if v.Flexible {
		w.Raw("flexible: compact strings and arrays, tagged fields")
	} else {
		w.Raw("classic: fixed-width lengths, no tagged fields")
	}
	w.Raw(` (flexible versions <span class="mono">`)
	w.Text(v.FlexVers)
	w.Raw("</span>)</dd>\n")
	for i := range v.Messages {
		w.Raw("<dt>")
		w.Text(v.Messages[i].Title)
		w.Raw(" frame</dt><dd>")
		w.Text(byteCount(v.Messages[i].Size))
		w.Raw("</dd>\n")
	}
	w.Raw("</dl>\n<nav class=\"versions noprint\" aria-label=\"Versions of ")
	w.Text(v.Name)
	w.Raw(`"><span>Versions</span>`)
	for i := range v.History {
		h := &v.History[i]
		if !h.Built {
			continue
		}
		w.Raw(`<a href="`)
		w.URL(h.Href)
		w.Raw(`"`)
		if h.Current {
			w.Raw(` aria-current="page"`)
		}
		w.Raw(">v")
		w.Int(int(h.Version))
		w.Raw("</a>")
	}
	w.Raw("</nav>\n")
	if v.Omitted != "" {
		w.Raw(`<p class="muted">`)
		w.Text(v.Omitted)
		w.Raw("</p>\n")
	}
}

// writeChanges writes what changed in the version, with Kafka's comments on it.
func writeChanges(w *htmlw.Writer, v *pageView) {
	w.Raw("<section class=\"changes\" id=\"changes\">\n<h2>What changed in v")
	w.Int(int(v.Version))
	w.Raw("</h2>\n<ul>")
	for _, c := range v.Current.Changes {
		w.Raw("<li>")
		w.Text(c)
		w.Raw("</li>")
	}
	if len(v.Current.Changes) == 0 {
		w.Raw("<li>Nothing in the bytes: this version changes what the broker does, not the schema.</li>")
	}
	w.Raw("</ul>\n")
	if len(v.Comments) > 0 {
		w.Raw("<p class=\"muted\">Kafka's own comments on this version:</p>\n")
		for _, c := range v.Comments {
			w.Raw("<blockquote>")
			w.Text(c.Text)
			w.Raw(` <a class="cite" href="#`)
			w.URLQuery(c.Anchor)
			w.Raw(`">`)
			w.Text(c.File)
			w.Raw(":")
			w.Int(c.Line)
			w.Raw("</a></blockquote>\n")
		}
	}
	w.Raw("</section>\n")
}

// writeContents writes the line of links to the page's sections.
func writeContents(w *htmlw.Writer, v *pageView) {
	w.Raw(`<p class="noprint">`)
	for i := range v.Messages {
		if i > 0 {
			w.Raw(" · ")
		}
		link(w, v.Messages[i].ID, v.Messages[i].Title)
	}
	if len(v.Edges) > 0 {
		w.Raw(` · <a href="#edge-cases">Edge cases</a>`)
	}
	for i := range v.Fields {
		w.Raw(" · ")
		link(w, v.Fields[i].ID, v.Fields[i].Title)
	}
	w.Raw(` · <a href="#versions">Version history</a>`)
	for i := range v.Schemas {
		w.Raw(" · ")
		link(w, v.Schemas[i].ID, v.Schemas[i].Title)
	}
	w.Raw("</p>\n")
}

// link writes <a href="#id">text</a>.
func link(w *htmlw.Writer, id, text string) {
	w.Raw(`<a href="#`)
	w.URLQuery(id)
	w.Raw(`">`)
	w.Text(text)
	w.Raw("</a>")
}

// writeMessageHeading writes a message's heading's text: its title, file base name and size.
func writeMessageHeading(w *htmlw.Writer, m *messageView) {
	w.Text(m.Title)
	w.Raw(` <span class="mono" style="font-size:.7em;color:var(--muted)">`)
	w.Text(m.Base)
	w.Raw(" · ")
	w.Text(byteCount(m.Size))
	w.Raw("</span>")
}

// siteMessage is the view site.WriteMessage takes of a message: the "msgbody" template's,
// with the reference's placeholders ("later", "treelater") for what waits.
func siteMessage(m *messageView) *site.Message {
	sm := &site.Message{
		ID: m.ID, Fit: string(m.Fit), Grid: string(m.Grid), Narrow: string(m.Narrow), Tree: string(m.Tree),
		GridW: m.GridW, NarrowW: m.NarrowW, TreeW: m.TreeW, Hex: string(m.Hex), Hex8: string(m.Hex8),
		Detail: string(m.Detail), Park: m.Park,
		GridParts: siteParts(m.GridParts), TreeParts: siteParts(m.TreeParts),
	}
	if len(m.Links) > 0 {
		sm.Links = make([]site.Link, len(m.Links))
		for i, l := range m.Links {
			sm.Links[i] = site.Link{Label: l.Label, Href: l.Href}
		}
	}
	if m.Later {
		sm.Later = func(w *htmlw.Writer) { writeLater(w, m) }
	}
	if m.TreeLater {
		sm.TreeLater = func(w *htmlw.Writer) { writeTreeLater(w, m) }
	}
	return sm
}

func siteParts(ps []partView) []site.Part {
	if len(ps) == 0 {
		return nil
	}
	out := make([]site.Part, len(ps))
	for i, p := range ps {
		out[i] = site.Part{W: p.W, Caption: p.Caption, SVG: string(p.SVG)}
	}
	return out
}

// writeLater writes the placeholder of a message drawn later (lazyPlaceholder's "later").
func writeLater(w *htmlw.Writer, m *messageView) {
	w.Raw(`<div class="kg-later" data-key="`)
	w.Text(m.ID)
	w.Raw("\">\n<p class=\"kg-wait\">Byte grid, hex dump and expanded tree of this ")
	w.Text(byteCount(m.Size))
	w.Raw(" frame: drawn when you come to it. <button type=\"button\" class=\"kg-draw noprint\">Draw it now</button></p>\n<noscript><p>The page draws it with script")
	if len(m.Links) > 0 {
		w.Raw("; without, its files are linked above")
	}
	w.Raw(".</p></noscript>\n<p class=\"muted kg-printnote\">Not drawn yet: open it on the screen to print it, or print the PDF book.</p>\n</div>\n")
}

// writeTreeLater writes the placeholder of a tree drawn when asked (lazyTree's "treelater").
func writeTreeLater(w *htmlw.Writer, m *messageView) {
	w.Raw(`<div class="kg-later kg-ask" data-key="`)
	w.Text(m.ID)
	w.Raw("-tree\">\n<p class=\"kg-wait\">The expanded tree of this ")
	w.Text(byteCount(m.Size))
	w.Raw(" frame is drawn when you ask, to keep the page light: <button type=\"button\" class=\"kg-draw noprint\">Draw the tree</button></p>\n<noscript><p>The page draws it with script")
	if len(m.Links) > 0 {
		w.Raw("; without, its tree.svg is linked above")
	}
	w.Raw(".</p></noscript>\n<p class=\"muted kg-printnote\">Not drawn yet: draw it on the screen to print it, or print the PDF book.</p>\n</div>\n")
}

// writeNested writes the sections of a frame's nested frames (site.MessageTemplates'
// "nested").
func writeNested(w *htmlw.Writer, ns []messageView) {
	for i := range ns {
		n := &ns[i]
		w.Raw("\n<section class=\"msg nested\" id=\"")
		w.Text(n.ID)
		w.Raw("\">\n<h3>")
		w.Text(n.Caption)
		w.Raw("</h3>\n")
		for _, note := range n.Notes {
			w.Raw(`<p class="note">`)
			w.Text(note)
			w.Raw("</p>\n")
		}
		if n.Grid != "" {
			site.WriteMessage(w, siteMessage(n))
		}
		w.Raw("</section>")
	}
}

// writeEdges writes the section of the API's edge cases (the top page's).
func writeEdges(w *htmlw.Writer, v *pageView) {
	if len(v.Edges) == 0 {
		return
	}
	w.Raw("<section class=\"edges\" id=\"edge-cases\">\n<h2>Edge cases</h2>\n<p class=\"muted\">Special frames beside the example, the ones client and proxy authors get wrong, encoded and checked like it; open one to draw it:</p>\n")
	for i := range v.Edges {
		e := &v.Edges[i]
		w.Raw(`<details class="edge" id="`)
		w.Text(e.ID)
		w.Raw(`"><summary><h3 class="edge">`)
		w.Text(e.Title)
		w.Raw("</h3></summary>\n<p class=\"about\">")
		w.Text(e.About)
		w.Raw("</p>\n")
		for j := range e.Messages {
			m := &e.Messages[j]
			w.Raw(`<section class="msg" id="`)
			w.Text(m.ID)
			w.Raw("\">\n<h4>")
			w.Text(m.Title)
			w.Raw(` <span class="mono" style="font-size:.8em;color:var(--muted)">`)
			w.Text(m.Base)
			w.Raw(" · ")
			w.Text(byteCount(m.Size))
			w.Raw("</span></h4>\n")
			site.WriteMessage(w, siteMessage(m))
			w.Raw("</section>")
			writeNested(w, m.Nested)
			w.Raw("\n")
		}
		w.Raw("</details>\n")
	}
	w.Raw("</section>\n")
}

// writeFieldTables writes the request's and response's field tables.
func writeFieldTables(w *htmlw.Writer, v *pageView) {
	for i := range v.Fields {
		t := &v.Fields[i]
		w.Raw(`<section class="fields" id="`)
		w.Text(t.ID)
		w.Raw("\">\n<h2>")
		w.Text(t.Title)
		w.Raw(` <span class="mono" style="font-size:.7em;color:var(--muted)">`)
		w.Text(t.File)
		w.Raw(" · ")
		w.Text(plural(len(t.Rows), "field"))
		w.Raw("</span></h2>\n<p class=\"muted\">Every field of the schema, nested fields under the field that holds them, with the versions it is in and the schema's description.")
		if t.Absent != 0 {
			w.Raw(" Greyed rows are not in v")
			w.Int(int(v.Version))
			w.Raw(".")
		}
		w.Raw("</p>\n<table class=\"fields\"><colgroup><col class=\"fpath\"><col class=\"ftype\"><col class=\"fver\"><col></colgroup>\n<thead><tr><th>Field</th><th>Type</th><th>Versions</th><th>About</th></tr></thead>\n<tbody>\n")
		for j := range t.Rows {
			writeFieldRow(w, &t.Rows[j])
		}
		w.Raw("</tbody></table>\n</section>\n")
	}
}

func writeFieldRow(w *htmlw.Writer, r *fieldRow) {
	w.Raw("<tr")
	if r.Absent {
		w.Raw(` class="absent"`)
	}
	w.Raw(`><td class="mono">`)
	if r.Parent != "" {
		w.Raw(`<span class="par">`)
		w.Raw(string(wbr(r.Parent)))
		w.Raw("</span>")
	}
	w.Text(r.Name)
	w.Raw(`</td><td class="mono">`)
	w.Raw(string(wbr(r.Type)))
	w.Raw("</td><td>")
	w.Text(r.Versions)
	w.Raw("</td><td>")
	if r.Notes != "" {
		w.Raw(`<span class="kg-fnote">`)
		w.Text(r.Notes)
		w.Raw("</span>")
	}
	w.Text(r.About)
	w.Raw("</td></tr>\n")
}

// writeHistory writes the table of every valid version.
func writeHistory(w *htmlw.Writer, v *pageView) {
	w.Raw("<section class=\"history\" id=\"versions\">\n<h2>Version history</h2>\n<div class=\"scroll\"><table class=\"hist\">\n<thead><tr><th>Version</th><th>Headers</th><th>What changed</th></tr></thead>\n<tbody>\n")
	for i := range v.History {
		h := &v.History[i]
		w.Raw("<tr")
		if h.Current {
			w.Raw(` class="cur"`)
		}
		w.Raw(`><td class="num">`)
		if h.Built {
			w.Raw(`<a href="`)
			w.URL(h.Href)
			w.Raw(`">v`)
			w.Int(int(h.Version))
			w.Raw("</a>")
		} else {
			w.Raw("v")
			w.Int(int(h.Version))
		}
		w.Raw("</td><td>")
		w.Text(h.Headers)
		if h.Flexible {
			w.Raw("; flexible")
		}
		if h.Deprecate {
			w.Raw("; deprecated")
		}
		w.Raw("</td><td>")
		if len(h.Changes) > 0 {
			w.Raw("<ul>")
			for _, c := range h.Changes {
				w.Raw("<li>")
				w.Text(c)
				w.Raw("</li>")
			}
			w.Raw("</ul>")
		} else {
			w.Raw("no change to the bytes")
		}
		w.Raw("</td></tr>\n")
	}
	w.Raw("</tbody></table></div>\n</section>\n")
}

// writeSchemas writes the request's and response's schema source.
func writeSchemas(w *htmlw.Writer, v *pageView) {
	for i := range v.Schemas {
		s := &v.Schemas[i]
		w.Raw("\n<section class=\"schema\" id=\"")
		w.Text(s.ID)
		w.Raw("\">\n<h2>")
		w.Text(s.Title)
		w.Raw(` <span class="mono" style="font-size:.7em;color:var(--muted)">`)
		w.Text(s.File)
		w.Raw(" · ")
		w.Int(s.Lines)
		w.Raw(" lines</span></h2>\n")
		if len(s.Structs) > 0 {
			w.Raw("<p>Common structs: ")
			for j, st := range s.Structs {
				if j > 0 {
					w.Raw(", ")
				}
				link(w, st.Anchor, st.Name)
			}
			w.Raw("</p>")
		}
		w.Raw("\n")
		if s.Later {
			w.Raw("<noscript><p class=\"muted\">The page shows this source with script: it is Kafka's ")
			w.Text(s.File)
			w.Raw(".</p></noscript>\n")
		}
		w.Raw(`<pre class="src" tabindex="0" role="region" aria-label="`)
		w.Text(s.File)
		w.Raw(`, line by line">`)
		if s.Later {
			w.Raw(`<template class="kg-near">`)
			w.Raw(string(s.Source))
			w.Raw("</template>")
		} else {
			w.Raw(string(s.Source))
		}
		w.Raw("</pre>\n</section>\n")
	}
}

// writeDrawings writes a message's drawings for its page's sidecar, as the "msgdraw" template
// does (tree false), or its tree alone as "treedraw" does (tree true).
func writeDrawings(out *bytes.Buffer, m *messageView, tree bool) error {
	pw := newPageWriter(out)
	sm := siteMessage(m)
	if tree {
		site.WriteTree(pw.Writer, sm)
		return pw.done()
	}
	// "msgbody" without files or placeholder is a line break and "msgdraw".
	sm.Links, sm.Later = nil, nil
	start := out.Len()
	site.WriteMessage(pw.Writer, sm)
	if err := pw.done(); err != nil {
		return err
	}
	b := out.Bytes()[start:]
	if len(b) == 0 || b[0] != '\n' {
		return fmt.Errorf("reference: %s: the message's drawings do not start with msgbody's line break", m.ID)
	}
	copy(b, b[1:]) // the line break
	out.Truncate(out.Len() - 1)
	return nil
}
