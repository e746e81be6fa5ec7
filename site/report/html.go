package report

import (
	"io"
	"strings"

	"github.com/kafkagrid/kafkagrid/site"
	"github.com/kafkagrid/kafkagrid/site/htmlw"
)

// The report's pages are written by the functions of this file, with package htmlw's escaping
// of each value where it stands: the same bytes as the html/template pages they replace (the
// tests keep those templates, render both and compare), without linking html/template, whose
// reflection keeps every exported method of every type in a program (the browser decoder).

// writeHead writes what every page of the report starts with, up to its title.
func writeHead(w *htmlw.Writer) {
	w.Raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<meta name=\"color-scheme\" content=\"light dark\">\n<style>\n")
	w.Raw(site.CSS)
	w.Raw("</style>\n<style>\n")
	w.Raw(reportCSS)
	w.Raw("</style>\n")
}

// writeNotes writes each note as a paragraph of its own.
func writeNotes(w *htmlw.Writer, notes []string) {
	for _, n := range notes {
		w.Raw(`<p class="note">`)
		w.Text(n)
		w.Raw("</p>\n")
	}
}

// plural writes "s" when n is not 1.
func plural(w *htmlw.Writer, n int) {
	if n != 1 {
		w.Raw("s")
	}
}

// writeIndex writes index.html.
func writeIndex(out io.Writer, v *indexView) error {
	w := htmlw.New(out)
	writeHead(w)
	w.Raw("<title>")
	w.Text(v.Title)
	w.Raw("</title>\n</head>\n<body>\n<main>\n<nav class=\"top\"><span>kafkagrid</span><span class=\"mid\">")
	w.Text(v.Kind)
	w.Raw("</span><span></span></nav>\n<h1>")
	w.Text(v.Title)
	w.Raw("</h1>\n<p class=\"lead\">Input: ")
	w.Text(v.Kind)
	if v.Packets != 0 {
		w.Raw(", ")
		w.Int(v.Packets)
		w.Raw(" packet")
		plural(w, v.Packets)
	}
	w.Raw("; ")
	w.Int(v.Frames)
	w.Raw(" frame")
	plural(w, v.Frames)
	w.Raw(", ")
	if v.Failed != 0 {
		w.Raw("<strong>")
		w.Int(v.Failed)
		w.Raw(" not decoded</strong>")
	} else {
		w.Raw("all decoded")
	}
	w.Raw(".")
	if v.Left != 0 {
		w.Raw(" The first ")
		w.Int(v.Drawn)
		w.Raw(" exchanges have a page; ")
		w.Text(v.LeftText)
		w.Raw(".")
	}
	w.Raw("</p>\n")
	writeNotes(w, v.Notes)
	if len(v.Conns) > 1 {
		writeConnTable(w, v.Conns)
	}
	for _, c := range v.Conns {
		writeConn(w, c)
	}
	w.Raw("<footer>Written by kafkagrid. Each exchange's page draws its frames as byte grids and trees, linked to each other, to their hex dumps and to a detail panel.</footer>\n</main>\n</body>\n</html>\n")
	return w.Flush()
}

// writeConnTable writes the index's table of connections.
func writeConnTable(w *htmlw.Writer, conns []*connSum) {
	w.Raw("<div class=\"scroll\"><table class=\"xch conns\"><thead><tr><th>Connection</th><th>Frames</th><th>Not decoded</th><th>APIs</th></tr></thead><tbody>\n")
	for _, c := range conns {
		w.Raw(`<tr><td><a href="#conn`)
		w.Int(c.ID)
		w.Raw(`">`)
		w.Text(c.Title)
		w.Raw("</a></td><td>")
		w.Int(c.Frames)
		w.Raw("</td><td>")
		w.Int(c.Failed)
		w.Raw("</td><td>")
		w.Text(strings.Join(c.APIs, ", "))
		w.Raw("</td></tr>\n")
	}
	w.Raw("</tbody></table></div>\n")
}

// writeConn writes one connection's section of the index: its exchanges, a row each.
func writeConn(w *htmlw.Writer, c *connSum) {
	w.Raw(`<section id="conn`)
	w.Int(c.ID)
	w.Raw("\">\n<h2 class=\"conn\">")
	w.Text(c.Title)
	w.Raw("</h2>\n")
	writeNotes(w, c.Notes)
	if len(c.Rows) > 0 {
		w.Raw("<div class=\"scroll\"><table class=\"xch ex\"><thead><tr><th>#</th><th>Request</th><th>Client id</th><th>Response</th><th>Errors</th></tr></thead><tbody>\n")
		for i := range c.Rows {
			writeRow(w, &c.Rows[i])
		}
		w.Raw("</tbody></table></div>\n")
	} else {
		w.Raw("<p class=\"muted\">No exchange.</p>\n")
	}
	if c.LeftText != "" {
		w.Raw(`<p class="muted">`)
		w.Text(c.LeftText)
		w.Raw(".</p>\n")
	}
	w.Raw("</section>\n")
}

