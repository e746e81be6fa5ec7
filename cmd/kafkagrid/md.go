package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kafkagrid/kafkagrid/canvas/svgcanvas"
	"github.com/kafkagrid/kafkagrid/diagram"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site/outdir"
)

// maxMarkdown bounds a Markdown file md reads.
const maxMarkdown = 16 << 20

// runMd implements "kafkagrid md FILE.md…" (diagram.Drawer.Markdown).
func runMd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("md", "[-o OUT.md | -outdir DIR] [-inline] [-theme THEME] [-check] [-schemas PATH] FILE.md…|-", stdout, stderr)
	sf := addSchemaFlags(fs)
	out := fs.String("o", "", "write the Markdown to `FILE` (one input); the SVGs go beside it as FILE-1.svg, FILE-2.svg, …")
	outDir := fs.String("outdir", "", "write each input's Markdown, under its own name, and its SVGs into `DIR`")
	inline := fs.Bool("inline", false, "put each diagram's SVG in place of its block (for HTML sites; GitHub strips inline SVG)\n"+
		"instead of an image link to an SVG file")
	theme := fs.String("theme", "", "the `THEME` of every block that sets none: auto (the default), light or dark")
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
	if err := themeFlag("md", *theme); err != nil {
		return err
	}
	plans, err := mdPlans(files, *out, *outDir, *inline)
	if err != nil {
		return err
	}
	d := mdDrawer(ctx, sf, stderr)
	var stale []string
	bad := 0
	for _, p := range plans {
		in, name, target, o := p.in, p.name, p.target, p.opts
		o.Theme = *theme
		src, err := readBounded(in, true, maxMarkdown, func(size int64) error {
			return fmt.Errorf("%s: more than the %d MiB md reads", in, maxMarkdown>>20)
		})
		if err != nil {
			return fmt.Errorf("md: %w", err)
		}
		text, svgs, err := d.Markdown(name, src, o)
		if bb, ok := errors.AsType[diagram.BadBlocks](err); ok {
			for _, e := range bb {
				d.Warn(e.Error() + "\n(the block is left as it was; the others are drawn)")
			}
			bad += len(bb)
		} else if err != nil {
			return fmt.Errorf("md: %w", err)
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("md: %w", err)
		}
		all := append(svgs, diagram.File{Name: target, Data: text})
		if *check {
			s, err := mdCheck(all, o, len(svgs))
			if err != nil {
				return fmt.Errorf("md: %w", err)
			}
			stale = append(stale, s...)
			continue
		}
		if err := mdWrite(ctx, p, o, text, svgs, *outDir != "", stdout); err != nil {
			return fmt.Errorf("md: %w", err)
		}
	}
	if len(stale) > 0 {
		return fmt.Errorf("md: -check: %d files are not what md would write:\n  %s", len(stale), strings.Join(stale, "\n  "))
	}
	if bad > 0 {
		return fmt.Errorf("md: %d diagram blocks not drawn, left as they were (the warnings above say why)", bad)
	}
	return nil
}

// mdWrite writes what md made of one input: its SVGs (only where no other file is, or one md
// wrote), the stale SVGs of an earlier run removed, and its Markdown (text) into p.target, or
// on stdout. derivedMD says the Markdown's name is md's (-outdir), not the user's (-o).
func mdWrite(ctx context.Context, p mdPlan, o diagram.MarkdownOptions, text []byte, svgs []diagram.File, derivedMD bool, stdout io.Writer) error {
	target := p.target
	derived := svgs
	if derivedMD {
		derived = append(svgs[:len(svgs):len(svgs)], diagram.File{Name: target, Data: text})
	}
	for _, f := range derived {
		if err := mayWrite(f.Name); err != nil {
			return err
		}
	}
	for _, f := range svgs {
		ok, err := ourSVG(f.Name)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("%s exists and is not an SVG kafkagrid wrote: not replaced (move it, or name the output otherwise)", f.Name)
		}
	}
	if target != "" {
		if err := outdir.NotBuilt(target); err != nil {
			return err
		}
	}
	for _, f := range svgs {
		if err := writeFileAtomic(f.Name, f.Data, tempsFrom(ctx)); err != nil {
			return err
		}
	}
	if !o.Inline { // an inline run writes no SVG files, and leaves alone those of a run that did
		if err := removeStale(o.SVGBase, len(svgs)); err != nil {
			return err
		}
	}
	if target == "" {
		_, err := stdout.Write(text)
		return err
	}
	return writeFileAtomic(target, text, tempsFrom(ctx))
}

// mdPlan is what md does with one input: its name in errors, the Markdown it writes ("" for
// standard output) and how.
type mdPlan struct {
	in, name, target string
	opts             diagram.MarkdownOptions
}

