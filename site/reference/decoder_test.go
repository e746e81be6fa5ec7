package reference

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site/outdir"
	"github.com/kafkagrid/kafkagrid/site/webdecoder"
)

// fakeDecoder stands for the WebAssembly in tests that do not run it.
var fakeDecoder = fstest.MapFS{
	DecoderWASM: {Data: gzipped([]byte("\x00asm\x01\x00\x00\x00"))},
	DecoderGlue: {Data: []byte("\"use strict\"; // the toolchain's glue\n")},
}

func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// TestBuildDecoder checks that a build given the decoder writes decode.html and its scripts,
// lists them in its manifest, and links every page's header to the page, and that one
// without it writes none of it and links nowhere; that the release data the page gets are the
// release's spec files verbatim; and that WriteDecoder refuses a wasm that is not gzip.
func TestBuildDecoder(t *testing.T) {
	dir := testenv.Release(t, "4.0")
	cat, err := kafka.LoadCatalog(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		decoder bool
	}{{"with", true}, {"without", false}} {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			o := Options{Formats: HTML, APIs: []string{"ApiVersions"}}
			if tc.decoder {
				o.Decoder = fakeDecoder
			}
			if _, err := Build(context.Background(), cat, out, o); err != nil {
				t.Fatal(err)
			}
			manifest, _ := os.ReadFile(filepath.Join(out, outdir.ManifestName))
			for _, f := range decoderFiles([]string{"4.0"}) {
				_, err := os.Stat(filepath.Join(out, filepath.FromSlash(f)))
				if tc.decoder != (err == nil) {
					t.Errorf("%s: %v, decoder %v", f, err, tc.decoder)
				}
				if tc.decoder != bytes.Contains(manifest, []byte(f)) {
					t.Errorf("%s in the manifest: %v, decoder %v", f, !tc.decoder, tc.decoder)
				}
			}
			pages := map[string]string{"index.html": "decode.html", "errors.html": "decode.html", "api/ApiVersions.html": "../decode.html"}
			for page, href := range pages {
				b, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(page)))
				if err != nil {
					t.Fatal(err)
				}
				has := bytes.Contains(b, []byte(`<a href="`+href+`">Decode bytes</a>`))
				if has != tc.decoder {
					t.Errorf("%s links to %s: %v, decoder %v", page, href, has, tc.decoder)
				}
			}
			if !tc.decoder {
				return
			}
			page, _ := os.ReadFile(filepath.Join(out, DecoderPage))
			for _, want := range []string{`<option value="4.0" data-apis="Produce Fetch `, `<script src="decode/wasm_exec.js">`, `<script src="decode/decode.js">`, `id="kg-input"`, `id="kg-file"`} {
				if !bytes.Contains(page, []byte(want)) {
					t.Errorf("decode.html has no %s", want)
				}
			}
			glue, _ := os.ReadFile(filepath.Join(out, "decode", "wasm_exec.js"))
			if !bytes.Equal(glue, fakeDecoder[DecoderGlue].Data) {
				t.Error("decode/wasm_exec.js is not the glue given")
			}
			wasm := readDataScript(t, filepath.Join(out, "decode", "kafkagrid.js"), "wasm", "")
			if string(wasm) != "\x00asm\x01\x00\x00\x00" {
				t.Errorf("decode/kafkagrid.js holds %q", wasm)
			}
			rel, files, err := webdecoder.ReadRelease(readDataScript(t, filepath.Join(out, "decode", "release-4.0.js"), "release", "4.0"))
			if err != nil {
				t.Fatal(err)
			}
			if rel != "4.0" || len(files) != len(cat.Release.Specs) {
				t.Fatalf("release %q, %d files; want 4.0, %d", rel, len(files), len(cat.Release.Specs))
			}
			for _, f := range files {
				want, err := os.ReadFile(filepath.Join(dir, f.Name))
				if err != nil || string(want) != string(f.Text) {
					t.Errorf("%s is not the release's file verbatim (%v)", f.Name, err)
				}
			}
		})
	}
	bad := fstest.MapFS{DecoderWASM: {Data: []byte("\x00asm")}, DecoderGlue: {Data: []byte("//")}}
	if err := WriteDecoder(context.Background(), t.TempDir(), []*kafka.Catalog{cat}, bad, false); err == nil || !strings.Contains(err.Error(), "not gzip") {
		t.Errorf("a wasm that is not gzip: %v", err)
	}
	if err := WriteDecoder(context.Background(), t.TempDir(), []*kafka.Catalog{cat}, fstest.MapFS{}, false); err == nil || !strings.Contains(err.Error(), DecoderWASM) {
		t.Errorf("no wasm: %v", err)
	}
}

