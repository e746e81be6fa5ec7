package forms

import (
	"regexp"
	"testing"
)

// yamlKeyRE is the regexp hasYAMLKey replaced; the scan must agree with it on every input.
var yamlKeyRE = regexp.MustCompile(`(?m)^(name|fields|row_bits|ruler|text|groups|description):`)

var yamlKeySeeds = []string{
	"", "name:", "name", "name :", " name:", "fields:\n- x", "a: 1\nfields:", "x\r\nruler: 8",
	"text:x", "groups:", "description:", "row_bits: 32", "names: x", "nam:", "/* name: */",
	"{\"reg\": []}", "source: rfc\n\nName {\n a (8)\n}", "\nname:", "x\n", "\n\n", "textual:",
}

func TestHasYAMLKeyAgreesWithRegexp(t *testing.T) {
	for _, s := range yamlKeySeeds {
		if got, want := hasYAMLKey(s), yamlKeyRE.MatchString(s); got != want {
			t.Errorf("hasYAMLKey(%q) = %v, the regexp says %v", s, got, want)
		}
	}
}

func FuzzHasYAMLKey(f *testing.F) {
	for _, s := range yamlKeySeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := hasYAMLKey(s), yamlKeyRE.MatchString(s); got != want {
			t.Errorf("hasYAMLKey(%q) = %v, the regexp says %v", s, got, want)
		}
	})
}
