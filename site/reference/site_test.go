package reference

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site/outdir"
	"github.com/twmb/franz-go/pkg/kversion"
)

// allCatalogs loads every release of the shared folder, oldest first, once.
var allCatalogs = sync.OnceValues(func() ([]*kafka.Catalog, error) {
	root, err := testenv.Root()
	if err != nil {
		return nil, err
	}
	dirs, err := testenv.AllIn(root)
	if err != nil {
		return nil, err
	}
	var cats []*kafka.Catalog
	for _, d := range dirs {
		c, err := kafka.LoadCatalog(d)
		if err != nil {
			return nil, err
		}
		cats = append(cats, c)
	}
	return cats, nil
})

func catalogs(t testing.TB) []*kafka.Catalog {
	t.Helper()
	cats, err := allCatalogs()
	if err != nil {
		testenv.Missing(t, err)
	}
	return cats
}

func testHistory(t testing.TB) *History {
	t.Helper()
	h, err := NewHistory(catalogs(t))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// siteCatalogs are the releases of the shared site: every one, or with -short (the run under
// the race detector) the newest three.
func siteCatalogs(t testing.TB) []*kafka.Catalog {
	cats := catalogs(t)
	if testing.Short() && len(cats) > 3 {
		cats = cats[len(cats)-3:]
	}
	return cats
}

func siteHistory(t testing.TB) *History {
	t.Helper()
	h, err := NewHistory(siteCatalogs(t))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// builtSite is one site of every release (-versions highest, pages and books), shared by
// the tests of this file.
var builtSite struct {
	once sync.Once
	dir  string
	sum  SiteSummary
	err  error
}

func testSite(t *testing.T) (string, SiteSummary) {
	t.Helper()
	cats := siteCatalogs(t)
	builtSite.once.Do(func() {
		dir, err := os.MkdirTemp("", "kafkagrid-site-")
		if err != nil {
			builtSite.err = err
			return
		}
		builtSite.dir = dir
		builtSite.sum, builtSite.err = BuildSite(context.Background(), cats, dir, SiteOptions{Options: Options{Formats: HTML | PDF}})
	})
	if builtSite.err != nil {
		t.Fatal(builtSite.err)
	}
	return builtSite.dir, builtSite.sum
}

func TestMain(m *testing.M) {
	code := m.Run()
	if builtSite.dir != "" {
		os.RemoveAll(builtSite.dir)
	}
	if book40.dir != "" {
		os.RemoveAll(book40.dir)
	}
	os.Exit(code)
}

var linkRE = regexp.MustCompile(`\s(?:href|src|action)="([^"]*)"`)
var idRE = regexp.MustCompile(`\sid="([^"]*)"`)

// TestSiteLinks walks every link of every page of a site of every release: each names a file
// of the site, and each #fragment an id of its page. The switcher and the matrix link to
// the pages of other releases, so a wrong one shows here.
func TestSiteLinks(t *testing.T) {
	dir, sum := testSite(t)
	ids := map[string]map[string]bool{}
	idsOf := func(file string) map[string]bool {
		if m, ok := ids[file]; ok {
			return m
		}
		m := map[string]bool{}
		if strings.HasSuffix(file, ".html") {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range idRE.FindAllSubmatch(data, -1) {
				m[string(s[1])] = true
			}
		}
		ids[file] = m
		return m
	}
	pages, links, bad := 0, 0, 0
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		pages++
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, s := range linkRE.FindAllSubmatch(data, -1) {
			href := string(s[1])
			links++
			u, err := url.Parse(strings.ReplaceAll(href, "&amp;", "&"))
			if err != nil || u.Scheme != "" || u.Host != "" {
				t.Errorf("%s: link %q leaves the site", p, href)
				bad++
				continue
			}
			target := p
			if u.Path != "" {
				target = filepath.Join(filepath.Dir(p), filepath.FromSlash(u.Path))
			}
			if rel, err := filepath.Rel(dir, target); err != nil || strings.HasPrefix(rel, "..") {
				t.Errorf("%s: link %q leaves the site's folder", p, href)
				bad++
				continue
			}
			if _, err := os.Stat(target); err != nil {
				t.Errorf("%s: link %q: %v", p, href, err)
				bad++
			} else if u.Fragment != "" && !idsOf(target)[u.Fragment] {
				t.Errorf("%s: link %q: no id %q there", p, href, u.Fragment)
				bad++
			}
			if bad > 20 {
				t.Fatal("too many broken links")
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	cats := siteCatalogs(t)
	wantPages := len(cats) + 1 + len(siteHistory(t).APIs) // release pages, the index, the matrices
	for _, c := range cats {
		wantPages += len(c.APIs) + 3 // the APIs' pages, the release's index, error codes and primitive types
	}
	if pages != wantPages {
		t.Errorf("%d pages, want %d", pages, wantPages)
	}
	t.Logf("%d pages, %d links; search index %d bytes", pages, links, sum.SearchIndex)
	if links < pages*10 {
		t.Errorf("only %d links in %d pages", links, pages)
	}
}

// rawSpec is what the matrix needs of a request schema, read with encoding/json apart from
// the schemas package.
type rawSpec struct {
	APIKey             *int16 `json:"apiKey"`
	Type               string `json:"type"`
	Name               string `json:"name"`
	ValidVersions      string `json:"validVersions"`
	FlexibleVersions   string `json:"flexibleVersions"`
	DeprecatedVersions string `json:"deprecatedVersions"`
	Unstable           any    `json:"latestVersionUnstable"`
}

// stripLineComments drops // comments outside strings, as Kafka's schema files have them.
func stripLineComments(b []byte) []byte {
	var out bytes.Buffer
	in := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case in && c == '\\' && i+1 < len(b):
			out.WriteByte(c)
			i++
			out.WriteByte(b[i])
			continue
		case c == '"':
			in = !in
		case !in && c == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				i++
			}
			out.WriteByte('\n')
			continue
		}
		out.WriteByte(c)
	}
	return out.Bytes()
}

// rangeOf reads "3-12", "9+", "0" or "none" into a set of versions (open ranges up to top).
func rangeOf(t *testing.T, s string, top int) map[int]bool {
	m := map[int]bool{}
	s = strings.TrimSpace(s)
	if s == "" || s == "none" {
		return m
	}
	lo, hi := s, s
	if strings.HasSuffix(s, "+") {
		lo, hi = strings.TrimSuffix(s, "+"), strconv.Itoa(top)
	} else if a, b, ok := strings.Cut(s, "-"); ok {
		lo, hi = a, b
	}
	l, err1 := strconv.Atoi(lo)
	h, err2 := strconv.Atoi(hi)
	if err1 != nil || err2 != nil {
		t.Fatalf("versions %q", s)
	}
	for v := l; v <= h; v++ {
		m[v] = true
	}
	return m
}

// TestMatrixAgainstSchemas derives every API's matrix a second way, from the schema files
// read with encoding/json (not the schemas package), and checks the History's, its JSON and
// its page against it: each release's versions, flexible and deprecated ones, and for each
// version the release that first had it and the one that removed it.
func TestMatrixAgainstSchemas(t *testing.T) {
	h := siteHistory(t)
	root, _ := testenv.Root()
	dirs, _ := testenv.AllIn(root)
	dirs = dirs[len(dirs)-len(h.Releases):]
	type relAPI struct {
		name             string
		valid, flex, dep map[int]bool
	}
	want := map[int16][]*relAPI{} // by key, per release
	for ri, d := range dirs {
		files, _ := filepath.Glob(filepath.Join(d, "*Request.json"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var s rawSpec
			// The first value only: 2.8's DescribeProducersRequest.json has a stray "]" after
			// it, which Kafka's generator (Jackson) never reads.
			if err := json.NewDecoder(bytes.NewReader(stripLineComments(data))).Decode(&s); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if s.Type != "request" || s.APIKey == nil {
				continue
			}
			valid := rangeOf(t, s.ValidVersions, 0)
			if len(valid) == 0 {
				continue
			}
			top := 0
			for v := range valid {
				top = max(top, v)
			}
			if want[*s.APIKey] == nil {
				want[*s.APIKey] = make([]*relAPI, len(dirs))
			}
			want[*s.APIKey][ri] = &relAPI{name: strings.TrimSuffix(s.Name, "Request"), valid: valid,
				flex: rangeOf(t, s.FlexibleVersions, top), dep: rangeOf(t, s.DeprecatedVersions, top)}
		}
	}
	m := h.Matrix()
	if len(m.APIs) != len(want) {
		t.Errorf("%d APIs in the matrix, %d in the schemas", len(m.APIs), len(want))
	}
	dir, _ := testSite(t)
	for _, am := range m.APIs {
		rows := want[am.Key]
		if rows == nil {
			t.Errorf("key %d %s: not in the schemas", am.Key, am.Name)
			continue
		}
		page, err := os.ReadFile(filepath.Join(dir, MatrixPageName(am.Name)))
		if err != nil {
			t.Fatal(err)
		}
		for ri, rm := range am.Releases {
			w := rows[ri]
			set := func(s string) map[int]bool {
				top := 0
				if w != nil {
					for v := range w.valid {
						top = max(top, v)
					}
				}
				r := rangeOf(t, s, top)
				if w != nil { // deprecated and flexible as far as the release accepts
					for v := range r {
						if !w.valid[v] {
							delete(r, v)
						}
					}
				}
				return r
			}
			if w == nil {
				if rm.Valid != "none" {
					t.Errorf("%s in %s: %s, but the release has no such request", am.Name, rm.Release, rm.Valid)
				}
				continue
			}
			inter := func(a map[int]bool) map[int]bool {
				out := map[int]bool{}
				for v := range a {
					if w.valid[v] {
						out[v] = true
					}
				}
				return out
			}
			if got := set(rm.Valid); fmt.Sprint(got) != fmt.Sprint(w.valid) || rm.Name != w.name {
				t.Errorf("%s in %s: %s %v, schemas %s %v", am.Name, rm.Release, rm.Name, got, w.name, w.valid)
			}
			if got := set(rm.Flexible); fmt.Sprint(got) != fmt.Sprint(inter(w.flex)) {
				t.Errorf("%s in %s: flexible %v, schemas %v", am.Name, rm.Release, got, inter(w.flex))
			}
			if got := set(rm.Deprecated); fmt.Sprint(got) != fmt.Sprint(inter(w.dep)) {
				t.Errorf("%s in %s: deprecated %v, schemas %v", am.Name, rm.Release, got, inter(w.dep))
			}
			// The page's row has a cell per version, "yes" where the release accepts it.
			rowRE := regexp.MustCompile(`<th class="rel"><a href="[^"]*">` + regexp.QuoteMeta(rm.Release) + `</a></th><td>[^<]*</td>(.*?)</tr>`)
			row := rowRE.FindSubmatch(page)
			if row == nil {
				t.Errorf("%s: page has no row for %s", am.Name, rm.Release)
				continue
			}
			if n := bytes.Count(row[1], []byte(`class="yes`)); n != len(w.valid) {
				t.Errorf("%s page, %s: %d versions marked, the schemas have %d", am.Name, rm.Release, n, len(w.valid))
			}
		}
		for _, vm := range am.Versions {
			v := int(vm.Version)
			first, removed := "", ""
			had := false
			for ri, w := range rows {
				has := w != nil && w.valid[v]
				switch {
				case has && first == "":
					first = m.Releases[ri]
				case !has && had && removed == "":
					removed = m.Releases[ri]
				}
				had = had || has
			}
			if vm.First != first || vm.Removed != removed {
				t.Errorf("%s v%d: first %q removed %q, schemas say first %q removed %q", am.Name, v, vm.First, vm.Removed, first, removed)
			}
		}
	}
	// KIP-896: 4.0 removed Produce v0-2 and Fetch v0-3.
	for _, c := range []struct {
		key  int16
		v    int16
		want string
	}{{0, 0, "4.0"}, {0, 2, "4.0"}, {1, 3, "4.0"}, {1, 4, ""}} {
		for _, am := range m.APIs {
			if am.Key == c.key {
				for _, vm := range am.Versions {
					if vm.Version == c.v && vm.Removed != c.want {
						t.Errorf("%s v%d removed in %q, want %q", am.Name, c.v, vm.Removed, c.want)
					}
				}
			}
		}
	}
}

// kversionDiff is a known difference between releases.json and franz-go's kversion tables.
type kversionDiff struct {
	release string
	key     int16
	ours    int16 // -1: not in our table
	theirs  int16 // -1: not in theirs
	why     string
}

// kversionDiffs are the differences between releases.json and franz-go v1.22.3's kversion
// tables for the APIs both know, each explained (the report lists them).
var kversionDiffs = []kversionDiff{}

// TestReleasesJSONAgainstKversion checks releases.json's highest version of every API against
// franz-go's hand-kept kversion tables, for each release both have; min versions are ours
// alone (kversion keeps only the highest). Every difference must be one of kversionDiffs, and
// every one of those must still be a difference.
func TestReleasesJSONAgainstKversion(t *testing.T) {
	h := testHistory(t)
	var doc map[string]map[string][2]int16
	if err := json.Unmarshal(h.ReleasesJSON(), &doc); err != nil {
		t.Fatal(err)
	}
	tables := map[string]func() *kversion.Versions{
		"2.2": kversion.V2_2_0, "2.4": kversion.V2_4_0, "2.8": kversion.V2_8_0, "3.0": kversion.V3_0_0,
		"3.3": kversion.V3_3_0, "3.6": kversion.V3_6_0, "3.9": kversion.V3_9_0, "4.0": kversion.V4_0_0, "4.1": kversion.V4_1_0,
	}
	known := map[[2]string]kversionDiff{}
	for _, d := range kversionDiffs {
		known[[2]string{d.release, strconv.Itoa(int(d.key))}] = d
	}
	seen := map[[2]string]bool{}
	compared, brokerless := 0, 0
	outside := map[string][]string{}
	for _, rel := range h.Releases {
		fn := tables[rel]
		if fn == nil {
			t.Logf("kversion has no table for %s", rel)
			continue
		}
		kv := fn()
		ours := doc[rel]
		for k := int16(0); k < 200; k++ {
			ks := strconv.Itoa(int(k))
			o, inOurs := ours[ks]
			theirs, inTheirs := kv.LookupMaxKeyVersion(k)
			if !inOurs && !inTheirs {
				continue
			}
			if inOurs && !inTheirs && !kversionScope(h, rel, k) {
				brokerless++
				outside[rel] = append(outside[rel], ks)
				continue
			}
			got := kversionDiff{release: rel, key: k, ours: -1, theirs: -1}
			if inOurs {
				got.ours = o[1]
			}
			if inTheirs {
				got.theirs = theirs
			}
			compared++
			if got.ours == got.theirs {
				continue
			}
			id := [2]string{rel, ks}
			d, ok := known[id]
			seen[id] = true
			if !ok || d.ours != got.ours || d.theirs != got.theirs {
				t.Errorf("Kafka %s key %d: releases.json max %d, kversion %d (-1: absent): not an explained difference", rel, k, got.ours, got.theirs)
			}
		}
	}
	for id, d := range known {
		if !seen[id] {
			t.Errorf("Kafka %s key %d: the explained difference (%s) is gone", d.release, d.key, d.why)
		}
	}
	for _, rel := range h.Releases {
		if len(outside[rel]) > 0 {
			t.Logf("Kafka %s: keys %s are outside kversion's table", rel, strings.Join(outside[rel], " "))
		}
	}
	t.Logf("%d APIs compared; %d in releases.json only, outside kversion's broker tables (kversionScope)", compared, brokerless)
	if compared < 400 {
		t.Errorf("only %d APIs compared", compared)
	}
}

// sharedNames are the releases of the shared folder, which the exact texts of TestFieldNotes
// are about (which releases are between two of them, what the oldest is).
var sharedNames = []string{"2.2", "2.4", "2.8", "3.0", "3.3", "3.6", "3.9", "4.0", "4.1"}

// TestFieldNotes checks what the field tables say of fields across releases, from the
// schemas alone: word for word over the shared releases (taken from the folder, which may
// have more), and over every release of the folder, the release each note names is the
// first whose request has the version.
func TestFieldNotes(t *testing.T) {
	byName := map[string]*kafka.Catalog{}
	for _, c := range catalogs(t) {
		byName[c.Release.Name()] = c
	}
	var shared []*kafka.Catalog
	for _, n := range sharedNames {
		c, ok := byName[n]
		if !ok {
			testenv.Missing(t, fmt.Errorf("no Kafka %s in the folder of releases", n))
		}
		shared = append(shared, c)
	}
	h, err := NewHistory(shared)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		key      int16
		response bool
		path     string
		want     []string
	}{
		{1, false, "Topics[].TopicId", []string{"since v13 (Kafka 3.3; new after 3.0)"}},
		{1, false, "Topics[].Topic", []string{"since v0 (Kafka 2.2 or earlier)", "removed in v13 (Kafka 3.3; new after 3.0)"}},
		{1, false, "ReplicaState", []string{"since v15 (Kafka 3.6; new after 3.3)", "tagged from v15 (Kafka 3.6; new after 3.3)"}},
		{1, false, "ClusterId", []string{"since v12 (Kafka 2.8; new after 2.4)", "tagged from v12", "nullable since v12"}},
		{1, false, "MaxWaitMs", []string{"since v0 (Kafka 2.2 or earlier)"}},
	} {
		fh := h.Field(c.key, c.response, c.path)
		if fh == nil {
			t.Errorf("key %d %s: no history", c.key, c.path)
			continue
		}
		got := strings.Join(fh.Notes(h), "; ")
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("key %d %s: %q lacks %q", c.key, c.path, got, w)
			}
		}
	}
	// 2.4's Produce Topics[].Partitions[].PartitionIndex is 2.8's TopicData[].PartitionData[].Index:
	// every struct above it renamed too.
	if fh := h.FieldAt(1, 0, false, "Topics[].Partitions[].PartitionIndex"); fh == nil || fh.Path != "TopicData[].PartitionData[].Index" ||
		!strings.HasPrefix(strings.Join(fh.Notes(h), "; "), "since v0 (Kafka 2.2 or earlier)") {
		t.Errorf("2.4's Produce PartitionIndex: %+v", fh)
	}
	// 2.2's MaxWait is 2.8's MaxWaitMs (the same bytes, renamed): one history.
	if fh := h.FieldAt(0, 1, false, "MaxWait"); fh == nil || fh.Path != "MaxWaitMs" || strings.Join(fh.Names, ",") != "MaxWait,MaxWaitMs" {
		t.Errorf("2.2's Fetch MaxWait: %+v", fh)
	}

	// Every release of the folder: each note names the first release with the version.
	all := testHistory(t)
	first := func(key int16, v int16) string {
		for _, c := range all.Cats {
			if a, ok := c.Lookup(strconv.Itoa(int(key))); ok && a.Request.ValidIn(v) {
				return c.Release.Name()
			}
		}
		return ""
	}
	for _, c := range []struct {
		key   int16
		path  string
		notes []string // "since", "tagged from", "nullable since", "removed in"
		v     int16
	}{
		{1, "Topics[].TopicId", []string{"since"}, 13},
		{1, "Topics[].Topic", []string{"removed in"}, 13},
		{1, "ReplicaState", []string{"since", "tagged from"}, 15},
		{1, "ClusterId", []string{"since", "tagged from", "nullable since"}, 12},
	} {
		fh := all.Field(c.key, false, c.path)
		rel := first(c.key, c.v)
		if fh == nil || rel == "" {
			t.Errorf("key %d %s: history %v, first release with v%d %q", c.key, c.path, fh, c.v, rel)
			continue
		}
		got := strings.Join(fh.Notes(all), "; ")
		for _, n := range c.notes {
			w := fmt.Sprintf("%s v%d (Kafka %s", n, c.v, rel)
			if i := strings.Index(got, w); i < 0 || !strings.ContainsAny(got[i+len(w):][:1], ");") {
				t.Errorf("every release: key %d %s: %q lacks %q", c.key, c.path, got, w+")")
			}
		}
	}
}

