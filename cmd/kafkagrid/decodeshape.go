package main

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/kafkagrid/kafkagrid/capture"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/schemas"
)

// A frame as fixtures and logs have it may be whole, lack its size prefix, or be its body
// alone; a response alone does not say its API or version. decodeShapes finds out: the shapes
// the bytes can be, and the versions (of this release, and of the other releases of the
// schemas folder) that read them whole, best first.

// maxSearchAll bounds the input for which every API is tried (no -api): a few thousand
// decodes of at most this many bytes.
const maxSearchAll = 64 << 10

// relCat is one release's catalogue.
type relCat struct {
	name string
	cat  *kafka.Catalog
}

// shapeSearch is what decode knows before it reads the bytes.
type shapeSearch struct {
	cat       *kafka.Catalog
	others    func() []relCat         // the other releases of the schemas folder, newest first (loaded once, when needed)
	flagFor   func(rel string) string // the flag that picks a release ("-release 3.9")
	apiName   string                  // -api, or ""
	version   int                     // -version, or -1
	request   bool                    // -request
	response  bool                    // -response
	maxFields int
}

// candidate is one reading of the bytes: an API version, side and shape that decodes them whole.
type candidate struct {
	rel     relCat
	api     *kafka.API
	version int16
	resp    bool
	shape   kafka.Shape
	frame   *kafka.Frame
	err     error // for the closest failure
	at      int   // how far the failure got, to rank failures
	off     int   // the failure's offset
	penalty int   // implausible values (unknown error codes, control bytes in strings)
	words   int   // plausible ones: strings of printable text
}

func (c *candidate) name() string {
	side := "request"
	if c.resp {
		side = "response"
	}
	return fmt.Sprintf("%s v%d %s", c.api.Name, c.version, side)
}

func (s *shapeSearch) flag(rel string) string {
	if s.flagFor == nil {
		return "-release " + rel
	}
	return s.flagFor(rel)
}

// releases is this release, then the others.
func (s *shapeSearch) releases() []relCat {
	out := []relCat{{s.cat.Release.Name(), s.cat}}
	if s.others != nil {
		out = append(out, s.others()...)
	}
	return out
}

// search decodes data in one shape as every version of the API asked (or of every API, for a
// small input), on the sides asked, in every release; it returns the readings that decode
// whole, best first, and the closest failure.
func (s *shapeSearch) search(data []byte, shape kafka.Shape, requests, responses bool) (fits []*candidate, closest *candidate) {
	tried := map[string]bool{}
	for ri, rc := range s.releases() {
		var apis []*kafka.API
		if s.apiName != "" {
			if a, ok := rc.cat.Lookup(s.apiName); ok {
				apis = []*kafka.API{a}
			}
		} else if len(data) <= maxSearchAll {
			apis = rc.cat.APIs
		}
		for _, a := range apis {
			for _, resp := range []bool{false, true} {
				if resp && !responses || !resp && !requests {
					continue
				}
				spec := a.Request
				if resp {
					spec = a.Response
				}
				for v := a.Version; v >= 0; v-- {
					if !spec.ValidIn(v) || s.version >= 0 && int(v) != s.version {
						continue
					}
					key := fmt.Sprintf("%s/%d/%v", a.Name, v, resp)
					if tried[key] {
						continue
					}
					tried[key] = true
					o := kafka.DecodeOptions{Response: resp, API: a, Version: v, Shape: shape, MaxNodes: s.maxFields}
					if !resp && shape != kafka.ShapeBody {
						// A request's header names its API: only the one it names.
						at := 0
						if shape == kafka.ShapeFrame {
							at = 4
						}
						if len(data) < at+4 || int16(binary.BigEndian.Uint16(data[at:])) != a.Key || int16(binary.BigEndian.Uint16(data[at+2:])) != v {
							continue
						}
					}
					f, err := rc.cat.Decode(data, o)
					c := &candidate{rel: rc, api: a, version: v, resp: resp, shape: shape, frame: f, err: err}
					if err == nil {
						c.penalty, c.words = plausibility(f.Root)
						fits = append(fits, c)
						continue
					}
					if ke, ok := err.(*kafka.Error); ok {
						c.at, c.off = ke.Offset, ke.Offset
						m := ke.Err.Error()
						if strings.Contains(m, "left unread") || strings.Contains(m, "after the end of the frame") {
							// The fields ended early: as close as the bytes it explains.
							c.at -= len(data) - ke.Offset
						}
						if strings.Contains(m, "CRC") && strings.Contains(m, "give") {
							// The fields fit; only a checksum differs: the closest of all.
							c.at = len(data)
						}
					}
					if closest == nil || c.at > closest.at || c.at == closest.at && ri < slices.IndexFunc(s.releases(), func(r relCat) bool { return r.name == closest.rel.name }) {
						closest = c
					}
				}
			}
		}
	}
	order := map[string]int{}
	for i, r := range s.releases() {
		order[r.name] = i
	}
	slices.SortStableFunc(fits, func(a, b *candidate) int {
		if a.penalty != b.penalty {
			return a.penalty - b.penalty
		}
		if a.words != b.words {
			return b.words - a.words
		}
		if oa, ob := order[a.rel.name], order[b.rel.name]; oa != ob {
			return oa - ob
		}
		if a.api.Name != b.api.Name {
			return strings.Compare(a.api.Name, b.api.Name)
		}
		return int(b.version) - int(a.version)
	})
	return fits, closest
}

