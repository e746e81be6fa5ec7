package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// pageFont forces the SVG text of a page into a monospace font of another advance than Go
// Mono's 0.6 em (DejaVu Sans Mono, 0.602 em, spaced a further 0.1 em: 0.7 em in all), so that
// every text run is checked in a font the layout did not measure.
const pageFont = `(() => {
	const s = document.createElement('style');
	s.textContent = 'svg text{font-family:"DejaVu Sans Mono",monospace!important;letter-spacing:.1em!important}';
	document.head.appendChild(s);
})()`

// pageTextCheck returns the text runs of the page's drawings that leave their box or their
// drawing, overlap another run, or (on a phone) are drawn under 9 CSS px. A run's box is the
// bounding box of the shapes of its grid field; a tree row's runs only have the drawing.
// Rects are shrunk vertically to the glyphs' core, as two lines of a label touch by design.
const pageTextCheck = `((minPx) => {
	const bad = [];
	const core = r => ({l: r.left, r: r.right, t: r.top + r.height * 0.25, b: r.bottom - r.height * 0.2});
	const name = t => (t.closest('[data-path]') ? t.closest('[data-path]').getAttribute('data-path') + ': ' : '') + JSON.stringify(t.textContent);
	for (const svg of document.querySelectorAll('svg.kg')) {
		if (svg.closest('.parts') || svg.getClientRects().length === 0) continue; // print parts, the grid the screen does not show
		const sr = svg.getBoundingClientRect(), scale = sr.width / svg.viewBox.baseVal.width;
		const runs = [];
		for (const t of svg.querySelectorAll('text')) {
			if (t.textContent.trim() === '') continue;
			const r = t.getBoundingClientRect(), c = core(r);
			const px = parseFloat(getComputedStyle(t).fontSize) * scale;
			if (px < minPx - 0.01) bad.push(svg.id + ' ' + name(t) + ' drawn at ' + px.toFixed(2) + ' px');
			if (r.left < sr.left - 0.5 || r.right > sr.right + 0.5) bad.push(svg.id + ' ' + name(t) + ' leaves the drawing');
			const g = t.closest('g.field');
			if (g) {
				let box = null;
				for (const s of g.querySelectorAll('rect,polygon,path,polyline')) {
					const b = s.getBoundingClientRect();
					if (b.width === 0 && b.height === 0) continue;
					box = box ? {l: Math.min(box.l, b.left), r: Math.max(box.r, b.right), t: Math.min(box.t, b.top), b: Math.max(box.b, b.bottom)} : {l: b.left, r: b.right, t: b.top, b: b.bottom};
				}
				if (box && (c.l < box.l - 0.75 || c.r > box.r + 0.75 || c.t < box.t - 0.75 || c.b > box.b + 0.75)) {
					bad.push(svg.id + ' ' + name(t) + ' leaves its box by ' + Math.max(box.l - c.l, c.r - box.r, box.t - c.t, c.b - box.b).toFixed(2) + ' px');
				}
			}
			runs.push([t, c]);
		}
		runs.sort((a, b) => a[1].t - b[1].t);
		for (let i = 0; i < runs.length; i++) {
			const a = runs[i][1];
			for (let j = i + 1; j < runs.length && runs[j][1].t < a.b; j++) {
				const b = runs[j][1];
				const w = Math.min(a.r, b.r) - Math.max(a.l, b.l), h = Math.min(a.b, b.b) - Math.max(a.t, b.t);
				if (w > 0.75 && h > 0.75) bad.push(svg.id + ' ' + name(runs[i][0]) + ' overlaps ' + name(runs[j][0]));
			}
		}
	}
	return bad;
})`

