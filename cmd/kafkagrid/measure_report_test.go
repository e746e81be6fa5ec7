//go:build measure

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
)

// reportPageJS counts, on a report's exchange page, its messages, those drawn live with their
// bytes (a grid of named fields and a hex dump of addressed bytes), the nested frames (a
// compressed record set's records) that link to where they are drawn instead, the static
// pictures (an SVG image or object, not a live drawing), the notes that say a part is not
// drawn with no link beside them, and how much wider than the screen (%d px) the page is.
const reportPageJS = `(() => {
	const msgs = [...document.querySelectorAll('section.msg')];
	const live = msgs.filter(s => s.querySelector('figure.live svg.kg-grid g.field[data-path]') && s.querySelector('pre.hex span[data-o]'));
	const linked = msgs.filter(s => !live.includes(s) && s.classList.contains('nested') && s.querySelector('p.note.cut a[href]'));
	const unlinked = [...document.querySelectorAll('p, li, td, figcaption')].filter(e => /not drawn/i.test(e.textContent) && !e.querySelector('a[href]'));
	const pictures = document.querySelectorAll('img[src$=".svg"], object[data$=".svg"]').length;
	return {Msgs: msgs.length, Live: live.length, Linked: linked.length, Bad: msgs.filter(s => !live.includes(s) && !linked.includes(s)).map(s => s.id),
		Unlinked: unlinked.map(e => e.textContent.trim().slice(0, 80)), Pictures: pictures,
		Wider: Math.max(document.documentElement.scrollWidth, innerWidth) - %d};
})()`

type reportPage struct {
	Msgs, Live, Linked, Pictures int
	Bad, Unlinked                []string
	Wider                        float64
}

// measureCapture is the capture the report is measured on: KG_CAPTURE, else the capture of
// dissector's clientTraffic (franz-go clients of five codecs against kfake, 118 frames),
// written by its test.
func measureCapture(t *testing.T) string {
	if c := os.Getenv("KG_CAPTURE"); c != "" {
		return c
	}
	out := filepath.Join(t.TempDir(), "client.pcapng")
	cmd := exec.Command("go", "test", "./dissector", "-run", "TestWriteClientCapture", "-count=1", "-clientcapture", out)
	cmd.Dir = filepath.Join("..", "..")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("writing the client capture: %v\n%s", err, b)
	}
	return out
}

// TestMeasureReport: item 4, a capture's report as a debugger reads it, at 1280 and 390 px:
// every message drawn live with its bytes (a big one its first screen, linking the whole) or,
// nested, linking where it is drawn; no static picture; no "not drawn" without a link; the
// index's Client id and Errors columns; no page wider than a phone's screen.
func TestMeasureReport(t *testing.T) {
	capture := measureCapture(t)
	rep := filepath.Join(t.TempDir(), "report")
	_, errs, code := runCmd(t, "decode", "-schemas", testenv.Release(t, "4.0"), "-o", rep, capture)
	if code != 0 && code != 1 {
		t.Fatalf("decode %s: exit %d: %s", capture, code, errs)
	}
	t.Logf("decode: %s", strings.TrimSpace(errs))
	index, err := os.ReadFile(filepath.Join(rep, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	cols := strings.Contains(string(index), "<th>Client id</th>") && strings.Contains(string(index), "<th>Errors</th>")
	measured(t, "report: index columns Client id and Errors", filepath.Base(capture), fmt.Sprint(cols), "true", cols)
	pages, _ := filepath.Glob(filepath.Join(rep, "exchanges", "*.html"))
	bctx, _, _ := browser(t)
	for _, s := range measureScreens {
		if s.scheme != "light" || s.w != 1280 && s.w != 390 {
			continue
		}
		s.emulate(t, bctx)
		var sum reportPage
		var bad, unlinked, wide []string
		for _, p := range pages {
			open(t, bctx, p)
			r := eval[reportPage](t, bctx, fmt.Sprintf(reportPageJS, s.w))
			sum.Msgs += r.Msgs
			sum.Live += r.Live
			sum.Linked += r.Linked
			sum.Pictures += r.Pictures
			for _, id := range r.Bad {
				bad = append(bad, filepath.Base(p)+"#"+id)
			}
			for _, u := range r.Unlinked {
				unlinked = append(unlinked, filepath.Base(p)+": "+u)
			}
			if r.Wider > 1 {
				wide = append(wide, fmt.Sprintf("%s +%.0f px", filepath.Base(p), r.Wider))
			}
		}
		where := fmt.Sprintf("%s, %d exchange pages, %s", filepath.Base(capture), len(pages), s.name)
		measured(t, "report: messages drawn live with their bytes, or nested and linking where they are drawn", where,
			fmt.Sprintf("%d live + %d linked of %d; not: %v", sum.Live, sum.Linked, sum.Msgs, bad), "all", len(bad) == 0 && sum.Msgs > 0)
		measured(t, "report: static pictures", where, fmt.Sprint(sum.Pictures), "0", sum.Pictures == 0)
		measured(t, "report: \"not drawn\" with no link", where, fmt.Sprintf("%d %q", len(unlinked), unlinked), "0", len(unlinked) == 0)
		measured(t, "report: pages wider than the screen", where, fmt.Sprintf("%d %v", len(wide), wide), "0", len(wide) == 0)
	}
}

// TestMeasureShots writes what a reader sees of the index, Produce, errors.html, the decoder
// page and a report's index and exchange at every screen (1280, 1440, 1600 and 390 px, light
// and dark), the top of each page, to $ARTIFACTS (else the temp folder's kafkagrid-artifacts):
// the pictures the review of the Deliver list looks at.
func TestMeasureShots(t *testing.T) {
	site := measureSite(t)
	repIndex, exchange := measureReport(t)
	bctx, _, art := browser(t)
	pages := map[string]string{"index": filepath.Join(site, "index.html"), "produce": filepath.Join(site, "api", "Produce.html"),
		"errors": filepath.Join(site, "errors.html"), "decode": filepath.Join(site, "decode.html"), "report": repIndex, "exchange": exchange}
	for _, s := range measureScreens {
		s.emulate(t, bctx)
		for name, p := range pages {
			open(t, bctx, p)
			drawLater(t, bctx)
			shot, err := chromedp.Run(bctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(art, "look-"+name+"-"+s.name+".png"), shot, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}
