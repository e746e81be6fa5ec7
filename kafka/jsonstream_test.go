package kafka

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"testing"
)

// TestWriteJSON: WriteJSON writes byte for byte what json.Encoder with SetIndent writes of the
// frame as plain structs (oracleJSON), and compact what json.Marshal does, as MarshalJSON and
// Node.MarshalJSON do, for every example frame at every version of every release (plain and with
// compressed batches, whose nested trees it writes too), for frames decoded up to an error,
// and for names and values that need escaping (quotes, HTML characters, invalid UTF-8).
func TestWriteJSON(t *testing.T) {
	check := func(name string, f *Frame, prefix, indent string) {
		t.Helper()
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetIndent(prefix, indent)
		if err := enc.Encode(oracleJSON(f)); err != nil {
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
		m, err := json.Marshal(oracleJSON(f))
		if err != nil || !bytes.Equal(compact.Bytes(), m) {
			t.Fatalf("%s: compact differs from encoding/json's (%v)", name, err)
		}
		if mj, err := f.MarshalJSON(); err != nil || !bytes.Equal(mj, m) {
			t.Fatalf("%s: MarshalJSON differs from encoding/json's (%v)", name, err)
		}
		if nj, err := f.Root.MarshalJSON(); err != nil || !bytes.Equal(nj, m[bytes.Index(m, []byte(`"root":`))+len(`"root":`):len(m)-1]) {
			t.Fatalf("%s: Node.MarshalJSON differs from encoding/json's (%v)", name, err)
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

// jsonFrame is the JSON form of a Frame.
type jsonFrame struct {
	API           string    `json:"api"`
	Key           int16     `json:"key"`
	Version       int16     `json:"version"`
	Response      bool      `json:"response"`
	HeaderVersion int16     `json:"headerVersion"`
	CorrelationID int32     `json:"correlationId"`
	Size          int       `json:"size"`
	Hex           string    `json:"hex"`
	Root          *jsonNode `json:"root"`
}

// oracleJSON is the frame's JSON as encoding/json makes it from plain structs: what
// WriteJSON (and so MarshalJSON) must write byte for byte.
func oracleJSON(f *Frame) any {
	j := jsonFrame{Version: f.Version, Response: f.Response, HeaderVersion: f.HeaderVersion,
		CorrelationID: f.CorrelationID, Size: len(f.Bytes), Hex: hex.EncodeToString(f.Bytes), Root: f.Root.jsonTree(), Key: -1}
	if f.API != nil {
		j.API, j.Key = f.API.Name, f.API.Key
	}
	return j
}

// jsonNode is a Node as JSON: the same fields in the same order, with children of its own kind,
// so that a tree is marshalled in one pass (a Marshaler per node would have encoding/json
// compact each subtree again at every level above it).
type jsonNode struct {
	Kind     NodeKind    `json:"kind"`
	Name     string      `json:"name"`
	Path     string      `json:"path"`
	Offset   int         `json:"offset"`
	Length   int         `json:"length"`
	WireType string      `json:"type"`
	Value    string      `json:"value"`
	Spec     string      `json:"spec,omitempty"`
	About    string      `json:"about,omitempty"`
	Children []*jsonNode `json:"children,omitempty"`
	Nested   *jsonNested `json:"nested,omitempty"`
}

// jsonNested is the "nested" object of a compressed batch's records.
type jsonNested struct {
	Codec   string    `json:"codec"`
	Framing string    `json:"framing,omitempty"`
	Note    string    `json:"note,omitempty"`
	Size    int       `json:"decompressedSize"`
	Root    *jsonNode `json:"root,omitempty"`
}

// jsonTree converts the subtree under n; nil stays nil.
func (n *Node) jsonTree() *jsonNode {
	if n == nil {
		return nil
	}
	j := &jsonNode{Kind: n.Kind, Name: n.Name, Path: n.Path, Offset: n.Offset, Length: n.Length,
		WireType: n.WireType, Value: n.Value, Spec: n.Spec, About: n.About}
	if len(n.Children) > 0 {
		j.Children = make([]*jsonNode, len(n.Children))
		for i, c := range n.Children {
			j.Children[i] = c.jsonTree()
		}
	}
	if c, ok := n.Raw.(*Compressed); ok && c != nil {
		j.Nested = &jsonNested{c.Codec.String(), c.Framing, c.Note, len(c.Data), c.Root.jsonTree()}
	}
	return j
}

// FuzzAppendJSONString: appendJSONString writes what json.Marshal writes of a string, for
// ASCII, escapes, HTML characters, runes of every length, U+2028/U+2029 and invalid UTF-8.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "plain", `"q" \ <a&b>`, "7 → length 6", "\x00\x01\b\f\n\r\t\x1f\x7f",
		"\u2028\u2029", "\xff\xfe", "a\xe2\x82", "€𝄞", "é\u00a0", "orders-0\xc0\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendJSONString([]byte("x"), s); string(got[1:]) != string(want) {
			t.Fatalf("appendJSONString(%q) = %s, json.Marshal %s", s, got[1:], want)
		}
	})
}

// TestJSONSafe8: the word test agrees with the byte table for every byte in every place of
// the word, beside safe and unsafe neighbours.
func TestJSONSafe8(t *testing.T) {
	for c := range 256 {
		for at := range 8 {
			for _, fill := range []byte{'a', 0x7f, 0x20, '"', 0x80} {
				w := bytes.Repeat([]byte{fill}, 8)
				w[at] = byte(c)
				want := true
				for _, b := range w {
					want = want && b < 0x80 && jsonSafe[b]
				}
				if got := jsonSafe8(string(w)); got != want {
					t.Fatalf("jsonSafe8(%q) = %v, want %v", w, got, want)
				}
			}
		}
	}
}

func BenchmarkAppendJSONString(b *testing.B) {
	s := "The topic name, or null if the topic ID was used instead; a sentence as long as the schemas' about texts."
	buf := make([]byte, 0, 256)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		buf = appendJSONString(buf[:0], s)
	}
}
