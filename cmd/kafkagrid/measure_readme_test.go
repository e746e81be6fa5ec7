//go:build measure

package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/renderer/html"
)

// githubColumnCSS lays the README out as GitHub's repository page does its README, in the
// widths that matter: a phone's column is the screen less 66 px (the page's 16-px margins, the
// box's border, the article's 16-px padding: 324 px on a 390-px phone, where a 567-px
// grid was drawn at 0.57×), a wide screen's 830 px; an image at most the column wide, as
// GitHub's own style sets.
const githubColumnCSS = `body { margin: 0; font: 16px/1.5 -apple-system, "Segoe UI", sans-serif; }
.container { padding: 0 16px; }
.box { border: 1px solid #d0d7de; border-radius: 6px; }
article { padding: 16px; }
article img { max-width: 100%; box-sizing: content-box; }
@media (min-width: 1012px) { .container { width: 896px; } article { padding: 32px; } }
@media (prefers-color-scheme: dark) { body { background: #0d1117; color: #e6edf3; } }`

// readmeImgJS lists the SVG pictures the README shows: the file the browser chose (a
// <picture>'s source or the image), its width on the screen and its own.
const readmeImgJS = `[...document.querySelectorAll('article img')].filter(i => /\.svg$/.test(i.currentSrc))
	.map(i => ({Src: i.currentSrc, Shown: i.getBoundingClientRect().width, Column: i.closest('article').clientWidth - 2 * parseFloat(getComputedStyle(i.closest('article')).paddingLeft)}))`

type readmeImg struct {
	Src           string
	Shown, Column float64
}

var svgViewBoxW = regexp.MustCompile(`viewBox="0 0 ([0-9.]+) `)
var svgTextClass = regexp.MustCompile(`\.(t\d+)\{font-size:([0-9.]+)px`)
var svgText = regexp.MustCompile(`<text class="(t\d+)[ "][^>]*>([^<]*)<`)
var hexPair = regexp.MustCompile(`^[0-9a-f]{2}$`)

// svgSizes returns an SVG file's viewBox width, its smallest text size and its hex bytes'
// size (0 when it is not a byte grid), in its own units.
func svgSizes(t *testing.T, path string) (w, smallest, hex float64) {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := svgViewBoxW.FindSubmatch(b)
	if m == nil {
		t.Fatalf("%s: no viewBox", path)
	}
	w, _ = strconv.ParseFloat(string(m[1]), 64)
	grid := bytes.Contains(b, []byte("kg-grid"))
	sizes := map[string]float64{}
	for _, c := range svgTextClass.FindAllSubmatch(b, -1) {
		sizes[string(c[1])], _ = strconv.ParseFloat(string(c[2]), 64)
	}
	smallest = 1e9
	for _, x := range svgText.FindAllSubmatch(b, -1) {
		s := sizes[string(x[1])]
		if strings.TrimSpace(string(x[2])) == "" || s == 0 {
			continue
		}
		smallest = min(smallest, s)
		if grid && hexPair.Match(x[2]) && (hex == 0 || s < hex) {
			hex = s
		}
	}
	return w, smallest, hex
}

// TestMeasureREADME: item 9, the README's drawings as GitHub shows them: the README rendered
// as GitHub's Markdown does (raw HTML kept), in a page that lays it out in GitHub's README
// column, at 390 px (a phone) and 1280 px, light and dark: each SVG picture's hex bytes and
// smallest text in CSS px. A screenshot of each screen goes to $ARTIFACTS. KG_README_ROOT
// names another checkout to measure (main's before a change).
func TestMeasureREADME(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if r := os.Getenv("KG_README_ROOT"); r != "" { // another checkout's README, to compare
		root, err = filepath.Abs(r)
	}
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var body bytes.Buffer
	if err := goldmark.New(goldmark.WithRendererOptions(html.WithUnsafe())).Convert(src, &body); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(t.TempDir(), "readme.html")
	doc := `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
		`<base href="file://` + filepath.ToSlash(root) + `/"><style>` + githubColumnCSS + `</style></head><body><div class="container"><div class="box"><article>` +
		body.String() + `</article></div></div></body></html>`
	if err := os.WriteFile(page, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	bctx, _, art := browser(t)
	for _, s := range measureScreens {
		if s.w != 390 && s.w != 1280 {
			continue
		}
		s.emulate(t, bctx)
		open(t, bctx, page)
		eval[any](t, bctx, `Promise.all([...document.images].map(i => i.decode().catch(() => 0)))`, chromedp.EvalAwaitPromise)
		for _, im := range eval[[]readmeImg](t, bctx, readmeImgJS) {
			file := strings.TrimPrefix(im.Src, "file://")
			w, smallest, hex := svgSizes(t, file)
			scale := im.Shown / w
			name, _ := filepath.Rel(root, file)
			fig := fmt.Sprintf("%s at %.2f× in a %.0f-px column: smallest text %.1f px", name, scale, im.Column, smallest*scale)
			ok := smallest*scale >= 9-0.01
			if hex > 0 {
				fig += fmt.Sprintf(", hex bytes %.1f px", hex*scale)
			}
			measured(t, "README: an SVG picture's text", s.name, fig, "≥ 9 px", ok)
		}
		keepShot(t, bctx, art, "readme-"+s.name+".jpg", chromedp.FullScreenshot(80))
	}
}
