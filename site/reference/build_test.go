package reference

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/kafkagrid/kafkagrid/internal/testenv"

	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site"
	"github.com/kafkagrid/kafkagrid/site/outdir"
	"github.com/kafkagrid/kafkagrid/tree"
)

// schemaDir returns the folder of a Kafka release's schemas ($KAFKA_SCHEMAS, else
// ../shared/kafka-schemas relative to the module root).
func schemaDir(t testing.TB, release string) string {
	t.Helper()
	return testenv.Release(t, release)
}

var (
	catMu    sync.Mutex
	catCache = map[string]*kafka.Catalog{}
)

func catalog(t testing.TB, release string) *kafka.Catalog {
	t.Helper()
	catMu.Lock()
	defer catMu.Unlock()
	if c := catCache[release]; c != nil {
		return c
	}
	c, err := kafka.LoadCatalog(schemaDir(t, release))
	if err != nil {
		t.Fatal(err)
	}
	catCache[release] = c
	return c
}

// fieldContent is a content function for tests of the reference's own machinery: its frames
// hold one 4-byte cell per top-level schema field, drawn as a tree for both diagrams.
func fieldContent(a *kafka.API, v int16, f Format) (*apiContent, error) {
	mk := func(resp bool) (*message, error) {
		spec := a.Request
		if resp {
			spec = a.Response
		}
		base := BaseName(a, v, resp)
		root := &tree.Node{Name: spec.Name, Type: "frame", Path: "", Offset: 0}
		var b []byte
		for i, fl := range spec.Fields {
			off := len(b)
			b = binary.BigEndian.AppendUint32(b, uint32(i))
			root.Add(&tree.Node{Name: fl.Name, Value: fmt.Sprint(i), Type: fl.Type.Name, Offset: off, Length: 4,
				Path: fl.Name, Group: fl.Name, Desc: fl.About})
		}
		root.Length = len(b)
		d, err := tree.Layout(root, tree.Options{Title: base})
		if err != nil {
			return nil, err
		}
		m := &message{Base: base, Response: resp, Bytes: b,
			Grid: site.Figure{Drawing: d, Title: base + " grid", Desc: "test"}, Tree: site.Figure{Drawing: d, Title: base + " tree", Desc: "test"}}
		if f&JSON != 0 {
			m.JSON = []byte(fmt.Sprintf("{\"name\":%q}\n", base))
		}
		if f&Text != 0 {
			var buf bytes.Buffer
			if err := d.WriteText(&buf); err != nil {
				return nil, err
			}
			m.Text = buf.Bytes()
		}
		return m, nil
	}
	req, err := mk(false)
	if err != nil {
		return nil, err
	}
	resp, err := mk(true)
	if err != nil {
		return nil, err
	}
	return &apiContent{API: a, Version: v, Request: req, Response: resp}, nil
}

