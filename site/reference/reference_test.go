package reference

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTokenizeLines(t *testing.T) {
	src := "// c\n{ \"k\": \"v\", \"n\": -12, \"b\": true, /* x\ny */ \"z\" : null }\n"
	lines := tokenizeLines([]byte(src))
	var got []string
	for _, l := range lines {
		var parts []string
		for _, tk := range l {
			parts = append(parts, string("TCKSNL"[tk.Kind])+":"+tk.Text)
		}
		got = append(got, strings.Join(parts, "|"))
	}
	want := []string{
		"C:// c",
		`T:{ |K:"k"|T:: |S:"v"|T:, |K:"n"|T:: |N:-12|T:, |K:"b"|T:: |L:true|T:, |C:/* x`,
		`C:y */|T: |K:"z"|T: : |L:null|T: }`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("tokens:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// joinLines is the inverse of tokenizeLines.
func joinLines(lines [][]token) string {
	var sb strings.Builder
	for i, l := range lines {
		if i > 0 {
			sb.WriteByte('\n')
		}
		for _, tk := range l {
			sb.WriteString(tk.Text)
		}
	}
	return sb.String()
}

func FuzzTokenizeLines(f *testing.F) {
	f.Add([]byte("{\n  // c\n  \"a\": [1, -2.5e3, \"s\\\"t\"], /* b */\n}\n"))
	f.Add([]byte("\"unterminated\n/* open"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, b []byte) {
		lines := tokenizeLines(b)
		got := joinLines(lines)
		want := strings.TrimSuffix(string(b), "\n")
		if got != want {
			t.Fatalf("joined tokens %q != input %q", got, want)
		}
		if want := strings.Count(want, "\n") + 1; len(lines) != want {
			t.Fatalf("%d lines, want %d", len(lines), want)
		}
		html, n := schemaHTML(b, "L")
		if n != len(lines) || !utf8.ValidString(string(html)) && utf8.Valid(b) {
			t.Fatalf("schemaHTML: %d lines", n)
		}
	})
}

func TestSchemaHTML(t *testing.T) {
	h, n := schemaHTML([]byte("{\"a\": \"<b>&\"}\n"), "rq-L")
	want := `<span class="line" id="rq-L1">{<span class="k">&#34;a&#34;</span>: <span class="s">&#34;&lt;b&gt;&amp;&#34;</span>}` + "\n</span>"
	if n != 1 || string(h) != want {
		t.Errorf("schemaHTML =\n%s\nwant\n%s", h, want)
	}
}

func TestAnchorID(t *testing.T) {
	for in, want := range map[string]string{"Consumer groups": "consumer-groups", "Cluster and KRaft": "cluster-and-kraft", " A--B ": "a-b"} {
		if got := anchorID(in); got != want {
			t.Errorf("anchorID(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWriterKeepsFirstError(t *testing.T) {
	fw := &failAfter{n: 1}
	ew := &errWriter{w: fw}
	ew.Write([]byte("a"))
	ew.Write([]byte("b"))
	ew.Write([]byte("c"))
	if ew.err == nil || fw.writes != 2 {
		t.Errorf("err %v after %d writes; want the first error and no write after it", ew.err, fw.writes)
	}
}

type failAfter struct{ n, writes int }

func (f *failAfter) Write(p []byte) (int, error) {
	f.writes++
	if f.writes > f.n {
		return 0, errFail
	}
	return len(p), nil
}

var errFail = &failErr{}

type failErr struct{}

func (*failErr) Error() string { return "fail" }

// TestAPIPurpose checks that every API of every release in the test folder has its one line
// for the index, ending with a full stop.
func TestAPIPurpose(t *testing.T) {
	for _, rel := range []string{"2.4", "2.8", "3.0", "3.3", "3.6", "3.9", "4.0", "4.1"} {
		cat := catalog(t, rel)
		for _, a := range cat.APIs {
			p := a.Facts().Purpose
			if p == "" || !strings.HasSuffix(p, ".") {
				t.Errorf("%s %s: purpose %q", rel, a.Name, p)
			}
		}
	}
}
