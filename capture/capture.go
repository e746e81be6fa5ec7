package capture

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kafkagrid/kafkagrid/kafka"
)

// DefaultMaxFrame is the largest frame Read accepts when Options.MaxFrame is 0: 100 MiB,
// Kafka's default socket.request.max.bytes. A size prefix above it is taken for a stream
// that is not Kafka, or out of step: the rest of that direction is not read.
const DefaultMaxFrame = 100 << 20

// DefaultMaxNodes is the most tree nodes Read decodes from one input when Options.MaxNodes
// is not set: as many as one frame may have (kafka.DefaultMaxNodes), about a million. A frame
// stops where the limit is reached (kafka.ErrTooManyFields), the frames after it are listed
// with an error instead of a tree, and the Result says so.
const DefaultMaxNodes = kafka.DefaultMaxNodes

// Options configure Read. The zero value reads captures on port 9092 (and any connection
// whose first bytes are a Kafka request), with the default limits.
type Options struct {
	// Ports are the Kafka ports of a capture; nil means 9092. A connection on another port
	// is read too when its first bytes are a Kafka request of the catalogue.
	Ports []uint16
	// API and Version decode responses whose request is not in the input (HaveVersion says
	// Version is set; else the API's highest version).
	API         *kafka.API
	Version     int16
	HaveVersion bool
	// Name is the input's file name: a response named as build names it
	// ("0-Produce-v12-response.bin") decodes as that response.
	Name string
	// MaxFrame bounds a frame's size (0 or less: DefaultMaxFrame); MaxDecompressed bounds what
	// one frame's compressed batches inflate to (0 or less: kafka.DefaultMaxDecompressed).
	MaxFrame        int
	MaxDecompressed int
	// MaxNodes bounds, in Read, the nodes of all the input's trees together (0 or less:
	// DefaultMaxNodes), and MaxInflated the bytes all its compressed batches inflate to (0 or
	// less: DefaultMaxInflated), and so the memory of a Result. Stream keeps no tree: MaxNodes
	// bounds each frame's, and MaxInflated does not apply (MaxDecompressed does, per frame).
	MaxNodes    int
	MaxInflated int
	// MaxWindow bounds the bytes one direction of a capture's connection holds ahead of its
	// bytes in order (segments past one missing, responses waiting for the request being
	// reassembled; 0 or less: DefaultMaxWindow); MaxInFlight the requests of a connection
	// waiting for their response (0 or less: DefaultMaxInFlight). With MaxFrame they bound
	// the memory of a connection while it is read.
	MaxWindow   int
	MaxInFlight int
	// Binary says data is frames or a capture, never text to read as a hex dump (a caller
	// that read the text itself, with ParseText).
	Binary bool
	// MaxFrames bounds, in Read, the frames listed (a Message each, in an Exchange, with its error; 0
	// or less: DefaultMaxFrames) and MaxConns the connections (a Conn each, with its two
	// reassembled streams; 0 or less: DefaultMaxConns): with MaxNodes they bound the memory of
	// a Result whatever the mix of frames, connections and fields. Frames and connections past
	// them are counted (Result.Unlisted, Result.SkippedConns) and not kept, with a note.
	MaxFrames int
	MaxConns  int
	// Releases, when set, lists the other releases (newest first, loaded when first called)
	// tried for a request whose header this catalogue refuses: an API key it lacks, a version
	// outside its range (an old client against Kafka 4.0, KIP-896). The first that reads the
	// request decodes it and its response, and the exchange's note says so (ReleaseNote).
	Releases func() []Release
	// Context, when set, stops the reading once it is done: Read then returns its error.
	Context context.Context
	// Recycle, in Stream of a capture, says that each keeps nothing of an exchange's frames
	// once it returns (their trees, the strings and values read from them): the memory of
	// every frame that decoded is then given back (kafka.Frame.Release) and used again for
	// the frames after, and Stream allocates a fraction as much. A frame that did not decode
	// is left to the garbage collector, since its error, which names the paths of its tree, may
	// be kept. It does not change Read, nor Stream of frames or text.
	Recycle bool
}

// DefaultMaxFrames is the most frames Read lists when Options.MaxFrames is not set: 262,144,
// some 110 MB of Messages, Exchanges and errors (about 420 bytes a frame not decoded, in
// TestFrameBudgetMemory). A real capture reaches it only with more than a hundred thousand
// exchanges, and a report draws the first 200.
const DefaultMaxFrames = 1 << 18