// plausibility counts values a real frame seldom has (penalty: error codes Kafka does not
// define, strings with control bytes or invalid UTF-8) and those that show a reading is right
// (words: strings of printable text, as names and ids are).
func plausibility(n *kafka.Node) (penalty, words int) {
	if n.Kind != kafka.KindFrame {
		switch v := n.Raw.(type) {
		case int64:
			if strings.HasSuffix(n.Name, "ErrorCode") {
				if _, ok := kafka.LookupErrorCode(int16(v)); !ok {
					penalty++
				}
			}
		case string:
			switch {
			case !utf8.ValidString(v) || strings.IndexFunc(v, func(r rune) bool { return r < 0x20 && r != '\n' && r != '\t' }) >= 0:
				penalty++
			case v != "":
				words++
			}
		}
	}
	for _, c := range n.Children {
		p, w := plausibility(c)
		penalty, words = penalty+p, words+w
	}
	return penalty, words
}

// leafText appends the path and value of every leaf of n.
func leafText(n *kafka.Node, b []byte) []byte {
	if len(n.Children) == 0 {
		b = append(append(append(b, n.Path...), '='), n.Value...)
		return append(b, '\n')
	}
	for _, c := range n.Children {
		b = leafText(c, b)
	}
	return b
}

// chains reports whether data is whole frames back to back: each int32 size at least 4,
// the last ending where data ends.
func chains(data []byte) bool {
	off := 0
	for off < len(data) {
		if len(data)-off < 4 {
			return false
		}
		size := int32(binary.BigEndian.Uint32(data[off:]))
		if size < 4 || int(size) > len(data)-off-4 {
			return false
		}
		off += 4 + int(size)
	}
	return len(data) > 0
}

// lone is a Result of one message, as decode prints it.
func lone(kind capture.Kind, data []byte, c *candidate, notes []string) *capture.Result {
	// Secrets are replaced here as capture.Read replaces them (kafka.Redact).
	if secrets := kafka.Redact(c.frame); len(secrets) > 0 {
		data = c.frame.Bytes
		notes = append(notes, capture.RedactedNote+": "+strings.Join(secrets, "; "))
	}
	m := &capture.Message{Frame: c.frame, Bytes: data, Err: c.err}
	e := &capture.Exchange{}
	if c.resp {
		e.Response = m
	} else {
		e.Request = m
	}
	return &capture.Result{Kind: kind, Notes: notes, Conns: []*capture.Conn{{ID: 1, Exchanges: []*capture.Exchange{e}}}}
}

// describe says which readings fit, and which release and flags they need.
func (s *shapeSearch) describe(fits []*candidate, asked string) string {
	var b strings.Builder
	best := fits[0]
	if len(fits) == 1 {
		fmt.Fprintf(&b, "the only reading of these bytes (%s) that decodes them whole: %s", asked, best.name())
	} else {
		names := make([]string, 0, min(len(fits), 12))
		bestLeaves := leafText(best.frame.Root, nil)
		mixed := slices.ContainsFunc(fits, func(f *candidate) bool { return f.shape != best.shape })
		if mixed {
			asked = "in any shape"
		}
		for i, f := range fits {
			if i == 12 {
				names = append(names, fmt.Sprintf("and %d more", len(fits)-12))
				break
			}
			n := f.name()
			if mixed {
				n += map[kafka.Shape]string{kafka.ShapeFrame: " (whole frame)", kafka.ShapeNoSize: " (no size prefix)", kafka.ShapeBody: " (body only)"}[f.shape]
			}
			if f.rel.name != s.cat.Release.Name() {
				n += " (Kafka " + f.rel.name + ")"
			}
			if i > 0 && len(best.frame.Bytes) <= maxSearchAll && f.api == best.api && string(leafText(f.frame.Root, nil)) == string(bestLeaves) {
				n += " (the same fields and values)"
			}
			names = append(names, n)
		}
		give := "-api NAME -version N"
		if s.apiName != "" {
			give = "-version N"
		}
		fmt.Fprintf(&b, "%d readings of these bytes (%s) decode them whole, best first: %s; decoded as the first: give %s to choose another",
			len(fits), asked, strings.Join(names, ", "), give)
	}
	b.WriteString(s.releaseNote(best))
	return b.String()
}

