// Package forms reads a protocol header described in any of the forms kafkagrid takes into
// one bytegrid.Spec, tells the forms apart by their content, and writes a spec in a drawing
// format (svg, rfcsvg, txt, pdf, json) or back as a spec (yaml, notation). It is what "kafkagrid
// grid" does, as a library: a Go program draws an RFC's figure in a few lines (Example).
//
// The forms, in the order messages list them (All):
//   - yaml: kafkagrid's own description (package bytegrid/gridyaml); what no other form
//     claims is read as YAML, whose parser then says what is wrong;
//   - rfc: a figure as RFCs print it, ruler, "+-+" rules and "|" edges (bytegrid/rfcart),
//     told by its first line (after an optional "source:" line): a ruler or a "+-" rule;
//   - notation: RFC 9000 section 1.3's notation (bytegrid/notation), told by a first line
//     that is a name and "{";
//   - bitfield: WaveDrom bit-field JSON (bytegrid/bitfield), told by a first "[" or "/*", or
//     a "{" followed by a key "reg";
//   - tls: TLS's presentation language (RFC 8446 section 3; bytegrid/tlspres), told by a
//     line "struct {" or "enum {" and a line "} Name;" after it, wherever they stand.
//
// Each form is one row of the table All: its name, its sniff rule (a small function of the
// source), its reader and, when a spec is written back in it, its writer. A new form is one
// new row. The sniff rules claim disjoint sources, so their order does not matter; blank
// lines, a byte-order mark and "#" or "//" comment lines before the first meaningful line
// are skipped (Head) by the rules that read it.
package forms

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/bytegrid/bitfield"
	"github.com/kafkagrid/kafkagrid/bytegrid/gridyaml"
	"github.com/kafkagrid/kafkagrid/bytegrid/notation"
	"github.com/kafkagrid/kafkagrid/bytegrid/rfcart"
	"github.com/kafkagrid/kafkagrid/bytegrid/tlspres"
	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/canvas/formats"
)

// Form is one form a spec is written in: a row of the table All.
type Form struct {
	Name string // what "grid -from" says: "yaml", "rfc", "notation", "bitfield", "tls"
	// Sniff reports whether src starts as this form does; nil for the form that takes what no
	// other form claims (yaml). Detect reads these and more (a figure after prose or inside a
	// comment): detectRules.
	Sniff func(src []byte) bool
	// Read reads src, named name in errors, into a spec; its errors are
	// *bytegrid.SpecError where they have a place.
	Read func(name string, src []byte, o Options) (*bytegrid.Spec, error)
	// Write writes s back in this form, s having been read in the form named from; nil for a
	// form no spec is written in (rfc: the txt drawing is one; bitfield).
	Write func(w io.Writer, s *bytegrid.Spec, from string) error
}

// All returns the forms, in the order messages list them.
func All() []Form {
	return []Form{
		{Name: "yaml", Read: readYAML, Write: writeYAML},
		{Name: "rfc", Sniff: rfcart.Detect, Read: readRFC},
		{Name: "notation", Sniff: sniffNotation, Read: readNotation, Write: writeNotation},
		{Name: "bitfield", Sniff: sniffBitfield, Read: readBitfield},
		{Name: "tls", Sniff: tlspres.Sniff, Read: readTLS},
	}
}

// Names are the forms' names, in the order of All.
func Names() []string {
	var n []string
	for _, f := range All() {
		n = append(n, f.Name)
	}
	return n
}

// Lookup returns the form named name.
func Lookup(name string) (Form, bool) {
	for _, f := range All() {
		if f.Name == name {
			return f, true
		}
	}
	return Form{}, false
}

// detectRules tell a spec's form by its content, in order: the first rule that claims src
// names its form. head is src from its first meaningful line (Head). A new form, or a better
// sign of one, is a rule here with its own test case (TestDetect).
var detectRules = []struct {
	form   string
	claims func(src []byte, head string) bool
}{
	// A figure copied from a C comment, before bit-field's JSON5 comment takes it.
	{"rfc", func(src []byte, h string) bool { ok, _ := rfcart.Sniff(src); return strings.HasPrefix(h, "/*") && ok }},
	{"bitfield", func(src []byte, _ string) bool { return sniffBitfield(src) }},
	{"yaml", func(_ []byte, h string) bool { return strings.HasPrefix(h, "{") }}, // a flow mapping
	// "struct {" would pass for a notation structure named "struct".
	{"tls", func(src []byte, _ string) bool { return tlspres.Sniff(src) }},
	{"notation", func(src []byte, _ string) bool { return sniffNotation(src) }},
	// A YAML spec names its keys at the start of a line; a figure or the notation may stand
	// after a "source:" line, prose, or inside a comment.
	{"yaml", func(_ []byte, h string) bool { return hasYAMLKey(h) }},
	{"rfc", func(src []byte, _ string) bool { ok, _ := rfcart.Sniff(src); return ok }},
	{"notation", func(src []byte, _ string) bool { return notation.Sniff(src) }},
	// A ruler or a rule first with no row under it: rfcart says what is missing.
	{"rfc", func(src []byte, _ string) bool { return rfcart.Detect(src) }},
}

