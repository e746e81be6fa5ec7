package site

import (
	"fmt"
	"strings"
)

// MessageTemplates are the templates of one message on a page, for html/template: "msgbody",
// its drawings (the 32-bit grid, the 16-bit one for a phone, the tree, each a live figure the
// page script links), the detail panel, the hex dump 16 and 8 bytes a line and the detail
// data; "parts", a drawing cut in parts for print. "msgbody" takes a value with the fields
// Links (Href, Label), Fit (Fit's style), Grid, GridW, GridParts, Narrow, NarrowW, Hex, Hex8,
// Tree, TreeW, TreeParts (W, Caption, SVG), Detail (DetailJSON) and ID (the section's, naming its
// detail panel for a screen reader), inside the page's
// <section class="msg">; the page carries CSS and Script. "nested" takes the views of a
// frame's nested frames (Figures.Nested), each with an ID, a Caption, Notes and what
// "msgbody" reads, and writes each as a <section class="msg nested"> of its own, after the
// frame's section, so the script links each one's grid, tree, hex dump and panel apart; a
// page that draws part of a frame defines "wholenote", which each nested section calls after
// its notes (empty here), to say where the whole is.
//
// A page that draws some views when they are opened (the reference's lazy.go) sets Later
// (the message's drawings wait behind a placeholder), TreeLater (its tree alone waits) or
// Park (the 16-bit grid and the 8-byte hex dump wait in <template>s until the screen shows
// them) and defines the templates "later" and "treelater" (empty here); print parts always
// wait in a <template class="kg-print">, cloned for print by that page's script.
const MessageTemplates = `{{define "msgbody"}}{{if .Links}}<ul class="files">{{range .Links}}<li><a href="{{.Href}}">{{.Label}}</a></li>{{end}}</ul>{{end}}
{{if .Later}}{{template "later" .}}{{else}}{{template "msgdraw" .}}{{end}}{{end}}

{{define "msgdraw"}}{{.Fit}}<div class="pair">
{{if .Grid}}<div class="fig gridfig"><h3>Byte grid</h3>
<p class="hint muted noprint">Point at a field, tap it, or tab here and use the arrow keys: its tree row and its bytes in the hex dump light up, and its path, type, offset, length, value and schema text show in the detail panel.</p>
<figure style="--w:{{.GridW}}" tabindex="0" aria-label="Byte grid, 32 bits a row: click a field, or use the arrow keys, to see it in the tree and the detail panel" class="live g32{{if .GridParts}} whole{{end}}">{{.Grid}}</figure>{{if .Narrow}}
<figure style="--w:{{.NarrowW}}" tabindex="0" aria-label="Byte grid, 16 bits a row: click a field, or use the arrow keys, to see it in the tree and the detail panel" class="live g16 noprint">{{if .Park}}<template class="kg-alt">{{.Narrow}}</template>{{else}}{{.Narrow}}{{end}}</figure>{{end}}{{template "parts" .GridParts}}</div>{{end}}
<div class="side">
<aside class="detail empty noprint" aria-live="polite" aria-label="The selected field of {{.ID}}"></aside>
<div class="hexdump"><h3>Hex dump</h3>
<pre class="hex h16" tabindex="0" role="region" aria-label="Hex dump of {{.ID}}, 16 bytes a line">{{.Hex}}</pre><pre class="hex h8 noprint" tabindex="0" role="region" aria-label="Hex dump of {{.ID}}, 8 bytes a line">{{if .Park}}<template class="kg-alt">{{.Hex8}}</template>{{else}}{{.Hex8}}{{end}}</pre></div>
{{if .Tree}}<div class="fig treefig"><h3>Expanded tree</h3>
{{if .TreeLater}}{{template "treelater" .}}{{else}}{{template "treedraw" .}}{{end}}</div>{{end}}
</div>
</div>
<script type="application/json" class="kg-detail">{{.Detail}}</script>
{{end}}

{{define "treedraw"}}<figure style="--w:{{.TreeW}}" tabindex="0" aria-label="Expanded tree: click a row, or use the arrow keys, to see it in the grid and the detail panel" class="live{{if .TreeParts}} whole{{end}}">{{.Tree}}</figure>{{template "parts" .TreeParts}}{{end}}

{{define "parts"}}{{if .}}
<div class="parts"><template class="kg-print">{{range .}}<figure class="part" style="--w:{{.W}}">{{if .Caption}}<figcaption>{{.Caption}}</figcaption>{{end}}{{.SVG}}</figure>{{end}}</template></div>{{end}}{{end}}

{{define "later"}}{{end}}{{define "treelater"}}{{end}}{{define "wholenote"}}{{end}}

{{define "nested"}}{{range .}}
<section class="msg nested" id="{{.ID}}">
<h3>{{.Caption}}</h3>
{{range .Notes}}<p class="note">{{.}}</p>
{{end}}{{template "wholenote" .}}{{if .Grid}}{{template "msgbody" .}}{{end}}</section>{{end}}{{end}}`

