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
	"testing"

	"github.com/kafkagrid/kafkagrid/internal/releasedir"
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
// specs, or symbolic link to one), in version order (releasedir.Compare: "2.4" before "3.0"
// before "4.0-trunk-2024-10" before "4.0" before "10.0"), or skips (fails under CI) the test
// when there are none. A release folder added there is tested without a code change. A link
// there that dangles or loops fails the test.
func All(tb testing.TB) []string {
	tb.Helper()
	root := Releases(tb)
	dirs, err := AllIn(root)
	var none *noReleases
	switch {
	case errors.As(err, &none):
		Missing(tb, err)
	case err != nil:
		tb.Fatal(err)
	}
	return dirs
}

// noReleases is a folder of releases without any.
type noReleases struct{ root string }

func (e *noReleases) Error() string { return "no release folders in " + e.root }

// AllIn returns the release folders in root, in version order.
func AllIn(root string) ([]string, error) {
	names, err := releasedir.List(root)
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, &noReleases{root}
	}
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = filepath.Join(root, n)
	}
	return out, nil
}

// VersionLess orders release names by version (releasedir.Compare).
func VersionLess(a, b string) bool { return releasedir.Compare(a, b) < 0 }

// Missing ends a test that lacks something it needs: a skip, or a failure under CI.
func Missing(tb testing.TB, err error) {
	tb.Helper()
	if os.Getenv("CI") != "" {
		tb.Fatalf("CI: %v", err)
	}
	tb.Skip(err)
}

// IsRelease reports whether dir holds message specs (*.json).
func IsRelease(dir string) bool { return releasedir.IsRelease(dir) }

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
