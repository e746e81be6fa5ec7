package diagram

import (
	"errors"
	"fmt"
	"github.com/kafkagrid/kafkagrid/bytegrid/specdec"
	"github.com/kafkagrid/kafkagrid/textbytes"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/kafkagrid/kafkagrid/canvas/svgcanvas"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site"
)

// The diagram types.
const (
	// Bytegrid is a byte grid from a spec in any form the grid readers take (YAML, RFC ASCII
	// art, RFC 9000 notation, bit-field JSON), told apart by content. Options: rowbits
	// (8, 16, 32, 64), decimal, nohex, and bytes: real bytes (hex, or any form package
	// textbytes reads) drawn through the spec with every field's value (bytegrid/specdec);
	// theme (auto, light, dark), and format=rfcsvg: RFC 7996's SVG for an svg request.
	Bytegrid = "bytegrid"
	// Kafka is a Kafka frame: "key: value" lines naming an example frame (api, version, side,
	// release, view), or the hex of a frame to decode (after "hex:", or the whole source).
	// Options: the same keys, and theme (auto, light, dark).
	Kafka = "kafka"
)

// Types returns the diagram types, in the order messages list them.
func Types() []string { return []string{Bytegrid, Kafka} }

// Formats returns the formats a diagram type is drawn in, nil for a type that is not one.
func Formats(typ string) []string {
	switch typ {
	case Bytegrid:
		return []string{"svg", "rfcsvg", "txt", "pdf", "json"}
	case Kafka:
		return []string{"svg", "txt", "pdf", "json"}
	}
	return nil
}

// DefaultMaxFields is the most fields a drawing has when Drawer.MaxFields is not set.
const DefaultMaxFields = 20_000

// Drawer draws diagrams. Its zero value draws bytegrid diagrams; kafka diagrams need Kafka's
// catalogues, which Catalogs gives or Load reads on first use. It is safe for concurrent use
// once drawing has begun (set its fields first).
type Drawer struct {
	// Catalogs are the Kafka releases' catalogues by release name, and Default the one a
	// source that names no release draws from.
	Catalogs map[string]*kafka.Catalog
	Default  string
	// Load, when set and Catalogs is nil, reads the catalogues at the first kafka diagram
	// (a Markdown file may have none), once.
	Load func() (map[string]*kafka.Catalog, string, error)
	// MaxFields bounds a drawing's fields (a grid's fields, a decoded frame's tree nodes);
	// 0 means DefaultMaxFields.
	MaxFields int
	// Date is a PDF's date; zero means canvas/pdfcanvas.DefaultDate.
	Date time.Time
	// Warn, when set, is told what a Markdown text's blocks were read with but could not be
	// drawn back as printed, or not understood (a figure's warnings, Drawing.Warnings), each
	// with the text's name and the block's line; md and mdbook print them on stderr.
	Warn func(string)

	once    sync.Once
	cats    map[string]*kafka.Catalog
	def     string
	loadErr error
}

// NewDrawer returns a drawer of both types from the catalogues of Kafka's releases (nil or
// empty: bytegrid diagrams only); def names the default release ("" with one catalogue: it).
func NewDrawer(cats map[string]*kafka.Catalog, def string) *Drawer {
	if def == "" && len(cats) == 1 {
		for name := range cats {
			def = name
		}
	}
	return &Drawer{Catalogs: cats, Default: def}
}

// Request is one diagram to draw.
type Request struct {
	Type    string            // Bytegrid or Kafka
	Format  string            // one of Formats(Type)
	Source  []byte            // the diagram's source
	Options map[string]string // the type's options (keys lower case); others are ignored
	// Name is where Source came from, in error positions; "" means "diagram".
	Name string
	// Inline writes an SVG without its XML prolog, for HTML; IDPrefix is the SVG root's id
	// (empty: a hash of the drawing).
	Inline   bool
	IDPrefix string
}

// Drawing is a drawn diagram.
type Drawing struct {
	Data        []byte
	ContentType string // the format's media type: "image/svg+xml"
	Title       string // a short name, for an image's alt text
	// Warnings are what the spec's reader read but could not draw back as printed, or did
	// not understand ("name:line:col: what", lines of the source), for a byte grid.
	Warnings []string
}

// InputError is a mistake in a diagram's source or options: the caller's to fix (an HTTP
// status 400). Errors that are not InputErrors are the drawer's (500).
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

func inputErrorf(format string, a ...any) error { return &InputError{fmt.Errorf(format, a...)} }

// IsInput reports whether err is an InputError.
func IsInput(err error) bool {
	var ie *InputError
	return errors.As(err, &ie)
}

// Error is a mistake at a line and column (0: none) of a kafka diagram's source.
type Error struct {
	Name      string
	Line, Col int
	Msg       string
}

