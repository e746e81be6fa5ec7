package decode

import (
	"context"
	"fmt"

	"github.com/kafkagrid/kafkagrid/capture"
	"github.com/kafkagrid/kafkagrid/kafka"
)

// Releases are the releases beside the catalogue's own that a lone frame is looked for in.
type Releases struct {
	// Others returns the other releases, newest first; it is called when first needed (and
	// may load them then), and should return the same each time. nil: none.
	Others func() []capture.Release
	// Flag is what picks a release on the command line ("-release 3.9", "-kafka 3.9"); nil
	// gives "-release REL".
	Flag func(rel string) string
}

// Reader reads decode's input with one release's catalogue and the flags: a capture as
// capture.Read or capture.Stream do (Options), anything else with Read.
type Reader struct {
	// Options are what capture reads the input with, as the flags say: its ports, the API and
	// version of a response alone, the bounds, the other releases for a request this one
	// refuses. Stream and WriteStream take them.
	Options capture.Options

	cat   *kafka.Catalog
	flags Flags
	in    input
	rels  Releases
}

// NewReader makes the reader of the input named name (a response named as build names it
// decodes as that response; "-" for standard input) with c and f; ctx, when set, stops the
// reading. An -api that no release has is a *UsageError; so are the errors of f.Check.
func NewReader(ctx context.Context, c *kafka.Catalog, f Flags, name string, rels Releases) (*Reader, error) {
	in, err := f.check()
	if err != nil {
		return nil, err
	}
	r := &Reader{cat: c, flags: f, in: in, rels: rels}
	// A frame listed costs about what a field does: -max-fields bounds them too (when the
	// frames are kept: a capture streamed keeps none, and -max-fields bounds each frame).
	r.Options = capture.Options{Ports: in.ports, Name: name, MaxNodes: f.MaxFields, MaxFrames: min(f.MaxFields, capture.DefaultMaxFrames), Context: ctx}
	if rels.Others != nil {
		// A request this release refuses is read with the others, everywhere the same way.
		r.Options.Releases = func() []capture.Release {
			var out []capture.Release
			for _, o := range rels.Others() {
				out = append(out, capture.Release{Name: o.Name, Catalog: o.Catalog, Flag: r.flag(o.Name)})
			}
			return out
		}
	}
	if f.API != "" {
		api, ok := c.Lookup(f.API)
		if !ok && !r.elsewhere(f.API) {
			return nil, &UsageError{fmt.Errorf("-api: %w", c.UnknownAPI(f.API))}
		}
		if !ok {
			api = nil // in another release: the search says which
		}
		r.Options.API = api
		if f.Version >= 0 {
			r.Options.Version, r.Options.HaveVersion = int16(f.Version), true
		}
	}
	return r, nil
}

func (r *Reader) flag(rel string) string {
	if r.rels.Flag == nil {
		return "-release " + rel
	}
	return r.rels.Flag(rel)
}

// releases is this release, then the others.
func (r *Reader) releases() []capture.Release {
	out := []capture.Release{{Name: r.cat.Release.Name(), Catalog: r.cat}}
	if r.rels.Others != nil {
		out = append(out, r.rels.Others()...)
	}
	return out
}

// elsewhere reports whether another release has the API.
func (r *Reader) elsewhere(name string) bool {
	for _, rel := range r.releases()[1:] {
		if _, ok := rel.Catalog.Lookup(name); ok {
			return true
		}
	}
	return false
}

// Read reads decode's input whole: a capture as capture.Read does; text in the form the flags
// give or told by its content (capture.ParseText), saying which; then the bytes in the shapes
// they can be (a whole frame, without its size prefix, a body alone), at every version of the
// API asked, or of every API for a small input, in every release.
func (r *Reader) Read(data []byte) (*capture.Result, error) {
	o := r.Options
	if capture.IsPcap(data) {
		return capture.Read(r.cat, data, o)
	}
	kind := capture.KindFrames
	var notes []string
	if !r.in.binary && (r.in.form != capture.FormAuto || capture.LooksLikeText(data)) {
		t, err := capture.ParseText(data, r.in.form)
		if err != nil {
			return nil, err
		}
		notes = append([]string{"read as " + t.Detail}, t.Notes...)
		blocks := t.Blocks
		if blocks == nil {
			blocks = [][]byte{t.Bytes}
		}
		if pcap, link, skipped, ok := capture.PacketsPcapSkipped(blocks); ok && t.Form == capture.FormDump {
			return r.readPackets(pcap, link, len(blocks), skipped, notes)
		}
		data, kind = t.Bytes, capture.KindHex
	}
	res, err := r.readShapes(data, kind, o, notes)
	if err != nil {
		return nil, err
	}
	res.Kind = kind
	return res, nil
}

// readPackets reads a dump of whole packets (tshark -x) as the capture they are.
func (r *Reader) readPackets(pcap []byte, link string, blocks, skipped int, notes []string) (*capture.Result, error) {
	res, err := capture.Read(r.cat, pcap, r.Options)
	if err != nil {
		return nil, err
	}
	n := fmt.Sprintf("the dump is %d %s packets (TCP): read as a capture of them", blocks-skipped, link)
	if blocks-skipped == 1 {
		n = fmt.Sprintf("the dump is a %s packet (TCP): read as a capture of it", link)
	}
	if skipped > 0 {
		n += fmt.Sprintf("; %d blocks of their reassembled data (tshark -x prints them after the packet that ends a PDU) left out", skipped)
	}
	res.Notes = append(append(notes, n), res.Notes...)
	return res, nil
}
