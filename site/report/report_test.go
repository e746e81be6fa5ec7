package report

import (
	"bytes"
	"encoding/binary"
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/capture"
	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site"
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
		if err := writeChecked(t, outs[i], r, Options{}); err != nil {
			t.Fatal(err)
		}
	}
	html := readAll(t, outs[0])
	for _, want := range []string{"Produce v12 request", "Produce v12 response", "Fetch v17 request", "1 not decoded",
		"decompressed with lz4 (offsets from the start of the decompressed data)", `class="err"`, `class="bad"`,
		"Topics (failed here)", "offset 45, Topics#length: length 126 exceeds the 60 bytes left", "no response"} {
		if !strings.Contains(html, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	// Three frames' four files each; a frame the page draws the first screen of has its
	// 16-bit grid's file too (a phone's link to the whole), and a nested frame the page
	// links its whole drawings of has those three.
	files, _ := filepath.Glob(filepath.Join(outs[0], "frames", "*"))
	narrow, _ := filepath.Glob(filepath.Join(outs[0], "frames", "*-grid16.svg"))
	nestedWhole, _ := filepath.Glob(filepath.Join(outs[0], "frames", "*-n[0-9]*-grid.svg"))
	nestedTrees, _ := filepath.Glob(filepath.Join(outs[0], "frames", "*-n[0-9]*-tree.svg"))
	nestedWhole = append(nestedWhole, nestedTrees...)
	if len(files)-len(narrow)-len(nestedWhole) != 12 || len(nestedWhole)%2 != 0 || len(narrow) != strings.Count(html, `Drawn whole in <a href="../frames/`) {
		t.Errorf("%d frame files, %d of them 16-bit grids: want 3 frames × 4 and one for each frame drawn in part", len(files), len(narrow))
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
	if other := readAll(t, outs[1]); html != other {
		t.Error("the pages differ between two runs")
	}
	pages, _ := filepath.Glob(filepath.Join(outs[0], "exchanges", "*.html"))
	if len(pages) != 2 {
		t.Errorf("%d exchange pages, want 2 (Produce, Fetch)", len(pages))
	}
}

// readAll returns index.html and every exchange page of the report in dir, one after the
// other, checking each is under the page ceilings.
func readAll(t *testing.T, dir string) string {
	t.Helper()
	index, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	sb.Write(index)
	pages, _ := filepath.Glob(filepath.Join(dir, "exchanges", "*.html"))
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if n := site.Elements(b); n > MaxPageElements || len(b) > MaxPageBytes {
			t.Errorf("%s: %d elements, %d bytes: over the page ceilings", filepath.Base(p), n, len(b))
		}
		linksBytes(t, dir, filepath.Base(p), string(b))
		sb.Write(b)
	}
	return sb.String()
}

var (
	liveGrid  = regexp.MustCompile(`<figure [^>]*class="live g32`)
	hexShown  = regexp.MustCompile(`<pre class="hex h16"[^>]*>[^<]*<span`)
	wholeNote = regexp.MustCompile(`<p class="note cut">[^\n]*href="\.\./(frames/[^"]+)"`)
)

// linksBytes checks that every message and nested frame of an exchange's page is drawn live
// with its hex dump (each field linked to its bytes), or says where the whole is drawn and
// links files that exist.
func linksBytes(t *testing.T, dir, name, page string) {
	t.Helper()
	for _, sec := range strings.Split(page, `<section class="msg`)[1:] {
		sec, _, _ = strings.Cut(sec, "</section>")
		live := liveGrid.MatchString(sec)
		if live && !hexShown.MatchString(sec) {
			t.Errorf("%s: %.80s: drawn live with no hex dump", name, sec)
		}
		if m := wholeNote.FindStringSubmatch(sec); m != nil {
			if _, err := os.Stat(filepath.Join(dir, m[1])); err != nil {
				t.Errorf("%s: %.80s: links %s: %v", name, sec, m[1], err)
			}
		} else if !live {
			t.Errorf("%s: %.80s: not drawn live, and no link to where it is", name, sec)
		}
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
			if err := writeChecked(t, out, r, Options{Flat: tc.flat}); err != nil {
				t.Fatal(err)
			}
			html := readAll(t, out)
			for _, want := range []string{`data-path="RequestData.header.RequestApiKey"`, `data-path="ResponseData.Topics[0].Name"`,
				"RequestData.header: CreateTopics v7 request, embedded"} {
				if got := strings.Contains(html, want); got != tc.nested {
					t.Errorf("report has %q: %v, want %v", want, got, tc.nested)
				}
			}
		})
	}
}

