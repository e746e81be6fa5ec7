package schemas

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
)

// FuzzParse feeds the spec parser arbitrary text, seeded with every real spec file of every
// release under $KAFKA_SCHEMAS (or ../shared/kafka-schemas). Parse must not panic; it returns
// a spec or an *Error whose position lies inside the text; a spec's struct fields are resolved.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"name": "X", "type": "data", "fields": []}`))
	f.Add([]byte(`// c` + "\n" + `{"name": "X", "type": "data", /* b */ "fields": [{"name": "A", "type": "[]S", "versions": "0+", "fields": []}]}`))
	if root := fuzzSchemaRoot(); root != "" {
		files, _ := filepath.Glob(filepath.Join(root, "*", "*.json"))
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse("f.json", data)
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("not an *Error: %v", err)
			}
			lines := strings.Split(string(data), "\n")
			if pe.Pos.Line < 1 || pe.Pos.Line > len(lines) || pe.Pos.Col < 1 ||
				pe.Pos.Col > utf8.RuneCountInString(lines[pe.Pos.Line-1])+1 {
				t.Fatalf("position %v outside the text: %v", pe.Pos, err)
			}
			return
		}
		if string(s.Raw) != string(data) {
			t.Fatal("Raw differs from the input")
		}
		s.Walk(func(fl *Field) bool {
			if fl.Type.IsStruct() && fl.Struct == nil {
				t.Fatalf("%s: unresolved struct", fl.Path)
			}
			if fl.TaggedIn(0) && !fl.HasTag {
				t.Fatalf("%s: tagged without a tag", fl.Path)
			}
			return true
		})
	})
}

// fuzzSchemaRoot is schemaRoot without a testing.TB: the folder of releases, or "".
func fuzzSchemaRoot() string {
	root, _ := testenv.Root()
	return root
}
