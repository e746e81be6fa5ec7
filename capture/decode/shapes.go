package decode

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/kafkagrid/kafkagrid/capture"
	"github.com/kafkagrid/kafkagrid/kafka"
)

// shapes is one reading of the input (bytes, or bytes parsed from text) in the shapes the
// flags allow.
type shapes struct {
	r     *Reader
	kind  capture.Kind
	o     capture.Options
	whole []byte   // the input's bytes
	data  []byte   // the same with what looks like a SASL secret masked (kafka.MaskAuth)
	mask  []string // what was masked
}

// withMask appends the note of what was masked, if anything, to notes.
func (s *shapes) withMask(notes []string) []string {
	if s.mask == nil {
		return notes
	}
	return append(slices.Clip(notes), capture.RedactedNote+": "+strings.Join(s.mask, "; "))
}

// readShapes reads data in the shapes the flags allow: whole frames as capture.Read does, and
// when that leaves one frame undecoded, the other versions, APIs and releases that read it;
// bytes that are no whole frames without their size prefix, then as a body alone. notes (what
// the text was read as) come first in the Result's.
func (r *Reader) readShapes(data []byte, kind capture.Kind, o capture.Options, notes []string) (*capture.Result, error) {
	if len(data) == 0 {
		o.Binary = true
		return capture.Read(r.cat, data, o) // no frames: nothing to search
	}
	// Every reading searched for is a fallback: what looks like a SASL secret is masked first
	// (kafka.MaskAuth), so that no guess, partial tree or hex dump shows it.
	s := &shapes{r: r, kind: kind, o: o, whole: data}
	s.data, s.mask = kafka.MaskAuth(data)
	requests, responses := !r.flags.Response, !r.flags.Request
	switch {
	case r.flags.Body:
		fits, closest := r.search(s.data, kafka.ShapeBody, requests, responses)
		return s.pick(fits, closest, "body only, no size and no header", s.withMask(notes))
	case r.flags.NoSize:
		fits, closest := r.search(s.data, kafka.ShapeNoSize, requests, responses && (r.flags.API != "" || len(s.data) <= maxSearchAll))
		return s.pick(fits, closest, "without the size prefix", s.withMask(notes))
	case r.flags.Response && r.flags.API != "" && chains(s.data):
		fits, closest := r.search(s.data, kafka.ShapeFrame, false, true)
		return s.pick(fits, closest, "a whole response frame", s.withMask(notes))
	case chains(s.data):
		return s.frames(notes)
	}
	return s.loose(notes)
}

// frames reads whole frames as capture.Read does; when one frame alone does not decode,
// another version, another API, another release.
func (s *shapes) frames(notes []string) (*capture.Result, error) {
	r := s.r
	if len(notes) > 0 && strings.HasPrefix(notes[0], "read as ") {
		notes = append([]string{notes[0] + ": whole frames, each with its size prefix"}, notes[1:]...)
	}
	o := s.o
	o.Binary = true
	res, err := capture.Read(r.cat, s.whole, o)
	if err != nil {
		return nil, err
	}
	res.Notes = append(notes, res.Notes...)
	msgs := Messages(res)
	loneResponse := len(res.Conns) == 1 && len(res.Conns[0].Exchanges) == 1 && res.Conns[0].Exchanges[0].Request == nil
	if len(msgs) != 1 || msgs[0].Err == nil && !(loneResponse && r.flags.API != "" && r.flags.Version < 0) ||
		errors.Is(msgs[0].Err, kafka.ErrTooManyFields) || errors.Is(msgs[0].Err, kafka.ErrDecompressedTooLarge) {
		return res, nil // decoded (a response alone with its version given), or stopped by a limit no other reading would lift
	}
	fits, closest := r.search(s.data, kafka.ShapeFrame, true, !r.flags.Request)
	if len(fits) == 0 && (closest == nil || r.flags.API == "" && closest.at < len(s.data)*3/4) {
		return res, nil // nothing close: what capture.Read said stands
	}
	if len(fits) == 0 && !r.flags.Response && capture.HeaderRefused(msgs[0].Err) {
		// A request of a version no release here has: what its header says, and which
		// releases have it, rather than the closest of readings that all fail.
		if n, newest := capture.KnownElsewhere(r.cat, s.data); n != "" {
			give := r.flag(newest)
			if !strings.HasPrefix(give, "-kafka") {
				give += " (or -kafka " + newest + ")"
			}
			res.Notes = append(s.withMask(res.Notes), n+": give "+give+" to decode it")
			return res, nil
		}
	}
	return s.pick(fits, closest, "a whole frame", s.withMask(res.Notes))
}

