package site

import "github.com/kafkagrid/kafkagrid/site/htmlw"

// Message is one message's drawings, hex dumps and detail data as a page shows them
// (WriteMessage): what MessageTemplates' "msgbody" reads, with the same names.
type Message struct {
	ID    string // the section's id, naming its detail panel and hex dumps for a screen reader
	Links []Link // the message's files, listed above its drawings
	Fit   string // Fit's (or FitWide's) style
	// Grid, Narrow and Tree are the inline SVGs (InlineSVG) of the 32-bit grid, the 16-bit
	// one and the tree, "" for none; GridW, NarrowW and TreeW their widths.
	Grid, Narrow, Tree    string
	GridW, NarrowW, TreeW int
	// GridParts and TreeParts are the drawings cut in parts for print, nil for none.
	GridParts, TreeParts []Part
	Hex, Hex8            string // HexHTML, 16 and 8 bytes a line
	Detail               string // DetailJSON
	// Park keeps the 16-bit grid and the 8-byte hex dump in <template>s until the screen
	// shows them. Later, when set, writes what stands for the drawings until they are opened
	// (in place of them all); TreeLater what stands for the tree alone.
	Park             bool
	Later, TreeLater func(*htmlw.Writer)
}

// Link is a link to one of a message's files.
type Link struct{ Label, Href string }

// Part is one part of a drawing cut for print: its width, caption and inline SVG.
type Part struct {
	W       int
	Caption string
	SVG     string
}

// hint is what a grid's hint says, and the aria-labels of the live figures.
const (
	gridHint   = `<p class="hint muted noprint">Point at a field, tap it, or tab here and use the arrow keys: its tree row and its bytes in the hex dump light up, and its path, type, offset, length, value and schema text show in the detail panel.</p>`
	grid32Aria = `" tabindex="0" aria-label="Byte grid, 32 bits a row: click a field, or use the arrow keys, to see it in the tree and the detail panel" class="live g32`
	grid16Aria = `" tabindex="0" aria-label="Byte grid, 16 bits a row: click a field, or use the arrow keys, to see it in the tree and the detail panel" class="live g16 noprint">`
	treeAria   = `" tabindex="0" aria-label="Expanded tree: click a row, or use the arrow keys, to see it in the grid and the detail panel" class="live`
)

// WriteMessage writes m as MessageTemplates' "msgbody" does, byte for byte: its files, then
// its drawings (or m.Later), detail panel, hex dumps, tree and detail data, inside the page's
// <section class="msg">.
func WriteMessage(w *htmlw.Writer, m *Message) {
	if len(m.Links) > 0 {
		w.Raw(`<ul class="files">`)
		for _, l := range m.Links {
			w.Raw(`<li><a href="`)
			w.URL(l.Href)
			w.Raw(`">`)
			w.Text(l.Label)
			w.Raw(`</a></li>`)
		}
		w.Raw(`</ul>`)
	}
	w.Raw("\n")
	if m.Later != nil {
		m.Later(w)
		return
	}
	w.Raw(m.Fit)
	w.Raw("<div class=\"pair\">\n")
	if m.Grid != "" {
		writeGrid(w, m)
	}
	w.Raw("\n<div class=\"side\">\n<aside class=\"detail empty noprint\" aria-live=\"polite\" aria-label=\"The selected field of ")
	w.Text(m.ID)
	w.Raw("\"></aside>\n<div class=\"hexdump\"><h3>Hex dump</h3>\n<pre class=\"hex h16\" tabindex=\"0\" role=\"region\" aria-label=\"Hex dump of ")
	w.Text(m.ID)
	w.Raw(`, 16 bytes a line">`)
	w.Raw(m.Hex)
	w.Raw(`</pre><pre class="hex h8 noprint" tabindex="0" role="region" aria-label="Hex dump of `)
	w.Text(m.ID)
	w.Raw(`, 8 bytes a line">`)
	parked(w, m.Park, m.Hex8)
	w.Raw("</pre></div>\n")
	if m.Tree != "" {
		w.Raw("<div class=\"fig treefig\"><h3>Expanded tree</h3>\n")
		if m.TreeLater != nil {
			m.TreeLater(w)
		} else {
			WriteTree(w, m)
		}
		w.Raw("</div>")
	}
	w.Raw("\n</div>\n</div>\n<script type=\"application/json\" class=\"kg-detail\">")
	w.Raw(m.Detail)
	w.Raw("</script>\n")
}

// writeGrid writes the grid's figure: the 32-bit grid, the 16-bit one and the print parts.
func writeGrid(w *htmlw.Writer, m *Message) {
	w.Raw("<div class=\"fig gridfig\"><h3>Byte grid</h3>\n" + gridHint + "\n<figure style=\"--w:")
	w.Int(m.GridW)
	w.Raw(grid32Aria)
	if len(m.GridParts) > 0 {
		w.Raw(" whole")
	}
	w.Raw(`">`)
	w.Raw(m.Grid)
	w.Raw("</figure>")
	if m.Narrow != "" {
		w.Raw("\n<figure style=\"--w:")
		w.Int(m.NarrowW)
		w.Raw(grid16Aria)
		parked(w, m.Park, m.Narrow)
		w.Raw("</figure>")
	}
	writeParts(w, m.GridParts)
	w.Raw("</div>")
}

// WriteTree writes the tree's live figure and its print parts, as MessageTemplates'
// "treedraw" does.
func WriteTree(w *htmlw.Writer, m *Message) {
	w.Raw(`<figure style="--w:`)
	w.Int(m.TreeW)
	w.Raw(treeAria)
	if len(m.TreeParts) > 0 {
		w.Raw(" whole")
	}
	w.Raw(`">`)
	w.Raw(m.Tree)
	w.Raw("</figure>")
	writeParts(w, m.TreeParts)
}

// parked writes html, in a <template class="kg-alt"> when park is set.
func parked(w *htmlw.Writer, park bool, html string) {
	if park {
		w.Raw(`<template class="kg-alt">`)
	}
	w.Raw(html)
	if park {
		w.Raw("</template>")
	}
}

// writeParts writes a drawing's print parts, waiting in a <template class="kg-print">.
func writeParts(w *htmlw.Writer, parts []Part) {
	if len(parts) == 0 {
		return
	}
	w.Raw("\n<div class=\"parts\"><template class=\"kg-print\">")
	for _, p := range parts {
		w.Raw(`<figure class="part" style="--w:`)
		w.Int(p.W)
		w.Raw(`">`)
		if p.Caption != "" {
			w.Raw("<figcaption>")
			w.Text(p.Caption)
			w.Raw("</figcaption>")
		}
		w.Raw(p.SVG)
		w.Raw("</figure>")
	}
	w.Raw("</template></div>")
}
