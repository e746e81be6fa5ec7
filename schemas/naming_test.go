package schemas

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
)

// TestKnownReleases: knownreleases.txt has a line for every release found, which names it;
// -update rewrites the table from them (named after their folders).
func TestKnownReleases(t *testing.T) {
	rs := map[string]*Release{}
	var names []string
	for _, dir := range testenv.All(t) { // oldest first
		r, err := Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		rs[filepath.Base(dir)] = r
		names = append(names, filepath.Base(dir))
	}
	want := knownReleaseLines(names, rs)
	if testenv.Update() {
		if err := os.WriteFile("knownreleases.txt", []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		knownReleasesText = want
	}
	for name, r := range rs {
		if !strings.Contains(knownReleasesText, "\n"+name+" ") {
			t.Logf("release %s is not in knownreleases.txt (go test ./schemas -run TestKnownReleases -update)", name)
			continue
		}
		if got := r.KnownRelease(); got != name {
			t.Errorf("the folder %s is known as release %q, want %q", r.Dir, got, name)
		}
	}
}

// TestReleaseNamedByContents: a release folder is named by what it holds, not by what it is
// called: a Kafka checkout by its gradle.properties version, a copy of a known release by
// that release, and only what neither names by the folder (or SetName, the -name flag).
func TestReleaseNamedByContents(t *testing.T) {
	src := testenv.Release(t, "4.0")
	copyTo := func(dir string) {
		t.Helper()
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		entries, _ := os.ReadDir(src)
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".json") {
				b, err := os.ReadFile(filepath.Join(src, e.Name()))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	root := t.TempDir()
	checkout := filepath.Join(root, "kafka", checkoutMessageDir)
	copyTo(checkout)
	os.WriteFile(filepath.Join(root, "kafka", "gradle.properties"), []byte("group=org.apache.kafka\n# NOTE: When you change this version number...\nversion=4.0.1-SNAPSHOT\nscalaVersion=2.13.15\n"), 0o644)
	plain := filepath.Join(root, "message")
	copyTo(plain)
	noGradle := filepath.Join(root, "other", checkoutMessageDir)
	copyTo(noGradle)
	edited := filepath.Join(root, "mine")
	copyTo(edited)
	os.Remove(filepath.Join(edited, "ProduceRequest.json"))
	os.Remove(filepath.Join(edited, "ProduceResponse.json"))
	for _, tc := range []struct{ dir, want string }{
		{checkout, "4.0.1-SNAPSHOT"},
		{noGradle, "4.0"},
		{plain, "4.0"},
		{edited, "mine"},
	} {
		r, err := Open(tc.dir)
		if err != nil {
			t.Fatal(err)
		}
		if r.Name() != tc.want {
			t.Errorf("%s: named %q, want %q", tc.dir, r.Name(), tc.want)
		}
	}
	r, _ := Open(edited)
	r.SetName("4.0-without-produce")
	if r.Name() != "4.0-without-produce" {
		t.Errorf("SetName: %q", r.Name())
	}
}

// TestKnownReleasesWith: the releases that have a version of an API, oldest first.
func TestKnownReleasesWith(t *testing.T) {
	for _, tc := range []struct {
		key  int16
		v    Version
		want string
	}{
		{0, 1, "2.2 2.4 2.8 3.0 3.3 3.6 3.9"}, // Produce v1: gone in 4.0
		{0, 13, "4.1"},
		{0, 99, ""},
		{4, 0, "2.2 2.4 2.8 3.0 3.3 3.6 3.9"}, // LeaderAndIsr: not in 4.0
	} {
		if got := strings.Join(KnownReleasesWith(tc.key, tc.v), " "); got != tc.want {
			t.Errorf("key %d v%d: %q, want %q", tc.key, tc.v, got, tc.want)
		}
	}
}
