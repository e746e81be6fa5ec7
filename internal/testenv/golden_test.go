package testenv

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGolden checks the golden helper's cases in order on one file: a missing golden, -update
// writing it, a run after -update passing, a second -update leaving the same bytes, a
// mismatch writing the got file, and one golden checked with two contents in one run.
func TestGolden(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "a.txt.golden")
	steps := []struct {
		name   string
		path   string
		got    string
		update bool
		want   string // "" for no error, else a part of the error
	}{
		{"missing", path, "one\n", false, "create it with go test -update"},
		{"update", path, "one\n", true, ""},
		{"after update", path, "one\n", false, ""},
		{"update twice", path, "one\n", true, ""},
		{"different bytes in one run", path, "two\n", false, "checked twice in one run"},
		{"mismatch", filepath.Join(dir, "b.svg"), "<svg/>\n", false, "differs from what the code makes now"},
	}
	os.WriteFile(filepath.Join(dir, "b.svg"), []byte("<svg>\n"), 0o644)
	for _, s := range steps {
		err := golden(s.path, []byte(s.got), s.update)
		switch {
		case s.want == "" && err != nil:
			t.Errorf("%s: %v", s.name, err)
		case s.want != "" && (err == nil || !strings.Contains(err.Error(), s.want)):
			t.Errorf("%s: %v, want an error saying %q", s.name, err, s.want)
		}
		if s.name == "update twice" {
			if b, _ := os.ReadFile(path); string(b) != "one\n" {
				t.Errorf("after two updates the golden holds %q", b)
			}
		}
		if s.name == "mismatch" {
			var m *goldenMismatch
			if !errors.As(err, &m) || !strings.Contains(m.diff, "line 1:\n- <svg>\n+ <svg/>") {
				t.Errorf("mismatch: %v", err)
			}
			if b, _ := os.ReadFile(filepath.Join(dir, "b.got.svg")); string(b) != "<svg/>\n" {
				t.Errorf("the got file holds %q", b)
			}
		}
	}
}

func TestGotPath(t *testing.T) {
	for in, want := range map[string]string{
		"testdata/ipv4.svg": "testdata/ipv4.got.svg",
		"testdata/18-ApiVersions-v4-response.txt.golden": "testdata/18-ApiVersions-v4-response.got.txt",
		"testdata/sample.content":                        "testdata/sample.got.content",
		"testdata/frames-4.0.txt":                        "testdata/frames-4.0.got.txt",
	} {
		if got := GotPath(in); got != want {
			t.Errorf("GotPath(%q) = %q, want %q", in, got, want)
		}
	}
}
