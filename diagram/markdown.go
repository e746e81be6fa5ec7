package diagram

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/bytegrid/forms"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Fence is a fenced code block of a Markdown text whose info string starts with a diagram
// type (```bytegrid, ~~~kafka rowbits=16), wherever CommonMark reads one: at the top level,
// in a list item, in a block quote.
type Fence struct {
	// Start and End are the bytes the block's drawing replaces: from its opening fence's
	// first character to the end of its closing fence (not the line ending), so that what
	// comes before the fence on its line (indentation, "> ", a list marker) is kept.
	Start, End int
	Line       int               // 1-based line of the opening fence
	Col        int               // 1-based column (in bytes) of the opening fence
	Prefix     string            // what a line continuing the block starts with ("> ", "   ")
	Type       string            // Bytegrid or Kafka
	Options    map[string]string // key=value words after the type in the info string
	Body       []byte            // the content, as CommonMark reads it
}

// DefaultMaxBlocks bounds the diagram blocks of one Markdown text (or a whole book) when
// Limits.MaxBlocks is not set.
const DefaultMaxBlocks = 1000

// bom is a UTF-8 byte-order mark.
const bom = "\ufeff"

// blockParser is a CommonMark parser of blocks only: the fences are all md needs, and inline
// parsing would cost more than the blocks.
var blockParser = parser.NewParser(parser.WithBlockParsers(parser.DefaultBlockParsers()...))

// Fences finds the diagram blocks of a Markdown text, in order, as CommonMark (goldmark)
// reads it: a ```bytegrid shown inside a ````markdown example, an indented code block or an
// HTML block is text. A byte-order mark is skipped. name is for errors: a diagram block
// never closed, a bad option, more than maxBlocks blocks (0: DefaultMaxBlocks).
func Fences(name string, src []byte, maxBlocks int) ([]Fence, error) {
	if maxBlocks <= 0 {
		maxBlocks = DefaultMaxBlocks
	}
	out, more, err := fences(name, src, maxBlocks)
	if err == nil && more {
		return nil, fmt.Errorf("%s:%d: more than %d diagram blocks", name, out[len(out)-1].Line, maxBlocks)
	}
	return out, err
}

// fences finds at most limit+1 diagram blocks of src (more: there were more than limit).
func fences(name string, src []byte, limit int) (out []Fence, more bool, err error) {
	off := 0
	if bytes.HasPrefix(src, []byte(bom)) {
		off = len(bom)
	}
	doc := blockParser.Parse(text.NewReader(src[off:]))
	lines := lineCounter{src: src}
	err = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		fc, ok := n.(*ast.FencedCodeBlock)
		if !entering || !ok {
			return ast.WalkContinue, nil
		}
		if fc.Info == nil {
			return ast.WalkSkipChildren, nil
		}
		info := string(fc.Info.Segment.Value(src[off:]))
		word, rest, _ := strings.Cut(info, " ")
		typ := strings.ToLower(word)
		if typ != Bytegrid && typ != Kafka {
			return ast.WalkSkipChildren, nil
		}
		f, err := fenceAt(name, src, off, fc, &lines)
		if err != nil {
			return ast.WalkStop, err
		}
		f.Type = typ
		if f.Options, err = infoOptions(typ, rest); err != nil {
			infoCol := off + fc.Info.Segment.Start - lines.lineStart(off+fc.Info.Segment.Start) + 1
			return ast.WalkStop, fmt.Errorf("%s:%d:%d: %w", name, f.Line, infoCol+len(word)+1, err)
		}
		out = append(out, *f)
		if len(out) > limit {
			more = true
			return ast.WalkStop, nil
		}
		return ast.WalkSkipChildren, nil
	})
	return out, more, err
}

// lineCounter gives the line of an offset, counting forward from the last one asked (the
// fences come in order), so that every fence's line costs one pass over the text in all.
type lineCounter struct {
	src       []byte
	at, line  int // line is the line of offset at (1-based)
	lineBegin int // the offset of that line's start
}

