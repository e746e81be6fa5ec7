package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/site/report"
)

// reportLinks returns each link on the screen whose text is under 4.5:1 against the
// background it is drawn on (WCAG 2 contrast; the first opaque background of it or an
// ancestor), and how many links it looked at.
const reportLinks = `(() => {
	const rgb = s => { const m = s.match(/color\(srgb ([\d.]+) ([\d.]+) ([\d.]+)(?: \/ ([\d.]+))?/);
		if (m) return [m[1] * 255, m[2] * 255, m[3] * 255, m[4] === undefined ? 1 : +m[4]];
		const n = s.match(/[\d.]+/g).map(Number); return [n[0], n[1], n[2], n.length > 3 ? n[3] : 1]; };
	const lum = c => { const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }; return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
	const bg = e => { for (; e; e = e.parentElement) { const c = rgb(getComputedStyle(e).backgroundColor); if (c[3] > 0.5) return c; } return rgb(getComputedStyle(document.documentElement).backgroundColor); };
	const bad = []; let n = 0;
	for (const a of document.querySelectorAll('a[href]')) {
		if (a.getClientRects().length === 0 || !a.textContent.trim()) continue;
		n++;
		const f = lum(rgb(getComputedStyle(a).color)), b = lum(bg(a));
		const r = (Math.max(f, b) + 0.05) / (Math.min(f, b) + 0.05);
		if (r < 4.5) bad.push(a.textContent.trim().slice(0, 40) + ': ' + r.toFixed(2) + ':1');
	}
	return {Bad: bad, Links: n};
})()`

type linkResult struct {
	Bad   []string
	Links int
}