// DefaultMaxConns is the most TCP connections of a capture Read decodes when Options.MaxConns
// is not set: 65,536, some 40 MB of connections with nothing in them (a capture of
// SYNs alone; about 600 bytes each, in TestConnBudgetMemory).
const DefaultMaxConns = 1 << 16

// DefaultMaxInflated is the most bytes the compressed batches of one input inflate to
// together when Options.MaxInflated is not set: 256 MiB, four frames at their own limit. Frames past
// it keep their compressed bytes undecoded (kafka.ErrDecompressedTooLarge), and the Result
// says so.
const DefaultMaxInflated = 256 << 20

// Kind is the form the input came in.
type Kind string

// The input forms Read knows.
const (
	KindFrames Kind = "frames" // .bin: frames back to back
	KindHex    Kind = "hex"    // a hex dump of frames
	KindPcap   Kind = "pcap"   // a pcap or pcapng capture
)

// Result is what Read found in an input.
type Result struct {
	Kind    Kind
	Packets int // pcap: the packets read
	Conns   []*Conn
	Notes   []string // about the whole input
	// Unlisted counts the frames past Options.MaxFrames: found, not decoded and not kept.
	// SkippedConns counts the Kafka connections past Options.MaxConns, not read.
	Unlisted     int
	SkippedConns int
}

// Conn is one TCP connection of a capture (or, for frames and hex, the input itself).
type Conn struct {
	ID             int
	Client, Server netip.AddrPort // zero for frames and hex input
	Exchanges      []*Exchange    // in time order (of the request, or of a lone response)
	Notes          []string
}

// Exchange is a request and its response, or one of them alone.
type Exchange struct {
	Request, Response *Message
	Note              string // why a side is missing
}

// Message is one frame of the input, decoded.
type Message struct {
	Frame  *kafka.Frame // nil when the frame was not decoded (Err says why)
	Bytes  []byte       // the frame, from its size prefix
	Offset int64        // where it starts in its stream (or input)
	Time   time.Time    // when its last byte was captured (pcap)
	Packet int          // the packet that carried its last byte (pcap)
	Err    error        // a decoding failure: Frame holds what was decoded up to it
	// Token marks a SASL token sent without a Kafka header after a SaslHandshake v0 (KIP-43):
	// only a size and the mechanism's bytes, so Frame is nil and Err too.
	Token bool
}

// CorrelationID is the message's correlation id: its frame's, or, when the frame failed before
// its header was read, the one its bytes hold where a whole frame has it (after the size
// prefix, and a request's api key and version). ok is false when neither says.
func (m *Message) CorrelationID(response bool) (id int32, ok bool) {
	if f := m.Frame; f != nil && (m.Err == nil || f.CorrelationID != 0) {
		return f.CorrelationID, true
	}
	at := 8
	if response {
		at = 4
	}
	b := m.Bytes
	if len(b) < at+4 || int(binary.BigEndian.Uint32(b)) != len(b)-4 {
		return 0, false
	}
	return int32(binary.BigEndian.Uint32(b[at:])), true
}

// SASL tokens after SaslHandshake v0 travel bare: a size, then the mechanism's bytes.
const (
	tokenNote = "SASL token: after SaslHandshake v0 the mechanism's bytes go bare, a size and no Kafka header (KIP-43)"
)

// Frames counts the messages of all connections, and those decoded without error.
func (r *Result) Frames() (all, ok int) {
	for _, c := range r.Conns {
		for _, e := range c.Exchanges {
			for _, m := range []*Message{e.Request, e.Response} {
				if m != nil {
					all++
					if m.Err == nil {
						ok++
					}
				}
			}
		}
	}
	return all, ok
}