// TestWriteLargeFrame: a frame with more fields than a report draws gets its text and JSON
// files, a note instead of a grid and a tree, and a hex dump of its first bytes and of the
// lines around the byte where decoding failed; its page stays under the ceilings.
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
	if err := writeChecked(t, out, r, Options{}); err != nil {
		t.Fatal(err)
	}
	html := readAll(t, out) // and every page under its ceilings
	for _, want := range []string{"fields (tree nodes), more than a report draws of one frame (5000)",
		`<span data-o="180012" class="bad" title="decoding failed here">00</span>`, "bytes not shown …", "ApiKeys[29999].MaxVersion: offset 180012"} {
		if !strings.Contains(html, want) {
			t.Errorf("report lacks %q", want)
		}
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

// TestIndexErrorsAndClient: the index's row of each exchange names the request's client id
// and the error codes its response carries (each once, NONE left out), so an error is found
// without opening exchanges one by one.
func TestIndexErrorsAndClient(t *testing.T) {
	cat, err := kafka.LoadCatalog(testenv.Release(t, "4.0"))
	if err != nil {
		t.Fatal(err)
	}
	edges, err := cat.EdgeCases()
	if err != nil {
		t.Fatal(err)
	}
	var data []byte
	var wantErrs []string
	for _, e := range edges {
		if e.Response == nil || e.Request == nil {
			continue
		}
		got, _ := frameErrors(e.Response)
		if len(got) == 0 {
			continue
		}
		data = append(data, e.Request.Bytes...)
		data = append(data, e.Response.Bytes...)
		wantErrs = append(wantErrs, got[0])
	}
	if len(wantErrs) < 2 {
		t.Fatalf("%d edge cases with an error", len(wantErrs))
	}
	r, err := capture.Read(cat, data, capture.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "report")
	if err := writeChecked(t, dir, r, Options{}); err != nil {
		t.Fatal(err)
	}
	index, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range append([]string{"<th>Client id</th>", "<th>Errors</th>", `data-label="Client id">kafkagrid</td>`}, wantErrs...) {
		if !bytes.Contains(index, []byte(want)) {
			t.Errorf("the index lacks %q", want)
		}
	}
	if bytes.Contains(index, []byte(">NONE<")) || bytes.Contains(index, []byte(", NONE")) {
		t.Error("the index lists NONE as an error")
	}
}

// TestFrameErrors: distinct codes in order, nested ones too, NONE left out, at most
// maxRowErrors named and the rest counted.
func TestFrameErrors(t *testing.T) {
	leaf := func(name string, v int64) *kafka.Node { return &kafka.Node{Name: name, Raw: v} }
	root := &kafka.Node{Children: []*kafka.Node{
		leaf("ErrorCode", 0), leaf("ErrorCode", 3), leaf("TopicErrorCode", 3),
		{Name: "[0]", Children: []*kafka.Node{leaf("ErrorCode", 6), leaf("PartitionErrorCode", 29), leaf("ErrorCode", 1), leaf("ErrorCode", 2)}},
		leaf("ThrottleTimeMs", 5),
	}}
	got, more := frameErrors(&kafka.Frame{Root: root})
	want := []string{"UNKNOWN_TOPIC_OR_PARTITION", "NOT_LEADER_OR_FOLLOWER", "TOPIC_AUTHORIZATION_FAILED", "OFFSET_OUT_OF_RANGE"}
	if strings.Join(got, ",") != strings.Join(want, ",") || more != 1 {
		t.Errorf("frameErrors = %v and %d more, want %v and 1 more", got, more, want)
	}
}
