package reference

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
)

// TestGoldenPages compares the index and one API page, built from the test content (see
// fieldContent: it exercises the templates, not the encoder), with the files under testdata.
// Refresh them with go test -update, and look at the pages in a browser before committing.
func TestGoldenPages(t *testing.T) {
	cat := catalog(t, "4.0")
	out := t.TempDir()
	buildWith(t, cat, out, Options{Formats: HTML | SVG | Bin, APIs: []string{"ApiVersions", "Produce", "Heartbeat"}})
	for _, tt := range []struct{ file, golden string }{
		{"index.html", "index.html"},
		{"api/ApiVersions.html", "ApiVersions.html"},
		{"api/ApiVersions.lazy.js", "ApiVersions.lazy.js"}, // the response and edge case, drawn when opened
	} {
		t.Run(tt.golden, func(t *testing.T) {
			got, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(tt.file)))
			if err != nil {
				t.Fatal(err)
			}
			testenv.Golden(t, filepath.Join("testdata", tt.golden+".golden"), got) // tt.file
		})
	}
}

// TestGoldenShow compares what "kafkagrid show ApiVersions -response" prints, from the real
// encoder and layouts, with testdata.
func TestGoldenShow(t *testing.T) {
	cat := catalog(t, "4.0")
	a, _ := cat.Lookup("ApiVersions")
	var buf bytes.Buffer
	if err := Show(&buf, cat, a, ShowOptions{Response: true}); err != nil {
		t.Fatal(err)
	}
	testenv.Golden(t, filepath.Join("testdata", "18-ApiVersions-v4-response.txt.golden"), buf.Bytes()) // show ApiVersions -response
}

// TestShowFormat: Show and ShowFrame take the same formats, Text when none is set, and refuse
// another alike, writing nothing.
func TestShowFormat(t *testing.T) {
	cat := catalog(t, "4.0")
	a, _ := cat.Lookup("ApiVersions")
	frame := []byte{0, 0, 0, 0x12, 0, 18, 0, 3, 0, 0, 0, 1, 0, 1, 'c', 0, 3, 'k', 'g', 2, '1', 0}
	fr, err := cat.Decode(frame, kafka.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		f    Format
		want string // "" for a frame written
	}{{0, ""}, {Text, ""}, {JSON, ""}, {Format(99), "want one of txt, svg, json, pdf"}} {
		var b1, b2 bytes.Buffer
		e1 := Show(&b1, cat, a, ShowOptions{Format: tc.f})
		e2 := ShowFrame(&b2, cat, fr, nil, ShowOptions{Format: tc.f})
		for _, r := range []struct {
			err error
			out *bytes.Buffer
		}{{e1, &b1}, {e2, &b2}} {
			if tc.want == "" && (r.err != nil || r.out.Len() == 0) || tc.want != "" && (r.err == nil || !strings.Contains(r.err.Error(), tc.want) || r.out.Len() > 0) {
				t.Errorf("format %d: %v, %d bytes; want %q", tc.f, r.err, r.out.Len(), tc.want)
			}
		}
	}
}
