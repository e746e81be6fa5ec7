package report_test

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/kafkagrid/kafkagrid/capture"
	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site/report"
)

// ExampleNew writes a report as a capture streams: one Add per exchange as it is decoded (the
// connection passed without its Exchanges), then Close with the summary, which writes the
// index.
func ExampleNew() {
	dir, err := testenv.ReleaseDir("4.0")
	if err != nil {
		fmt.Println(err)
		return
	}
	cat, err := kafka.LoadCatalog(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	vs, err := cat.Vectors(kafka.VectorOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	var data []byte
	for _, v := range vs {
		if v.API.Name == "ApiVersions" || v.API.Name == "Metadata" {
			data = append(append(data, v.Request.Bytes...), v.Response.Bytes...)
		}
	}
	r, err := capture.Read(cat, data, capture.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	out, err := os.MkdirTemp("", "report")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(out)

	w, err := report.New(out, report.Options{Title: "two exchanges"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range r.Conns {
		bare := &capture.Conn{ID: c.ID, Client: c.Client, Server: c.Server, Notes: c.Notes}
		for _, e := range c.Exchanges {
			if err := w.Add(bare, e); err != nil {
				w.Abort()
				fmt.Println(err)
				return
			}
		}
	}
	if err := w.Close(&capture.Result{Kind: r.Kind, Conns: r.Conns}); err != nil {
		fmt.Println(err)
		return
	}
	pages, _ := filepath.Glob(filepath.Join(out, "exchanges", "*.html"))
	frames, _ := filepath.Glob(filepath.Join(out, "frames", "*"))
	for _, p := range pages {
		fmt.Println(filepath.Base(p))
	}
	fmt.Println(len(frames), "frame files")
	// Output:
	// c1-1.html
	// c1-2.html
	// 16 frame files
}

// ExampleNewFiles writes a report into memory, as the browser decoder does: each file through
// Options.Create, no output folder.
func ExampleNewFiles() {
	dir, err := testenv.ReleaseDir("4.0")
	if err != nil {
		fmt.Println(err)
		return
	}
	cat, err := kafka.LoadCatalog(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	vs, err := cat.Vectors(kafka.VectorOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	var data []byte
	for _, v := range vs {
		if v.API.Name == "ApiVersions" {
			data = append(append(data, v.Request.Bytes...), v.Response.Bytes...)
		}
	}
	r, err := capture.Read(cat, data, capture.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	files := map[string]int{}
	create := func(rel string, fill func(io.Writer) error) error {
		var b bytes.Buffer
		if err := fill(&b); err != nil {
			return err
		}
		files[rel] = b.Len()
		return nil
	}
	w, err := report.NewFiles(report.Options{Create: create})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := w.WriteAll(r); err != nil {
		fmt.Println(err)
		return
	}
	for _, rel := range slices.Sorted(maps.Keys(files)) {
		fmt.Println(rel)
	}
	// Output:
	// exchanges/c1-1.html
	// frames/c1-1-18-ApiVersions-v4-request-grid.svg
	// frames/c1-1-18-ApiVersions-v4-request-tree.svg
	// frames/c1-1-18-ApiVersions-v4-request.json
	// frames/c1-1-18-ApiVersions-v4-request.txt
	// frames/c1-1-18-ApiVersions-v4-response-grid.svg
	// frames/c1-1-18-ApiVersions-v4-response-tree.svg
	// frames/c1-1-18-ApiVersions-v4-response.json
	// frames/c1-1-18-ApiVersions-v4-response.txt
	// index.html
}
