package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site/outdir"
)

// needTool returns the path of an external tool. Outside CI a missing tool skips the test; in
// CI (CI set) it fails it.
func needTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is required in CI (apt-get install -y qpdf poppler-utils chromium): %v", name, err)
		}
		t.Skipf("%s not installed", name)
	}
	return p
}

// treeFiles lists the files under dir (slash-separated, relative, sorted), but the build's
// manifest.
func treeFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && d.Name() != outdir.ManifestName {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

func buildInto(t *testing.T, out string, args ...string) {
	t.Helper()
	_, stderr, code := runCmd(t, append([]string{"build", "-q", "-out", out}, args...)...)
	if code != 0 {
		t.Fatalf("build %v: exit %d: %s", args, code, stderr)
	}
}

// built40 is the one whole 4.0 reference the tests that read a build share: built on first use
// by shared40, into a folder TestMain removes when the tests end.
var built40 struct {
	once sync.Once
	root string // made by TestMain
	dir  string
	err  error
}

// shared40 returns the folder of the whole 4.0 reference as "build" makes it by default (every
// version; with -short, -versions highest), built once per test process. A file the build did not write,
// svg/README.mine, is put there first; the build must leave it alone.
func shared40(t *testing.T) string {
	t.Helper()
	root := listSchemaRoot(t)
	built40.once.Do(func() {
		if built40.root == "" {
			built40.err = errors.New("shared40: TestMain made no folder for the shared build")
			return
		}
		out := filepath.Join(built40.root, "4.0")
		mine := filepath.Join(out, "svg", "README.mine")
		if err := os.MkdirAll(filepath.Dir(mine), 0o755); err != nil {
			built40.err = err
			return
		}
		if err := os.WriteFile(mine, []byte("not the build's"), 0o644); err != nil {
			built40.err = err
			return
		}
		args := []string{"build", "-q", "-out", out, "-schemas", filepath.Join(root, "4.0")}
		if testing.Short() {
			args = append(args, "-versions", "highest")
		}
		if _, stderr, code := runCmd(t, args...); code != 0 {
			built40.err = fmt.Errorf("build %v: exit %d: %s", args, code, stderr)
			return
		}
		built40.dir = out
	})
	if built40.err != nil {
		t.Fatal(built40.err)
	}
	return built40.dir
}

// versions40 is the -versions of the shared 4.0 build: every version, or with -short (the run
// under the race detector) the highest.
func versions40() string {
	if testing.Short() {
		return "highest"
	}
	return "all"
}

// TestBuild40 checks the whole 4.0 reference as a user would meet it: file counts, valid SVG,
// resolving links, the PDF (qpdf, pdffonts, pdftotext, outline) and a real browser; that a
// second build gives the same bytes, TestREADMECommands checks (sameTree).
func TestBuild40(t *testing.T) {
	root := listSchemaRoot(t)
	out := shared40(t)
	mine := filepath.Join(out, "svg", "README.mine")
	files := treeFiles(t, out)
	cat, err := kafka.LoadCatalog(filepath.Join(root, "4.0"))
	if err != nil {
		t.Fatal(err)
	}
	versions := 0
	for _, a := range cat.APIs {
		for v := a.Lowest; v <= a.Version; v++ {
			if a.Request.ValidIn(v) && (versions40() == "all" || v == a.Version) {
				versions++
			}
		}
	}

	t.Run("files", func(t *testing.T) {
		count := map[string]int{}
		for _, f := range files {
			count[strings.SplitN(f, "/", 2)[0]+"|"+filepath.Ext(f)]++
		}
		// Every version (279 of 84 APIs, 558 frames; with -short the 84 highest), and the edge
		// cases' frames.
		es, err := cat.EdgeCases()
		if err != nil {
			t.Fatal(err)
		}
		edges := 0
		for _, e := range es {
			if e.Request != nil {
				edges++
			}
			if e.Response != nil {
				edges++
			}
		}
		want := map[string]int{"svg|.svg": 4*versions + 2*edges, "api|.html": versions, "api|.js": versions, "index.html|.html": 1, "errors.html|.html": 1, "primitives.html|.html": 1,
			"kafka-4.0-protocol.pdf|.pdf": 1, "bin|.bin": 2*versions + edges, "json|.json": 2*versions + edges,
			"txt|.txt": 2*versions + edges, "svg|.mine": 1}
		decoder := 0 // the browser decoder, when this kafkagrid has it (go generate)
		if webDecoder() != nil {
			want["decode.html|.html"], want["decode|.js"], decoder = 1, 4, 5
		}
		for k, n := range want {
			if count[k] != n {
				t.Errorf("%s: %d files, want %d", k, count[k], n)
			}
		}
		if versions40() == "all" && versions != 279 {
			t.Errorf("4.0 has %d versions, want 279", versions)
		}
		if len(files) != 4*versions+2*edges+2*versions+1+1+1+1+3*(2*versions+edges)+1+decoder { // each page and its sidecar of drawings (lazy.go)
			t.Errorf("%d files in all", len(files))
		}
		if b, _ := os.ReadFile(mine); string(b) != "not the build's" {
			t.Error("the build changed a file it did not write")
		}
		for _, a := range cat.APIs {
			for _, side := range []string{"request", "response"} {
				v := a.Lowest
				if versions40() != "all" {
					v = a.Version
				}
				base := fmt.Sprintf("%d-%s-v%d-%s", a.Key, a.Name, v, side)
				for _, f := range []string{"bin/" + base + ".bin", "json/" + base + ".json", "txt/" + base + ".txt",
					"svg/" + base + "-grid.svg", "svg/" + base + "-tree.svg"} {
					if _, err := os.Stat(filepath.Join(out, f)); err != nil {
						t.Errorf("missing %s", f)
					}
				}
			}
		}
	})

	t.Run("svg", func(t *testing.T) {
		svgs, _ := filepath.Glob(filepath.Join(out, "svg", "*.svg"))
		for _, s := range svgs {
			b, err := os.ReadFile(s)
			if err != nil {
				t.Fatal(err)
			}
			var doc struct {
				XMLName xml.Name
				ViewBox string `xml:"viewBox,attr"`
				Role    string `xml:"role,attr"`
				Title   string `xml:"title"`
			}
			if err := xml.Unmarshal(b, &doc); err != nil {
				t.Errorf("%s: %v", filepath.Base(s), err)
				continue
			}
			if doc.XMLName.Local != "svg" || doc.ViewBox == "" || doc.Role != "img" || doc.Title == "" {
				t.Errorf("%s: root %s viewBox %q role %q title %q", filepath.Base(s), doc.XMLName.Local, doc.ViewBox, doc.Role, doc.Title)
			}
			if bytes.Contains(b, []byte("http://")) && !bytes.Contains(b, []byte(`xmlns="http://www.w3.org/2000/svg"`)) {
				t.Errorf("%s refers to the network", filepath.Base(s))
			}
		}
	})

	t.Run("links", func(t *testing.T) { checkPageLinks(t, out, versions+3) }) // the pages, the index, the error codes and the primitive types

	t.Run("frames", func(t *testing.T) {
		// Every .bin decodes to the API and version its name says, and matches its .json.
		for _, a := range cat.APIs {
			for _, side := range []string{"request", "response"} {
				base := fmt.Sprintf("%d-%s-v%d-%s", a.Key, a.Name, a.Version, side)
				bin, err := os.ReadFile(filepath.Join(out, "bin", base+".bin"))
				if err != nil {
					t.Fatal(err)
				}
				var j struct {
					API  string `json:"api"`
					Size int    `json:"size"`
					Hex  string `json:"hex"`
				}
				jb, _ := os.ReadFile(filepath.Join(out, "json", base+".json"))
				if err := json.Unmarshal(jb, &j); err != nil {
					t.Errorf("%s.json: %v", base, err)
					continue
				}
				if j.API != a.Name || j.Size != len(bin) || j.Hex != fmt.Sprintf("%x", bin) {
					t.Errorf("%s.json does not describe %s.bin", base, base)
				}
			}
		}
	})

	t.Run("pdf", func(t *testing.T) {
		if testing.Short() {
			t.Skip("the book's content is checked by the run without -short (qpdf, poppler)")
		}
		checkBook(t, filepath.Join(out, "kafka-4.0-protocol.pdf"), cat)
	})

	t.Run("browser", func(t *testing.T) {
		if testing.Short() {
			t.Skip("the pages are checked in Chromium by the run without -short")
		}
		fetches := 0
		for _, a := range cat.APIs {
			if strings.Contains(strings.ToLower(a.Name), "fetch") {
				fetches++
			}
		}
		checkInBrowser(t, out, fetches)
	})

	// A second build giving the same bytes: TestREADMECommands builds the same reference
	// (the README's "kafkagrid build -schemas … -out kafka-ref", by the installed command in a
	// process of its own) and compares it with this one, file by file (sameTree).
}

// sameTree fails the test unless the folder again holds the files of the shared 4.0 build in
// out (but the file of the user's it holds, svg/README.mine), each with the same bytes.
func sameTree(t *testing.T, out, again string) {
	t.Helper()
	got := treeFiles(t, again)
	var wantFiles []string
	for _, f := range treeFiles(t, out) {
		if f != "svg/README.mine" {
			wantFiles = append(wantFiles, f)
		}
	}
	if strings.Join(got, "\n") != strings.Join(wantFiles, "\n") {
		t.Fatalf("the second build wrote other files: %d, the first %d", len(got), len(wantFiles))
	}
	for _, f := range got {
		a, _ := os.ReadFile(filepath.Join(out, f))
		b, _ := os.ReadFile(filepath.Join(again, f))
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between two builds", f)
		}
	}
}

