package diagram

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// block is a tiny grid's fence as it sits after prefix (the container's markers), each line
// continuing with cont.
func block(open, prefix, cont, close string) string {
	var b strings.Builder
	b.WriteString(prefix + open + "\n")
	for _, l := range strings.SplitAfter(strings.TrimSuffix(tinyGrid, "\n"), "\n") {
		b.WriteString(cont + strings.TrimSuffix(l, "\n") + "\n")
	}
	b.WriteString(cont + close)
	return b.String()
}

// TestFences: every place CommonMark reads a fence and every fence form; the text is rewritten
// byte for byte around the blocks, each replaced by its link where its fence began.
func TestFences(t *testing.T) {
	link := "![Tiny](d-1.svg)"
	for _, tc := range []struct {
		name, src, want string
		line            int
	}{
		{"top", "a\n\n" + block("```bytegrid", "", "", "```") + "\nb\n", "a\n\n" + link + "\nb\n", 3},
		{"tildes, longer fence", block("~~~~bytegrid", "", "", "~~~~~") + "\n", link + "\n", 1},
		{"indented 3", block("```bytegrid", "   ", "   ", "```") + "\n", "   " + link + "\n", 1},
		{"no newline at the end", block("```bytegrid", "", "", "```"), link, 1},
		{"CRLF", strings.ReplaceAll(block("```bytegrid", "", "", "```")+"\nz\n", "\n", "\r\n"), link + "\r\nz\r\n", 1},
		{"byte-order mark", "\ufeff" + block("```bytegrid", "", "", "```") + "\n", "\ufeff" + link + "\n", 1},
		{"list item", "- a\n- " + block("```bytegrid", "", "  ", "```") + "\n- c\n", "- a\n- " + link + "\n- c\n", 2},
		{"list item, own line", "1. a\n\n   " + block("```bytegrid", "", "   ", "```") + "\n", "1. a\n\n   " + link + "\n", 3},
		{"block quote", "> q\n>\n" + block("```bytegrid", "> ", "> ", "```") + "\n", "> q\n>\n> " + link + "\n", 3},
		{"quote in a list", "- x\n\n  " + block("```bytegrid", "> ", "  > ", "```") + "\n", "- x\n\n  > " + link + "\n", 3},
		{"options", block("```bytegrid rowbits=16", "", "", "```") + "\n", link + "\n", 1},
		{"not: inside a longer fence", "````markdown\n" + block("```bytegrid", "", "", "```") + "\n````\n", "", 0},
		{"not: indented code", block("```bytegrid", "    ", "    ", "```") + "\n", "", 0},
		{"not: other language", block("```yaml", "", "", "```") + "\n", "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fences, err := Fences("d.md", []byte(tc.src), 0)
			if err != nil {
				t.Fatal(err)
			}
			if tc.line == 0 {
				if len(fences) != 0 {
					t.Fatalf("%d fences; want none", len(fences))
				}
				return
			}
			if len(fences) != 1 || fences[0].Line != tc.line || string(bytes.ReplaceAll(fences[0].Body, []byte("\r"), nil)) != tinyGrid {
				t.Fatalf("%+v; want one fence at line %d with the grid", fences, tc.line)
			}
			got, svgs, err := (&Drawer{}).Markdown("d.md", []byte(tc.src), MarkdownOptions{SVGBase: "d"})
			if err != nil || string(got) != tc.want || len(svgs) != 1 {
				t.Errorf("%q, %d SVGs, %v; want %q", got, len(svgs), err, tc.want)
			}
		})
	}
}

// TestMarkdownInlinePrefix: an inline SVG inside a block quote keeps each of its lines in the
// quote.
func TestMarkdownInlinePrefix(t *testing.T) {
	src := "> " + block("```bytegrid", "", "> ", "```") + "\n"
	got, _, err := (&Drawer{}).Markdown("d.md", []byte(src), MarkdownOptions{Inline: true, IDBase: "kg-d"})
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(strings.TrimSuffix(string(got), "\n"), "\n") {
		if !strings.HasPrefix(l, "> ") {
			t.Fatalf("line %d %q leaves the quote", i+1, l)
		}
	}
}

