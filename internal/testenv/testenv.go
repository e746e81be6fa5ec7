// Package testenv finds the Kafka schema releases the tests run on, in one place.
//
// The releases are found through $KAFKA_SCHEMAS, which may name one release's folder (its
// parent is then the folder of releases) or a folder of releases; without it, through
// ../shared/kafka-schemas beside the module root. When they cannot be found a test is skipped,
// except under CI (CI set in the environment), where it fails: CI must never pass by skipping.
package testenv

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// Root returns the folder of releases.
func Root() (string, error) {
	if d := os.Getenv("KAFKA_SCHEMAS"); d != "" {
		if IsRelease(d) {
			return filepath.Dir(filepath.Clean(d)), nil
		}
		return d, nil
	}
	mod, err := ModuleRoot()
	if err != nil {
		return "", err
	}
	root := filepath.Join(mod, "..", "shared", "kafka-schemas")
	if _, err := os.Stat(root); err != nil {
		return "", fmt.Errorf("no Kafka schemas: set KAFKA_SCHEMAS (%w)", err)
	}
	return root, nil
}

// ReleaseDir returns the folder of one release ("3.9", "4.0", "4.1"). When $KAFKA_SCHEMAS
// names a release folder of that name, it is that folder.
func ReleaseDir(name string) (string, error) {
	if d := os.Getenv("KAFKA_SCHEMAS"); d != "" && IsRelease(d) && filepath.Base(filepath.Clean(d)) == name {
		return d, nil
	}
	root, err := Root()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(root, name)
	if !IsRelease(dir) {
		return "", fmt.Errorf("no Kafka %s schemas in %s", name, root)
	}
	return dir, nil
}

// Release returns the folder of one release, or skips (fails under CI) the test.
func Release(tb testing.TB, name string) string {
	tb.Helper()
	dir, err := ReleaseDir(name)
	if err != nil {
		Missing(tb, err)
	}
	return dir
}

// Releases returns the folder of releases, or skips (fails under CI) the test.
func Releases(tb testing.TB) string {
	tb.Helper()
	root, err := Root()
	if err != nil {
		Missing(tb, err)
	}
	return root
}

// All returns every release folder in the folder of releases (every sub-folder holding *.json
// specs), in version order ("2.4" before "3.0" before "10.0"), or skips (fails under CI) the
// test when there are none. A release folder added there is tested without a code change.
func All(tb testing.TB) []string {
	tb.Helper()
	root := Releases(tb)
	dirs, err := AllIn(root)
	if err != nil {
		Missing(tb, err)
	}
	return dirs
}

// AllIn returns the release folders in root, in version order.
func AllIn(root string) ([]string, error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if d := filepath.Join(root, e.Name()); e.IsDir() && IsRelease(d) {
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no release folders in %s", root)
	}
	sort.Slice(out, func(i, j int) bool { return VersionLess(filepath.Base(out[i]), filepath.Base(out[j])) })
	return out, nil
}

// VersionLess orders release names by their dotted numbers ("3.9" < "3.10" < "4.0"), then as
// text.
func VersionLess(a, b string) bool {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(pa) && i < len(pb); i++ {
		x, errx := strconv.Atoi(pa[i])
		y, erry := strconv.Atoi(pb[i])
		if errx != nil || erry != nil {
			if pa[i] != pb[i] {
				return pa[i] < pb[i]
			}
			continue
		}
		if x != y {
			return x < y
		}
	}
	if len(pa) != len(pb) {
		return len(pa) < len(pb)
	}
	return a < b
}

// Missing ends a test that lacks something it needs: a skip, or a failure under CI.
func Missing(tb testing.TB, err error) {
	tb.Helper()
	if os.Getenv("CI") != "" {
		tb.Fatalf("CI: %v", err)
	}
	tb.Skip(err)
}

// IsRelease reports whether dir holds message specs (*.json).
func IsRelease(dir string) bool {
	m, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	return len(m) > 0
}

// ModuleRoot returns the folder of go.mod above the working directory.
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}
