package site

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site/kafkaview"
)

// Field is what a page's detail panel shows for one node of the annotated frame, keyed by the
// data-path its grid box and tree row carry. It is written as JSON into the page (DetailJSON),
// so the names are short.
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

// detailView is the JSON a page's script reads for a message's detail panel: the fields by
// path and, for each schema file on the page, the prefix of its line anchors.
type detailView struct {
	Fields  map[string]Field  `json:"fields"`
	Anchors map[string]string `json:"anchors"`
}

// DetailJSON renders the detail data of one message for the <script type="application/json"
// class="kg-detail"> of its section: the fields by path, and anchors, which maps a schema file
// on the page ("ProduceRequest.json") to the prefix of its line anchors ("request-schema-L"),
// so the panel links a field to its line (nil: no links). encoding/json escapes <, > and &, so
// the text cannot close the script element.
func DetailJSON(fields []Field, anchors map[string]string) (string, error) {
	if anchors == nil {
		anchors = map[string]string{}
	}
	d := detailView{Fields: make(map[string]Field, len(fields)), Anchors: anchors}
	for _, f := range fields {
		if r := ReaderPath(f.Path); r != f.Path {
			f.Shown = r
		}
		d.Fields[f.Path] = f
	}
	b, err := json.Marshal(d)
	if err != nil {
		return "", fmt.Errorf("site: detail data: %w", err)
	}
	return string(b), nil
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