// writeRow writes an exchange's row in the index.
func writeRow(w *htmlw.Writer, r *rowView) {
	w.Raw("<tr")
	if r.Failed {
		w.Raw(` class="bad"`)
	}
	w.Raw(`><td class="num"><a href="`)
	w.URL(r.Href)
	w.Raw(`">`)
	w.Int(r.N)
	w.Raw("</a></td><td>")
	sideLink(w, r.Href, "#request", r.Request)
	w.Raw(`</td><td class="mono" data-label="Client id">`)
	w.Text(r.Client)
	w.Raw(`</td><td data-label="Response">`)
	sideLink(w, r.Href, "#response", r.Response)
	w.Raw(`</td><td class="mono" data-label="Errors">`)
	for i, e := range r.Errors {
		if i > 0 {
			w.Raw(", ")
		}
		w.Text(e)
	}
	if r.MoreErrors != 0 {
		w.Raw(" and ")
		w.Int(r.MoreErrors)
		w.Raw(" more")
	}
	w.Raw("</td></tr>\n")
}

// sideLink writes the link to one side of an exchange, "none" when it has none.
func sideLink(w *htmlw.Writer, href, frag, label string) {
	if label == "" {
		w.Raw("none")
		return
	}
	w.Raw(`<a href="`)
	w.URL(href)
	w.Raw(frag)
	w.Raw(`">`)
	w.Text(label)
	w.Raw("</a>")
}

// writePage writes an exchange's page.
func writePage(out io.Writer, pv *pageView) error {
	w := htmlw.New(out)
	writeHead(w)
	w.Raw("<title>")
	w.Text(pv.Heading)
	w.Raw(" · ")
	w.Text(pv.Conn)
	w.Raw(" · ")
	w.Text(pv.Title)
	w.Raw("</title>\n</head>\n<body>\n<main class=\"api\">\n<nav class=\"top\">")
	if pv.Prev != "" {
		w.Raw(`<a href="`)
		w.URL(pv.Prev)
		w.Raw(`" rel="prev">← previous</a>`)
	} else {
		w.Raw("<span></span>")
	}
	w.Raw(`<span class="mid"><a href="`)
	w.URL(pv.Index)
	w.Raw(`">`)
	w.Text(pv.Title)
	w.Raw("</a></span><span></span></nav>\n<h1>")
	w.Text(pv.Heading)
	w.Raw("</h1>\n<p class=\"lead\">")
	w.Text(pv.Conn)
	w.Raw("</p>\n")
	if pv.Note != "" {
		w.Raw(`<p class="note">`)
		w.Text(pv.Note)
		w.Raw("</p>\n")
	}
	for _, fv := range pv.Sides {
		writeSide(w, fv)
	}
	w.Raw(`<footer><a href="`)
	w.URL(pv.Index)
	w.Raw(`">`)
	w.Text(pv.Title)
	w.Raw("</a></footer>\n</main>\n<script>\n")
	w.Raw(site.Script)
	w.Raw("</script>\n</body>\n</html>\n")
	return w.Flush()
}

// writeSide writes one message's section (or why it is missing) and its nested frames'.
func writeSide(w *htmlw.Writer, fv *frameView) {
	if fv.Missing != "" {
		w.Raw(`<section class="missing" id="`)
		w.Text(fv.ID)
		w.Raw(`"><h2>`)
		w.Text(fv.Heading)
		w.Raw("</h2><p>")
		w.Text(fv.Missing)
		w.Raw("</p></section>\n")
		return
	}
	w.Raw(`<section class="msg" id="`)
	w.Text(fv.ID)
	w.Raw("\">\n<h2>")
	w.Text(fv.Heading)
	w.Raw(`<span class="meta">`)
	w.Text(fv.Meta)
	w.Raw("</span></h2>\n")
	if fv.Error != "" {
		w.Raw(`<div class="err">`)
		w.Text(fv.Error)
		w.Raw("</div>\n")
	}
	writeNotes(w, fv.Notes)
	writeWholeNote(w, fv.Cut)
	site.WriteMessage(w, &fv.Message)
	w.Raw("</section>\n")
	for _, nv := range fv.Nested {
		w.Raw("\n<section class=\"msg nested\" id=\"")
		w.Text(nv.ID)
		w.Raw("\">\n<h3>")
		w.Text(nv.Caption)
		w.Raw("</h3>\n")
		writeNotes(w, nv.Notes)
		writeWholeNote(w, nv.Cut)
		if nv.Grid != "" {
			site.WriteMessage(w, &nv.Message)
		}
		w.Raw("</section>")
	}
}

// writeWholeNote writes, of a frame the page draws part of (or none of), what it shows and
// where the whole is.
func writeWholeNote(w *htmlw.Writer, c *cutView) {
	if c == nil {
		return
	}
	w.Raw(`<p class="note cut">`)
	if c.Shown != 0 {
		w.Raw("Drawn here live: its first ")
		w.Int(c.Shown)
		w.Raw(" of ")
		w.Int(c.Size)
		w.Raw(` bytes, all this page's ceilings hold; the last field, "rest of the frame", stands for the other `)
		w.Int(c.Size - c.Shown)
		w.Raw(".")
	} else {
		w.Text(c.Why)
	}
	if c.Drawn {
		w.Raw(" Drawn whole in ")
	} else {
		w.Raw(" Every field in ")
	}
	for i, l := range c.Whole {
		if i > 0 {
			w.Raw(", ")
		}
		w.Raw(`<a href="`)
		w.URL(l.Href)
		w.Raw(`">`)
		w.Text(l.Label)
		w.Raw("</a>")
	}
	w.Raw(".</p>\n")
}
