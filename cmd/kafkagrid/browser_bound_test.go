package main

import (
	"runtime"
	"strings"
	"testing"
)

// TestPageBytesBounded: the browser decoder checks the size of what the page hands it (the
// input, as decode's maxInput; a release's data) before it takes the memory: an input one
// byte past the bound allocates no copy of it, counted in bytes allocated; one within it is
// copied whole. pageRun refuses the same sizes, with decode's message.
func TestPageBytesBounded(t *testing.T) {
	for _, tc := range []struct {
		what  string
		limit int
	}{{"the input", maxInput}, {"the data of Kafka 4.0", maxReleaseData}} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		b, err := pageBytes(tc.what, tc.limit+1, tc.limit, func([]byte) { t.Fatal("copied past the bound") })
		runtime.ReadMemStats(&after)
		if err == nil || b != nil || !strings.Contains(err.Error(), tc.what) {
			t.Errorf("%s: %v", tc.what, err)
		}
		if got := after.TotalAlloc - before.TotalAlloc; got > 64<<10 {
			t.Errorf("%s: %d bytes allocated refusing %d", tc.what, got, tc.limit+1)
		}
	}
	b, err := pageBytes("the input", 3, maxInput, func(b []byte) { copy(b, "abc") })
	if err != nil || string(b) != "abc" {
		t.Errorf("%q %v", b, err)
	}
	if err := pageInputSize("-", maxInput+1); err == nil || !strings.Contains(err.Error(), "more than decode reads") {
		t.Errorf("pageInputSize: %v", err)
	}
	if err := pageInputSize("-", maxInput); err != nil {
		t.Errorf("pageInputSize at the bound: %v", err)
	}
}
