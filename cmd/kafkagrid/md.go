package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/kafka"
)

// fence is a fenced code block of a Markdown text whose info string starts with a diagram
// type (```bytegrid, ~~~kafka), as CommonMark reads fences
// (https://spec.commonmark.org/0.31.2/#fenced-code-blocks) at the top level of a document.
type fence struct {
	Start, End int               // the block's bytes, from its opening fence's line to the end of its closing fence's line
	Body       []byte            // the content, each line without the opening fence's indentation
	Line       int               // 1-based line of the opening fence
	Indent     int               // the opening fence's indentation (0 to 3 spaces)
	Type       string            // typeGrid or typeKafka
	Options    map[string]string // key=value words after the type in the info string
}

// maxMarkdown bounds a Markdown file md reads, and maxBlocks the diagrams it draws of one.
const (
	maxMarkdown = 16 << 20
	maxBlocks   = 1000
)

// scanFences finds the diagram blocks of a Markdown text, in one pass: every fenced block is
// followed to its end (so that a ```bytegrid shown inside a ````markdown example is text), and
// only those of a diagram type are returned. name is for errors (an unclosed diagram block,
// a bad option).
func scanFences(name string, src []byte) ([]fence, error) {
	var out []fence
	var open *fence // the block being read, when it is a diagram's
	inFence := false
	var fch byte
	var flen, findent, bodyStart int
	line := 0
	for off := 0; off < len(src); {
		line++
		end := bytes.IndexByte(src[off:], '\n')
		next := len(src)
		if end >= 0 {
			end += off
			next = end + 1
		} else {
			end = len(src)
		}
		text := bytes.TrimSuffix(src[off:end], []byte("\r"))
		indent := 0
		for indent < len(text) && text[indent] == ' ' {
			indent++
		}
		if !inFence {
			if indent <= 3 && indent < len(text) && (text[indent] == '`' || text[indent] == '~') {
				c := text[indent]
				n := 0
				for indent+n < len(text) && text[indent+n] == c {
					n++
				}
				info := strings.TrimSpace(string(text[indent+n:]))
				if n >= 3 && !(c == '`' && strings.ContainsRune(info, '`')) {
					inFence, fch, flen, findent, bodyStart = true, c, n, indent, next
					word, rest, _ := strings.Cut(info, " ")
					if t := strings.ToLower(word); t == typeGrid || t == typeKafka {
						opts, err := infoOptions(rest)
						if err != nil {
							return nil, fmt.Errorf("%s:%d:%d: %w", name, line, indent+n+len(word)+2, err)
						}
						open = &fence{Start: off, Line: line, Indent: indent, Type: t, Options: opts}
						if len(out) == maxBlocks {
							return nil, fmt.Errorf("%s:%d: more than %d diagram blocks in one file", name, line, maxBlocks)
						}
					}
				}
			}
			off = next
			continue
		}
		// Inside a fence: is this line its closing fence?
		if indent <= 3 {
			n := 0
			for indent+n < len(text) && text[indent+n] == fch {
				n++
			}
			if n >= flen && strings.TrimSpace(string(text[indent+n:])) == "" {
				if open != nil {
					open.End = next
					open.Body = unindent(src[bodyStart:off], findent)
					out = append(out, *open)
					open = nil
				}
				inFence = false
				off = next
				continue
			}
		}
		off = next
	}
	if open != nil {
		return nil, fmt.Errorf("%s:%d:%d: the ```%s block is never closed (CommonMark would read the rest of the file as its code)", name, open.Line, open.Indent+1, open.Type)
	}
	return out, nil
}

// unindent removes up to n spaces from the start of each line, as CommonMark does to a fenced
// block's content.
func unindent(b []byte, n int) []byte {
	if n == 0 {
		return b
	}
	var out []byte
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		l := b
		if i >= 0 {
			l, b = b[:i+1], b[i+1:]
		} else {
			b = nil
		}
		k := 0
		for k < n && k < len(l) && l[k] == ' ' {
			k++
		}
		out = append(out, l[k:]...)
	}
	return out
}

// infoOptions reads the key=value words after a block's type: the diagram's options.
func infoOptions(s string) (map[string]string, error) {
	opts := map[string]string{}
	for _, w := range strings.Fields(s) {
		k, v, ok := strings.Cut(w, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("info string: %q: want key=value options (rowbits=16, view=tree)", w)
		}
		opts[strings.ToLower(k)] = strings.Trim(v, `"`)
	}
	return opts, nil
}

