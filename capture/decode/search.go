package decode

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/kafkagrid/kafkagrid/capture"
	"github.com/kafkagrid/kafkagrid/kafka"
)

// maxSearchAll bounds the input for which every API is tried (no -api): a few thousand
// decodes of at most this many bytes.
const maxSearchAll = 64 << 10

// candidate is one reading of the bytes: an API version, side and shape that decodes them whole.
type candidate struct {
	rel     capture.Release
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

// search decodes data in one shape as every version of the API asked (or of every API, for a
// small input), on the sides asked, in every release; it returns the readings that decode
// whole, best first, and the closest failure.
func (r *Reader) search(data []byte, shape kafka.Shape, requests, responses bool) (fits []*candidate, closest *candidate) {
	tried := map[string]bool{}
	rels := r.releases()
	for ri, rc := range rels {
		for _, a := range r.apisIn(rc, data) {
			for _, resp := range []bool{false, true} {
				if resp && !responses || !resp && !requests {
					continue
				}
				f, c := r.searchAPI(rc, a, resp, data, shape, tried)
				fits = append(fits, f...)
				for _, c := range c {
					if closest == nil || c.at > closest.at || c.at == closest.at && ri < slices.IndexFunc(rels, func(r capture.Release) bool { return r.Name == closest.rel.Name }) {
						closest = c
					}
				}
			}
		}
	}
	sortFits(fits, rels)
	return fits, closest
}

// apisIn are the APIs of rc the search tries: the one asked, or every API for a small input.
func (r *Reader) apisIn(rc capture.Release, data []byte) []*kafka.API {
	if r.flags.API != "" {
		if a, ok := rc.Catalog.Lookup(r.flags.API); ok {
			return []*kafka.API{a}
		}
		return nil
	}
	if len(data) <= maxSearchAll {
		return rc.Catalog.APIs
	}
	return nil
}

// searchAPI decodes data as every version of one side of a (the version asked, if any) not
// tried yet: the readings that decode whole, and the failures, in the order tried.
func (r *Reader) searchAPI(rc capture.Release, a *kafka.API, resp bool, data []byte, shape kafka.Shape, tried map[string]bool) (fits, failed []*candidate) {
	spec := a.Request
	if resp {
		spec = a.Response
	}
	for v := a.Version; v >= 0; v-- {
		if !spec.ValidIn(v) || r.flags.Version >= 0 && int(v) != r.flags.Version {
			continue
		}
		key := fmt.Sprintf("%s/%d/%v", a.Name, v, resp)
		if tried[key] {
			continue
		}
		tried[key] = true
		if !resp && shape != kafka.ShapeBody && !headerNames(data, shape, a.Key, v) {
			continue // a request's header names its API: only the one it names
		}
		o := kafka.DecodeOptions{Response: resp, API: a, Version: v, Shape: shape, MaxNodes: r.flags.MaxFields}
		f, err := rc.Catalog.Decode(data, o)
		c := &candidate{rel: rc, api: a, version: v, resp: resp, shape: shape, frame: f, err: err}
		if err == nil {
			c.penalty, c.words = plausibility(f.Root)
			fits = append(fits, c)
			continue
		}
		c.rank(err, len(data))
		failed = append(failed, c)
	}
	return fits, failed
}

// headerNames reports whether data, a request in shape (a whole frame or without its size),
// has a header naming API key and version v.
func headerNames(data []byte, shape kafka.Shape, key, v int16) bool {
	at := 0
	if shape == kafka.ShapeFrame {
		at = 4
	}
	return len(data) >= at+4 && int16(binary.BigEndian.Uint16(data[at:])) == key && int16(binary.BigEndian.Uint16(data[at+2:])) == v
}

// rank sets how far a failed reading of n bytes got, to find the closest.
func (c *candidate) rank(err error, n int) {
	ke, ok := err.(*kafka.Error)
	if !ok {
		return
	}
	c.at, c.off = ke.Offset, ke.Offset
	m := ke.Err.Error()
	if strings.Contains(m, "left unread") || strings.Contains(m, "after the end of the frame") {
		// The fields ended early: as close as the bytes it explains.
		c.at -= n - ke.Offset
	}
	if strings.Contains(m, "CRC") && strings.Contains(m, "give") {
		// The fields fit; only a checksum differs: the closest of all.
		c.at = n
	}
}

// sortFits orders the readings best first: fewest implausible values, most words, this
// release before the others, by API name, newest version first.
func sortFits(fits []*candidate, rels []capture.Release) {
	order := map[string]int{}
	for i, r := range rels {
		order[r.Name] = i
	}
	slices.SortStableFunc(fits, func(a, b *candidate) int {
		if a.penalty != b.penalty {
			return a.penalty - b.penalty
		}
		if a.words != b.words {
			return b.words - a.words
		}
		if oa, ob := order[a.rel.Name], order[b.rel.Name]; oa != ob {
			return oa - ob
		}
		if a.api.Name != b.api.Name {
			return strings.Compare(a.api.Name, b.api.Name)
		}
		return int(b.version) - int(a.version)
	})
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

// shapeName says how a reading took the bytes, when the readings listed differ.
func shapeName(s kafka.Shape) string {
	switch s {
	case kafka.ShapeFrame:
		return " (whole frame)"
	case kafka.ShapeNoSize:
		return " (no size prefix)"
	case kafka.ShapeBody:
		return " (body only)"
	}
	return ""
}

// describe says which readings fit, and which release and flags they need.
func (r *Reader) describe(fits []*candidate, asked string) string {
	var b strings.Builder
	best := fits[0]
	if len(fits) == 1 {
		fmt.Fprintf(&b, "the only reading of these bytes (%s) that decodes them whole: %s", asked, best.name())
	} else {
		mixed := slices.ContainsFunc(fits, func(f *candidate) bool { return f.shape != best.shape })
		if mixed {
			asked = "in any shape"
		}
		give := "-api NAME -version N"
		if r.flags.API != "" {
			give = "-version N"
		}
		fmt.Fprintf(&b, "%d readings of these bytes (%s) decode them whole, best first: %s; decoded as the first: give %s to choose another",
			len(fits), asked, strings.Join(r.fitNames(fits, mixed), ", "), give)
	}
	b.WriteString(r.releaseNote(best))
	return b.String()
}

// fitNames names the first 12 readings (and how many more), each with its shape when mixed,
// its release when not this one, and whether it reads the same as the best.
func (r *Reader) fitNames(fits []*candidate, mixed bool) []string {
	best := fits[0]
	names := make([]string, 0, min(len(fits), 12))
	bestLeaves := leafText(best.frame.Root, nil)
	for i, f := range fits {
		if i == 12 {
			names = append(names, fmt.Sprintf("and %d more", len(fits)-12))
			break
		}
		n := f.name()
		if mixed {
			n += shapeName(f.shape)
		}
		if f.rel.Name != r.cat.Release.Name() {
			n += " (Kafka " + f.rel.Name + ")"
		}
		if i > 0 && len(best.frame.Bytes) <= maxSearchAll && f.api == best.api && string(leafText(f.frame.Root, nil)) == string(bestLeaves) {
			n += " (the same fields and values)"
		}
		names = append(names, n)
	}
	return names
}

// releaseNote names the release a reading comes from when it is not this one, and the flag.
func (r *Reader) releaseNote(c *candidate) string {
	if c.rel.Name == r.cat.Release.Name() {
		return ""
	}
	return "; " + capture.ReleaseNote(r.cat, c.api.Name, c.version, c.rel.Name, r.flag(c.rel.Name))
}

func relNames(rs []capture.Release) string {
	names := make([]string, len(rs))
	for i, r := range rs {
		names[i] = r.Name
	}
	return strings.Join(names, ", ")
}