// Read decodes every frame of data: a pcap or pcapng capture, a hex dump, or frames back to
// back, recognised in that order. Responses are paired with their requests by correlation id
// within a connection, so that their API and version are known. Read fails only when the
// input cannot be read at all; a frame that does not decode is a Message with Err, and what
// Read could not follow (a hole in a stream, a connection that is not Kafka, a frame size
// over the limit) is a note.
//
// Read is Stream keeping every exchange: a connection's Exchanges are in the time order of
// their first message. Memory: the input, the frames' bytes once more, and the annotated trees
// (about 60 times the frames' bytes, see the package doc) of at most MaxNodes nodes together;
// a frame is at most MaxFrame bytes and inflates to at most MaxDecompressed more, and all of
// them to at most MaxInflated. A caller that does not need every frame at once uses Stream.
func Read(cat *kafka.Catalog, data []byte, o Options) (*Result, error) {
	o = o.withDefaults()
	d := newDecoder(cat, o, true)
	var r *Result
	switch {
	case IsPcap(data):
		var err error
		r, err = d.pcap(bytes.NewReader(data), func(c *Conn, e *Exchange) error {
			c.Exchanges = append(c.Exchanges, e)
			return nil
		})
		if err != nil {
			return nil, err
		}
		for _, c := range r.Conns {
			// In the order of their first message: a request answered late stays before
			// the exchanges it was sent before.
			slices.SortStableFunc(c.Exchanges, func(a, b *Exchange) int { return a.first().Compare(b.first()) })
		}
	default:
		if r = d.readWhole(data); r == nil {
			return nil, d.textErr
		}
	}
	if err := d.cancelled(); err != nil {
		return nil, err
	}
	d.finish(r)
	return r, nil
}

// withDefaults is o with its zero limits set.
func (o Options) withDefaults() Options {
	if o.MaxFrame <= 0 {
		o.MaxFrame = DefaultMaxFrame
	}
	if len(o.Ports) == 0 {
		o.Ports = []uint16{9092}
	}
	if o.MaxNodes <= 0 {
		o.MaxNodes = DefaultMaxNodes
	}
	if o.MaxInflated <= 0 {
		o.MaxInflated = DefaultMaxInflated
	}
	if o.MaxDecompressed <= 0 {
		o.MaxDecompressed = kafka.DefaultMaxDecompressed
	}
	if o.MaxFrames <= 0 {
		o.MaxFrames = DefaultMaxFrames
	}
	if o.MaxConns <= 0 {
		o.MaxConns = DefaultMaxConns
	}
	if o.MaxWindow <= 0 {
		o.MaxWindow = DefaultMaxWindow
	}
	if o.MaxInFlight <= 0 {
		o.MaxInFlight = DefaultMaxInFlight
	}
	return o
}

// newDecoder decodes with o's limits: for the whole input when whole (Read, which keeps every
// tree), else for each frame (Stream).
func newDecoder(cat *kafka.Catalog, o Options, whole bool) *decoder {
	d := &decoder{cat: cat, dec: cat.NewDecoder(), o: o, whole: whole, left: o.MaxNodes, inflate: o.MaxInflated, framesLeft: o.MaxFrames}
	return d
}

// readWhole reads an input that is not a capture: a hex dump or frames back to back. It returns
// nil when the text does not read (textErr says why).
func (d *decoder) readWhole(data []byte) *Result {
	if !d.o.Binary && LooksLikeText(data) {
		b, err := ParseHex(data)
		if err != nil {
			d.textErr = err
			return nil
		}
		return &Result{Kind: KindHex, Conns: []*Conn{d.frames(b)}}
	}
	return &Result{Kind: KindFrames, Conns: []*Conn{d.frames(data)}}
}

// finish adds the notes of the whole input to r: the limits reached, the secrets redacted.
func (d *decoder) finish(r *Result) {
	o := d.o
	if d.whole && d.left <= 0 {
		skipped := 0
		for _, c := range r.Conns {
			for _, e := range c.Exchanges {
				for _, m := range []*Message{e.Request, e.Response} {
					if m != nil && m.Err == errSpent {
						skipped++
					}
				}
			}
		}
		note := fmt.Sprintf("decoding stopped at the limit of %d fields (tree nodes) for the whole input (kafkagrid decode -max-fields)", o.MaxNodes)
		if skipped > 0 {
			note += "; " + plural(skipped, "frame") + " after it not decoded"
		}
		r.Notes = append(r.Notes, note)
	}
	if d.unlisted > 0 {
		r.Unlisted = d.unlisted
		r.Notes = append(r.Notes, fmt.Sprintf("%s past the limit of %d frames an input lists (Options.MaxFrames) %s found and not decoded", plural(d.unlisted, "frame"), o.MaxFrames, were(d.unlisted)))
	}
	if d.redacted > 0 {
		note := fmt.Sprintf("%s: %d (no output of kafkagrid shows a password, a SCRAM proof, a bearer token or a delegation token's HMAC; the bytes are '*', offsets unchanged): %s",
			RedactedNote, d.redacted, strings.Join(d.redactNotes, "; "))
		if d.redacted > len(d.redactNotes) {
			note += fmt.Sprintf("; and %d more", d.redacted-len(d.redactNotes))
		}
		r.Notes = append(r.Notes, note)
	}
	if d.inflateHit {
		r.Notes = append(r.Notes, fmt.Sprintf("compressed batches inflated %d bytes, as many as the input may (%d, Options.MaxInflated): the batches after are not decompressed",
			o.MaxInflated-d.inflate, o.MaxInflated))
	}
}

