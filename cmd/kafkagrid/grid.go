package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/bytegrid/bitfield"
	"github.com/kafkagrid/kafkagrid/bytegrid/forms"
	"github.com/kafkagrid/kafkagrid/bytegrid/gridyaml"
	"github.com/kafkagrid/kafkagrid/canvas/pdfcanvas"
	"github.com/kafkagrid/kafkagrid/site/outdir"
)

// gridUsage is grid's synopsis and the forms it reads and writes, printed by "grid -h".
const gridUsage = `SPEC|- [-from FORM] [-bytes FILE|- [-offset N]] [-view grid|tree] [-o OUT|-] [-format FORMAT] [flags]

Draws the byte grid of a protocol header described in SPEC ("-": standard input).

The forms SPEC may take (-from names one; without it the content tells):
  yaml      kafkagrid's own description (go doc ./bytegrid/gridyaml):
              name: UDP header
              fields:
                - {name: Source Port, bits: 16}
  rfc       a figure as RFCs print it, ruler, "+-+" rules and "|" edges (go doc
            ./bytegrid/rfcart); a first "source:" line is its title:
              +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
              |          Source Port          |
              +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
  notation  RFC 9000 section 1.3 (QUIC, HTTP/2 RFC 9113, HTTP/3), go doc ./bytegrid/notation:
              HTTP Frame {
                Length (24),
                Type (8),
                Frame Payload (..),
              }
  bitfield  WaveDrom bit-field JSON, a list or {"reg": [...], "config": {...}}, JSON5 too
            (go doc ./bytegrid/bitfield); -lanes, -bits, -hflip and -vflip are bit-field's
            own flags:
              [{"name": "Version", "bits": 4}, {"name": "IHL", "bits": 4}]
A document that starts with "[" (or "{" and has a key "reg") is bit-field's; one whose first
line is a name and "{" is the notation; one whose first line (after "source:") is a ruler or a
"+-" rule is an RFC figure; anything else is YAML. -o never names SPEC itself.

The output (-format, else the -o suffix, else txt):
  txt       RFC-style ASCII art          svg      SVG (kafkagrid's look, light and dark)
  rfcsvg    SVG in RFC 7996's profile, for xml2rfc (black and white, no CSS)
  pdf       a PDF page                   json     the layout's geometry
  yaml      the spec read, as YAML for editing (any form in, gridyaml's format out)
  notation  the spec read, in RFC 9000 notation (a name's "(...)" part dropped; the values
            of a YAML or bit-field spec are examples, not the notation's "= C" constants,
            and are not written)`

// gridInput is a protocol spec read in any form: what is laid out, and what the outputs name.
type gridInput struct {
	bytegrid.Spec
	Form string // the form it was read in (forms.Names)
}

// readGridSpec reads src, named name in errors, with forms.Read: in the given form, or in the
// form its content tells when form is ""; bf are bit-field's layout flags, for that form only.
func readGridSpec(name string, src []byte, form string, bf bitfield.Options, all bool) (*gridInput, error) {
	s, f, err := forms.Read(name, src, forms.Options{Form: form, Bitfield: bf, AllStructures: all})
	switch {
	case errors.Is(err, forms.ErrBitfieldOptions):
		return nil, usagef("grid: -lanes, -bits, -hflip and -vflip are for bit-field input, and %s is %s", name, f.Name)
	case errors.Is(err, forms.ErrUnknownForm):
		return nil, usagef("grid: %v", err)
	case err != nil:
		return nil, err
	}
	return &gridInput{Spec: *s, Form: f.Name}, nil
}

