package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/kafkagrid/kafkagrid/site"
)

// maxLoadElements is the most DOM elements a page of the reference may hold at load (the
// reference's lazy.go; site/reference's TestPagesLight holds the same from the files).
const maxLoadElements = 3000

// atLoad records, in every page opened, the DOM elements when the load event fires: the
// listener is added before the page's own scripts run, so it runs before the page's load
// listeners draw anything.
const atLoad = `addEventListener('load', () => { window.__kgLoad = document.getElementsByTagName('*').length; });`

// pageLoad is what Chromium tells of one page opened: elements at load, then the navigation
// timing in ms from the start of the navigation (DOMContentLoaded, load event's end).
type pageLoad struct {
	Elements     int
	DCL, Load    float64
	Now          int // elements once the page's load listeners have run
	Transferred  float64
	DecodedBytes float64
}

const pageLoadJS = `(() => new Promise(res => {
	const done = () => setTimeout(() => {
		const n = performance.getEntriesByType('navigation')[0];
		let bytes = n.decodedBodySize;
		for (const r of performance.getEntriesByType('resource')) bytes += r.decodedBodySize;
		res({Elements: window.__kgLoad, DCL: n.domContentLoadedEventEnd, Load: n.loadEventEnd, Now: document.getElementsByTagName('*').length,
			Transferred: n.transferSize, DecodedBytes: bytes});
	}, 0);
	if (window.__kgLoad !== undefined && performance.getEntriesByType('navigation')[0].loadEventEnd > 0) done(); else addEventListener('load', done);
}))()`

// drawLater draws every message a page left for later (the response, the edge cases: see the
// reference's lazy.go), as a reader opening each would, and returns the page's elements then.
// It waits for the sidecar with no deadline of its own (the test's -timeout is the guard).
func drawLater(t *testing.T, bctx context.Context) int {
	t.Helper()
	n, err := chromedp.Run(bctx, chromedp.Evaluate[int](`(() => new Promise((res, rej) => {
		document.querySelectorAll('details.edge').forEach(d => { d.open = true; });
		document.querySelectorAll('button.kg-draw').forEach(b => b.click());
		(function wait() {
			if (document.querySelector('.kg-later.failed')) { rej(new Error('the sidecar did not load')); return; }
			if (!document.querySelector('.kg-later')) { res(document.getElementsByTagName('*').length); return; }
			setTimeout(wait, 10);
		})();
	}))()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("drawing what waits: %v", err)
	}
	return n
}

// TestPagesInChromium opens, in headless Chromium from the folder (file://), the pages of the
// 4.0 build (every version; with -short, the highest) that are the heaviest of their kind — the
// index, the error codes, the API page with the most DOM elements at load and the one with
// the most drawings left for later — at 1440 and 390 CSS px, and holds each under
// maxLoadElements DOM elements at its load event, with what it left for later drawn from its
// sidecar by its script. It reports (t.Log) the load times and the elements once everything
// is drawn; times are not asserted (a loaded machine is many times slower).
//
// Every other page is held under the same ceiling from its files, by the HTML5 parser, and its
// placeholders matched with its sidecar's drawings, by site/reference's TestPagesLight (every
// page of 4.0 and 4.1): a browser adds nothing there but its cost.
func TestPagesInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pages and drives a browser over each")
	}
	out := shared40(t)
	pages := heaviestPages(t, out)
	bctx, _, _ := browser(t)
	if _, err := chromedp.Call(bctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: atLoad}); err != nil {
		t.Fatal(err)
	}
	for _, screen := range []struct {
		name  string
		w, h  int64
		phone bool
	}{{"1440", 1440, 900, false}, {"390", 390, 844, true}} {
		t.Run(screen.name, func(t *testing.T) {
			opts := []chromedp.EmulateViewportOption{}
			if screen.phone {
				opts = append(opts, chromedp.EmulateMobile)
			}
			if err := chromedp.Do(bctx, chromedp.EmulateViewport(screen.w, screen.h, opts...)); err != nil {
				t.Fatal(err)
			}
			measurePages(t, bctx, out, pages)
		})
	}
}

// heaviestPages returns the index and the error codes of the build in out, and its API pages
// with the most DOM elements at load (site.Elements) and with the most drawings left for later.
func heaviestPages(t *testing.T, out string) []string {
	t.Helper()
	api, err := filepath.Glob(filepath.Join(out, "api", "*.html"))
	if err != nil || len(api) == 0 {
		t.Fatalf("no API pages in %s: %v", out, err)
	}
	var most, later string
	var mostN, laterN int
	for _, p := range api {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if n := site.Elements(b); n > mostN {
			most, mostN = p, n
		}
		if n := bytes.Count(b, []byte(`class="kg-later`)); n > laterN {
			later, laterN = p, n
		}
	}
	pages := []string{filepath.Join(out, "index.html"), filepath.Join(out, "errors.html"), most}
	if later != most {
		pages = append(pages, later)
	}
	t.Logf("the heaviest API pages: %s (%d elements at load), %s (%d drawings for later)", filepath.Base(most), mostN, filepath.Base(later), laterN)
	return pages
}

