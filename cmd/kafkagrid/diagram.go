package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/kafkagrid/kafkagrid/bytegrid/bitfield"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/kafkagrid/kafkagrid/canvas/pdfcanvas"
	"github.com/kafkagrid/kafkagrid/capture"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/schemas"
	"github.com/kafkagrid/kafkagrid/site/reference"
)

// A diagram is what serve draws for a request and md for a fenced block: a source of one of
// the diagram types, drawn in one format with the options Kroki's clients pass.
//
//   - bytegrid: a grid spec in every form "kafkagrid grid" reads (readGridSpec), written as
//     grid writes it (writeGrid); options rowbits, decimal, nohex.
//   - kafka: a few "key: value" lines naming an example frame as "kafkagrid show" draws it
//     (api, version, side, release, view), or the hex of a frame to decode as "kafkagrid
//     decode" reads it (after "hex:", or the whole source); options the same keys.
const (
	typeGrid  = "bytegrid"
	typeKafka = "kafka"
)

// diagramTypes are the diagram types, in the order messages list them.
var diagramTypes = []string{typeGrid, typeKafka}

// typeFormats are the formats each diagram type is drawn in.
var typeFormats = map[string][]string{
	typeGrid:  {"svg", "rfcsvg", "txt", "pdf", "json"},
	typeKafka: {"svg", "txt", "pdf", "json"},
}

// inputError is a mistake in a diagram's source or options: the client's to fix (status
// 400), with where it is in the message.
type inputError struct{ err error }

func (e inputError) Error() string { return e.err.Error() }
func (e inputError) Unwrap() error { return e.err }

func inputErrorf(format string, a ...any) error { return inputError{fmt.Errorf(format, a...)} }

// drawer draws diagrams. It holds the catalogues of the Kafka releases, read once; it is safe
// for concurrent use.
type drawer struct {
	// cats are the releases' catalogues by name, def the default release; load fills them
	// on first use when set (md, which may meet no kafka block), and loadErr is its error.
	once    sync.Once
	load    func() (map[string]*kafka.Catalog, string, error)
	cats    map[string]*kafka.Catalog
	def     string
	loadErr error

	maxFields int       // fields a drawing may have (a grid's fields, a decoded frame's nodes)
	date      time.Time // a PDF's date
}

// diagramOut is a drawn diagram.
type diagramOut struct {
	Data  []byte
	Title string // a short name, for an image's alt text
}

// drawOptions are how a diagram is written beside what its options say.
type drawOptions struct {
	Inline   bool   // SVG without its XML prolog, for HTML
	IDPrefix string // the SVG root's id; empty: a hash of the drawing
}

// catalogs returns the catalogues, reading them on first use.
func (d *drawer) catalogs() (map[string]*kafka.Catalog, string, error) {
	d.once.Do(func() {
		if d.load != nil {
			d.cats, d.def, d.loadErr = d.load()
		}
	})
	return d.cats, d.def, d.loadErr
}

// draw draws one diagram. name is where its source came from, for error positions ("diagram"
// for a request; a Markdown file's name for a block, whose lines withLine then moves to the
// file's). The error is an inputError when the source or options are at fault.
func (d *drawer) draw(typ, format, name string, src []byte, opts map[string]string, do drawOptions) (*diagramOut, error) {
	if !contains(diagramTypes, typ) {
		return nil, inputErrorf("unsupported diagram type %q (this server draws %s)", typ, strings.Join(diagramTypes, " and "))
	}
	if !contains(typeFormats[typ], format) {
		return nil, inputErrorf("unsupported output format %q for %s (want %s)", format, typ, strings.Join(typeFormats[typ], ", "))
	}
	switch typ {
	case typeGrid:
		return d.drawGrid(format, name, src, opts, do)
	case typeKafka:
		return d.drawKafka(format, name, src, opts, do)
	}
	return nil, inputErrorf("unsupported diagram type %q (this server draws %s)", typ, strings.Join(diagramTypes, " and "))
}