// runGrid implements "kafkagrid grid SPEC [-o OUT] [-format F]": it draws the byte grid of a
// protocol described in any form readGridSpec reads as SVG, RFC SVG, PDF, RFC-style text or
// layout JSON, or writes the spec back as YAML or RFC 9000 notation.
func runGrid(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("grid", gridUsage+gridBytesUsage, stdout, stderr)
	gb := addGridBytesFlags(fs.FlagSet)
	out := fs.String("o", "", "write to `FILE`; the format follows its suffix; \"-\" or none writes to stdout (text unless -format)")
	format := fs.String("format", "", "output `FORMAT`: txt, svg, rfcsvg, pdf, json, yaml or notation (default: from the -o suffix, else txt)")
	from := fs.String("from", "", "input `FORM`: "+strings.Join(forms.Names(), ", ")+" (default: told by the content)")
	rowBits := fs.Int("rowbits", 0, "row width in `BITS`: 8, 16, 32 or 64 (default: the spec's, else 32)")
	bitWidth := fs.Float64("bitwidth", 0, "width of one bit in `POINTS`, 10 to 40 (default: 40, 26, 16 or 10 for rows of 8, 16,\n"+
		"32 or 64 bits); -rowbits 16 -bitwidth 15 draws a grid about 300 wide, which a phone's\n"+
		"README column shows at its size")
	decimal := fs.Bool("decimal", false, "row offsets in decimal instead of hex")
	noHex := fs.Bool("nohex", false, "do not show the hex of each byte")
	theme := fs.String("theme", "auto", "an SVG's palette, `THEME`: auto (light, dark where the reader's system or the\n"+
		"page's dark class says so), light or dark")
	check := fs.Bool("check", false, "write nothing: exit 1 when the file -o names differs from what would be written\n"+
		"(or is missing), for CI")
	all := fs.Bool("all", false, "notation input: draw every structure, not only the root and those it refers to\n"+
		"(-format notation writes them all whatever this says)")
	var bf bitfield.Options
	fs.IntVar(&bf.Lanes, "lanes", 0, "bit-field input: `N` lanes (rows), as bit-field's --lanes")
	fs.IntVar(&bf.Bits, "bits", 0, "bit-field input: `N` bits in all, as bit-field's --bits (default: the fields' sum)")
	fs.BoolVar(&bf.HFlip, "hflip", false, "bit-field input: lane 0 at the top, as bit-field's --hflip")
	fs.BoolVar(&bf.VFlip, "vflip", false, "bit-field input: bit 0 at the left, as bit-field's --vflip")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(files) != 1 {
		return usagef("grid: want exactly one SPEC (or - for standard input), got %d", len(files))
	}
	if bf.Lanes < 0 || bf.Bits < 0 {
		return usagef("grid: -lanes and -bits must not be negative")
	}
	if err := themeFlag("grid", *theme); err != nil {
		return err
	}
	f, err := gridFormat(*format, *out)
	if err != nil {
		return err
	}
	if _, ok := forms.Lookup(*from); *from != "" && !ok {
		return usagef("grid: unknown input form %q (want %s)", *from, strings.Join(forms.Names(), ", "))
	}

	var opt pdfcanvas.DocOptions
	if f == "pdf" {
		var err error
		if opt.Date, err = sourceDate(); err != nil {
			return fmt.Errorf("grid: %w", err)
		}
	}

	name := files[0]
	if *out != "" && *out != "-" && name != "-" {
		if a, err := os.Stat(name); err == nil {
			if b, err := os.Stat(*out); err == nil && os.SameFile(a, b) {
				return usagef("grid: -o %s is the spec itself; write the output elsewhere", *out)
			}
		}
	}
	src, err := readSpec(name)
	if err != nil {
		return fmt.Errorf("grid: %w", err)
	}
	if name == "-" {
		name = "<stdin>"
	}
	spec, err := readGridSpec(name, src, *from, bf, *all || f == "notation")
	if err != nil {
		return err
	}
	for _, w := range spec.Warnings {
		fmt.Fprintf(stderr, "kafkagrid: grid: warning: %s\n", w)
	}
	if *rowBits != 0 && spec.Form == "bitfield" {
		return usagef("grid: -rowbits: a bit-field's rows are its lanes; use -lanes")
	}
	if err := ctx.Err(); err != nil { // each step stops at a signal, not only the last
		return fmt.Errorf("grid: %w", err)
	}
	if gb.on() {
		return runGridBytes(ctx, gb, name, spec, f, gridOptions{RowBits: *rowBits, BitWidth: *bitWidth, Decimal: *decimal, NoHex: *noHex, PDF: opt, Theme: *theme}, *out, *check, stdout, stderr)
	}
	var buf bytes.Buffer
	if err := writeGrid(&buf, spec, f, gridOptions{RowBits: *rowBits, BitWidth: *bitWidth, Decimal: *decimal, NoHex: *noHex, PDF: opt, Theme: *theme}); err != nil {
		return fmt.Errorf("grid: %s: %w", name, err)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("grid: %w", err)
	}
	return deliverGrid(ctx, *out, *check, buf.Bytes(), stdout)
}