// measurePages opens each page, holds its elements at load under maxLoadElements and logs
// the timings.
func measurePages(t *testing.T, bctx context.Context, out string, pages []string) {
	type result struct {
		name string
		pageLoad
		all int
	}
	var rs []result
	for _, p := range pages {
		rel, _ := filepath.Rel(out, p)
		if err := chromedp.Do(bctx, chromedp.Navigate("file://"+filepath.ToSlash(p))); err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		pl, err := chromedp.Run(bctx, chromedp.Evaluate[pageLoad](pageLoadJS, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		if pl.Elements <= 0 || pl.Elements >= maxLoadElements {
			t.Errorf("%s: %d DOM elements at load, want under %d", rel, pl.Elements, maxLoadElements)
		}
		rs = append(rs, result{rel, pl, drawLater(t, bctx)})
	}
	loads := make([]float64, len(rs))
	over := 0
	for i, r := range rs {
		loads[i] = r.Load
		if r.Elements > 1400 {
			over++
		}
	}
	slices.Sort(loads)
	byElems := slices.Clone(rs)
	slices.SortFunc(byElems, func(a, b result) int { return b.Elements - a.Elements })
	t.Logf("%d pages: load event end median %.0f ms, p90 %.0f ms, max %.0f ms; %d over 1,400 elements at load", len(rs),
		loads[len(loads)/2], loads[len(loads)*9/10], loads[len(loads)-1], over)
	var top strings.Builder
	for _, r := range byElems[:min(8, len(byElems))] {
		fmt.Fprintf(&top, "\n  %-28s %5d elements at load (DOMContentLoaded %4.0f ms, load %4.0f ms; %5d once all is drawn; %8.0f bytes decoded)", r.name, r.Elements, r.DCL, r.Load, r.all, r.DecodedBytes)
	}
	t.Logf("most elements at load:%s", top.String())
}

// TestLazyDrawings opens the pages of Produce, Fetch and Metadata at 1440 and 390 CSS px,
// light (and Produce dark: the dark scheme changes colours only, TestDarkSchemeColoursOnly),
// and checks the drawings a page draws when opened: the response when it is
// scrolled to, an edge case when its <details> is opened or the address names it, each
// inserted inline and linked like the first (hovering a tree row lights its grid field and
// bytes, clicking a field names it in the detail panel); the phone's 16-bit grid and 8-byte hex
// dump are cloned where the screen shows them; print parts before printing; and without script
// the first message is shown whole with its 32-bit grid. Screenshots of each opened drawing go
// to $ARTIFACTS when it is set (keepShot).
func TestLazyDrawings(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pages and drives a browser")
	}
	out := shared40(t)
	bctx, _, art := browser(t)
	edges := map[string]string{"Produce": "edge-unknown-topic", "Fetch": "edge-tagged-fields", "Metadata": ""}
	for _, screen := range []struct {
		name   string
		w, h   int64
		phone  bool
		scheme string
	}{
		{"1440-light", 1440, 900, false, "light"},
		{"1440-dark", 1440, 900, false, "dark"},
		{"390-light", 390, 844, true, "light"},
		{"390-dark", 390, 844, true, "dark"},
	} {
		opts := []chromedp.EmulateViewportOption{}
		if screen.phone {
			opts = append(opts, chromedp.EmulateMobile)
		}
		if err := chromedp.Do(bctx, chromedp.EmulateViewport(screen.w, screen.h, opts...)); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Call(bctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: screen.scheme}}}); err != nil {
			t.Fatal(err)
		}
		for _, api := range []string{"Produce", "Fetch", "Metadata"} {
			if screen.scheme == "dark" && api != "Produce" { // colours only (TestDarkSchemeColoursOnly)
				continue
			}
			t.Run(screen.name+"/"+api, func(t *testing.T) {
				url := "file://" + filepath.ToSlash(filepath.Join(out, "api", api+".html"))
				if err := chromedp.Do(bctx, chromedp.Navigate(url)); err != nil {
					t.Fatal(err)
				}
				// At load: one message drawn, its phone views only where the screen shows them.
				type first struct {
					Later, Grids16, Hex8 int
					Shown16              bool
				}
				f, err := chromedp.Run(bctx, chromedp.Evaluate[first](`(() => ({Later: document.querySelectorAll('.kg-later').length,
					Grids16: document.querySelectorAll('#request figure.g16 svg').length, Hex8: document.querySelectorAll('#request pre.h8 span').length,
					Shown16: Array.from(document.querySelectorAll('#request figure.g16')).some(f => f.getClientRects().length > 0)}))()`))
				if err != nil {
					t.Fatal(err)
				}
				if f.Later == 0 {
					t.Errorf("nothing left to draw when opened")
				}
				if f.Shown16 != (f.Grids16 == 1) {
					t.Errorf("the request's 16-bit grid: shown %v, drawn %d times", f.Shown16, f.Grids16)
				}
				if screen.phone && f.Hex8 == 0 {
					t.Errorf("the phone's 8-byte hex dump is not drawn")
				}
				// The response, scrolled to, is drawn by the page and linked.
				if _, err := chromedp.Run(bctx, chromedp.Evaluate[any](`document.getElementById('response').scrollIntoView()`)); err != nil {
					t.Fatal(err)
				}
				waitDrawn(t, bctx, "#response")
				checkLinked(t, bctx, "#response", screen.phone)
				shot(t, bctx, art, api+"-response-"+screen.name)
				// An edge case opened, or named by the address.
				if e := edges[api]; e != "" {
					if _, err := chromedp.Run(bctx, chromedp.Evaluate[any](fmt.Sprintf(`(() => { const d = document.getElementById(%q); d.open = true; d.scrollIntoView(); })()`, e))); err != nil {
						t.Fatal(err)
					}
					sec := "#" + e + "-request"
					if api == "Fetch" {
						sec = "#" + e + "-response"
					}
					waitDrawn(t, bctx, sec)
					checkLinked(t, bctx, sec, screen.phone)
					shot(t, bctx, art, api+"-"+e+"-"+screen.name)
					if err := chromedp.Do(bctx, chromedp.Navigate("about:blank"), chromedp.Navigate(url+sec)); err != nil {
						t.Fatal(err)
					}
					waitDrawn(t, bctx, sec)
					// The section's top at the screen's, or its grid and tree where the page snaps to them.
					top, err := chromedp.Run(bctx, chromedp.Evaluate[[2]float64](fmt.Sprintf(`(() => { const s = document.querySelector(%q);
						return [s.getBoundingClientRect().top, s.querySelector('.pair').getBoundingClientRect().top]; })()`, sec)))
					if err != nil {
						t.Fatal(err)
					}
					if !(top[0] > -2 && top[0] < 200 || top[1] > -2 && top[1] < 200) {
						t.Errorf("opened at %s: once drawn, the section's top is at %.0f px and its drawings' at %.0f px", sec, top[0], top[1])
					}
				}
				// Print: the parts of every drawing drawn are cloned before printing.
				parts, err := chromedp.Run(bctx, chromedp.Evaluate[[2]int](`(() => { dispatchEvent(new Event('beforeprint'));
					return [document.querySelectorAll('template.kg-print').length, document.querySelectorAll('.parts figure.part svg').length]; })()`))
				if err != nil {
					t.Fatal(err)
				}
				if parts[0] != 0 || parts[1] == 0 {
					t.Errorf("before printing: %d print parts left in templates, %d cloned", parts[0], parts[1])
				}
			})
		}
	}
	// Without script: the first message whole, its 32-bit grid and 16-byte dump on a phone too.
	if _, err := chromedp.Call(bctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(bctx, chromedp.Navigate("file://"+filepath.ToSlash(filepath.Join(out, "api", "Fetch.html")))); err != nil {
		t.Fatal(err)
	}
	type noscript struct{ Grid, Tree, Hex bool }
	ns, err := chromedp.Run(bctx, chromedp.Evaluate[noscript](`(() => { const shown = s => { const e = document.querySelector(s); return !!e && e.getBoundingClientRect().height > 50; };
		return {Grid: shown('#request figure.g32 svg'), Tree: shown('#request .treefig svg'), Hex: shown('#request pre.h16')}; })()`))
	if err != nil {
		t.Fatal(err)
	}
	if !ns.Grid || !ns.Tree || !ns.Hex {
		t.Errorf("without script on a phone, the request shows grid %v, tree %v, hex dump %v", ns.Grid, ns.Tree, ns.Hex)
	}
	shot(t, bctx, art, "Fetch-noscript-390")
}

