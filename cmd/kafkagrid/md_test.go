package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/site/outdir"
)

const tinyGrid = "name: Tiny\nfields:\n  - {name: A, bits: 16}\n  - {name: B, bits: 16}\n"

// readmeParts is a README-style document cut where its diagram blocks are: text, block, text,
// block, …, text. The text holds what must be left alone: other fences (one showing a
// ```bytegrid block inside a ````markdown example), an indented code block, ~~~ fences, CRLF
// line ends, non-ASCII, no newline at the end.
func readmeParts(ipv4 string) (texts, blocks []string) {
	texts = []string{
		"# Protocols\r\n\r\nThe IPv4 header — as RFC 791 draws it:\n\n",
		"\nText right after a block.\n\n````markdown\nAn example of the syntax, not a diagram:\n```bytegrid\nname: not drawn\n```\n````\n\n" +
			"    ```kafka\n    indented code, not a fence\n    ```\n\n- a list item\n\n",
		"Paragraph line\n",
		"\n```go\nfmt.Println(\"~~~kafka\")\n```\nLast line, no newline: ünïcode",
	}
	blocks = []string{
		"```bytegrid\n" + ipv4 + "```\n",
		"~~~kafka view=tree\napi: ApiVersions\n~~~~\n",
		"```bytegrid rowbits=16\n" + tinyGrid + "```\n",
	}
	return texts, blocks
}

func TestMdKeepsText(t *testing.T) {
	root := testenv.Releases(t)
	ipv4Path := filepath.Join("..", "..", "examples", "protocols", "ipv4.yaml")
	ipv4, err := os.ReadFile(ipv4Path)
	if err != nil {
		t.Fatal(err)
	}
	texts, blocks := readmeParts(string(ipv4))
	var src strings.Builder
	for i, tx := range texts {
		src.WriteString(tx)
		if i < len(blocks) {
			src.WriteString(blocks[i])
		}
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "src", "README.md")
	os.MkdirAll(filepath.Dir(in), 0o755)
	os.WriteFile(in, []byte(src.String()), 0o644)
	out := filepath.Join(dir, "docs", "README.md")
	if _, errs, code := runCmd(t, "md", in, "-o", out, "-q", "-schemas", filepath.Join(root, "4.0")); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	tiny := filepath.Join(dir, "tiny.yaml")
	os.WriteFile(tiny, []byte(tinyGrid), 0o644)
	wantSVG := [][]byte{
		verbOutput(t, "grid", ipv4Path, "-format", "svg"),
		verbOutput(t, "show", "ApiVersions", "-format", "svg", "-tree", "-q", "-schemas", filepath.Join(root, "4.0")),
		verbOutput(t, "grid", tiny, "-format", "svg", "-rowbits", "16"),
	}
	links := []string{
		"![IPv4 header (RFC 791)](README-1.svg)\n",
		"![ApiVersions v4 request](README-2.svg)\n",
		"![Tiny](README-3.svg)\n",
	}
	var want strings.Builder
	for i, tx := range texts {
		want.WriteString(tx)
		if i < len(links) {
			want.WriteString(links[i])
		}
	}
	got, _ := os.ReadFile(out)
	if string(got) != want.String() {
		t.Errorf("the Markdown is not the text with the blocks replaced:\n got %q\nwant %q", got, want.String())
	}
	for i, w := range wantSVG {
		name := filepath.Join(dir, "docs", "README-"+string(rune('1'+i))+".svg")
		b, err := os.ReadFile(name)
		if err != nil || !bytes.Equal(b, w) {
			t.Errorf("%s: %d bytes, %v; want the %d bytes the verb writes", name, len(b), err, len(w))
		}
	}

	// A file without diagram blocks comes out byte for byte, and no SVG is written.
	plain := filepath.Join("testdata", "md", "plain.md")
	stdout, errs, code := runCmd(t, "md", plain)
	srcPlain, _ := os.ReadFile(plain)
	if code != 0 || stdout != string(srcPlain) {
		t.Errorf("plain.md: exit %d (%s); output %q, want the input %q", code, errs, stdout, srcPlain)
	}
}