// loose reads bytes that are no whole frames: without the size prefix, then a body alone.
// A request without its size names its API and version in its header: when one reads so,
// that is the reading. Else bodies and responses without their size (whose correlation id
// can pass for a body's first field) are weighed together, bodies first.
func (s *shapes) loose(notes []string) (*capture.Result, error) {
	r := s.r
	requests, responses := !r.flags.Response, !r.flags.Request
	var closest *candidate
	var fits []*candidate
	for _, st := range []struct {
		shape     kafka.Shape
		req, resp bool
	}{{kafka.ShapeNoSize, requests, false}, {kafka.ShapeBody, requests, responses}, {kafka.ShapeNoSize, false, responses}} {
		f, cl := r.search(s.data, st.shape, st.req, st.resp)
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
		return s.pick(fits, nil, "", s.withMask(notes))
	}
	o := s.o
	o.Binary = true
	res, err := capture.Read(r.cat, s.whole, o)
	if err != nil {
		return nil, err
	}
	res.Notes = append(append(notes, res.Notes...), s.noLooseReading(closest))
	return res, nil
}

// noLooseReading is the note that no reading without the size prefix or as a body fits.
func (s *shapes) noLooseReading(closest *candidate) string {
	r := s.r
	what := "of any API"
	if r.flags.API != "" {
		what = "of " + r.flags.API
	}
	if r.flags.API == "" && len(s.data) > maxSearchAll {
		what = fmt.Sprintf("of the API given (-api; every API is tried for at most %d KiB)", maxSearchAll>>10)
	}
	n := fmt.Sprintf("nor do the bytes read as a frame without its size prefix or as a body alone, at any version %s (-no-size, -body)", what)
	if closest != nil {
		n += fmt.Sprintf("; the closest, %s %s, fails: %v", closest.name(), closest.shape, closest.err)
	}
	return n
}

// pick decodes the best reading, or reports the closest failure.
func (s *shapes) pick(fits []*candidate, closest *candidate, asked string, notes []string) (*capture.Result, error) {
	r := s.r
	if len(fits) > 0 {
		best := fits[0]
		if len(fits) == 1 && r.flags.API != "" && r.flags.Version >= 0 && best.rel.Name == r.cat.Release.Name() {
			notes = append(notes, fmt.Sprintf("read as %s, %s, as asked", best.name(), best.shape))
		} else {
			notes = append(notes, r.describe(fits, best.shape.String()))
		}
		return lone(s.kind, s.data, best, notes), nil
	}
	what := "any API"
	if r.flags.API != "" {
		what = r.flags.API
		if _, ok := r.cat.Lookup(r.flags.API); !ok {
			what += " (not in Kafka " + r.cat.Release.Name() + ")"
		}
	}
	if closest == nil {
		return nil, s.noReading(what, asked)
	}
	rel := "Kafka " + closest.rel.Name
	if closest.rel.Name != r.cat.Release.Name() {
		rel += ", " + r.flag(closest.rel.Name)
	}
	notes = append(notes, fmt.Sprintf("no version of %s (Kafka %s) reads these bytes (%s) whole; the closest is %s (%s), which fails at offset %d",
		what, relNames(r.releases()), asked, closest.name(), rel, closest.off))
	return lone(s.kind, s.data, closest, notes), nil
}

// noReading is the error when no reading was even tried: the input too large to try every
// API, or no version of the API asked as the shape asked.
func (s *shapes) noReading(what, asked string) error {
	r := s.r
	if r.flags.API == "" && len(s.data) > maxSearchAll {
		return fmt.Errorf("the bytes are %d bytes, more than the %d KiB for which every API is tried: give -api NAME", len(s.data), maxSearchAll>>10)
	}
	if r.flags.Version < 0 {
		return fmt.Errorf("no version of %s as %s in Kafka %s", what, asked, relNames(r.releases()))
	}
	var ranges []string
	for _, rel := range r.releases() {
		if a, ok := rel.Catalog.Lookup(r.flags.API); ok {
			spec := a.Response
			if r.flags.Request {
				spec = a.Request
			}
			ranges = append(ranges, fmt.Sprintf("%s in Kafka %s", spec.ValidVersions, rel.Name))
		}
	}
	if len(ranges) > 0 {
		return fmt.Errorf("%s version %d is not valid (%s)", r.flags.API, r.flags.Version, strings.Join(ranges, "; "))
	}
	return fmt.Errorf("no version %d of %s as %s in Kafka %s", r.flags.Version, what, asked, relNames(r.releases()))
}