type decoder struct {
	cat *kafka.Catalog
	dec *kafka.Decoder
	o   Options
	// whole: the limits are the whole input's (Read); else each frame's (Stream).
	whole   bool
	textErr error

	left       int  // the tree nodes the input may still have (Options.MaxNodes)
	inflate    int  // the bytes its compressed batches may still inflate to (Options.MaxInflated)
	inflateHit bool // a batch did not inflate for want of inflate
	framesLeft int  // the frames the input may still list (Options.MaxFrames)
	unlisted   int  // the frames found past it

	redacted    int      // secrets replaced (kafka.Redact)
	redactNotes []string // the first of them

	recycle bool // Options.Recycle, reading a capture

	others map[string]*kafka.Decoder // the decoders of Options.Releases, by name, once used
}

// redact records the secrets kafka.Redact replaced.
func (d *decoder) redact(notes []string) {
	d.redacted += len(notes)
	for _, n := range notes {
		if len(d.redactNotes) < 8 {
			d.redactNotes = append(d.redactNotes, n)
		}
	}
}

// redactToken replaces the secret of a bare SASL token from the client (KIP-43) in a copy of
// its bytes.
func (d *decoder) redactToken(msg *Message) {
	if len(msg.Bytes) <= 4 {
		return
	}
	lo, hi, what := kafka.SASLSecret(msg.Bytes[4:])
	if what == "" || hi <= lo {
		return
	}
	msg.Bytes = slices.Clone(msg.Bytes)
	for i := 4 + lo; i < 4+hi; i++ {
		msg.Bytes[i] = '*'
	}
	d.redact([]string{fmt.Sprintf("the SASL token at offset %d: %s (%d bytes) redacted", msg.Offset, what, hi-lo)})
}

// RedactedNote is how the note of a Result whose secrets were replaced begins.
const RedactedNote = "secrets redacted"

// list reports whether one more frame may be listed, and counts it as unlisted if not; none
// may once Options.Context is done.
func (d *decoder) list() bool {
	if d.o.Context != nil && d.o.Context.Err() != nil {
		return false
	}
	if !d.whole {
		return true
	}
	if d.framesLeft <= 0 {
		d.unlisted++
		return false
	}
	d.framesLeft--
	return true
}

// errSpent is the error of a frame that is not decoded because the input's trees have as
// many nodes as Options.MaxNodes allows.
var errSpent = errors.New("not decoded: the frames before this one have as many fields as one input may have (Options.MaxNodes; kafkagrid decode -max-fields)")

// split cuts a stream into frames by their int32 size, calling each with every frame and its
// offset in turn (nothing is kept: a stream of a million 8-byte frames allocates nothing here).
// It stops at a size too small for any Kafka frame (under 4 bytes: even a response header has a
// correlation id), negative or over the limit (with a note), so that bytes that are not Kafka
// (zeros, say) end the reading at once instead of making a frame of every four bytes; a last
// frame cut short is passed as it is. The first empty sizes, up to empty of them, are empty SASL
// tokens: a frame of its size alone.
func (d *decoder) split(data []byte, empty int, each func(b []byte, off int64)) (note string) {
	for off := 0; off < len(data); {
		if len(data)-off < 4 {
			return fmt.Sprintf("%d bytes at offset %d are too few for a frame size", len(data)-off, off)
		}
		size := int32(binary.BigEndian.Uint32(data[off:]))
		if size == 0 && empty > 0 { // an empty SASL token
			empty--
			each(data[off:off+4:off+4], int64(off))
			off += 4
			continue
		}
		if size < minFrame || int(size) > d.o.MaxFrame {
			return fmt.Sprintf("frame size %d at offset %d is outside %d to %d (the frame limit): the rest (%d bytes) is not read",
				size, off, minFrame, d.o.MaxFrame, len(data)-off)
		}
		end := min(off+4+int(size), len(data))
		each(data[off:end:end], int64(off))
		if end-off < 4+int(size) {
			note = fmt.Sprintf("the last frame (offset %d) is cut short: %d of its %d bytes", off, end-off, 4+int(size))
		}
		off = end
	}
	return note
}

