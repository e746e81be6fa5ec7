package schemas

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
)

// TestScanFolderAgrees reads every release's folder both ways: each header ScanFolder reads is
// what Parse reads of that file, and the Index names the release as Load does.
func TestScanFolderAgrees(t *testing.T) {
	for _, dir := range testenv.All(t) {
		r, err := Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		x, ok := ScanFolder(dir)
		if !ok {
			t.Fatalf("%s: ScanFolder not ok", dir)
		}
		if len(x.Headers) != len(r.Specs) {
			t.Fatalf("%s: %d headers, %d specs", dir, len(x.Headers), len(r.Specs))
		}
		for i, h := range x.Headers {
			if want := headerOf(r.Specs[i]); h != want {
				t.Errorf("%s: header %+v, Parse reads %+v", dir, h, want)
			}
		}
		if x.Name() != r.Name() {
			t.Errorf("%s: Index names it %q, Load %q", dir, x.Name(), r.Name())
		}
		sub, err := x.Load(func(h Header) bool { return h.Type == "header" })
		if err != nil || sub.Name() != r.Name() || len(sub.Specs) != 2 || sub.Header("RequestHeader") == nil {
			t.Errorf("%s: Load of the headers: %v, %q, %d specs", dir, err, sub.Name(), len(sub.Specs))
		}
	}
}

// TestScanHeaderPlainOnly: what Parse reads leniently, or refuses, is not scanned.
func TestScanHeaderPlainOnly(t *testing.T) {
	good := `// c` + "\n" + `{"apiKey": 7, /* b */ "type": "request", "name": "XRequest", "validVersions": "0-3", "fields": [{"name": "A", "type": "int8", "versions": "0+", "about": "} ] \" {"}], "x": true}`
	h, ok := ScanHeader([]byte(good))
	if want := (Header{Name: "XRequest", Type: "request", APIKey: 7, HasAPIKey: true, ValidVersions: VersionRange{Lo: 0, Hi: 3, Set: true}}); !ok || h != want {
		t.Fatalf("ScanHeader = %+v, %v; want %+v", h, ok, want)
	}
	for _, bad := range []string{
		`{"apiKey": "7", "type": "request", "name": "XRequest", "validVersions": "0-3"}`,
		`{"apiKey": 7, "type": "request", "name": "XRequest", "validVersions": 3}`,
		`{"apiKey": 7, "type": "request", "name": "XRequest", "name": "YRequest", "validVersions": "0-3"}`,
		`{"apiKey": 7, "type": "request", "name": null, "validVersions": "0-3"}`,
		`{"apiKey": 7, "type": "request", "name": "X\u0041", "validVersions": "0-3"}`,
		`{"apiKey": 7, "type": "request", "name": "XRequest"}`,
		`{"apiKey": 7, "type": "request", "name": "XRequest", "validVersions": "3-1"}`,
		`{"type": "data", "name": "X", "fields": [}`,
		`{"type": "data", "name": "X", "fields": [] /* open`,
		`{"type": "data", "name": "lower"}`,
		"{\"type\": \"data\", \"name\": \"X\xff\"}",
		`[]`,
	} {
		if h, ok := ScanHeader([]byte(bad)); ok {
			t.Errorf("ScanHeader(%s) = %+v, want not ok", bad, h)
		}
	}
}

// FuzzScanHeader: ScanHeader never panics, and what it reads of a file Parse accepts is what
// Parse reads.
func FuzzScanHeader(f *testing.F) {
	f.Add([]byte(`{"apiKey": 7, "type": "request", "name": "XRequest", "validVersions": "0-3", "fields": []}`))
	if root := fuzzSchemaRoot(); root != "" {
		files, _ := filepath.Glob(filepath.Join(root, "4.0", "*.json"))
		for _, file := range files[:min(len(files), 20)] {
			if data, err := os.ReadFile(file); err == nil {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		h, ok := ScanHeader(data)
		if !ok {
			return
		}
		s, err := Parse("f.json", data)
		if err != nil {
			return // the fields' text is not checked by the scan
		}
		want := headerOf(s)
		want.File = ""
		if h != want {
			t.Fatalf("ScanHeader %+v, Parse %+v", h, want)
		}
	})
}