// checkPageLinks resolves every link of every page to a file, and every fragment to an id.
func checkPageLinks(t *testing.T, out string, want int) {
	pages, _ := filepath.Glob(filepath.Join(out, "*.html"))
	more, _ := filepath.Glob(filepath.Join(out, "api", "*.html"))
	pages = append(pages, more...)
	if webDecoder() != nil {
		want++ // decode.html, the browser decoder (go generate)
	}
	if len(pages) != want {
		t.Errorf("%d pages, want %d", len(pages), want)
	}
	// Each page is read and scanned once: its ids (checked unique) and its links.
	type page struct {
		ids   map[string]bool
		links []string
	}
	scanned := map[string]*page{}
	scan := func(p string) *page {
		if pg, ok := scanned[p]; ok {
			return pg
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		pg := &page{ids: map[string]bool{}}
		for _, id := range attrValues(b, "id") {
			if pg.ids[id] {
				t.Errorf("%s: id %q is not unique", filepath.Base(p), id)
			}
			pg.ids[id] = true
		}
		pg.links = append(attrValues(b, "href"), attrValues(b, "src")...)
		scanned[p] = pg
		return pg
	}
	n := 0
	for _, p := range pages {
		for _, link := range scan(p).links {
			target, frag, _ := strings.Cut(link, "#")
			if strings.Contains(target, ":") {
				t.Errorf("%s: a link leaves the reference: %s", p, target)
				continue
			}
			file := p
			if target != "" {
				file = filepath.Join(filepath.Dir(p), filepath.FromSlash(target))
				if _, err := os.Stat(file); err != nil {
					t.Errorf("%s: broken link %s", filepath.Base(p), target)
					continue
				}
			}
			if frag != "" && strings.HasSuffix(file, ".html") && !scan(file).ids[frag] {
				t.Errorf("%s: link %s#%s names no element", filepath.Base(p), target, frag)
			}
			n++
		}
	}
	if n < want*10 {
		t.Errorf("only %d links checked", n)
	}
}

// attrValues returns the values of every name="..." attribute in an HTML or SVG document, in
// one pass: an attribute is name=" preceded by white space.
func attrValues(doc []byte, name string) []string {
	var vals []string
	key := []byte(name + `="`)
	for i := 0; ; {
		j := bytes.Index(doc[i:], key)
		if j < 0 {
			return vals
		}
		at := i + j
		i = at + len(key)
		if at == 0 || !isSpace(doc[at-1]) {
			continue
		}
		end := bytes.IndexByte(doc[i:], '"')
		if end < 0 {
			return vals
		}
		vals = append(vals, string(doc[i:i+end]))
		i += end + 1
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }

// checkBook checks the PDF book with qpdf and poppler's tools.
func checkBook(t *testing.T, pdf string, cat *kafka.Catalog) {
	qpdf := needTool(t, "qpdf")
	if out, err := exec.Command(qpdf, "--check", pdf).CombinedOutput(); err != nil {
		t.Errorf("qpdf --check: %v\n%s", err, out)
	}
	fonts, err := exec.Command(needTool(t, "pdffonts"), pdf).Output()
	if err != nil {
		t.Fatalf("pdffonts: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(fonts)), "\n")
	if len(lines) < 3 {
		t.Errorf("pdffonts lists no fonts:\n%s", fonts)
	}
	for _, l := range lines[2:] {
		// name type encoding emb sub uni object ID: emb is the fifth field from the end.
		f := strings.Fields(l)
		if len(f) < 7 || f[len(f)-5] != "yes" {
			t.Errorf("font not embedded: %s", l)
		}
	}
	// Every word lies on its page, inside the margins the book keeps (at least 20 pt).
	text, err := exec.Command(needTool(t, "pdftotext"), "-bbox", pdf, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	checkWordsOnPage(t, text)
	for _, a := range cat.APIs {
		if !bytes.Contains(text, []byte(a.Name)) {
			t.Errorf("the book never names %s", a.Name)
		}
	}
	if pages, footers := len(pageRE.FindAll(text, -1)), bytes.Count(text, []byte(">page</word>")); footers < pages-1 {
		t.Errorf("%d footers on %d pages (all but the cover have one)", footers, pages)
	}
	// The contents link every category and every API to its page, and the running header of
	// every page but the cover and the first contents page links back to them (fpdf writes
	// link annotations uncompressed, in the page dictionaries).
	raw, err := os.ReadFile(pdf)
	if err != nil {
		t.Fatal(err)
	}
	pages := len(pageRE.FindAll(text, -1))
	// The index links each run of page numbers to its first page: count the runs on its pages
	// (the last pages, headed "Index"), the footers' numbers left out. pdftotext -layout reads
	// those pages only, found in the words read above (a whole book costs it 3 CPU-s).
	first, last := headedPages(text, "Index")
	if first == 0 {
		t.Fatal("no page of the book is headed Index")
	}
	layout, err := exec.Command(needTool(t, "pdftotext"), "-layout", "-f", strconv.Itoa(first), "-l", strconv.Itoa(last), pdf, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	runs := 0
	footer := regexp.MustCompile(`page [0-9]+ of [0-9]+`)
	pageRun := regexp.MustCompile(`^[0-9]+(–[0-9]+)?,?$`)
	for _, pg := range strings.Split(string(layout), "\f") {
		if head, _, _ := strings.Cut(pg, "\n"); !strings.HasSuffix(strings.TrimSpace(head), "Index") {
			continue
		}
		for _, w := range strings.Fields(footer.ReplaceAllString(pg, "")) {
			if pageRun.MatchString(w) {
				runs++
			}
		}
	}
	if runs == 0 {
		t.Error("the book's index links no page")
	}
	if n, want := bytes.Count(raw, []byte("/Subtype /Link")), len(cat.APIs)+len(cat.Categories)+5+pages-2+runs; n != want {
		t.Errorf("%d links in the book, want %d (the contents' (five for the chapters before and after the APIs': how to read, primitive types, the cluster, error codes, index), the running headers' and the index's %d)", n, want, runs)
	}
	// The outline: categories, under each its APIs, under each Request, Response, the edge
	// cases if any and the field tables, in that order.
	js, err := exec.Command(qpdf, "--json=2", "--json-key=outlines", pdf).Output()
	if err != nil {
		t.Fatalf("qpdf --json: %v", err)
	}
	var doc struct {
		Outlines []outline `json:"outlines"`
	}
	if err := json.Unmarshal(js, &doc); err != nil {
		t.Fatal(err)
	}
	var apis []string
	for _, top := range doc.Outlines {
		if top.Title == "Primitive types" {
			continue // its sections, not APIs
		}
		for _, a := range top.Kids {
			apis = append(apis, a.Title)
			var kids []string
			for _, k := range a.Kids {
				kids = append(kids, k.Title)
			}
			want := []string{"Request", "Response", "Request fields", "Response fields"} // the schemas' JSON is on the pages
			if len(kids) == len(want)+1 {
				want = slices.Insert(want, 2, "Edge cases")
			}
			if !slices.Equal(kids, want) {
				t.Errorf("outline %s > %s has %q, want %q", top.Title, a.Title, kids, want)
			}
		}
	}
	if len(apis) != len(cat.APIs) {
		t.Errorf("outline has %d API entries, want %d", len(apis), len(cat.APIs))
	}
	for i, a := range cat.APIs {
		if i < len(apis) && apis[i] != a.Name {
			t.Errorf("outline entry %d is %s, want %s", i, apis[i], a.Name)
			break
		}
	}
}

var (
	pageRE = regexp.MustCompile(`<page width="([0-9.]+)" height="([0-9.]+)">`)
)

// checkWordsOnPage reads pdftotext -bbox output and checks that no word leaves its page's
// 20 pt margin.
func checkWordsOnPage(t *testing.T, bbox []byte) {
	// One pass over pdftotext's output: a <page width= height=> line opens a page, each
	// <word xMin= yMin= xMax= yMax=>text</word> line is a word on it.
	var w, h float64
	pages, bad := 0, 0
	for len(bbox) > 0 {
		line := bbox
		if i := bytes.IndexByte(bbox, '\n'); i >= 0 {
			line, bbox = bbox[:i], bbox[i+1:]
		} else {
			bbox = nil
		}
		line = bytes.TrimSpace(line)
		switch {
		case bytes.HasPrefix(line, []byte("<page ")):
			pages++
			w, h = bboxAttr(line, "width"), bboxAttr(line, "height")
		case bytes.HasPrefix(line, []byte("<word ")):
			x0, y0, x1, y1 := bboxAttr(line, "xMin"), bboxAttr(line, "yMin"), bboxAttr(line, "xMax"), bboxAttr(line, "yMax")
			if x0 < 20 || y0 < 20 || x1 > w-20 || y1 > h-20 {
				if bad++; bad <= 10 {
					word := line[bytes.IndexByte(line, '>')+1:]
					word = bytes.TrimSuffix(word, []byte("</word>"))
					t.Errorf("page %d: word %q at (%.0f,%.0f)-(%.0f,%.0f) leaves the %gx%g page's margin", pages, word, x0, y0, x1, y1, w, h)
				}
			}
		}
	}
	if pages == 0 {
		t.Fatal("pdftotext -bbox found no pages")
	}
}

// headedPages returns the first and the last page (from 1; 0, 0 if none) of pdftotext -bbox
// output whose first line, the running header, ends with the word head.
func headedPages(bbox []byte, head string) (first, last int) {
	page, y0, inHead, word := 0, 0.0, false, ""
	end := func() { // the page's header line ended with word
		if inHead && word == head {
			if first == 0 {
				first = page
			}
			last = page
		}
		inHead = false
	}
	for _, line := range bytes.Split(bbox, []byte("\n")) {
		line = bytes.TrimSpace(line)
		switch {
		case bytes.HasPrefix(line, []byte("<page ")):
			end()
			page, y0, inHead, word = page+1, math.NaN(), true, ""
		case bytes.HasPrefix(line, []byte("<word ")) && inHead:
			y := bboxAttr(line, "yMin")
			if math.IsNaN(y0) {
				y0 = y
			}
			if math.Abs(y-y0) > 1 {
				end()
				continue
			}
			word = string(bytes.TrimSuffix(line[bytes.IndexByte(line, '>')+1:], []byte("</word>")))
		}
	}
	end()
	return first, last
}

// bboxAttr reads the number in name="..." of one line of pdftotext -bbox output (NaN if none).
func bboxAttr(line []byte, name string) float64 {
	i := bytes.Index(line, []byte(" "+name+`="`))
	if i < 0 {
		return math.NaN()
	}
	v := line[i+len(name)+3:]
	if j := bytes.IndexByte(v, '"'); j >= 0 {
		v = v[:j]
	}
	f, err := strconv.ParseFloat(string(v), 64)
	if err != nil {
		return math.NaN()
	}
	return f
}

type outline struct {
	Title string    `json:"title"`
	Kids  []outline `json:"kids"`
}

// chrome is the one headless Chromium of the test process ($CHROME, else /usr/bin/chromium,
// else chromium on the PATH), started by the first test that asks for it and closed by
// TestMain: a test gets a tab of its own in a browser context of its own (its own cookies,
// storage and cache), not a process of its own (starting Chromium costs more CPU than most of
// the pages a test opens).
var chrome struct {
	mu      sync.Mutex
	started bool
	ctx     context.Context // the browser's first tab: the parent of every test's
	stop    func()          // closes the browser and removes its profile
	err     error
}

// startChrome starts the shared browser once; a failure to start fails every test that asks.
func startChrome(t *testing.T) (context.Context, error) {
	t.Helper()
	exe := os.Getenv("CHROME")
	if exe == "" {
		exe = "/usr/bin/chromium"
	}
	if _, err := os.Stat(exe); err != nil {
		exe = needTool(t, "chromium") // skips the test (fails it in CI) when there is none
	}
	chrome.mu.Lock()
	defer chrome.mu.Unlock()
	if chrome.started {
		return chrome.ctx, chrome.err
	}
	chrome.started = true
	profile, err := os.MkdirTemp("", "kafkagrid-chromium-")
	if err != nil {
		chrome.err = err
		return nil, err
	}
	// No deadline of its own (a loaded machine runs Chromium many times slower): each test's
	// tab ends with the test's -timeout, the hang guard.
	actx, cancelA := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(exe), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.NoFirstRun, chromedp.UserDataDir(profile))
	bctx, cancelB := chromedp.NewContext(actx)
	chrome.stop = func() {
		cancelB()
		cancelA()
		os.RemoveAll(profile)
	}
	if err := chromedp.Do(bctx); err != nil { // starts the browser
		chrome.stop()
		chrome.err = fmt.Errorf("starting %s: %w", exe, err)
		return nil, chrome.err
	}
	chrome.ctx = bctx
	return bctx, nil
}

// stopChrome closes the shared browser, if a test started it (TestMain, once the tests end).
func stopChrome() {
	chrome.mu.Lock()
	defer chrome.mu.Unlock()
	if chrome.stop != nil {
		chrome.stop()
		chrome.stop = nil
	}
}

// browser opens a tab for the test in the shared headless Chromium (chrome), in a browser
// context of its own, sized w×h CSS px when a size is given, and returns its context, the
// function that closes the tab (called again when the test ends), and the folder screenshots
// go to: $ARTIFACTS, or "" when it is not set (keepShot then takes none).
func browser(t *testing.T, size ...int64) (context.Context, context.CancelFunc, string) {
	t.Helper()
	art := os.Getenv("ARTIFACTS")
	if art != "" {
		if err := os.MkdirAll(art, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	parent, err := startChrome(t)
	if err != nil {
		t.Fatal(err)
	}
	tab, cancelTab := chromedp.NewContext(parent, chromedp.WithNewBrowserContext())
	ctx, cancel := tab, cancelTab
	if dl, ok := t.Deadline(); ok {
		var cancelDL context.CancelFunc
		ctx, cancelDL = context.WithDeadline(tab, dl)
		cancel = func() { cancelDL(); cancelTab() }
	}
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil { // opens the tab
		t.Fatalf("a tab in Chromium: %v", err)
	}
	if len(size) == 2 {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(size[0], size[1])); err != nil {
			t.Fatal(err)
		}
	}
	return ctx, cancel, art
}

// keepShot writes what the tab shows (shot: chromedp.CaptureScreenshot for the screen,
// chromedp.FullScreenshot for the whole page) to the folder art as name, for a reader to look
// at; with no folder (art "": $ARTIFACTS not set, as in test.sh) it takes none. No test reads
// a screenshot, and one costs Chromium more than the checks made on the page it shows (a
// whole page of drawings, about 2 CPU-s: most of TestPagesReadable's CPU before they were
// kept only when asked for).
func keepShot(t *testing.T, bctx context.Context, art, name string, shot chromedp.Action[[]byte]) {
	t.Helper()
	if art == "" {
		return
	}
	b, err := chromedp.Run(bctx, shot)
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	p := filepath.Join(art, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", p)
}

// checkInBrowser opens the index and three API pages in headless Chromium over file://: no
// console error, every inline SVG drawn at a non-zero size, hover linking working; a
// screenshot of each is kept in $ARTIFACTS when it is set (keepShot).
func checkInBrowser(t *testing.T, out string, wantFetch int) {
	bctx, cancelB, art := browser(t, 1400, 1000)

	var mu sync.Mutex
	var problems []string
	msgs := chromedp.Console(bctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				mu.Lock()
				problems = append(problems, m.String())
				mu.Unlock()
			}
		}
	}()
	for _, page := range []string{"index.html", "api/Produce.html", "api/Fetch.html", "api/ApiVersions.html"} {
		url := "file://" + filepath.ToSlash(filepath.Join(out, page))
		if err := chromedp.Do(bctx, chromedp.Navigate(url)); err != nil {
			t.Fatalf("%s: %v", page, err)
		}
		drawLater(t, bctx) // the response and edge cases, drawn when opened (light_test.go)
		// The screen shows each drawing whole; the parts a tall one prints in are hidden (and
		// the index's guide figure is inside the closed "How to read").
		sizes, err := chromedp.Run(bctx, chromedp.Evaluate[[][2]float64](
			`Array.from(document.querySelectorAll('svg')).filter(s => !s.closest('.parts') && !s.closest('details:not([open])') && !(s.closest('figure.g32,figure.g16') && s.getClientRects().length === 0)).map(s => {const r = s.getBoundingClientRect(); return [r.width, r.height]})`))
		if err != nil {
			t.Fatalf("%s: %v", page, err)
		}
		shownParts, err := chromedp.Run(bctx, chromedp.Evaluate[int](
			`Array.from(document.querySelectorAll('.parts svg')).filter(s => s.getBoundingClientRect().height > 0).length`))
		if err != nil {
			t.Fatalf("%s: %v", page, err)
		}
		if shownParts != 0 {
			t.Errorf("%s: the screen shows %d print parts", page, shownParts)
		}
		// A grid and a tree for each frame: the example's two, and those of the edge cases
		// drawn on the page. (Each frame has a 32-bit and a 16-bit grid; the screen shows one.)
		frames, err := chromedp.Run(bctx, chromedp.Evaluate[int](`document.querySelectorAll('section.msg').length`))
		if err != nil {
			t.Fatalf("%s: %v", page, err)
		}
		if page != "index.html" && frames < 2 {
			t.Errorf("%s: %d frames", page, frames)
		}
		wantSVG := 2 * frames
		if len(sizes) != wantSVG {
			t.Errorf("%s: %d inline SVGs, want %d", page, len(sizes), wantSVG)
		}
		for i, s := range sizes {
			if s[0] < 50 || s[1] < 50 {
				t.Errorf("%s: SVG %d is drawn %gx%g", page, i, s[0], s[1])
			}
		}
		if page == "index.html" {
			// The filter box keeps the rows whose name holds the text.
			n, err := chromedp.Run(bctx, chromedp.Evaluate[int](`(() => {
				const box = document.getElementById('filter');
				box.value = 'fetch';
				box.dispatchEvent(new Event('input'));
				return Array.from(document.querySelectorAll('.cat tbody tr')).filter(tr => !tr.hidden && !tr.closest('.cat').hidden).length;
			})()`))
			if err != nil {
				t.Fatalf("filter: %v", err)
			}
			if n != wantFetch {
				t.Errorf("filter 'fetch' shows %d rows, want %d", n, wantFetch)
			}
		}
		if page != "index.html" {
			// Hovering a tree node lights up the grid field with the same data-path and its bytes.
			lit, err := chromedp.Run(bctx, chromedp.Evaluate[[]int](`(() => {
				const sec = document.querySelector('section.msg');
				const node = Array.from(sec.querySelectorAll('svg.kg-tree [data-path]')).find(n => n.getAttribute('data-path').endsWith('CorrelationId'));
				if (!node) return [-1, -1];
				node.querySelector('*').dispatchEvent(new MouseEvent('mouseover', {bubbles: true}));
				const shown = e => e.getClientRects().length > 0;
				const grid = Array.from(sec.querySelectorAll('svg.kg-grid .kg-hl')).filter(shown).length;
				const hex = Array.from(sec.querySelectorAll('pre.hex .on')).filter(shown).length;
				return [grid, hex];
			})()`))
			if err != nil {
				t.Fatalf("%s: hover: %v", page, err)
			}
			if len(lit) != 2 || lit[0] < 1 || lit[1] != 4 {
				t.Errorf("%s: hovering the CorrelationId node lit %v grid fields and hex bytes, want >= 1 and 4", page, lit)
			}
		}
		keepShot(t, bctx, art, "kafkagrid-"+strings.NewReplacer("/", "-", ".html", "").Replace(page)+".png", chromedp.FullScreenshot(100))
	}
	// The reader's dark preference darkens the page and the diagrams' paper; print is light.
	for _, media := range []struct {
		name, media, scheme string
		dark                bool
	}{{"dark", "", "dark", true}, {"print", "print", "dark", false}} {
		if _, err := chromedp.Call(bctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: media.media,
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: media.scheme}}}); err != nil {
			t.Fatalf("%s: %v", media.name, err)
		}
		if err := chromedp.Do(bctx, chromedp.Navigate("file://"+filepath.ToSlash(filepath.Join(out, "api", "Produce.html")))); err != nil {
			t.Fatal(err)
		}
		lum, err := chromedp.Run(bctx, chromedp.Evaluate[float64](`(() => {
			const c = getComputedStyle(document.body).backgroundColor.match(/[0-9.]+/g).map(Number);
			return (c[0] + c[1] + c[2]) / 3;
		})()`))
		if err != nil {
			t.Fatalf("%s: %v", media.name, err)
		}
		if media.dark != (lum < 80) {
			t.Errorf("%s: page background brightness %.0f", media.name, lum)
		}
		if media.name == "print" {
			checkPrintFigures(t, bctx, filepath.Join(out, "api", "Fetch.html"))
		}
		if media.name == "dark" {
			keepShot(t, bctx, art, "kafkagrid-api-Produce-dark.png", chromedp.FullScreenshot(100))
		}
	}
	cancelB()
	mu.Lock()
	defer mu.Unlock()
	for _, p := range problems {
		t.Errorf("console: %s", p)
	}
}

// checkPrintFigures checks a page in print media: a drawing taller than a page is shown in its
// parts, not whole, and every drawing shown is at full width or its natural one (not shrunk to
// fit a page's height, as a max-height would).
func checkPrintFigures(t *testing.T, bctx context.Context, page string) {
	t.Helper()
	if err := chromedp.Do(bctx, chromedp.Navigate("file://"+filepath.ToSlash(page))); err != nil {
		t.Fatal(err)
	}
	drawLater(t, bctx)
	if _, err := chromedp.Run(bctx, chromedp.Evaluate[any](`dispatchEvent(new Event('beforeprint'))`)); err != nil {
		t.Fatal(err)
	}
	type fig struct {
		Whole, Part bool
		W, H, MaxW  float64 // drawn size; the widest the figure may be drawn (CSS px)
		Natural     float64 // the drawing's width in CSS px at 1 unit a point
	}
	// The 16-bit grid is the screen's (a narrow one's); print has the 32-bit one.
	figs, err := chromedp.Run(bctx, chromedp.Evaluate[[]fig](`Array.from(document.querySelectorAll('figure:not(.g16)')).map(f => {
		const s = f.querySelector('svg'), r = s.getBoundingClientRect();
		return {Whole: f.classList.contains('whole'), Part: f.classList.contains('part'), W: r.width, H: r.height,
			MaxW: f.getBoundingClientRect().width, Natural: s.viewBox.baseVal.width * 4 / 3};
	})`))
	if err != nil {
		t.Fatalf("print: %v", err)
	}
	narrow, err := chromedp.Run(bctx, chromedp.Evaluate[int](`Array.from(document.querySelectorAll('figure.g16')).filter(f => f.getClientRects().length > 0).length`))
	if err != nil {
		t.Fatalf("print: %v", err)
	}
	if narrow != 0 {
		t.Errorf("print: %s prints %d 16-bit grids beside the 32-bit ones", page, narrow)
	}
	parts := 0
	for i, f := range figs {
		shown := f.W > 0 && f.H > 0
		if f.Whole == shown {
			t.Errorf("print: %s figure %d (whole %v, part %v) drawn %gx%g", page, i, f.Whole, f.Part, f.W, f.H)
		}
		if f.Part {
			parts++
		}
		if want := min(f.Natural, f.MaxW); shown && (f.W < want-1 || f.W > want+1) {
			t.Errorf("print: %s figure %d drawn %g px wide, want %g", page, i, f.W, want)
		}
	}
	if parts == 0 {
		t.Errorf("print: %s shows no drawing in parts", page)
	}
}

// TestBuildReleases builds every release in the folder of releases (the PDF, pages and frames;
// 4.0 is checked in full elsewhere): each API gets a page, a request and a response frame at
// every version. The first release's book has every version too (-versions all: 2.4's is the
// smallest); the others have each API's highest, as by default. Every fourth book is on letter
// paper, and its words are checked to stay inside the page.
func TestBuildReleases(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every release")
	}
	root := listSchemaRoot(t)
	// Under the race detector (many times slower) every release is built at its highest
	// versions, with the book of two; test.sh runs this test without -race.
	versions := "all"
	if raceEnabled {
		versions = "highest"
		t.Log("race detector: every release at its highest versions; every version runs without -race")
	}
	rels := releaseNames(t)
	for i, rel := range rels {
		t.Run(rel, func(t *testing.T) {
			out := t.TempDir()
			paper := "a4"
			if i%4 == 3 {
				paper = "letter"
			}
			formats := "html,pdf,bin"
			if raceEnabled && i != len(rels)-1 && i != len(rels)-2 {
				formats = "html,bin"
			}
			args := []string{"-schemas", root, "-release", rel, "-format", formats, "-paper", paper}
			if i == 0 || versions != "all" {
				args = append(args, "-versions", versions)
			}
			buildInto(t, out, args...)
			book := filepath.Join(out, "kafka-"+rel+"-protocol.pdf")
			if _, err := os.Stat(book); err != nil && strings.Contains(formats, "pdf") {
				t.Fatal(err)
			}
			if paper == "letter" && strings.Contains(formats, "pdf") {
				text, err := exec.Command(needTool(t, "pdftotext"), "-bbox", book, "-").Output()
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Contains(text, []byte(`<page width="612.000000" height="792.000000">`)) {
					t.Error("the book is not on letter paper")
				}
				checkWordsOnPage(t, text)
			}
			cat, err := kafka.LoadCatalog(filepath.Join(root, rel))
			if err != nil {
				t.Fatal(err)
			}
			built := 0
			for _, a := range cat.APIs {
				for v := a.Lowest; v <= a.Version; v++ {
					if !a.Request.ValidIn(v) || versions == "highest" && v != a.Version {
						continue
					}
					built++
					for _, side := range []string{"request", "response"} {
						name := fmt.Sprintf("bin/%d-%s-v%d-%s.bin", a.Key, a.Name, v, side)
						if fi, err := os.Stat(filepath.Join(out, name)); err != nil || fi.Size() < 8 {
							t.Errorf("%s: %v", name, err)
						}
					}
				}
			}
			checkPageLinks(t, out, built+3)
			t.Logf("Kafka %s: %d APIs, %d versions, %d frames", rel, len(cat.APIs), built, 2*built)
		})
	}
}

// schemaArchive builds a GitHub-style source archive of the 4.0 message folder.
func schemaArchive(t *testing.T, dir, top string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tw.WriteHeader(&tar.Header{Name: top + "/clients/src/main/resources/common/message/" + filepath.Base(f), Mode: 0o644, Size: int64(len(b))})
		tw.Write(b)
	}
	tw.Close()
	zw.Close()
	return buf.Bytes()
}

