package schemas

import (
	"path/filepath"
	"testing"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
)

// schemaRoot returns the folder of releases: $KAFKA_SCHEMAS, else ../shared/kafka-schemas
// beside the module root. It skips the test when neither exists.
func schemaRoot(t testing.TB) string {
	t.Helper()
	return testenv.Releases(t)
}

func isRelease(dir string) bool { return testenv.IsRelease(dir) }

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
