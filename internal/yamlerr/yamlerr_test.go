package yamlerr

import (
	"testing"

	"gopkg.in/yaml.v3"
)

func TestLocate(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		line      int
		msg       string
	}{
		{"with a line", "a: 1\nb: \"x\\qy\"\n", 2, "found unknown escape character"},
		{"invalid UTF-8", "a: 1\nb: 2\nc: \xff\n", 3, "invalid leading UTF-8 octet"},
		{"control character", "a: 1\nb: \x01\n", 2, "control characters are not allowed"},
		{"unknown anchor", "a: 1\n\nb: *nope\n", 3, "unknown anchor 'nope' referenced"},
		{"mapping values", "a: 1\nb: c: d\n", 2, "mapping values are not allowed in this context"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var doc yaml.Node
			err := yaml.Unmarshal([]byte(tc.src), &doc)
			if err == nil {
				t.Fatal("no error")
			}
			line, msg := Locate([]byte(tc.src), err)
			if line != tc.line || msg != tc.msg {
				t.Errorf("got %d %q, want %d %q (from %q)", line, msg, tc.line, tc.msg, err)
			}
		})
	}
}

// FuzzLocate: every error yaml.v3 gives gets a line within the input.
func FuzzLocate(f *testing.F) {
	for _, s := range []string{"a: 1\n", "a: *x\n", "a: \xff", "- [\n", "a: b: c"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 4096 {
			return
		}
		var doc yaml.Node
		err := yaml.Unmarshal(src, &doc)
		if err == nil {
			return
		}
		line, _ := Locate(src, err)
		lines := 1
		for _, c := range src {
			if c == '\n' {
				lines++
			}
		}
		if line < 1 || line > lines {
			t.Fatalf("line %d of %d for %v", line, lines, err)
		}
	})
}
