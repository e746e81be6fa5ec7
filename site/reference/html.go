package reference

import (
	"fmt"
	"html/template"
	"io"
	"strings"
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
	// Narrow is the grid 16 bits a row (narrowRowBits), NarrowW its width; Fit is the
	// message's own style choosing between the grids and whether grid and tree sit side by
	// side (pairFit).
	Narrow  template.HTML
	NarrowW int
	Fit     template.HTML
	Links   []fileLink
	// Detail is the JSON the page's script shows in the detail panel (detailJSON).
	Detail template.JS
}

type fileLink struct{ Label, Href string }

type schemaView struct {
	ID      string // "request-schema"
	Title   string
	File    string
	Lines   int
	Source  template.HTML
	Structs []structLink
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
		fmt.Fprintf(&sb, `<span class="line" id="%s%d"><span class="ln" aria-hidden="true">%d</span>`, prefix, i+1, i+1)
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
	}).Parse(pageCSS + pageScript + templatesHTML + errorsHTML)
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

func renderPage(t *template.Template, w io.Writer, v *pageView) error {
	if err := t.ExecuteTemplate(w, "api", v); err != nil {
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
const pageCSS = `{{define "css"}}<style>
:root{color-scheme:light dark;--bg:#fff;--fg:#1f2328;--muted:#5a636e;--rule:#d0d7de;--panel:#f6f8fa;--link:#0b5cad;--accent:#d9481c;--hl:#ffe3a3;
--c-c:#6a737d;--c-k:#0550ae;--c-s:#0a3069;--c-n:#953800;--c-l:#8250df;--flex:#1a7f37;--unst:#9a6700}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6e8eb;--muted:#9aa4af;--rule:#30363d;--panel:#161b22;--link:#6cb6ff;--accent:#ff8a5c;--hl:#5a4312;
--c-c:#8b949e;--c-k:#79c0ff;--c-s:#a5d6ff;--c-n:#ffa657;--c-l:#d2a8ff;--flex:#3fb950;--unst:#d29922}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
main{max-width:1240px;margin:0 auto;padding:0 1.5rem 3rem}
a{color:var(--link);text-decoration:none}a:hover{text-decoration:underline}
code,pre,.mono{font-family:"Go Mono","DejaVu Sans Mono",Menlo,Consolas,monospace}
nav.top{display:flex;gap:1rem;justify-content:space-between;align-items:center;padding:.75rem 0;border-bottom:1px solid var(--rule);margin-bottom:1rem;font-size:14px}
nav.top .mid{flex:1;text-align:center}
h1{font-size:2rem;margin:.5rem 0 .25rem}h2{font-size:1.4rem;margin:2rem 0 .5rem;padding-bottom:.25rem;border-bottom:1px solid var(--rule)}
h3{font-size:1.05rem;margin:1.25rem 0 .5rem;color:var(--muted)}
.badge{display:inline-block;font-size:12px;line-height:1.6;padding:0 .5em;border-radius:1em;border:1px solid currentColor;margin-left:.35em;vertical-align:middle;font-weight:600}
.badge.flex{color:var(--flex)}.badge.unst{color:var(--unst)}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1.25rem;margin:1rem 0}
dl.meta dt{color:var(--muted)}dl.meta dd{margin:0}
figure{margin:.5rem 0 1rem;overflow-x:auto;border:1px solid var(--rule);border-radius:6px;padding:.75rem;background:var(--bg)}
figure svg{display:block;width:calc(var(--w)*1px);max-width:none;height:auto}
.gridfig figure svg{width:calc(var(--w)*1.15px)}
figure.live:focus-visible{outline:2px solid var(--link);outline-offset:2px}
figure.live .kg-sel rect{stroke:var(--accent)!important;stroke-width:2.5px!important}
.g16{display:none}
.detail{position:fixed;left:0;right:0;bottom:0;margin:0;max-height:32vh;overflow:auto;z-index:5;box-shadow:0 -2px 10px rgba(0,0,0,.25);border:1px solid var(--rule);background:var(--panel);padding:.4rem .75rem .5rem;font-size:14px}
.detail.empty{display:none}
p.hint{font-size:13px;margin:.25rem 0}
.detail p{margin:.25rem 0}.detail .dhead{display:flex;gap:.5rem;align-items:flex-start;margin-bottom:.2rem}
.detail .dpath{flex:1;font-family:"Go Mono","DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:13px;font-weight:600;overflow-wrap:anywhere}
.detail .dclose{flex:none;font:inherit;font-size:18px;line-height:1;padding:.1rem .45rem;border:1px solid var(--rule);border-radius:4px;background:var(--bg);color:var(--fg);cursor:pointer}
.detail dl{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.05rem .9rem;margin:0}
.detail dt{color:var(--muted)}.detail dd{margin:0;overflow-wrap:anywhere}
.detail .dnone{color:var(--muted);margin:.2rem 0}
.hexdump pre{margin-top:.25rem}pre.h8{display:none}
@media screen and (max-width:640px){pre.h16{display:none}pre.h8{display:block;padding:.5rem}}
@media (min-width:1200px){main.api{max-width:1880px;padding:0 .75rem 3rem}}
@media (max-width:700px){
 main{padding:0 .75rem 3rem}
 figure{padding:.4rem}
 .gridfig figure svg,.guidefig figure svg{width:calc(var(--w)*1.1px)}
 table.apis,table.apis tbody{display:block;font-size:14px}table.apis thead,table.apis colgroup,table.apis .size{display:none}
 table.apis tr{display:grid;grid-template-columns:2.6em minmax(0,1fr) auto auto;align-items:baseline;border-bottom:1px solid var(--rule)}
 table.apis tr[hidden]{display:none}table.apis tr td{border:0;width:auto!important}table.apis td:nth-child(2){overflow-wrap:anywhere}
 table.apis .badge{margin-left:0}
 table.apis th,table.apis td{padding:.3rem .35rem}
 nav.top{flex-wrap:wrap}
}
figcaption{font-size:13px;color:var(--muted);margin-bottom:.5rem}
pre{background:var(--panel);border:1px solid var(--rule);border-radius:6px;padding:.75rem;overflow-x:auto;font-size:12.5px;line-height:1.45;margin:.5rem 0 1rem}
pre.hex .off,pre.hex .asc{color:var(--muted)}
pre.hex .on{background:var(--hl);color:var(--fg);border-radius:2px}
pre.src .ln{display:inline-block;width:3.5em;padding-right:1em;text-align:right;color:var(--muted);user-select:none;-webkit-user-select:none}
pre.src .line:target{background:var(--hl)}
.c{color:var(--c-c);font-style:italic}.k{color:var(--c-k)}.s{color:var(--c-s)}.n{color:var(--c-n)}.l{color:var(--c-l)}
ul.files{list-style:none;padding:0;margin:.25rem 0 1rem;display:flex;flex-wrap:wrap;gap:.4rem 1rem;font-size:14px}
.kg-hl rect{stroke:var(--accent)!important;stroke-width:2px!important}
table.apis{border-collapse:collapse;width:100%;margin:.25rem 0 1rem;table-layout:fixed}
table.apis col.key{width:5em}table.apis col.ver{width:6em}table.apis col.size{width:7em}table.apis col.badges{width:7em}
table.apis .r{text-align:right;padding-right:1.5em}
table.apis th,table.apis td{text-align:left;padding:.3rem .6rem;border-bottom:1px solid var(--rule)}
table.apis th{font-size:13px;color:var(--muted);font-weight:600}
table.apis td.num{font-variant-numeric:tabular-nums;width:5em}
table.apis .purpose{display:block;font-size:13px;color:var(--muted);line-height:1.35}
.lead{color:var(--muted);max-width:60em}
nav.versions{display:flex;flex-wrap:wrap;gap:.3rem .5rem;align-items:center;margin:.5rem 0 1rem;font-size:14px}
nav.versions span{color:var(--muted);margin-right:.25rem}
nav.versions a{font-family:"Go Mono","DejaVu Sans Mono",Menlo,Consolas,monospace;padding:.05rem .45rem;border:1px solid var(--rule);border-radius:1em}
nav.versions a[aria-current]{background:var(--link);border-color:var(--link);color:var(--bg);font-weight:600}
section.changes ul,table.hist ul{margin:.25rem 0;padding-left:1.25rem}
section.changes li,table.hist li,blockquote{overflow-wrap:anywhere}
blockquote{margin:.5rem 0;padding:.25rem .75rem;border-left:3px solid var(--rule);color:var(--fg);max-width:60em}
blockquote .cite{font-family:"Go Mono","DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:12px;margin-left:.5em}
.muted{color:var(--muted)}
.scroll{overflow-x:auto}
table.hist{border-collapse:collapse;width:100%;font-size:14px}
table.hist th,table.hist td{text-align:left;vertical-align:top;padding:.3rem .6rem;border-bottom:1px solid var(--rule)}
table.hist th{font-size:13px;color:var(--muted);font-weight:600}
table.hist td:first-child{white-space:nowrap}table.hist td:nth-child(2){min-width:14em}
table.hist tr.cur{background:var(--panel)}table.errors td:nth-child(2){white-space:nowrap}table.errors td:nth-child(5){min-width:10em;font-size:13px}
@media (max-width:640px){table.hist,table.hist tbody,table.hist tr,table.hist td{display:block}table.hist thead{display:none}
 table.hist td{border:none;padding:.1rem .25rem}table.hist tr{border-bottom:1px solid var(--rule);padding:.3rem 0}
 table.hist td:nth-child(2){min-width:0;color:var(--muted);font-size:13px}}
footer{margin-top:3rem;padding-top:.75rem;border-top:1px solid var(--rule);color:var(--muted);font-size:13px}
.guidefig{display:flex;flex-wrap:wrap;gap:0 1.5rem;align-items:flex-start;margin:.75rem 0}.guidefig figure{flex:none;max-width:100%}
ol.callouts{flex:1 1 22em;margin:.5rem 0;padding-left:1.4em;font-size:14px}ol.callouts li{margin:.2rem 0}
details.guide{margin:0 0 1rem;color:var(--fg)}details.guide summary{cursor:pointer;color:var(--link)}details.guide p{margin:.5rem 0}
.toc{columns:2 22em;font-size:14px}.toc a{display:block}
input[type=search]{font:inherit;padding:.35rem .6rem;border:1px solid var(--rule);border-radius:6px;background:var(--panel);color:var(--fg);width:min(24rem,100%)}
.parts{display:none}
table.fields{border-collapse:collapse;width:100%;table-layout:fixed;font-size:13.5px;line-height:1.4;margin:.25rem 0 1rem}
table.fields col.fpath{width:30%}table.fields col.ftype{width:15%}table.fields col.fver{width:12%}
table.fields th,table.fields td{text-align:left;vertical-align:top;padding:.3rem .5rem;border-bottom:1px solid var(--rule);overflow-wrap:anywhere}
table.fields th{font-size:13px;color:var(--muted);font-weight:600}table.fields td.mono{font-size:12.5px}
table.fields .par{color:var(--muted)}table.fields tr.absent td{color:var(--muted)}table.fields tr.absent td:first-child{text-decoration:line-through}
@media (max-width:640px){table.fields,table.fields tbody,table.fields tr,table.fields td{display:block}table.fields thead,table.fields colgroup{display:none}
 table.fields tr{border-bottom:1px solid var(--rule);padding:.35rem 0}table.fields td{border:0;padding:0}
 table.fields td:nth-child(2),table.fields td:nth-child(3){display:inline;color:var(--muted);font-size:12.5px}table.fields td:nth-child(2)::after{content:" · "}}
h3.edge{color:var(--fg);font-size:1.2rem;margin-top:2rem}div.edge p.about{max-width:60em;overflow-wrap:anywhere}
h4{font-size:1rem;margin:1rem 0 .25rem}div.edge p.hint{display:none}
section.story dl.meta dd{overflow-wrap:anywhere}
table.parts-t{border-collapse:collapse;font-size:14px;margin:.5rem 0 1rem}
table.parts-t th,table.parts-t td{text-align:left;padding:.25rem .9rem .25rem 0;border-bottom:1px solid var(--rule);white-space:nowrap}
table.parts-t th{font-size:13px;color:var(--muted);font-weight:600}table.parts-t tr.log td{font-weight:600}
@media (max-width:640px){section.story dl.meta{grid-template-columns:1fr;gap:0}section.story dl.meta dd{margin:0 0 .45rem}
 table.parts-t{font-size:12.5px}table.parts-t th,table.parts-t td{padding:.2rem .3rem .2rem 0}table.parts-t th{font-size:12px}}
@media print{
 @page{margin:12mm}
 :root{--bg:#fff;--fg:#000;--muted:#444;--rule:#bbb;--panel:#fff;--link:#000}
 body{font-size:10.5pt}main{max-width:none;padding:0}
 nav.top,ul.files,.noprint,.detail{display:none}
 .pair,.side,.side .treefig,.side .hexdump{display:block!important;position:static!important;height:auto!important;max-height:none!important;overflow:visible!important}
 figure.g16{display:none!important}figure.g32:not(.whole){display:block!important}
 h1,h2,h3{break-after:avoid}
 figure{overflow:visible;break-inside:avoid;border:none;padding:0;margin:0 0 .75rem}
 figure svg{width:calc(var(--w)*1pt)!important;max-width:100%;height:auto}
 figure.whole{display:none}
 .parts{display:block}
 figure.part{margin:0 0 6pt}
 figure.part figcaption{margin:0 0 2pt;font-size:8pt;break-after:avoid}
 .hexdump{break-inside:avoid}
 pre{overflow:visible;white-space:pre-wrap;border:none;padding:0;font-size:8pt;orphans:3;widows:3}
 pre.src .line{display:block;padding-left:4.5em;text-indent:-4.5em;overflow-wrap:anywhere}
 pre.src .ln{text-indent:0}
 section.msg{break-before:auto}
 section.edges{break-before:page}section.edges>p.muted,h3.edge,div.edge p.about,h4{break-after:avoid}
 table.fields{font-size:8.5pt}table.fields td.mono{font-size:7.5pt}table.fields col.fpath{width:31%}table.fields col.ftype{width:21%}table.fields col.fver{width:11%}
 table.fields tr{break-inside:avoid}table.fields th,table.fields td{padding:2pt 4pt}
 a{text-decoration:none}
}
</style>{{end}}`

// pageScript links a tree node and its grid field (the same data-path) and the bytes of the
// field in the hex dump, both ways. It is inline, small and needs no network.
//
// Where grid and tree sit side by side (pairFit), they are a viewer a screen tall (the page
// snaps to it): the grid scrolls in its own box, and the pane beside it holds the detail panel
// (a fixed slot: what it shows changes, its size does not, so nothing moves under the
// pointer), the hex dump and the tree, each scrolling in its own box. Pointing at a field in
// one view scrolls the others' boxes so that its box, row and bytes are in view; the page
// itself never moves under the pointer. Where they sit one under the other, hovering scrolls
// nothing; a click or tap selects a field and shows the panel as a sheet at the screen's
// bottom, the selected box scrolled above it and room left under the page so it covers
// nothing the reader cannot scroll above it. The panel's × closes it.
const pageScript = `{{define "script"}}<script>
(function(){
 function each(l,f){Array.prototype.forEach.call(l,f)}
 function el(tag,text,cls){var e=document.createElement(tag);if(text!=null)e.textContent=text;if(cls)e.className=cls;return e}
 function hex(n){var s=n.toString(16);while(s.length<4)s='0'+s;return '0x'+s}
 function shown(e){return e&&e.getClientRects().length>0}
 // into scrolls box (a scroll container) so that e is inside it, a third down when it moves.
 function into(box,e){
  if(!box||!e)return;
  var b=box.getBoundingClientRect(),r=e.getBoundingClientRect();
  if(box.scrollHeight>box.clientHeight+1&&(r.top<b.top||r.bottom>b.top+box.clientHeight))box.scrollTop+=r.top-b.top-box.clientHeight/3;
  if(box.scrollWidth>box.clientWidth+1&&(r.left<b.left||r.right>b.left+box.clientWidth))box.scrollLeft+=r.left-b.left-40;
 }
 var pad=0;
 each(document.querySelectorAll('section.msg'),function(sec){
  var data={fields:{},anchors:{}},js=sec.querySelector('script.kg-detail');
  if(js){try{data=JSON.parse(js.textContent)}catch(e){}}
  var panel=sec.querySelector('.detail'),side=sec.querySelector('.side'),hexpres=sec.querySelectorAll('pre.hex');
  var on=[],sel=null,closed=false;
  function paired(){return side&&getComputedStyle(side.parentNode).display==='grid'}
  function clear(){each(on,function(e){e.classList.remove('kg-hl');e.classList.remove('kg-sel');e.classList.remove('on')});on=[]}
  function room(){
   // The sheet at the bottom of a narrow screen: the page gets room under it.
   var h=0;each(document.querySelectorAll('section.msg .detail'),function(d){if(!d.classList.contains('empty')&&getComputedStyle(d).position==='fixed')h=Math.max(h,Math.ceil(d.getBoundingClientRect().height)+8)});
   if(h!==pad){pad=h;document.body.style.paddingBottom=h?h+'px':''}
  }
  function show(p){
   if(!panel)return;
   var f=p===null?null:data.fields[p],pair=paired();
   if(!f&&!pair||!pair&&p!==sel||closed){panel.classList.add('empty');panel.textContent='';room();return}
   panel.classList.remove('empty');
   panel.textContent='';
   var head=el('div',null,'dhead');
   var dp=el('div',f?f.d||f.p:'The detail panel','dpath');
   if(f)dp.setAttribute('data-path',f.p);
   head.appendChild(dp);
   var x=el('button','\u00d7','dclose');x.type='button';x.setAttribute('aria-label','Close the detail panel');
   x.addEventListener('click',function(ev){ev.stopPropagation();closed=true;panel.classList.add('closed');sel=null;mark(null)});
   head.appendChild(x);
   panel.appendChild(head);
   if(!f){panel.appendChild(el('p','Point at a field in the grid or a row of the tree, or click one to keep it here.','dnone'));room();return}
   var dl=el('dl');
   function row(k,v,node){if(!v&&!node)return;dl.appendChild(el('dt',k));var dd=el('dd',node?null:v);if(node)dd.appendChild(node);dl.appendChild(dd)}
   var last=(f.d||f.p).split(/[.\u203a]/).pop().trim();if(f.n&&f.n!==last&&last.indexOf(f.n)!==0)row('Name',f.n);row('Type',f.t);
   row('Bytes',hex(f.o)+' (byte '+f.o+'), '+(f.l===1?'1 byte':f.l+' bytes'));
   row('Value',f.v);row('About',f.a);
   var pre=data.anchors[f.s];
   if(f.L&&pre){var a=el('a',f.s+':'+f.L);a.href='#'+pre+f.L;row('Schema',null,a)}else if(f.s){row('Schema',f.s)}
   panel.appendChild(dl);
   room();
  }
  // reveal brings into view what goes with the field the reader points at in from (a
  // figure): its tree row and its bytes inside the pane, or its grid box on the page.
  function reveal(from,scrollPage){
   var pair=paired();
   if(pair)each(hexpres,function(h){var b=h.querySelector('.on');if(b&&shown(h))into(h,b)});
   var row=sec.querySelector('svg.kg-tree .node.kg-hl');
   var tfig=row&&row.closest('figure');
   if(row&&from!==tfig&&(pair||scrollPage))into(tfig,row.querySelector('text')||row);
   if(from&&from.querySelector('svg.kg-tree')&&pair){
    var g=null;each(sec.querySelectorAll('svg.kg-grid .kg-hl'),function(e){if(!g&&shown(e))g=e});
    if(g)into(g.closest('figure'),g);
   }
   // A click or a key brings the pair onto the screen when it is partly off it.
   if(scrollPage&&pair){var q=side.parentNode.getBoundingClientRect();if(q.top<-1||q.bottom>innerHeight+1)side.parentNode.scrollIntoView({block:q.height>innerHeight?'start':'nearest'})}
   if(scrollPage&&!pair&&from&&from.querySelector('svg.kg-grid')){
    // The sheet covers the screen's bottom: the selected box and the rows after it stay above.
    var g=null;each(sec.querySelectorAll('svg.kg-grid .kg-sel'),function(e){if(!g&&shown(e))g=e});
    if(g){var r=g.getBoundingClientRect(),avail=innerHeight-pad;if(r.bottom>avail-100||r.top<0)window.scrollBy(0,r.top-avail/4)}
   }
  }
  function mark(p,from,scrollPage){
   clear();
   if(p===null){show(null);return}
   var boxed=false,lo=-1,hi=-1;
   each(sec.querySelectorAll('[data-path]'),function(e){
    if(e.getAttribute('data-path')!==p||e.closest('.detail'))return;
    e.classList.add('kg-hl');if(p===sel)e.classList.add('kg-sel');on.push(e);
    if(e.closest('svg.kg-grid'))boxed=true;
    var o=e.getAttribute('data-offset'),n=e.getAttribute('data-length');
    if(o===null||n===null)return;
    o=+o;n=+n;if(lo<0){lo=o;hi=o+n}
    for(var i=o;i<o+n;i++)each(sec.querySelectorAll('pre.hex [data-o="'+i+'"]'),function(b){if(b.className.indexOf('on')<0){b.classList.add('on');on.push(b)}});
   });
   // A tree row with no box of its own (an array, a struct) lights the boxes of its bytes.
   if(!boxed&&lo>=0)each(sec.querySelectorAll('svg.kg-grid g.field[data-offset]'),function(g){
    var o=+g.getAttribute('data-offset'),n=+g.getAttribute('data-length');
    if(o<hi&&o+Math.max(n,1)>lo){g.classList.add('kg-hl');on.push(g)}
   });
   show(p);reveal(from,scrollPage);
  }
  function target(ev){var g=ev.target.closest?ev.target.closest('figure.live [data-path]'):null;return g&&sec.contains(g)?g:null}
  sec.addEventListener('mouseover',function(ev){var g=target(ev);if(g)mark(g.getAttribute('data-path'),g.closest('figure'),false);else mark(sel)});
  sec.addEventListener('mouseleave',function(){mark(sel)});
  sec.addEventListener('click',function(ev){
   if(ev.target.closest&&ev.target.closest('.detail'))return;
   var g=target(ev);
   if(g){var p=g.getAttribute('data-path');sel=sel===p?null:p;closed=false;if(panel)panel.classList.remove('closed');mark(sel===null?p:sel,g.closest('figure'),true);return}
   if(ev.target.closest&&ev.target.closest('figure.live')){sel=null;mark(null)}
  });
  addEventListener('resize',function(){mark(sel)});
  show(null);
  each(sec.querySelectorAll('figure.live'),function(fig){
   fig.addEventListener('keydown',function(ev){
    var list=fig.querySelectorAll('svg [data-path]'),i=-1,k=ev.key;
    if(!list.length)return;
    for(var j=0;j<list.length;j++)if(list[j].getAttribute('data-path')===sel){i=j;break}
    if(k==='ArrowRight'||k==='ArrowDown')i=Math.min(i+1,list.length-1);
    else if(k==='ArrowLeft'||k==='ArrowUp')i=Math.max(i-1,0);
    else if(k==='Home')i=0;else if(k==='End')i=list.length-1;
    else if(k==='Escape'){sel=null;mark(null);return}
    else return;
    ev.preventDefault();
    var g=list[i];sel=g.getAttribute('data-path');closed=false;if(panel)panel.classList.remove('closed');mark(sel,fig,true);
    if(paired()&&fig.closest('.side'))into(fig,g);else if(g.scrollIntoView)g.scrollIntoView({block:'nearest',inline:'nearest'});
   });
  });
 });
})();
</script>{{end}}`

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
<nav class="top"><span>kafkagrid</span><span class="mid">Kafka {{.Release}}</span>{{if .Book}}<a href="{{.Book}}">PDF book</a>{{else}}<span></span>{{end}}</nav>
{{.Site}}<h1>Kafka {{.Release}} wire protocol</h1>
<p class="lead">Every API of Apache Kafka {{.Release}} ({{.NumAPIs}} in all) with a minimal example request and response at its highest version, encoded byte for byte and drawn as a byte grid and an expanded tree, next to the message schemas they come from. Every value comes from <a href="#cluster">one small cluster</a>.</p>
<p class="noprint"><input type="search" id="filter" placeholder="Filter: name or key" aria-label="Filter the APIs by name or key" autocomplete="off"></p>
<details class="guide"><summary>How to read the pages</summary>
{{if .GuideGrid}}<div class="guidefig"><figure style="--w:{{.GuideW}}"><figcaption>{{.GuideCaption}}</figcaption>{{.GuideGrid}}</figure>
<ol class="callouts">{{range .GuideCallouts}}<li><strong>{{index . 0}}</strong> {{index . 1}}</li>{{end}}</ol></div>
{{end}}{{range .Guide}}<p><strong>{{index . 0}}</strong> {{index . 1}}</p>
{{end}}</details>
<div class="toc noprint">{{range .Categories}}<a href="#{{.ID}}">{{.Name}} ({{len .APIs}})</a>{{end}}{{if .Story}}<a href="#cluster">The cluster in these examples</a>{{end}}<a href="errors.html">Error codes</a></div>
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

{{define "msgbody"}}{{if .Links}}<ul class="files">{{range .Links}}<li><a href="{{.Href}}">{{.Label}}</a></li>{{end}}</ul>{{end}}
{{.Fit}}<div class="pair">
{{if .Grid}}<div class="fig gridfig"><h3>Byte grid</h3>
<p class="hint muted noprint">Point at a field, tap it, or tab here and use the arrow keys: its tree row and its bytes in the hex dump light up, and its path, type, offset, length, value and schema text show in the detail panel.</p>
<figure style="--w:{{.GridW}}" tabindex="0" aria-label="Byte grid, 32 bits a row: click a field, or use the arrow keys, to see it in the tree and the detail panel" class="live g32{{if .GridParts}} whole{{end}}">{{.Grid}}</figure>{{if .Narrow}}
<figure style="--w:{{.NarrowW}}" tabindex="0" aria-label="Byte grid, 16 bits a row: click a field, or use the arrow keys, to see it in the tree and the detail panel" class="live g16 noprint">{{.Narrow}}</figure>{{end}}{{template "parts" .GridParts}}</div>{{end}}
<div class="side">
<aside class="detail empty noprint" aria-live="polite" aria-label="The selected field"></aside>
<div class="hexdump"><h3>Hex dump</h3>
<pre class="hex h16">{{.Hex}}</pre><pre class="hex h8 noprint">{{.Hex8}}</pre></div>
{{if .Tree}}<div class="fig treefig"><h3>Expanded tree</h3>
<figure style="--w:{{.TreeW}}" tabindex="0" aria-label="Expanded tree: click a row, or use the arrow keys, to see it in the grid and the detail panel" class="live{{if .TreeParts}} whole{{end}}">{{.Tree}}</figure>{{template "parts" .TreeParts}}</div>{{end}}
</div>
</div>
<script type="application/json" class="kg-detail">{{.Detail}}</script>
{{end}}

{{define "parts"}}{{if .}}
<div class="parts">{{range .}}<figure class="part" style="--w:{{.W}}">{{if .Caption}}<figcaption>{{.Caption}}</figcaption>{{end}}{{.SVG}}</figure>{{end}}</div>{{end}}{{end}}

{{define "api"}}{{template "head" .}}<title>{{.Name}} (key {{.Key}}, v{{.Version}}) · Kafka {{.Release}} protocol</title>
{{template "css"}}
</head>
<body>
<main class="api">
<nav class="top">{{if .Prev}}<a href="{{.Prev.Href}}" rel="prev">← {{.Prev.Name}}</a>{{else}}<span></span>{{end}}<span class="mid"><a href="../index.html">Kafka {{.Release}} index</a>{{if .Book}} · <a href="{{.Book}}">PDF book</a>{{end}}</span>{{if .Next}}<a href="{{.Next.Href}}" rel="next">{{.Next.Name}} →</a>{{else}}<span></span>{{end}}</nav>
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
{{template "msgbody" .}}</section>
{{end}}
{{if .Edges}}<section class="edges" id="edge-cases">
<h2>Edge cases</h2>
<p class="muted">Special frames beside the example, the ones client and proxy authors get wrong, encoded and checked like it:</p>
{{range .Edges}}<div class="edge" id="{{.ID}}"><h3 class="edge">{{.Title}}</h3>
<p class="about">{{.About}}</p>
{{range .Messages}}<section class="msg" id="{{.ID}}">
<h4>{{.Title}} <span class="mono" style="font-size:.8em;color:var(--muted)">{{.Base}} · {{bytes .Size}}</span></h4>
{{template "msgbody" .}}</section>
{{end}}</div>
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
<pre class="src">{{.Source}}</pre>
</section>
{{end}}
<footer>Built by kafkagrid from the message schemas of Apache Kafka {{.Release}}. <a href="../index.html">Index</a></footer>
</main>
{{template "script"}}
</body>
</html>
{{end}}`

// The page's measures in CSS px that decide where a message's grid and tree fit (pageCSS):
// the main column's side padding, a figure's padding and border, the gap between grid and
// tree, room for the tree pane's vertical scrollbar, the grid's scale on screen, the narrowest
// screen that puts grid and tree side by side, and the widest main column.
const (
	fitPagePad  = 24 // main.api from 1200 px: .75rem each side
	fitFigPad   = 26 // figure: .75rem padding and 1px border each side
	fitTreePad  = 15 // the tree's figure beside the grid: .4rem padding and 1px border each side
	fitGap      = 14 // .pair's gap
	fitScroll   = 16 // the tree pane's own scrollbar
	fitScale    = 1.15
	fitPairMin  = 1200
	fitMainMax  = 1880
	fitPanelEm  = 12 // the detail panel's height beside the tree
	fitHexMaxVh = 26 // the hex dump's most height beside the tree
)

// pairFit returns the style that lays out one message (the section with id id) for the
// screen it is read on, from its drawings' widths, so that nothing of either is cut off:
//
//   - side by side in a viewer at most a screen tall, grid left and a pane right holding the
//     detail panel, the hex dump and the tree, each scrolling in its own box, from the narrowest screen where the 32-bit grid (else the 16-bit
//     one) and every column of the tree fit whole; the 16-bit grid where only it fits;
//   - else one under the other, with the 32-bit grid where it fits the screen's width and
//     the 16-bit one below that (a phone).
//
// Screens only: print lays out every message the same (pageCSS's @media print).
func pairFit(id string, gridW, narrowW, treeW int) template.HTML {
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') || id == "" || id[0] >= '0' && id[0] <= '9' {
			return "" // not a plain CSS identifier: the page's default layout (stacked)
		}
	}
	if narrowW == 0 || gridW == 0 {
		return ""
	}
	px := func(w int) int { return int(float64(w)*fitScale + 0.999) }
	stack32 := px(gridW) + fitFigPad + 48 // main's 1.5rem padding below 1200 px
	side := treeW + fitTreePad + fitFigPad + fitGap + fitPagePad + fitScroll
	pair32 := max(fitPairMin, px(gridW)+side)
	pair16 := max(fitPairMin, px(narrowW)+side)
	sel := "#" + id
	var b strings.Builder
	b.WriteString("<style>")
	narrow := fmt.Sprintf("{%[1]s .g32{display:none}%[1]s .g16{display:block}}", sel)
	fmt.Fprintf(&b, "@media screen and (max-width:%d.98px)%s", stack32-1, narrow)
	if pair16 <= fitMainMax {
		if pair16 < pair32 {
			fmt.Fprintf(&b, "\n@media screen and (min-width:%dpx) and (max-width:%d.98px)%s", pair16, pair32-1, narrow)
		}
		fmt.Fprintf(&b, "\n@media screen and (min-width:%dpx){", pair16)
		fmt.Fprintf(&b, "html{scroll-snap-type:y proximity}%[1]s .pair{display:grid;grid-template-columns:max-content minmax(0,1fr);grid-template-rows:fit-content(100vh);gap:%[2]dpx;align-items:stretch;margin-bottom:1rem;scroll-snap-align:start}"+
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
	return template.HTML(b.String())
}