// releaseNote names the release a reading comes from when it is not this one, and the flag.
func (s *shapeSearch) releaseNote(c *candidate) string {
	if c.rel.name == s.cat.Release.Name() {
		return ""
	}
	return "; " + capture.ReleaseNote(s.cat, c.api.Name, c.version, c.rel.name, s.flag(c.rel.name))
}

// readShapes reads data (frames, or bytes parsed from text) in the shapes the flags allow:
// whole frames as capture.Read does, and when that leaves one frame undecoded, the other
// versions, APIs and releases that read it; bytes that are no whole frames without their size
// prefix, then as a body alone. notes (what the text was read as) come first in the Result's.
func (s *shapeSearch) readShapes(data []byte, kind capture.Kind, o capture.Options, noSize, body bool, notes []string) (*capture.Result, error) {
	requests, responses := !s.response, !s.request
	if len(data) == 0 {
		o.Binary = true
		return capture.Read(s.cat, data, o) // no frames: nothing to search
	}
	// Every reading searched for is a fallback: what looks like a SASL secret is masked first
	// (kafka.MaskAuth), so that no guess, partial tree or hex dump shows it.
	whole := data
	data, masked := kafka.MaskAuth(data)
	withMask := func(notes []string) []string {
		if masked == nil {
			return notes
		}
		return append(slices.Clip(notes), capture.RedactedNote+": "+strings.Join(masked, "; "))
	}
	var asked string
	switch {
	case body:
		asked = "body only, no size and no header"
		fits, closest := s.search(data, kafka.ShapeBody, requests, responses)
		return s.pick(kind, data, fits, closest, asked, withMask(notes))
	case noSize:
		asked = "without the size prefix"
		fits, closest := s.search(data, kafka.ShapeNoSize, requests, responses && (s.apiName != "" || len(data) <= maxSearchAll))
		return s.pick(kind, data, fits, closest, asked, withMask(notes))
	case s.response && s.apiName != "" && chains(data):
		asked = "a whole response frame"
		fits, closest := s.search(data, kafka.ShapeFrame, false, true)
		return s.pick(kind, data, fits, closest, asked, withMask(notes))
	}
	if chains(data) {
		if len(notes) > 0 && strings.HasPrefix(notes[0], "read as ") {
			notes = append([]string{notes[0] + ": whole frames, each with its size prefix"}, notes[1:]...)
		}
		o.Binary = true
		r, err := capture.Read(s.cat, whole, o)
		if err != nil {
			return nil, err
		}
		r.Notes = append(notes, r.Notes...)
		msgs := messages(r)
		loneResponse := len(r.Conns) == 1 && len(r.Conns[0].Exchanges) == 1 && r.Conns[0].Exchanges[0].Request == nil
		if len(msgs) != 1 || msgs[0].Err == nil && !(loneResponse && s.apiName != "" && s.version < 0) ||
			errors.Is(msgs[0].Err, kafka.ErrTooManyFields) || errors.Is(msgs[0].Err, kafka.ErrDecompressedTooLarge) {
			return r, nil // decoded (a response alone with its version given), or stopped by a limit no other reading would lift
		}
		// One frame that did not decode: another version, another API, another release.
		fits, closest := s.search(data, kafka.ShapeFrame, true, !s.request)
		if len(fits) == 0 && (closest == nil || s.apiName == "" && closest.at < len(data)*3/4) {
			return r, nil // nothing close: what capture.Read said stands
		}
		if len(fits) == 0 && !s.response && capture.HeaderRefused(msgs[0].Err) {
			// A request of a version no release here has: what its header says, and which
			// releases have it, rather than the closest of readings that all fail.
			if n, newest := capture.KnownElsewhere(s.cat, data); n != "" {
				give := s.flag(newest)
				if !strings.HasPrefix(give, "-kafka") {
					give += " (or -kafka " + newest + ")"
				}
				r.Notes = append(withMask(r.Notes), n+": give "+give+" to decode it")
				return r, nil
			}
		}
		return s.pick(kind, data, fits, closest, "a whole frame", withMask(r.Notes))
	}
	// Not whole frames: without the size prefix, then a body alone.
	// A request without its size names its API and version in its header: when one reads so,
	// that is the reading. Else bodies and responses without their size (whose correlation id
	// can pass for a body's first field) are weighed together, bodies first.
	var closest *candidate
	var fits []*candidate
	for _, st := range []struct {
		shape     kafka.Shape
		req, resp bool
	}{{kafka.ShapeNoSize, requests, false}, {kafka.ShapeBody, requests, responses}, {kafka.ShapeNoSize, false, responses}} {
		f, cl := s.search(data, st.shape, st.req, st.resp)
		if closest == nil || cl != nil && cl.at > closest.at {
			closest = cl
		}
		fits = append(fits, f...)
		if len(fits) > 0 && st.shape == kafka.ShapeNoSize && st.req {
			break
		}
	}
	if len(fits) > 0 {
		slices.SortStableFunc(fits, func(a, b *candidate) int {
			if a.penalty != b.penalty {
				return a.penalty - b.penalty
			}
			return b.words - a.words
		})
		return s.pick(kind, data, fits, nil, "", withMask(notes))
	}
	o.Binary = true
	r, err := capture.Read(s.cat, whole, o)
	if err != nil {
		return nil, err
	}
	what := "of any API"
	if s.apiName != "" {
		what = "of " + s.apiName
	}
	if s.apiName == "" && len(data) > maxSearchAll {
		what = fmt.Sprintf("of the API given (-api; every API is tried for at most %d KiB)", maxSearchAll>>10)
	}
	n := fmt.Sprintf("nor do the bytes read as a frame without its size prefix or as a body alone, at any version %s (-no-size, -body)", what)
	if closest != nil {
		n += fmt.Sprintf("; the closest, %s %s, fails: %v", closest.name(), closest.shape, closest.err)
	}
	r.Notes = append(append(notes, r.Notes...), n)
	return r, nil
}

