package reference

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/kafkagrid/kafkagrid/site"
)

// Light pages. An API page holds, at load, the frame's facts, the first message (the request)
// drawn whole (its byte grid, hex dump and tree, linked to each other and to the detail panel,
// working without script), the field tables, the version history and the schemas. The other
// drawings wait until they are wanted:
//
//   - the request's 16-bit grid and 8-byte hex dump (the phone's views) and every print part
//     are <template> elements beside the view they replace: not in the DOM until the page's
//     script clones them, when the screen shows that view (and parks the view it replaces in
//     a template: the DOM holds the grid the screen shows, not both) or the page is printed;
//   - the response and the edge cases are placeholders; their drawings are in the page's
//     sidecar, <page>.lazy.js in the same folder, which the script loads the first time one
//     is wanted (the response when it comes near the screen, an edge case when its <details>
//     is opened, either when the address names something inside it) and inserts inline.
//
// Why a script file and not the other ways to fetch a drawing: a page opened from a folder
// (file://) may not fetch() or XMLHttpRequest its neighbours in Chromium, while a <script src>
// loads from file:// and from any static host alike (the search index does the same, see
// search.go); an <img> of an SVG loses the links between grid, tree, hex dump and detail panel,
// and an <object> holds a separate document the page's script may not reach from file://.
// Inserted inline, a drawing is wired like the first one (pageScript's kgWire). Templates
// alone would keep the DOM small but not the transfer: Fetch's drawings are 1.7 MB.
//
// Without script the first message works as before (its 32-bit grid and 16-byte hex dump on
// every screen, lazyHead's noscript style), and the placeholders link to the drawings' files.

// lazyName is the sidecar of the page name ("api/Fetch.html" → "api/Fetch.lazy.js").
func lazyName(page string) string { return strings.TrimSuffix(page, ".html") + ".lazy.js" }

// pageBudget is the most DOM elements writePage leaves on a page at load: under the 3,000
// that audits warn at, with room for the page's script to swap a grid or hex dump for the
// phone's (a 16-bit grid has some 7% more elements than the 32-bit one).
const pageBudget = 2800

// overBudget reports whether a page has pageBudget elements or more at load (site.Elements).
// Every element is a start tag, so the '<' not followed by '/' bound them from above: a
// page under the budget by that count (most pages) is not parsed.
func overBudget(page []byte) bool {
	if bytes.Count(page, []byte("<"))-bytes.Count(page, []byte("</")) < pageBudget {
		return false
	}
	return site.Elements(page) >= pageBudget
}

// writePage writes an API page (name, relative to the output folder) and, when it has
// messages drawn later, its sidecar: every message but the first is drawn in the sidecar and
// left as a placeholder on the page. When the page is still over pageBudget elements, the
// schemas' source waits in templates, and then, if the page is over still, the first message's
// tree waits in the sidecar too, behind a button (Kafka 4.1's StreamsGroupHeartbeat request:
// 5,525 elements with both); the grid stays, the first drawing.
func (b *builder) writePage(name string, v *pageView) error {
	var later []lazyPart
	for i := range v.Messages {
		if i > 0 {
			later = append(later, lazyPart{v.Messages[i].ID, false, &v.Messages[i]})
		}
	}
	for i := range v.Edges {
		for j := range v.Edges[i].Messages {
			later = append(later, lazyPart{v.Edges[i].Messages[j].ID, false, &v.Edges[i].Messages[j]})
		}
	}
	if len(later) == 0 {
		return b.out.Create(name, func(w io.Writer) error { return b.renderPage(w, v) })
	}
	v.Lazy = path.Base(lazyName(name))
	for _, p := range later {
		p.m.Later = true
	}
	page := getPageBuffer()
	defer putPageBuffer(page)
	page.Grow(pageSize(v)) // a pooled buffer may be any size: grown once, not doubled again and again
	if err := b.renderPage(page, v); err != nil {
		return err
	}
	if overBudget(page.Bytes()) {
		// Still over: the schemas' source (far down the page; Kafka 4.1's StreamsGroupHeartbeat
		// request's schemas and field tables are 1,750 elements) waits in templates, cloned as
		// it nears the screen or the address names a line.
		v.Schemas = slices.Clone(v.Schemas) // shared by every version's page
		for i := range v.Schemas {
			v.Schemas[i].Later = true
		}
		page.Reset()
		if err := b.renderPage(page, v); err != nil {
			return err
		}
	}
	if first := &v.Messages[0]; first.Tree != "" && overBudget(page.Bytes()) {
		// Over still: the first message's tree, beside its grid, waits behind a button.
		first.TreeLater = true
		later = append([]lazyPart{{first.ID + "-tree", true, first}}, later...)
		page.Reset()
		if err := b.renderPage(page, v); err != nil {
			return err
		}
	}
	js := getPageBuffer()
	defer putPageBuffer(js)
	n := 0
	for _, p := range later {
		n += p.m.size()
	}
	js.Grow(n)
	if err := writeLazy(js, later); err != nil {
		return fmt.Errorf("reference: %s: %w", lazyName(name), err)
	}
	if err := b.out.Write(lazyName(name), js.Bytes()); err != nil {
		return err
	}
	return b.out.Write(name, page.Bytes())
}

