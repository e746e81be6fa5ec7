package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/bytegrid/gridyaml"
	"github.com/kafkagrid/kafkagrid/canvas/pdfcanvas"
	"github.com/kafkagrid/kafkagrid/canvas/svgcanvas"
	"github.com/kafkagrid/kafkagrid/cmd/kafkagrid/internal/reference"
)

// runGrid implements "kafkagrid grid SPEC.yaml [-o OUT] [-format F]": it draws the byte grid
// of a protocol described in YAML (see package bytegrid/gridyaml) as SVG, PDF, RFC-style text
// or layout JSON.
func runGrid(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("grid", "SPEC.yaml|FIGURE.txt [-o OUT.svg|.pdf|.txt|.json|.yaml|-] [-format svg|pdf|txt|json|yaml]", stdout, stderr)
	out := fs.String("o", "", "write to `FILE`; the format follows its suffix; \"-\" or none writes to stdout (text unless -format)")
	format := fs.String("format", "", "output `FORMAT`: svg, pdf, txt, json or yaml (the spec, for editing; default: from the -o suffix, else txt)")
	rowBits := fs.Int("rowbits", 0, "row width in `BITS`: 8, 16, 32 or 64 (default: the spec's, else 32)")
	decimal := fs.Bool("decimal", false, "row offsets in decimal instead of hex")
	noHex := fs.Bool("nohex", false, "do not show the hex of each byte")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(files) != 1 {
		return usagef("grid: want exactly one SPEC.yaml, got %d", len(files))
	}
	// The format is -format's, else the -o suffix's; the two must agree.
	bySuffix := ""
	switch strings.ToLower(filepath.Ext(*out)) {
	case ".svg":
		bySuffix = "svg"
	case ".pdf":
		bySuffix = "pdf"
	case ".json":
		bySuffix = "json"
	case ".txt", ".text":
		bySuffix = "txt"
	case ".yaml", ".yml":
		bySuffix = "yaml"
	case "":
	default:
		if *format == "" {
			return usagef("grid: cannot tell the format of %q from its suffix; use -format", *out)
		}
	}
	f := outputFormat(*format)
	switch {
	case f == "" && bySuffix == "":
		f = "txt"
	case f == "":
		f = bySuffix
	case bySuffix != "" && bySuffix != f:
		return usagef("grid: -format %s, but -o %s is named as %s", f, *out, bySuffix)
	}
	switch f {
	case "svg", "pdf", "txt", "json", "yaml":
	default:
		return usagef("grid: unknown format %q (want svg, pdf, txt, json or yaml)", f)
	}

	var opt pdfcanvas.DocOptions
	if f == "pdf" {
		var err error
		if opt.Date, err = sourceDate(); err != nil {
			return fmt.Errorf("grid: %w", err)
		}
	}

	src, err := readSpec(files[0])
	if err != nil {
		return fmt.Errorf("grid: %w", err)
	}
	spec, err := parseGridSpec(files[0], src)
	if err != nil {
		return err
	}
	opts := spec.Options
	if *rowBits != 0 {
		opts.RowBits = *rowBits
	}
	if *decimal {
		opts.DecimalOffsets = true
	}
	if *noHex {
		opts.NoHex = true
	}
	d, err := bytegrid.Layout(spec.Fields, opts)
	if err != nil {
		return fmt.Errorf("grid: %s: %w", files[0], err)
	}
	var buf bytes.Buffer
	switch f {
	case "svg":
		err = svgcanvas.Write(&buf, d, svgcanvas.WriteOptions{Title: spec.Name, Desc: spec.Desc})
	case "pdf":
		opt.Title = spec.Name
		err = pdfcanvas.Write(&buf, d, opt)
	case "yaml":
		err = writeGridSpec(&buf, spec, opts)
	case "json":
		var b []byte
		if b, err = json.MarshalIndent(d, "", "  "); err == nil {
			buf.Write(append(b, '\n'))
		}
	default:
		err = d.WriteText(&buf)
	}
	if err != nil {
		return fmt.Errorf("grid: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("grid: %w", err)
	}
	if *out == "" || *out == "-" {
		if _, err := stdout.Write(buf.Bytes()); err != nil {
			return fmt.Errorf("grid: %w", err)
		}
		return nil
	}
	return writeFileAtomic(*out, buf.Bytes(), tempsFrom(ctx))
}

// writeFileAtomic writes data to a temporary file beside name and renames it into place, so
// that an error leaves no partial file.
func writeFileAtomic(name string, data []byte, temps *reference.Temps) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return fmt.Errorf("grid: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".tmp*")
	if err != nil {
		return fmt.Errorf("grid: %w", err)
	}
	temps.Add(tmp.Name())
	defer temps.Done(tmp.Name())
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp.Name(), 0o644)
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), name)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("grid: %w", werr)
	}
	return nil
}

// readSpec reads a protocol spec of at most gridyaml.MaxSize bytes.
func readSpec(name string) ([]byte, error) {
	return readBounded(name, false, gridyaml.MaxSize, func(size int64) error {
		if size < 0 {
			return fmt.Errorf("%s: more than the %d bytes a spec may have", name, gridyaml.MaxSize)
		}
		return fmt.Errorf("%s: %d bytes, more than a spec may have (%d)", name, size, gridyaml.MaxSize)
	})
}

// readBounded reads the file name (standard input for "-" when stdin) up to limit bytes: a
// larger regular file is refused before it is read, anything else (a pipe, <(…)) once it has
// given more. tooBig makes the error from the file's size, or -1 when it was read past limit.
func readBounded(name string, stdin bool, limit int, tooBig func(size int64) error) ([]byte, error) {
	var r io.Reader = os.Stdin
	if name != "-" || !stdin {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > int64(limit) {
			return nil, tooBig(fi.Size())
		}
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, int64(limit)+1))
	if err != nil {
		return nil, err
	}
	if len(data) > limit {
		return nil, tooBig(-1)
	}
	return data, nil
}