func (d *drawer) drawGrid(format, name string, src []byte, opts map[string]string, do drawOptions) (*diagramOut, error) {
	o := gridOptions{Inline: do.Inline, IDPrefix: do.IDPrefix, PDF: pdfcanvas.DocOptions{Date: d.date}}
	for _, k := range sortedKeys(opts) {
		v := opts[k]
		var err error
		switch k {
		case "rowbits":
			o.RowBits, err = strconv.Atoi(v)
			if err == nil && o.RowBits != 8 && o.RowBits != 16 && o.RowBits != 32 && o.RowBits != 64 {
				err = errors.New("want 8, 16, 32 or 64")
			}
		case "decimal":
			o.Decimal, err = parseBoolOption(v)
		case "nohex":
			o.NoHex, err = parseBoolOption(v)
		}
		if err != nil {
			return nil, inputErrorf("option %s=%q: %v", k, v, err)
		}
	}
	spec, err := readGridSpec(name, src, "", bitfield.Options{})
	if err != nil {
		return nil, inputError{err}
	}
	if spec.Form == "bitfield" {
		spec.Name = bitfieldTitle // name is the Markdown file's or "diagram", not the document's
		if o.RowBits != 0 {
			// bit-field places each field by its lane: rows of another width would draw
			// the fields where bit-field does not (as grid refuses -rowbits for it).
			return nil, inputErrorf("option rowbits=%d: a bit-field's rows are its lanes (its config's lanes and bits set them)", o.RowBits)
		}
	}
	if len(spec.Fields) > d.maxFields {
		return nil, lineErrorf(name, 1, "%d fields, more than a diagram may have here (%d)", len(spec.Fields), d.maxFields)
	}
	var buf bytes.Buffer
	if err := writeGrid(&buf, spec, format, o); err != nil {
		if errors.Is(err, errUnknownFormat) {
			return nil, inputErrorf("unsupported output format %q for %s (want %s)", format, typeGrid, strings.Join(typeFormats[typeGrid], ", "))
		}
		return nil, lineErrorf(name, 1, "%v", err) // a layout error: the spec's fields do not fit
	}
	return &diagramOut{Data: buf.Bytes(), Title: spec.Name}, nil
}

// kafkaSpec is the source of a kafka diagram.
type kafkaSpec struct {
	API, Side, Release, View string
	Version                  int
	HasVersion               bool
	Hex                      []byte // the hex of a frame to decode, nil for an example frame
	HexLine                  int    // the line the hex starts on
	lines                    map[string]int
}

// kafkaKeys are the keys of a kafka diagram's source, and its options.
var kafkaKeys = []string{"api", "version", "side", "release", "view"}

// lineError is a mistake at a line and column of a source.
type lineError struct {
	Name      string
	Line, Col int
	Msg       string
}