// size is about the bytes m's drawings, hex dumps and detail take on a page, a little more:
// what a buffer that holds them is grown to at once.
func (m *messageView) size() int {
	n := 2<<10 + len(m.Grid) + len(m.Tree) + len(m.Narrow) + len(m.Hex) + len(m.Hex8) + len(m.Detail) + len(m.Fit)
	for _, p := range m.GridParts {
		n += len(p.SVG) + 256
	}
	for _, p := range m.TreeParts {
		n += len(p.SVG) + 256
	}
	for i := range m.Nested {
		n += m.Nested[i].size()
	}
	return n
}

// pageSize is about the bytes of v's page with its first message drawn and the others
// waiting: its style sheet and scripts, field tables, schemas and the first message.
func pageSize(v *pageView) int {
	n := 64<<10 + v.Messages[0].size()
	for _, s := range v.Schemas {
		n += len(s.Source)
	}
	for _, f := range v.Fields {
		n += 400 * len(f.Rows)
	}
	return n
}

// lazyPart is one entry of a sidecar: the placeholder's key, and what draws m: its drawings
// (writeDrawings; the "msgdraw" template), or its tree alone ("treedraw").
type lazyPart struct {
	key  string
	tree bool
	m    *messageView
}

// writeLazy writes the sidecar of the parts ps: one call of the page's kgLazy with each
// part's drawings as HTML, under its placeholder's key, in page order. A drawing is a raw
// template literal (String.raw, which reads every byte as written but a backquote, "${" and
// a carriage return), else a JSON string: escaping every attribute's quotes for JSON was 8%
// of an HTML build and 0.3 MB of Fetch's sidecar.
func writeLazy(out *bytes.Buffer, ps []lazyPart) error {
	buf := getPageBuffer()
	defer putPageBuffer(buf)
	most := 0
	for _, p := range ps {
		most = max(most, p.m.size())
	}
	buf.Grow(most)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false) // a script file, not inline: no "</script>" can end it
	out.WriteString("// The drawings of a kafkagrid page, inserted when the reader opens them (lazy.go).\nkgLazy({")
	for i, p := range ps {
		buf.Reset()
		if err := writeDrawings(buf, p.m, p.tree); err != nil {
			return err
		}
		if i > 0 {
			out.WriteByte(',')
		}
		out.WriteByte('\n')
		if err := enc.Encode(p.key); err != nil {
			return err
		}
		out.Truncate(out.Len() - 1) // Encode ends each value with a newline
		out.WriteByte(':')
		if h := buf.Bytes(); rawLiteral(h) {
			out.WriteString("String.raw`")
			out.Write(h)
			out.WriteByte('`')
			continue
		}
		if err := enc.Encode(buf.String()); err != nil {
			return err
		}
		out.Truncate(out.Len() - 1)
	}
	out.WriteString("\n});\n")
	return nil
}

