package diagram_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/kafkagrid/kafkagrid/diagram"
	"github.com/yuin/goldmark"
)

const tiny = "name: Tiny\nfields:\n  - {name: A, bits: 16}\n  - {name: B, bits: 16}\n"

// A byte grid drawn as RFC-style text.
func ExampleDrawer_Draw() {
	d := &diagram.Drawer{}
	out, err := d.Draw(diagram.Request{Type: diagram.Bytegrid, Format: "txt", Source: []byte(tiny)})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(out.Data))
	// Output:
	//  0                   1                   2                   3
	//  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
	// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
	// |               A               |               B               |
	// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
}

// Serving diagrams from a program's own ServeMux, under /kroki/, as Kroki's clients ask.
func ExampleHandler() {
	mux := http.NewServeMux()
	mux.Handle("/kroki/", http.StripPrefix("/kroki", diagram.NewHandler(&diagram.Drawer{}, diagram.Limits{})))
	srv := httptest.NewServer(mux)
	defer srv.Close()

	resp, err := http.Get(srv.URL + "/kroki/bytegrid/svg/" + diagram.Encode([]byte(tiny)))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	svg, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.StatusCode, resp.Header.Get("Content-Type"), bytes.Contains(svg, []byte("<svg")))
	// Output: 200 image/svg+xml true
}

// Rewriting a Markdown text: the block, here inside a list item, becomes an image link to its
// SVG; every other byte stays.
func ExampleDrawer_Markdown() {
	src := "# Header\n\n- the header:\n\n  ```bytegrid\n" + indent(tiny, "  ") + "  ```\n- done\n"
	text, svgs, err := (&diagram.Drawer{}).Markdown("doc.md", []byte(src), diagram.MarkdownOptions{SVGBase: "doc"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(text))
	fmt.Println(svgs[0].Name, len(svgs))
	// Output:
	// # Header
	//
	// - the header:
	//
	//   ![Tiny](doc-1.svg)
	// - done
	// doc-1.svg 1
}

// A Go site tool's own render: goldmark with the extension draws the blocks inline.
func ExampleExtension() {
	md := goldmark.New(goldmark.WithExtensions(&diagram.Extension{Drawer: &diagram.Drawer{}}))
	var out bytes.Buffer
	src := "Some *text*.\n\n```bytegrid\n" + tiny + "```\n\n```go\nx := 1\n```\n"
	if err := md.Convert([]byte(src), &out); err != nil {
		fmt.Println(err)
		return
	}
	html := out.String()
	fmt.Println(strings.HasPrefix(html, "<p>Some <em>text</em>.</p>\n<div class=\"kafkagrid\">\n<svg"))
	fmt.Println(strings.Contains(html, `<pre><code class="language-go">x := 1`))
	// Output:
	// true
	// true
}

// An mdBook preprocessor: the book on stdin, the book with its diagrams on stdout.
func ExampleDrawer_RenderBook() {
	in := `[{"root":"/book","config":{}},{"items":[{"Chapter":{"name":"One","content":"` +
		"```bytegrid\\nname: T\\nfields:\\n  - {name: A, bits: 8}\\n```\\n" + `","path":"one.md","sub_items":[]}}]}]`
	b, err := diagram.ReadBook([]byte(in))
	if err != nil {
		fmt.Println(err)
		return
	}
	out, err := (&diagram.Drawer{}).RenderBook(b, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(bytes.Contains(out, []byte(`<div class=\"kafkagrid\">\n<svg`)))
	// Output: true
}

func indent(s, pad string) string {
	return pad + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n"+pad) + "\n"
}
