package releasedir

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestCompare(t *testing.T) {
	// Each name is before every name after it.
	order := []string{
		"2.2", "2.8", "3.9", "3.10",
		"4.0-SNAPSHOT", "4.0-trunk-2024-10", "4.0-trunk-2025-01", "4.0", "4.0.0", "4.0.1",
		"4.1.0-rc2", "4.1.0-rc10", "4.1", "10.0",
		"notes", "trunk",
	}
	for i, a := range order {
		for j, b := range order {
			want := cmpInt(i, j)
			if got := Compare(a, b); got != want {
				t.Errorf("Compare(%q, %q) = %d, want %d", a, b, got, want)
			}
		}
	}
	shuffled := slices.Clone(order)
	slices.Reverse(shuffled)
	slices.SortFunc(shuffled, Compare)
	if !slices.Equal(shuffled, order) {
		t.Errorf("sorted: %v\nwant    %v", shuffled, order)
	}
}

// FuzzCompare: an order, whatever the names: antisymmetric, and 0 only for the same name.
func FuzzCompare(f *testing.F) {
	for _, s := range [][2]string{{"4.0", "4.0-trunk-2024-10"}, {"4.0.0", "4.0"}, {"3.10", "3.9"}, {"trunk", "1"}, {"4.0-rc01", "4.0-rc1"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		ab, ba := Compare(a, b), Compare(b, a)
		if ab != -ba {
			t.Fatalf("Compare(%q, %q) = %d but Compare(%q, %q) = %d", a, b, ab, b, a, ba)
		}
		if (ab == 0) != (a == b) {
			t.Fatalf("Compare(%q, %q) = %d", a, b, ab)
		}
	})
}

// release makes a release folder with one spec.
func release(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ProduceRequest.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
}

func TestList(t *testing.T) {
	elsewhere := t.TempDir()
	release(t, filepath.Join(elsewhere, "3.9"))
	release(t, filepath.Join(elsewhere, "deep", "4.0"))
	if err := os.MkdirAll(filepath.Join(elsewhere, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name   string
		setup  func(t *testing.T, dir string)
		want   string // the names listed, or the error's words
		err    bool
		others string // with err: the names listed beside it
	}{
		{"folders", func(t *testing.T, dir string) {
			release(t, filepath.Join(dir, "4.0"))
			release(t, filepath.Join(dir, "4.0-trunk-2024-10"))
			release(t, filepath.Join(dir, "3.10"))
			release(t, filepath.Join(dir, "3.9"))
			os.MkdirAll(filepath.Join(dir, "notes"), 0o755)
			os.WriteFile(filepath.Join(dir, "README.md"), nil, 0o644)
		}, "3.9 3.10 4.0-trunk-2024-10 4.0", false, ""},
		{"links to release folders", func(t *testing.T, dir string) {
			release(t, filepath.Join(dir, "3.10"))
			symlink(t, filepath.Join(elsewhere, "3.9"), filepath.Join(dir, "3.9"))
			symlink(t, filepath.Join("..", filepath.Base(elsewhere), "deep", "4.0"), filepath.Join(dir, "4.0")) // relative
			symlink(t, filepath.Join(elsewhere, "empty"), filepath.Join(dir, "empty"))
			symlink(t, filepath.Join(elsewhere, "3.9", "ProduceRequest.json"), filepath.Join(dir, "file.json"))
		}, "3.9 3.10 4.0", false, ""},
		{"a dangling link", func(t *testing.T, dir string) {
			release(t, filepath.Join(dir, "3.9"))
			symlink(t, filepath.Join(elsewhere, "gone"), filepath.Join(dir, "4.0"))
		}, "4.0: a dangling symbolic link: its target " + filepath.Join(elsewhere, "gone") + " does not exist", true, "3.9"},
		// The releases beside a broken link are still listed, for a caller that can go on.
		{"a loop of links", func(t *testing.T, dir string) {
			release(t, filepath.Join(dir, "3.9"))
			symlink(t, "4.1", filepath.Join(dir, "4.0"))
			symlink(t, "4.0", filepath.Join(dir, "4.1"))
		}, "/4.0 → 4.1 → 4.0)", true, "3.9"},
		{"a link to itself", func(t *testing.T, dir string) {
			symlink(t, "4.0", filepath.Join(dir, "4.0"))
		}, "a loop of symbolic links", true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The folder of releases sits beside elsewhere, for the relative link.
			dir, err := os.MkdirTemp(filepath.Dir(elsewhere), "releases")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(dir) })
			tt.setup(t, dir)
			got, err := List(dir)
			if tt.err {
				if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), dir) {
					t.Fatalf("List: %v, %v; want an error naming %s with %q", got, err, dir, tt.want)
				}
				if want := tt.others; strings.Join(got, " ") != want {
					t.Errorf("List beside the error: %v, want %q", got, want)
				}
				return
			}
			if err != nil || strings.Join(got, " ") != tt.want {
				t.Fatalf("List: %v, %v; want %s", got, err, tt.want)
			}
		})
	}
}

func TestListTooMany(t *testing.T) {
	if testing.Short() {
		t.Skip("makes MaxEntries files")
	}
	dir := t.TempDir()
	for i := range MaxEntries + 1 {
		if err := os.WriteFile(filepath.Join(dir, "f"+strconv.Itoa(i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := List(dir); err == nil || !strings.Contains(err.Error(), "more than 4096 entries") {
		t.Errorf("List of %d entries: %v", MaxEntries+1, err)
	}
}

func TestListMissing(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nowhere")
	if _, err := List(missing); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("List of a missing folder: %v", err)
	}
}
