package diagram

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestHandlerCachingAndCORS: a drawing carries its ETag and Cache-Control, a client that holds
// it gets 304 and no body, the same request again is answered from the cache (no drawing
// slot taken), OPTIONS answers a browser's preflight, and an <img> asking for a broken diagram
// gets an SVG image of the error with the error's status.
func TestHandlerCachingAndCORS(t *testing.T) {
	h := NewHandler(NewDrawer(nil, ""), Limits{})
	srv := httptest.NewServer(h)
	defer srv.Close()
	src := "name: two\nfields:\n  - {name: A, bits: 16}\n  - {name: B, bits: 16}" // as a GET carries it: trimmed
	do := func(method, path, body string, hdr map[string]string) (*http.Response, []byte) {
		t.Helper()
		req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, b
	}
	resp, first := do("POST", "/bytegrid/svg", src, nil)
	etag := resp.Header.Get("ETag")
	if resp.StatusCode != 200 || etag == "" || !strings.Contains(resp.Header.Get("Cache-Control"), "max-age") || resp.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Fatalf("first drawing: %d, ETag %q, Cache-Control %q, CORS %q", resp.StatusCode, etag, resp.Header.Get("Cache-Control"), resp.Header.Get("Access-Control-Allow-Origin"))
	}
	if n, _ := h.cache.len(); n != 1 {
		t.Errorf("%d drawings cached, want 1", n)
	}
	resp, again := do("GET", "/bytegrid/svg/"+Encode([]byte(src)), "", nil)
	if resp.StatusCode != 200 || resp.Header.Get("ETag") != etag || !bytes.Equal(again, first) {
		t.Errorf("the same diagram by GET: %d, ETag %q (want %q), same bytes %v", resp.StatusCode, resp.Header.Get("ETag"), etag, bytes.Equal(again, first))
	}
	if n, _ := h.cache.len(); n != 1 {
		t.Errorf("%d drawings cached after the same one again, want 1", n)
	}
	resp, body := do("GET", "/bytegrid/svg/"+Encode([]byte(src)), "", map[string]string{"If-None-Match": `"other", ` + etag})
	if resp.StatusCode != http.StatusNotModified || len(body) != 0 {
		t.Errorf("If-None-Match of its tag: %d with %d bytes, want 304 and none", resp.StatusCode, len(body))
	}
	resp, _ = do("OPTIONS", "/bytegrid/svg", "", map[string]string{"Origin": "https://docs.example", "Access-Control-Request-Method": "POST"})
	if resp.StatusCode != http.StatusNoContent || !strings.Contains(resp.Header.Get("Access-Control-Allow-Methods"), "POST") || resp.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("preflight: %d, methods %q", resp.StatusCode, resp.Header.Get("Access-Control-Allow-Methods"))
	}
	resp, img := do("GET", "/bytegrid/svg/"+Encode([]byte("name: x\nfields: [{name: a, bits: <b>}]\n")), "", map[string]string{"Accept": "image/avif,image/webp,image/svg+xml,image/*,*/*;q=0.8"})
	if resp.StatusCode != http.StatusBadRequest || resp.Header.Get("Content-Type") != "image/svg+xml" || !bytes.Contains(img, []byte("Error 400")) || bytes.Contains(img, []byte("<b>")) {
		t.Errorf("an image of a broken diagram: %d %s %.200s", resp.StatusCode, resp.Header.Get("Content-Type"), img)
	}
	if err := xml.Unmarshal(img, new(struct{})); err != nil {
		t.Errorf("the error image is not XML: %v", err)
	}
}

// TestDrawCacheBounded: the cache holds at most its entries and bytes, the least recently
// used leaving first, and keeps no drawing larger than its bound.
func TestDrawCacheBounded(t *testing.T) {
	c := newDrawCache()
	c.maxEntries, c.maxBytes = 4, 100
	key := func(i int) string {
		return cacheKey(Request{Type: Bytegrid, Format: "svg", Source: []byte(fmt.Sprint(i))})
	}
	for i := 0; i < 10; i++ {
		c.put(key(i), &Drawing{Data: bytes.Repeat([]byte("x"), 20)})
		if i == 6 {
			c.get(key(6 - 3)) // 3 was put before 4, 5, 6: used now, it stays past 7
		}
	}
	if n, size := c.len(); n != 4 || size != 80 {
		t.Errorf("%d entries, %d bytes; want 4 and 80", n, size)
	}
	if _, ok := c.get(key(9)); !ok {
		t.Error("the newest drawing left")
	}
	if _, ok := c.get(key(0)); ok {
		t.Error("the oldest drawing stayed")
	}
	c.put(key(99), &Drawing{Data: make([]byte, maxCachedDrawing+1)})
	if _, ok := c.get(key(99)); ok {
		t.Error("a drawing over the bound kept")
	}
	if cacheKey(Request{Type: "ab", Format: "c"}) == cacheKey(Request{Type: "a", Format: "bc"}) {
		t.Error("two requests share a key")
	}
}
