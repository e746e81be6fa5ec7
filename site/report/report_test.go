package report

import (
	"bytes"
	"encoding/binary"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/capture"
	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
)

// TestWrite decodes the Produce example pair with lz4 batches, and a Fetch request broken at
// its Topics count, and checks the report: the failing field marked and the rest one field
// with the error's offset, path and what; the decompressed records as a nested frame; every
// SVG well-formed XML; the same input gives the same bytes.
func TestWrite(t *testing.T) {
	cat, err := kafka.LoadCatalog(testenv.Release(t, "4.0"))
	if err != nil {
		t.Fatal(err)
	}
	vs, err := cat.Vectors(kafka.VectorOptions{Compression: kafka.CodecLZ4})
	if err != nil {
		t.Fatal(err)
	}
	var data []byte
	for _, v := range vs {
		switch v.API.Name {
		case "Produce":
			data = append(data, v.Request.Bytes...)
			data = append(data, v.Response.Bytes...)
		case "Fetch":
			bad := bytes.Clone(v.Request.Bytes)
			n := v.Request.Root.Find("Topics#length")
			bad[n.Offset] = 0x7f // 126 topics in 60 bytes
			data = append(data, bad...)
		}
	}
	r, err := capture.Read(cat, data, capture.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var outs [2]string
	for i := range outs {
		outs[i] = filepath.Join(t.TempDir(), "report")
		if err := Write(outs[i], r, Options{}); err != nil {
			t.Fatal(err)
		}
	}
	html, err := os.ReadFile(filepath.Join(outs[0], "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Produce v12 request", "Produce v12 response", "Fetch v17 request", "1 not decoded",
		"decompressed with lz4 (offsets from the start of the decompressed data)", `class="err"`, `class="bad"`,
		"Topics (failed here)", "offset 45, Topics#length: length 126 exceeds the 60 bytes left", "no response"} {
		if !strings.Contains(string(html), want) {
			t.Errorf("report lacks %q", want)
		}
	}
	files, _ := filepath.Glob(filepath.Join(outs[0], "frames", "*"))
	if len(files) != 12 {
		t.Errorf("%d frame files, want 3 frames × 4", len(files))
	}
	for _, f := range files {
		b, _ := os.ReadFile(f)
		other, _ := os.ReadFile(filepath.Join(outs[1], "frames", filepath.Base(f)))
		if !bytes.Equal(b, other) {
			t.Errorf("%s differs between two runs", filepath.Base(f))
		}
		if strings.HasSuffix(f, ".svg") {
			if err := xml.Unmarshal(b, new(struct{})); err != nil {
				t.Errorf("%s: %v", filepath.Base(f), err)
			}
		}
	}
	other, _ := os.ReadFile(filepath.Join(outs[1], "index.html"))
	if !bytes.Equal(html, other) {
		t.Error("index.html differs between two runs")
	}
}

// TestWriteEnvelope checks that a report draws the frames an Envelope pair carries as nested
// frames (the response's read from the request's), and one with Options.Flat as bytes.
func TestWriteEnvelope(t *testing.T) {
	cat, err := kafka.LoadCatalog(testenv.Release(t, "4.0"))
	if err != nil {
		t.Fatal(err)
	}
	vs, err := cat.Vectors(kafka.VectorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var data []byte
	for _, v := range vs {
		if v.API.Name == "Envelope" {
			data = append(append(data, v.Request.Bytes...), v.Response.Bytes...)
		}
	}
	r, err := capture.Read(cat, data, capture.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		flat   bool
		nested bool
	}{{"decoded", false, true}, {"bytes", true, false}} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "report")
			if err := Write(out, r, Options{Flat: tc.flat}); err != nil {
				t.Fatal(err)
			}
			html, err := os.ReadFile(filepath.Join(out, "index.html"))
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{`data-path="RequestData.header.RequestApiKey"`, `data-path="ResponseData.Topics[0].Name"`,
				"RequestData.header: CreateTopics v7 request, embedded"} {
				if got := strings.Contains(string(html), want); got != tc.nested {
					t.Errorf("report has %q: %v, want %v", want, got, tc.nested)
				}
			}
		})
	}
}

// TestWriteLargeFrame: a frame with more fields than a report draws gets its text and JSON
// files, a note instead of a grid and a tree, and a hex dump of its first MaxHexBytes and of
// the lines around the byte where decoding failed; the report stays small.
func TestWriteLargeFrame(t *testing.T) {
	cat, err := kafka.LoadCatalog(testenv.Release(t, "4.0"))
	if err != nil {
		t.Fatal(err)
	}
	av, _ := cat.Lookup("ApiVersions")
	// An ApiVersions v0 response of 30,000 elements (90,000 fields, 180 KB) whose last
	// element lacks a byte: decoding fails at its last byte.
	n := 30_000
	b := binary.BigEndian.AppendUint32(nil, uint32(4+2+4+6*n-1))
	b = binary.BigEndian.AppendUint32(b, 7)
	b = binary.BigEndian.AppendUint16(b, 0)
	b = binary.BigEndian.AppendUint32(b, uint32(n))
	for range n {
		b = append(b, 0, 18, 0, 0, 0, 3)
	}
	b = b[:len(b)-1]
	r, err := capture.Read(cat, b, capture.Options{API: av, HaveVersion: true})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "report")
	if err := Write(out, r, Options{}); err != nil {
		t.Fatal(err)
	}
	html, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"fields (tree nodes), more than a report draws of one frame (5000)",
		`<span class="bad" title="decoding failed here">00</span>`, "bytes not shown", "ApiKeys[29999].MaxVersion: offset 180012"} {
		if !strings.Contains(string(html), want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if len(html) > 500<<10 { // the hex dump of 64 KiB is 410 KB of HTML
		t.Errorf("index.html is %d bytes for a frame of %d", len(html), len(b))
	}
	files, _ := filepath.Glob(filepath.Join(out, "frames", "*"))
	var names []string
	for _, f := range files {
		names = append(names, filepath.Ext(f))
	}
	if strings.Join(names, " ") != ".json .txt" {
		t.Errorf("frame files %v, want the JSON and the text", names)
	}
}

// TestHexDumpWindow: a long frame's hex dump shows its first MaxHexBytes and the lines around
// the failing byte, also when decoding failed for want of bytes at its very end, and promises
// the JSON file only when there is one.
func TestHexDumpWindow(t *testing.T) {
	b := make([]byte, MaxHexBytes+4096+5)
	for _, tc := range []struct {
		name     string
		bad      int
		json     bool
		want     []string
		lastLine string
	}{
		{"inside", MaxHexBytes + 1000, true, []string{`class="bad"`, "… 864 bytes not shown …", "(the frame's JSON holds them all, in hex)"}, ""},
		{"at the end", len(b), false, []string{"… 3968 bytes not shown …"}, fmt.Sprintf("%08x", len(b)&^15)},
		{"no failure", -1, false, []string{"… 4101 bytes not shown …\n"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := string(hexDumpHTML(b, tc.bad, tc.json))
			for _, w := range tc.want {
				if !strings.Contains(h, w) {
					t.Errorf("lacks %q", w)
				}
			}
			if !tc.json && strings.Contains(h, "JSON") {
				t.Error("promises a JSON file")
			}
			if tc.lastLine != "" && !strings.Contains(h, `<span class="off">`+tc.lastLine+`</span>`) {
				t.Errorf("the frame's last line (%s) is not shown", tc.lastLine)
			}
		})
	}
}
