package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/kafkagrid/kafkagrid/site/reference"
)

// TestPickReleases reads -releases: every release by version order, a list, a range.
func TestPickReleases(t *testing.T) {
	dir := t.TempDir()
	elsewhere := t.TempDir() // a release kept elsewhere, linked into the folder as 4.1
	for _, r := range []string{"3.10", "2.8", "3.9", "4.0", "10.0", "trunk", "4.0-trunk-2024-10", elsewhere} {
		if !filepath.IsAbs(r) {
			r = filepath.Join(dir, r)
		}
		if err := os.MkdirAll(r, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(r, "X.json"), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(elsewhere, filepath.Join(dir, "4.1")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		pick, want, err string
	}{
		{"", "2.8 3.9 3.10 4.0-trunk-2024-10 4.0 4.1 10.0 trunk", ""},
		{"3.9-4.0", "3.9 3.10 4.0-trunk-2024-10 4.0", ""},
		{"4.0,2.8", "2.8 4.0", ""},
		{" 2.8 - 3.9 , trunk", "2.8 3.9 trunk", ""},
		{"4.0-3.9", "", "4.0 comes after 3.9"},
		{"3.7", "", `no release "3.7" (the folder has 2.8, 3.9, 3.10, 4.0-trunk-2024-10, 4.0, 4.1, 10.0, trunk)`},
		{"3.9,", "", "an empty name"},
		{"2.8-3.7", "", `no release "3.7"`},
		// Names with dashes of their own, alone and at either end of a range.
		{"4.0-trunk-2024-10", "4.0-trunk-2024-10", ""},
		{"3.10-4.0-trunk-2024-10", "3.10 4.0-trunk-2024-10", ""},
		{"4.0-trunk-2024-10-4.1", "4.0-trunk-2024-10 4.0 4.1", ""},
		{"4.0-trunk-2024-11", "", `no release "4.0-trunk-2024-11", nor a range of two releases (no release "trunk-2024-11"`},
	} {
		got, err := pickReleases(dir, c.pick)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: %v, want an error with %q", c.pick, err, c.err)
			}
			continue
		}
		if err != nil || strings.Join(got, " ") != c.want {
			t.Errorf("%q: %v %v, want %s", c.pick, got, err, c.want)
		}
	}
}

// FuzzPickReleases: whatever -releases says, an answer or an error, never a panic, and the
// releases picked are the folder's, in version order, each once.
func FuzzPickReleases(f *testing.F) {
	dir := f.TempDir()
	for _, r := range []string{"2.2", "2.8", "3.9", "4.0", "4.1"} {
		os.MkdirAll(filepath.Join(dir, r), 0o755)
		os.WriteFile(filepath.Join(dir, r, "X.json"), []byte("{}"), 0o644)
	}
	for _, s := range []string{"", "2.2-4.1", "3.9,4.0", "4.1-2.2", "-", ",", "2.2--4.0", "2.8-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, pick string) {
		got, err := pickReleases(dir, pick)
		if err != nil {
			return
		}
		all := []string{"2.2", "2.8", "3.9", "4.0", "4.1"}
		j := 0
		for _, r := range got {
			for j < len(all) && all[j] != r {
				j++
			}
			if j == len(all) {
				t.Fatalf("%q: %v is not a subsequence of %v", pick, got, all)
			}
			j++
		}
	})
}

// siteBuild is one site of every shared release (-versions highest, pages only; with -short,
// the run under the race detector, 3.9 to the newest) for the tests below.
var siteBuild struct {
	once sync.Once
	root string // the folder of releases it is built from
	dir  string
	errs string
	code int
}

// sitePick is the -releases of the shared site of the folder of releases root: "" (every
// release), or with -short 3.9 on.
func sitePick(t *testing.T, root string) string {
	if !testing.Short() {
		return ""
	}
	rels, err := pickReleases(root, "")
	if err != nil || len(rels) == 0 {
		t.Fatal(err)
	}
	return "3.9-" + rels[len(rels)-1]
}

