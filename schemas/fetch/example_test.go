package fetch_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"

	"github.com/kafkagrid/kafkagrid/schemas/fetch"
)

func Example() {
	// A stand-in for codeload.github.com serving the branch 4.0 of apache/kafka.
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	body := []byte(`{"apiKey": 18, "type": "request", "name": "ApiVersionsRequest"}`)
	tw.WriteHeader(&tar.Header{Name: "kafka-4.0/" + fetch.MessageDir + "ApiVersionsRequest.json", Mode: 0o644, Size: int64(len(body))})
	tw.Write(body)
	tw.Close()
	zw.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/refs/heads/4.0" {
			http.NotFound(w, r)
			return
		}
		w.Write(buf.Bytes())
	}))
	defer srv.Close()

	cache, _ := os.MkdirTemp("", "kafkagrid-cache")
	defer os.RemoveAll(cache)
	dir, err := fetch.Schemas(context.Background(), "4.0", fetch.Options{BaseURL: srv.URL, CacheDir: cache})
	if err != nil {
		fmt.Println(err)
		return
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	fmt.Println(filepath.Base(dir), len(files), filepath.Base(files[0]))
	// Output: 4.0 1 ApiVersionsRequest.json
}