// The page's measures in CSS px that decide where a message's grid and tree fit (CSS):
// the main column's side padding, the page's own scrollbar, a figure's padding and border,
// the gap between grid and tree, room for the tree pane's vertical scrollbar, the grid's
// scale on screen, the narrowest screen that puts grid and tree side by side, the widest main
// column, the detail panel's height beside the tree, the hex dump's most height there, and
// beside a stacked grid and tree: the narrowest column for the detail panel and the hex dump,
// and the one where the dump of 16 bytes a line fits (else 8).
const (
	fitPagePad   = 24 // main.api from 1200 px: .75rem each side
	fitPageBar   = 16 // the page's vertical scrollbar, inside the media query's width
	fitFigPad    = 26 // figure: .75rem padding and 1px border each side
	fitTreePad   = 15 // the tree's figure beside the grid: .4rem padding and 1px border each side
	fitGap       = 14 // .pair's gap
	fitScroll    = 16 // the tree pane's own scrollbar
	fitScale     = 1.15
	fitPairMin   = 1200
	fitMainMax   = 1880
	fitPanelEm   = 12  // the detail panel's height beside the tree
	fitHexMaxVh  = 26  // the hex dump's most height beside the tree
	fitPanelPx   = 168 // the detail panel's height beside a stacked grid and tree (12em of 14px)
	fitSideMin   = 280 // the narrowest column for the panel and the dump beside a stacked pair
	fitSideHex16 = 600 // the column where the dump of 16 bytes a line fits whole
)

// Fit returns the style that lays out one message (the section with id id) for the
// screen it is read on, from its drawings' widths, so that nothing of either is cut off:
//
//   - side by side in a viewer at most a screen tall, grid left and a pane right holding the
//     detail panel, the hex dump and the tree, each scrolling in its own box, from the
//     narrowest screen where the 32-bit grid at its own size (1.0×) and every column of the
//     tree fit whole, the grid at the page's 1.15× from where that fits too;
//   - below that on a desktop screen (from 1200 px), the 32-bit grid above the tree, both
//     whole on the page (it scrolls, not a box), with the detail panel and the hex dump in a
//     column beside them that stays on the screen (sticky) while either is read: the grid
//     never drops to two bytes a row in a box a screen tall;
//   - else one under the other, with the 32-bit grid where it fits the screen's width and
//     the 16-bit one below that (a phone), the detail panel a sheet at the screen's bottom.
//
// The page does not snap its scrolling to a message: a wheel or key step moves it by the step.
//
// Screens only: print lays out every message the same (CSS's @media print). An id that is
// not a plain CSS identifier (or none) gets "": the page's default layout, stacked.
func Fit(id string, gridW, narrowW, treeW int) string {
	if !cssIdent(id) || narrowW == 0 || gridW == 0 {
		return ""
	}
	return fit(id, gridW, narrowW, treeW)
}

// FitWide is Fit for a message with no narrow grid: its 32-bit grid at every width, scrolling
// in its own box on a phone, and beside the tree where both fit.
func FitWide(id string, gridW, treeW int) string {
	if !cssIdent(id) || gridW == 0 {
		return ""
	}
	return fit(id, gridW, 0, treeW)
}

// cssIdent says whether id is a plain CSS identifier, which a selector "#id" may name.
func cssIdent(id string) bool {
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') || id == "" || id[0] >= '0' && id[0] <= '9' {
			return false
		}
	}
	return id != ""
}