func TestMdInline(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "a.md")
	os.WriteFile(in, []byte("Intro\n```bytegrid\n"+tinyGrid+"```\n\n```bytegrid\n"+tinyGrid+"```\nend\n"), 0o644)
	stdout, errs, code := runCmd(t, "md", "-inline", in)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "*.svg")); len(m) > 0 {
		t.Errorf("-inline wrote %v", m)
	}
	if !strings.HasPrefix(stdout, "Intro\n<div class=\"kafkagrid\">\n<svg ") || !strings.HasSuffix(stdout, "</svg>\n</div>\nend\n") {
		t.Errorf("not the text with inline SVG in place of the blocks: %.300q", stdout)
	}
	if strings.Contains(stdout, "<?xml") || strings.Contains(stdout, "\n\n<svg") {
		t.Errorf("inline SVG with an XML prolog, or a blank line ending the HTML block early")
	}
	for _, part := range strings.Split(stdout, "<div class=\"kafkagrid\">\n")[1:] {
		svg := part[:strings.Index(part, "</div>")]
		if strings.Contains(svg, "\n\n") {
			t.Errorf("a blank line inside the inline SVG ends CommonMark's HTML block")
		}
		if err := xml.Unmarshal([]byte(svg), new(struct{})); err != nil {
			t.Errorf("inline SVG does not parse: %v", err)
		}
	}
	ids := regexp.MustCompile(`<svg [^>]*id="([^"]+)"`).FindAllStringSubmatch(stdout, -1)
	if len(ids) != 2 || ids[0][1] == ids[1][1] {
		t.Errorf("two inline SVGs of one page need two ids: %v", ids)
	}
}

func TestMdCheck(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "src.md")
	out := filepath.Join(dir, "out", "README.md")
	os.WriteFile(in, []byte("# T\n\n```bytegrid\n"+tinyGrid+"```\n"), 0o644)
	if _, errs, code := runCmd(t, "md", "-check", in, "-o", out); code != 1 || !strings.Contains(errs, "README-1.svg is missing") || !strings.Contains(errs, "README.md is missing") {
		t.Errorf("-check before writing: exit %d, %s; want 1 naming both files", code, errs)
	}
	if _, errs, code := runCmd(t, "md", in, "-o", out); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if _, errs, code := runCmd(t, "md", "-check", in, "-o", out); code != 0 {
		t.Errorf("-check after writing: exit %d: %s", code, errs)
	}
	// The spec changes, the drawing on disk is stale: -check says which file.
	os.WriteFile(in, []byte("# T\n\n```bytegrid\n"+strings.Replace(tinyGrid, "bits: 16}\n", "bits: 8}\n", 1)+"```\n"), 0o644)
	_, errs, code := runCmd(t, "md", "-check", in, "-o", out)
	if code != 1 || !strings.Contains(errs, "README-1.svg is stale") || strings.Contains(errs, "README.md is stale") {
		t.Errorf("-check of a changed spec: exit %d, %s; want 1 naming README-1.svg only", code, errs)
	}
	// A block deleted: its SVG, left on disk, is named; and a run without -check removes it.
	two := "# T\n\n```bytegrid\n" + tinyGrid + "```\n\n```bytegrid theme=dark\n" + tinyGrid + "```\n"
	os.WriteFile(in, []byte(two), 0o644)
	if _, errs, code := runCmd(t, "md", in, "-o", out); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	os.WriteFile(in, []byte("# T\n\n```bytegrid\n"+tinyGrid+"```\n"), 0o644)
	if _, errs, code := runCmd(t, "md", "-check", in, "-o", out); code != 1 || !strings.Contains(errs, "README-2.svg: no block makes it any more") {
		t.Errorf("-check after a block went: exit %d, %s; want 1 naming README-2.svg", code, errs)
	}
	if _, errs, code := runCmd(t, "md", in, "-o", out); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "out", "README-2.svg")); !os.IsNotExist(err) {
		t.Errorf("README-2.svg left behind: %v", err)
	}
	if _, errs, code := runCmd(t, "md", "-check", in, "-o", out); code != 0 {
		t.Errorf("-check after the rewrite: exit %d: %s", code, errs)
	}

	// grid -check, the same way.
	spec := filepath.Join(dir, "tiny.yaml")
	svg := filepath.Join(dir, "tiny.svg")
	os.WriteFile(spec, []byte(tinyGrid), 0o644)
	if _, errs, code := runCmd(t, "grid", spec, "-o", svg, "-check"); code != 1 || !strings.Contains(errs, "tiny.svg is missing") {
		t.Errorf("grid -check, no file: exit %d, %s", code, errs)
	}
	runCmd(t, "grid", spec, "-o", svg)
	if _, errs, code := runCmd(t, "grid", spec, "-o", svg, "-check"); code != 0 {
		t.Errorf("grid -check, fresh: exit %d, %s", code, errs)
	}
	os.WriteFile(spec, []byte(strings.Replace(tinyGrid, "Tiny", "Tinier", 1)), 0o644)
	if _, errs, code := runCmd(t, "grid", spec, "-o", svg, "-check"); code != 1 || !strings.Contains(errs, "tiny.svg is stale") {
		t.Errorf("grid -check, stale: exit %d, %s", code, errs)
	}
	if _, errs, code := runCmd(t, "grid", spec, "-check"); code != 2 {
		t.Errorf("grid -check without -o: exit %d, %s; want 2", code, errs)
	}
}

func TestMdErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(s), 0o644)
		return p
	}
	bad := write("bad.md", "# T\n\ntext\n\n```bytegrid\nname: x\nfields:\n  - {name: a, bits: zz}\n```\n")
	unclosed := write("unclosed.md", "a\n\n  ```kafka\napi: Produce\n")
	kafkaBad := write("kafka.md", "a\n```kafka\napi: Produce\nversion: 99\n```\n")
	opt := write("opt.md", "```bytegrid rowbits\n"+tinyGrid+"```\n")
	// Errors of every reader at the Markdown file's line and column, and only there (a
	// notation's or bit-field's was also given at its line in the block), the fence's indent
	// added to the column.
	notationBad := write("notation.md", "# T\n\n```bytegrid\nHTTP Frame {\n  Length (24),\n  Type (x),\n}\n```\n")
	bitfieldBad := write("bitfield.md", "# T\n\n  ```bytegrid\n  [{\"bits\": 8, \"nam\": \"x\"}]\n  ```\n")
	rfcBad := write("rfc.md", "# T\n\n  ```bytegrid\n  +-+-+-+-+-+-+-+-+\n  |      A        |\n  +-+-+-+-+-+-+-+-+\n  |  B       |    |\n  +-+-+-+-+-+-+-+-+\n  ```\n")
	kafkaKey := write("key.md", "# T\n\n  ```kafka\n  api: Produce\n  verison: 3\n  ```\n")
	foreign := write("f.md", "```bytegrid\n"+tinyGrid+"```\n")
	bitfieldOK := write("reg.md", "# T\n\n```bytegrid\n[{\"bits\": 8, \"name\": \"x\"}]\n```\n")
	os.Mkdir(filepath.Join(dir, "out"), 0o755)
	write("out/f-1.svg", "<svg>the user's own drawing</svg>\n")
	root := testenv.Releases(t)
	for _, tc := range []struct {
		args []string
		code int
		has  string
	}{
		{[]string{bad}, 1, `bad.md:8: field "a": want an integer`},
		{[]string{unclosed}, 1, "unclosed.md:3:3: the ```kafka block is never closed"},
		{[]string{kafkaBad, "-q", "-schemas", filepath.Join(root, "4.0")}, 1, "kafka.md:4: Produce v99 is not a version of Kafka 4.0"},
		{[]string{opt}, 1, "opt.md:1:13: info string: \"rowbits\""},
		{[]string{notationBad}, 1, `warning: notation: ` + notationBad + `:6:9: field "Type": length "x"`},
		{[]string{bitfieldBad}, 1, `warning: bitfield: ` + bitfieldBad + `:4:16: field #1: unknown key "nam"`},
		{[]string{rfcBad}, 1, `warning: rfcart: ` + rfcBad + `:7:14: an edge '|' between bit boundaries`},
		{[]string{kafkaKey, "-q", "-schemas", filepath.Join(root, "4.0")}, 1, `warning: ` + kafkaKey + `:5:3: unknown key "verison"`},
		{[]string{bad, "-o", bad}, 2, "would be written over itself"},
		{[]string{foreign, "-o", filepath.Join(dir, "f.out.md")}, 0, ""},
		{[]string{foreign, "-outdir", dir + "/x", "-o", "y"}, 2, "not both"},
		{[]string{foreign, bad}, 2, "use -outdir"},
		{[]string{foreign, "-outdir", filepath.Join(dir, "out")}, 1, "f-1.svg exists and is not an SVG kafkagrid wrote"},
	} {
		_, errs, code := runCmd(t, append([]string{"md"}, tc.args...)...)
		if code != tc.code || !strings.Contains(errs, tc.has) {
			t.Errorf("md %v: exit %d, %q; want %d and %q", tc.args, code, errs, tc.code, tc.has)
		}
	}
	// A bit-field block is named "bit-field" (its alt text, its SVG title), not after the
	// Markdown file it sits in.
	regOut := filepath.Join(dir, "reg.out.md")
	_, errs, code := runCmd(t, "md", bitfieldOK, "-o", regOut)
	if b, _ := os.ReadFile(regOut); code != 0 || string(b) != "# T\n\n![bit-field](reg.out-1.svg)\n" {
		t.Errorf("a bit-field block: exit %d %s, %q", code, errs, b)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "out", "f-1.svg")); string(b) != "<svg>the user's own drawing</svg>\n" {
		t.Errorf("the user's f-1.svg was replaced")
	}
}

