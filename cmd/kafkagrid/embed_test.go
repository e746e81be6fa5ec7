package main

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
)

// The tests of docs/embedding.md's recipes, each run with the real tool (Debian's asciidoctor,
// asciidoctor-pdf, pandoc, hugo, mkdocs; the npm packages of docs/embed/package.json), as a
// documenter would run it. A tool that is not installed skips its test here, and fails it in CI
// (.ci/run installs them all).

// embedTool returns the path of a tool a recipe runs, skipping the test without it (failing
// it in CI, which installs every one).
func embedTool(t *testing.T, name, pkg string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is required in CI (.ci/run installs %s): %v", name, pkg, err)
		}
		t.Skipf("%s not installed (Debian's %s): the recipe is not run here", name, pkg)
	}
	return p
}

// repoFile is a file of the repository, by its path from the root.
func repoFile(t *testing.T, path string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", filepath.FromSlash(path)))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// runTool runs a tool in dir and fails the test with its output when it fails.
func runTool(t *testing.T, dir string, env []string, name string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, out)
	}
	return out
}

// darkShare returns the share of near-black pixels (every channel below 64) in the box of
// every pixel that is not near white in img above its bottom tenth (a page's footer): about
// 1 for a figure printed as a black box, a few hundredths for a grid's text and rules.
func darkShare(img image.Image) (float64, image.Rectangle) {
	b := img.Bounds()
	box := image.Rectangle{}
	bottom := b.Max.Y - b.Dy()/10
	for y := b.Min.Y; y < bottom; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r>>8 < 240 || g>>8 < 240 || bl>>8 < 240 {
				box = box.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	if box.Empty() {
		return 0, box
	}
	dark := 0
	for y := box.Min.Y; y < box.Max.Y; y++ {
		for x := box.Min.X; x < box.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r>>8 < 64 && g>>8 < 64 && bl>>8 < 64 {
				dark++
			}
		}
	}
	return float64(dark) / float64(box.Dx()*box.Dy()), box
}

