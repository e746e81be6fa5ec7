package textbytes

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestParseScripts reads the bytes inside whole scripts (Python, JavaScript, shell, Ruby)
// wherever they stand, and refuses with the line those whose bytes only running the code
// gives. Every file of testdata/scripts is in the table.
func TestParseScripts(t *testing.T) {
	want := []byte("\x00\x00\x00\x0c\x00\x12\x00\x00\x00\x00\x00\x01\x00\x02kg")
	tests := []struct {
		file, detail, note string
		err                string
	}{
		{file: "apiversions.py", detail: "Python bytes"},
		{file: "apiversions.js", detail: "JavaScript bytes"},
		{file: "apiversions.sh", detail: "byte string in a script", note: "the byte string of line 3 read (its code is not run)"},
		{file: "apiversions.rb", detail: "byte string in a script", note: "the byte string of line 3 read"},
		{file: "joined-by-name.py", err: "line 6, column 7: header + client joins byte strings by their names: only running the script gives the bytes"},
		{file: "variable-in-list.py", err: `line 3, column 54: "corr" is a name, not a byte: its value is known only by running the code`},
	}
	dir := filepath.Join("testdata", "scripts")
	listed := map[string]bool{}
	for _, tt := range tests {
		listed[tt.file] = true
		t.Run(tt.file, func(t *testing.T) {
			text, err := os.ReadFile(filepath.Join(dir, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			got, err := Parse(text, Auto)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("%v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes, want) || got.Detail != tt.detail {
				t.Errorf("%q (%s), want %q (%s)", got.Bytes, got.Detail, want, tt.detail)
			}
			if tt.note != "" && !strings.Contains(strings.Join(got.Notes, "\n"), tt.note) {
				t.Errorf("notes %q lack %q", got.Notes, tt.note)
			}
		})
	}
	files, _ := os.ReadDir(dir)
	for _, f := range files {
		if !listed[f.Name()] {
			t.Errorf("%s is not in the table", f.Name())
		}
	}
}
