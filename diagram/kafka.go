package diagram

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/kafkagrid/kafkagrid/internal/suggest"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/kafkagrid/kafkagrid/capture"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site/reference"
)

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
			return nil, &Error{name, line, 1, fmt.Sprintf("want \"key: value\" (keys %s, then hex:), have %q", strings.Join(kafkaKeys, ", "), clip(t))}
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
			return nil, &Error{name, line, keyCol, fmt.Sprintf("%s given twice (first on line %d)", key, prev)}
		}
		col := valCol
		if !slices.Contains(kafkaKeys, key) {
			col = keyCol
		}
		if err := s.set(key, value); err != nil {
			return nil, &Error{name, line, col, err.Error()}
		}
		s.lines[key] = line
		rest = next
	}
	if s.API == "" {
		return nil, &Error{name, 1, 1, "no api: name the API (api: Produce) or give the hex of a frame (hex: 00 00 …)"}
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
			return fmt.Errorf("version %q: want a version number such as 9", clip(value))
		}
		s.Version, s.HasVersion = int(v), true
	case "side":
		if value != "request" && value != "response" {
			return fmt.Errorf("side %q: want request or response", clip(value))
		}
		s.Side = value
	case "release":
		if value == "" || strings.ContainsAny(value, `/\`) || value == "." || value == ".." {
			return fmt.Errorf("release %q: want a release such as 4.0", clip(value))
		}
		s.Release = value
	case "view":
		if value != "grid" && value != "tree" {
			return fmt.Errorf("view %q: want grid or tree", clip(value))
		}
		s.View = value
	default:
		msg := fmt.Sprintf("unknown key %q (want %s, or hex:)", clip(key), strings.Join(kafkaKeys, ", "))
		if c := suggest.Closest(key, append(kafkaKeys, "hex")); c != "" {
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

func (s *kafkaSpec) field(key string) any {
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

func (d *Drawer) drawKafka(r Request) (*Drawing, error) {
	name := r.Name
	s, err := parseKafkaSpec(name, r.Source)
	if err != nil {
		return nil, &InputError{err}
	}
	for _, k := range slices.Sorted(maps.Keys(r.Options)) {
		if !slices.Contains(kafkaKeys, k) {
			continue // as Kroki, options a type does not know are ignored (clients send their own)
		}
		v := r.Options[k]
		if line, set := s.lines[k]; set {
			var probe kafkaSpec
			if err := probe.set(k, v); err != nil {
				return nil, inputErrorf("option %s: %v", k, err)
			}
			if fmt.Sprint(probe.field(k)) != fmt.Sprint(s.field(k)) {
				return nil, inputErrorf("option %s=%q disagrees with %s:%d, which says %v", k, clip(v), name, line, s.field(k))
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
		return nil, lineErrorf(name, max(1, s.lines["release"]), "release %q: the schemas read have %s", rel, strings.Join(slices.Sorted(maps.Keys(cats)), ", "))
	}
	so := reference.ShowOptions{Response: s.Side == "response", Tree: s.View == "tree", Inline: r.Inline, IDPrefix: r.IDPrefix, Date: d.Date, Theme: r.Options["theme"]}
	if so.Format, ok = reference.FormatNamed(r.Format); !ok {
		return nil, inputErrorf("unsupported output format %q for %s (want %s)", clip(r.Format), Kafka, strings.Join(Formats(Kafka), ", "))
	}
	if s.Hex != nil {
		return d.drawFrame(cat, s, name, so)
	}
	a, ok := cat.Lookup(s.API)
	if !ok {
		return nil, lineErrorf(name, max(1, s.lines["api"]), "%v", noAPI(cat, s.API))
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
	return &Drawing{Data: buf.Bytes(), Title: fmt.Sprintf("%s v%d %s", a.Name, v, side)}, nil
}

// drawFrame decodes the hex of one frame and draws it. Only the first frame of the bytes is
// decoded (capture.Options.MaxFrames 1): the frames after it are counted, cheaply, for the
// error, so that a short source whose text expands to many frames costs one frame's decoding.
func (d *Drawer) drawFrame(cat *kafka.Catalog, s *kafkaSpec, name string, so reference.ShowOptions) (*Drawing, error) {
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
			return nil, lineErrorf(name, max(1, s.lines["api"]), "%v", noAPI(cat, s.API))
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
		fr, err = cat.Decode(data, kafka.DecodeOptions{Response: true, API: api, Version: v, MaxNodes: d.maxFields()})
		if err != nil {
			return nil, lineErrorf(name, max(1, s.HexLine), "hex: %v", err)
		}
	} else {
		o := capture.Options{Name: name, MaxNodes: d.maxFields(), API: api, MaxFrames: 1, Binary: true}
		if s.HasVersion {
			o.Version, o.HaveVersion = int16(s.Version), true
		}
		r, err := capture.Read(cat, data, o)
		if err != nil {
			return nil, lineErrorf(name, max(1, s.HexLine), "hex: %v", err)
		}
		msgs := messages(r)
		if n := len(msgs) + r.Unlisted; n != 1 {
			return nil, lineErrorf(name, max(1, s.HexLine), "hex: %d frames; a diagram draws one", n)
		}
		if msgs[0].Err != nil {
			return nil, lineErrorf(name, max(1, s.HexLine), "hex: %v%s", msgs[0].Err, kafka.OtherReleaseHint(cat, msgs[0].Bytes))
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
	return &Drawing{Data: buf.Bytes(), Title: fmt.Sprintf("%s v%d %s", fr.API.Name, fr.Version, side)}, nil
}

// messages lists the messages of r in report order.
func messages(r *capture.Result) []*capture.Message {
	var out []*capture.Message
	for _, c := range r.Conns {
		for _, e := range c.Exchanges {
			for _, m := range []*capture.Message{e.Request, e.Response} {
				if m != nil {
					out = append(out, m)
				}
			}
		}
	}
	return out
}

// noAPI is the error for an API name or key the catalogue lacks.
func noAPI(cat *kafka.Catalog, nameOrKey string) error {
	msg := fmt.Sprintf("api: no API %q in Kafka %s", clip(nameOrKey), cat.Release.Name())
	if key, names, rels, ok := kafka.KnownAPI(nameOrKey); ok && len(rels) > 0 {
		return fmt.Errorf("%s; API key %d (%s) is in Kafka %s: try -release %s", msg, key, strings.Join(names, ", "),
			strings.Join(rels, ", "), rels[len(rels)-1])
	}
	var names []string
	for _, a := range cat.APIs {
		names = append(names, a.Name)
	}
	if s := suggest.Closest(nameOrKey, names); s != "" {
		return fmt.Errorf("%s; did you mean %s?", msg, s)
	}
	return fmt.Errorf("%s (kafkagrid list shows them)", msg)
}