// pick decodes the best reading, or reports the closest failure.
func (s *shapeSearch) pick(kind capture.Kind, data []byte, fits []*candidate, closest *candidate, asked string, notes []string) (*capture.Result, error) {
	if len(fits) > 0 {
		best := fits[0]
		if len(fits) == 1 && s.apiName != "" && s.version >= 0 && best.rel.name == s.cat.Release.Name() {
			notes = append(notes, fmt.Sprintf("read as %s, %s, as asked", best.name(), best.shape))
		} else {
			notes = append(notes, s.describe(fits, best.shape.String()))
		}
		return lone(kind, data, best, notes), nil
	}
	what := "any API"
	if s.apiName != "" {
		what = s.apiName
		if _, ok := s.cat.Lookup(s.apiName); !ok {
			what += " (not in Kafka " + s.cat.Release.Name() + ")"
		}
	}
	if closest == nil {
		if s.apiName == "" && len(data) > maxSearchAll {
			return nil, fmt.Errorf("the bytes are %d bytes, more than the %d KiB for which every API is tried: give -api NAME", len(data), maxSearchAll>>10)
		}
		if s.version >= 0 {
			var ranges []string
			for _, r := range s.releases() {
				if a, ok := r.cat.Lookup(s.apiName); ok {
					spec := a.Response
					if s.request {
						spec = a.Request
					}
					ranges = append(ranges, fmt.Sprintf("%s in Kafka %s", spec.ValidVersions, r.name))
				}
			}
			if len(ranges) > 0 {
				return nil, fmt.Errorf("%s version %d is not valid (%s)", s.apiName, s.version, strings.Join(ranges, "; "))
			}
			return nil, fmt.Errorf("no version %d of %s as %s in Kafka %s", s.version, what, asked, relNames(s.releases()))
		}
		return nil, fmt.Errorf("no version of %s as %s in Kafka %s", what, asked, relNames(s.releases()))
	}
	rel := "Kafka " + closest.rel.name
	if closest.rel.name != s.cat.Release.Name() {
		rel += ", " + s.flag(closest.rel.name)
	}
	notes = append(notes, fmt.Sprintf("no version of %s (Kafka %s) reads these bytes (%s) whole; the closest is %s (%s), which fails at offset %d",
		what, relNames(s.releases()), asked, closest.name(), rel, closest.off))
	return lone(kind, data, closest, notes), nil
}