// TestEmbedAsciidoctorPDF prints examples/protocols/ipv4.yaml's SVG with Asciidoctor PDF
// (prawn-svg) through the server and asciidoctor-kroki, as docs/embedding.md says, and reads
// the page back with poppler: the figure is in colour (under a quarter of its pixels near
// black; a black box, as var() colours printed, is all of them), no operator poppler refuses
// (textLength's "e-15 Tc"), and format=rfcsvg prints too.
func TestEmbedAsciidoctorPDF(t *testing.T) {
	pdf := embedTool(t, "asciidoctor-pdf", "ruby-asciidoctor-pdf")
	ppm := embedTool(t, "pdftoppm", "poppler-utils")
	if exec.Command("ruby", "-e", "require 'asciidoctor-kroki'").Run() != nil {
		embedTool(t, "asciidoctor-kroki (ruby)", "ruby-asciidoctor-kroki")
	}
	s := startServe(t, "-q")
	for _, tc := range []struct{ name, attrs, want string }{
		{"svg", "bytegrid", `class="kg kg-grid `}, {"rfcsvg", "bytegrid,format=rfcsvg", `baseProfile="tiny"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			doc := ":kroki-server-url: " + s.base + "\n:kroki-fetch-diagram:\n\n[" + tc.attrs + "]\n....\ninclude::" + repoFile(t, "examples/protocols/ipv4.yaml") + "[]\n....\n"
			src := filepath.Join(dir, tc.name+".adoc")
			os.WriteFile(src, []byte(doc), 0o644)
			out := runTool(t, dir, nil, pdf, "-r", "asciidoctor-kroki", "-r", repoFile(t, "docs/asciidoctor-kafkagrid.rb"), "--failure-level", "WARN", src)
			if len(bytes.TrimSpace(out)) > 0 {
				t.Errorf("asciidoctor-pdf said: %s", out)
			}
			svgs, _ := filepath.Glob(filepath.Join(dir, "diag-*.svg"))
			if len(svgs) != 1 {
				t.Fatalf("%d SVG files fetched, want 1", len(svgs))
			}
			if b, _ := os.ReadFile(svgs[0]); !bytes.Contains(b, []byte(tc.want)) {
				t.Errorf("the SVG fetched lacks %s: %.300s", tc.want, b)
			}
			cmd := exec.Command(ppm, "-r", "50", "-png", "-f", "1", "-l", "1", filepath.Join(dir, tc.name+".pdf"), filepath.Join(dir, tc.name))
			msgs, err := cmd.CombinedOutput()
			if err != nil || len(msgs) > 0 {
				t.Fatalf("pdftoppm: %v: %s", err, msgs)
			}
			f, err := os.Open(filepath.Join(dir, tc.name+"-1.png"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			img, err := png.Decode(f)
			if err != nil {
				t.Fatal(err)
			}
			share, box := darkShare(img)
			t.Logf("%s: the figure's box %v, %.1f%% of its pixels near black", tc.name, box, 100*share)
			if box.Dx() < img.Bounds().Dx()/2 || box.Dy() < img.Bounds().Dy()/5 {
				t.Errorf("the figure is %v on a page of %v: not printed whole", box, img.Bounds())
			}
			if share >= 0.25 {
				t.Errorf("%.0f%% of the printed figure is near black (want under 25%%)", 100*share)
			}
		})
	}
}

// inlineSVGs are the inline SVGs of a page, as md -inline writes them.
var inlineSVGs = regexp.MustCompile(`(?s)<svg xmlns=.*?</svg>`)

// TestEmbedPandoc: md -inline, then pandoc as docs/embedding.md says (-f gfm: Pandoc's own
// Markdown would read the SVG's text as Markdown, curling its quotes): the page holds the
// SVGs byte for byte.
func TestEmbedPandoc(t *testing.T) {
	pandoc := embedTool(t, "pandoc", "pandoc")
	dir := t.TempDir()
	src := filepath.Join(dir, "src.md")
	os.WriteFile(src, []byte("# Headers\n\nUDP:\n\n```bytegrid\n"+readRepo(t, "examples/protocols/udp.yaml")+"```\n\nA quote: \"x\".\n"), 0o644)
	md, errs, code := runCmd(t, "md", "-inline", src)
	if code != 0 {
		t.Fatalf("md: exit %d: %s", code, errs)
	}
	os.WriteFile(filepath.Join(dir, "page.md"), []byte(md), 0o644)
	page := string(runTool(t, dir, nil, pandoc, "-f", "gfm", "-t", "html5", "-s", "--metadata", "title=T", "page.md"))
	want := inlineSVGs.FindAllString(md, -1)
	if len(want) != 1 {
		t.Fatalf("md wrote %d inline SVGs", len(want))
	}
	if !strings.Contains(page, want[0]) {
		t.Errorf("pandoc changed the inline SVG:\n%.3000s", page)
	}
	if !strings.Contains(page, "“x”") && !strings.Contains(page, `"x"`) {
		t.Errorf("the text around it is lost:\n%.3000s", page)
	}
}

// readRepo reads a file of the repository.
func readRepo(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(repoFile(t, path))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestEmbedHugo runs both Hugo recipes: pages pre-rendered by md -inline (Goldmark's unsafe
// renderer keeps the SVG), and the render hook docs/embed/hugo ships, which asks the server
// for each block with its {key=value} attributes as options (rowbits=16 narrows the grid,
// theme=dark leaves one palette) and an id of its own (two identical blocks, two ids), and
// fails the build naming the block's position and the server's message on an error.
func TestEmbedHugo(t *testing.T) {
	hugo := embedTool(t, "hugo", "hugo")
	udp := readRepo(t, "examples/protocols/udp.yaml")
	site := func(t *testing.T, content string, hook bool) string {
		dir := t.TempDir()
		os.MkdirAll(filepath.Join(dir, "content"), 0o755)
		os.MkdirAll(filepath.Join(dir, "layouts", "_default", "_markup"), 0o755)
		os.WriteFile(filepath.Join(dir, "config.toml"), []byte("baseURL = \"http://example.org/\"\n"+
			"disableKinds = [\"taxonomy\", \"term\", \"RSS\", \"sitemap\", \"home\", \"section\", \"404\"]\n"+
			"[markup.goldmark.renderer]\nunsafe = true\n"), 0o644)
		os.WriteFile(filepath.Join(dir, "layouts", "_default", "single.html"), []byte("<!doctype html><html><body>{{ .Content }}</body></html>\n"), 0o644)
		if hook {
			for _, typ := range []string{"bytegrid", "kafka"} {
				name := "render-codeblock-" + typ + ".html"
				b := readRepo(t, "docs/embed/hugo/layouts/_default/_markup/"+name)
				os.WriteFile(filepath.Join(dir, "layouts", "_default", "_markup", name), []byte(b), 0o644)
			}
		}
		os.WriteFile(filepath.Join(dir, "content", "p.md"), []byte("---\ntitle: P\n---\n\n"+content), 0o644)
		return dir
	}
	t.Run("pre-render", func(t *testing.T) {
		src := filepath.Join(t.TempDir(), "p.md")
		os.WriteFile(src, []byte("```bytegrid rowbits=16\n"+udp+"```\n"), 0o644)
		md, errs, code := runCmd(t, "md", "-inline", src)
		if code != 0 {
			t.Fatalf("md: exit %d: %s", code, errs)
		}
		dir := site(t, md, false)
		runTool(t, dir, nil, hugo, "--quiet")
		page, _ := os.ReadFile(filepath.Join(dir, "public", "p", "index.html"))
		want := inlineSVGs.FindString(md)
		if want == "" || !strings.Contains(string(page), want) {
			t.Errorf("the page lacks md's inline SVG:\n%.2000s", page)
		}
	})
	t.Run("hook", func(t *testing.T) {
		s := startServe(t, "-q", "-schemas", testenv.Releases(t))
		env := []string{"HUGO_PARAMS_KAFKAGRID=" + s.base}
		block := "```bytegrid {rowbits=16, theme=\"dark\"}\n" + udp + "```\n\n"
		dir := site(t, block+block+"```kafka {view=tree}\napi: Produce\nversion: 9\n```\n", true)
		runTool(t, dir, env, hugo, "--quiet")
		page, _ := os.ReadFile(filepath.Join(dir, "public", "p", "index.html"))
		grid := verbOutput(t, "grid", repoFile(t, "examples/protocols/udp.yaml"), "-format", "svg", "-rowbits", "16", "-theme", "dark")
		tree := verbOutput(t, "show", "Produce", "-version", "9", "-format", "svg", "-tree", "-q", "-schemas", filepath.Join(testenv.Releases(t), "4.0"))
		got := inlineSVGs.FindAll(page, -1)
		rootID := regexp.MustCompile(`^<svg [^>]*?id="([^"]+)"`)
		if len(got) != 3 {
			t.Fatalf("%d SVGs in the page, want 3:\n%.1500s", len(got), page)
		}
		ids := map[string]bool{}
		for i, want := range [][]byte{grid, grid, tree} {
			want = want[bytes.Index(want, []byte("<svg")):]
			id, wantID := rootID.FindSubmatch(got[i]), rootID.FindSubmatch(want)
			if id == nil || wantID == nil {
				t.Fatalf("SVG %d: no id", i+1)
			}
			ids[string(id[1])] = true
			// The hook gives each block an id of its own; the rest is what the verb writes.
			if same := bytes.ReplaceAll(want, wantID[1], id[1]); !bytes.Equal(bytes.TrimSpace(got[i]), bytes.TrimSpace(same)) {
				t.Errorf("SVG %d is not the one the verb writes:\n%.800s\n%.800s", i+1, got[i], same)
			}
		}
		if len(ids) != 3 {
			t.Errorf("the page's SVGs share ids: %v", ids)
		}
		// A bad block fails the build, naming the page and the block.
		dir = site(t, "```bytegrid {rowbits=12}\n"+udp+"```\n", true)
		cmd := exec.Command(hugo)
		cmd.Dir, cmd.Env = dir, append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), "p.md:5:1") || !strings.Contains(string(out), `the bytegrid block: Error 400: option rowbits="12": want 8, 16, 32 or 64`) {
			t.Errorf("a bad option: %v\n%s", err, out)
		}
	})
}