// pageHover points at the grid field of the response that is farthest into the frame (on a
// phone, taps it) and reports what the reader sees without scrolling: whether the field's tree
// row (not under the panel) and the detail panel are inside the viewport, and the path the
// panel names. Only the grid the screen shows counts (the page holds a 32-bit and a 16-bit one).
// Stacked says the grid is above the tree on a desktop screen (site.Fit), the panel beside.
const pageHover = `((phone) => {
	const sec = document.querySelector('section.msg#response') || document.querySelector('section.msg');
	const fields = Array.from(sec.querySelectorAll('figure.live svg.kg-grid g.field[data-path]')).filter(g => !g.getAttribute('data-path').includes('#') && g.getClientRects().length > 0);
	const g = fields[fields.length - 1];
	// Beside the tree, the grid scrolls in a viewer a screen tall: the reader has it on the screen
	// (the page snaps to it) and scrolls the grid inside it. On a phone the page scrolls.
	const pair = sec.querySelector('.pair'), stacked = !phone && getComputedStyle(sec.querySelector('.side')).display === 'contents';
	if (!phone && !stacked && getComputedStyle(pair).display === 'grid') { window.scrollTo(0, pair.getBoundingClientRect().top + scrollY); g.scrollIntoView({block: 'nearest'}); }
	else g.scrollIntoView({block: 'center'});
	const shape = g.querySelector('rect,polygon,path');
	shape.dispatchEvent(new MouseEvent(phone ? 'click' : 'mouseover', {bubbles: true}));
	const p = g.getAttribute('data-path');
	const inView = e => { if (!e) return false; const r = e.getBoundingClientRect(); return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; };
	const row = Array.from(sec.querySelectorAll('svg.kg-tree g.node.kg-hl')).find(n => n.getAttribute('data-path') === p);
	const panel = sec.querySelector('.detail');
	const covered = (a, b) => { const r = a.getBoundingClientRect(), q = b.getBoundingClientRect(); return r.bottom > q.top && r.top < q.bottom && r.right > q.left && r.left < q.right; };
	const rowText = row && row.querySelector('text');
	const dp = panel ? panel.querySelector('.dpath') : null;
	return {Path: p, Row: inView(row) && !(panel && rowText && covered(rowText, panel)), Detail: inView(panel), Shown: dp ? dp.getAttribute('data-path') || '' : '',
		BoxCovered: !!panel && covered(shape, panel), Stacked: stacked};
})`

// pageTreeHover points at a tree row four fifths down the request's tree, as a reader beside
// the grid does, and reports: whether every column of the tree is inside its figure (nothing
// to scroll sideways), whether the row's grid box and its first byte in the hex dump are on
// the screen (and the byte inside its dump's box), and whether the detail panel covers the
// row or the box. Where the grid is stacked above the tree (Stacked), the reader scrolls the
// page to the row, and the panel must name it on the screen (Shown).
const pageTreeHover = `(() => new Promise(res => {
	const sec = document.querySelector('section.msg#request');
	const tree = sec.querySelector('figure.live svg.kg-tree'), fig = tree.closest('figure');
	const nodes = Array.from(tree.querySelectorAll('g.node[data-path]'));
	const n = nodes[Math.floor(nodes.length * 0.8)];
	const stacked = getComputedStyle(sec.querySelector('.side')).display === 'contents';
	if (stacked) n.scrollIntoView({block: 'center'});
	else {
		window.scrollTo(0, sec.querySelector('.pair').getBoundingClientRect().top + scrollY);
		const fr = fig.getBoundingClientRect(), nr = n.getBoundingClientRect();
		fig.scrollTop += nr.top - fr.top - fig.clientHeight / 2;
	}
	n.querySelector('rect').dispatchEvent(new MouseEvent('mouseover', {bubbles: true}));
	setTimeout(() => {
		const onScreen = e => { if (!e) return false; const r = e.getBoundingClientRect(); return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; };
		const inside = (e, box) => { const r = e.getBoundingClientRect(), b = box.getBoundingClientRect(); return r.top >= b.top - 1 && r.bottom <= b.top + box.clientHeight + 1; };
		const box = Array.from(sec.querySelectorAll('svg.kg-grid g.field.kg-hl')).find(e => e.getClientRects().length > 0);
		const byte = Array.from(sec.querySelectorAll('pre.hex .on')).find(e => e.getClientRects().length > 0);
		const panel = sec.querySelector('.detail');
		const covered = (a, b) => { if (!a || !b || b.getClientRects().length === 0) return false; const r = a.getBoundingClientRect(), q = b.getBoundingClientRect(); return r.bottom > q.top && r.top < q.bottom && r.right > q.left && r.left < q.right; };
		const dp = panel && panel.querySelector('.dpath');
		res({Path: n.getAttribute('data-path'), Columns: fig.scrollWidth <= fig.clientWidth + 1, Box: onScreen(box), Byte: onScreen(byte) && inside(byte, byte.closest('pre')),
			Covered: covered(n.querySelector('text'), panel) || covered(box, panel), Stacked: stacked,
			Shown: onScreen(panel) && dp ? dp.getAttribute('data-path') || '' : ''});
	}, 100);
}))()`

