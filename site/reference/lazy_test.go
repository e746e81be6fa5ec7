package reference

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site"
	"golang.org/x/net/html"
)

// The ceilings of a page at load (lazy.go): DOM elements as the browser builds them from the
// file, and the bytes it loads before the first paint (the page and what it links to load).
const (
	maxPageElements = 3000
	maxPageBytes    = 800_000
)

// pageCost returns the elements of the HTML file name as a browser's parser makes them at
// load (golang.org/x/net/html runs the same HTML5 tree construction as Chromium, with
// scripting on: inline SVG elements count, the content of a <template> does not, as it is a
// separate fragment until cloned, and neither does that of <noscript>, which is text), and the
// bytes loaded at first paint: the file and each file its elements load (script src,
// stylesheet, img, object, iframe, embed), which must exist beside it. A page that loads from
// the network is an error: the site is static and offline.
func pageCost(name string) (elements int, size int64, err error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return 0, 0, err
	}
	doc, err := html.Parse(bytes.NewReader(b))
	if err != nil {
		return 0, 0, fmt.Errorf("%s: %w", name, err)
	}
	size = int64(len(b))
	seen := map[string]bool{}
	var walk func(n *html.Node) error
	walk = func(n *html.Node) error {
		if n.Type == html.ElementNode {
			elements++
			if n.Data == "template" {
				return nil
			}
			var ref string
			switch n.Data {
			case "script", "img", "iframe", "embed":
				ref = attr(n, "src")
			case "object":
				ref = attr(n, "data")
			case "link":
				if slices.Contains(strings.Fields(attr(n, "rel")), "stylesheet") {
					ref = attr(n, "href")
				}
			}
			if ref != "" {
				if strings.Contains(ref, "://") || strings.HasPrefix(ref, "//") {
					return fmt.Errorf("%s: <%s> loads %s from the network", name, n.Data, ref)
				}
				p := filepath.Join(filepath.Dir(name), filepath.FromSlash(ref))
				if !seen[p] {
					seen[p] = true
					fi, err := os.Stat(p)
					if err != nil {
						return fmt.Errorf("%s: <%s> loads %s: %w", name, n.Data, ref, err)
					}
					size += fi.Size()
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if err := walk(c); err != nil {
				return err
			}
		}
		return nil
	}
	return elements, size, walk(doc)
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val
		}
	}
	return ""
}

func TestPageCost(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.js"), []byte("12345"), 0o644); err != nil {
		t.Fatal(err)
	}
	head := "<!DOCTYPE html><html><head><title>t</title></head><body>" // html, head, title, body: 4
	for _, tc := range []struct {
		name, body string
		elements   int
		extra      int64 // bytes beyond the page's own
		err        string
	}{
		{"plain", "<p>x</p>", 5, 0, ""},
		{"implied", "<p>a<p>b", 6, 0, ""},
		{"inline svg", `<svg viewBox="0 0 1 1"><g><rect/><text>x</text></g></svg>`, 8, 0, ""},
		{"template", `<template><svg><g><rect/></g></svg><p>x</p></template>`, 5, 0, ""},
		{"noscript", `<noscript><p>a</p><p>b</p></noscript>`, 5, 0, ""},
		{"script src", `<script src="a.js"></script><script src="a.js"></script>`, 6, 5, ""},
		{"script in template", `<template><script src="a.js"></script></template>`, 5, 0, ""},
		{"missing", `<img src="b.png">`, 0, 0, "loads b.png"},
		{"network", `<link rel="stylesheet" href="https://example.com/x.css">`, 0, 0, "from the network"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page := head + tc.body + "</body></html>"
			name := filepath.Join(dir, tc.name+".html")
			if err := os.WriteFile(name, []byte(page), 0o644); err != nil {
				t.Fatal(err)
			}
			n, size, err := pageCost(name)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if n != tc.elements || size != int64(len(page))+tc.extra {
				t.Errorf("pageCost = %d elements, %d bytes; want %d, %d", n, size, tc.elements, int64(len(page))+tc.extra)
			}
		})
	}
}

// readLazy returns the drawings of a page's sidecar (lazyName) in its order: [section id, HTML].
// It reads what writeLazy writes: "key": then a JSON string or a String.raw template literal.
func readLazy(t testing.TB, name string) [][2]string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i, j := strings.Index(s, "kgLazy({"), strings.LastIndex(s, "});")
	if i < 0 || j < i {
		t.Fatalf("%s: no kgLazy({…}) call", name)
	}
	rest := s[i+len("kgLazy({") : j]
	var out [][2]string
	for {
		rest = strings.TrimLeft(rest, "\n,")
		if rest == "" {
			return out
		}
		var k, v string
		dec := json.NewDecoder(strings.NewReader(rest))
		if err := dec.Decode(&k); err != nil {
			t.Fatalf("%s: a key: %v", name, err)
		}
		rest = rest[dec.InputOffset():]
		if !strings.HasPrefix(rest, ":") {
			t.Fatalf("%s: %s: no colon", name, k)
		}
		rest = rest[1:]
		if raw, ok := strings.CutPrefix(rest, "String.raw`"); ok {
			end := strings.IndexByte(raw, '`')
			if end < 0 {
				t.Fatalf("%s: %s: the literal does not end", name, k)
			}
			v, rest = raw[:end], raw[end+1:]
		} else {
			dec := json.NewDecoder(strings.NewReader(rest))
			if err := dec.Decode(&v); err != nil {
				t.Fatalf("%s: %s: %v", name, k, err)
			}
			rest = rest[dec.InputOffset():]
		}
		out = append(out, [2]string{k, v})
	}
}

