package reference

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
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
	want := `<span class="line" id="rq-L1"><span class="ln" aria-hidden="true">1</span>{<span class="k">&#34;a&#34;</span>: <span class="s">&#34;&lt;b&gt;&amp;&#34;</span>}` + "\n</span>"
	if n != 1 || string(h) != want {
		t.Errorf("schemaHTML =\n%s\nwant\n%s", h, want)
	}
}

func TestHexDump(t *testing.T) {
	b := []byte("\x00\x00\x00\x2aHello, Kafka!\x01\x02\x03")
	want := "00000000  00 00 00 2a 48 65 6c 6c  6f 2c 20 4b 61 66 6b 61  |...*Hello, Kafka|\n" +
		"00000010  21 01 02 03                                       |!...|\n"
	if got := hexDump(b); got != want {
		t.Errorf("hexDump =\n%s\nwant\n%s", got, want)
	}
	h := string(hexDumpHTML(b))
	if !strings.Contains(h, `<span data-o="19">03</span>`) || !strings.Contains(h, "|!...|") {
		t.Errorf("hexDumpHTML = %s", h)
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

// TestOutputErrorsNameTheFile checks that a failed write names the file the build was writing,
// never the temporary file behind it, and leaves no temporary file behind.
func TestOutputErrorsNameTheFile(t *testing.T) {
	long := strings.Repeat("x", 245) + ".pdf" // fits a name, but not with ".…tmpNNN" around it
	tests := []struct {
		name  string
		rel   string
		setup func(root string) // makes the write fail
		fill  func(io.Writer) error
		want  string // the error, with ROOT for the output folder
	}{
		{name: "create", rel: long, want: "reference: write ROOT/" + long + ": "},
		{
			name:  "rename",
			rel:   "sub/book.pdf",
			setup: func(root string) { os.MkdirAll(filepath.Join(root, "sub", "book.pdf", "in-the-way"), 0o755) },
			want:  "reference: write ROOT/sub/book.pdf: ",
		},
		{
			name: "fill",
			rel:  "index.html",
			fill: func(io.Writer) error { return errFail },
			want: "reference: index.html: fail",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			if tt.setup != nil {
				tt.setup(root)
			}
			fill := tt.fill
			if fill == nil {
				fill = func(w io.Writer) error { _, err := w.Write([]byte("%PDF")); return err }
			}
			o, err := newOutput(root, false)
			if err != nil {
				t.Fatal(err)
			}
			err = o.create(tt.rel, fill)
			if err == nil {
				t.Fatal("no error")
			}
			want := strings.ReplaceAll(tt.want, "ROOT", root)
			if msg := err.Error(); !strings.HasPrefix(msg, want) || strings.Contains(msg, ".tmp") {
				t.Errorf("err = %q, want it to start %q and name no temporary file", msg, want)
			}
			filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
				if err == nil && strings.Contains(d.Name(), ".tmp") {
					t.Errorf("temporary file left: %s", p)
				}
				return nil
			})
		})
	}
}

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

// TestLicenceLines checks which leading lines the book folds as the licence header.
func TestLicenceLines(t *testing.T) {
	licence := "// Licensed to the Apache Software Foundation (ASF) under one or more\n// contributor license agreements.\n//\n// limitations under the License.\n"
	tests := []struct {
		name, src string
		want      int
	}{
		{"licence then blank", licence + "\n{\n}\n", 4},
		{"licence then code", licence + "{\n}\n", 4},
		{"other comment", "// A comment\n// of three\n// lines\n\n{}\n", 0},
		{"no comment", "{\n  \"apiKey\": 0\n}\n", 0},
		{"short", "// Licensed to the Apache Software Foundation\n{}\n", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := licenceLines(tokenizeLines([]byte(tc.src))); got != tc.want {
				t.Errorf("licenceLines = %d, want %d", got, tc.want)
			}
		})
	}
	for _, f := range []string{"ProduceRequest.json", "FetchResponse.json", "RequestHeader.json"} {
		src, err := os.ReadFile(filepath.Join(testenv.Release(t, "4.0"), f))
		if err != nil {
			t.Fatal(err)
		}
		if got := licenceLines(tokenizeLines(src)); got != 14 {
			t.Errorf("%s: %d licence lines, want 14", f, got)
		}
	}
}
