package report

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/capture"
	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site"
	"github.com/kafkagrid/kafkagrid/site/kafkaview"
	"github.com/kafkagrid/kafkagrid/site/outdir"
)

// vectorCapture reads the example pairs of the APIs named, back to back, as capture.Read does.
func vectorCapture(t *testing.T, o kafka.VectorOptions, apis ...string) (*kafka.Catalog, *capture.Result) {
	t.Helper()
	cat, err := kafka.LoadCatalog(testenv.Release(t, "4.0"))
	if err != nil {
		t.Fatal(err)
	}
	vs, err := cat.Vectors(o)
	if err != nil {
		t.Fatal(err)
	}
	var data []byte
	for _, v := range vs {
		if slices.Contains(apis, v.API.Name) {
			data = append(append(data, v.Request.Bytes...), v.Response.Bytes...)
		}
	}
	r, err := capture.Read(cat, data, capture.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return cat, r
}

// files lists the files under dir, slash-separated.
func files(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	return out
}

// TestStream: a report written as a capture streams (Add with connections whose Exchanges are
// empty, Close with the summary) is the report Write writes, byte for byte; past MaxExchanges
// an exchange is counted in the index and gets no page.
func TestStream(t *testing.T) {
	_, r := vectorCapture(t, kafka.VectorOptions{Compression: kafka.CodecZstd}, "Produce", "Fetch", "Metadata", "ApiVersions")
	for _, max := range []int{0, 2} {
		whole := filepath.Join(t.TempDir(), "whole")
		if err := writeChecked(t, whole, r, Options{MaxExchanges: max}); err != nil {
			t.Fatal(err)
		}
		streamed := filepath.Join(t.TempDir(), "streamed")
		w, err := New(streamed, Options{MaxExchanges: max})
		if err != nil {
			t.Fatal(err)
		}
		sum := &capture.Result{Kind: r.Kind, Packets: r.Packets, Notes: r.Notes}
		for _, c := range r.Conns {
			bare := &capture.Conn{ID: c.ID, Client: c.Client, Server: c.Server, Notes: c.Notes}
			for _, e := range c.Exchanges {
				if err := w.Add(bare, e); err != nil {
					t.Fatal(err)
				}
			}
			sum.Conns = append(sum.Conns, bare)
		}
		if err := w.Close(sum); err != nil {
			t.Fatal(err)
		}
		a, b := files(t, whole), files(t, streamed)
		if !slices.Equal(a, b) {
			t.Fatalf("max %d: files %v, streamed %v", max, a, b)
		}
		for _, f := range a {
			x, _ := os.ReadFile(filepath.Join(whole, f))
			y, _ := os.ReadFile(filepath.Join(streamed, f))
			if string(x) != string(y) {
				t.Errorf("max %d: %s differs when streamed", max, f)
			}
		}
		pages := 0
		for _, f := range a {
			if strings.HasPrefix(f, "exchanges/") {
				pages++
			}
		}
		index, _ := os.ReadFile(filepath.Join(whole, "index.html"))
		switch max {
		case 0:
			if pages != 4 || strings.Contains(string(index), "have no page") {
				t.Errorf("%d pages of 4 exchanges", pages)
			}
		case 2:
			if pages != 2 || !strings.Contains(string(index), "The first 2 exchanges have a page; 2 more have none.") ||
				!strings.Contains(string(index), "2 more exchanges of this connection have no page") {
				t.Errorf("MaxExchanges 2: %d pages, index %s", pages, index)
			}
			if w.folder != nil || w.conns != nil {
				t.Error("a closed writer keeps its state")
			}
		}
		if err := w.Add(r.Conns[0], r.Conns[0].Exchanges[0]); !errors.Is(err, errClosed) {
			t.Errorf("Add after Close: %v", err)
		}
	}
}

// TestWriterBounded: what a Writer keeps between Adds is the index's lines, not the frames: with
// MaxExchanges 1, a hundred exchanges leave one line and a count.
func TestWriterBounded(t *testing.T) {
	_, r := vectorCapture(t, kafka.VectorOptions{}, "Metadata")
	w, err := New(filepath.Join(t.TempDir(), "r"), Options{MaxExchanges: 1})
	if err != nil {
		t.Fatal(err)
	}
	c, e := r.Conns[0], r.Conns[0].Exchanges[0]
	for range 100 {
		if err := w.Add(c, e); err != nil {
			t.Fatal(err)
		}
	}
	s := w.conns[c.ID]
	if len(w.order) != 1 || len(s.Rows) != 1 || s.Left != 99 || w.frames != 200 {
		t.Errorf("kept %d connections, %d lines, %d left, %d frames", len(w.order), len(s.Rows), s.Left, w.frames)
	}
	w.Abort()
}

// TestAbort: a report that fails or is aborted leaves its folder as the output folder's rules
// say (outdir.Folder): no temporary file, no lock, every file it wrote listed in the manifest,
// a user's file untouched; the next report into the folder replaces those files and removes
// the ones it does not write again. An Abort after a failed Close is harmless.
func TestAbort(t *testing.T) {
	_, r := vectorCapture(t, kafka.VectorOptions{}, "Produce", "Fetch")
	// leftBehind checks what a failed report left in dir: no temporary file or lock, and every
	// file but the user's listed in the manifest.
	leftBehind := func(t *testing.T, dir string, user ...string) {
		t.Helper()
		m, err := outdir.ReadManifest(dir)
		if err != nil {
			t.Fatal(err)
		}
		if m.Kind != outdir.KindReport {
			t.Errorf("manifest kind %q", m.Kind)
		}
		for _, f := range files(t, dir) {
			switch {
			case strings.Contains(f, ".tmp-kafkagrid-") || f == outdir.LockName:
				t.Errorf("left %s", f)
			case f != outdir.ManifestName && !m.Files[f] && !slices.Contains(user, f):
				t.Errorf("%s is not in the manifest", f)
			}
		}
	}
	t.Run("abort", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "report")
		w, err := New(dir, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Add(r.Conns[0], r.Conns[0].Exchanges[0]); err != nil {
			t.Fatal(err)
		}
		if len(files(t, dir)) == 0 {
			t.Fatal("Add wrote nothing")
		}
		w.Abort()
		w.Abort()
		leftBehind(t, dir)
		// The next report replaces the aborted one's files; one of another capture (only
		// Fetch) removes the pages and frames it does not write again.
		_, fetch := vectorCapture(t, kafka.VectorOptions{}, "Fetch")
		if err := writeChecked(t, dir, fetch, Options{}); err != nil {
			t.Fatalf("a report after an aborted one: %v", err)
		}
		want := filepath.Join(t.TempDir(), "fresh")
		if err := writeChecked(t, want, fetch, Options{}); err != nil {
			t.Fatal(err)
		}
		if got, want := files(t, dir), files(t, want); !slices.Equal(got, want) {
			t.Errorf("after an aborted report, a report of another capture leaves %v, want %v", got, want)
		}
	})
	t.Run("failed close", func(t *testing.T) {
		dir := t.TempDir()
		keep := filepath.Join(dir, "mine.txt")
		os.WriteFile(keep, []byte("a user's file"), 0o644)
		os.Mkdir(filepath.Join(dir, "index.html"), 0o755) // index.html cannot be written
		w, err := New(dir, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range r.Conns[0].Exchanges {
			if err := w.Add(r.Conns[0], e); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(r); err == nil || !strings.Contains(err.Error(), "index.html") {
			t.Fatalf("Close: %v", err)
		}
		w.Abort()
		leftBehind(t, dir, "mine.txt")
		if b, err := os.ReadFile(keep); err != nil || string(b) != "a user's file" {
			t.Errorf("the user's file: %q, %v", b, err)
		}
	})
	t.Run("link", func(t *testing.T) {
		// A symbolic link below the folder is never followed: frames/ leading elsewhere stops
		// the report at its first frame file, and nothing is written where it leads.
		dir, elsewhere := t.TempDir(), t.TempDir()
		if err := os.Symlink(elsewhere, filepath.Join(dir, "frames")); err != nil {
			t.Skip(err)
		}
		w, err := New(dir, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Add(r.Conns[0], r.Conns[0].Exchanges[0]); err == nil || !strings.Contains(err.Error(), "symbolic link") {
			t.Errorf("Add through a linked frames/: %v", err)
		}
		w.Abort()
		if got := files(t, elsewhere); len(got) != 0 {
			t.Errorf("written through the link: %v", got)
		}
	})
	t.Run("failed add", func(t *testing.T) {
		dir := t.TempDir()
		fail := errors.New("disk full")
		n := 0
		w, err := New(dir, Options{Create: func(rel string, fill func(io.Writer) error) error {
			if n++; n == 3 {
				return fail
			}
			return fill(io.Discard)
		}})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Add(r.Conns[0], r.Conns[0].Exchanges[0]); !errors.Is(err, fail) {
			t.Errorf("Add: %v, want the Create error", err)
		}
		w.Abort()
		if err := w.Close(r); !errors.Is(err, errClosed) {
			t.Errorf("Close after Abort: %v", err)
		}
	})
}

// TestPageManyNested: a frame with hundreds of compressed batches (their records drawn or not)
// keeps its page under the ceilings: the nested sections that do not fit are counted in a
// note.
func TestPageManyNested(t *testing.T) {
	_, r := vectorCapture(t, kafka.VectorOptions{Compression: kafka.CodecLZ4}, "Produce")
	e := r.Conns[0].Exchanges[0]
	dir := t.TempDir()
	w, err := New(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	fv, err := w.frame("c1-1", "request", e.Request, kafkaview.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if fv.figs == nil || len(fv.figs.Nested) != 1 {
		t.Fatalf("figures %v", fv.figs)
	}
	one := fv.figs.Nested[0]
	for i := range 300 {
		n := one
		if i%2 == 1 {
			n.Figures, n.Note = nil, "not drawn: a note"
		}
		fv.figs.Nested = append(fv.figs.Nested, n)
	}
	if err := fitPage([]*frameView{fv}); err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	pv := pageView{Title: "t", Heading: "h", Conn: "c", Index: "../index.html", Sides: []*frameView{fv}}
	if err := writePage(&sb, &pv); err != nil {
		t.Fatal(err)
	}
	page := sb.String()
	if n := site.Elements([]byte(page)); n > MaxPageElements || len(page) > MaxPageBytes {
		t.Errorf("%d elements, %d bytes", n, len(page))
	}
	drawn := strings.Count(page, `<section class="msg nested"`)
	if drawn < 2 || drawn > 300 || !strings.Contains(page, fmt.Sprintf("%d more nested frames (the records of compressed batches) are not on this page", 301-drawn)) {
		t.Errorf("%d nested sections, and no note of the %d others", drawn, 301-drawn)
	}
	w.Abort()
}