func sharedSite(t *testing.T) string {
	t.Helper()
	root := listSchemaRoot(t)
	siteBuild.once.Do(func() {
		siteBuild.root = root
		siteBuild.dir = filepath.Join(built40.root, "site")
		args := []string{"build", "-schemas", root, "-out", siteBuild.dir, "-versions", "highest", "-format", "html", "-q"}
		if rels := sitePick(t, root); rels != "" {
			args = append(args, "-releases", rels)
		}
		_, siteBuild.errs, siteBuild.code = runCmd(t, args...)
	})
	if siteBuild.code != 0 {
		t.Fatalf("site build: exit %d: %s", siteBuild.code, siteBuild.errs)
	}
	if siteBuild.root != root { // a test that emptied KAFKA_SCHEMAS first would get another folder's
		t.Fatalf("the shared site is of %s, not of %s", siteBuild.root, root)
	}
	return siteBuild.dir
}

// TestBuildSite: "build -schemas FOLDER-OF-RELEASES" builds one site of every release, each
// under its name, with the pages over them; -releases picks; list -format json gives the
// matrix; the usage errors say what to do.
func TestBuildSite(t *testing.T) {
	root := listSchemaRoot(t)
	dir := sharedSite(t) // before KAFKA_SCHEMAS is emptied: the site of root's releases
	t.Setenv("KAFKA_SCHEMAS", "")
	rels, _ := pickReleases(root, sitePick(t, root))
	for _, r := range rels {
		for _, f := range []string{r + "/index.html", r + "/api/Fetch.html", "release/" + r + ".html"} {
			if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
				t.Error(err)
			}
		}
	}
	for _, f := range []string{"index.html", "matrix/Fetch.html", "matrix/ListOffsets.html", "releases.json", "search-index.js", "site.js"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	var rj map[string]map[string][2]int
	data, _ := os.ReadFile(filepath.Join(dir, "releases.json"))
	if err := json.Unmarshal(data, &rj); err != nil || len(rj) != len(rels) || rj["4.0"]["1"] != [2]int{4, 17} || rj["3.9"]["0"] != [2]int{0, 11} {
		t.Errorf("releases.json: %v, 4.0 Fetch %v, 3.9 Produce %v", err, rj["4.0"]["1"], rj["3.9"]["0"])
	}

	out := t.TempDir()
	_, errs, code := runCmd(t, "build", "-q", "-schemas", root, "-releases", "3.9-4.0", "-out", out, "-versions", "highest", "-format", "html")
	if code != 0 {
		t.Fatalf("-releases 3.9-4.0: exit %d: %s", code, errs)
	}
	entries, _ := os.ReadDir(out)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	// The releases from 3.9 to 4.0 in the folder: 3.9 and 4.0 of the shared ones, and any
	// between them (4.0-trunk-2024-10), each a folder of the site.
	between, err := pickReleases(root, "3.9-4.0")
	if err != nil || len(between) < 2 {
		t.Fatalf("the releases 3.9-4.0: %v, %v", between, err)
	}
	want := []string{".kafkagrid-manifest"}
	want = append(want, between...)
	if webDecoder() != nil { // the browser decoder, when this kafkagrid has it (go generate)
		want = append(want, "decode", "decode.html")
	}
	want = append(want, "index.html", "matrix", "release", "releases.json", "search-index.js", "site.js")
	slices.Sort(want) // os.ReadDir's order: by name
	if got := strings.Join(names, " "); got != strings.Join(want, " ") {
		t.Errorf("-releases 3.9-4.0 wrote %s, want %s", got, strings.Join(want, " "))
	}

	all, _ := pickReleases(root, "")
	stdout, errs, code := runCmd(t, "list", "-q", "-schemas", root, "-format", "json")
	if code != 0 {
		t.Fatalf("list: exit %d: %s", code, errs)
	}
	var m reference.MatrixJSON
	if err := json.Unmarshal([]byte(stdout), &m); err != nil || strings.Join(m.Releases, " ") != strings.Join(all, " ") {
		t.Fatalf("list -format json: %v, releases %v", err, m.Releases)
	}
	for _, a := range m.APIs {
		if a.Key == 1 {
			i := slices.IndexFunc(a.Releases, func(r reference.ReleaseMatrixJSON) bool { return r.Release == "4.0" })
			if i < 0 {
				t.Fatalf("Fetch: no row for 4.0 in %+v", a.Releases)
			}
			if r := a.Releases[i]; r.Valid != "4-17" || r.Flexible != "12+" {
				t.Errorf("Fetch in 4.0: %+v", r)
			}
			if v := a.Versions[0]; v.Version != 0 || v.First != "2.2" || v.Removed != "4.0" {
				t.Errorf("Fetch v0: %+v", v)
			}
		}
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"build", "-schemas", root, "-out", t.TempDir(), "-apis", "Fetch"}, "-apis builds part of one release"},
		{[]string{"build", "-schemas", root, "-out", t.TempDir(), "-format", "svg"}, "must include html"},
		{[]string{"build", "-schemas", root, "-out", t.TempDir(), "-releases", "9.9"}, `no release "9.9"`},
		{[]string{"build", "-schemas", filepath.Join(root, "4.0"), "-out", t.TempDir(), "-releases", "4.0"}, "-releases picks from a folder of releases"},
		{[]string{"list", "-schemas", root, "-releases", "4.0"}, "-releases needs -format json"},
	} {
		if _, errs, code := runCmd(t, c.args...); code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %s; want 2 and %q", c.args, code, errs, c.want)
		}
	}
}

