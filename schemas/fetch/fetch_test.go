package fetch

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

type entry struct {
	name string
	body string
	typ  byte
}

func archive(t testing.TB, entries []entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, e := range entries {
		typ := e.typ
		if typ == 0 {
			typ = tar.TypeReg
		}
		h := &tar.Header{Name: e.name, Mode: 0o644, Typeflag: typ}
		if typ == tar.TypeReg {
			h.Size = int64(len(e.body))
		}
		if typ == tar.TypeSymlink {
			h.Linkname = "/etc/passwd"
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if typ == tar.TypeReg {
			if _, err := tw.Write([]byte(e.body)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

const msg = "kafka-4.0/" + MessageDir

func sampleArchive(t testing.TB) []byte {
	return archive(t, []entry{
		{name: "kafka-4.0/README.md", body: "kafka"},
		{name: msg + "ProduceRequest.json", body: `{"apiKey": 0}`},
		{name: msg + "ProduceResponse.json", body: `{"apiKey": 0, "type": "response"}`},
		{name: msg + "README.md", body: "the format"},
		{name: msg + "nested/Evil.json", body: "{}"},
		{name: msg + "..", body: "{}"},
		{name: msg + "Link.json", typ: tar.TypeSymlink},
		{name: "kafka-4.0/clients/src/main/java/Foo.java", body: "class Foo {}"},
	})
}

// server serves archives by path and counts requests.
func server(t *testing.T, files map[string][]byte) (*httptest.Server, *atomic.Int32) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		b, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write(b)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func listDir(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

func TestSchemas(t *testing.T) {
	arch := sampleArchive(t)
	tests := []struct {
		name  string
		ref   string
		files map[string][]byte
		want  []string // files in the cache entry; nil: an error
		err   error
	}{
		{"branch", "4.0", map[string][]byte{"/refs/heads/4.0": arch},
			[]string{DigestName, "ProduceRequest.json", "ProduceResponse.json", "README.md"}, nil},
		{"tag", "4.0.0", map[string][]byte{"/refs/tags/4.0.0": arch},
			[]string{DigestName, "ProduceRequest.json", "ProduceResponse.json", "README.md"}, nil},
		{"slash", "release/x", map[string][]byte{"/refs/heads/release/x": arch},
			[]string{DigestName, "ProduceRequest.json", "ProduceResponse.json", "README.md"}, nil},
		{"missing", "9.9", map[string][]byte{}, nil, ErrNotFound},
		{"no schemas", "4.0", map[string][]byte{"/refs/heads/4.0": archive(t, []entry{{name: "kafka-4.0/README.md", body: "x"}})}, nil, nil},
		{"not gzip", "4.0", map[string][]byte{"/refs/heads/4.0": []byte("<html>rate limited</html>")}, nil, nil},
		{"truncated", "4.0", map[string][]byte{"/refs/heads/4.0": arch[:len(arch)/2]}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := server(t, tt.files)
			cache := t.TempDir()
			dir, err := Schemas(context.Background(), tt.ref, Options{BaseURL: srv.URL, CacheDir: cache})
			if tt.want == nil {
				if err == nil {
					t.Fatalf("Schemas = %s, want an error", dir)
				}
				if tt.err != nil && !errors.Is(err, tt.err) {
					t.Errorf("err = %v, want %v", err, tt.err)
				}
				if !strings.HasPrefix(err.Error(), "fetch: ") {
					t.Errorf("err %q lacks the package prefix", err)
				}
				if left := listDir(t, cache); len(left) != 0 {
					t.Errorf("failed fetch left %v in the cache", left)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if filepath.Dir(dir) != cache {
				t.Errorf("dir %s not in cache %s", dir, cache)
			}
			if got := listDir(t, dir); strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Errorf("files = %v, want %v", got, tt.want)
			}
			b, err := os.ReadFile(filepath.Join(dir, "ProduceRequest.json"))
			if err != nil || string(b) != `{"apiKey": 0}` {
				t.Errorf("ProduceRequest.json = %q, %v", b, err)
			}
			if left := listDir(t, cache); len(left) != 1 {
				t.Errorf("cache holds %v, want one entry", left)
			}
		})
	}
}

func TestSchemasCached(t *testing.T) {
	srv, n := server(t, map[string][]byte{"/refs/heads/4.0": sampleArchive(t)})
	cache := t.TempDir()
	opts := Options{BaseURL: srv.URL + "/", CacheDir: cache}
	d1, err := Schemas(context.Background(), "4.0", opts)
	if err != nil {
		t.Fatal(err)
	}
	if n.Load() != 1 {
		t.Fatalf("%d requests, want 1", n.Load())
	}
	srv.Close() // the second call must not need the network
	d2, err := Schemas(context.Background(), "4.0", opts)
	if err != nil || d2 != d1 {
		t.Fatalf("cached Schemas = %s, %v; want %s", d2, err, d1)
	}
}

func TestSchemasOffline(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	base := srv.URL
	srv.Close() // nothing listens there now
	cache := t.TempDir()
	_, err := Schemas(context.Background(), "4.0", Options{BaseURL: base, CacheDir: cache})
	if !errors.Is(err, ErrOffline) {
		t.Fatalf("err = %v, want ErrOffline", err)
	}
	if !strings.Contains(err.Error(), "-schemas") {
		t.Errorf("offline error %q does not point at -schemas", err)
	}
	if left := listDir(t, cache); len(left) != 0 {
		t.Errorf("offline fetch left %v", left)
	}
}

func TestSchemasServerError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "boom", http.StatusInternalServerError)
	}))
	defer srv.Close()
	_, err := Schemas(context.Background(), "4.0", Options{BaseURL: srv.URL, CacheDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "500") {
		t.Fatalf("err = %v, want the status", err)
	}
}

func TestSchemasCanceled(t *testing.T) {
	srv, _ := server(t, map[string][]byte{"/refs/heads/4.0": sampleArchive(t)})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cache := t.TempDir()
	if _, err := Schemas(ctx, "4.0", Options{BaseURL: srv.URL, CacheDir: cache}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if left := listDir(t, cache); len(left) != 0 {
		t.Errorf("canceled fetch left %v", left)
	}
}

func TestBadRef(t *testing.T) {
	for _, ref := range []string{"", "..", "../x", "/abs", "a b", "x/", "a?b", "a%2e"} {
		if _, err := Schemas(context.Background(), ref, Options{BaseURL: "http://127.0.0.1:1/", CacheDir: t.TempDir()}); err == nil || errors.Is(err, ErrOffline) {
			t.Errorf("ref %q: err = %v, want a bad-ref error", ref, err)
		}
	}
}

func TestExtractLimits(t *testing.T) {
	big := strings.Repeat("x", MaxFileSize+1)
	_, err := Extract(bytes.NewReader(archive(t, []entry{{name: msg + "Big.json", body: big}})), t.TempDir())
	if err == nil {
		t.Fatal("a file over MaxFileSize was accepted")
	}
	// Empty files pass the size limits; their number is bounded too.
	var many []entry
	for i := range MaxFiles + 1 {
		many = append(many, entry{name: fmt.Sprintf("%sF%d.json", msg, i)})
	}
	dir := t.TempDir()
	n, err := Extract(bytes.NewReader(archive(t, many)), dir)
	if err == nil || !strings.Contains(err.Error(), "more than 4096 message files") || n != MaxFiles {
		t.Fatalf("%d empty files: %d written, %v", len(many), n, err)
	}
}

func FuzzExtract(f *testing.F) {
	f.Add(sampleArchive(f))
	f.Add([]byte{0x1f, 0x8b})
	f.Fuzz(func(t *testing.T, b []byte) {
		dir := t.TempDir()
		n, _ := Extract(bytes.NewReader(b), dir)
		es, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		jsons := 0
		for _, e := range es {
			if !e.Type().IsRegular() {
				t.Errorf("%s is not a regular file", e.Name())
			}
			if strings.HasSuffix(e.Name(), ".json") {
				jsons++
			}
		}
		if jsons != n {
			t.Errorf("Extract = %d, %d .json files written", n, jsons)
		}
	})
}

// TestRemoveStale: a killed download's temporary folder is removed by a later download once it
// is old enough not to be another download under way.
func TestRemoveStale(t *testing.T) {
	cache := t.TempDir()
	old := filepath.Join(cache, ".tmp-4.0-123")
	fresh := filepath.Join(cache, ".tmp-4.0-456")
	kept := filepath.Join(cache, "4.0")
	for _, d := range []string{old, fresh, kept} {
		os.MkdirAll(d, 0o755)
	}
	now := time.Now()
	os.Chtimes(old, now.Add(-time.Hour), now.Add(-time.Hour))
	removeStale(cache, now)
	if _, err := os.Stat(old); err == nil {
		t.Error("the stale temporary folder is still there")
	}
	for _, d := range []string{fresh, kept} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s removed", d)
		}
	}
}