func (c *lineCounter) lineOf(pos int) int {
	if c.line == 0 {
		c.line = 1
	}
	if pos < c.at { // not expected: count again from the start
		c.at, c.line, c.lineBegin = 0, 1, 0
	}
	for c.at < pos {
		i := bytes.IndexByte(c.src[c.at:pos], '\n')
		if i < 0 {
			c.at = pos
			break
		}
		c.at += i + 1
		c.line++
		c.lineBegin = c.at
	}
	return c.line
}

func (c *lineCounter) lineStart(pos int) int {
	c.lineOf(pos)
	return c.lineBegin
}

// fenceAt finds the bytes of a fenced block: its opening fence (back from its info string),
// its content, and its closing fence (the line after its content).
func fenceAt(name string, src []byte, off int, fc *ast.FencedCodeBlock, lines *lineCounter) (*Fence, error) {
	infoStart := off + fc.Info.Segment.Start
	p := infoStart
	for p > 0 && (src[p-1] == ' ' || src[p-1] == '\t') {
		p--
	}
	fch := src[p-1]
	q := p
	for q > 0 && src[q-1] == fch {
		q--
	}
	flen := p - q
	line := lines.lineOf(q)
	begin := lines.lineStart(q)
	f := &Fence{Start: q, Line: line, Col: q - begin + 1}
	prefix := []byte(string(src[begin:q]))
	for i, c := range prefix {
		if c != '>' && c != '\t' {
			prefix[i] = ' '
		}
	}
	f.Prefix = string(prefix)
	// The content, and where the closing fence's line starts.
	next := bytes.IndexByte(src[infoStart:], '\n')
	if next < 0 {
		next = len(src)
	} else {
		next += infoStart + 1
	}
	var body []byte
	segs := fc.Lines()
	for i := 0; i < segs.Len(); i++ {
		s := segs.At(i)
		body = append(body, bytes.Repeat([]byte{' '}, s.Padding)...)
		v := src[off+s.Start : off+s.Stop]
		body = append(body, v...)
		if !bytes.HasSuffix(v, []byte("\n")) {
			body = append(body, '\n')
		}
		next = off + s.Stop
	}
	f.Body = body
	end, ok := closingFence(src, next, fch, flen)
	if !ok {
		return nil, fmt.Errorf("%s:%d:%d: the %s%s block is never closed (CommonMark would read the rest of its container as its code)", name, line, f.Col, strings.Repeat(string(fch), flen), strings.Fields(string(fc.Info.Segment.Value(src[off:])))[0])
	}
	f.End = end
	return f, nil
}

// closingFence reads the line at p as the closing fence of a block of flen fch characters,
// past its container's markers ("> ", spaces): the end of the fence and its trailing
// blanks, before the line ending.
func closingFence(src []byte, p int, fch byte, flen int) (int, bool) {
	if p >= len(src) {
		return 0, false
	}
	eol := bytes.IndexByte(src[p:], '\n')
	if eol < 0 {
		eol = len(src)
	} else {
		eol += p
	}
	line := src[p:eol]
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t' || line[i] == '>') {
		i++
	}
	n := 0
	for i+n < len(line) && line[i+n] == fch {
		n++
	}
	if n < flen || !util.IsBlank(line[i+n:]) {
		return 0, false
	}
	end := eol
	if end > p && src[end-1] == '\r' {
		end--
	}
	return end, true
}

