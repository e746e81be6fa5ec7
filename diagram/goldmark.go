package diagram

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"
)

// Extension is a goldmark extension (goldmark.WithExtensions) that draws the fenced blocks
// of the diagram types, ```bytegrid and ```kafka, as inline SVG in goldmark's HTML, each in
// a <div class="kafkagrid">; every other fenced block is rendered as goldmark's HTML renderer
// renders it. A block that does not draw fails the conversion with its error, placed at the
// block's line.
type Extension struct {
	Drawer *Drawer
	// Name names the document in errors; "" means "markdown".
	Name string
}

// Extend implements goldmark.Extender.
func (e *Extension) Extend(m goldmark.Markdown) {
	var fallback collect
	html.NewRenderer().RegisterFuncs(&fallback)
	m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(&fenceRenderer{e: e, fallback: fallback.f}, 100)))
}

// collect keeps the HTML renderer's function for fenced blocks.
type collect struct{ f renderer.NodeRendererFunc }

func (c *collect) Register(k ast.NodeKind, f renderer.NodeRendererFunc) {
	if k == ast.KindFencedCodeBlock {
		c.f = f
	}
}

type fenceRenderer struct {
	e        *Extension
	fallback renderer.NodeRendererFunc
}

func (r *fenceRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, r.render)
}

func (r *fenceRenderer) render(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	fc := n.(*ast.FencedCodeBlock)
	var typ, rest string
	if fc.Info != nil {
		var word string
		word, rest, _ = strings.Cut(string(fc.Info.Segment.Value(src)), " ")
		typ = strings.ToLower(word)
	}
	if typ != Bytegrid && typ != Kafka {
		return r.fallback(w, src, n, entering)
	}
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	name := r.e.Name
	if name == "" {
		name = "markdown"
	}
	line := 1 + bytes.Count(src[:fc.Info.Segment.Start], []byte("\n"))
	opts, err := infoOptions(typ, rest)
	if err != nil {
		return ast.WalkStop, fmt.Errorf("%s:%d: %w", name, line, err)
	}
	var body []byte
	for i := 0; i < fc.Lines().Len(); i++ {
		s := fc.Lines().At(i)
		body = append(body, bytes.Repeat([]byte{' '}, s.Padding)...)
		body = append(body, s.Value(src)...)
	}
	dia, err := r.e.Drawer.Draw(Request{Type: typ, Format: "svg", Name: name, Source: body, Options: opts, Inline: true})
	if err != nil {
		return ast.WalkStop, AtLine(err, name, line+1, 0)
	}
	w.WriteString(`<div class="kafkagrid">` + "\n")
	w.Write(bytes.TrimRight(dia.Data, "\n"))
	w.WriteString("\n</div>\n")
	return ast.WalkSkipChildren, nil
}