func TestRawLiteral(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{`<svg class="kg">a\b</svg>`, true}, {"é\u2028", true}, {"a`b", false}, {"a${b}", false}, {"a$b{", true},
		{"a\r\nb", false}, {`a\`, false}, {"\xff", false}, {"", true},
	} {
		if got := rawLiteral([]byte(tc.in)); got != tc.want {
			t.Errorf("rawLiteral(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// placeholders returns the data-key of each placeholder (class kg-later) in the page, in order.
func placeholders(t testing.TB, name string) []string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && slices.Contains(strings.Fields(attr(n, "class")), "kg-later") {
			keys = append(keys, attr(n, "data-key"))
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return keys
}

// TestPagesLight builds every version of every API of Kafka 4.0 and 4.1 and holds each page
// under the ceilings at load: maxPageElements DOM elements and maxPageBytes loaded at first
// paint, with site.Elements (writePage's count) equal to the HTML5 parser's. Each page's
// first message is drawn in it; every other one has a placeholder, and the sidecar holds
// exactly those, in page order, each with its grid, tree and hex dump (or its tree alone).
// With -short (the race detector's run, for the build's workers) Kafka 4.1 alone: the run
// without -short checks both.
func TestPagesLight(t *testing.T) {
	rels := []string{"4.0", "4.1"}
	if testing.Short() {
		rels = rels[1:]
	}
	for _, rel := range rels {
		t.Run(rel, func(t *testing.T) { checkPagesLight(t, rel) })
	}
}

func checkPagesLight(t *testing.T, rel string) {
	cat := catalog(t, rel)
	out := t.TempDir()
	if _, err := Build(context.Background(), cat, out, Options{Formats: HTML | SVG, Versions: kafka.AllVersions()}); err != nil {
		t.Fatal(err)
	}
	pages, err := filepath.Glob(filepath.Join(out, "api", "*.html"))
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, filepath.Join(out, "index.html"), filepath.Join(out, "errors.html"))
	if len(pages) < 250 {
		t.Fatalf("%d pages built", len(pages))
	}
	var most, heaviest, over1400, trees int
	var biggest int64
	for _, p := range pages {
		rel, _ := filepath.Rel(out, p)
		n, size, err := pageCost(p)
		if err != nil {
			t.Fatal(err)
		}
		if n >= maxPageElements {
			t.Errorf("%s: %d DOM elements at load, want under %d", rel, n, maxPageElements)
		}
		if size >= maxPageBytes {
			t.Errorf("%s: %d bytes at first paint, want under %d", rel, size, maxPageBytes)
		}
		if b, err := os.ReadFile(p); err != nil {
			t.Fatal(err)
		} else if got := site.Elements(b); got != n {
			t.Errorf("%s: site.Elements = %d, the HTML5 parser makes %d", rel, got, n)
		}
		if n > 1400 {
			over1400++
		}
		most = max(most, n)
		if size > biggest {
			biggest, heaviest = size, n
		}
		if !strings.HasPrefix(rel, "api") {
			continue
		}
		keys := placeholders(t, p)
		if len(keys) == 0 {
			t.Errorf("%s: no message drawn later (every page has a response)", rel)
			continue
		}
		var got []string
		for _, d := range readLazy(t, lazyName(p)) {
			got = append(got, d[0])
			wants := []string{`class="kg kg-grid`, `class="kg kg-tree`, `<pre class="hex h16"`, `class="kg-detail"`}
			if strings.HasSuffix(d[0], "-tree") {
				wants = []string{`class="kg kg-tree`}
				trees++
			}
			for _, want := range wants {
				if !strings.Contains(d[1], want) {
					t.Errorf("%s: %s in the sidecar lacks %s", rel, d[0], want)
				}
			}
		}
		if !slices.Equal(got, keys) {
			t.Errorf("%s: placeholders %v, sidecar %v", rel, keys, got)
		}
	}
	t.Logf("%d pages: at most %d elements, %d over 1,400; the heaviest %d bytes (%d elements); %d with the first tree drawn when asked", len(pages), most, over1400, biggest, heaviest, trees)
}

// FuzzElementsAtLoad: on any input the count ends and is at most the input's '<'s (on the
// pages this package writes it is the HTML5 parser's: TestElementsAtLoadGoldens, TestPagesLight).
func FuzzElementsAtLoad(f *testing.F) {
	for _, name := range []string{"ApiVersions.html.golden", "index.html.golden"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("<p><template><b><template></template></b></template><i><!-- <x> --><script>a<b</script>"))
	f.Add([]byte("<style/><title>x<y</title><noscript><p></noscript><svg><style/></svg>"))
	f.Fuzz(func(t *testing.T, b []byte) {
		n := site.Elements(b)
		if n < 0 || n > bytes.Count(b, []byte("<")) {
			t.Fatalf("site.Elements = %d for %d '<'", n, bytes.Count(b, []byte("<")))
		}
	})
}

func TestElementsAtLoadGoldens(t *testing.T) {
	for _, name := range []string{"ApiVersions.html.golden", "index.html.golden"} {
		p := filepath.Join("testdata", name)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := html.Parse(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		var count func(n *html.Node) int
		count = func(n *html.Node) int {
			c := 0
			if n.Type == html.ElementNode {
				c = 1
				if n.Data == "template" {
					return 1
				}
			}
			for k := n.FirstChild; k != nil; k = k.NextSibling {
				c += count(k)
			}
			return c
		}
		if got, want := site.Elements(b), count(doc); got != want {
			t.Errorf("%s: site.Elements = %d, the HTML5 parser makes %d", name, got, want)
		}
	}
}