// TestFollows: which release comes right after which, for the "new after" of the notes.
func TestFollows(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"3.0", "3.1", true},
		{"3.0", "3.3", false},
		{"3.9", "4.0", true},
		{"3.8", "4.0", true}, // a major release follows its line's last minor one, whichever
		{"2.4", "2.8", false},
		{"3.9", "4.0-trunk-2024-10", true}, // a snapshot of 4.0 is 4.0 here
		{"4.0-trunk-2024-10", "4.0", true},
		{"4.0-trunk-2024-10", "4.1", true},
		{"3.7", "4.0-trunk-2024-10", true},
		{"3.6", "3.9.1", false},
		{"4.1.0-rc1", "4.2", true},
		{"4.0", "trunk", true},
	} {
		if got := follows(c.a, c.b); got != c.want {
			t.Errorf("follows(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// TestReleasePageIsDiff checks that a release page says what "kafkagrid diff" says: the
// same document, here with links.
func TestReleasePageIsDiff(t *testing.T) {
	dir, _ := testSite(t)
	page, err := os.ReadFile(filepath.Join(dir, ReleasePageName("4.0")))
	if err != nil {
		t.Fatal(err)
	}
	h := siteHistory(t)
	doc := NewDiffDoc(h.Diffs[h.index("4.0")])
	for _, a := range doc.APIs {
		for _, f := range a.Fields {
			if !bytes.Contains(page, []byte(templateEscape(f.Text))) {
				t.Errorf("the 4.0 page lacks %q", f.Text)
			}
		}
		if a.VersionsCut != "" && !bytes.Contains(page, []byte(templateEscape(a.VersionsCut))) {
			t.Errorf("the 4.0 page lacks %q", a.VersionsCut)
		}
	}
	for _, w := range []string{`<a href="../matrix/Produce.html">Produce</a>`, "removed v0-2, added v12", `<a href="../4.0/api/Produce.html">Produce</a>`} {
		if !bytes.Contains(page, []byte(w)) {
			t.Errorf("the 4.0 page lacks %q", w)
		}
	}
}

func templateEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '"':
			b.WriteString("&#34;")
		case '\'':
			b.WriteString("&#39;")
		case '+':
			b.WriteString("&#43;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestSwitcher checks the release switcher of one page: 4.0's Fetch v17 page links 3.9's
// Fetch v17 page, and says that 2.2 has no v17 (its link opens 2.2's Fetch at its highest).
func TestSwitcher(t *testing.T) {
	if testing.Short() {
		t.Skip("needs 2.2 in the site")
	}
	dir, _ := testSite(t)
	page, err := os.ReadFile(filepath.Join(dir, "4.0", "api", "Fetch.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{
		`<a href="../../3.9/api/Fetch.html" title="Fetch v17 in Kafka 3.9">3.9</a>`,
		`<a href="../../2.2/api/Fetch.html" title="Kafka 2.2 has Fetch v0-10, not v17: the link opens v10" class="miss">2.2<small>v10</small></a>`,
		`aria-current="page">4.0</a>`,
		"Fetch v17 is not in every release: 2.2 (v0-10)",
		`<a href="../../matrix/Fetch.html"`,
		`<script src="../../site.js" defer></script>`,
	} {
		if !bytes.Contains(page, []byte(w)) {
			t.Errorf("4.0's Fetch page lacks %s", w)
		}
	}
	// The matrix page's switcher opens each release's page of the API.
	page, err = os.ReadFile(filepath.Join(dir, MatrixPageName("ListOffsets")))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{`<a href="../2.4/api/ListOffset.html" title="ListOffset in Kafka 2.4">2.4</a>`, `<a href="../4.1/api/ListOffsets.html" title="ListOffsets in Kafka 4.1">4.1</a>`} {
		if !bytes.Contains(page, []byte(w)) {
			t.Errorf("the ListOffsets matrix lacks %s", w)
		}
	}
	// An API a release lacks: 4.1's StreamsGroupHeartbeat (88) points 4.0 to its index.
	page, err = os.ReadFile(filepath.Join(dir, "4.1", "api", "StreamsGroupHeartbeat.html"))
	if err != nil {
		t.Fatal(err)
	}
	if w := `<a href="../../4.0/index.html" title="Kafka 4.0 has no StreamsGroupHeartbeat (API key 88)" class="miss">4.0</a>`; !bytes.Contains(page, []byte(w)) {
		t.Errorf("4.1's StreamsGroupHeartbeat page lacks %s", w)
	}
}

// TestSearchIndex checks the index finds what the search box must: TopicId in every message
// that has it, ProducerId, UNKNOWN_TOPIC_ID and KIP-890 named in the schemas.
func TestSearchIndex(t *testing.T) {
	dir, sum := testSite(t)
	data, err := os.ReadFile(filepath.Join(dir, "search-index.js"))
	if err != nil {
		t.Fatal(err)
	}
	if len(data) != sum.SearchIndex {
		t.Errorf("search-index.js has %d bytes, the summary says %d", len(data), sum.SearchIndex)
	}
	js := string(data)
	i, j := strings.Index(js, "window.KG_INDEX="), strings.LastIndex(js, ";")
	var idx struct {
		R []string
		A [][2]any
		F [][2]json.RawMessage
		E [][3]json.RawMessage
		K [][2]json.RawMessage
	}
	if i < 0 || j < i {
		t.Fatal("no KG_INDEX")
	}
	if err := json.Unmarshal([]byte(js[i+len("window.KG_INDEX="):j]), &idx); err != nil {
		t.Fatal(err)
	}
	find := func(list [][2]json.RawMessage, name string) int {
		for _, e := range list {
			var n string
			json.Unmarshal(e[0], &n)
			if n == name {
				var hits []json.RawMessage
				json.Unmarshal(e[1], &hits)
				return len(hits)
			}
		}
		return -1
	}
	// Every message with a TopicId field, counted from the schemas.
	h := siteHistory(t)
	topicIDs := 0
	for _, fh := range h.fields {
		if fh.Names[len(fh.Names)-1] == "TopicId" || containsName(fh.Names, "TopicId") {
			topicIDs++
		}
	}
	if n := find(idx.F, "TopicId"); n != topicIDs || n < 10 {
		t.Errorf("TopicId: %d hits, %d fields of that name in the schemas", n, topicIDs)
	}
	if n := find(idx.F, "ProducerId"); n < 5 {
		t.Errorf("ProducerId: %d hits", n)
	}
	if n := find(idx.K, "KIP-890"); n < 1 {
		t.Errorf("KIP-890: %d hits", n)
	}
	found := false
	for _, e := range idx.E {
		var name string
		json.Unmarshal(e[1], &name)
		if name == "UNKNOWN_TOPIC_ID" {
			var hits []json.RawMessage
			json.Unmarshal(e[2], &hits)
			found = len(hits) > 0
		}
	}
	if !found {
		t.Error("UNKNOWN_TOPIC_ID: named in no schema")
	}
	// Small enough to load at once on a phone: 82 KiB for 2.2–4.1 (12 KiB gzipped), 72 KiB
	// for 3.9–4.1 (a field is listed once however many releases have it): a bound on bytes.
	if limit := 64<<10 + 8<<10*len(idx.R); len(data) > limit {
		t.Errorf("search-index.js has %d bytes for %d releases, over %d", len(data), len(idx.R), limit)
	}
	t.Logf("search-index.js: %d bytes", len(data))
}

// kversionScope reports whether franz-go's table of a release has an API at all: before 4.0
// its tables are a ZooKeeper-mode broker's (z28 … z39: the APIs whose listeners include
// zkBroker, every API before listeners were written down), from 4.0 a KRaft broker's (b40,
// b41: listener broker). KRaft controller and inter-broker APIs (55 DescribeQuorum, 64
// UnregisterBroker, 80 AddRaftVoter …) and the KRaft-only APIs 3.x added (71
// GetTelemetrySubscriptions, 75 DescribeTopicPartitions …) are outside it.
func kversionScope(h *History, rel string, key int16) bool {
	ri := h.index(rel)
	zk := false
	for _, ah := range h.APIs {
		if a := ah.Rows[ri].API; a != nil && containsName(a.Listeners, "zkBroker") {
			zk = true
		}
	}
	a := h.API(key).Rows[ri].API
	if zk {
		return containsName(a.Listeners, "zkBroker")
	}
	return len(a.Listeners) == 0 || containsName(a.Listeners, "broker")
}

func (h *History) index(rel string) int {
	for i, r := range h.Releases {
		if r == rel {
			return i
		}
	}
	return -1
}

func containsName(names []string, n string) bool {
	for _, x := range names {
		if x == n {
			return true
		}
	}
	return false
}

// BenchmarkNewHistory reads the history of every release: APIs, versions and fields.
func BenchmarkNewHistory(b *testing.B) {
	cats := catalogs(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := NewHistory(cats); err != nil {
			b.Fatal(err)
		}
	}
}

func TestSafeReleaseName(t *testing.T) {
	for name, want := range map[string]bool{
		"4.0": true, "3.9.1": true, "trunk": true, "4.1-rc1": true,
		"": false, ".": false, "..": false, "a/b": false, `a\b`: false, "matrix": false, "release": false,
		"site.js": false, "index.html": false, "releases.json": false, "search-index.js": false, ".kafkagrid-manifest": false,
		"4.0 beta": false, strings.Repeat("9", 65): false,
	} {
		if got := safeReleaseName(name); got != want {
			t.Errorf("safeReleaseName(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestSitePlan: the site's plan of its root files is what it writes there (its root's
// manifest), so that the check before the first file covers every one.
func TestSitePlan(t *testing.T) {
	dir, _ := testSite(t)
	m, err := outdir.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	var written []string
	for f := range m.Files {
		written = append(written, f)
	}
	sb := &siteBuilder{h: siteHistory(t)}
	plan := sb.plan()
	slices.Sort(written)
	slices.Sort(plan)
	if !slices.Equal(plan, written) {
		t.Errorf("planned %d files, wrote %d\nplanned: %v\nwritten: %v", len(plan), len(written), plan, written)
	}
}

// TestSiteClashWritesNothing: a file of the user's where a site of releases would write one,
// at its root or in a release's folder, stops the site before its first file is written.
func TestSiteClashWritesNothing(t *testing.T) {
	cats := siteCatalogs(t)
	last := cats[len(cats)-1].Release.Name()
	for _, mine := range []string{"matrix/Produce.html", "site.js", last + "/api/Produce.html"} {
		t.Run(mine, func(t *testing.T) {
			out := t.TempDir()
			p := filepath.Join(out, filepath.FromSlash(mine))
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte("mine"), 0o644); err != nil {
				t.Fatal(err)
			}
			before := files(t, out)
			_, err := BuildSite(context.Background(), cats, out, SiteOptions{Options: Options{Formats: HTML}})
			if err == nil || !strings.Contains(err.Error(), mine+" exists and was not written by kafkagrid") || !strings.Contains(err.Error(), "nothing was written") {
				t.Fatalf("err %v, want one naming %s and \"nothing was written\"", err, mine)
			}
			if after := files(t, out); !slices.Equal(after, before) {
				t.Errorf("the folder changed: %v, was %v", after, before)
			}
		})
	}
}