// TestMarkdownErrorLines: an error in a block of every form is placed at the Markdown file's
// line (and column, moved by what precedes the fence), also inside a block quote and a list.
func TestMarkdownErrorLines(t *testing.T) {
	d := &Drawer{Catalogs: catalogs(t), Default: "4.0"}
	for _, tc := range []struct {
		form, src, want string
	}{
		{"yaml", "# T\n\n> ```bytegrid\n> name: x\n> fields:\n>   - {name: a, bits: zz}\n> ```\n", `d.md:6: field "a": want an integer`},
		{"rfc", "# T\n\n- ```bytegrid\n  +-+-+-+-+-+-+-+-+\n  |      A        |\n  +-+-+-+-+-+-+-+-+\n  |  B       |    |\n  +-+-+-+-+-+-+-+-+\n  ```\n", `rfcart: d.md:7:14: an edge '|' between bit boundaries`},
		{"notation", "# T\n\n> ```bytegrid\n> HTTP Frame {\n>   Length (24),\n>   Type (x),\n> }\n> ```\n", `notation: d.md:6:11: field "Type": length "x"`},
		{"bitfield", "# T\n\n  ```bytegrid\n  [{\"bits\": 8, \"nam\": \"x\"}]\n  ```\n", `bitfield: d.md:4:16: field #1: unknown key "nam"`},
		{"kafka", "# T\n\n- a\n- ```kafka\n  api: Produce\n  verison: 3\n  ```\n", `d.md:6:3: unknown key "verison"`},
		{"kafka hex", "# T\n\n```kafka\napi: Produce\nhex: 00 00 00 ff 00\n```\n", `d.md:5: hex:`},
	} {
		t.Run(tc.form, func(t *testing.T) {
			_, _, err := d.Markdown("d.md", []byte(tc.src), MarkdownOptions{SVGBase: "d"})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%v; want %q", err, tc.want)
			}
		})
	}
}

func FuzzFences(f *testing.F) {
	f.Add([]byte("a\n```bytegrid\n" + tinyGrid + "```\nb"))
	f.Add([]byte("````markdown\n```bytegrid\nx\n```\n````\n~~~kafka view=tree\napi: 0\n~~~\n"))
	f.Add([]byte("   ```kafka\r\n   api: Produce\r\n   ```\r\n"))
	f.Add([]byte("> - ```bytegrid\n>   x\n>   ```\n\ufeff"))
	if b, err := os.ReadFile(filepath.Join("..", "cmd", "kafkagrid", "testdata", "md", "plain.md")); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		fences, err := Fences("f.md", src, 0)
		if err != nil {
			return
		}
		last := 0
		for _, fc := range fences {
			if fc.Start < last || fc.End <= fc.Start || fc.End > len(src) {
				t.Fatalf("fence %+v out of order or bounds (after %d, of %d)", fc, last, len(src))
			}
			last = fc.End
		}
	})
}

// book is mdBook's input: chapters of content, nested depth deep below the first.
func book(chapters []string, depth int) []byte {
	var items []any
	for i, c := range chapters {
		items = append(items, map[string]any{"Chapter": map[string]any{"name": fmt.Sprint(i), "content": c, "path": fmt.Sprintf("c%d.md", i), "sub_items": []any{}}})
	}
	if depth > 0 {
		var inner []any
		for i := 0; i < depth; i++ {
			inner = []any{map[string]any{"Chapter": map[string]any{"name": "n", "content": "text\n", "path": "n.md", "sub_items": inner}}}
		}
		items = append(items, inner...)
	}
	b, _ := json.Marshal([]any{map[string]any{"root": "/b", "config": map[string]any{}}, map[string]any{"items": items}})
	return b
}