// looksLikeRequest reports whether a frame's header names an API of the catalogue, at a
// version from 0 to a few past the highest it knows (a newer client's request is still a
// request: its decoding then says the version is unknown).
func (d *decoder) looksLikeRequest(b []byte) bool {
	if len(b) < 12 {
		return false
	}
	if size := int32(binary.BigEndian.Uint32(b)); size < 8 || int(size) > d.o.MaxFrame {
		return false
	}
	a, ok := d.cat.Lookup(strconv.Itoa(int(int16(binary.BigEndian.Uint16(b[4:])))))
	v := int16(binary.BigEndian.Uint16(b[6:]))
	return ok && v >= 0 && v <= a.Version+4
}

// minFrame is the smallest size a Kafka frame can have: a response's correlation id.
const minFrame = 4

// namedResponse reads the name build gives a response frame, "0-Produce-v12-response.bin" (or
// an edge case's, "18-ApiVersions-v0-response-unsupported-version.bin"): the api key, name and
// version.
func namedResponse(name string) (key, api string, version int, ok bool) {
	i := strings.LastIndex(name, "-response")
	if i < 0 || !strings.HasSuffix(name, ".bin") {
		return "", "", 0, false
	}
	if tail := name[i+len("-response") : len(name)-len(".bin")]; tail != "" && !strings.HasPrefix(tail, "-") {
		return "", "", 0, false
	}
	rest := name[:i]
	key, rest, _ = strings.Cut(rest, "-")
	j := strings.LastIndex(rest, "-v")
	if j <= 0 {
		return "", "", 0, false
	}
	v, err := strconv.Atoi(rest[j+2:])
	if _, kerr := strconv.Atoi(key); err != nil || kerr != nil || v < 0 || v > 32767 {
		return "", "", 0, false
	}
	return key, rest[:j], v, true
}

// frames reads frames back to back with no direction known: a frame whose correlation id
// answers a request before it is that request's response; else a frame that reads as a
// request is one; else it is a response decoded with Options.API, or left unpaired.
func (d *decoder) frames(data []byte) *Conn {
	fr := frameReader{d: d, c: &Conn{ID: 1}, pending: map[int32][]*Exchange{}}
	d.split(data, 0, func([]byte, int64) { fr.nframes++ }) // counted first: a lone frame is read differently
	if key, name, v, ok := namedResponse(baseName(d.o.Name)); ok {
		if a, ok := d.cat.Lookup(key); ok && a.Name == name {
			fr.named, fr.namedVersion = a, int16(v)
		}
	}
	c := fr.c
	if note := d.split(data, 0, fr.take); note != "" {
		c.Notes = append(c.Notes, note)
	}
	for _, e := range c.Exchanges {
		if e.Request != nil && e.Response == nil && !strings.Contains(e.Note, "no response") {
			e.Note = joinNotes(e.Note, "no response in the input")
		}
	}
	return c
}

// frameReader is frames' state: the connection's exchanges so far, and the requests waiting
// for a response, by correlation id.
type frameReader struct {
	d            *decoder
	c            *Conn
	nframes      int
	named        *kafka.API // the API a lone response's file name says, nil when none
	namedVersion int16
	pending      map[int32][]*Exchange
}

// take reads the frame b, at off in the input.
func (fr *frameReader) take(b []byte, off int64) {
	d := fr.d
	if !d.list() {
		return
	}
	msg := &Message{Bytes: b, Offset: off}
	if fr.named != nil && fr.nframes == 1 {
		d.decode(msg, kafka.DecodeOptions{Response: true, API: fr.named, Version: fr.namedVersion})
		fr.c.Exchanges = append(fr.c.Exchanges, &Exchange{Response: msg, Note: "a response, as the file's name says"})
		return
	}
	if fr.pairResponse(msg, b) {
		return
	}
	if msg.Frame != nil || d.looksLikeRequest(b) {
		fr.request(msg, b, off)
		return
	}
	fr.c.Exchanges = append(fr.c.Exchanges, d.lone(msg))
}