// infoOptions reads the key=value words after a block's type (typ): the diagram's options,
// as md writes them (```bytegrid rowbits=16) or as Hugo's render hooks write attributes
// (```bytegrid {rowbits=16, nohex=true}). An option the type does not take is an error naming
// it: a misspelt one would otherwise draw something else without a word.
func infoOptions(typ, s string) (map[string]string, error) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") {
		s = strings.ReplaceAll(s[1:len(s)-1], ",", " ")
	}
	opts := map[string]string{}
	for _, w := range strings.Fields(s) {
		k, v, ok := strings.Cut(w, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("info string: %q: want key=value options (rowbits=16, view=tree)", clip(w))
		}
		k = strings.ToLower(k)
		if known := Options(typ); !slices.Contains(known, k) {
			return nil, fmt.Errorf("info string: %s takes no option %q (want %s)", typ, clip(k), strings.Join(known, ", "))
		}
		opts[k] = strings.Trim(v, `"'`)
	}
	return opts, nil
}

// Options returns the options a diagram type takes, in the order messages list them.
func Options(typ string) []string {
	switch typ {
	case Bytegrid:
		return []string{"rowbits", "decimal", "nohex", "bytes", "theme", "format", "from"}
	case Kafka:
		return append(slices.Clone(kafkaKeys), "theme", "format")
	}
	return nil
}

// AtLine moves the position of an error in a block's source to the Markdown file: line 1 of
// the source is line first of the file, and a column moves right by indent. Every reader's
// positioned error is moved (gridyaml's, RFC art's, notation's, bit-field's, a kafka
// source's), so the message names one place, the file's.
func AtLine(err error, file string, first, indent int) error {
	if fe, ok := errors.AsType[*forms.FormError](err); ok { // the form named stays
		c := *fe
		c.Err = AtLine(fe.Err, file, first, indent)
		return &c
	}
	line := func(l int) int {
		if l > 0 {
			return l + first - 1
		}
		return first
	}
	col := func(c int) int {
		if c > 0 {
			return c + indent
		}
		return c
	}
	var se *bytegrid.SpecError
	if errors.As(err, &se) {
		return se.Within(file, first, indent)
	}
	var le *Error
	if errors.As(err, &le) {
		c := *le
		c.Name, c.Line, c.Col = file, line(le.Line), col(le.Col)
		return &c
	}
	return fmt.Errorf("%s:%d: %w", file, first, err)
}

// MarkdownOptions are how Markdown rewrites a text.
type MarkdownOptions struct {
	// Inline puts each diagram's SVG in place of its block (in a <div class="kafkagrid">),
	// instead of an image link to an SVG file.
	Inline bool
	// SVGBase is the SVG files' name before "-N.svg" (Inline false); the link names its base.
	SVGBase string
	// IDBase is the inline SVGs' id prefix, before "-N".
	IDBase string
	// Theme is the theme option of every block that sets none (auto, light, dark; "": auto).
	Theme string
	// Budget, when set, bounds the blocks, source bytes and drawn bytes of this text and of
	// every other given the same Budget (a book's chapters); nil: a budget of its own
	// (DefaultBudget).
	Budget *Budget
}

// Budget bounds what a set of Markdown texts (a book) may draw, in all: each block takes one
// of Blocks, its source's bytes of SourceBytes and its drawing's of DrawnBytes. A text past
// one gets an error naming the block and the bound.
type Budget struct {
	Blocks, SourceBytes, DrawnBytes int
}

// DefaultBudget is the budget of one md file or one mdbook book: 1,000 blocks, 16 MiB of
// sources, 256 MiB of drawings.
func DefaultBudget() *Budget {
	return &Budget{Blocks: DefaultMaxBlocks, SourceBytes: 16 << 20, DrawnBytes: 256 << 20}
}

// File is a file to write: a diagram beside a rewritten text.
type File struct {
	Name string
	Data []byte
}

