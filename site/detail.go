package site

import (
	"slices"
	"strings"

	"github.com/kafkagrid/kafkagrid/internal/jsonw"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site/kafkaview"
)

// Field is what a page's detail panel shows for one node of the annotated frame, keyed by the
// data-path its grid box and tree row carry. It is written as JSON into the page (DetailJSON),
// so the names are short (the tags say them; writeField writes them).
type Field struct {
	Path   string `json:"p"`
	Shown  string `json:"d,omitempty"` // the path as a reader reads it (ReaderPath), when it differs
	Name   string `json:"n"`
	Type   string `json:"t"`
	Offset int    `json:"o"`
	Length int    `json:"l"`
	Value  string `json:"v,omitempty"`
	About  string `json:"a,omitempty"`
	Spec   string `json:"s,omitempty"` // the schema file the field is declared in
	Line   int    `json:"L,omitempty"` // the field's line in Spec, 0 for framing
}

// frameFields lists the nodes of fr in byte order. The content of a string or bytes field is
// left out: its grid box carries the field's own path (kafkaview), so the field's entry
// describes it. embedded is the frame an Envelope carries as its view draws it
// (kafkaview.View.Embedded), nil if none: its nodes follow, with the paths and the outer
// frame's offsets their boxes and rows carry, and the field that holds it names it as its
// value.
func frameFields(fr *kafka.Frame, embedded *kafka.Node, label string) []Field {
	var out []Field
	add := func(n *kafka.Node) bool {
		if n.Kind == kafka.KindData && len(n.Children) == 0 {
			return true
		}
		fi := Field{Path: n.Path, Name: n.Name, Type: n.WireType, Offset: n.Offset, Length: n.Length, Value: kafkaview.ValueText(fr, n), About: n.About, Spec: n.Spec}
		if n.Kind == kafka.KindFrame {
			fi.Path = "frame"
		}
		if n.Field != nil {
			fi.Line = n.Field.Pos.Line
		}
		if embedded != nil && n.Path == embedded.Path && n != embedded {
			fi.Value = label
		}
		out = append(out, fi)
		return true
	}
	fr.Root.Walk(add)
	if embedded != nil {
		for _, c := range embedded.Children {
			c.Walk(add)
		}
	}
	return out
}

// DetailJSON renders the detail data of one message for the <script type="application/json"
// class="kg-detail"> of its section: {"fields":{path: field},"anchors":{file: prefix}}, the
// fields by path (the last of a path), and anchors, which maps a schema file on the page
// ("ProduceRequest.json") to the prefix of its line anchors ("request-schema-L"), so the
// panel links a field to its line (nil: no links). It is what json.Marshal writes of those
// maps, keys sorted, written without reflection (internal/jsonw; the tests compare the two);
// <, > and & are escaped, so the text cannot close the script element. The error is always
// nil (kept for callers).
func DetailJSON(fields []Field, anchors map[string]string) (string, error) {
	byPath := make(map[string]Field, len(fields))
	for _, f := range fields {
		if r := ReaderPath(f.Path); r != f.Path {
			f.Shown = r
		}
		byPath[f.Path] = f
	}
	w := jsonw.New("", "")
	w.Object()
	w.Key("fields")
	w.Object()
	for _, p := range sortedKeys(byPath) {
		w.Key(p)
		writeField(w, byPath[p])
	}
	w.End('}')
	w.Key("anchors")
	w.Object()
	for _, k := range sortedKeys(anchors) {
		w.Key(k)
		w.String(anchors[k])
	}
	w.End('}')
	w.End('}')
	return string(w.Bytes()), nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// writeField writes f as json.Marshal writes it by its tags.
func writeField(w *jsonw.Writer, f Field) {
	w.Object()
	w.Key("p")
	w.String(f.Path)
	w.OptString("d", f.Shown)
	w.Key("n")
	w.String(f.Name)
	w.Key("t")
	w.String(f.Type)
	w.Key("o")
	w.Int(f.Offset)
	w.Key("l")
	w.Int(f.Length)
	w.OptString("v", f.Value)
	w.OptString("a", f.About)
	w.OptString("s", f.Spec)
	w.OptInt("L", f.Line)
	w.End('}')
}

// framingNames are what the framing parts of a field are called where a reader sees a path:
// the suffixes kafkaview gives the paths of a field's length, a struct's tagged fields and the
// like ("Topics[0]#tags").
var framingNames = map[string]string{
	"length":    "length",
	"size":      "size",
	"count":     "count",
	"tags":      "tagged fields",
	"tag":       "tag",
	"tagsize":   "tag size",
	"present":   "presence byte",
	"undecoded": "not decoded",
}

// ReaderPath writes a data-path as the detail panel shows it: "Topics[0]#tags" is
// "Topics[0] › tagged fields", "header#tags" "header › tagged fields". Paths without a framing
// suffix are already as a reader reads them (Kafka's field names, dotted, with indexes).
func ReaderPath(p string) string {
	i := strings.LastIndexByte(p, '#')
	if i < 0 {
		return p
	}
	name, ok := framingNames[p[i+1:]]
	if !ok {
		name = p[i+1:]
	}
	if i == 0 {
		return name
	}
	return p[:i] + " › " + name
}