func (e *lineError) Error() string {
	if e.Col == 0 {
		return fmt.Sprintf("%s:%d: %s", e.Name, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.Name, e.Line, e.Col, e.Msg)
}

// lineErrorf is an inputError at a line (no column) of a source.
func lineErrorf(name string, line int, format string, a ...any) error {
	return inputError{&lineError{name, line, 0, fmt.Sprintf(format, a...)}}
}

// parseKafkaSpec reads a kafka diagram's source: "key: value" lines (keys kafkaKeys; "#"
// starts a comment line) and, after a line "hex:" (or "hex: …"), the hex of one frame in any
// form decode reads. A source whose first line is not such a key is all hex. Linear in src.
func parseKafkaSpec(name string, src []byte) (*kafkaSpec, error) {
	s := &kafkaSpec{lines: map[string]int{}}
	rest := src
	for line := 1; len(rest) > 0; line++ {
		text := rest
		next := []byte(nil)
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			text, next = rest[:i], rest[i+1:]
		}
		t := strings.TrimSpace(string(text))
		if t == "" || strings.HasPrefix(t, "#") {
			rest = next
			continue
		}
		key, value, ok := strings.Cut(t, ":")
		key = strings.ToLower(strings.TrimSpace(key))
		if !ok || !isWord(key) {
			if len(s.lines) == 0 {
				s.Hex, s.HexLine = src, 1 // no key: the source is hex
				return s, nil
			}
			return nil, &lineError{name, line, 1, fmt.Sprintf("want \"key: value\" (keys %s, then hex:), have %q", strings.Join(kafkaKeys, ", "), clip(t))}
		}
		keyCol := 1 + len(text) - len(bytes.TrimLeft(text, " \t"))
		colon := bytes.IndexByte(text, ':')
		valCol := colon + 2 + len(text[colon+1:]) - len(bytes.TrimLeft(text[colon+1:], " \t"))
		value = strings.TrimSpace(value)
		if key == "hex" {
			s.HexLine = line
			s.Hex = append([]byte(value+"\n"), next...)
			return s, nil
		}
		if prev, dup := s.lines[key]; dup {
			return nil, &lineError{name, line, keyCol, fmt.Sprintf("%s given twice (first on line %d)", key, prev)}
		}
		col := valCol
		if !contains(kafkaKeys, key) {
			col = keyCol
		}
		if err := s.set(key, value); err != nil {
			return nil, &lineError{name, line, col, err.Error()}
		}
		s.lines[key] = line
		rest = next
	}
	if s.API == "" {
		return nil, &lineError{name, 1, 1, "no api: name the API (api: Produce) or give the hex of a frame (hex: 00 00 …)"}
	}
	return s, nil
}