// mdPlans names every input's outputs before any is written, refusing two inputs that would
// write one file (the same Markdown, or the same SVG names: a.md and a.markdown both a-1.svg)
// and an input written over itself.
func mdPlans(files []string, out, outDir string, inline bool) ([]mdPlan, error) {
	var plans []mdPlan
	targets := map[string]string{}
	svgBases := map[string]string{}
	for _, in := range files {
		name := in
		if in == "-" {
			name = "<stdin>"
		}
		target := out
		if outDir != "" {
			base := filepath.Base(in)
			if in == "-" {
				base = "stdin.md"
			}
			target = filepath.Join(outDir, base)
		}
		if prev, dup := targets[target]; dup && target != "" {
			return nil, usagef("md: %s and %s would both be written to %s", prev, in, target)
		}
		targets[target] = in
		if target != "" && in != "-" && samePath(in, target) {
			return nil, usagef("md: %s would be written over itself, and its blocks lost; write it elsewhere (-o, -outdir)", in)
		}
		dir, svgBase := ".", "diagram"
		if target != "" {
			dir = filepath.Dir(target)
			svgBase = strings.TrimSuffix(filepath.Base(target), filepath.Ext(target))
		} else if in != "-" {
			svgBase = strings.TrimSuffix(filepath.Base(in), filepath.Ext(in))
		}
		o := diagram.MarkdownOptions{Inline: inline, SVGBase: filepath.Join(dir, svgBase), IDBase: "kg-" + idWord(svgBase)}
		if !inline {
			if prev, dup := svgBases[o.SVGBase]; dup {
				return nil, usagef("md: %s and %s would both write their diagrams as %s-N.svg; give them names apart, or -inline", prev, in, o.SVGBase)
			}
			svgBases[o.SVGBase] = in
		}
		plans = append(plans, mdPlan{in, name, target, o})
	}
	return plans, nil
}

// mayWrite refuses a name md derives (an SVG's, -outdir's Markdown) that is a symbolic link:
// md writes files of its own names, never through a link to somewhere else.
func mayWrite(name string) error {
	fi, err := os.Lstat(name)
	if err == nil && fi.Mode()&os.ModeSymlink != 0 {
		return fmt.Errorf("%s is a symbolic link: md does not write through it (remove it, or name the output otherwise)", name)
	}
	return nil
}

// removeStale removes the SVGs an earlier run wrote past the n of this one (base-(n+1).svg,
// …): a block taken out of the document leaves no drawing behind. Only files md wrote go
// (ourSVG), and never through a link.
func removeStale(base string, n int) error {
	names, err := staleSVGs(base, n)
	for _, name := range names {
		if err := os.Remove(name); err != nil {
			return err
		}
	}
	return err
}

// mdCheck is md -check of one text: what differs among the files md would write (all), and
// the SVGs of its blocks that are gone (past the n it makes now; none for an inline text).
func mdCheck(all []diagram.File, o diagram.MarkdownOptions, n int) ([]string, error) {
	var stale []string
	for _, f := range all {
		if err := checkFile(f.Name, f.Data); err != nil {
			stale = append(stale, err.Error())
		}
	}
	if o.Inline {
		return stale, nil
	}
	left, err := staleSVGs(o.SVGBase, n)
	for _, name := range left {
		stale = append(stale, name+": no block makes it any more (md would remove it)")
	}
	return stale, err
}

// themeFlag checks a verb's -theme: empty, or one of svgcanvas.Themes.
func themeFlag(verb, theme string) error {
	if theme != "" && !slices.Contains(svgcanvas.Themes(), theme) {
		return usagef("%s: -theme %q: want %s", verb, theme, strings.Join(svgcanvas.Themes(), ", "))
	}
	return nil
}

// staleSVGs lists the SVGs kafkagrid wrote as base-N.svg past the n a text makes now, up to
// the first number that is not one (a gap, another file, a symbolic link).
func staleSVGs(base string, n int) ([]string, error) {
	var out []string
	for i := n + 1; ; i++ {
		name := fmt.Sprintf("%s-%d.svg", base, i)
		fi, err := os.Lstat(name)
		if errors.Is(err, os.ErrNotExist) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		if !fi.Mode().IsRegular() {
			return out, nil
		}
		if ok, err := ourSVG(name); err != nil || !ok {
			return out, err
		}
		out = append(out, name)
	}
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
	head := make([]byte, 240)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	const prolog = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
	if !bytes.HasPrefix(head, []byte(prolog)) {
		return false, nil
	}
	root, _, _ := bytes.Cut(head[len(prolog):], []byte(">"))
	// svgcanvas's root (id="kg…"), or rfcsvg's (format=rfcsvg), as they write it.
	return bytes.HasPrefix(root, []byte(`id="kg`)) ||
		bytes.HasPrefix(root, []byte(`version="1.2" baseProfile="tiny" width="`)) && bytes.HasSuffix(root, []byte(`role="img" font-family="monospace"`)), nil
}

// mdDrawer is the drawer of md and mdbook: the schemas are read at the first kafka block.
func mdDrawer(ctx context.Context, sf *schemaFlags, stderr io.Writer) *diagram.Drawer {
	d := &diagram.Drawer{MaxFields: 100_000}
	d.Date, _ = sourceDate()
	d.Warn = func(w string) { fmt.Fprintf(stderr, "kafkagrid: warning: %s\n", w) }
	d.Load = func() (map[string]*kafka.Catalog, string, error) {
		return loadCatalogs(ctx, sf, stderr, false)
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
// chapter's diagram blocks replaced by their inline SVG, on stdout (diagram.Drawer.RenderBook,
// one budget for the whole book). The schemas are those of the command's flags, else the
// book.toml table's "schemas" and "release" keys, relative to the book's root.
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
	book, err := diagram.ReadBook(data)
	if err != nil {
		return fmt.Errorf("mdbook: %w", err)
	}
	if *sf.schemas == "" && *sf.ref == "" && book.Schemas != "" {
		*sf.schemas = book.Schemas
	}
	if *sf.release == "" && book.Release != "" {
		*sf.release = book.Release
	}
	out, err := mdDrawer(ctx, sf, stderr).RenderBook(book, nil)
	if err != nil {
		return fmt.Errorf("mdbook: %w", err)
	}
	_, err = stdout.Write(out)
	return err
}