func TestBuildKafkaRef(t *testing.T) {
	root := listSchemaRoot(t)
	arch := schemaArchive(t, filepath.Join(root, "4.0"), "kafka-4.0")
	var hits int
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits++
		mu.Unlock()
		if r.URL.Path != "/refs/heads/4.0" {
			http.NotFound(w, r)
			return
		}
		w.Write(arch)
	}))
	defer srv.Close()
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv("HOME", cache)
	t.Setenv(archiveURLEnv, srv.URL)
	t.Setenv("KAFKA_SCHEMAS", "")
	out := t.TempDir()
	_, stderr, code := runCmd(t, "build", "-out", out, "-kafka", "4.0", "-format", "bin", "-apis", "Produce,18", "-versions", "highest")
	if code != 0 || !strings.Contains(stderr, "downloading the message schemas of apache/kafka 4.0") {
		t.Fatalf("first -kafka build: exit %d, %s", code, stderr)
	}
	want := []string{"bin/0-Produce-v12-request-unknown-topic.bin", "bin/0-Produce-v12-request.bin",
		"bin/0-Produce-v12-response-not-leader.bin", "bin/0-Produce-v12-response-unknown-topic.bin",
		"bin/0-Produce-v12-response.bin", "bin/18-ApiVersions-v0-response-unsupported-version.bin",
		"bin/18-ApiVersions-v4-request.bin", "bin/18-ApiVersions-v4-response.bin"}
	if got := treeFiles(t, out); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("files = %v, want %v", got, want)
	}
	// Cached: the second build does not ask the server again.
	requests := func() int {
		mu.Lock()
		defer mu.Unlock()
		return hits
	}
	before := requests()
	_, stderr, code = runCmd(t, "build", "-out", t.TempDir(), "-kafka", "4.0", "-format", "bin", "-apis", "Produce")
	if code != 0 || requests() != before || strings.Contains(stderr, "downloading") {
		t.Errorf("the second build downloaded again: exit %d, %d requests, %s", code, requests()-before, stderr)
	}
	// A missing ref and an unreachable server are errors that say what to do.
	if _, stderr, code := runCmd(t, "build", "-q", "-out", t.TempDir(), "-kafka", "9.9"); code != 1 || !strings.Contains(stderr, "no such branch or tag") {
		t.Errorf("missing ref: exit %d, %s", code, stderr)
	}
	srv.Close()
	if _, stderr, code := runCmd(t, "build", "-q", "-out", t.TempDir(), "-kafka", "trunk"); code != 1 || !strings.Contains(stderr, "-schemas") {
		t.Errorf("offline: exit %d, %s", code, stderr)
	}
}

