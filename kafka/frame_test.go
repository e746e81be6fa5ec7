package kafka

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
)

// testReleases names every release in the folder of releases (internal/testenv), oldest first.
func testReleases(t testing.TB) []string {
	t.Helper()
	var out []string
	for _, d := range testenv.All(t) {
		out = append(out, filepath.Base(d))
	}
	return out
}

// dataReleases are the releases a data test (every frame of every version, checked against an
// independent reader) runs on: every one, or with -short (the race detector's run, where
// these tests start no goroutine and what -race adds is checkptr on the unsafe conversions)
// the oldest and the newest: the oldest has the legacy message sets (Produce and Fetch v0-v3,
// gone from 4.0), the newest the latest fields. The run without -short checks every release.
func dataReleases(t testing.TB) []string {
	t.Helper()
	rels := testReleases(t)
	if testing.Short() && len(rels) > 2 {
		rels = []string{rels[0], rels[len(rels)-1]}
	}
	return rels
}

// schemaDir finds one release's folder (internal/testenv: $KAFKA_SCHEMAS, else
// ../shared/kafka-schemas beside the module root).
func schemaDir(t testing.TB, release string) string {
	t.Helper()
	return testenv.Release(t, release)
}

var testCats sync.Map // release → *Catalog (read-only once loaded)

func testCatalog(t testing.TB, release string) *Catalog {
	t.Helper()
	if c, ok := testCats.Load(release); ok {
		return c.(*Catalog)
	}
	c, err := LoadCatalog(schemaDir(t, release))
	if err != nil {
		t.Fatal(err)
	}
	testCats.Store(release, c)
	return c
}

