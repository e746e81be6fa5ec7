package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"slices"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/bytegrid/forms"
	"github.com/kafkagrid/kafkagrid/bytegrid/gridyaml"
	"github.com/kafkagrid/kafkagrid/bytegrid/specdec"
	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/capture"
	"github.com/kafkagrid/kafkagrid/site"
	"github.com/kafkagrid/kafkagrid/tree"
)

// gridBytesUsage is what "grid -h" says of -bytes, -offset and -view.
const gridBytesUsage = `

With -bytes FILE ("-": standard input), the bytes of one header are read with the spec and
drawn with their values (go doc ./bytegrid/specdec): FILE is text in any form decode reads
(hex, xxd, hexdump -C, tshark and Wireshark dumps, byte lists of Go, C, Rust, Python and JS,
base64) or, when it is no text, the bytes themselves. -offset N skips N bytes first (an
Ethernet header: 14). -format json writes each field's offset, bits, raw bits, hex and value;
-view tree draws the tree of the fields instead of the grid. A field the bytes cannot fill is
marked, the problem is printed, and grid exits 1 after writing the drawing.`

// gridBytesFlags are grid's flags for drawing a spec over real bytes.
type gridBytesFlags struct {
	bytes  string
	offset int
	view   string
}

// addGridBytesFlags adds -bytes, -offset and -view to grid's flags.
func addGridBytesFlags(fs *flag.FlagSet) *gridBytesFlags {
	g := &gridBytesFlags{}
	fs.StringVar(&g.bytes, "bytes", "", "read the bytes of one header from `FILE` (\"-\": standard input) and draw them with the spec's fields")
	fs.IntVar(&g.offset, "offset", 0, "with -bytes: skip the first `N` bytes")
	fs.StringVar(&g.view, "view", "", "`VIEW`: grid (default) or tree")
	return g
}

// maxGridBytes bounds the bytes -bytes reads: a header and its payload, far past any datagram.
const maxGridBytes = 16 << 20

// on reports whether the flags ask for anything grid does not do without them.
func (g *gridBytesFlags) on() bool { return g.bytes != "" || g.view != "" || g.offset != 0 }

// runGridBytes is grid with -bytes or -view: it reads the bytes, decodes them with spec and
// writes the drawing (or the JSON of the fields) where -o says.
func runGridBytes(ctx context.Context, g *gridBytesFlags, specName string, spec *gridInput, format string, o gridOptions, out string, check bool, stdout, stderr io.Writer) error {
	switch {
	case g.view != "" && g.view != "grid" && g.view != "tree":
		return usagef("grid: -view %q: want grid or tree", g.view)
	case g.offset < 0:
		return usagef("grid: -offset %d: want 0 or more", g.offset)
	case g.offset != 0 && g.bytes == "":
		return usagef("grid: -offset skips bytes of -bytes FILE; give -bytes")
	case g.bytes == "-" && specName == "<stdin>":
		return usagef("grid: the spec and -bytes cannot both be standard input")
	case format == "yaml" || format == "notation":
		return usagef("grid: -bytes and -view draw %s; -format %s writes the spec only", site.FormatList("txt", "svg", "rfcsvg", "pdf", "json"), format)
	}
	ys := &gridyaml.Spec{Name: spec.Name, Desc: spec.Desc, Caption: spec.Caption, Fields: spec.Fields, Options: spec.Options, Rules: spec.Rules, LittleEndian: spec.LittleEndian}
	var res *specdec.Result
	if g.bytes != "" {
		data, err := readGridBytes(g.bytes)
		if err != nil {
			return fmt.Errorf("grid: -bytes %s: %w", g.bytes, err)
		}
		if g.offset > len(data) {
			return fmt.Errorf("grid: -offset %d: %s has %d bytes", g.offset, g.bytes, len(data))
		}
		res = specdec.Decode(ys, data[g.offset:])
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("grid: %w", err)
	}
	var buf bytes.Buffer
	if err := writeGridBytes(&buf, spec, ys, res, g.view == "tree", format, o); err != nil {
		return fmt.Errorf("grid: %s: %w", specName, err)
	}
	if err := deliverGrid(ctx, out, check, buf.Bytes(), stdout); err != nil {
		return err
	}
	if res == nil {
		return nil
	}
	for _, p := range res.Problems {
		if p.Warning {
			fmt.Fprintf(stderr, "grid: warning: %s: %s\n", specName, p)
		}
	}
	if err := res.Err(); err != nil {
		return fmt.Errorf("grid: %s: %w", specName, err)
	}
	return nil
}

// readGridBytes reads -bytes's file: text in any form capture.ParseText reads, else the
// bytes as they are.
func readGridBytes(name string) ([]byte, error) {
	data, err := readBounded(name, true, maxGridBytes, func(size int64) error {
		if size < 0 {
			return fmt.Errorf("more than the %d bytes -bytes reads", maxGridBytes)
		}
		return fmt.Errorf("%d bytes, more than -bytes reads (%d)", size, maxGridBytes)
	})
	if err != nil {
		return nil, err
	}
	if !capture.LooksLikeText(data) {
		return data, nil
	}
	t, err := capture.ParseText(data, capture.FormAuto)
	if err != nil {
		return nil, err
	}
	return t.Bytes, nil
}

// writeGridBytes writes what was read (res; nil without -bytes: the spec's fields, their
// values the spec's examples)
// as the grid or the tree in format f, or as the JSON of the fields.
func writeGridBytes(w io.Writer, spec *gridInput, ys *gridyaml.Spec, res *specdec.Result, asTree bool, f string, o gridOptions) error {
	if f == "json" && res != nil {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	sf, ok := site.LookupFormat(f)
	if !ok || sf.Write == nil || !slices.Contains(forms.Formats(), sf.Name) {
		return fmt.Errorf("%w %q (want %s)", forms.ErrUnknownFormat, f, site.FormatList(forms.Formats()...))
	}
	wo := site.WriteOptions{Title: spec.Title(), Desc: spec.Desc, Inline: o.Inline, IDPrefix: o.IDPrefix, Date: o.PDF.Date, Theme: o.Theme}
	if asTree {
		root := specdec.SpecTree(ys)
		if res != nil {
			root = res.Tree()
		}
		d, err := tree.Layout(root, tree.Options{Title: spec.Title(), GroupColors: spec.Options.GroupColors})
		if err != nil {
			return err
		}
		return sf.Write(w, d, wo)
	}
	fields, opts := spec.Fields, spec.Options
	if res != nil {
		fields, opts = res.Grid()
	}
	if o.RowBits != 0 {
		opts.RowBits = o.RowBits
	}
	if o.BitWidth != 0 {
		opts.BitWidth = canvas.Pt(o.BitWidth)
	}
	opts.DecimalOffsets = opts.DecimalOffsets || o.Decimal
	opts.NoHex = opts.NoHex || o.NoHex
	d, err := bytegrid.Layout(fields, opts)
	if err != nil {
		return err
	}
	return sf.Write(w, d, wo)
}
