package main

import (
	"cmp"
	"context"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/site/reference"
)

// axeRun runs axe-core over the page (loaded into it before) and returns its violations of
// serious or critical impact, each as its rule, impact, help and the first nodes it names.
const axeRun = `axe.run(document, {resultTypes: ['violations']}).then(r => r.violations
	.filter(v => v.impact === 'serious' || v.impact === 'critical')
	.map(v => v.id + ' (' + v.impact + '): ' + v.help + ': ' + v.nodes.length + ' nodes, ' +
		v.nodes.slice(0, 3).map(n => n.target.join(' ')).join('; ')))`

// axeScript returns axe-core's axe.min.js: $AXE_CORE_JS, which bash .ci/run sets after
// installing the npm package axe-core (pinned) into a cache folder. Without it the test is
// skipped, except under CI, where a missing engine fails it.
func axeScript(t *testing.T) string {
	t.Helper()
	path := os.Getenv("AXE_CORE_JS")
	if path == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("AXE_CORE_JS is not set: bash .ci/run installs axe-core (npm) and sets it")
		}
		t.Skip("AXE_CORE_JS not set: npm install axe-core, then AXE_CORE_JS=.../node_modules/axe-core/axe.min.js")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("AXE_CORE_JS: %v", err)
	}
	return string(b)
}

// TestAccessibility runs axe-core (the accessibility engine, the npm package axe-core) in
// headless Chromium over the pages a reader meets: the 4.0 build's index, the Produce page
// (every message drawn), errors.html and the browser decoder (decode.html, once ready), and a
// capture report's index and an exchange page, at 1440 px light and 390 px dark: none may
// have a violation of serious or critical impact. One browser, six pages, two screens: it
// costs the pages' loading and axe's pass, not a build of its own (the shared 4.0 build and a
// small capture's report).
func TestAccessibility(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a browser")
	}
	axe := axeScript(t)
	out := shared40(t)
	rep := filepath.Join(t.TempDir(), "report")
	pcap := filepath.Join("..", "..", "capture", "testdata", "links", "kfake-eth.pcap")
	// Exit 1: some of the capture's frames do not decode (an ApiVersions v5 a 4.0 broker
	// refuses); the report still holds every exchange.
	if _, errs, code := runCmd(t, "decode", "-schemas", testenv.Release(t, "4.0"), "-o", rep, pcap); code != 0 && code != 1 {
		t.Fatalf("decode %s: exit %d: %s", pcap, code, errs)
	}
	exchange := ""
	all, _ := filepath.Glob(filepath.Join(rep, "exchanges", "*.html"))
	for _, p := range all {
		if b, err := os.ReadFile(p); err == nil && strings.Contains(string(b), "kg-grid") {
			exchange = p
			break
		}
	}
	if exchange == "" {
		t.Fatalf("the report of %s has no exchange page with a grid", pcap)
	}
	pages := []string{
		filepath.Join(out, "index.html"),
		filepath.Join(out, "api", "Produce.html"),
		filepath.Join(out, "errors.html"),
		filepath.Join(out, reference.DecoderPage),
		filepath.Join(rep, "index.html"),
		exchange,
	}
	if _, err := os.Stat(pages[3]); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the build has no %s (go generate ./cmd/kafkagrid makes the decoder it embeds): %v", reference.DecoderPage, err)
		}
		t.Logf("no %s: this kafkagrid was built without the browser decoder (go generate ./cmd/kafkagrid)", reference.DecoderPage)
		pages = append(pages[:3], pages[4:]...)
	}
	bctx, _, _ := browser(t)
	for _, screen := range []reportScreen{
		{"1440-light", 1440, 900, false, "light"},
		{"390-dark", 390, 844, true, "dark"},
	} {
		screen.emulate(t, bctx)
		for _, page := range pages {
			name, _ := filepath.Rel(filepath.Dir(out), page)
			if strings.HasPrefix(page, rep) {
				name, _ = filepath.Rel(filepath.Dir(rep), page)
			}
			t.Run(screen.name+"/"+name, func(t *testing.T) {
				if err := chromedp.Do(bctx, chromedp.Navigate("file://"+filepath.ToSlash(page))); err != nil {
					t.Fatal(err)
				}
				if filepath.Base(page) == reference.DecoderPage {
					// The decoder's controls are enabled once its WebAssembly is ready.
					if _, err := chromedp.Run(bctx, chromedp.Poll[bool](`!document.getElementById("kg-go").disabled || /not load/.test(document.getElementById("kg-status").textContent)`)); err != nil {
						t.Fatal(err)
					}
				}
				axeCheck(t, bctx, axe, "")
				if filepath.Base(page) == reference.DecoderPage {
					decoderStates(t, bctx, axe, out)
				}
			})
		}
	}
}

// axeCheck loads axe-core into the page (unless it is there) and fails t for each violation
// of serious or critical impact; state names what the page shows, "" for as loaded.
func axeCheck(t *testing.T, bctx context.Context, axe, state string) {
	t.Helper()
	if have, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`!!window.axe`)); err != nil || !have {
		if _, err := chromedp.Run(bctx, chromedp.Evaluate[any](axe+";0")); err != nil {
			t.Fatalf("loading axe-core: %v", err)
		}
	}
	bad, err := chromedp.Run(bctx, chromedp.Evaluate[[]string](axeRun, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("axe.run: %v", err)
	}
	for _, b := range bad {
		t.Errorf("%s %s", state, b)
	}
	t.Logf("%s: %d serious or critical violations", cmp.Or(state, "loaded"), len(bad))
}

// decoderStates checks the decoder page (ready) as a reader leaves it: a frame pasted and
// drawn (the build's ApiVersions v4 request, from its bin/), then its report opened, which
// takes the window (the report's own pages are checked as pages of their own).
func decoderStates(t *testing.T, bctx context.Context, axe, out string) {
	t.Helper()
	frame, err := os.ReadFile(filepath.Join(out, "bin", "18-ApiVersions-v4-request.bin"))
	if err != nil {
		t.Fatal(err)
	}
	paste := `(function(){var i=document.getElementById("kg-input"); i.value="` + hex.EncodeToString(frame) +
		`"; i.dispatchEvent(new InputEvent("input",{inputType:"insertFromPaste"})); return true})()`
	for _, s := range []struct{ name, do, until string }{
		{"decoded", paste, `(window.kafkagrid.results||0) > 0 && !!document.getElementById("kg-open-report")`},
		{"report open", `document.getElementById("kg-open-report").click(), true`, loadedJS},
	} {
		if _, err := chromedp.Run(bctx, chromedp.Evaluate[bool](s.do)); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if _, err := chromedp.Run(bctx, chromedp.Poll[bool](s.until)); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		axeCheck(t, bctx, axe, s.name)
	}
}