// TestEmbedMkDocs runs MkDocs on pages pre-rendered by md (image links to SVG files beside
// them), the route docs/embedding.md gives while mkdocs-kroki-plugin cannot be installed from
// Debian or npm: the built site links and holds each SVG as md wrote it.
func TestEmbedMkDocs(t *testing.T) {
	mkdocs := embedTool(t, "mkdocs", "mkdocs")
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "src"), 0o755)
	os.WriteFile(filepath.Join(dir, "src", "index.md"), []byte("# Headers\n\n```bytegrid\n"+readRepo(t, "examples/protocols/udp.yaml")+"```\n"), 0o644)
	if _, errs, code := runCmd(t, "md", "-outdir", filepath.Join(dir, "docs"), filepath.Join(dir, "src", "index.md")); code != 0 {
		t.Fatalf("md: exit %d: %s", code, errs)
	}
	os.WriteFile(filepath.Join(dir, "mkdocs.yml"), []byte("site_name: T\nuse_directory_urls: false\n"), 0o644)
	runTool(t, dir, nil, mkdocs, "build", "--quiet", "--strict")
	page, err := os.ReadFile(filepath.Join(dir, "site", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`<img alt="UDP header \(RFC 768\)" src="index-1.svg" */?>`).Match(page) {
		t.Errorf("no image link to index-1.svg:\n%.2000s", page)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "site", "index-1.svg"))
	want, _ := os.ReadFile(filepath.Join(dir, "docs", "index-1.svg"))
	if len(want) == 0 || !bytes.Equal(got, want) {
		t.Errorf("the site's SVG (%d bytes) is not md's (%d)", len(got), len(want))
	}
}