// withLine moves the position of an error in a block's source to the Markdown file: line 1 of
// the source is line first of the file, and a column moves right by the fence's indent (the
// spaces CommonMark strips from each line of the block). Every reader's positioned error (a
// bytegrid.SpecError, whatever the form; a kafka source's lineError) is moved, so the message
// names one place, the file's.
func withLine(err error, file string, first, indent int) error {
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
	var le *lineError
	if errors.As(err, &le) {
		c := *le
		c.Name, c.Line, c.Col = file, line(le.Line), col(le.Col)
		return &c
	}
	return fmt.Errorf("%s:%d: %w", file, first, err)
}

// mdOptions are how md rewrites a document.
type mdOptions struct {
	Inline  bool   // inline SVG in place of each block, instead of an image link
	SVGBase string // the SVG files' name before "-N.svg", beside the output (Inline false)
	IDBase  string // the inline SVGs' id prefix
}

// mdFile is one file md writes: a Markdown text or a diagram.
type mdFile struct {
	Name string
	Data []byte
}

// renderMarkdown rewrites src: each diagram block becomes an image link to its SVG (returned in
// svgs, named from o.SVGBase) or, with o.Inline, the SVG itself; every other byte is kept.
func renderMarkdown(d *drawer, name string, src []byte, o mdOptions) ([]byte, []mdFile, error) {
	fences, err := scanFences(name, src)
	if err != nil {
		return nil, nil, err
	}
	var out bytes.Buffer
	var svgs []mdFile
	last := 0
	for i, f := range fences {
		out.Write(src[last:f.Start])
		last = f.End
		do := drawOptions{}
		if o.Inline { // ids unique on the page; a file keeps the id grid and show give it
			do = drawOptions{Inline: true, IDPrefix: fmt.Sprintf("%s-%d", o.IDBase, i+1)}
		}
		dia, err := d.draw(f.Type, "svg", name, f.Body, f.Options, do)
		if err != nil {
			return nil, nil, withLine(err, name, f.Line+1, f.Indent)
		}
		pad := strings.Repeat(" ", f.Indent)
		nl := "\n"
		if f.End == len(src) && !bytes.HasSuffix(src, []byte("\n")) {
			nl = ""
		}
		if o.Inline {
			// An HTML block (CommonMark type 6: it may follow a paragraph line) that ends at
			// the first blank line; an SVG of ours has none.
			out.WriteString(pad + `<div class="kafkagrid">` + "\n")
			for _, l := range strings.SplitAfter(strings.TrimRight(string(dia.Data), "\n"), "\n") {
				out.WriteString(pad + l)
			}
			out.WriteString("\n" + pad + "</div>" + nl)
			continue
		}
		file := fmt.Sprintf("%s-%d.svg", o.SVGBase, i+1)
		svgs = append(svgs, mdFile{file, dia.Data})
		alt := strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`, "\n", " ").Replace(dia.Title)
		if alt == "" {
			alt = f.Type + " diagram"
		}
		out.WriteString(pad + "![" + alt + "](" + escapeLink(filepath.Base(file)) + ")" + nl)
	}
	out.Write(src[last:])
	return out.Bytes(), svgs, nil
}

// escapeLink makes a file name safe as a Markdown link destination.
func escapeLink(s string) string {
	return strings.NewReplacer(" ", "%20", "(", "%28", ")", "%29", "<", "%3C", ">", "%3E").Replace(s)
}

// ourSVG reports whether an existing file is one md may replace: an SVG kafkagrid wrote.
func ourSVG(name string) (bool, error) {
	f, err := os.Open(name)
	if errors.Is(err, os.ErrNotExist) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	head := make([]byte, 160)
	n, _ := io.ReadFull(f, head)
	return bytes.HasPrefix(head[:n], []byte("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"kg")), nil
}

// runMd implements "kafkagrid md FILE.md…".
func runMd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("md", "[-o OUT.md | -outdir DIR] [-inline] [-check] [-schemas PATH] FILE.md…|-", stdout, stderr)
	sf := addSchemaFlags(fs)
	out := fs.String("o", "", "write the Markdown to `FILE` (one input); the SVGs go beside it as FILE-1.svg, FILE-2.svg, …")
	outDir := fs.String("outdir", "", "write each input's Markdown, under its own name, and its SVGs into `DIR`")
	inline := fs.Bool("inline", false, "put each diagram's SVG in place of its block (for HTML sites; GitHub strips inline SVG)\n"+
		"instead of an image link to an SVG file")
	check := fs.Bool("check", false, "write nothing: exit 1 when a file md would write differs from the one on disk (or is missing)")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usagef("md: want one or more FILE.md, or - for standard input")
	}
	if *out != "" && *outDir != "" {
		return usagef("md: give -o or -outdir, not both")
	}
	if *out != "" && len(files) > 1 {
		return usagef("md: -o names one output, for one input; use -outdir DIR for %d files", len(files))
	}
	if *out == "" && *outDir == "" && len(files) > 1 {
		return usagef("md: %d files would all go to standard output; use -outdir DIR", len(files))
	}
	if *check && *out == "" && *outDir == "" {
		return usagef("md: -check compares with the files -o or -outdir name")
	}
	d := mdDrawer(ctx, sf, stderr)
	var stale []string
	targets := map[string]string{}
	for _, in := range files {
		src, err := readBounded(in, true, maxMarkdown, func(size int64) error {
			return fmt.Errorf("%s: more than the %d MiB md reads", in, maxMarkdown>>20)
		})
		if err != nil {
			return fmt.Errorf("md: %w", err)
		}
		name := in
		if in == "-" {
			name = "<stdin>"
		}
		target := *out
		if *outDir != "" {
			base := filepath.Base(in)
			if in == "-" {
				base = "stdin.md"
			}
			target = filepath.Join(*outDir, base)
		}
		if prev, dup := targets[target]; dup && target != "" {
			return usagef("md: %s and %s would both be written to %s", prev, in, target)
		}
		targets[target] = in
		if target != "" && in != "-" && samePath(in, target) {
			return usagef("md: %s would be written over itself, and its blocks lost; write it elsewhere (-o, -outdir)", in)
		}
		dir, svgBase := ".", "diagram"
		if target != "" {
			dir = filepath.Dir(target)
			svgBase = strings.TrimSuffix(filepath.Base(target), filepath.Ext(target))
		} else if in != "-" {
			svgBase = strings.TrimSuffix(filepath.Base(in), filepath.Ext(in))
		}
		o := mdOptions{Inline: *inline, SVGBase: filepath.Join(dir, svgBase), IDBase: "kg-" + idWord(svgBase)}
		text, svgs, err := renderMarkdown(d, name, src, o)
		if err != nil {
			return fmt.Errorf("md: %w", err)
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("md: %w", err)
		}
		all := append(svgs, mdFile{target, text})
		if *check {
			for _, f := range all {
				if err := checkFile(f.Name, f.Data); err != nil {
					stale = append(stale, err.Error())
				}
			}
			continue
		}
		for _, f := range svgs {
			ok, err := ourSVG(f.Name)
			if err != nil {
				return fmt.Errorf("md: %w", err)
			}
			if !ok {
				return fmt.Errorf("md: %s exists and is not an SVG kafkagrid wrote: not replaced (move it, or name the output otherwise)", f.Name)
			}
		}
		for _, f := range svgs {
			if err := writeFileAtomic(f.Name, f.Data, tempsFrom(ctx)); err != nil {
				return fmt.Errorf("md: %w", err)
			}
		}
		if target == "" {
			if _, err := stdout.Write(text); err != nil {
				return fmt.Errorf("md: %w", err)
			}
			continue
		}
		if err := writeFileAtomic(target, text, tempsFrom(ctx)); err != nil {
			return fmt.Errorf("md: %w", err)
		}
	}
	if len(stale) > 0 {
		return fmt.Errorf("md: -check: %d files are not what md would write:\n  %s", len(stale), strings.Join(stale, "\n  "))
	}
	return nil
}

// mdDrawer is the drawer of md and mdbook: the schemas are read at the first kafka block.
func mdDrawer(ctx context.Context, sf *schemaFlags, stderr io.Writer) *drawer {
	d := &drawer{maxFields: 100_000}
	d.date, _ = sourceDate()
	d.load = func() (map[string]*kafka.Catalog, string, error) {
		cats, def, err := loadCatalogs(ctx, sf, stderr, false)
		return cats, def, err
	}
	return d
}

// samePath reports whether a and b name the same file (or would).
func samePath(a, b string) bool {
	fa, ea := os.Stat(a)
	fb, eb := os.Stat(b)
	if ea == nil && eb == nil {
		return os.SameFile(fa, fb)
	}
	aa, _ := filepath.Abs(a)
	ab, _ := filepath.Abs(b)
	return aa == ab
}

// idWord makes s safe in an SVG id.
func idWord(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 128 && (r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return "md"
	}
	return b.String()
}

// runMdbook implements "kafkagrid mdbook", an mdBook preprocessor
// (https://rust-lang.github.io/mdBook/for_developers/preprocessors.html): "mdbook supports
// RENDERER" exits 0 (every renderer: the diagrams are inline SVG, which every renderer of HTML
// keeps), and "mdbook" reads [context, book] as JSON on stdin and writes the book, each
// chapter's diagram blocks replaced by their inline SVG, on stdout.
func runMdbook(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("mdbook", "[supports RENDERER] [-schemas PATH] [-release RELEASE]  (book.toml: [preprocessor.kafkagrid] command = \"kafkagrid mdbook\")", stdout, stderr)
	sf := addSchemaFlags(fs)
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		if rest[0] != "supports" || len(rest) != 2 {
			return usagef("mdbook: want no argument (the book on stdin) or \"supports RENDERER\", have %q", strings.Join(rest, " "))
		}
		return nil
	}
	data, err := readBounded("-", true, maxInput, func(int64) error {
		return fmt.Errorf("the book is more than %d MiB", maxInput>>20)
	})
	if err != nil {
		return fmt.Errorf("mdbook: %w", err)
	}
	out, err := preprocessBook(mdDrawer(ctx, sf, stderr), data, sf)
	if err != nil {
		return fmt.Errorf("mdbook: %w", err)
	}
	_, err = stdout.Write(out)
	return err
}

// preprocessBook rewrites mdBook's [context, book] input and returns the book. Every member
// of the book and its chapters is kept as it came but each chapter's "content" (mdBook 0.4
// names the list "sections", 0.5 "items"). The schemas are those of the command's flags, else
// the book.toml table's "schemas" and "release" keys, relative to the book's root.
func preprocessBook(d *drawer, data []byte, sf *schemaFlags) ([]byte, error) {
	var input []json.RawMessage
	if err := json.Unmarshal(data, &input); err != nil {
		return nil, fmt.Errorf("stdin: %s (want mdBook's [context, book])", jsonErrorText(data, err))
	}
	if len(input) != 2 {
		return nil, fmt.Errorf("stdin: an array of %d values; want mdBook's [context, book]", len(input))
	}
	var ctxJSON struct {
		Root   string `json:"root"`
		Config struct {
			Preprocessor map[string]struct {
				Schemas string `json:"schemas"`
				Release string `json:"release"`
			} `json:"preprocessor"`
		} `json:"config"`
	}
	if err := json.Unmarshal(input[0], &ctxJSON); err != nil {
		return nil, fmt.Errorf("stdin: the context: %v", err)
	}
	if c, ok := ctxJSON.Config.Preprocessor["kafkagrid"]; ok {
		if *sf.schemas == "" && *sf.ref == "" && c.Schemas != "" {
			p := c.Schemas
			if !filepath.IsAbs(p) {
				p = filepath.Join(ctxJSON.Root, p)
			}
			*sf.schemas = p
		}
		if *sf.release == "" && c.Release != "" {
			*sf.release = c.Release
		}
	}
	var book map[string]json.RawMessage
	if err := json.Unmarshal(input[1], &book); err != nil {
		return nil, fmt.Errorf("stdin: the book: %v", err)
	}
	for _, key := range []string{"sections", "items"} {
		if raw, ok := book[key]; ok {
			items, err := bookItems(d, raw)
			if err != nil {
				return nil, err
			}
			book[key] = items
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(book); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// bookItems rewrites a list of book items (chapters, separators, part titles). A chapter's
// SVG ids start with a hash of its file, so that they are unique on its page and stable.
func bookItems(d *drawer, raw json.RawMessage) (json.RawMessage, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("stdin: book items: %v", err)
	}
	for i, it := range items {
		var item map[string]json.RawMessage
		if json.Unmarshal(it, &item) != nil {
			continue // "Separator"
		}
		chRaw, ok := item["Chapter"]
		if !ok {
			continue // {"PartTitle": …}
		}
		var ch map[string]json.RawMessage
		if err := json.Unmarshal(chRaw, &ch); err != nil {
			return nil, fmt.Errorf("stdin: a chapter: %v", err)
		}
		var content, path, sourcePath string
		json.Unmarshal(ch["content"], &content)
		json.Unmarshal(ch["path"], &path)
		json.Unmarshal(ch["source_path"], &sourcePath)
		name := sourcePath
		if name == "" {
			name = path
		}
		if name == "" {
			json.Unmarshal(ch["name"], &name)
		}
		sum := sha256.Sum256([]byte(name))
		text, _, err := renderMarkdown(d, name, []byte(content), mdOptions{Inline: true, IDBase: fmt.Sprintf("kg%s", hex.EncodeToString(sum[:4]))})
		if err != nil {
			return nil, err
		}
		if string(text) != content {
			b, err := marshalNoEscape(string(text))
			if err != nil {
				return nil, err
			}
			ch["content"] = b
		}
		if sub, ok := ch["sub_items"]; ok {
			if ch["sub_items"], err = bookItems(d, sub); err != nil {
				return nil, err
			}
		}
		if item["Chapter"], err = marshalNoEscape(ch); err != nil {
			return nil, err
		}
		if items[i], err = marshalNoEscape(item); err != nil {
			return nil, err
		}
	}
	return marshalNoEscape(items)
}

func marshalNoEscape(v any) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