func relNames(rs []relCat) string {
	names := make([]string, len(rs))
	for i, r := range rs {
		names[i] = r.name
	}
	return strings.Join(names, ", ")
}

// siblingReleases returns a loader of the other releases beside the one decode uses, when the
// schemas came from a folder of releases (-schemas DIR, $KAFKA_SCHEMAS or the download cache)
// or from one release's folder beside others (-schemas DIR/4.0): newest first, each loaded
// once, those that do not load left out; and the flag that picks one of them.
func siblingReleases(sf *schemaFlags, src source) (func() []relCat, func(rel string) string) {
	flagName, given := "-schemas", *sf.schemas
	if given == "" && *sf.ref == "" {
		flagName, given = "KAFKA_SCHEMAS=", os.Getenv("KAFKA_SCHEMAS")
	}
	parent := filepath.Dir(filepath.Clean(src.path))
	flag := func(rel string) string { return "-release " + rel }
	switch {
	case *sf.ref != "":
		flag = func(rel string) string { return "-kafka " + rel }
	case given != "" && filepath.Clean(given) == parent:
	case given != "" && filepath.Clean(given) == filepath.Clean(src.path) && siblings(parent) > 1:
		// One release's folder among others: name the other's folder.
		dir := filepath.Dir(given)
		flag = func(rel string) string {
			if flagName == "-schemas" {
				return "-schemas " + filepath.Join(dir, rel)
			}
			return flagName + filepath.Join(dir, rel)
		}
	default:
		return nil, flag // a jar, an installation, or a release alone
	}
	var loaded []relCat
	done := false
	return func() []relCat {
		if done {
			return loaded
		}
		done = true
		rels, _ := releasesIn(parent) // a link that dangles or loops: left out, as a release that does not load
		slices.Reverse(rels)
		for _, rel := range rels {
			if filepath.Join(parent, rel) == filepath.Clean(src.path) {
				continue
			}
			r, err := schemas.Open(filepath.Join(parent, rel))
			if err != nil {
				continue
			}
			c, err := kafka.NewCatalog(r)
			if err != nil {
				continue
			}
			loaded = append(loaded, relCat{rel, c})
		}
		return loaded
	}, flag
}

// siblings counts the releases in parent, a release's folder's (the links that dangle or loop
// left out).
func siblings(parent string) int {
	rels, _ := releasesIn(parent)
	return len(rels)
}

// elsewhere reports whether another release of the schemas folder has the API.
func (s *shapeSearch) elsewhere(name string) bool {
	for _, r := range s.releases()[1:] {
		if _, ok := r.cat.Lookup(name); ok {
			return true
		}
	}
	return false
}

// read reads decode's input: a capture as capture.Read does; text in the form given or told
// by its content (capture.ParseText), saying which; then the bytes in the shapes they can be.
func (s *shapeSearch) read(data []byte, binaryIn bool, form capture.Form, o capture.Options, noSize, body bool) (*capture.Result, error) {
	if capture.IsPcap(data) {
		return capture.Read(s.cat, data, o)
	}
	kind := capture.KindFrames
	var notes []string
	if !binaryIn && (form != capture.FormAuto || capture.LooksLikeText(data)) {
		t, err := capture.ParseText(data, form)
		if err != nil {
			return nil, err
		}
		notes = append([]string{"read as " + t.Detail}, t.Notes...)
		blocks := t.Blocks
		if blocks == nil {
			blocks = [][]byte{t.Bytes}
		}
		if pcap, link, skipped, ok := capture.PacketsPcapSkipped(blocks); ok && t.Form == capture.FormDump {
			// Whole packets (tshark -x): read as the capture they are.
			r, err := capture.Read(s.cat, pcap, o)
			if err != nil {
				return nil, err
			}
			n := fmt.Sprintf("the dump is %d %s packets (TCP): read as a capture of them", len(blocks)-skipped, link)
			if len(blocks)-skipped == 1 {
				n = fmt.Sprintf("the dump is a %s packet (TCP): read as a capture of it", link)
			}
			if skipped > 0 {
				n += fmt.Sprintf("; %d blocks of their reassembled data (tshark -x prints them after the packet that ends a PDU) left out", skipped)
			}
			r.Notes = append(append(notes, n), r.Notes...)
			return r, nil
		}
		data, kind = t.Bytes, capture.KindHex
	}
	r, err := s.readShapes(data, kind, o, noSize, body, notes)
	if err != nil {
		return nil, err
	}
	r.Kind = kind
	return r, nil
}