func fit(id string, gridW, narrowW, treeW int) string {
	px := func(w int, scale float64) int { return int(float64(w)*scale + 0.999) }
	side := treeW + fitTreePad + fitFigPad + fitGap + fitPagePad + fitScroll
	pair32 := max(fitPairMin, px(gridW, fitScale)+side)
	pair32At1 := max(fitPairMin, gridW+side)
	sel := "#" + id
	var b strings.Builder
	b.WriteString("<style>")
	if narrowW != 0 {
		stack32 := px(gridW, fitScale) + fitFigPad + 48 // main's 1.5rem padding below 1200 px
		fmt.Fprintf(&b, "@media screen and (max-width:%d.98px){%[2]s .g32{display:none}%[2]s .g16{display:block}}", stack32-1, sel)
	}
	pairOn := pair32At1 <= fitMainMax
	if !pairOn {
		pair32At1 = 1 << 30 // never beside the tree: stacked on every desktop screen
	}
	writeStacked(&b, sel, gridW, treeW, pair32At1)
	if pairOn {
		if pair32At1 < pair32 {
			fmt.Fprintf(&b, "\n@media screen and (min-width:%dpx) and (max-width:%d.98px){%s .pair .gridfig figure svg{width:calc(var(--w)*1px)}}", pair32At1, pair32-1, sel)
		}
		fmt.Fprintf(&b, "\n@media screen and (min-width:%dpx){", pair32At1)
		fmt.Fprintf(&b, "%[1]s .pair{display:grid;grid-template-columns:max-content minmax(0,1fr);grid-template-rows:fit-content(100vh);gap:%[2]dpx;align-items:stretch;margin-bottom:1rem}"+
			"%[1]s .pair .fig h3{margin-top:.5rem}%[1]s .pair p.hint{width:0;min-width:100%%}"+
			"%[1]s .gridfig{display:flex;flex-direction:column;min-height:0}%[1]s .gridfig figure.live{flex:0 1 auto;min-height:0;overflow:auto;margin:0}"+
			"%[1]s .side{display:flex;flex-direction:column;min-height:0}"+
			"%[1]s .side .detail{position:static;flex:none;height:%[3]dem;box-shadow:none;border-radius:6px;margin:.5rem 0 0;z-index:auto}"+
			"%[1]s .side .detail.empty{display:block}%[1]s .side .detail.closed{display:none}"+
			"%[1]s .side h3{margin:.4rem 0 .2rem}"+
			"%[1]s .side .hexdump{flex:none;max-height:%[4]dvh;display:flex;flex-direction:column}"+
			"%[1]s .side .hexdump pre{flex:1 1 auto;min-height:0;overflow:auto;margin:0}"+
			"%[1]s .side .treefig{flex:0 1 auto;min-height:0;display:flex;flex-direction:column}"+
			"%[1]s .side .treefig figure.live{flex:0 1 auto;min-height:0;overflow:auto;margin:0;padding:.4rem}}",
			sel, fitGap, fitPanelEm, fitHexMaxVh)
	}
	b.WriteString("</style>\n")
	return b.String()
}

// writeStacked writes the desktop layout below the screen where grid and tree fit side by
// side (before upTo): the 32-bit grid above the tree in the first column, as wide as the
// wider of them, both whole on the page; the detail panel and the hex dump in the second,
// each sticky so that both stay on the screen while the reader is anywhere in the grid or
// the tree. The grid is at the page's 1.15× where that leaves the second column its least
// width, else at its own size; the dump is 16 bytes a line where that fits whole, else 8.
// The page script tells this layout by the side pane's display: contents.
func writeStacked(b *strings.Builder, sel string, gridW, treeW, upTo int) {
	col := func(scale float64) int {
		return max(int(float64(gridW)*scale+0.999)+fitFigPad, treeW+fitFigPad)
	}
	at := func(scale float64, side int) int { return fitPagePad + fitPageBar + col(scale) + fitGap + side }
	lo, scaled := max(fitPairMin, at(1, fitSideMin)), at(fitScale, fitSideMin)
	if lo >= upTo {
		return
	}
	rng := func(from, to int) string {
		if to >= 1<<30 {
			return fmt.Sprintf("(min-width:%dpx)", from)
		}
		return fmt.Sprintf("(min-width:%dpx) and (max-width:%d.98px)", from, to-1)
	}
	fmt.Fprintf(b, "\n@media screen and %s{", rng(lo, upTo))
	top := fitPanelPx + 16
	fmt.Fprintf(b, "%[1]s .pair{display:grid;grid-template-columns:max-content minmax(0,1fr);column-gap:%[2]dpx;align-items:start;margin-bottom:1rem}"+
		"%[1]s .pair .fig h3{margin-top:.5rem}%[1]s .pair p.hint{width:0;min-width:100%%}"+
		"%[1]s .gridfig{grid-column:1;grid-row:1}%[1]s .side{display:contents}%[1]s .side .treefig{grid-column:1;grid-row:2}"+
		"%[1]s .side .detail{grid-column:2;grid-row:1/3;align-self:start;position:sticky;top:8px;left:auto;right:auto;bottom:auto;height:%[3]dpx;max-height:none;box-shadow:none;border-radius:6px;margin:8px 0 0;z-index:auto}"+
		"%[1]s .side .detail.empty{display:block}%[1]s .side .detail.closed{display:none}"+
		"%[1]s .side .hexdump{grid-column:2;grid-row:1/3;align-self:start;position:sticky;top:%[4]dpx;margin-top:%[4]dpx;max-height:calc(100vh - %[5]dpx);display:flex;flex-direction:column;min-width:0}"+
		"%[1]s .side .hexdump h3{margin:0 0 .2rem}%[1]s .side .hexdump pre{flex:1 1 auto;min-height:0;overflow:auto;margin:0}}",
		sel, fitGap, fitPanelPx, top, top+8)
	if scaled > lo {
		fmt.Fprintf(b, "\n@media screen and %s{%s .pair .gridfig figure svg{width:calc(var(--w)*1px)}}", rng(lo, min(scaled, upTo)), sel)
	}
	if w16 := at(fitScale, fitSideHex16); w16 > lo {
		fmt.Fprintf(b, "\n@media screen and %s{%[2]s pre.h16{display:none}%[2]s pre.h8{display:block}}", rng(lo, min(w16, upTo)), sel)
	}
}