// TestBookBudget: one budget for a whole book. Four chapters of 300 blocks each pass the
// 1,000 blocks a book may draw: the 1,001st block is refused, and 1,000 were drawn.
func TestBookBudget(t *testing.T) {
	chapter := strings.Repeat("```bytegrid\nname: T\nfields:\n  - {name: A, bits: 8}\n```\n", 300)
	b, err := ReadBook(book([]string{chapter, chapter, chapter, chapter}, 0))
	if err != nil {
		t.Fatal(err)
	}
	budget := DefaultBudget()
	_, err = (&Drawer{}).RenderBook(b, budget)
	if err == nil || !strings.Contains(err.Error(), "c3.md:") || !strings.Contains(err.Error(), "more diagram blocks than the 1000") {
		t.Fatalf("%v; want the fourth chapter refused", err)
	}
	if budget.Blocks != -1 {
		t.Errorf("%d blocks left; want the 1,000 drawn and the next refused", budget.Blocks)
	}
	small := &Budget{Blocks: 10, SourceBytes: 1 << 20, DrawnBytes: 6000}
	b, _ = ReadBook(book([]string{chapter}, 0))
	if _, err := (&Drawer{}).RenderBook(b, small); err == nil || !strings.Contains(err.Error(), "pass the bytes") {
		t.Errorf("%v; want the drawn bytes' bound", err)
	}
}

// TestBookNestingLinear: rewriting a book costs its size, whatever the nesting: a book of
// chapters nested 2,000 deep allocates about twice what one nested 1,000 deep does (the
// nesting was quadratic: four times).
func TestBookNestingLinear(t *testing.T) {
	alloc := func(depth int) uint64 {
		in := book(nil, depth)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		b, err := ReadBook(in)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := (&Drawer{}).RenderBook(b, nil); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	a1, a2 := alloc(1000), alloc(2000)
	t.Logf("nested 1,000: %d KB; 2,000: %d KB", a1>>10, a2>>10)
	if float64(a2) > 2.6*float64(a1) {
		t.Errorf("twice the nesting allocates %.1f× as much: not linear", float64(a2)/float64(a1))
	}
}

// TestFenceOptions: options as md writes them and as Hugo writes attributes ({k=v, k=v}); an
// option the type does not take is an error naming it and its place (```kafka viwe=tree drew
// the grid before, exit 0).
func TestFenceOptions(t *testing.T) {
	for _, c := range []struct {
		info string
		want map[string]string
		err  string
	}{
		{"bytegrid rowbits=16", map[string]string{"rowbits": "16"}, ""},
		{"bytegrid {rowbits=16, nohex=true}", map[string]string{"rowbits": "16", "nohex": "true"}, ""},
		{`kafka {view="tree"}`, map[string]string{"view": "tree"}, ""},
		{"kafka viwe=tree", nil, `doc.md:1:10: info string: kafka takes no option "viwe" (want api, version, side, release, view, theme, format)`},
		{"bytegrid rowbit=16", nil, `takes no option "rowbit"`},
	} {
		src := "```" + c.info + "\nname: x\nfields: [{name: a, bits: 8}]\n```\n"
		fs, err := Fences("doc.md", []byte(src), 10)
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: %v; want an error with %q", c.info, err, c.err)
			}
		case err != nil || len(fs) != 1:
			t.Errorf("%q: %d fences, %v", c.info, len(fs), err)
		case !maps.Equal(fs[0].Options, c.want):
			t.Errorf("%q: options %v, want %v", c.info, fs[0].Options, c.want)
		}
	}
}

