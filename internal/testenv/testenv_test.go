package testenv

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFindsReleases(t *testing.T) {
	tmp := t.TempDir()
	for _, rel := range []string{"3.9", "4.0"} {
		os.MkdirAll(filepath.Join(tmp, rel), 0o755)
		os.WriteFile(filepath.Join(tmp, rel, "ProduceRequest.json"), []byte("{}"), 0o644)
	}
	tests := []struct {
		name, env, release, want string
		ok                       bool
	}{
		{"folder of releases", tmp, "4.0", filepath.Join(tmp, "4.0"), true},
		{"release folder", filepath.Join(tmp, "3.9"), "3.9", filepath.Join(tmp, "3.9"), true},
		{"sibling of a release folder", filepath.Join(tmp, "3.9"), "4.0", filepath.Join(tmp, "4.0"), true},
		{"missing release", tmp, "4.1", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("KAFKA_SCHEMAS", tt.env)
			got, err := ReleaseDir(tt.release)
			if (err == nil) != tt.ok || got != tt.want {
				t.Errorf("ReleaseDir(%q) = %q, %v; want %q, ok %v", tt.release, got, err, tt.want, tt.ok)
			}
		})
	}
}

func TestAllInVersionOrder(t *testing.T) {
	tmp := t.TempDir()
	for _, rel := range []string{"4.0", "10.0", "2.4", "3.10", "3.9", "4.0-trunk-2024-10", "notes"} {
		os.MkdirAll(filepath.Join(tmp, rel), 0o755)
		if rel != "notes" {
			os.WriteFile(filepath.Join(tmp, rel, "ProduceRequest.json"), []byte("{}"), 0o644)
		}
	}
	// A release kept elsewhere, linked in: read as the folder it points to.
	elsewhere := t.TempDir()
	os.WriteFile(filepath.Join(elsewhere, "ProduceRequest.json"), []byte("{}"), 0o644)
	if err := os.Symlink(elsewhere, filepath.Join(tmp, "4.1")); err != nil {
		t.Fatal(err)
	}
	got, err := AllIn(tmp)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range got {
		names = append(names, filepath.Base(d))
	}
	if want := "2.4 3.9 3.10 4.0-trunk-2024-10 4.0 4.1 10.0"; strings.Join(names, " ") != want {
		t.Errorf("got %v, want %s", names, want)
	}
	if _, err := AllIn(filepath.Join(tmp, "notes")); err == nil {
		t.Error("a folder without releases: no error")
	}
	if err := os.Symlink(filepath.Join(tmp, "gone"), filepath.Join(tmp, "4.2")); err != nil {
		t.Fatal(err)
	}
	if _, err := AllIn(tmp); err == nil || !strings.Contains(err.Error(), "4.2: a dangling symbolic link") {
		t.Errorf("a dangling link among the releases: %v", err)
	}
}

func TestPoll(t *testing.T) {
	n := 0
	Poll(t, "the third call", func() bool { n++; return n == 3 })
	if n != 3 {
		t.Errorf("done called %d times, want 3", n)
	}
}
