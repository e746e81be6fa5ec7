package testenv

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// update is the one switch that refreshes golden files: go test ./... -update (go/printer's
// flag; no env twin, no other name). Every test binary that imports testenv has it.
var update = flag.Bool("update", false, "rewrite the golden files (under testdata/, and docs/ pictures) with what the code makes now")

// Update reports whether the test run rewrites its golden files (-update), for the tests
// whose refresh is more than writing one file (a screenshot, a list the package embeds).
func Update() bool { return *update }

// Golden compares got with the golden file path, and with -update writes got there first
// (creating its folder). Either way it checks that:
//   - the file holds got byte for byte (after -update: read back, so a run after -update
//     passes);
//   - got is the same every time path is checked in this test binary: a golden checked twice
//     with different bytes (map order, a stale cache, two tests writing one file) fails
//     instead of letting the last writer win.
//
// On a mismatch it writes got beside the golden as NAME.got.EXT (a trailing ".golden" is
// dropped first: x.txt.golden gets x.got.txt; the .gitignore files ignore *.got.*), and
// reports the first line that differs.
func Golden(tb testing.TB, path string, got []byte) {
	tb.Helper()
	if err := golden(path, got, *update); err != nil {
		var miss *goldenMismatch
		if errors.As(err, &miss) {
			tb.Error(err)
			return
		}
		tb.Fatal(err)
	}
}

// seen holds the digest of what each golden file was checked against in this process.
var seen = struct {
	sync.Mutex
	sums map[string][sha256.Size]byte
}{sums: map[string][sha256.Size]byte{}}

// goldenMismatch is a golden file that does not hold what the code makes.
type goldenMismatch struct {
	path, gotPath, diff string
}

func (m *goldenMismatch) Error() string {
	return fmt.Sprintf("%s differs from what the code makes now; got written to %s (review it, as a picture for a drawing, then go test -update)\n%s", m.path, m.gotPath, m.diff)
}

// golden is Golden, returning what it finds.
func golden(path string, got []byte, update bool) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(got)
	seen.Lock()
	prev, twice := seen.sums[abs]
	seen.sums[abs] = sum
	seen.Unlock()
	if twice && prev != sum {
		return fmt.Errorf("%s: checked twice in one run with different bytes (the second %d bytes): the code that makes it is not deterministic, or two tests share the file", path, len(got))
	}
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			return err
		}
	}
	want, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w (create it with go test -update)", err)
	}
	if err != nil {
		return err
	}
	if bytes.Equal(got, want) {
		return nil
	}
	gp := GotPath(path)
	if err := os.WriteFile(gp, got, 0o644); err != nil {
		return fmt.Errorf("%s differs from what the code makes now, and the got file cannot be written: %w", path, err)
	}
	return &goldenMismatch{path: path, gotPath: gp, diff: FirstDiff(want, got)}
}

// GotPath is where Golden writes what a test got when it differs from the golden file path:
// NAME.got.EXT beside it, a trailing ".golden" dropped first.
func GotPath(path string) string {
	p := strings.TrimSuffix(path, ".golden")
	ext := filepath.Ext(p)
	return strings.TrimSuffix(p, ext) + ".got" + ext
}

// FirstDiff describes the first line where want and got differ.
func FirstDiff(want, got []byte) string {
	wl, gl := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return fmt.Sprintf("line %d:\n- %s\n+ %s", i+1, clip(w), clip(g))
		}
	}
	return "(no line differs)"
}

// clip shortens a line of a diff to what a terminal shows.
func clip(s string) string {
	const most = 200
	if r := []rune(s); len(r) > most {
		return string(r[:most]) + "…"
	}
	return s
}