func buildWith(t testing.TB, cat *kafka.Catalog, out string, opts Options) Summary {
	t.Helper()
	b, err := newBuilder(cat, out, opts, fieldContent)
	if err != nil {
		t.Fatal(err)
	}
	s, err := b.run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// files lists the files under dir, relative, sorted.
func files(t testing.TB, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && d.Name() != outdir.ManifestName { // the build's own bookkeeping
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

func TestBuildMachinery(t *testing.T) {
	cat := catalog(t, "4.0")
	out := t.TempDir()
	// A file the build did not write must survive it.
	keep := filepath.Join(out, "api", "notes.txt")
	os.MkdirAll(filepath.Dir(keep), 0o755)
	os.WriteFile(keep, []byte("mine"), 0o644)

	s := buildWith(t, cat, out, Options{})
	got := files(t, out)
	count := func(prefix, suffix string) int {
		n := 0
		for _, f := range got {
			if strings.HasPrefix(f, prefix) && strings.HasSuffix(f, suffix) {
				n++
			}
		}
		return n
	}
	apis := len(cat.APIs)
	edges := edgeFrames(t, cat) // the edge cases' frames, beside the examples'
	for _, c := range []struct {
		prefix, suffix string
		want           int
	}{
		{"svg/", ".svg", 4*apis + 2*edges}, {"api/", ".html", apis}, {"index.html", "", 1},
		{"bin/", ".bin", 2*apis + edges}, {"json/", ".json", 2*apis + edges}, {"txt/", ".txt", 2*apis + edges},
		{"kafka-4.0-protocol.pdf", "", 1},
	} {
		if n := count(c.prefix, c.suffix); n != c.want {
			t.Errorf("%s*%s: %d files, want %d", c.prefix, c.suffix, n, c.want)
		}
	}
	if s.Files != len(got)-1 {
		t.Errorf("summary says %d files, %d written", s.Files, len(got)-1)
	}
	if b, err := os.ReadFile(keep); err != nil || string(b) != "mine" {
		t.Errorf("the build touched a file it did not write: %q, %v", b, err)
	}
	for _, f := range got {
		if strings.Contains(filepath.Base(f), ".tmp") {
			t.Errorf("temporary file left: %s", f)
		}
	}
	checkLinks(t, out)
	checkXML(t, out)
}

var hrefRE = regexp.MustCompile(`(?:href|src)="([^"#]*)(#[^"]*)?"`)

// checkLinks resolves every relative link of every page to an existing file (and anchors on
// the same page to an existing id).
func checkLinks(t *testing.T, out string) {
	t.Helper()
	pages, _ := filepath.Glob(filepath.Join(out, "*.html"))
	more, _ := filepath.Glob(filepath.Join(out, "api", "*.html"))
	pages = append(pages, more...)
	if len(pages) == 0 {
		t.Fatal("no pages")
	}
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range hrefRE.FindAllStringSubmatch(string(b), -1) {
			target, frag := m[1], m[2]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				t.Errorf("%s links outside: %s", p, target)
				continue
			}
			file := p
			if target != "" {
				file = filepath.Join(filepath.Dir(p), filepath.FromSlash(target))
				if _, err := os.Stat(file); err != nil {
					t.Errorf("%s: broken link %s", p, target)
					continue
				}
			}
			if frag != "" && strings.HasSuffix(file, ".html") {
				fb, _ := os.ReadFile(file)
				if !bytes.Contains(fb, []byte(`id="`+frag[1:]+`"`)) {
					t.Errorf("%s: link %s%s: no such id", p, target, frag)
				}
			}
		}
	}
}

func checkXML(t *testing.T, out string) {
	t.Helper()
	svgs, _ := filepath.Glob(filepath.Join(out, "svg", "*.svg"))
	for _, s := range svgs {
		b, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		d := xml.NewDecoder(bytes.NewReader(b))
		for {
			_, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Errorf("%s: %v", s, err)
				break
			}
		}
	}
}

func TestBuildDeterministic(t *testing.T) {
	cat := catalog(t, "4.0")
	a, b := t.TempDir(), t.TempDir()
	buildWith(t, cat, a, Options{APIs: []string{"Produce", "Fetch", "ApiVersions", "Metadata"}, Workers: 1})
	buildWith(t, cat, b, Options{APIs: []string{"Metadata", "ApiVersions", "Fetch", "Produce"}, Workers: 4})
	fa, fb := files(t, a), files(t, b)
	if strings.Join(fa, "\n") != strings.Join(fb, "\n") {
		t.Fatalf("file sets differ:\n%v\n%v", fa, fb)
	}
	for _, f := range fa {
		x, _ := os.ReadFile(filepath.Join(a, f))
		y, _ := os.ReadFile(filepath.Join(b, f))
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between two builds", f)
		}
	}
}

func TestBuildFormats(t *testing.T) {
	cat := catalog(t, "4.0")
	out := t.TempDir()
	buildWith(t, cat, out, Options{Formats: Bin | HTML, APIs: []string{"0", "ApiVersions"}})
	got := files(t, out)
	want := []string{"api/ApiVersions.html", "api/ApiVersions.lazy.js", "api/Produce.html", "api/Produce.lazy.js", "bin/0-Produce-v12-request-unknown-topic.bin", "bin/0-Produce-v12-request.bin",
		"bin/0-Produce-v12-response-not-leader.bin", "bin/0-Produce-v12-response-unknown-topic.bin",
		"bin/0-Produce-v12-response.bin", "bin/18-ApiVersions-v0-response-unsupported-version.bin",
		"bin/18-ApiVersions-v4-request.bin", "bin/18-ApiVersions-v4-response.bin", "errors.html", "index.html", "primitives.html"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("files = %v\nwant %v", got, want)
	}
	checkLinks(t, out)
}

func TestParseFormats(t *testing.T) {
	tests := []struct {
		in   string
		want Format
		err  bool
	}{
		{"", AllFormats, false},
		{"all", AllFormats, false},
		{"svg", SVG, false},
		{"svg, html ,PDF", SVG | HTML | PDF, false},
		{"bin,json,txt", Bin | JSON | Text, false},
		{"png", 0, true},
		{"svg,", 0, true},
	}
	for _, tt := range tests {
		got, err := ParseFormats(tt.in)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("ParseFormats(%q) = %v, %v; want %v, err %v", tt.in, got, err, tt.want, tt.err)
		}
	}
	if s := (SVG | Text).String(); s != "svg,txt" {
		t.Errorf("String = %q", s)
	}
}