// TestMarkdownWarnings: what a figure's reader warns of reaches the drawer's Warn with the
// Markdown file's name, the block's line and type.
func TestMarkdownWarnings(t *testing.T) {
	fig := "```bytegrid\n" +
		" 0                   1                   2                   3\n" +
		" 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1\n" +
		"+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+\n" +
		"|          Length (variable)            |         Type          |\n" +
		"+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+\n" +
		"```\n"
	var got []string
	d := &Drawer{Warn: func(w string) { got = append(got, w) }}
	if _, _, err := d.Markdown("doc.md", []byte("# A figure\n\n"+fig), MarkdownOptions{Inline: true}); err != nil {
		t.Fatal(err)
	}
	dia, err := d.Draw(Request{Type: Bytegrid, Format: "svg", Name: "doc.md", Source: []byte(strings.SplitN(fig, "\n", 2)[1][:len(fig)-len("```bytegrid\n")-4])})
	if err != nil {
		t.Fatal(err)
	}
	if len(dia.Warnings) == 0 {
		t.Fatal("a field labelled (variable) drawn at a fixed size reads with no warning")
	}
	if len(got) != len(dia.Warnings) || !strings.HasPrefix(got[0], "doc.md:3: the bytegrid block: ") {
		t.Errorf("warnings %q, the drawing's %q", got, dia.Warnings)
	}
}

// TestThemeAndFormat: the theme and format options, on fences and on a drawing request: the
// palette asked for, RFC 7996's SVG for a byte grid's svg, and errors naming what is wrong.
func TestThemeAndFormat(t *testing.T) {
	d := &Drawer{}
	grid := []byte("name: x\nfields: [{name: a, bits: 8}]\n")
	draw := func(opts map[string]string) (string, error) {
		out, err := d.Draw(Request{Type: Bytegrid, Format: "svg", Source: grid, Options: opts})
		if err != nil {
			return "", err
		}
		return string(out.Data), nil
	}
	auto, err := draw(nil)
	if err != nil || !strings.Contains(auto, "prefers-color-scheme:dark") || !strings.Contains(auto, ":is(.dark,") {
		t.Errorf("default theme: %v\n%s", err, auto)
	}
	for _, theme := range []string{"light", "dark"} {
		got, err := draw(map[string]string{"theme": theme})
		if err != nil || strings.Contains(got, "prefers-color-scheme") || strings.Contains(got, "var(") {
			t.Errorf("theme=%s: %v\n%s", theme, err, got)
		}
	}
	if dark, _ := draw(map[string]string{"theme": "dark"}); !strings.Contains(dark, "fill:#0d1117") {
		t.Errorf("theme=dark: no dark paper:\n%s", dark)
	}
	if got, err := draw(map[string]string{"id": "kg-page-2"}); err != nil || !strings.Contains(got, `id="kg-page-2" class="kg kg-grid kg-page-2"`) {
		t.Errorf("id=kg-page-2: %v\n%.300s", err, got)
	}
	rfc, err := draw(map[string]string{"format": "rfcsvg"})
	if err != nil || !strings.Contains(rfc, `baseProfile="tiny"`) || strings.Contains(rfc, "<style") {
		t.Errorf("format=rfcsvg: %v\n%s", err, rfc)
	}
	for _, c := range []struct {
		typ  string
		opts map[string]string
		err  string
	}{
		{Bytegrid, map[string]string{"theme": "sepia"}, `option theme="sepia": want auto, light, dark`},
		{Bytegrid, map[string]string{"id": "a b"}, `option id="a b": want 1 to 64 letters`},
		{Bytegrid, map[string]string{"format": "pdf"}, `option format="pdf": want svg or rfcsvg`},
		{Kafka, map[string]string{"format": "rfcsvg"}, `option format="rfcsvg": want svg`},
	} {
		_, err := d.Draw(Request{Type: c.typ, Format: "svg", Source: []byte("api: Produce\n"), Options: c.opts})
		if err == nil || !IsInput(err) || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s %v: %v; want an input error with %q", c.typ, c.opts, err, c.err)
		}
	}
	// In Markdown: a fence's theme wins over the text's default; format=rfcsvg is drawn.
	src := "```bytegrid theme=light\n" + string(grid) + "```\n\n```bytegrid\n" + string(grid) + "```\n\n```bytegrid format=rfcsvg\n" + string(grid) + "```\n"
	_, files, err := d.Markdown("doc.md", []byte(src), MarkdownOptions{SVGBase: "doc", Theme: "dark"})
	if err != nil || len(files) != 3 {
		t.Fatalf("%d files, %v", len(files), err)
	}
	if a, b := string(files[0].Data), string(files[1].Data); !strings.Contains(a, "fill:#ffffff") || !strings.Contains(b, "fill:#0d1117") || strings.Contains(a+b, "@media") {
		t.Errorf("fence theme=light, text theme dark:\n%s\n%s", a, b)
	}
	if !strings.Contains(string(files[2].Data), `baseProfile="tiny"`) {
		t.Errorf("format=rfcsvg fence:\n%s", files[2].Data)
	}
}