func testVectors(t testing.TB, release string) []Vector {
	t.Helper()
	vs, err := testCatalog(t, release).Vectors(VectorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return vs
}

// testAllVectors is every version of every API of a release.
func testAllVectors(t testing.TB, release string) []Vector {
	t.Helper()
	vs, err := testCatalog(t, release).Vectors(VectorOptions{Versions: AllVersions()})
	if err != nil {
		t.Fatal(err)
	}
	return vs
}

func frames(vs []Vector) []*Frame {
	var out []*Frame
	for _, v := range vs {
		out = append(out, v.Request, v.Response)
	}
	return out
}

// checkTiling checks that the leaves of f's tree cover its bytes in order, with no gap and no
// overlap, and that every container spans exactly its children.
func checkTiling(f *Frame) error {
	at := 0
	for _, l := range f.Root.Leaves() {
		if l.Offset != at {
			return fmt.Errorf("%s: leaf %s (%s) at offset %d, want %d", f.BaseName(), l.Path, l.Kind, l.Offset, at)
		}
		if l.Length == 0 && l.Kind != KindStruct && l.Kind != KindElement && l.Kind != KindBody { // a message with no fields at a version (ApiVersions v0) has an empty body
			return fmt.Errorf("%s: leaf %s (%s) has length 0", f.BaseName(), l.Path, l.Kind)
		}
		at += l.Length
	}
	if at != len(f.Bytes) {
		return fmt.Errorf("%s: leaves cover %d bytes of %d", f.BaseName(), at, len(f.Bytes))
	}
	var err error
	paths := map[string]bool{}
	f.Root.Walk(func(n *Node) bool {
		if paths[n.Path] && err == nil {
			err = fmt.Errorf("%s: duplicate path %q", f.BaseName(), n.Path)
		}
		paths[n.Path] = true
		if len(n.Children) > 0 {
			first, last := n.Children[0], n.Children[len(n.Children)-1]
			if first.Offset != n.Offset || last.Offset+last.Length != n.Offset+n.Length {
				if err == nil {
					err = fmt.Errorf("%s: %s [%d,+%d) does not span its children [%d,%d)", f.BaseName(), n.Path, n.Offset, n.Length, first.Offset, last.Offset+last.Length)
				}
			}
		}
		return true
	})
	return err
}

func TestFramesTileAndRoundTrip(t *testing.T) {
	for _, rel := range testReleases(t) {
		t.Run(rel, func(t *testing.T) {
			c := testCatalog(t, rel)
			vs := testAllVectors(t, rel)
			versions := 0
			for _, a := range c.APIs {
				for v := a.Lowest; v <= a.Version; v++ {
					if a.Request.ValidIn(v) {
						versions++
					}
				}
			}
			if len(vs) != versions {
				t.Fatalf("%d vectors for %d versions of %d APIs", len(vs), versions, len(c.APIs))
			}
			t.Logf("Kafka %s: %d APIs, %d versions, %d frames round trip", rel, len(c.APIs), versions, 2*versions)
			dec := c.NewDecoder() // shared slabs across frames; Catalog.Decode is tested below
			for _, f := range frames(vs) {
				if err := checkTiling(f); err != nil {
					t.Error(err)
					continue
				}
				g, err := dec.Decode(f.Bytes, DecodeOptions{Response: f.Response, API: f.API, Version: f.Version})
				if err != nil {
					t.Errorf("%s: decode: %v", f.BaseName(), err)
					continue
				}
				if g.API != f.API || g.Version != f.Version || g.HeaderVersion != f.HeaderVersion || g.CorrelationID != f.CorrelationID {
					t.Errorf("%s: decoded as %s v%d header v%d id %d", f.BaseName(), g.BaseName(), g.Version, g.HeaderVersion, g.CorrelationID)
				}
				if d := diffTrees(f.Root, g.Root); d != "" {
					t.Errorf("%s: decoded tree differs: %s", f.BaseName(), d)
				}
				if !equalValue(f.Body, g.Body) {
					t.Errorf("%s: decoded body values differ", f.BaseName())
				}
				h, err := c.Encode(Message{API: g.API, Response: g.Response, Version: g.Version, CorrelationID: g.CorrelationID,
					ClientID: exampleClientID, Body: g.Body})
				if err != nil {
					t.Errorf("%s: re-encode: %v", f.BaseName(), err)
					continue
				}
				if !bytes.Equal(h.Bytes, f.Bytes) {
					t.Errorf("%s: re-encoded bytes differ", f.BaseName())
				}
			}
		})
	}
}

// diffTrees describes the first difference between two trees ("" when equal), Raw aside.
func diffTrees(a, b *Node) string {
	if a.Kind != b.Kind || a.Name != b.Name || a.Path != b.Path || a.Offset != b.Offset || a.Length != b.Length ||
		a.WireType != b.WireType || a.Value != b.Value || a.Spec != b.Spec || a.Field != b.Field || a.About != b.About {
		return fmt.Sprintf("%+v != %+v", *a, *b)
	}
	if len(a.Children) != len(b.Children) {
		return fmt.Sprintf("%s: %d children != %d", a.Path, len(a.Children), len(b.Children))
	}
	for i := range a.Children {
		if d := diffTrees(a.Children[i], b.Children[i]); d != "" {
			return d
		}
	}
	return ""
}

func TestHeaderVersions(t *testing.T) {
	for _, v := range testVectors(t, "4.0") {
		req, resp := v.Request, v.Response
		wantReq, wantResp := int16(1), int16(0)
		if v.API.Request.FlexibleIn(v.API.Version) {
			wantReq = 2
		}
		if v.API.Response.FlexibleIn(v.API.Version) && v.API.Name != "ApiVersions" {
			wantResp = 1
		}
		if req.HeaderVersion != wantReq || resp.HeaderVersion != wantResp {
			t.Errorf("%s: header versions %d/%d, want %d/%d", v.API.Name, req.HeaderVersion, resp.HeaderVersion, wantReq, wantResp)
		}
		// The request header: key, version, correlation id, client id as a classic string.
		hdr := req.Bytes[4:]
		want := []byte{byte(v.API.Key >> 8), byte(v.API.Key), byte(v.API.Version >> 8), byte(v.API.Version), 0, 0, 0, CorrelationID, 0, 9}
		want = append(want, "kafkagrid"...)
		if wantReq == 2 {
			want = append(want, 0) // empty tagged fields
		}
		if !bytes.HasPrefix(hdr, want) {
			t.Errorf("%s: request header % x, want % x", v.API.Name, hdr[:len(want)], want)
		}
		if got := req.Root.Find("header.ClientId"); got == nil || got.WireType != "nullable_string" {
			t.Errorf("%s: header.ClientId node %+v", v.API.Name, got)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	c := testCatalog(t, "4.0")
	produce, _ := c.Lookup("Produce")
	tests := []struct {
		name string
		data []byte
		o    DecodeOptions
		want string
	}{
		{"empty", nil, DecodeOptions{}, "kafka: request: #size: offset 0: unexpected end of data: need 4 bytes, 0 left"},
		{"huge size", []byte{0x7f, 0xff, 0xff, 0xff, 0, 0}, DecodeOptions{}, "kafka: request: #size: offset 0: size 2147483647 exceeds the 2 bytes left"},
		{"unknown key", []byte{0, 0, 0, 4, 0x7f, 0, 0, 0}, DecodeOptions{}, "kafka: request: header.RequestApiKey: offset 4: unknown api key 32512"},
		{"bad version", []byte{0, 0, 0, 4, 0, 0, 0, 99}, DecodeOptions{}, "kafka: Produce v99 request: header.RequestApiVersion: offset 6: Produce version 99 is not valid (3-12)"},
		{"response without api", []byte{0, 0, 0, 0}, DecodeOptions{Response: true}, "kafka: response: offset 0: decoding a response needs its API"},
		{"short response", []byte{0, 0, 0, 2, 0, 0}, DecodeOptions{Response: true, API: produce, Version: 12}, "kafka: Produce v12 response: header.CorrelationId: offset 4: unexpected end of data: need 4 bytes, 2 left"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.Decode(tt.data, tt.o)
			if err == nil || err.Error() != tt.want {
				t.Errorf("got %v\nwant %s", err, tt.want)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Errorf("%T is not *Error", err)
			}
		})
	}
}

// TestDecodeCutsAndRaisedLengths cuts every 4.0 frame at every byte, and raises every length
// prefix: each gives an error naming an offset and a path, never a panic.
func TestDecodeCutsAndRaisedLengths(t *testing.T) {
	c := testCatalog(t, "4.0")
	for _, f := range frames(testVectors(t, "4.0")) {
		o := DecodeOptions{Response: f.Response, API: f.API, Version: f.Version}
		for cut := 0; cut < len(f.Bytes); cut++ {
			g, err := c.Decode(f.Bytes[:cut], o)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("%s cut at %d: error %v", f.BaseName(), cut, err)
			}
			if g == nil || g.Root == nil || e.Offset < 0 || e.Offset > cut {
				t.Fatalf("%s cut at %d: offset %d: %v", f.BaseName(), cut, e.Offset, err)
			}
			// The size prefix says more than is there: the error is at the size.
			if cut >= 4 && e.Path != "#size" {
				t.Fatalf("%s cut at %d: %v", f.BaseName(), cut, err)
			}
		}
		// Cut the size too, so the walk reaches every field.
		for cut := 4; cut < len(f.Bytes); cut++ {
			b := bytes.Clone(f.Bytes[:cut])
			b[0], b[1], b[2], b[3] = byte((cut-4)>>24), byte((cut-4)>>16), byte((cut-4)>>8), byte(cut-4)
			_, err := c.Decode(b, o)
			var e *Error
			if !errors.As(err, &e) || e.Path == "" || e.Offset > cut {
				t.Fatalf("%s cut at %d with its size: %v", f.BaseName(), cut, err)
			}
		}
		f.Root.Walk(func(n *Node) bool {
			if n.Kind != KindLength && n.Kind != KindTagSize && n.Kind != KindTagSection {
				return true
			}
			b := bytes.Clone(f.Bytes)
			switch n.WireType {
			case "uvarint", "varint":
				if n.Length != 1 || b[n.Offset] >= 0x3f {
					return true
				}
				b[n.Offset] += 0x40
			case "int16", "int32":
				b[n.Offset+1] = 0x7f
			default:
				return true
			}
			got, err := c.Decode(b, o)
			if err == nil && strings.HasSuffix(n.Path, "BatchLength") && hasPartial(got.Root) {
				// A records field's entry whose length runs past the field is a partial last
				// entry, read as Kafka's client reads it (and skips it), not an error.
				return true
			}
			var e *Error
			if !errors.As(err, &e) || e.Path == "" {
				t.Errorf("%s: %s raised: %v", f.BaseName(), n.Path, err)
			}
			return true
		})
	}
}

// hasPartial reports whether a decoded tree shows a partial last entry of a records field.
func hasPartial(root *Node) bool {
	found := false
	root.Walk(func(n *Node) bool {
		found = found || strings.HasPrefix(n.Value, "partial: ")
		return !found
	})
	return found
}

func TestBaseNames(t *testing.T) {
	vs := testVectors(t, "4.0")
	got := vs[0].Request.BaseName() + " " + vs[0].Response.BaseName()
	if got != "0-Produce-v12-request 0-Produce-v12-response" {
		t.Errorf("base names %q", got)
	}
	for _, v := range vs {
		if v.Request.CorrelationID != v.Response.CorrelationID {
			t.Errorf("%s: correlation ids differ", v.API.Name)
		}
		if !strings.HasPrefix(v.Request.BaseName(), fmt.Sprint(v.API.Key)+"-") {
			t.Errorf("%s: base name %s", v.API.Name, v.Request.BaseName())
		}
	}
}

// TestDecodeHugeClaims decodes small frames that claim huge lengths: each must fail without
// allocating anything near the claim.
func TestDecodeHugeClaims(t *testing.T) {
	c := testCatalog(t, "4.0")
	hdr := func(key, ver byte) []byte { // request header v2, client id "", no tags
		return []byte{0, key, 0, ver, 0, 0, 0, 7, 0, 0, 0}
	}
	frame := func(b []byte) []byte {
		n := len(b)
		return append([]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}, b...)
	}
	tests := []struct {
		name string
		data []byte
		want string
	}{
		// DescribeGroups v6: Groups is a compact array; claim 2^31-1 elements.
		{"array count", frame(append(hdr(15, 6), 0xff, 0xff, 0xff, 0xff, 0x0f, 0, 0)), "Groups#length: offset 15: compact length 4294967295 out of range"},
		{"array count fits", frame(append(hdr(15, 6), 0xff, 0xff, 0xff, 0xff, 0x07, 0, 0)), "Groups#length: offset 15: length 2147483646 exceeds the 2 bytes left"},
		// SaslAuthenticate v2: AuthBytes compact bytes.
		{"bytes length", frame(append(hdr(36, 2), 0xf0, 0xff, 0xff, 0x7f)), "AuthBytes#length: offset 15: length 268435439 exceeds the 0 bytes left"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, err := c.Decode(tt.data, DecodeOptions{})
			runtime.ReadMemStats(&after)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want %s", err, tt.want)
			}
			if d := after.TotalAlloc - before.TotalAlloc; d > 1<<16 {
				t.Errorf("decoding %d bytes allocated %d bytes", len(tt.data), d)
			}
		})
	}
}

// TestDecodeLargeInputAllocatesLittle: a large input that is not a frame (its size prefix
// disagrees) fails at once without reserving nodes in proportion to its size.
func TestDecodeLargeInputAllocatesLittle(t *testing.T) {
	c := testCatalog(t, "4.0")
	data := make([]byte, 64<<20) // size prefix 0: the frame ends before the header
	var err error
	allocs := testing.AllocsPerRun(1, func() {
		_, err = c.Decode(data, DecodeOptions{})
	})
	var ms1, ms2 runtime.MemStats
	runtime.ReadMemStats(&ms1)
	c.Decode(data, DecodeOptions{})
	runtime.ReadMemStats(&ms2)
	if err == nil {
		t.Fatal("no error")
	}
	if grew := ms2.TotalAlloc - ms1.TotalAlloc; grew > 4<<20 {
		t.Errorf("decoding a 64 MiB non-frame allocated %d bytes (%v allocations)", grew, allocs)
	}
}
