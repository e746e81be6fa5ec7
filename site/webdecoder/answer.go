package webdecoder

import (
	"github.com/kafkagrid/kafkagrid/internal/jsonw"
)

// The page's answers are JSON, written without encoding/json's reflection (internal/jsonw):
// with it, every exported field and method of every type would be linked into the
// WebAssembly. Each is what json.Marshal writes of the same value (the tests compare them).

// JSON is r as the page parses it: what json.Marshal writes of r, by its tags.
func (r *Result) JSON() string {
	w := jsonw.New("", "")
	w.Object()
	w.Key("text")
	w.String(r.Text)
	w.Key("stderr")
	w.String(r.Stderr)
	w.Key("status")
	w.Int(r.Status)
	w.OptString("summary", r.Summary)
	if len(r.Figures) > 0 {
		w.Key("figures")
		w.Array()
		for i := range r.Figures {
			r.Figures[i].write(w)
		}
		w.End(']')
	}
	w.OptInt("exchanges", r.Exchanges)
	if r.Need {
		w.Key("need")
		w.Bool(true)
	}
	w.End('}')
	return string(w.Bytes())
}

// write writes f by its tags.
func (f *Figure) write(w *jsonw.Writer) {
	w.Object()
	w.Key("heading")
	w.String(f.Heading)
	w.Key("meta")
	w.String(f.Meta)
	w.OptString("note", f.Note)
	w.OptString("grid", f.Grid)
	w.OptString("gridTitle", f.GridTitle)
	w.OptInt("gridWidth", f.GridWidth)
	w.OptString("tree", f.Tree)
	w.OptString("treeTitle", f.TreeTitle)
	w.OptInt("treeWidth", f.TreeWidth)
	w.End('}')
}

// JSONAnswer is the page's answer to a call of Decoder.JSON: {"json","jsonNotes","stderr"}.
func JSONAnswer(json, notes, stderr string) string {
	w := jsonw.New("", "")
	w.Object()
	w.Key("json")
	w.String(json)
	w.Key("jsonNotes")
	w.String(notes)
	w.Key("stderr")
	w.String(stderr)
	w.End('}')
	return string(w.Bytes())
}

// ReportAnswer is the page's answer to a call of Decoder.Report: {"files","first","stderr"}.
func ReportAnswer(files []string, first, stderr string) string {
	w := jsonw.New("", "")
	w.Object()
	w.Key("files")
	w.Strings(files)
	w.Key("first")
	w.String(first)
	w.Key("stderr")
	w.String(stderr)
	w.End('}')
	return string(w.Bytes())
}
