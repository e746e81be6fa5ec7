package webdecoder

import (
	"encoding/json"
	"testing"
)

var answerStrings = []string{"", "plain", `<svg><text>"&'</text></svg>`, "a\u2028b\n\t", "\x00\xff"}

// TestAnswersAsMarshal: the page's answers are what json.Marshal wrote of them.
func TestAnswersAsMarshal(t *testing.T) {
	for _, s := range answerStrings {
		for _, r := range []Result{{}, {Text: s, Stderr: s, Status: 2}, {Text: s, Stderr: s, Status: 1, Summary: s, Exchanges: 3, Need: true,
			Figures: []Figure{{Heading: s, Meta: s}, {Heading: s, Meta: s, Note: s, Grid: s, GridTitle: s, GridWidth: 5, Tree: s, TreeTitle: s, TreeWidth: 6}}}} {
			want, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			if got := r.JSON(); got != string(want) {
				t.Errorf("\n got %s\nwant %s", got, want)
			}
		}
		want, _ := json.Marshal(map[string]string{"json": s, "jsonNotes": s + "n", "stderr": s + "e"})
		if got := JSONAnswer(s, s+"n", s+"e"); got != string(want) {
			t.Errorf("\n got %s\nwant %s", got, want)
		}
		for _, files := range [][]string{nil, {}, {s, "index.html"}} {
			want, _ := json.Marshal(map[string]any{"files": files, "first": s, "stderr": s})
			if got := ReportAnswer(files, s, s); got != string(want) {
				t.Errorf("\n got %s\nwant %s", got, want)
			}
		}
	}
}

// TestParseRequestAsUnmarshal: ParseRequest reads what json.Unmarshal reads, and refuses
// what it refuses.
func TestParseRequestAsUnmarshal(t *testing.T) {
	for _, in := range []string{`{"release":"4.0","from":"hex","noSize":true,"body":false,"api":"Produce","version":"3","request":true,"response":false,"port":"9093","name":"-","narrow":true}`,
		`{}`, `null`, ` {"RELEASE":"3.9","extra":{"a":[1,{}]}} `, `{"noSize":"yes"}`, `{"release":4}`, `[]`, `{"release":"a"} x`, `{"release":"a"`, `{"name":"<&>\u2028"}`, ``} {
		var want Request
		werr := json.Unmarshal([]byte(in), &want)
		got, gerr := ParseRequest([]byte(in))
		if (werr == nil) != (gerr == nil) {
			t.Errorf("%s: error %v, json's %v", in, gerr, werr)
			continue
		}
		if werr == nil && got != want {
			t.Errorf("%s: %+v, json's %+v", in, got, want)
		}
	}
}