func (e *Error) Error() string {
	if e.Col == 0 {
		return fmt.Sprintf("%s:%d: %s", e.Name, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.Name, e.Line, e.Col, e.Msg)
}

// lineErrorf is an InputError at a line (no column) of a source.
func lineErrorf(name string, line int, format string, a ...any) error {
	return &InputError{&Error{name, line, 0, fmt.Sprintf(format, a...)}}
}

func (d *Drawer) maxFields() int {
	if d.MaxFields > 0 {
		return d.MaxFields
	}
	return DefaultMaxFields
}

// catalogs returns the catalogues, reading them on first use.
func (d *Drawer) catalogs() (map[string]*kafka.Catalog, string, error) {
	if d.Catalogs != nil || d.Load == nil {
		return d.Catalogs, d.Default, nil
	}
	d.once.Do(func() { d.cats, d.def, d.loadErr = d.Load() })
	return d.cats, d.def, d.loadErr
}

// Draw draws one diagram. The error is an InputError when the source or options are at
// fault; its position names r.Name.
func (d *Drawer) Draw(r Request) (*Drawing, error) {
	if r.Name == "" {
		r.Name = "diagram"
	}
	if Formats(r.Type) == nil {
		return nil, inputErrorf("unsupported diagram type %q (this server draws %s)", clip(r.Type), strings.Join(Types(), " and "))
	}
	if !slices.Contains(Formats(r.Type), r.Format) {
		return nil, inputErrorf("unsupported output format %q for %s (want %s)", clip(r.Format), r.Type, strings.Join(Formats(r.Type), ", "))
	}
	if err := commonOptions(&r); err != nil {
		return nil, err
	}
	var out *Drawing
	var err error
	if r.Type == Bytegrid {
		out, err = d.drawGrid(r)
	} else {
		out, err = d.drawKafka(r)
	}
	if err != nil {
		return nil, err
	}
	f, _ := site.LookupFormat(r.Format)
	out.ContentType = f.ContentType
	return out, nil
}

// commonOptions reads the options of both types: theme (the SVG's palette: auto, light or
// dark) is checked, id sets the SVG's id (a request's; a Markdown fence takes none: md and
// mdbook number their own), and format (svg or rfcsvg, for a byte grid) replaces an svg request's
// format, so that a route whose format is fixed (a Markdown fence, a Kroki client that asks
// for svg) reaches RFC 7996's SVG.
func commonOptions(r *Request) error {
	if v, ok := r.Options["theme"]; ok && !slices.Contains(svgcanvas.Themes(), v) {
		return inputErrorf("option theme=%q: want %s", clip(v), strings.Join(svgcanvas.Themes(), ", "))
	}
	if v, ok := r.Options["id"]; ok {
		// The SVG's id (and its CSS scope): a page that inlines the same diagram twice, as
		// the Hugo render hook does, gives each its own.
		if v == "" || len(v) > 64 || strings.Trim(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_") != "" {
			return inputErrorf("option id=%q: want 1 to 64 letters, digits, '-' and '_'", clip(v))
		}
		r.IDPrefix = v
	}
	v, ok := r.Options["format"]
	if !ok || v == r.Format {
		return nil
	}
	if r.Format != "svg" || v != "svg" && (v != "rfcsvg" || r.Type != Bytegrid) {
		want := "svg"
		if r.Type == Bytegrid {
			want = "svg or rfcsvg"
		}
		return inputErrorf("option format=%q: want %s (with an svg request)", clip(v), want)
	}
	r.Format = v
	return nil
}

func (d *Drawer) drawGrid(r Request) (*Drawing, error) {
	o := gridWrite{Inline: r.Inline, IDPrefix: r.IDPrefix, Date: d.Date, Theme: r.Options["theme"]}
	var data []byte // the bytes option's
	for _, k := range slices.Sorted(maps.Keys(r.Options)) {
		v := r.Options[k]
		var err error
		switch k {
		case "rowbits":
			o.RowBits, err = strconv.Atoi(v)
			if err != nil || o.RowBits != 8 && o.RowBits != 16 && o.RowBits != 32 && o.RowBits != 64 {
				err = errors.New("want 8, 16, 32 or 64")
			}
		case "decimal":
			o.Decimal, err = parseBool(v)
		case "nohex":
			o.NoHex, err = parseBool(v)
		case "bytes":
			var t *textbytes.Text
			if t, err = textbytes.Parse([]byte(v), textbytes.Auto); err == nil {
				data = t.Bytes
			}
		}
		if err != nil {
			return nil, inputErrorf("option %s=%q: %v", k, clip(v), err)
		}
	}
	spec, err := readGrid(r.Name, r.Source, r.Options["from"])
	if err != nil {
		return nil, &InputError{err}
	}
	if data != nil {
		// The spec decodes: each field's value read from the bytes, a field the bytes do not
		// hold marked at its offset (specdec), drawn as grid -bytes draws it.
		spec.Fields, spec.Options = specdec.Decode(&spec.Spec, data).Grid()
	}
	if spec.Form == "bitfield" && o.RowBits != 0 {
		// bit-field places each field by its lane: rows of another width would draw the
		// fields where bit-field does not.
		return nil, inputErrorf("option rowbits=%d: a bit-field's rows are its lanes (its config's lanes and bits set them)", o.RowBits)
	}
	if len(spec.Fields) > d.maxFields() {
		return nil, lineErrorf(r.Name, 1, "%d fields, more than a diagram may have here (%d)", len(spec.Fields), d.maxFields())
	}
	out, err := writeGrid(spec, r.Format, o)
	if err != nil {
		if errors.Is(err, errFormat) {
			return nil, inputErrorf("unsupported output format %q for %s (want %s)", clip(r.Format), Bytegrid, strings.Join(Formats(Bytegrid), ", "))
		}
		return nil, lineErrorf(r.Name, 1, "%v", err) // a layout error: the spec's fields do not fit
	}
	return &Drawing{Data: out, Title: spec.Title(), Warnings: spec.Warnings}, nil
}

// parseBool reads a flag option: present without a value means true.
func parseBool(v string) (bool, error) {
	if v == "" {
		return true, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, errors.New("want true or false")
	}
	return b, nil
}

// clip shortens what an error quotes of its input to 40 bytes (at a rune's start), so that
// an error is bounded whatever the input: a 1 MB option is not echoed.
func clip(s string) string {
	if len(s) <= 40 {
		return s
	}
	n := 40
	for n > 0 && !utf8RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }
