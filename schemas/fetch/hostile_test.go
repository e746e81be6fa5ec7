package fetch

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSchemasBounded: a server that stops sending, or sends too much, ends the download with
// an error naming the limit, and leaves nothing in the cache.
func TestSchemasBounded(t *testing.T) {
	arch := sampleArchive(t)
	noise := make([]byte, 4<<20) // incompressible: the archive is some 4 MiB
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range noise {
		noise[i] = byte(rng.Uint32())
	}
	huge := archive(t, []entry{{name: "kafka-4.0/big.bin", body: string(noise)}})
	stall := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/refs/heads/stall":
			w.Write(arch[:10])
			w.(http.Flusher).Flush()
			<-stall // and nothing more
		case "/refs/heads/huge":
			w.Write(huge)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	defer close(stall) // before the server's close, which waits for its handlers
	cache := t.TempDir()
	_, err := Schemas(context.Background(), "stall", Options{BaseURL: srv.URL, CacheDir: cache, IdleTimeout: 50 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "nothing received for 50ms (Options.IdleTimeout)") {
		t.Errorf("a stalled download: %v", err)
	}
	old := MaxArchiveSize
	MaxArchiveSize = 1 << 20
	defer func() { MaxArchiveSize = old }()
	_, err = Schemas(context.Background(), "huge", Options{BaseURL: srv.URL, CacheDir: cache})
	if err == nil || !strings.Contains(err.Error(), "larger than 1048576 bytes (MaxArchiveSize)") {
		t.Errorf("a huge download: %v", err)
	}
	if left := listDir(t, cache); len(left) != 0 {
		t.Errorf("failed downloads left %v", left)
	}
}

// TestSchemasVerified: a cache entry is used only as it was downloaded: a file changed since,
// an entry planted with no digest, a symbolic link, or a cache folder others may write to is
// refused with its path and what to do.
func TestSchemasVerified(t *testing.T) {
	srv, _ := server(t, map[string][]byte{"/refs/heads/4.0": sampleArchive(t)})
	cache := t.TempDir()
	opts := Options{BaseURL: srv.URL, CacheDir: cache}
	dir, err := Schemas(context.Background(), "4.0", opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := Verify(dir); err != nil {
		t.Fatalf("a fresh download: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "ProduceRequest.json"), []byte(`{"apiKey": 99}`), 0o644)
	if _, err := Schemas(context.Background(), "4.0", opts); err == nil || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), "changed since") {
		t.Errorf("a changed file: %v", err)
	}

	planted := filepath.Join(cache, "3.9")
	os.Mkdir(planted, 0o755)
	os.WriteFile(filepath.Join(planted, "ProduceRequest.json"), []byte(`{"apiKey": 0}`), 0o644)
	if _, err := Schemas(context.Background(), "3.9", opts); err == nil || !strings.Contains(err.Error(), "have no digest") || !strings.Contains(err.Error(), "remove that folder") {
		t.Errorf("a planted entry: %v", err)
	}
	elsewhere := t.TempDir()
	os.Symlink(elsewhere, filepath.Join(cache, "3.8"))
	if _, err := Schemas(context.Background(), "3.8", opts); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("a linked entry: %v", err)
	}
	open := t.TempDir()
	os.Chmod(open, 0o777)
	if _, err := Schemas(context.Background(), "4.0", Options{BaseURL: srv.URL, CacheDir: open}); err == nil || !strings.Contains(err.Error(), "writable by others") {
		t.Errorf("a world-writable cache: %v", err)
	}
}

// TestRefNames: a ref that reads as a flag is refused, and two refs never share a cache folder.
func TestRefNames(t *testing.T) {
	for _, ref := range []string{"-h", "--help", ".hidden", "a//b"} {
		if err := checkRef(ref); err == nil {
			t.Errorf("ref %q accepted", ref)
		}
	}
	if cacheName("release/4.0") == cacheName("release_4.0") {
		t.Error("release/4.0 and release_4.0 share a cache folder")
	}
}

// TestRemoveStaleDead: a killed download's temporary folder is removed by the next at once
// when its process is gone, and kept while that process lives.
func TestRemoveStaleDead(t *testing.T) {
	cache := t.TempDir()
	dead := filepath.Join(cache, ".tmp-4.0-2147483646-123")
	live := filepath.Join(cache, ".tmp-4.0-1-456") // init: alive
	for _, d := range []string{dead, live} {
		os.MkdirAll(d, 0o755)
	}
	removeStale(cache, time.Now())
	if _, err := os.Stat(dead); err == nil {
		t.Error("the temporary folder of a process that is gone is still there")
	}
	if _, err := os.Stat(live); err != nil {
		t.Error("the temporary folder of a live download was removed")
	}
}

// TestExtractInflatedBounded: an archive whose entries inflate past MaxInflated (a file of
// zeros, which gzip packs a thousandfold) or that holds more than MaxEntries entries stops
// there, counted in the bytes inflated and the entries read, not after inflating the whole.
func TestExtractInflatedBounded(t *testing.T) {
	defer func(m int64, e int) { MaxInflated, MaxEntries = m, e }(MaxInflated, MaxEntries)
	MaxInflated, MaxEntries = 1<<20, 100
	zeros := archive(t, []entry{{name: "kafka-4.1/big.bin", body: strings.Repeat("\x00", 16<<20)}})
	n, got, err := extract(bytes.NewReader(zeros), t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "MaxInflated") || n != 0 {
		t.Errorf("%d files, %v", n, err)
	}
	if got > MaxInflated+1 {
		t.Errorf("%d bytes inflated, past %d", got, MaxInflated)
	}
	var many []entry
	for i := range 1000 {
		many = append(many, entry{name: fmt.Sprintf("kafka-4.1/docs/%d.txt", i), body: "x"})
	}
	_, got, err = extract(bytes.NewReader(archive(t, many)), t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "MaxEntries") {
		t.Errorf("1000 entries: %v", err)
	}
	if limit := int64(MaxEntries+1) * 1024; got > limit {
		t.Errorf("%d bytes inflated reading %d entries, past %d", got, MaxEntries, limit)
	}
}
