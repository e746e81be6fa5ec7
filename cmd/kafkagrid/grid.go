package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
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
	fs := newFlagSet("grid", "SPEC.yaml [-o OUT.svg|.pdf|.txt|.json|-] [-format svg|pdf|txt|json]", stdout, stderr)
	out := fs.String("o", "", "write to `FILE`; the format follows its suffix; \"-\" or none writes to stdout (text unless -format)")
	format := fs.String("format", "", "output `FORMAT`: svg, pdf, txt or json (default: from the -o suffix, else txt)")
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
	case "svg", "pdf", "txt", "json":
	default:
		return usagef("grid: unknown format %q (want svg, pdf, txt or json)", f)
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
	spec, err := gridyaml.Parse(files[0], src)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil { // each step stops at a signal, not only the last
		return fmt.Errorf("grid: %w", err)
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
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("grid: %w", err)
	}
	var buf bytes.Buffer
	switch f {
	case "svg":
		err = svgcanvas.Write(&buf, d, svgcanvas.WriteOptions{Title: spec.Name, Desc: spec.Desc})
	case "pdf":
		opt.Title = spec.Name
		err = pdfcanvas.Write(&buf, d, opt)
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

// writeFileAtomic writes data as the file name. A regular file (or none) is replaced by rename
// from a temporary file beside it, so that an error leaves no partial file; its permissions are
// kept, a new file's follow the umask. What is not a regular file is written to as it is and
// never renamed over: a device (/dev/stdout, /dev/null), a FIFO, or a symbolic link, whose
// target is written instead (by rename when it is a regular file). Errors name name, never the
// temporary file.
func writeFileAtomic(name string, data []byte, temps *reference.Temps) error {
	target := name
	fi, err := os.Lstat(name)
	if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if resolved, rerr := filepath.EvalSymlinks(name); rerr == nil {
			target = resolved
			fi, err = os.Lstat(target)
		} else {
			// A link to nothing yet: create what it names, through it.
			return writeInPlace(name, data)
		}
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return fmt.Errorf("grid: %w", err)
		}
	case err != nil:
		return fmt.Errorf("grid: %w", err)
	case fi.IsDir():
		return fmt.Errorf("grid: -o %s is a folder", name)
	case !fi.Mode().IsRegular():
		return writeInPlace(name, data)
	}
	tmp, err := createTemp(target)
	if err != nil {
		return fmt.Errorf("grid: write %s: %w", name, unwrapPath(err))
	}
	temps.Add(tmp.Name())
	defer temps.Done(tmp.Name())
	_, werr := tmp.Write(data)
	if werr == nil && fi != nil && fi.Mode().IsRegular() {
		werr = tmp.Chmod(fi.Mode().Perm()) // keep the file's permissions
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), target)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("grid: write %s: %w", name, unwrapPath(werr))
	}
	return nil
}

// writeInPlace writes data into what name is (a device, a FIFO, a link's target), truncating
// it where that means anything.
func writeInPlace(name string, data []byte) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
	if err != nil {
		return fmt.Errorf("grid: %w", err)
	}
	_, werr := f.Write(data)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return fmt.Errorf("grid: write %s: %w", name, unwrapPath(werr))
	}
	return nil
}

// createTemp creates a new temporary file beside path, "." + its name + ".tmp" + digits, with
// the permissions the umask leaves of 0666 (os.CreateTemp's 0600 would need a chmod that
// ignores the umask).
func createTemp(path string) (*os.File, error) {
	dir, base := filepath.Split(path)
	for i := 0; ; i++ {
		name := filepath.Join(dir, "."+base+".tmp"+strconv.FormatUint(uint64(rand.Uint32()), 10))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) && i < 100 {
			continue
		}
		return f, err
	}
}

// unwrapPath drops the file names of an *fs.PathError or *os.LinkError (a temporary file's),
// keeping the cause for errors.Is.
func unwrapPath(err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		return pe.Err
	case errors.As(err, &le):
		return le.Err
	}
	return err
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
		fi, err := f.Stat()
		if err == nil && fi.Mode().IsRegular() && fi.Size() > int64(limit) {
			return nil, tooBig(fi.Size())
		}
		if err == nil && fi.Mode().IsRegular() && fi.Size() > 0 {
			// Its size is known: one buffer of that size (and a byte more, to see it did not
			// grow), not io.ReadAll's doublings, which hold up to twice the file.
			data := make([]byte, fi.Size()+1)
			n, err := io.ReadFull(f, data)
			if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
				return nil, err
			}
			if n <= int(fi.Size()) {
				return data[:n:n], nil
			}
			// It grew while read: read the rest as from a pipe.
			rest, err := io.ReadAll(io.LimitReader(f, int64(limit)+1-int64(n)))
			if err != nil {
				return nil, err
			}
			if data = append(data[:n], rest...); len(data) > limit {
				return nil, tooBig(-1)
			}
			return data, nil
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