// gridFormat is the format grid writes (forms.OutputFormat): -format's (format), else the
// suffix of -o's file (out), else txt.
func gridFormat(format, out string) (string, error) {
	f, err := forms.OutputFormat(format, out)
	if err != nil {
		return "", usagef("grid: %v", err)
	}
	return f, nil
}

// deliverGrid puts the grid where -o (out) says: compared with the file with -check (exit 1
// when it differs), on stdout for "" or "-", else into the file, whole or not at all.
func deliverGrid(ctx context.Context, out string, check bool, data []byte, stdout io.Writer) error {
	if check {
		if out == "" || out == "-" {
			return usagef("grid: -check compares with the file -o names; give -o FILE")
		}
		if err := checkFile(out, data); err != nil {
			return fmt.Errorf("grid: -check: %w", err)
		}
		return nil
	}
	if out == "" || out == "-" {
		if _, err := stdout.Write(data); err != nil {
			return fmt.Errorf("grid: %w", err)
		}
		return nil
	}
	if err := outdir.NotBuilt(out); err != nil {
		return fmt.Errorf("grid: %w", err)
	}
	if err := writeFileAtomic(out, data, tempsFrom(ctx)); err != nil {
		return fmt.Errorf("grid: %w", err)
	}
	return nil
}

// gridOptions are what a caller may change of a spec's own options, and how it is written.
type gridOptions struct {
	RowBits        int     // 0: the spec's
	BitWidth       float64 // points a bit, 10 to 40; 0: the spec's, else the row width's default
	Decimal, NoHex bool    // set: decimal offsets, no hex of each byte
	// Inline and IDPrefix: an SVG without its XML prolog, for HTML, and its root id (empty:
	// a hash).
	Inline   bool
	IDPrefix string
	PDF      pdfcanvas.DocOptions // the PDF's date (title: the spec's name)
	Theme    string               // an SVG's palette (svgcanvas.Themes)
}

// writeGrid writes spec with o to w in format f with forms.Write: the one place every route to
// the byte grid (grid, serve's bytegrid type, md's fences) writes a format.
func writeGrid(w io.Writer, spec *gridInput, f string, o gridOptions) error {
	return forms.Write(w, &spec.Spec, spec.Form, f, forms.WriteOptions{RowBits: o.RowBits, BitWidth: o.BitWidth, Decimal: o.Decimal, NoHex: o.NoHex,
		Inline: o.Inline, IDPrefix: o.IDPrefix, Date: o.PDF.Date, Theme: o.Theme})
}

// checkFile is -check: nil when the file name holds exactly data, else an error (exit 1)
// saying that it is stale or missing.
func checkFile(name string, data []byte) error {
	old, err := os.ReadFile(name)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("%s is missing: write it without -check", name)
	case err != nil:
		return err
	case !bytes.Equal(old, data):
		return fmt.Errorf("%s is stale: it differs from what would be written (at byte %d): write it again without -check", name, firstDiff(old, data))
	}
	return nil
}

// firstDiff is the offset of the first byte where a and b differ.
func firstDiff(a, b []byte) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// writeFileAtomic writes data as the file name (grid's -o, diff's, md's outputs) with
// outdir.WriteFile: by rename from a temporary file beside it when it is a regular file or none,
// into it as it is when it is a device, a FIFO or a link's target.
func writeFileAtomic(name string, data []byte, temps *outdir.Temps) error {
	return outdir.WriteFile(name, func(w io.Writer) error { _, err := w.Write(data); return err }, temps)
}

// readSpec reads a protocol spec of at most gridyaml.MaxSize bytes (the largest any form
// allows), from standard input for "-".
func readSpec(name string) ([]byte, error) {
	return readBounded(name, true, gridyaml.MaxSize, func(size int64) error {
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