func TestBuildUnknownAPI(t *testing.T) {
	if _, err := newBuilder(catalog(t, "4.0"), t.TempDir(), Options{APIs: []string{"Nope"}}, fieldContent); err == nil {
		t.Fatal("an unknown API was accepted")
	}
}

func TestBuildCanceled(t *testing.T) {
	cat := catalog(t, "4.0")
	out := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	b, err := newBuilder(cat, out, Options{}, fieldContent)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.run(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	for _, f := range files(t, out) {
		if strings.Contains(f, ".tmp") || strings.HasSuffix(f, ".pdf") || f == "index.html" {
			t.Errorf("a canceled build left %s", f)
		}
	}
}

func TestBuildContentError(t *testing.T) {
	cat := catalog(t, "4.0")
	out := t.TempDir()
	boom := errors.New("boom")
	failing := func(a *kafka.API, v int16, f Format) (*apiContent, error) {
		if a.Name == "Metadata" {
			return nil, boom
		}
		return fieldContent(a, v, f)
	}
	b, err := newBuilder(cat, out, Options{}, failing)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.run(context.Background()); !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
	for _, f := range files(t, out) {
		if strings.Contains(f, ".tmp") || strings.HasSuffix(f, ".pdf") {
			t.Errorf("a failed build left %s", f)
		}
	}
}

// edgeFrames counts the frames of a catalogue's edge cases.
func edgeFrames(t testing.TB, cat *kafka.Catalog) int {
	t.Helper()
	es, err := cat.EdgeCases()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range es {
		if e.Request != nil {
			n++
		}
		if e.Response != nil {
			n++
		}
	}
	return n
}

// TestBuildPlan: the plan a build checks before writing is exactly the files it writes, for
// every format, every version and a partial build into a full one.
func TestBuildPlan(t *testing.T) {
	cat := catalog(t, "4.0")
	full := t.TempDir()
	for _, tc := range []struct {
		name string
		out  string
		opts Options
	}{
		{"every format, every version", t.TempDir(), Options{Versions: kafka.AllVersions(), APIs: []string{"Produce", "ApiVersions", "Fetch"}}},
		{"bin and svg", t.TempDir(), Options{Formats: Bin | SVG}},
		{"the whole release", full, Options{}},
		{"one API into the whole release", full, Options{APIs: []string{"Produce"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := newBuilder(cat, tc.out, tc.opts, fieldContent)
			if err != nil {
				t.Fatal(err)
			}
			plan := b.plan()
			if _, err := b.run(context.Background()); err != nil {
				t.Fatal(err)
			}
			written := b.out.Written()
			slices.Sort(plan)
			if strings.Join(plan, "\n") != strings.Join(written, "\n") {
				t.Errorf("planned %d files, wrote %d\nplanned: %v\nwritten: %v", len(plan), len(written), plan, written)
			}
		})
	}
}

// TestBuildClashWritesNothing: a file of the user's where the build would write any of its
// files (the index, written last, or a page) stops the build before its first file, naming
// the files in the way; the folder is as it was, no manifest either.
func TestBuildClashWritesNothing(t *testing.T) {
	cat := catalog(t, "4.0")
	for _, tc := range []struct {
		name  string
		mine  []string
		want  string
		force bool
	}{
		{"the index", []string{"index.html"}, "index.html exists and was not written by kafkagrid", false},
		{"three files", []string{"index.html", "api/Produce.html", "bin/0-Produce-v12-request.bin"}, "(and 2 more: ", false},
		{"a symbolic link, even with -force", []string{"api/Fetch.html@"}, "api/Fetch.html: a symbolic link", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			for _, m := range tc.mine {
				p := filepath.Join(out, filepath.FromSlash(strings.TrimSuffix(m, "@")))
				os.MkdirAll(filepath.Dir(p), 0o755)
				if strings.HasSuffix(m, "@") {
					if err := os.Symlink("/etc/hostname", p); err != nil {
						t.Fatal(err)
					}
				} else if err := os.WriteFile(p, []byte("mine"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			before := files(t, out)
			_, err := newBuilder(cat, out, Options{Force: tc.force}, fieldContent)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "nothing was written") {
				t.Fatalf("err %v, want one with %q and \"nothing was written\"", err, tc.want)
			}
			if !tc.force && !errors.Is(err, outdir.ErrNotOurs) {
				t.Errorf("%v is not outdir.ErrNotOurs", err)
			}
			if after := files(t, out); strings.Join(after, " ") != strings.Join(before, " ") {
				t.Errorf("the folder changed: %v, was %v", after, before)
			}
			if _, err := os.Lstat(filepath.Join(out, outdir.ManifestName)); err == nil {
				t.Error("a manifest was left in the folder")
			}
		})
	}
}