// TestWriteDecoderKeepsUserFiles checks that WriteDecoder, like a build, replaces no file that
// no kafkagrid build wrote.
func TestWriteDecoderKeepsUserFiles(t *testing.T) {
	cat, err := kafka.LoadCatalog(testenv.Release(t, "4.0"))
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	mine := filepath.Join(out, DecoderPage)
	os.WriteFile(mine, []byte("mine"), 0o644)
	err = WriteDecoder(context.Background(), out, []*kafka.Catalog{cat}, fakeDecoder, false)
	if b, _ := os.ReadFile(mine); err == nil || string(b) != "mine" || !strings.Contains(err.Error(), "nothing was written") {
		t.Fatalf("the user's decode.html: %v, now %q", err, b)
	}
	if got := files(t, out); !slices.Equal(got, []string{DecoderPage}) {
		t.Errorf("WriteDecoder wrote %v before it found decode.html in the way", got)
	}
}

// TestWriteDecoderManifest: the manifest of a decoder written alone records its release as a
// build's does (none for several releases), and WriteDecoder into a built reference keeps the
// reference's release and APIs, so that a partial build there afterwards still keeps the APIs
// built before in its index.
func TestWriteDecoderManifest(t *testing.T) {
	cat := catalog(t, "4.0")
	older := catalog(t, "3.9")
	for _, tc := range []struct {
		cats []*kafka.Catalog
		want string
	}{{[]*kafka.Catalog{cat}, "4.0"}, {[]*kafka.Catalog{older, cat}, ""}} {
		out := t.TempDir()
		if err := WriteDecoder(context.Background(), out, tc.cats, fakeDecoder, false); err != nil {
			t.Fatal(err)
		}
		m, err := outdir.ReadManifest(out)
		if err != nil {
			t.Fatal(err)
		}
		if m.Release != tc.want || m.Kind != "" || len(m.APIs) != 0 {
			t.Errorf("%d releases: manifest release %q, kind %q, APIs %v; want release %q", len(tc.cats), m.Release, m.Kind, m.APIs, tc.want)
		}
	}
	out := t.TempDir()
	if _, err := Build(context.Background(), cat, out, Options{Formats: HTML, APIs: []string{"Produce"}}); err != nil {
		t.Fatal(err)
	}
	if err := WriteDecoder(context.Background(), out, []*kafka.Catalog{cat}, fakeDecoder, false); err != nil {
		t.Fatal(err)
	}
	m, err := outdir.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	if m.Release != "4.0" || !slices.Equal(m.APIs, []string{"Produce"}) || !m.Files[DecoderPage] || !m.Files["api/Produce.html"] {
		t.Fatalf("after WriteDecoder into a build: release %q, APIs %v, %d files", m.Release, m.APIs, len(m.Files))
	}
	if _, err := Build(context.Background(), cat, out, Options{Formats: HTML, APIs: []string{"Fetch"}}); err != nil {
		t.Fatalf("a partial build after WriteDecoder: %v", err)
	}
	index, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(index), `href="api/Produce.html"`) || !strings.Contains(string(index), `href="api/Fetch.html"`) {
		t.Error("the partial build's index lost the API built before WriteDecoder")
	}
}

var dataScriptRE = regexp.MustCompile(`^kafkagrid\.data\("(\w+)","([^"]*)","([A-Za-z0-9+/=]*)"\);\n$`)

// readDataScript reads back what a data script hands the page, gunzipped.
func readDataScript(t *testing.T, path, kind, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := dataScriptRE.FindSubmatch(b)
	if m == nil || string(m[1]) != kind || string(m[2]) != name {
		t.Fatalf("%s: not a data script of %s %q", path, kind, name)
	}
	gz, err := base64.StdEncoding.DecodeString(string(m[3]))
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