type treeHoverResult struct {
	Path, Shown                          string
	Columns, Box, Byte, Covered, Stacked bool
}

type hoverResult struct {
	Path, Shown                      string
	Row, Detail, BoxCovered, Stacked bool
}

// TestPagesReadable opens the index and the pages of Produce, Fetch, Metadata, ApiVersions,
// ShareFetch and Envelope in headless Chromium at 1280, 1440 and 390 CSS px (on a desktop
// screen the 32-bit grid, never the 16-bit one), with the
// drawings' text forced into a font of another advance: no run leaves its box or overlaps
// another, none is under 9 px on the phone, hovering a field shows its tree row (side by side)
// and the detail panel without scrolling, and the arrow keys select fields. All of them light;
// dark, the index and Produce at 1440 and 390 (the dark scheme changes colours only, which
// TestDarkSchemeColoursOnly holds from the pages' style: the layout checked light is the dark
// one). Screenshots go to $ARTIFACTS when it is set (keepShot).
func TestPagesReadable(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pages and drives a browser")
	}
	out := shared40(t)
	bctx, _, art := browser(t)

	pages := []string{"index", "api/Produce", "api/Fetch", "api/Metadata", "api/ApiVersions", "api/ShareFetch", "api/Envelope"}
	for _, screen := range []struct {
		name   string
		w, h   int64
		phone  bool
		minPx  float64
		scheme string
	}{
		{"1280-light", 1280, 800, false, 0, "light"},
		{"1280-dark", 1280, 800, false, 0, "dark"},
		{"1440-light", 1440, 900, false, 0, "light"},
		{"1440-dark", 1440, 900, false, 0, "dark"},
		{"390-light", 390, 844, true, 9, "light"},
		{"390-dark", 390, 844, true, 9, "dark"},
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
		for _, page := range pages {
			if screen.scheme == "dark" && (screen.w == 1280 || page != "index" && page != "api/Produce") {
				continue
			}
			t.Run(screen.name+"/"+page, func(t *testing.T) {
				url := "file://" + filepath.ToSlash(filepath.Join(out, page+".html"))
				if err := chromedp.Do(bctx, chromedp.Navigate(url)); err != nil {
					t.Fatal(err)
				}
				drawLater(t, bctx) // the response and edge cases, drawn when opened (light_test.go)
				if _, err := chromedp.Run(bctx, chromedp.Evaluate[any](pageFont)); err != nil {
					t.Fatal(err)
				}
				// The page fits the screen's width: only a drawing's own figure scrolls sideways.
				wide, err := chromedp.Run(bctx, chromedp.Evaluate[float64](`document.documentElement.scrollWidth - innerWidth`))
				if err != nil {
					t.Fatal(err)
				}
				if wide > 1 {
					t.Errorf("the page is %g px wider than the screen", wide)
				}
				bad, err := chromedp.Run(bctx, chromedp.Evaluate[[]string](fmt.Sprintf("%s(%g)", pageTextCheck, screen.minPx)))
				if err != nil {
					t.Fatal(err)
				}
				for i, b := range bad {
					if i == 10 {
						t.Errorf("… and %d more", len(bad)-10)
						break
					}
					t.Error(b)
				}
				if page != "index" {
					if !screen.phone {
						// Every desktop width shows whole 32-bit rows: never the 16-bit grid.
						g16, err := chromedp.Run(bctx, chromedp.Evaluate[int](`Array.from(document.querySelectorAll('figure.g16')).filter(f => f.getClientRects().length > 0).length`))
						if err != nil {
							t.Fatal(err)
						}
						if g16 > 0 {
							t.Errorf("%d grids of 16 bits a row on a desktop screen", g16)
						}
						th, err := chromedp.Run(bctx, chromedp.Evaluate[treeHoverResult](pageTreeHover, chromedp.EvalAwaitPromise))
						if err != nil {
							t.Fatal(err)
						}
						if !th.Columns {
							t.Errorf("the request's tree is cut off: not every column is inside its figure")
						}
						// Stacked, the grid box is above the tree, off the screen: the page does not
						// jump to it on a hover; the panel and the dump beside the tree say where
						// the row's bytes are.
						if !th.Box && !th.Stacked || !th.Byte || th.Covered {
							t.Errorf("hovering tree row %s: its grid box on screen %v, its bytes in view %v, covered by the panel %v", th.Path, th.Box, th.Byte, th.Covered)
						}
						if th.Stacked && th.Shown != th.Path {
							t.Errorf("hovering tree row %s (grid above the tree): the panel on the screen names %q", th.Path, th.Shown)
						}
					}
					h, err := chromedp.Run(bctx, chromedp.Evaluate[hoverResult](fmt.Sprintf("%s(%v)", pageHover, screen.phone)))
					if err != nil {
						t.Fatal(err)
					}
					if !h.Detail || h.Shown != h.Path {
						t.Errorf("pointing at %s: detail panel in view %v, naming %q", h.Path, h.Detail, h.Shown)
					}
					if h.BoxCovered {
						t.Errorf("pointing at %s: the detail panel covers its grid box", h.Path)
					}
					// Stacked, the tree is below the grid: its row is off the screen, and the
					// panel beside the grid says what the row says (path, type, bytes, value).
					if !screen.phone && !h.Row && !h.Stacked {
						t.Errorf("hovering %s: its tree row is not in view", h.Path)
					}
					// What the reader sees while hovering: the screen, not the page.
					keepShot(t, bctx, art, "kafkagrid-"+strings.ReplaceAll(page, "/", "-")+"-"+screen.name+"-hover.png", chromedp.CaptureScreenshot())
					checkKeyboard(t, bctx)
				}
				keepShot(t, bctx, art, "kafkagrid-"+strings.ReplaceAll(page, "/", "-")+"-"+screen.name+".png", chromedp.FullScreenshot(90))
			})
		}
	}
}