// Markdown rewrites src, a Markdown text named name: each diagram block becomes an image
// link to its SVG (returned, named from o.SVGBase) or, with o.Inline, the SVG itself; every
// other byte is kept. A block that cannot be drawn does not stop the others: it is left as
// it was, and the error is BadBlocks, returned with the whole text and files. Any other
// error (a block never closed, a budget passed) names the file, line and column at fault
// and returns nothing else.
func (d *Drawer) Markdown(name string, src []byte, o MarkdownOptions) ([]byte, []File, error) {
	b := o.Budget
	if b == nil {
		b = DefaultBudget()
	}
	found, _, err := fences(name, src, max(b.Blocks, 0))
	if err != nil {
		return nil, nil, err
	}
	var out bytes.Buffer
	var svgs []File
	var bad BadBlocks
	last := 0
	for i, f := range found {
		if b.Blocks--; b.Blocks < 0 {
			return nil, nil, fmt.Errorf("%s:%d: more diagram blocks than the %d a document (or a book) may have", name, f.Line, DefaultMaxBlocks)
		}
		if b.SourceBytes -= len(f.Body); b.SourceBytes < 0 {
			return nil, nil, fmt.Errorf("%s:%d: the diagram blocks' sources pass what a document (or a book) may have", name, f.Line)
		}
		out.Write(src[last:f.Start])
		last = f.End
		r := Request{Type: f.Type, Format: "svg", Name: name, Source: f.Body, Options: f.Options}
		if _, set := f.Options["theme"]; !set && o.Theme != "" {
			r.Options = maps.Clone(f.Options)
			r.Options["theme"] = o.Theme
		}
		if o.Inline { // ids unique on the page; a file keeps the id grid and show give it
			r.Inline, r.IDPrefix = true, fmt.Sprintf("%s-%d", o.IDBase, i+1)
		}
		dia, err := d.Draw(r)
		if err != nil { // the block left as it was, the others drawn
			bad = append(bad, AtLine(err, name, f.Line+1, f.Col-1))
			out.Write(src[f.Start:f.End])
			continue
		}
		if d.Warn != nil {
			for _, w := range dia.Warnings {
				d.Warn(fmt.Sprintf("%s:%d: the %s block: %s", name, f.Line, f.Type, w))
			}
		}
		if b.DrawnBytes -= len(dia.Data); b.DrawnBytes < 0 {
			return nil, nil, fmt.Errorf("%s:%d: the drawings pass the bytes a document (or a book) may draw", name, f.Line)
		}
		if o.Inline {
			// An HTML block (CommonMark type 6: it may follow a paragraph line) that ends at
			// the first blank line; an SVG of ours has none.
			out.WriteString(`<div class="kafkagrid">` + "\n")
			for _, l := range strings.SplitAfter(strings.TrimRight(string(dia.Data), "\n"), "\n") {
				out.WriteString(f.Prefix + l)
			}
			out.WriteString("\n" + f.Prefix + "</div>")
			continue
		}
		file := fmt.Sprintf("%s-%d.svg", o.SVGBase, i+1)
		svgs = append(svgs, File{file, dia.Data})
		out.WriteString(imageLink(dia.Title, f.Type, filepath.Base(file)))
	}
	out.Write(src[last:])
	if len(bad) > 0 {
		return out.Bytes(), svgs, bad
	}
	return out.Bytes(), svgs, nil
}

// BadBlocks is Markdown's error when only diagram blocks failed to draw: each block's
// error, naming the file, the line and column and what is wrong. The text and files
// Markdown returns with it are whole, each bad block left in the text as it was.
type BadBlocks []error

func (b BadBlocks) Error() string {
	var s []string
	for _, e := range b {
		s = append(s, e.Error())
	}
	return strings.Join(s, "\n")
}

// Unwrap returns each block's error.
func (b BadBlocks) Unwrap() []error { return b }

// imageLink is a Markdown image of a drawing.
func imageLink(title, typ, file string) string {
	alt := strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`, "\n", " ").Replace(title)
	if alt == "" {
		alt = typ + " diagram"
	}
	return "![" + alt + "](" + escapeLink(file) + ")"
}

// escapeLink makes a file name safe as a Markdown link destination.
func escapeLink(s string) string {
	return strings.NewReplacer(" ", "%20", "(", "%28", ")", "%29", "<", "%3C", ">", "%3E").Replace(s)
}
