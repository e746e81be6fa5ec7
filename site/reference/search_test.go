package reference

import (
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/kafka"
)

// searchDriver runs site.js's search in node over a site's search-index.js: it reads queries,
// one JSON [query, release index] a line, and prints each one's results as a JSON line.
const searchDriver = `
global.window = {};
require(process.argv[2]);
const s = require(process.argv[3]);
const lines = require('fs').readFileSync(0, 'utf8').split('\n').filter(Boolean);
for (const l of lines) {
  const [q, cur] = JSON.parse(l);
  console.log(JSON.stringify(s.search('', window.KG_INDEX, q, cur).map(r => [r[1], r[2], r[3], r[4]])));
}
`

type searchQuery struct {
	Q   string
	Cur int // the index of the page's release, -1 off release pages
}

// runSearch answers queries with the search of the page's script, run by node.
func runSearch(t *testing.T, dir string, qs []searchQuery) [][][4]string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("node is required in CI: %v", err)
		}
		t.Skip("node not installed")
	}
	tmp := t.TempDir()
	drv, js := filepath.Join(tmp, "drive.js"), filepath.Join(tmp, "site.js")
	if err := os.WriteFile(drv, []byte(searchDriver), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(js, siteJS, 0o644); err != nil {
		t.Fatal(err)
	}
	var in strings.Builder
	for _, q := range qs {
		b, _ := json.Marshal([]any{q.Q, q.Cur})
		in.Write(b)
		in.WriteByte('\n')
	}
	cmd := exec.Command(node, drv, filepath.Join(dir, "search-index.js"), js)
	cmd.Stdin = strings.NewReader(in.String())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var res [][][4]string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var r [][4]string
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("node printed %q: %v", l, err)
		}
		res = append(res, r)
	}
	if len(res) != len(qs) {
		t.Fatalf("%d answers to %d queries", len(res), len(qs))
	}
	return res
}

// TestSearchVersionsAndReleases runs the site's search as a reader types it: "fetch vN" (or
// "version N", or the API key) opens the page of that version, in the page's own release
// where it was built there, else the newest release that built it; a field, an error code
// or a KIP found from a release's page links into that release where it has them. Every link
// a result gives is a file of the site.
func TestSearchVersionsAndReleases(t *testing.T) {
	dir, _ := testSite(t)
	cats := siteCatalogs(t)
	var qs []searchQuery
	type want struct{ title, href string }
	var wants []want
	last := len(cats) - 1
	for i, c := range cats {
		fetch, ok := c.Lookup("Fetch")
		if !ok {
			continue
		}
		top := fetch.Version
		rel := fetch.Release
		// From its own release's page, in three spellings.
		for _, q := range []string{"fetch v" + strconv.Itoa(int(top)), "Fetch  version " + strconv.Itoa(int(top)), "1 v" + strconv.Itoa(int(top))} {
			qs = append(qs, searchQuery{q, i})
			wants = append(wants, want{"Fetch v" + strconv.Itoa(int(top)), rel + "/api/Fetch.html"})
		}
		// From the newest release's page: the newest release that built it.
		newest := i
		for j := last; j > i; j-- {
			if f, ok := cats[j].Lookup("Fetch"); ok && f.Version == top {
				newest = j
				break
			}
		}
		qs = append(qs, searchQuery{"fetch v" + strconv.Itoa(int(top)), last})
		wants = append(wants, want{"Fetch v" + strconv.Itoa(int(top)), releaseOf(cats[newest]) + "/api/Fetch.html"})
	}
	// A version no release built: the API's matrix, said so.
	qs = append(qs, searchQuery{"fetch v99", last})
	wants = append(wants, want{"Fetch v99", "matrix/Fetch.html"})
	res := runSearch(t, dir, qs)
	for k, q := range qs {
		if len(res[k]) == 0 || res[k][0][1] != wants[k].title || res[k][0][3] != wants[k].href {
			t.Errorf("%q from release %d: first result %v, want %q → %s", q.Q, q.Cur, first(res[k]), wants[k].title, wants[k].href)
		}
	}

	// Staying in the release: from each release's page, the TopicId, UNKNOWN_TOPIC_ID and
	// KIP-890 results that name that release in their range link into it.
	var stay []searchQuery
	for i := range cats {
		for _, q := range []string{"TopicId", "UNKNOWN_TOPIC_ID", "KIP-890"} {
			stay = append(stay, searchQuery{q, i})
		}
	}
	links := 0
	for k, r := range runSearch(t, dir, stay) {
		rel := releaseOf(cats[stay[k].Cur])
		inRel := 0
		for _, hit := range r {
			if hit[3] == "" {
				continue
			}
			u, err := url.Parse(hit[3])
			if err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(u.Path))); err != nil {
				t.Errorf("%q: result %v links to no file", stay[k].Q, hit)
			}
			links++
			if strings.HasPrefix(hit[3], rel+"/") {
				inRel++
			}
		}
		if len(r) > 0 && inRel == 0 && stay[k].Cur == last {
			t.Errorf("%q from Kafka %s: no result links into %s: %v", stay[k].Q, rel, rel, r)
		}
		if stay[k].Q == "TopicId" && hasTopicIDs(cats[stay[k].Cur]) && inRel == 0 {
			t.Errorf("TopicId from Kafka %s: no result links into %s", rel, rel)
		}
	}
	t.Logf("%d links checked", links)
}

func first(r [][4]string) any {
	if len(r) == 0 {
		return "none"
	}
	return r[0]
}

// hasTopicIDs reports whether a release's Fetch request has a TopicId field (Kafka 3.1 on).
func hasTopicIDs(c *kafka.Catalog) bool {
	f, ok := c.Lookup("Fetch")
	return ok && f.Version >= 13
}

// releaseOf is a catalogue's release name, as the site's folders are named.
func releaseOf(c *kafka.Catalog) string {
	f, _ := c.Lookup("ApiVersions")
	return f.Release
}