func runMain(t *testing.T, stdin []byte, args ...string) ([]byte, string, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "KAFKAGRID_TEST_MAIN=1")
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return stdout.Bytes(), stderr.String(), code
}

// TestMdbook runs the preprocessor as mdBook does (book.toml's command, twice: "supports
// html", then [context, book] on stdin), on fixtures written from mdBook's documented format:
// 0.4's "sections" and 0.5's "items", chapters nested in sub_items, a separator and a part title.
func TestMdbook(t *testing.T) {
	root := testenv.Releases(t)
	if _, errs, code := runMain(t, nil, "mdbook", "supports", "html"); code != 0 {
		t.Fatalf("supports html: exit %d: %s", code, errs)
	}
	if _, _, code := runMain(t, nil, "mdbook", "supports"); code != 2 {
		t.Errorf("supports without a renderer: exit %d, want 2", code)
	}
	for _, name := range []string{"book-0.4.json", "book-0.5.json"} {
		t.Run(name, func(t *testing.T) {
			in, err := os.ReadFile(filepath.Join("testdata", "mdbook", name))
			if err != nil {
				t.Fatal(err)
			}
			// The book.toml table names the schemas, relative to the book's root: the folder
			// of releases, whatever it is called, from the folder it is in.
			in = bytes.ReplaceAll(in, []byte("@ROOT@"), []byte(filepath.ToSlash(filepath.Dir(root))))
			in = bytes.ReplaceAll(in, []byte("@SCHEMAS@"), []byte(filepath.Base(root)))
			out, errs, code := runMain(t, in, "mdbook")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			var input []any
			json.Unmarshal(in, &input)
			var got, want any
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("the output is not JSON: %v: %.300s", err, out)
			}
			want = input[1]
			// Every member is as it came but the contents of the chapters with diagrams.
			var contents []string
			var walk func(a, b any, path string)
			walk = func(a, b any, path string) {
				switch av := a.(type) {
				case map[string]any:
					bv, ok := b.(map[string]any)
					if !ok || len(av) != len(bv) {
						t.Errorf("%s: %v, want %v", path, b, a)
						return
					}
					for k := range av {
						if k == "content" {
							contents = append(contents, bv[k].(string))
							if c := av[k].(string); !strings.Contains(c, "```bytegrid") && !strings.Contains(c, "~~~kafka") && av[k] != bv[k] {
								t.Errorf("%s.content changed, without a diagram in it", path)
							}
							continue
						}
						walk(av[k], bv[k], path+"."+k)
					}
				case []any:
					bv, ok := b.([]any)
					if !ok || len(av) != len(bv) {
						t.Errorf("%s: %v, want %v", path, b, a)
						return
					}
					for i := range av {
						walk(av[i], bv[i], path)
					}
				default:
					if !reflect.DeepEqual(a, b) {
						t.Errorf("%s: %v, want %v", path, b, a)
					}
				}
			}
			walk(want, got, "book")
			all := strings.Join(contents, "\n")
			if n := strings.Count(all, "<svg "); n != 3 {
				t.Errorf("%d inline SVGs in the book, want 3", n)
			}
			if strings.Contains(all, "```bytegrid") || strings.Contains(all, "```kafka") || !strings.Contains(all, "```rust") {
				t.Errorf("the diagram blocks are not all replaced, or another block was")
			}
			ids := regexp.MustCompile(`<svg [^>]*id="([^"]+)"`).FindAllStringSubmatch(all, -1)
			seen := map[string]bool{}
			for _, id := range ids {
				if seen[id[1]] {
					t.Errorf("id %s twice in the book", id[1])
				}
				seen[id[1]] = true
			}
		})
	}
	// A bad block is left as it was, named with the chapter's file and line on stderr: the
	// book builds.
	bad := `[{"root":"/b","config":{},"renderer":"html","mdbook_version":"0.4.40"},{"sections":[{"Chapter":{"name":"C","content":"# C\n\n` + "```bytegrid\\nname: x\\nfields: [\\n```" + `\n","number":[1],"sub_items":[],"path":"c.md","source_path":"c.md","parent_names":[]}}],"__non_exhaustive":null}]`
	if out, errs, code := runMain(t, []byte(bad), "mdbook"); code != 0 || !strings.Contains(errs, "c.md:5") || !strings.Contains(string(out), "fields: [") {
		t.Errorf("a bad block: exit %d, %q; want 0, c.md:5 and the block kept in %q", code, errs, out)
	}
}