// yamlKeys are the keys of gridyaml's spec.
var yamlKeys = [...]string{"name", "fields", "row_bits", "ruler", "text", "groups", "description"}

// hasYAMLKey reports whether a line of s starts with a key of gridyaml's spec and a colon
// ("fields:"). A plain scan: a grid read by every verb should not compile a regexp for it.
func hasYAMLKey(s string) bool {
	for len(s) > 0 {
		line := s
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			line, s = s[:i], s[i+1:]
		} else {
			s = ""
		}
		for _, k := range yamlKeys {
			if len(line) > len(k) && line[len(k)] == ':' && line[:len(k)] == k {
				return true
			}
		}
	}
	return false
}

// Detect returns the form src is in: the form of the first of the detect rules that claims
// it, else yaml (whose reader then says what is wrong).
func Detect(src []byte) Form {
	head := Head(src)
	for _, r := range detectRules {
		if r.claims(src, head) {
			f, _ := Lookup(r.form)
			return f
		}
	}
	f, _ := Lookup("yaml")
	return f
}

// Options are how Read reads a spec.
type Options struct {
	Form     string           // the form src is in (a Name of All); "" tells it by content
	Bitfield bitfield.Options // bit-field's layout (its --lanes, --bits, …), for that form only
	// AllStructures draws every structure of a document in RFC 9000 notation or TLS's
	// presentation language, not only the root and those it refers to (notation.Options.All,
	// tlspres.Options.All); the other forms have one.
	AllStructures bool
	// AskForm is how the caller's user names a form, a pattern of fmt with one %s: "-from
	// %s" (the default, grid's flag), "from=%s" (a Markdown block's or a Kroki request's
	// option). A FormError's message lists the other forms so.
	AskForm string
}

// FormError is an error of a source whose form Read told by its content: the error, the
// form it was read in and how to ask for another, which its message says ("(read as yaml,
// the form its content looked like; -from rfc, -from notation, … reads it as another)").
type FormError struct {
	Err  error
	Form string // the form told by the content
	Ask  string // Options.AskForm
}

func (e *FormError) Error() string {
	ask := e.Ask
	if ask == "" {
		ask = "-from %s"
	}
	var others []string
	for _, n := range Names() {
		if n != e.Form {
			others = append(others, fmt.Sprintf(ask, n))
		}
	}
	return fmt.Sprintf("%v\n(read as %s, the form its content looked like; %s reads it as another)", e.Err, e.Form, strings.Join(others, ", "))
}

func (e *FormError) Unwrap() error { return e.Err }

// Errors of Read and Write that are the caller's choice, not the source's fault.
var (
	ErrUnknownForm     = errors.New("unknown input form")
	ErrBitfieldOptions = errors.New("bit-field's layout options given for a spec in another form")
	ErrUnknownFormat   = errors.New("unknown format")
)

// Read reads src, named name in errors, in the form o says or, when it says none, in the form
// its content tells (Detect); an error of the source is then a *FormError, which names that
// form and how to ask for another. It returns the spec and the form it was read in (also
// when the error is ErrBitfieldOptions). Bit-field documents have no title: the spec is named by the
// file's base name without its extension, or BitfieldTitle when name names no file ("" or
// "<stdin>").
func Read(name string, src []byte, o Options) (*bytegrid.Spec, Form, error) {
	f, ok := Lookup(o.Form)
	switch {
	case o.Form == "":
		f = Detect(src)
	case !ok:
		return nil, Form{}, fmt.Errorf("%w %q (want %s)", ErrUnknownForm, o.Form, strings.Join(Names(), ", "))
	}
	if f.Name != "bitfield" && o.Bitfield != (bitfield.Options{}) {
		return nil, f, fmt.Errorf("%w: %s is %s", ErrBitfieldOptions, name, f.Name)
	}
	s, err := f.Read(name, src, o)
	if err != nil && o.Form == "" {
		err = &FormError{Err: err, Form: f.Name, Ask: o.AskForm}
	}
	return s, f, err
}

// BitfieldTitle names a bit-field document read from no file of its own (standard input, a
// request, a Markdown block).
const BitfieldTitle = "bit-field"

func readYAML(name string, src []byte, _ Options) (*bytegrid.Spec, error) {
	return gridyaml.Parse(name, src)
}

func readRFC(name string, src []byte, _ Options) (*bytegrid.Spec, error) {
	return rfcart.Parse(name, src)
}

