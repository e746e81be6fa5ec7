package site

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
)

func TestHexDump(t *testing.T) {
	b := []byte("\x00\x00\x00\x2aHello, Kafka!\x01\x02\x03")
	want := "00000000  00 00 00 2a 48 65 6c 6c  6f 2c 20 4b 61 66 6b 61  |...*Hello, Kafka|\n" +
		"00000010  21 01 02 03                                       |!...|\n"
	if got := HexDump(b); got != want {
		t.Errorf("HexDump =\n%s\nwant\n%s", got, want)
	}
	for _, tc := range []struct {
		name string
		o    HexOptions
		want []string
	}{
		{"16", HexOptions{}, []string{`<span class="off">00000010</span>  <span data-o="16">21</span>`, `<span data-o="19">03</span>`, `<span class="asc">|!...|</span>`}},
		{"8", HexOptions{PerLine: 8}, []string{`<span class="off">0010</span>  <span data-o="16">21</span>`, `<span class="asc">|o, Kafka|</span>`}},
		{"bad", HexOptions{Failed: true, FailAt: 0}, []string{`<span data-o="0" class="bad" title="decoding failed here">00</span>`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := string(HexHTML(b, tc.o))
			for _, w := range tc.want {
				if !strings.Contains(h, w) {
					t.Errorf("lacks %q:\n%s", w, h)
				}
			}
			if n := strings.Count(h, "<span"); n != HexElements(len(b), tc.o.PerLine) {
				t.Errorf("%d elements, HexElements says %d", n, HexElements(len(b), tc.o.PerLine))
			}
			if !tc.o.Failed && strings.Contains(h, "bad") {
				t.Error("a byte marked bad")
			}
		})
	}
}

// TestHexWindow: a long frame's hex dump shows its first Limit bytes and the lines around
// the failing byte, also when decoding failed for want of bytes at its very end, and promises
// the JSON file only when there is one.
func TestHexWindow(t *testing.T) {
	const limit = 64 << 10
	b := make([]byte, limit+4096+5)
	for _, tc := range []struct {
		name     string
		o        HexOptions
		want     []string
		lastLine string
	}{
		{"inside", HexOptions{Failed: true, FailAt: limit + 1000, HaveJSON: true}, []string{`class="bad"`, "… 864 bytes not shown …", "(the frame's JSON holds them all, in hex)"}, ""},
		{"at the end", HexOptions{Failed: true, FailAt: len(b)}, []string{"… 3968 bytes not shown …"}, fmt.Sprintf("%08x", len(b)&^15)},
		{"no failure", HexOptions{}, []string{"… 4101 bytes not shown …\n"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.o.Limit = limit
			h := string(HexHTML(b, tc.o))
			for _, w := range tc.want {
				if !strings.Contains(h, w) {
					t.Errorf("lacks %q", w)
				}
			}
			if !tc.o.HaveJSON && strings.Contains(h, "JSON") {
				t.Error("promises a JSON file")
			}
			if tc.lastLine != "" && !strings.Contains(h, `<span class="off">`+tc.lastLine+`</span>`) {
				t.Errorf("the frame's last line (%s) is not shown", tc.lastLine)
			}
			if n := strings.Count(h, "\n"); n > limit/16+20 {
				t.Errorf("%d lines for a limit of %d bytes", n, limit)
			}
		})
	}
}

func vectors(t *testing.T, o kafka.VectorOptions) (*kafka.Catalog, map[string]kafka.Vector) {
	t.Helper()
	cat, err := kafka.LoadCatalog(testenv.Release(t, "4.0"))
	if err != nil {
		t.Fatal(err)
	}
	vs, err := cat.Vectors(o)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]kafka.Vector{}
	for _, v := range vs {
		m[v.API.Name] = v
	}
	return cat, m
}

// TestDrawFailed: a frame broken at its Topics count is drawn up to the failure: the failing
// field marked, the rest one field "not decoded" with the error's offset, path and what, in
// the grid, the detail panel and the failing byte.
func TestDrawFailed(t *testing.T) {
	cat, vs := vectors(t, kafka.VectorOptions{})
	v := vs["Fetch"]
	bad := bytes.Clone(v.Request.Bytes)
	bad[v.Request.Root.Find("Topics#length").Offset] = 0x7f // 126 topics in 60 bytes
	fr, err := cat.Decode(bad, kafka.DecodeOptions{})
	if err == nil || fr == nil || fr.Root == nil {
		t.Fatalf("decode: %v, %v", fr, err)
	}
	fs, err := Draw(fr, Options{Err: err, Narrow: true})
	if err != nil {
		t.Fatal(err)
	}
	if !fs.Failed || fs.FailAt != 45 {
		t.Errorf("failed %v at %d, want at 45", fs.Failed, fs.FailAt)
	}
	svg, err := InlineSVG(fs.Grid, "g")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Topics (failed here)", "offset 45, Topics#length: length 126 exceeds the 60 bytes left", `data-path="#undecoded"`} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("grid lacks %q", want)
		}
	}
	last := fs.Fields[len(fs.Fields)-1]
	if last.Path != "#undecoded" || last.Offset+last.Length != len(bad) || ReaderPath(last.Path) != "not decoded" {
		t.Errorf("last detail field %+v", last)
	}
	if fs.Name != "Fetch v17 request" || fs.Narrow.Drawing == nil {
		t.Errorf("name %q, narrow %v", fs.Name, fs.Narrow.Drawing)
	}
}

// TestDrawNested: the records of compressed batches are nested figures, drawn up to
// MaxNested fields; without compression there are none.
func TestDrawNested(t *testing.T) {
	_, vs := vectors(t, kafka.VectorOptions{Compression: kafka.CodecLZ4})
	fr := vs["Produce"].Request
	fs, err := Draw(fr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(fs.Nested) == 0 {
		t.Fatal("no nested frames")
	}
	n := fs.Nested[0]
	if n.Figures == nil || n.Note != "" || !strings.Contains(n.Caption, "decompressed with lz4 (offsets from the start of the decompressed data)") {
		t.Fatalf("nested %+v", n)
	}
	if fs.Nodes <= fr.Nodes || n.Figures.Tree.Drawing == nil || len(n.Figures.Fields) == 0 {
		t.Errorf("%d nodes drawn of %d, nested %+v", fs.Nodes, fr.Nodes, n.Figures)
	}
	small, err := Draw(fr, Options{MaxNested: 3})
	if err != nil {
		t.Fatal(err)
	}
	if small.Nested[0].Figures != nil || !strings.Contains(small.Nested[0].Note, "more than the 3 left") || small.Nodes != fr.Nodes {
		t.Errorf("MaxNested 3: %+v", small.Nested[0])
	}
	none, err := Draw(fr, Options{MaxNested: -1})
	if err != nil || len(none.Nested) != 0 {
		t.Errorf("MaxNested -1: %v, %d nested", err, len(none.Nested))
	}
}

// TestFitIDs: Fit and FitWide style a message only by a plain CSS identifier; an empty id or
// one a selector cannot name gets no style (the page's stacked layout), never "#" alone.
func TestFitIDs(t *testing.T) {
	for _, id := range []string{"", "1st", "a b", "x\"y", "p.q"} {
		if got := Fit(id, 600, 320, 400); got != "" {
			t.Errorf("Fit(%q) = %.60q, want none", id, got)
		}
		if got := FitWide(id, 600, 400); got != "" {
			t.Errorf("FitWide(%q) = %.60q, want none", id, got)
		}
	}
	if got := string(Fit("request", 600, 320, 400)); !strings.Contains(got, "#request ") {
		t.Errorf("Fit(request) = %.80q", got)
	}
}