// waitDrawn waits until the section sel holds its drawings (no placeholder left).
func waitDrawn(t *testing.T, bctx context.Context, sel string) {
	t.Helper()
	if _, err := chromedp.Run(bctx, chromedp.Evaluate[bool](fmt.Sprintf(`new Promise((res, rej) => { (function wait() {
		const s = document.querySelector(%q);
		if (!s) { rej(new Error('no section')); return; }
		if (s.querySelector('.kg-later.failed')) { rej(new Error('the sidecar did not load')); return; }
		if (!s.querySelector('.kg-later') && s.querySelector('svg.kg-grid')) { res(true); return; }
		setTimeout(wait, 10);
	})(); })`, sel), chromedp.EvalAwaitPromise)); err != nil {
		t.Fatalf("%s: %v", sel, err)
	}
}

// checkLinked points at a tree row of the section sel (the fourth) and clicks its grid
// field: the grid box and the bytes light up, and the detail panel names the field.
func checkLinked(t *testing.T, bctx context.Context, sel string, phone bool) {
	t.Helper()
	type linked struct {
		Path, Shown string
		Boxes, Hex  int
	}
	l, err := chromedp.Run(bctx, chromedp.Evaluate[linked](fmt.Sprintf(`(() => {
		const sec = document.querySelector(%q), shown = e => e.getClientRects().length > 0;
		const rows = Array.from(sec.querySelectorAll('svg.kg-tree g.node[data-path]'));
		const node = rows.find(n => sec.querySelector('svg.kg-grid g.field[data-path="' + n.getAttribute('data-path') + '"]')) || rows[3];
		const p = node.getAttribute('data-path');
		node.querySelector('rect,text').dispatchEvent(new MouseEvent('mouseover', {bubbles: true}));
		const boxes = Array.from(sec.querySelectorAll('svg.kg-grid .kg-hl')).filter(shown).length;
		const hex = Array.from(sec.querySelectorAll('pre.hex .on')).filter(shown).length;
		const g = Array.from(sec.querySelectorAll('svg.kg-grid g.field[data-path]')).filter(e => shown(e) && e.getAttribute('data-path') === p)[0];
		if (g) g.querySelector('rect,polygon,path').dispatchEvent(new MouseEvent('click', {bubbles: true}));
		const d = sec.querySelector('.detail .dpath');
		return {Path: p, Shown: d ? d.getAttribute('data-path') || '' : '', Boxes: boxes, Hex: hex};
	})()`, sel)))
	if err != nil {
		t.Fatalf("%s: %v", sel, err)
	}
	if l.Boxes < 1 || l.Hex < 1 || l.Shown != l.Path {
		t.Errorf("%s: hovering tree row %s lit %d grid boxes and %d bytes; clicking its box names %q in the panel", sel, l.Path, l.Boxes, l.Hex, l.Shown)
	}
}

