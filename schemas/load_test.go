package schemas

import (
	"os"
	"path/filepath"
	"testing"
)

// schemaRoot returns the folder of releases: $KAFKA_SCHEMAS, else ../shared/kafka-schemas
// beside the module root. It skips the test when neither exists.
func schemaRoot(t testing.TB) string {
	t.Helper()
	if d := os.Getenv("KAFKA_SCHEMAS"); d != "" {
		if isRelease(d) {
			return filepath.Dir(d)
		}
		return d
	}
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("no go.mod above the test")
		}
		dir = parent
	}
	root := filepath.Join(dir, "..", "shared", "kafka-schemas")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("no Kafka schemas: set KAFKA_SCHEMAS (%v)", err)
	}
	return root
}

func isRelease(dir string) bool {
	m, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	return len(m) > 0
}

func TestLoadReleases(t *testing.T) {
	root := schemaRoot(t)
	for _, rel := range []string{"3.9", "4.0", "4.1"} {
		t.Run(rel, func(t *testing.T) {
			r, err := Load(filepath.Join(root, rel))
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d specs", len(r.Specs))
		})
	}
}