// rawLiteral reports whether String.raw`h` is h: valid UTF-8 with no backquote, "${", or
// carriage return (which a template literal reads as a line feed), not ending in a backslash.
func rawLiteral(h []byte) bool {
	return bytes.IndexByte(h, '`') < 0 && bytes.IndexByte(h, '\r') < 0 && !bytes.Contains(h, []byte("${")) &&
		!bytes.HasSuffix(h, []byte(`\`)) && utf8.Valid(h)
}

// lazyHead is the style of placeholders, the edge cases' <details>, and the views a page
// without script falls back to: no template is ever cloned there, so the 32-bit grid, the
// 16-byte hex dump and the whole drawings (not their print parts) are shown on every screen.
const lazyHead = `{{define "lazyhead"}}<style>
.kg-later{border:1px dashed var(--rule);border-radius:6px;padding:.75rem;margin:.5rem 0 1rem;min-height:6rem}
.kg-later p{margin:.25rem 0}
.kg-later button{font:inherit;font-size:14px;padding:.2rem .7rem;border:1px solid var(--rule);border-radius:6px;background:var(--panel);color:var(--link);cursor:pointer}
.kg-later.failed p.kg-wait{color:var(--accent)}
details.edge>summary{cursor:pointer;list-style-position:outside;margin-left:1.1rem}
details.edge>summary h3{display:inline;margin:0}
details.edge{margin:1.5rem 0 0}
.kg-printnote{display:none}@media print{.kg-later{min-height:0}.kg-later .kg-wait{display:none}.kg-printnote{display:block}}
</style>
<noscript><style>
@media screen{figure.g16,pre.h8{display:none!important}figure.g32{display:block!important}pre.h16{display:block!important}}
@media print{figure.whole{display:block!important}}
</style></noscript>
{{end}}`

// lazyPlaceholder stands for a message drawn later: what it is, a button to draw it now, and
// (without script) a pointer to its files, listed above it by "msgbody".
const lazyPlaceholder = `{{define "later"}}<div class="kg-later" data-key="{{.ID}}">
<p class="kg-wait">Byte grid, hex dump and expanded tree of this {{bytes .Size}} frame: drawn when you come to it. <button type="button" class="kg-draw noprint">Draw it now</button></p>
<noscript><p>The page draws it with script{{if .Links}}; without, its files are linked above{{end}}.</p></noscript>
<p class="muted kg-printnote">Not drawn yet: open it on the screen to print it, or print the PDF book.</p>
</div>
{{end}}`

// lazyTree stands for the first message's tree when the page is too big with it (writePage):
// drawn when the reader asks, as it would be on the screen at once.
const lazyTree = `{{define "treelater"}}<div class="kg-later kg-ask" data-key="{{.ID}}-tree">
<p class="kg-wait">The expanded tree of this {{bytes .Size}} frame is drawn when you ask, to keep the page light: <button type="button" class="kg-draw noprint">Draw the tree</button></p>
<noscript><p>The page draws it with script{{if .Links}}; without, its tree.svg is linked above{{end}}.</p></noscript>
<p class="muted kg-printnote">Not drawn yet: draw it on the screen to print it, or print the PDF book.</p>
</div>
{{end}}`

// lazyScript draws what waits (see the top of this file). src is the page's sidecar, "" for
// none. Of a message's two grids and two hex dumps, the one the screen shows is in the DOM, the
// other in a template (at load, on resize and when drawn); print parts are cloned before
// printing. A message drawn later is wired (kgWire) once inserted. Nothing is loaded before the
// page's load event, so what the page holds at load is what the build wrote; once the page is
// idle after it, the sidecar is loaded (nothing drawn), so that a print draws every message
// and opens every edge case first: a printed page keeps them.
const lazyScript = `{{define "lazyscript"}}<script>
(function(){
 'use strict';
 var src={{.}},data=null,loading=false,want=[];
 function each(l,f){Array.prototype.forEach.call(l,f)}
 function put(t){t.parentNode.replaceChild(t.content.cloneNode(true),t)}
 // fill keeps, of each message's two grids and two hex dumps, the one the screen shows in
 // the DOM and the other in a template (the build writes the 32-bit grid and the 16-byte
 // dump inline, the phone's views in templates).
 var ALT='figure.g32,figure.g16,pre.h16,pre.h8';
 function park(h){var t=document.createElement('template');t.className='kg-alt';while(h.firstChild)t.content.appendChild(h.firstChild);h.appendChild(t)}
 function fill(root){each(root.querySelectorAll(ALT),function(h){
  var t=h.querySelector(':scope>template.kg-alt'),on=h.getClientRects().length>0;
  if(on&&t)put(t);else if(!on&&!t&&h.firstChild)park(h);
 })}
 // Print shows the 32-bit grids, the 16-byte dumps and the parts of tall drawings, and every
 // message and edge case: with the sidecar loaded (after the page's load, when idle), what
 // waits is drawn and the edge cases are opened before the page is printed.
 function printing(){
  if(data){each(document.querySelectorAll('details.edge'),function(d){d.open=true});each(document.querySelectorAll('.kg-later'),draw)}
  each(document.querySelectorAll('template.kg-print,template.kg-near'),put);each(document.querySelectorAll('figure.g32>template.kg-alt,pre.h16>template.kg-alt'),put)
 }
 function draw(holder){
  if(!holder.parentNode)return;
  if(!data){if(want.indexOf(holder)<0)want.push(holder);load();return}
  var html=data[holder.getAttribute('data-key')],sec=holder.closest('section.msg'),whole=holder.parentNode===sec;
  if(html==null)return;
  var t=document.createElement('template');t.innerHTML=html;
  holder.parentNode.replaceChild(t.content,holder);
  fill(sec);
  // A message drawn whole is wired now; a tree drawn into a wired one is reached by its
  // section's listeners.
  if(whole&&window.kgWire)window.kgWire(sec);
  hold();
 }
 function load(){
  if(loading||!src)return;loading=true;
  var s=document.createElement('script');s.src=src;
  s.onerror=function(){loading=false;each(want,function(h){h.classList.add('failed');var p=h.querySelector('p.kg-wait');if(p)p.firstChild.textContent='Could not load '+src+': ';});want=[]};
  document.head.appendChild(s);
 }
 // pin is what the address named (at load, or by an in-page link): drawings above it grow as
 // they are drawn, so it is brought back into view whenever the page's height changes, until
 // the reader scrolls, types or clicks.
 var pin=null;
 function hold(){if(pin&&pin.isConnected)pin.scrollIntoView()}
 each(['wheel','touchstart','keydown','mousedown'],function(n){addEventListener(n,function(){pin=null},{capture:true,passive:true})});
 if('ResizeObserver' in window)new ResizeObserver(hold).observe(document.body);
 window.kgLazy=function(d){
  data=d;var w=want;want=[];each(w,draw);hold();
 };
 // near clones a schema's source (a template on a heavy page) where it is on the screen.
 function near(t){if(t.parentNode)put(t)}
 // open draws what the address names, opening its edge case, and scrolls back to it.
 function open(){
  var id=decodeURIComponent(location.hash.slice(1)),e=id&&document.getElementById(id);
  if(id&&!e)each(document.querySelectorAll('template.kg-near'),function(t){if(!e&&t.content.getElementById(id)){near(t);e=document.getElementById(id)}});
  if(!e)return;
  pin=e;hold();
  // Its edge case opens (and draws itself, on toggle); what it holds outside a closed edge
  // case is drawn (the section "Edge cases" leaves them closed).
  var d=e.closest('details'),opening=d&&!d.open,sec=e.closest('section.msg');
  if(opening)d.open=true;
  var holders=sec?[sec.querySelector(':scope>.kg-later')]:Array.prototype.filter.call(e.querySelectorAll(':scope section.msg>.kg-later'),function(h){return !h.closest('details:not([open])')});
  holders=holders.filter(Boolean);
  if(!holders.length&&!opening)return;
  each(holders,draw);hold();
 }
 each(document.querySelectorAll('details.edge'),function(d){d.addEventListener('toggle',function(){if(d.open)each(d.querySelectorAll('.kg-later'),draw)})});
 document.addEventListener('click',function(ev){var b=ev.target.closest&&ev.target.closest('button.kg-draw');if(b)draw(b.closest('.kg-later'))});
 fill(document);
 // Before the page's own resize listener (capture runs first at the window), which marks the
 // selection again in the views now shown.
 addEventListener('resize',function(){fill(document)},true);
 addEventListener('beforeprint',printing);
 addEventListener('afterprint',function(){fill(document)});
 addEventListener('hashchange',open);
 function start(){
  open();
  if(!('IntersectionObserver' in window)){each(document.querySelectorAll('template.kg-near'),near);return}
  var io=new IntersectionObserver(function(es){each(es,function(x){if(x.isIntersecting){io.unobserve(x.target);draw(x.target)}})},{rootMargin:'50% 0px'});
  each(document.querySelectorAll('.kg-later:not(.kg-ask)'),function(h){if(!h.closest('details'))io.observe(h)});
  var so=new IntersectionObserver(function(es){each(es,function(x){if(x.isIntersecting){so.unobserve(x.target);var t=x.target.querySelector(':scope>template.kg-near');if(t)near(t)}})},{rootMargin:'50% 0px'});
  each(document.querySelectorAll('pre.src>template.kg-near'),function(t){so.observe(t.parentNode)});
 }
 // The sidecar is loaded once the page is idle after its load, drawing nothing: a print then
 // has every drawing at hand (beforeprint cannot wait for a script).
 function later(){if(src&&!data)(window.requestIdleCallback||function(f){setTimeout(f,2000)})(load)}
 if(document.readyState==='complete'){start();later()}else addEventListener('load',function(){start();later()});
})();
</script>{{end}}`