// searchResults types q into the search box of the page open in bctx and returns the
// results' text and links once they show.
const searchResults = `((q) => new Promise((done) => {
	const box = document.querySelector('.kg-site input.kg-q');
	box.focus();
	box.value = q;
	box.dispatchEvent(new Event('input', {bubbles: true}));
	let tries = 0;
	const poll = () => {
		const items = Array.from(document.querySelectorAll('.kg-site .kg-results li'));
		if (items.length > 0 || tries++ > 100) {
			done(items.map(li => { const a = li.querySelector('a'); return [li.textContent, a ? a.href : '']; }));
			return;
		}
		setTimeout(poll, 30);
	};
	poll();
}))`

// TestSiteInBrowser opens pages of a site of every release in headless Chromium: from every
// kind of page the search finds TopicId, ProducerId, UNKNOWN_TOPIC_ID and KIP-890, each
// result a link to a page of the site; the release switcher keeps the API; the pages fit a
// phone's width, light and dark. Screenshots go to $ARTIFACTS when it is set (keepShot).
func TestSiteInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a site and drives a browser")
	}
	dir := sharedSite(t)
	bctx, _, art := browser(t)
	pages := []string{"index.html", "matrix/Fetch.html", "release/4.0.html", "4.0/api/Fetch.html", "2.2/index.html", "3.3/api/Produce.html"}
	want := map[string]string{ // what the search must find, and a result's text that shows it
		"TopicId":          "Fetch request · Topics[].TopicId · since v13",
		"ProducerId":       "InitProducerId response · ProducerId",
		"UNKNOWN_TOPIC_ID": "UNKNOWN_TOPIC_ID (error code 100)",
		"KIP-890":          "KIP-890",
	}
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
		for _, page := range pages {
			t.Run(screen.name+"/"+page, func(t *testing.T) {
				url := "file://" + filepath.ToSlash(filepath.Join(dir, page))
				if err := chromedp.Do(bctx, chromedp.Navigate(url)); err != nil {
					t.Fatal(err)
				}
				wide, err := chromedp.Run(bctx, chromedp.Evaluate[float64](`document.documentElement.scrollWidth - innerWidth`))
				if err != nil {
					t.Fatal(err)
				}
				if wide > 1 {
					t.Errorf("the page is %g px wider than the screen", wide)
				}
				base := "kafkagrid-site-" + strings.NewReplacer("/", "-", ".html", "").Replace(page) + "-" + screen.name
				keepShot(t, bctx, art, base+".png", chromedp.CaptureScreenshot())
				if strings.Contains(page, "/api/") { // the field tables with each field's history
					if _, err := chromedp.Run(bctx, chromedp.Evaluate[any](`document.getElementById('request-fields').scrollIntoView()`)); err != nil {
						t.Fatal(err)
					}
					notes, err := chromedp.Run(bctx, chromedp.Evaluate[int](`document.querySelectorAll('#request-fields .kg-fnote').length`))
					if err != nil || notes == 0 {
						t.Errorf("no field notes in the request's field table (%v)", err)
					}
					keepShot(t, bctx, art, base+"-fields.png", chromedp.CaptureScreenshot())
					if _, err := chromedp.Run(bctx, chromedp.Evaluate[any](`window.scrollTo(0, 0)`)); err != nil {
						t.Fatal(err)
					}
				}
				if screen.name != "1440-light" && screen.name != "390-dark" {
					return // the search once per page and kind of screen is enough
				}
				for q, w := range want {
					res, err := chromedp.Run(bctx, chromedp.Evaluate[[][2]string](searchResults+fmt.Sprintf("(%q)", q), chromedp.EvalAwaitPromise))
					if err != nil {
						t.Fatal(err)
					}
					found := ""
					for _, r := range res {
						if strings.Contains(r[0], w) {
							found = r[1]
							break
						}
					}
					if found == "" {
						t.Errorf("search %q: no result with %q in %d results: %v", q, w, len(res), first(res, 3))
						continue
					}
					file, _, _ := strings.Cut(strings.TrimPrefix(found, "file://"), "#")
					if _, err := os.Stat(file); err != nil {
						t.Errorf("search %q: the result links %s: %v", q, found, err)
					}
				}
				// What the reader sees with the results open.
				keepShot(t, bctx, art, base+"-search.png", chromedp.CaptureScreenshot())
			})
		}
	}
	// The switcher keeps the API: from 4.0's Fetch to 3.9's Fetch (same version), to 2.2's
	// (which has no v17: its highest).
	for _, c := range []struct{ from, chip, want string }{
		{"4.0/api/Fetch.html", "3.9", "/3.9/api/Fetch.html"},
		{"4.0/api/Fetch.html", "2.2", "/2.2/api/Fetch.html"},
		{"2.4/api/ListOffset.html", "4.1", "/4.1/api/ListOffsets.html"},
	} {
		if err := chromedp.Do(bctx, chromedp.Navigate("file://"+filepath.ToSlash(filepath.Join(dir, c.from)))); err != nil {
			t.Fatal(err)
		}
		href, err := chromedp.Run(bctx, chromedp.Evaluate[string](fmt.Sprintf(
			`(Array.from(document.querySelectorAll('nav.kg-rels a')).find(a => a.firstChild.textContent === %q) || {}).href || ''`, c.chip)))
		if err != nil || href == "" {
			t.Fatalf("%s: no chip %s (%v)", c.from, c.chip, err)
		}
		if err := chromedp.Do(bctx, chromedp.Navigate(href)); err != nil {
			t.Fatal(err)
		}
		type where struct{ Loc, H1 string }
		got, err := chromedp.Run(bctx, chromedp.Evaluate[where](`({Loc: location.pathname, H1: document.querySelector('h1').firstChild.textContent})`))
		if err != nil {
			t.Fatal(err)
		}
		loc := got.Loc
		if api := strings.TrimSuffix(filepath.Base(c.want), ".html"); got.H1 != api {
			t.Errorf("%s, chip %s: the page is %q, want %s", c.from, c.chip, got.H1, api)
		}
		if !strings.HasSuffix(loc, c.want) {
			t.Errorf("%s, chip %s: opened %s, want …%s", c.from, c.chip, loc, c.want)
		}
	}
}

func first(res [][2]string, n int) [][2]string {
	if len(res) > n {
		return res[:n]
	}
	return res
}