// set sets key to value, checking it.
func (s *kafkaSpec) set(key, value string) error {
	switch key {
	case "api":
		if value == "" {
			return errors.New("api: want an API name or key, such as Produce or 0")
		}
		s.API = value
	case "version":
		v, err := strconv.ParseInt(strings.TrimPrefix(value, "v"), 10, 16)
		if err != nil || v < 0 {
			return fmt.Errorf("version %q: want a version number such as 9", value)
		}
		s.Version, s.HasVersion = int(v), true
	case "side":
		if value != "request" && value != "response" {
			return fmt.Errorf("side %q: want request or response", value)
		}
		s.Side = value
	case "release":
		if value == "" || strings.ContainsAny(value, `/\`) || value == "." || value == ".." {
			return fmt.Errorf("release %q: want a release such as 4.0", value)
		}
		s.Release = value
	case "view":
		if value != "grid" && value != "tree" {
			return fmt.Errorf("view %q: want grid or tree", value)
		}
		s.View = value
	default:
		msg := fmt.Sprintf("unknown key %q (want %s, or hex:)", key, strings.Join(kafkaKeys, ", "))
		if c := closest(key, append(kafkaKeys, "hex")); c != "" {
			msg += "; did you mean " + c + "?"
		}
		return errors.New(msg)
	}
	return nil
}

func isWord(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if (r < 'a' || r > 'z') && r != '_' && r != '-' {
			return false
		}
	}
	return true
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

func (d *drawer) drawKafka(format, name string, src []byte, opts map[string]string, do drawOptions) (*diagramOut, error) {
	s, err := parseKafkaSpec(name, src)
	if err != nil {
		return nil, inputError{err}
	}
	for _, k := range sortedKeys(opts) {
		if !contains(kafkaKeys, k) {
			continue // as Kroki, options a type does not know are ignored (clients send their own)
		}
		v := opts[k]
		if line, set := s.lines[k]; set {
			var probe kafkaSpec
			if err := probe.set(k, v); err != nil {
				return nil, inputErrorf("option %s: %v", k, err)
			}
			if fmt.Sprint(field(&probe, k)) != fmt.Sprint(field(s, k)) {
				return nil, inputErrorf("option %s=%q disagrees with %s:%d, which says %v", k, v, name, line, field(s, k))
			}
			continue
		}
		if err := s.set(k, v); err != nil {
			return nil, inputErrorf("option %s: %v", k, err)
		}
	}
	cats, def, err := d.catalogs()
	if err != nil {
		return nil, fmt.Errorf("kafka: %w", err)
	}
	if len(cats) == 0 {
		return nil, inputErrorf("kafka diagrams need Kafka's schemas, and none were given (-schemas PATH or KAFKA_SCHEMAS)")
	}
	rel := s.Release
	if rel == "" {
		rel = def
	}
	cat, ok := cats[rel]
	if !ok { // release: 4.0 names a jar's 4.0.0 when that is the only 4.0.x read
		var like []string
		for name := range cats {
			if strings.HasPrefix(name, rel+".") {
				like = append(like, name)
			}
		}
		if len(like) == 1 {
			cat, ok = cats[like[0]], true
		}
	}
	if !ok {
		return nil, lineErrorf(name, max(1, s.lines["release"]), "release %q: the schemas read have %s", rel, strings.Join(sortedKeys(cats), ", "))
	}
	so := reference.ShowOptions{Response: s.Side == "response", Tree: s.View == "tree", Inline: do.Inline, IDPrefix: do.IDPrefix, Date: d.date}
	if so.Format, ok = reference.FormatNamed(format); !ok || !contains(typeFormats[typeKafka], format) {
		return nil, inputErrorf("unsupported output format %q for %s (want %s)", format, typeKafka, strings.Join(typeFormats[typeKafka], ", "))
	}
	if s.Hex != nil {
		return d.drawFrame(cat, s, name, so)
	}
	a, ok := cat.Lookup(s.API)
	if !ok {
		return nil, lineErrorf(name, max(1, s.lines["api"]), "%v", noAPI("api", cat, s.API))
	}
	if s.HasVersion {
		if !a.Request.ValidIn(int16(s.Version)) {
			return nil, lineErrorf(name, max(1, s.lines["version"]), "%s v%d is not a version of Kafka %s (valid: %s)", a.Name, s.Version, cat.Release.Name(), a.Request.ValidVersions)
		}
		so.Version, so.HasVersion = int16(s.Version), true
	}
	var buf bytes.Buffer
	if err := reference.Show(&buf, cat, a, so); err != nil {
		return nil, fmt.Errorf("kafka: %w", err)
	}
	v := a.Version
	if so.HasVersion {
		v = so.Version
	}
	side := "request"
	if so.Response {
		side = "response"
	}
	return &diagramOut{Data: buf.Bytes(), Title: fmt.Sprintf("%s v%d %s", a.Name, v, side)}, nil
}

// drawFrame decodes the hex of one frame and draws it.
func (d *drawer) drawFrame(cat *kafka.Catalog, s *kafkaSpec, name string, so reference.ShowOptions) (*diagramOut, error) {
	data, err := capture.ParseHex(s.Hex)
	if err != nil {
		return nil, lineErrorf(name, max(1, s.HexLine), "hex: %v", err)
	}
	if len(data) == 0 {
		return nil, lineErrorf(name, max(1, s.HexLine), "hex: no bytes")
	}
	var api *kafka.API
	if s.API != "" {
		var ok bool
		if api, ok = cat.Lookup(s.API); !ok {
			return nil, lineErrorf(name, max(1, s.lines["api"]), "%v", noAPI("api", cat, s.API))
		}
	}
	var fr *kafka.Frame
	if s.Side == "response" {
		if api == nil {
			return nil, lineErrorf(name, max(1, s.lines["side"]), "a response's hex needs api: (and version:, else the highest)")
		}
		v := api.Version
		if s.HasVersion {
			v = int16(s.Version)
		}
		fr, err = cat.Decode(data, kafka.DecodeOptions{Response: true, API: api, Version: v, MaxNodes: d.maxFields})
		if err != nil {
			return nil, lineErrorf(name, max(1, s.HexLine), "hex: %v", err)
		}
	} else {
		o := capture.Options{Name: name, MaxNodes: d.maxFields, API: api}
		if s.HasVersion {
			o.Version, o.HaveVersion = int16(s.Version), true
		}
		r, err := capture.Read(cat, data, o)
		if err != nil {
			return nil, lineErrorf(name, max(1, s.HexLine), "hex: %v", err)
		}
		msgs := messages(r)
		if len(msgs) != 1 {
			return nil, lineErrorf(name, max(1, s.HexLine), "hex: %d frames (%s); a diagram draws one", len(msgs), strings.TrimPrefix(notesText(r), " "))
		}
		if msgs[0].Err != nil {
			return nil, lineErrorf(name, max(1, s.HexLine), "hex: %v%s", msgs[0].Err, otherRelease(cat, msgs[0].Bytes))
		}
		if fr = msgs[0].Frame; fr == nil {
			return nil, lineErrorf(name, max(1, s.HexLine), "hex: not a Kafka frame")
		}
	}
	if s.Side == "request" && fr.Response {
		return nil, lineErrorf(name, max(1, s.lines["side"]), "side: request, but the hex is a response")
	}
	var buf bytes.Buffer
	if err := reference.ShowFrame(&buf, cat, fr, nil, so); err != nil {
		return nil, fmt.Errorf("kafka: %w", err)
	}
	side := "request"
	if fr.Response {
		side = "response"
	}
	return &diagramOut{Data: buf.Bytes(), Title: fmt.Sprintf("%s v%d %s", fr.API.Name, fr.Version, side)}, nil
}

func field(s *kafkaSpec, key string) any {
	switch key {
	case "api":
		return s.API
	case "version":
		return s.Version
	case "side":
		return s.Side
	case "release":
		return s.Release
	case "view":
		return s.View
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// parseBoolOption reads a flag option: present without a value means true.
func parseBoolOption(v string) (bool, error) {
	if v == "" {
		return true, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, errors.New("want true or false")
	}
	return b, nil
}

// loadCatalogs reads the schemas as every verb finds them, and when -schemas or KAFKA_SCHEMAS
// is a folder of releases, every release in it (a diagram's release: picks one; -release, else
// 4.0, else the last, is the default). With no schemas given at all, optional makes that no
// error: the result is empty (bytegrid diagrams need none).
func loadCatalogs(ctx context.Context, sf *schemaFlags, stderr io.Writer, optional bool) (map[string]*kafka.Catalog, string, error) {
	path := *sf.schemas
	if path == "" && *sf.ref == "" {
		path = os.Getenv("KAFKA_SCHEMAS")
	}
	if path != "" {
		if fi, err := os.Stat(path); err == nil && fi.IsDir() && !isReleaseDir(path) && len(schemas.InstallJars(path)) == 0 {
			rels, err := releasesIn(path)
			if err != nil {
				return nil, "", err
			}
			if len(rels) == 0 {
				_, _, err := sf.load(ctx, stderr) // its error says what the folder lacks
				return nil, "", err
			}
			def := *sf.release
			switch {
			case def != "" && !contains(rels, def):
				return nil, "", fmt.Errorf("%s has no release %q (it has %s)", path, def, strings.Join(rels, ", "))
			case def == "" && contains(rels, defaultRelease):
				def = defaultRelease
			case def == "":
				def = rels[len(rels)-1]
			}
			cats := map[string]*kafka.Catalog{}
			for _, rel := range rels {
				if err := ctx.Err(); err != nil {
					return nil, "", err
				}
				r, err := schemas.Open(filepath.Join(path, rel))
				if err != nil {
					return nil, "", err
				}
				if !*sf.quiet {
					for _, n := range r.Notes() {
						fmt.Fprintln(stderr, n)
					}
				}
				c, err := kafka.NewCatalog(r)
				if err != nil {
					return nil, "", err
				}
				cats[rel] = c
			}
			return cats, def, nil
		}
	}
	cat, _, err := sf.load(ctx, stderr)
	if err != nil {
		var u usageError
		if optional && *sf.schemas == "" && *sf.ref == "" && path == "" && errors.As(err, &u) && strings.HasPrefix(err.Error(), "no Kafka schemas") {
			return nil, "", nil
		}
		return nil, "", err
	}
	name := cat.Release.Name()
	return map[string]*kafka.Catalog{name: cat}, name, nil
}