// TestMdOutputs: md's output names are its own. Two inputs of one base name would write the
// same SVGs (refused); a symbolic link at a name md derives is never written through; a page
// a build's manifest lists is not replaced (nor by grid -o); and the SVGs of blocks taken out
// are removed.
func TestMdOutputs(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(s), 0o644)
		return p
	}
	two := "```bytegrid\n" + tinyGrid + "```\n\n```bytegrid\n" + tinyGrid + "```\n"
	a := write("a.md", two)
	am := write("a.markdown", two)
	out := filepath.Join(dir, "out")
	if _, errs, code := runCmd(t, "md", "-outdir", out, a, am); code != 2 || !strings.Contains(errs, "would both write their diagrams as") {
		t.Errorf("a.md and a.markdown: exit %d, %s; want 2", code, errs)
	}
	if _, err := os.Stat(filepath.Join(out, "a-1.svg")); err == nil {
		t.Errorf("a-1.svg written before the refusal")
	}
	// A link at x-1.svg to a file elsewhere: not written through, the target untouched.
	elsewhere := write("elsewhere.svg", "mine\n")
	x := write("l/x.md", two)
	os.Symlink(elsewhere, filepath.Join(dir, "l", "x.out-1.svg"))
	if _, errs, code := runCmd(t, "md", x, "-o", filepath.Join(dir, "l", "x.out.md")); code != 1 || !strings.Contains(errs, "is a symbolic link") {
		t.Errorf("a link at a derived name: exit %d, %s; want 1", code, errs)
	}
	if b, _ := os.ReadFile(elsewhere); string(b) != "mine\n" {
		t.Errorf("written through the link: %q", b)
	}
	// Stale SVGs: two blocks, then one: y-2.svg goes.
	y := write("s/y.md", two)
	yo := filepath.Join(dir, "s", "y.out.md")
	if _, errs, code := runCmd(t, "md", y, "-o", yo); code != 0 {
		t.Fatalf("md: exit %d, %s", code, errs)
	}
	write("s/y.md", "```bytegrid\n"+tinyGrid+"```\n")
	if _, errs, code := runCmd(t, "md", y, "-o", yo); code != 0 {
		t.Fatalf("md: exit %d, %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "s", "y.out-2.svg")); err == nil {
		t.Errorf("y.out-2.svg left behind")
	}
	if _, err := os.Stat(filepath.Join(dir, "s", "y.out-1.svg")); err != nil {
		t.Errorf("y.out-1.svg: %v", err)
	}
	// A page a built site's manifest lists.
	write("site/"+outdir.ManifestName, "# kind site\nindex.md\n")
	if _, errs, code := runCmd(t, "md", y, "-o", filepath.Join(dir, "site", "index.md")); code != 1 || !strings.Contains(errs, "a file of the folder kafkagrid build wrote") {
		t.Errorf("a built site's page: exit %d, %s; want 1", code, errs)
	}
	// grid -o likewise.
	write("site/"+outdir.ManifestName, "# kind site\nindex.md\nipv4.svg\n")
	if _, errs, code := runCmd(t, "grid", filepath.Join("..", "..", "examples", "protocols", "ipv4.yaml"), "-o", filepath.Join(dir, "site", "ipv4.svg")); code != 1 || !strings.Contains(errs, "a file of the folder kafkagrid build wrote") {
		t.Errorf("grid -o over a built site's file: exit %d, %s; want 1", code, errs)
	}
}