// pairResponse reads msg as the response to the first request waiting with its correlation
// id; it reports whether msg was taken so. A frame that does not read as that response but
// reads as a request (whose api key and version read as that correlation id: Produce v7 as
// 7) is left decoded as a request.
func (fr *frameReader) pairResponse(msg *Message, b []byte) bool {
	if len(b) < 8 {
		return false
	}
	corr := int32(binary.BigEndian.Uint32(b[4:]))
	q := fr.pending[corr]
	if len(q) == 0 {
		return false
	}
	d := fr.d
	d.response(msg, q[0])
	if msg.Err == nil || !d.looksLikeRequest(b) {
		fr.pending[corr] = q[1:]
		return true
	}
	asResp := *msg
	q[0].Response, q[0].Note = nil, ""
	if d.decode(msg, kafka.DecodeOptions{}); msg.Err != nil {
		*msg = asResp
		q[0].Response = msg
		fr.pending[corr] = q[1:]
		return true
	}
	return false
}

// request takes msg as a request (decoded already, or read here), or as a lone response when
// it does not read as a request.
func (fr *frameReader) request(msg *Message, b []byte, off int64) {
	d, c := fr.d, fr.c
	relNote := ""
	if msg.Frame == nil {
		relNote = d.request(msg)
	}
	// A request whose header names an API and version another release has is that
	// release's request, as a broker reads the header first.
	elsewhere := headerRefused(msg.Err) && func() bool { n, _ := KnownElsewhere(d.cat, b); return n != "" }()
	if msg.Err != nil && (d.o.API != nil || fr.nframes == 1 && !elsewhere) {
		fr.notRequest(msg, b, off)
		return
	}
	if relNote != "" && !slices.Contains(c.Notes, relNote) {
		c.Notes = append(c.Notes, relNote) // the input's, as the search of a lone frame says it
	}
	e := &Exchange{Request: msg}
	c.Exchanges = append(c.Exchanges, e)
	if msg.Frame != nil && msg.Frame.API != nil {
		corr := int32(binary.BigEndian.Uint32(b[8:]))
		fr.pending[corr] = append(fr.pending[corr], e)
	}
}

// notRequest takes a frame that failed as a request as a lone response: a response's
// correlation id can pass for an api key and version (7 reads as Produce v7).
func (fr *frameReader) notRequest(msg *Message, b []byte, off int64) {
	d := fr.d
	reqErr := msg.Err
	e := d.lone(&Message{Bytes: b, Offset: off})
	if e.Response.Err != nil && d.o.API == nil {
		// The request reading's frame, with its bytes: masked where they held what looks
		// like a secret (the frame's are the same).
		e.Response.Bytes = msg.Bytes
		e.Response.Frame, e.Response.Err = msg.Frame, fmt.Errorf("%w (read as a request); if it is a response, its request is not in the input: give -api NAME [-version N] to decode it", reqErr)
	}
	fr.c.Exchanges = append(fr.c.Exchanges, e)
}

// response decodes msg as the response to e's request.
func (d *decoder) response(msg *Message, e *Exchange) {
	rf := e.Request.Frame
	if rf == nil { // a request not decoded: the input's fields are spent (Read)
		msg.Err = errSpent
		e.Response = msg
		return
	}
	// As the request's answer: an ApiVersions answer in v0 is read so (KIP-511).
	if d.decode(msg, kafka.DecodeOptions{Response: true, Request: rf}); msg.Frame != nil && msg.Frame.Note != "" {
		e.Note = joinNotes(e.Note, msg.Frame.Note)
	}
	e.Response = msg
}