// embedNode returns node and the folder of the npm packages docs/embed/package.json names
// (npm ci --prefix docs/embed installs them), skipping the test without them.
func embedNode(t *testing.T) (node, dir string) {
	t.Helper()
	node = embedTool(t, "node", "nodejs")
	dir = repoFile(t, "docs/embed")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@mdx-js", "mdx")); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("docs/embed/node_modules is required in CI (.ci/run: npm ci --prefix docs/embed): %v", err)
		}
		t.Skip("docs/embed/node_modules not installed (npm ci --prefix docs/embed): the JavaScript recipes are not run here")
	}
	return node, dir
}

// TestEmbedNode runs the JavaScript recipes: md -inline's page through markdown-it and
// remark/rehype (the SVG kept byte for byte), compiled as MDX 3 (the SVG's references read
// back as the CSS and labels md drew; the same page with plain braces does not compile), and
// an AsciiDoc page through Asciidoctor.js with asciidoctor-kroki and docs/embed's shim (the
// server's SVGs embedded, the ones grid and show write).
func TestEmbedNode(t *testing.T) {
	node, dir := embedNode(t)
	tmp := t.TempDir()
	src := filepath.Join(tmp, "src.md")
	os.WriteFile(src, []byte("# Headers\n\nUDP:\n\n```bytegrid\n"+readRepo(t, "examples/protocols/udp.yaml")+"```\n\nThe end.\n"), 0o644)
	md, errs, code := runCmd(t, "md", "-inline", src)
	if code != 0 {
		t.Fatalf("md: exit %d: %s", code, errs)
	}
	page := filepath.Join(tmp, "page.md")
	os.WriteFile(page, []byte(md), 0o644)
	svg := inlineSVGs.FindString(md)
	for _, tool := range []string{"markdown-it", "remark"} {
		t.Run(tool, func(t *testing.T) {
			out := runTool(t, dir, nil, node, filepath.Join(dir, "check", tool+".mjs"), page)
			if svg == "" || !bytes.Contains(out, []byte(svg)) {
				t.Errorf("%s changed the inline SVG:\n%.2000s", tool, out)
			}
		})
	}
	t.Run("mdx", func(t *testing.T) {
		out := string(runTool(t, dir, nil, node, filepath.Join(dir, "check", "mdx.mjs"), page))
		decode := strings.NewReplacer("&#123;", "{", "&#125;", "}", "&#42;", "*")
		style := regexp.MustCompile(`(?s)<style>(.*?)</style>`)
		text := strings.NewReplacer("&gt;", ">", "&lt;", "<", "&amp;", "&") // what a <style> reads as its text
		want, got := style.FindStringSubmatch(text.Replace(decode.Replace(svg))), style.FindStringSubmatch(out)
		if want == nil || got == nil || got[1] != want[1] {
			t.Errorf("MDX's <style> is not md's CSS:\n%q\n%q", got, want)
		}
		if n, m := strings.Count(out, "<text "), strings.Count(svg, "<text "); n != m || n == 0 {
			t.Errorf("MDX's page has %d <text> elements, md's SVG %d", n, m)
		}
		raw := filepath.Join(tmp, "raw.md")
		os.WriteFile(raw, []byte(decode.Replace(md)), 0o644)
		if b, err := exec.Command(node, filepath.Join(dir, "check", "mdx.mjs"), raw).CombinedOutput(); err == nil {
			t.Errorf("MDX compiled an SVG with plain braces: the check cannot fail:\n%.500s", b)
		}
	})
	t.Run("asciidoctor.js", func(t *testing.T) {
		root := testenv.Releases(t)
		s := startServe(t, "-q", "-schemas", root)
		udp := repoFile(t, "examples/protocols/udp.yaml")
		os.WriteFile(filepath.Join(tmp, "udp.yaml"), []byte(readRepo(t, "examples/protocols/udp.yaml")), 0o644)
		doc := filepath.Join(tmp, "doc.adoc")
		os.WriteFile(doc, []byte("= P\n\n[bytegrid]\n....\ninclude::udp.yaml[]\n....\n\n[kafka,view=tree]\n----\napi: Produce\nversion: 9\n----\n"), 0o644)
		out := runTool(t, dir, nil, node, filepath.Join(dir, "check", "asciidoctor.mjs"), doc, s.base)
		want := [][]byte{
			verbOutput(t, "grid", udp, "-format", "svg"),
			verbOutput(t, "show", "Produce", "-version", "9", "-format", "svg", "-tree", "-q", "-schemas", filepath.Join(root, "4.0")),
		}
		got := dataURI.FindAllSubmatch(out, -1)
		if len(got) != len(want) {
			t.Fatalf("%d data-URI images, want %d:\n%.2000s", len(got), len(want), out)
		}
		for i := range want {
			b, err := base64.StdEncoding.DecodeString(string(got[i][1]))
			if err != nil || !bytes.Equal(b, want[i]) {
				t.Errorf("image %d: %v; %d bytes, not the %d the verb writes", i+1, err, len(b), len(want[i]))
			}
		}
	})
}
