package bitfield

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestDuplicateKeyCost: an object of many keys is checked for a repeated key in work linear in
// its keys (a scan of at most the first 16, then a set): 100,000 keys cost 5 billion key
// comparisons before. A key given twice is still found, at its position, past the first 16.
func TestDuplicateKeyCost(t *testing.T) {
	scanned := 0
	scanKeys = func(keys []string, k string) bool {
		scanned += len(keys)
		return slices.Contains(keys, k)
	}
	defer func() { scanKeys = slices.Contains[[]string, string] }()
	const n = 100_000
	var b strings.Builder
	b.WriteString("[{")
	for i := range n {
		b.WriteString("k" + strconv.Itoa(i) + ": 0,")
	}
	b.WriteString("k20: 1}]")
	_, err := Parse("keys.json", []byte(b.String()), Options{})
	if err == nil || !strings.Contains(err.Error(), `key "k20" given twice`) || !strings.Contains(err.Error(), "keys.json:1:") {
		t.Errorf("got %v", err)
	}
	if scanned > 16*17 {
		t.Errorf("%d keys scanned for %d keys; want at most %d", scanned, n+1, 16*17)
	}
}