// checkKeyboard focuses the request's byte grid and moves through its fields with the arrow
// keys: the selection follows, the detail panel names it, Escape clears it.
func checkKeyboard(t *testing.T, bctx context.Context) {
	t.Helper()
	if _, err := chromedp.Run(bctx, chromedp.Evaluate[any](`window.scrollTo(0, 0)`)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(bctx, chromedp.Evaluate[any](`Array.from(document.querySelectorAll('#request figure.live')).find(f => f.getClientRects().length > 0 && f.querySelector('svg.kg-grid')).focus()`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(bctx, chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowRight)); err != nil {
		t.Fatalf("keys: %v", err)
	}
	type sel struct{ Want, Sel, Shown string }
	got, err := chromedp.Run(bctx, chromedp.Evaluate[sel](`(() => {
		const sec = document.querySelector('#request');
		const fig = document.activeElement;
		const fields = fig.querySelectorAll('svg.kg-grid [data-path]');
		const s = fig.querySelector('svg.kg-grid .kg-sel');
		const d = sec.querySelector('.detail .dpath');
		return {Want: fields[1].getAttribute('data-path'), Sel: s ? s.getAttribute('data-path') : '', Shown: d ? d.getAttribute('data-path') || '' : ''};
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	if got.Sel != got.Want || got.Shown != got.Want {
		t.Errorf("two right arrows in the request grid: selected %q, panel names %q, want %q", got.Sel, got.Shown, got.Want)
	}
	// The panel's close button hides it and clears the selection.
	closed, err := chromedp.Run(bctx, chromedp.Evaluate[string](`(() => {
		const sec = document.querySelector('#request'), x = sec.querySelector('.detail .dclose');
		if (!x) return 'no close button';
		x.click();
		const p = sec.querySelector('.detail');
		if (p.getClientRects().length > 0) return 'still shown';
		return sec.querySelectorAll('.kg-sel').length ? 'selection left' : '';
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	if closed != "" {
		t.Errorf("the detail panel's close button: %s", closed)
	}
	if _, err := chromedp.Run(bctx, chromedp.Evaluate[any](`Array.from(document.querySelectorAll('#request figure.live')).find(f => f.getClientRects().length > 0 && f.querySelector('svg.kg-grid')).focus()`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(bctx, chromedp.KeyEvent(kb.ArrowRight)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(bctx, chromedp.KeyEvent(kb.Escape)); err != nil {
		t.Fatal(err)
	}
	left, err := chromedp.Run(bctx, chromedp.Evaluate[int](`document.querySelectorAll('#request .kg-sel').length`))
	if err != nil {
		t.Fatal(err)
	}
	if left != 0 {
		t.Errorf("Escape left %d elements selected", left)
	}
}

// TestDarkSchemeColoursOnly: the pages' dark scheme (prefers-color-scheme: dark) sets colours
// and nothing else, so that the layout TestPagesReadable checks in the light scheme is the
// dark scheme's too: every rule of every such block of the index and of an API page's style
// sets a custom property to a colour.
func TestDarkSchemeColoursOnly(t *testing.T) {
	out := shared40(t)
	block := regexp.MustCompile(`@media \(prefers-color-scheme: ?dark\)\s*\{`)
	decl := regexp.MustCompile(`^--[a-z0-9-]+:(#[0-9a-fA-F]{3,8}|rgba?\([0-9., %]+\)|transparent)$`)
	for _, page := range []string{"index.html", "api/Produce.html", "errors.html"} {
		b, err := os.ReadFile(filepath.Join(out, page))
		if err != nil {
			t.Fatal(err)
		}
		found := block.FindAllIndex(b, -1)
		if len(found) == 0 {
			t.Errorf("%s: no dark scheme in its style", page)
		}
		for _, at := range found {
			// The block's text up to its closing brace: rules of the form sel{decl;decl}.
			depth, end := 1, at[1]
			for ; end < len(b) && depth > 0; end++ {
				switch b[end] {
				case '{':
					depth++
				case '}':
					depth--
				}
			}
			body := string(b[at[1] : end-1])
			for _, rule := range strings.Split(body, "}") {
				if strings.TrimSpace(rule) == "" {
					continue
				}
				_, decls, ok := strings.Cut(rule, "{")
				if !ok {
					t.Errorf("%s: dark scheme: %q is not a rule", page, rule)
					continue
				}
				for _, d := range strings.Split(decls, ";") {
					if d = strings.TrimSpace(d); d != "" && !decl.MatchString(d) {
						t.Errorf("%s: the dark scheme sets %q, not a colour", page, d)
					}
				}
			}
		}
	}
}