// TestReportInBrowser is the report's acceptance: the report of the kfake capture
// (kfakeCapture), its index and the pages of an ApiVersions exchange, of a Produce of compressed
// records (nested frames) and of a Fetch, opened in headless Chromium at 390 px (a phone) and
// 1440 px, light and dark: no page scrolls sideways, every link reads at 4.5:1 or more, and on
// the exchange pages the DOM holds at most report.MaxPageElements elements and pointing at (or
// tapping) a field of the grid shows it in the detail panel; every message is drawn live with
// its hex dump (the 794-byte ApiVersions response its first screen), and a nested frame is, or
// links its whole drawing. Screenshots go to $ARTIFACTS when it is set (keepShot).
func TestReportInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("records a capture and drives a browser")
	}
	schemas := testenv.Release(t, "4.0")
	capture, _ := kfakeCapture(t)
	dir := t.TempDir()
	pcap := filepath.Join(dir, "capture.pcapng")
	if err := os.WriteFile(pcap, capture, 0o644); err != nil {
		t.Fatal(err)
	}
	rep := filepath.Join(dir, "report")
	if _, errs, code := runCmd(t, "decode", "-schemas", schemas, "-o", rep, pcap); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	// The pages to open: the first exchange of each API named (the index links them in order).
	pages := []string{"index.html"}
	all, _ := filepath.Glob(filepath.Join(rep, "exchanges", "*.html"))
	for _, api := range []string{"ApiVersions v4", "Produce v12", "Fetch v17"} {
		for _, p := range all {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(b), "<h1>"+api+"</h1>") && (api != "Fetch v17" || strings.Contains(string(b), "decompressed with")) {
				pages = append(pages, "exchanges/"+filepath.Base(p))
				break
			}
		}
	}
	if len(pages) != 4 {
		t.Fatalf("pages %v: want an ApiVersions, a Produce and a Fetch of records", pages)
	}
	bctx, _, art := browser(t)
	for _, screen := range reportScreens {
		screen.emulate(t, bctx)
		for _, page := range pages {
			t.Run(screen.name+"/"+page, func(t *testing.T) {
				if err := chromedp.Do(bctx, chromedp.Navigate("file://"+filepath.ToSlash(filepath.Join(rep, page)))); err != nil {
					t.Fatal(err)
				}
				// Against the screen's width, not innerWidth: a phone widens its layout viewport to
				// a page wider than the screen.
				wide, err := chromedp.Run(bctx, chromedp.Evaluate[float64](fmt.Sprintf(`Math.max(document.documentElement.scrollWidth, innerWidth) - %d`, screen.w)))
				if err != nil {
					t.Fatal(err)
				}
				if wide > 1 {
					over, err := chromedp.Run(bctx, chromedp.Evaluate[[]string](fmt.Sprintf(`Array.from(document.querySelectorAll('body *')).filter(e => e.getBoundingClientRect().right > %d + 1 && !e.closest('figure,pre')).slice(0, 5).map(e => e.tagName + '.' + e.className + ' in ' + e.parentElement.tagName + '.' + e.parentElement.className + ' "' + e.textContent.slice(0, 40) + '" ' + Math.round(e.getBoundingClientRect().left) + '-' + Math.round(e.getBoundingClientRect().right))`, screen.w)))
					if err != nil {
						t.Fatal(err)
					}
					t.Errorf("the page is %g px wider than the screen: %v", wide, over)
				}
				links, err := chromedp.Run(bctx, chromedp.Evaluate[linkResult](reportLinks))
				if err != nil {
					t.Fatal(err)
				}
				if links.Links == 0 {
					t.Error("no link on the page")
				}
				for _, b := range links.Bad {
					t.Errorf("link under 4.5:1: %s", b)
				}
				if page != "index.html" {
					n, err := chromedp.Run(bctx, chromedp.Evaluate[int](`document.getElementsByTagName('*').length`))
					if err != nil {
						t.Fatal(err)
					}
					if n > report.MaxPageElements {
						t.Errorf("%d elements in the DOM, more than a page's %d", n, report.MaxPageElements)
					}
					has, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`!!document.querySelector('section.msg figure.live svg.kg-grid g.field[data-path]')`))
					if err != nil {
						t.Fatal(err)
					}
					if !has {
						t.Fatal("no live grid on the page")
					}
					// Every message is drawn live, linked to its bytes (a big one its first screen,
					// with a link to the whole); a nested frame is, or links where it is drawn.
					bad, err := chromedp.Run(bctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('section.msg')].filter(s => !(s.querySelector('figure.live svg.kg-grid g.field[data-path]') && s.querySelector('pre.hex span[data-o]')) && !(s.classList.contains('nested') && s.querySelector('p.note.cut a[href]'))).map(s => s.id)`))
					if err != nil {
						t.Fatal(err)
					}
					if len(bad) > 0 {
						t.Errorf("sections neither drawn live with their bytes nor linking where they are: %v", bad)
					}
					h, err := chromedp.Run(bctx, chromedp.Evaluate[hoverResult](fmt.Sprintf("%s(%v)", pageHover, screen.phone)))
					if err != nil {
						t.Fatal(err)
					}
					if !h.Detail || h.Shown != h.Path {
						t.Errorf("pointing at %s: detail panel in view %v, naming %q", h.Path, h.Detail, h.Shown)
					}
				}
				// What the reader sees: the top of the page, and its first message (kept when
				// $ARTIFACTS asks for screenshots).
				for _, at := range []string{"top", "msg"} {
					if art == "" {
						break
					}
					if _, err := chromedp.Run(bctx, chromedp.Evaluate[bool](fmt.Sprintf(`(() => { const m = document.querySelector('section.msg'); if (%q === 'msg' && m) m.scrollIntoView(); else scrollTo(0, 0); return true })()`, at))); err != nil {
						t.Fatal(err)
					}
					keepShot(t, bctx, art, "kafkagrid-report-"+strings.TrimSuffix(filepath.Base(page), ".html")+"-"+screen.name+"-"+at+".png", chromedp.CaptureScreenshot())
				}
			})
		}
	}
}

// reportScreen is a screen the report is read on.
type reportScreen struct {
	name   string
	w, h   int64
	phone  bool
	scheme string // prefers-color-scheme
}

var reportScreens = []reportScreen{
	{"390-dark", 390, 844, true, "dark"},
	{"390-light", 390, 844, true, "light"},
	{"1440-dark", 1440, 900, false, "dark"},
	{"1440-light", 1440, 900, false, "light"},
}

// emulate makes the browser's page the screen s: its size, a phone's touch and viewport, and
// the reader's colour scheme.
func (s reportScreen) emulate(t *testing.T, bctx context.Context) {
	t.Helper()
	var opts []chromedp.EmulateViewportOption
	if s.phone {
		opts = append(opts, chromedp.EmulateMobile)
	}
	if err := chromedp.Do(bctx, chromedp.EmulateViewport(s.w, s.h, opts...)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(bctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: s.scheme}}}); err != nil {
		t.Fatal(err)
	}
}
