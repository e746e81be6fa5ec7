package jsonw_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/internal/jsonw"
)

var strs = []string{"", "plain", `"quoted" \back\slash`, "<script>&amp;</script>", "\x00\x01\b\f\n\r\t\x1f\x7f", "\u2028\u2029",
	"\xff\xfe bad \xc3", "é 🦀", "\ufffd", "\ud7ff\ue000"}

func sameString(t *testing.T, s string) {
	want, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if got := jsonw.AppendString(nil, s); !bytes.Equal(got, want) {
		t.Errorf("%q: got %s, want %s", s, got, want)
	}
}

func TestAppendString(t *testing.T) {
	for _, s := range strs {
		sameString(t, s)
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range strs {
		f.Add(s)
	}
	f.Fuzz(sameString)
}

type conn struct {
	ID     int      `json:"id"`
	Client string   `json:"client,omitempty"`
	Notes  []string `json:"notes,omitempty"`
	Flag   bool     `json:"flag"`
}

type doc struct {
	Kind  string   `json:"kind"`
	N     int      `json:"n,omitempty"`
	Notes []string `json:"notes"`
	Conns []conn   `json:"conns"`
	Empty struct{} `json:"empty"`
	Null  *int     `json:"null"`
}

// write writes d with the Writer as json.Marshal writes it.
func write(w *jsonw.Writer, d doc) {
	w.Object()
	w.Key("kind")
	w.String(d.Kind)
	if d.N != 0 {
		w.Key("n")
		w.Int(d.N)
	}
	w.Key("notes")
	w.Strings(d.Notes)
	w.Key("conns")
	if d.Conns == nil {
		w.Null()
	} else {
		w.Array()
		for _, c := range d.Conns {
			w.Object()
			w.Key("id")
			w.Int(c.ID)
			if c.Client != "" {
				w.Key("client")
				w.String(c.Client)
			}
			if len(c.Notes) > 0 {
				w.Key("notes")
				w.Strings(c.Notes)
			}
			w.Key("flag")
			w.Bool(c.Flag)
			w.End('}')
		}
		w.End(']')
	}
	w.Key("empty")
	w.Object()
	w.End('}')
	w.Key("null")
	w.Null()
	w.End('}')
}

func sameDoc(t *testing.T, s string, n int) {
	docs := []doc{{Kind: s, N: n}, {Kind: s, Notes: []string{}, Conns: []conn{}},
		{Kind: s, N: n, Notes: []string{s, s}, Conns: []conn{{ID: n, Client: s, Notes: []string{s}, Flag: true}, {ID: -n}}}}
	for _, d := range docs {
		for _, ind := range [][2]string{{"", ""}, {"", "  "}, {"  ", "  "}, {"\t", ""}} {
			var want []byte
			var err error
			if ind == [2]string{"", ""} {
				want, err = json.Marshal(d)
			} else {
				want, err = json.MarshalIndent(d, ind[0], ind[1])
			}
			if err != nil {
				t.Fatal(err)
			}
			w := jsonw.New(ind[0], ind[1])
			write(w, d)
			if !bytes.Equal(w.Bytes(), want) {
				t.Errorf("%q %q:\n got %s\nwant %s", ind[0], ind[1], w.Bytes(), want)
			}
		}
	}
}

func TestWriter(t *testing.T) {
	for _, s := range strs {
		sameDoc(t, s, len(s))
	}
}

func FuzzWriter(f *testing.F) {
	for _, s := range strs {
		f.Add(s, len(s))
	}
	f.Fuzz(sameDoc)
}

type target struct {
	Type   string `json:"type"`
	Data   []int  `json:"data"`
	NoSize bool   `json:"noSize"`
}

var objects = []string{`{"type":"Buffer","data":[0,1,255]}`, ` { "DATA" : [ 1 , null, 2 ] , "Type":"x", "type": "y" } `,
	`{"type":5}`, `{"data":[1.5]}`, `{"data":[1e2]}`, `{"data":["1"]}`, `{"data":[[1],2]}`, `{"data":{"a":1}}`, `{"data":null}`,
	`{"noSize":true,"nosize":false}`, `{"noSize":"yes"}`, `null`, `[1,2]`, `"x"`, `{"a":{"b":[{}]},"type":"B"}`, `{"type":"a"`,
	`{"type":"a",}`, `{"data":[-0,9223372036854775807,9223372036854775808]}`, `{}`, `{"type":"a"} {"x":1}`, `{"type":"a"}]`,
	`{"\u0074ype":"esc"}`, `{"TYPE":null,"type":"z"}`, `{"data":[]}`, ``, `  `, `{"data":[1,2],"data":[3]}`}

func sameObject(t *testing.T, s string) {
	var want target
	wdec := json.NewDecoder(strings.NewReader(s))
	werr := wdec.Decode(&want)
	var got target
	gdec := json.NewDecoder(strings.NewReader(s))
	gdec.UseNumber()
	gerr := jsonw.ReadObject(gdec, []jsonw.Field{{Name: "type", String: &got.Type}, {Name: "data", Ints: &got.Data}, {Name: "noSize", Bool: &got.NoSize}})
	if (werr == nil) != (gerr == nil) {
		t.Fatalf("%q: error %v, json's %v", s, gerr, werr)
	}
	if werr != nil {
		return
	}
	if got.Type != want.Type || got.NoSize != want.NoSize || (got.Data == nil) != (want.Data == nil) || !equal(got.Data, want.Data) {
		t.Errorf("%q: got %+v, want %+v", s, got, want)
	}
	if gm, wm := gdec.More(), wdec.More(); gm != wm {
		t.Errorf("%q: More %v, json's %v", s, gm, wm)
	}
}

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestReadObject(t *testing.T) {
	for _, s := range objects {
		sameObject(t, s)
	}
}

func FuzzReadObject(f *testing.F) {
	for _, s := range objects {
		f.Add(s)
	}
	f.Fuzz(sameObject)
}
