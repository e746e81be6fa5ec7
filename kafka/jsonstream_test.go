package kafka

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestWriteJSON: WriteJSON writes byte for byte what json.Encoder with SetIndent writes of
// MarshalJSON, and compact what MarshalJSON returns, for every example frame at every version of every release (plain and with
// compressed batches, whose nested trees it writes too), for frames decoded up to an error,
// and for names and values that need escaping (quotes, HTML characters, invalid UTF-8).
func TestWriteJSON(t *testing.T) {
	check := func(name string, f *Frame, prefix, indent string) {
		t.Helper()
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetIndent(prefix, indent)
		if err := enc.Encode(f); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := f.WriteJSON(&got, prefix, indent); err != nil {
			t.Fatal(err)
		}
		got.WriteByte('\n')
		var compact bytes.Buffer
		if err := f.WriteJSON(&compact, "", ""); err != nil {
			t.Fatal(err)
		}
		if m, err := f.MarshalJSON(); err != nil || !bytes.Equal(compact.Bytes(), m) {
			t.Fatalf("%s: compact differs from MarshalJSON (%v)", name, err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			i := 0
			for i < min(got.Len(), want.Len()) && got.Bytes()[i] == want.Bytes()[i] {
				i++
			}
			t.Fatalf("%s: differs at byte %d:\n got …%q\nwant …%q", name, i, got.Bytes()[max(0, i-40):min(got.Len(), i+40)], want.Bytes()[max(0, i-40):min(want.Len(), i+40)])
		}
	}
	n := 0
	rels := testReleases(t)
	if testing.Short() { // the race detector's run: the newest release only
		rels = rels[len(rels)-1:]
	}
	for _, rel := range rels {
		cat := testCatalog(t, rel)
		for _, c := range []Codec{CodecNone, CodecZstd} {
			vs, err := cat.Vectors(VectorOptions{Versions: AllVersions(), Compression: c})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range frames(vs) {
				check(rel+" "+f.BaseName(), f, "", "  ")
				n++
			}
		}
	}
	cat := testCatalog(t, "4.0")
	vs, err := cat.Vectors(VectorOptions{Compression: CodecLZ4})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range frames(vs)[:8] {
		check("prefix "+f.BaseName(), f, "\t>", "\t")
		// Cut short: the tree ends at the failure.
		g, err := cat.Decode(f.Bytes[:len(f.Bytes)*2/3], DecodeOptions{Response: f.Response, API: f.API, Version: f.Version})
		if err == nil {
			t.Fatalf("%s cut short decoded", f.BaseName())
		}
		check("cut "+f.BaseName(), g, "", "  ")
	}
	// Escaping: a frame whose texts hold what JSON escapes.
	f := frames(vs)[0]
	g := *f
	root := *f.Root
	root.Name = "a\"b\\c<d>&e\u2028f\x01g\xffh é"
	root.Value = "<script>&amp;\t\n"
	g.Root = &root
	check("escaping", &g, "", "  ")
	t.Logf("%d frames", n)
}