func readNotation(name string, src []byte, o Options) (*bytegrid.Spec, error) {
	return notation.ParseOptions(name, src, notation.Options{All: o.AllStructures})
}

func readTLS(name string, src []byte, o Options) (*bytegrid.Spec, error) {
	return tlspres.ParseOptions(name, src, tlspres.Options{All: o.AllStructures})
}

func readBitfield(name string, src []byte, o Options) (*bytegrid.Spec, error) {
	s, err := bitfield.Parse(name, src, o.Bitfield)
	if err != nil {
		return nil, err
	}
	title := strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
	if name == "<stdin>" || name == "" || title == "" {
		title = BitfieldTitle
	}
	spec := s.Spec
	spec.Name = title
	return &spec, nil
}

func writeYAML(w io.Writer, s *bytegrid.Spec, _ string) error {
	return gridyaml.Write(w, s)
}

// writeNotation writes s in RFC 9000 notation, named by NotationName. A YAML spec's values
// are examples, a bit-field's attributes notes; the notation's "= C" is a constant, so only a
// spec read as notation has its values written.
func writeNotation(w io.Writer, s *bytegrid.Spec, from string) error {
	fields := s.Fields
	if from == "tls" {
		if err := notationSelect(fields); err != nil {
			return err
		}
	}
	if from != "notation" {
		fields = slices.Clone(fields)
		for i := range fields {
			fields[i].Value = ""
		}
	}
	return notation.Write(w, NotationName(s.Name), fields)
}

// notationSelect refuses, saying why, a TLS select the notation cannot write back: the
// notation has no choice between structures, so a select can only be written as a variable
// field under a name of its own ("} body;"); an unnamed one, "select (E)", cannot.
func notationSelect(fields []bytegrid.Field) error {
	for _, f := range fields {
		cases, ok := tlspres.Select(f)
		if !ok || !strings.ContainsAny(f.Name, "()") {
			continue
		}
		return fmt.Errorf("notation: field %q is a TLS select, one of %d structures (%s): RFC 9000 notation has no choice between structures, and a name there cannot hold '(': name the select in the TLS source (\"} body;\") to write it as one variable field, or write -format yaml, which keeps its cases", f.Name, len(cases), strings.Join(cases, "; "))
	}
	return nil
}

// NotationName makes a spec's name a structure name the notation can hold: its parenthesised
// parts dropped ("UDP header (RFC 768)" is "UDP header"), brackets, braces and commas made
// spaces; "Header" when nothing is left.
func NotationName(s string) string {
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')':
			if depth > 0 {
				depth--
			}
		case depth > 0:
		case strings.ContainsRune("[]{},\n", r):
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	n := strings.Join(strings.Fields(b.String()), " ")
	if n == "" {
		return "Header"
	}
	return n
}

// Head is the start of src (its first 64 KiB) from its first meaningful line: a byte-order
// mark, blank lines and "#" or "//" comment lines skipped; "" when nothing else is there.
func Head(src []byte) string {
	s := strings.TrimPrefix(string(src[:min(len(src), 64<<10)]), "\ufeff")
	for {
		s = strings.TrimLeft(s, " \t\r\n")
		if !strings.HasPrefix(s, "//") && !strings.HasPrefix(s, "#") {
			return s
		}
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			return ""
		}
		s = s[i+1:]
	}
}

// sniffBitfield claims a WaveDrom document: a list ("["), a document opening with a JSON5
// comment ("/*"), or an object ("{") with a key "reg" (a YAML spec written as one flow
// mapping has no key "reg", though a name may hold the letters: {name: Aggregate, ...}).
func sniffBitfield(src []byte) bool {
	s := Head(src)
	return strings.HasPrefix(s, "[") || strings.HasPrefix(s, "/*") ||
		strings.HasPrefix(s, "{") && regKey().MatchString(s)
}