func TestBuildUsage(t *testing.T) {
	root := listSchemaRoot(t)
	dir := filepath.Join(root, "4.0")
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-format", "png"}, 2, "unknown format"},
		{[]string{"-paper", "a5"}, 2, "unknown paper"},
		{[]string{"-schemas", dir, "-kafka", "4.0"}, 2, "not both"},
		{[]string{"-schemas", dir, "extra"}, 2, "unexpected argument"},
		{[]string{"-schemas", dir, "-apis", "Nope"}, 2, `-apis: no API "Nope"`},
		{[]string{"-schemas", dir, "-apis", "Produce,Nope"}, 2, `-apis: no API "Nope"`},
		// An explicitly empty list is an error; only leaving the flag out means all.
		{[]string{"-schemas", dir, "-apis", ""}, 2, "-apis: empty list"},
		{[]string{"-schemas", dir, "-apis=,"}, 2, "-apis: empty list"},
		{[]string{"-schemas", dir, "-apis", " , "}, 2, "-apis: empty list"},
		{[]string{"-schemas", dir, "-format", ""}, 2, "-format: empty list"},
		{[]string{"-schemas", dir, "-format=,"}, 2, "-format: empty list"},
	}
	for _, tt := range tests {
		out := filepath.Join(t.TempDir(), "out")
		_, stderr, code := runCmd(t, append([]string{"build", "-q", "-out", out}, tt.args...)...)
		if code != tt.code || !strings.Contains(stderr, tt.want) {
			t.Errorf("build %v: exit %d, %q; want exit %d and %q", tt.args, code, stderr, tt.code, tt.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("build %v: a usage error wrote %s", tt.args, out)
		}
	}
}

func TestBuildSummary(t *testing.T) {
	root := listSchemaRoot(t)
	out := t.TempDir()
	// The same API three times, by name, key and in lower case, is built once.
	_, stderr, code := runCmd(t, "build", "-out", out, "-schemas", filepath.Join(root, "4.0"), "-format", "bin,txt", "-apis", "Produce,0,produce")
	if code != 0 {
		t.Fatal(stderr)
	}
	// Not a terminal: no progress, only the schema files' notes and the one-line summary.
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
		if !strings.Contains(l, ": note: ") {
			lines = append(lines, l)
		}
	}
	// 10 versions × 2 frames × bin and txt, and Produce's 3 edge-case frames.
	if len(lines) != 1 || !strings.Contains(stderr, "built 1 API (10 versions) of Kafka 4.0") || !strings.Contains(stderr, ": 46 files, ") {
		t.Errorf("stderr = %q, want notes and one summary line: built 1 API (10 versions) … 46 files", stderr)
	}
	txt, err := os.ReadFile(filepath.Join(out, "txt", "0-Produce-v12-request.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Produce v12 request", "+-+-+", "CorrelationId", "TopicData"} {
		if !bytes.Contains(txt, []byte(want)) {
			t.Errorf("txt lacks %q", want)
		}
	}
}