func shot(t *testing.T, bctx context.Context, art, name string) {
	t.Helper()
	keepShot(t, bctx, art, "kafkagrid-lazy-"+name+".png", chromedp.CaptureScreenshot())
}

// TestHeavyPageInChromium opens Kafka 4.1's StreamsGroupHeartbeat page, whose request is too
// big for the page with its tree and schemas' source (the reference's writePage): under
// maxLoadElements at load with the request's grid and hex dump drawn and linked; the tree
// drawn on asking, linked to the grid and taking the arrow keys; a schema line named by the
// address shown.
func TestHeavyPageInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a page and drives a browser")
	}
	out := t.TempDir()
	if _, stderr, code := runCmd(t, "build", "-q", "-out", out, "-format", "html", "-apis", "StreamsGroupHeartbeat", "-versions", "highest",
		"-schemas", filepath.Join(listSchemaRoot(t), "4.1")); code != 0 {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	bctx, _, art := browser(t, 1440, 900)
	if _, err := chromedp.Call(bctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: atLoad}); err != nil {
		t.Fatal(err)
	}
	url := "file://" + filepath.ToSlash(filepath.Join(out, "api", "StreamsGroupHeartbeat.html"))
	if err := chromedp.Do(bctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	pl, err := chromedp.Run(bctx, chromedp.Evaluate[pageLoad](pageLoadJS, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if pl.Elements >= maxLoadElements {
		t.Errorf("%d DOM elements at load, want under %d", pl.Elements, maxLoadElements)
	}
	asked, err := chromedp.Run(bctx, chromedp.Evaluate[int](`document.querySelectorAll('#request .kg-later.kg-ask').length`))
	if err != nil {
		t.Fatal(err)
	}
	if asked != 1 {
		t.Fatalf("%d trees waiting to be asked for in the request, want 1", asked)
	}
	if _, err := chromedp.Run(bctx, chromedp.Evaluate[any](`document.querySelector('#request .kg-ask button.kg-draw').click()`)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`new Promise(res => { (function wait() { if (document.querySelector('#request svg.kg-tree')) res(true); else setTimeout(wait, 10); })(); })`, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatal(err)
	}
	checkLinked(t, bctx, "#request", false)
	// The keys in the inserted tree: Escape clears the selection, an arrow selects its first row.
	type keys struct{ Want, Sel string }
	if _, err := chromedp.Run(bctx, chromedp.Evaluate[any](`document.querySelector('#request .treefig figure.live').focus()`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(bctx, chromedp.KeyEvent(kb.Escape), chromedp.KeyEvent(kb.ArrowDown)); err != nil {
		t.Fatal(err)
	}
	k, err := chromedp.Run(bctx, chromedp.Evaluate[keys](`(() => { const f = document.querySelector('#request .treefig figure.live'), s = f.querySelector('.kg-sel');
		return {Want: f.querySelector('svg [data-path]').getAttribute('data-path'), Sel: s ? s.getAttribute('data-path') : ''}; })()`))
	if err != nil {
		t.Fatal(err)
	}
	if k.Sel != k.Want {
		t.Errorf("an arrow key in the inserted tree selected %q, want %q", k.Sel, k.Want)
	}
	shot(t, bctx, art, "StreamsGroupHeartbeat-tree-1440")
	// A schema line named by the address: its source cloned, the line on the screen.
	if err := chromedp.Do(bctx, chromedp.Navigate("about:blank"), chromedp.Navigate(url+"#request-schema-L40")); err != nil {
		t.Fatal(err)
	}
	line, err := chromedp.Run(bctx, chromedp.Evaluate[float64](`new Promise(res => setTimeout(() => { const e = document.getElementById('request-schema-L40'); res(e ? e.getBoundingClientRect().top : -1e9); }, 50))`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if line < -2 || line > 900 {
		t.Errorf("opened at #request-schema-L40: the line is at %.0f px", line)
	}
}