// regKey matches a key "reg" of a JSON or JSON5 object (reg:, "reg":, 'reg':).
var regKey = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[{,\s])(?:reg|"reg"|'reg')\s*:`)
})

// sniffNotation claims a document whose first line is a structure's name and "{" (no ":",
// which a YAML key has; not a bracket, brace or '+', which bit-field JSON and RFC figures
// start with).
func sniffNotation(src []byte) bool {
	line, _, _ := strings.Cut(Head(src), "\n")
	line = strings.TrimSpace(line)
	return len(line) > 1 && strings.HasSuffix(line, "{") && !strings.Contains(line, ":") &&
		!strings.ContainsAny(line[:1], "{[+") && !strings.HasPrefix(line, "/*")
}

// Formats are the formats Write writes, in the order messages list them: the drawing formats
// of canvas/formats a byte grid is drawn in, and the forms a spec is written back in.
func Formats() []string {
	return []string{"txt", "svg", "rfcsvg", "pdf", "json", "yaml", "notation"}
}

// WriteOptions are what a caller may change of a spec's own options, and how it is written.
// The zero value writes the spec as it was read.
type WriteOptions struct {
	RowBits int // 0: the spec's
	// BitWidth is the width of one bit in points, 10 to 40 (bytegrid.Options.BitWidth); 0:
	// the spec's, else the row width's default.
	BitWidth       float64
	Decimal, NoHex bool // set: decimal row offsets; no hex of each byte
	// Inline and IDPrefix: an SVG without its XML prolog, for HTML, and its root id (empty:
	// a hash).
	Inline   bool
	IDPrefix string
	Date     time.Time // a PDF's dates; zero: canvas/pdfcanvas.DefaultDate
	Theme    string    // an SVG's palette: svgcanvas.ThemeAuto (or empty), ThemeLight, ThemeDark
}

// Write writes s, read in the form named from, to w in format (one of Formats: a drawing
// format, or a form a spec is written back in), with o. An unknown format is
// ErrUnknownFormat.
func Write(w io.Writer, s *bytegrid.Spec, from, format string, o WriteOptions) error {
	opts := s.Options
	if o.RowBits != 0 {
		opts.RowBits = o.RowBits
	}
	if o.BitWidth != 0 {
		opts.BitWidth = canvas.Pt(o.BitWidth)
	}
	if o.Decimal {
		opts.DecimalOffsets = true
	}
	if o.NoHex {
		opts.NoHex = true
	}
	if f, ok := Lookup(format); ok && f.Write != nil && slices.Contains(Formats(), f.Name) {
		c := *s
		c.Options = opts
		return f.Write(w, &c, from)
	}
	df, ok := formats.Lookup(format)
	if !ok || df.Write == nil || !slices.Contains(Formats(), df.Name) {
		return fmt.Errorf("%w %q (want %s)", ErrUnknownFormat, format, formats.List(Formats()...))
	}
	d, err := bytegrid.Layout(s.Fields, opts)
	if err != nil && from == "bitfield" {
		return fmt.Errorf("%w (the rows are bit-field's lanes, of %d bits here: -lanes and -bits change them)", err, opts.RowBits)
	}
	if err != nil {
		return err
	}
	if df.Name == "json" && len(s.Warnings) > 0 {
		return writeJSONWarned(w, d, df, s.Warnings)
	}
	return df.Write(w, d, formats.WriteOptions{Title: s.Title(), Desc: s.Desc, Inline: o.Inline, IDPrefix: o.IDPrefix, Date: o.Date, Theme: o.Theme})
}

// writeJSONWarned writes the layout's JSON with the reader's warnings first, as "warnings".
func writeJSONWarned(w io.Writer, d *bytegrid.Diagram, df formats.Format, warnings []string) error {
	var buf bytes.Buffer
	if err := df.Write(&buf, d, formats.WriteOptions{}); err != nil {
		return err
	}
	ws, err := json.MarshalIndent(warnings, "  ", "  ")
	if err != nil {
		return err
	}
	rest, ok := bytes.CutPrefix(buf.Bytes(), []byte("{"))
	if !ok {
		return fmt.Errorf("json: want an object, got %.20q", buf.Bytes())
	}
	sep := ","
	if len(bytes.TrimSpace(rest)) == 1 {
		sep = ""
	}
	if _, err := fmt.Fprintf(w, "{\n  \"warnings\": %s%s", ws, sep); err != nil {
		return err
	}
	_, err = w.Write(rest)
	return err
}

// OutputFormat is the format to write: format's (as -format names it, any case or alias),
// else the one file's suffix names (as -o names it), else txt. The two must agree, except
// that rfcsvg is written to a .svg file and notation to a .txt one.
func OutputFormat(format, file string) (string, error) {
	bySuffix := ""
	if sf, ok := formats.OfFile(file); ok && slices.Contains(Formats(), sf.Name) {
		bySuffix = sf.Name
	} else if filepath.Ext(file) != "" && format == "" {
		return "", fmt.Errorf("cannot tell the format of %q from its suffix; use -format", file)
	}
	f := ""
	if format != "" {
		gf, ok := formats.Lookup(format)
		if !ok || !slices.Contains(Formats(), gf.Name) {
			return "", fmt.Errorf("%w %q (want %s)", ErrUnknownFormat, strings.ToLower(format), formats.List(Formats()...))
		}
		f = gf.Name
	}
	switch {
	case f == "" && bySuffix == "":
		f = "txt"
	case f == "":
		f = bySuffix
	case f == "rfcsvg" && bySuffix == "svg", f == "notation" && bySuffix == "txt":
	case bySuffix != "" && bySuffix != f:
		return "", fmt.Errorf("-format %s, but -o %s is named as %s", f, file, bySuffix)
	}
	return f, nil
}
