package webdecoder

import (
	"runtime"
	"strings"
	"testing"
)

// TestBytesBounded: the decoder checks the size of what the page hands it (the input, as
// decode's MaxInput; a release's data) before it takes the memory: one byte past the bound
// allocates no copy, counted in bytes allocated; one within it is copied whole. InputSize
// refuses the same sizes, with decode's message, and ParseRequest a request past MaxRequest.
func TestBytesBounded(t *testing.T) {
	for _, tc := range []struct {
		what  string
		limit int
	}{{"the input", MaxInput}, {"the data of Kafka 4.0", MaxReleaseData}} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		b, err := Bytes(tc.what, tc.limit+1, tc.limit, func([]byte) { t.Fatal("copied past the bound") })
		runtime.ReadMemStats(&after)
		if err == nil || b != nil || !strings.Contains(err.Error(), tc.what) {
			t.Errorf("%s: %v", tc.what, err)
		}
		if got := after.TotalAlloc - before.TotalAlloc; got > 64<<10 {
			t.Errorf("%s: %d bytes allocated refusing %d", tc.what, got, tc.limit+1)
		}
	}
	if _, err := Bytes("the input", -1, MaxInput, func([]byte) { t.Fatal("copied a negative size") }); err == nil {
		t.Error("a negative size taken")
	}
	b, err := Bytes("the input", 3, MaxInput, func(b []byte) { copy(b, "abc") })
	if err != nil || string(b) != "abc" {
		t.Errorf("%q %v", b, err)
	}
	if err := InputSize("-", MaxInput+1); err == nil || !strings.Contains(err.Error(), "more than decode reads") {
		t.Errorf("InputSize: %v", err)
	}
	if err := InputSize("-", MaxInput); err != nil {
		t.Errorf("InputSize at the bound: %v", err)
	}
	if _, err := ParseRequest([]byte(`{"release":"` + strings.Repeat("x", MaxRequest) + `"}`)); err == nil || !strings.Contains(err.Error(), "more than") {
		t.Errorf("ParseRequest past the bound: %v", err)
	}
	if q, err := ParseRequest([]byte(`{"release":"4.0","noSize":true,"version":"3"}`)); err != nil || q.Release != "4.0" || !q.NoSize || q.Version != "3" {
		t.Errorf("ParseRequest: %+v %v", q, err)
	}
	if _, err := ParseRequest([]byte(`{"release":`)); err == nil {
		t.Error("a broken request read")
	}
}