func TestSourceDate(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "1700000000")
	d, err := sourceDate()
	if err != nil || d.Unix() != 1700000000 {
		t.Errorf("sourceDate = %v, %v", d, err)
	}
	t.Setenv("SOURCE_DATE_EPOCH", "soon")
	if _, err := sourceDate(); err == nil {
		t.Error("a bad SOURCE_DATE_EPOCH was accepted")
	}
}

func TestPlural(t *testing.T) {
	for _, tt := range []struct {
		n    int
		want string
	}{{0, "0 APIs"}, {1, "1 API"}, {2, "2 APIs"}, {87, "87 APIs"}} {
		if got := plural(tt.n, "API"); got != tt.want {
			t.Errorf("plural(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

// TestBuildUnwritable checks that a folder the build cannot write into is reported by the name
// of the file it was writing, not a temporary file's.
func TestBuildUnwritable(t *testing.T) {
	root := listSchemaRoot(t)
	out := t.TempDir()
	// A folder where the book should go makes its rename fail, for root too.
	if err := os.MkdirAll(filepath.Join(out, "kafka-4.0-protocol.pdf", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runCmd(t, "build", "-q", "-out", out, "-schemas", filepath.Join(root, "4.0"), "-format", "pdf", "-apis", "Produce")
	want := "kafkagrid: build: site: write " + filepath.Join(out, "kafka-4.0-protocol.pdf") + ": "
	if code != 1 || !strings.HasPrefix(stderr, want) || strings.Contains(stderr, ".tmp") {
		t.Errorf("exit %d, %q; want exit 1 and %q…", code, stderr, want)
	}
}

// TestBuildManyVersions: a schema may declare up to 32,767 versions (Kafka's generator accepts
// 0-32766), and a reference whose pages each list every version grows with their square. A
// build draws and lists the highest kafka.MaxVersions of an API, says so on stderr and on the
// API's page, and its cost stays that of 64 versions.
func TestBuildManyVersions(t *testing.T) {
	rel := apiVersionsRelease(t, "9.9", func(name string, b []byte) []byte {
		return bytes.Replace(b, []byte(`"validVersions": "0-4"`), []byte(`"validVersions": "0-32766"`), 1)
	})
	out := t.TempDir()
	_, stderr, code := runCmd(t, "build", "-schemas", rel, "-out", out, "-format", "html,bin")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	note := "The schema of ApiVersions declares 32767 versions; a reference draws at most 64 of them (the highest of those asked for) and lists the highest 64 and any other it draws"
	if !strings.Contains(stderr, "kafkagrid: note: "+note) {
		t.Errorf("no note on stderr: %s", stderr)
	}
	reqs, _ := filepath.Glob(filepath.Join(out, "bin", "*-request.bin"))
	resps, _ := filepath.Glob(filepath.Join(out, "bin", "*-response.bin")) // edge cases have longer names
	pages, _ := filepath.Glob(filepath.Join(out, "api", "*.html"))
	if len(reqs) != kafka.MaxVersions || len(resps) != kafka.MaxVersions || len(pages) != kafka.MaxVersions {
		t.Errorf("%d requests, %d responses and %d pages, want %d each", len(reqs), len(resps), len(pages), kafka.MaxVersions)
	}
	page, err := os.ReadFile(filepath.Join(out, "api", "ApiVersions.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), note) || strings.Contains(string(page), "v32702") || !strings.Contains(string(page), "v32703") {
		t.Errorf("the page does not say what it lists (%d bytes)", len(page))
	}
	if len(page) > 1<<20 {
		t.Errorf("the page is %d bytes", len(page))
	}
	// A low version asked for is drawn, linked and described like any other.
	out2 := t.TempDir()
	if _, stderr, code := runCmd(t, "build", "-q", "-schemas", rel, "-out", out2, "-format", "html", "-versions", "2,32766"); code != 0 {
		t.Fatalf("-versions 2,32766: exit %d: %s", code, stderr)
	}
	v2, err := os.ReadFile(filepath.Join(out2, "api", "ApiVersions-v2.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`aria-current="page">v2</a>`, "What changed in v2", "request header v1, response header v0"} {
		if !strings.Contains(string(v2), want) {
			t.Errorf("ApiVersions-v2.html lacks %q", want)
		}
	}
	if out, stderr, code := runCmd(t, "show", "-q", "-schemas", rel, "-version", "2", "ApiVersions"); code != 0 || !strings.HasPrefix(out, "Version 2: request header v1, response header v0") {
		t.Errorf("show -version 2: exit %d: %.200s %s", code, out, stderr)
	}
}

// TestBuildManyFields: the example frames a build draws have at most reference.MaxFields tree
// nodes in all: a 1.9 MB request schema of 20,000 fields (777 MB of output before the limit)
// fails at once with an error that says what to do, and writes nothing.
func TestBuildManyFields(t *testing.T) {
	rel := apiVersionsRelease(t, "9.8", func(name string, b []byte) []byte {
		if name != "ApiVersionsRequest.json" {
			return b
		}
		var extra strings.Builder
		for i := range 20_000 {
			fmt.Fprintf(&extra, ",\n    { \"name\": \"F%d\", \"type\": \"int32\", \"versions\": \"0+\", \"about\": \"Field %d.\" }", i, i)
		}
		i := bytes.LastIndex(b, []byte("}\n  ]"))
		if i < 0 {
			t.Fatal("no end of the fields in ApiVersionsRequest.json")
		}
		return append(b[:i+1:i+1], append([]byte(extra.String()), b[i+1:]...)...)
	})
	out := filepath.Join(t.TempDir(), "out")
	_, stderr, code := runCmd(t, "build", "-q", "-schemas", rel, "-out", out)
	if code != 1 || !strings.Contains(stderr, "too many fields") || !strings.Contains(stderr, "more than the 100000 allowed; build fewer APIs (-apis) or versions (-versions)") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("the output folder was made: %v", err)
	}
	// The highest version alone is within the limit.
	if _, stderr, code := runCmd(t, "build", "-q", "-schemas", rel, "-out", out, "-versions", "highest", "-format", "bin"); code != 0 {
		t.Errorf("-versions highest: exit %d: %s", code, stderr)
	}
}

// apiVersionsRelease makes a release folder named name of 4.0's headers and ApiVersions, each
// file as edit returns it.
func apiVersionsRelease(t *testing.T, name string, edit func(file string, b []byte) []byte) string {
	t.Helper()
	src := filepath.Join(listSchemaRoot(t), "4.0")
	rel := filepath.Join(t.TempDir(), name)
	if err := os.MkdirAll(rel, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{"RequestHeader.json", "ResponseHeader.json", "ApiVersionsRequest.json", "ApiVersionsResponse.json"} {
		b, err := os.ReadFile(filepath.Join(src, file))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(rel, file), edit(file, b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return rel
}

// TestBuildMisfitNote: a value a field's name would choose that its type cannot hold (the
// timestamp rule on an int32 of a made-up release) does not stop the build; the build says
// once, for the versions that share it, what was written and the override that sets it.
func TestBuildMisfitNote(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"RequestHeader.json": `{"type": "header", "name": "RequestHeader", "validVersions": "0-1", "fields": [
			{"name": "RequestApiKey", "type": "int16", "versions": "0+"},
			{"name": "RequestApiVersion", "type": "int16", "versions": "0+"},
			{"name": "CorrelationId", "type": "int32", "versions": "0+"},
			{"name": "ClientId", "type": "string", "versions": "1+"}]}`,
		"ResponseHeader.json": `{"type": "header", "name": "ResponseHeader", "validVersions": "0", "fields": [
			{"name": "CorrelationId", "type": "int32", "versions": "0+"}]}`,
		"DeleteTopicsRequest.json": `{"apiKey": 20, "type": "request", "name": "DeleteTopicsRequest", "validVersions": "0-3", "fields": [
			{"name": "topicNames", "type": "[]string", "versions": "0+", "entityType": "topicName"},
			{"name": "timeoutMs", "type": "int32", "versions": "0+"}]}`,
		"DeleteTopicsResponse.json": `{"apiKey": 20, "type": "response", "name": "DeleteTopicsResponse", "validVersions": "0-3", "fields": [
			{"name": "Responses", "type": "[]DeletableTopicResult", "versions": "0+", "fields": [
				{"name": "name", "type": "string", "versions": "0+", "entityType": "topicName"},
				{"name": "deletedTimestamp", "type": "int32", "versions": "1+"}]}]}`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := t.TempDir()
	_, errs, code := runCmd(t, "build", "-schemas", dir, "-format", "bin", "-out", out)
	const note = "kafkagrid: note: DeleteTopics v1-3 response: Responses[0].DeletedTimestamp: the value its name suggests, 1767225600000, " +
		"does not fit int32; 0 written instead (to choose one, write in DeleteTopics.yaml: response: {Responses: [{DeletedTimestamp: 0}]})\n"
	if code != 0 || strings.Count(errs, "DeletedTimestamp") != 2 || !strings.Contains(errs, note) {
		t.Errorf("exit %d, stderr:\n%s\nwant once:\n%s", code, errs, note)
	}
	if _, err := os.Stat(filepath.Join(out, "bin", "20-DeleteTopics-v3-response.bin")); err != nil {
		t.Error(err)
	}
}