// TestBookTheme: book.toml's theme is every block's that sets none; a theme it does not know
// is an error naming book.toml.
func TestBookTheme(t *testing.T) {
	withTheme := func(theme string) []byte {
		chapter := "```bytegrid\nname: x\nfields: [{name: a, bits: 8}]\n```\n\n```bytegrid theme=light\nname: x\nfields: [{name: a, bits: 8}]\n```\n"
		b, _ := json.Marshal([]any{
			map[string]any{"root": "/b", "config": map[string]any{"preprocessor": map[string]any{"kafkagrid": map[string]any{"theme": theme}}}},
			map[string]any{"items": []any{map[string]any{"Chapter": map[string]any{"name": "c", "content": chapter, "path": "c.md", "sub_items": []any{}}}}},
		})
		return b
	}
	b, err := ReadBook(withTheme("dark"))
	if err != nil || b.Theme != "dark" {
		t.Fatalf("%v, theme %q", err, b.Theme)
	}
	out, err := (&Drawer{}).RenderBook(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(out); !strings.Contains(s, "fill:#0d1117") || !strings.Contains(s, "fill:#ffffff") || strings.Contains(s, "prefers-color-scheme") {
		t.Errorf("book theme dark, one block light: %.600s", s)
	}
	if _, err := ReadBook(withTheme("sepia")); err == nil || !strings.Contains(err.Error(), `book.toml: [preprocessor.kafkagrid] theme "sepia": want auto, light, dark`) {
		t.Errorf("theme sepia: %v", err)
	}
}

// TestMarkdownBadBlockKept: a block that cannot be drawn is left as it was, named with its
// line, the form its content was read in and the option that asks for another; the blocks
// around it are drawn, and a caption is the image's alt text.
func TestMarkdownBadBlockKept(t *testing.T) {
	bad := "```bytegrid\nThe header:\nname: [\n```\n"
	good := "```bytegrid\nSETTINGS Frame {\n  Type (i) = 0x04,\n  Length (i),\n}\n\nFigure 7: SETTINGS Frame\n```\n"
	src := "# T\n\n" + bad + "\n" + good
	d := &Drawer{}
	text, svgs, err := d.Markdown("d.md", []byte(src), MarkdownOptions{SVGBase: "d"})
	bb, ok := errors.AsType[BadBlocks](err)
	if !ok || len(bb) != 1 {
		t.Fatalf("err = %v, want one bad block", err)
	}
	for _, want := range []string{"d.md:", "read as yaml, the form its content looked like", "from=rfc"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if !strings.Contains(string(text), bad) || len(svgs) != 1 {
		t.Errorf("the bad block not kept, or the good one not drawn (%d SVGs):\n%s", len(svgs), text)
	}
	if !strings.Contains(string(text), "![Figure 7: SETTINGS Frame](d-2.svg)") {
		t.Errorf("the caption is not the alt text:\n%s", text)
	}
	if _, _, err := d.Markdown("d.md", []byte("```bytegrid from=rfc\nname: x\n```\n"), MarkdownOptions{SVGBase: "d"}); err == nil || strings.Contains(err.Error(), "the form its content looked like") {
		t.Errorf("from=rfc: %v, want rfcart's error alone", err)
	}
}