// lone decodes a response whose request is not in the input, with Options.API when given.
func (d *decoder) lone(msg *Message) *Exchange {
	if d.o.API == nil {
		corr := ""
		if len(msg.Bytes) >= 8 {
			corr = fmt.Sprintf(" (correlation id %d)", int32(binary.BigEndian.Uint32(msg.Bytes[4:])))
		}
		msg.Err = fmt.Errorf("capture: a response%s whose request is not in the input: give -api NAME [-version N] to decode it", corr)
		return &Exchange{Response: msg, Note: "unpaired response"}
	}
	v := d.o.API.Version
	if d.o.HaveVersion {
		v = d.o.Version
	}
	d.decode(msg, kafka.DecodeOptions{Response: true, API: d.o.API, Version: v})
	return &Exchange{Response: msg, Note: "unpaired response, decoded as " + d.o.API.Name + " v" + strconv.Itoa(int(v)) + " as asked"}
}

func (d *decoder) decode(msg *Message, o kafka.DecodeOptions) {
	d.decodeOnce(msg, o)
	d.maskAndRetry(msg, o)
}

// maskAndRetry masks what looks like a secret in a message that did not decode whole
// (maskAuth) and decodes the masked bytes again; when they do not decode whole either, the
// error is the one of the bytes as they were sent, not one the masking made (a few bytes of a
// compressed record set masked read as corrupt data).
func (d *decoder) maskAndRetry(msg *Message, o kafka.DecodeOptions) {
	if first := msg.Err; d.maskAuth(msg, "frame") {
		d.decodeOnce(msg, o)
		if msg.Err != nil {
			msg.Err = first
		}
	}
}

// maskAuth masks, in a message that did not decode whole (or a bare SASL token), what looks
// like a SASL client message's secret (kafka.MaskAuth): a frame that does not decode may be
// an auth exchange read wrong, and nothing shows it (its partial tree, its hex dump, another
// reading of it). It reports whether bytes were masked: the masked bytes are then the ones to
// decode.
func (d *decoder) maskAuth(msg *Message, what string) bool {
	if msg.Err == nil && !msg.Token {
		return false
	}
	masked, notes := kafka.MaskAuth(msg.Bytes)
	if notes == nil {
		return false
	}
	msg.Bytes = masked
	for i, n := range notes {
		notes[i] = fmt.Sprintf("the %s at offset %d that does not decode: %s", what, msg.Offset, n)
	}
	d.redact(notes)
	return true
}

func (d *decoder) decodeOnce(msg *Message, o kafka.DecodeOptions) {
	if !d.whole {
		o.MaxDecompressed, o.MaxNodes, o.Recycle = d.o.MaxDecompressed, d.o.MaxNodes, d.recycle
		msg.Frame, msg.Err = d.dec.Decode(msg.Bytes, o)
		if msg.Frame != nil {
			if notes := kafka.Redact(msg.Frame); len(notes) > 0 {
				msg.Bytes = msg.Frame.Bytes
				d.redact(notes)
			}
		}
		return
	}
	if d.left <= 0 {
		msg.Err = errSpent
		return
	}
	o.MaxDecompressed = min(d.o.MaxDecompressed, d.inflate)
	if o.MaxDecompressed == 0 {
		o.MaxDecompressed = -1 // nothing more may inflate
	}
	o.MaxNodes = d.left
	inputBound := d.inflate < d.o.MaxDecompressed // the input's limit, not the frame's, bounds this one
	msg.Frame, msg.Err = d.dec.Decode(msg.Bytes, o)
	if msg.Frame != nil {
		d.left -= msg.Frame.Nodes
		d.inflate -= msg.Frame.Inflated
		if notes := kafka.Redact(msg.Frame); len(notes) > 0 {
			msg.Bytes = msg.Frame.Bytes
			d.redact(notes)
		}
	}
	if inputBound && errors.Is(msg.Err, kafka.ErrDecompressedTooLarge) {
		d.inflateHit = true
	}
}

func baseName(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' || p[i] == '\\' {
			return p[i+1:]
		}
	}
	return p
}

// first is the time of the exchange's first message.
func (e *Exchange) first() time.Time {
	if e.Request != nil {
		return e.Request.Time
	}
	return e.Response.Time
}

// release gives the memory of an exchange's frames back once each is done with it
// (Options.Recycle), but that of a frame that did not decode.
func (e *Exchange) release() {
	for _, m := range []*Message{e.Request, e.Response} {
		if m != nil && m.Frame != nil && m.Err == nil {
			m.Frame.Release()
		}
	}
}

// joinNotes joins two notes of an exchange with "; ", either may be "".
func joinNotes(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "; " + b
}
