package kafka

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/kafkagrid/kafkagrid/schemas"
)

// Frame is one encoded (or decoded) request or response: its bytes and its annotated tree.
type Frame struct {
	API           *API
	Response      bool
	Version       int16 // the message version
	HeaderVersion int16 // the header version (see HeaderVersion)
	CorrelationID int32
	Bytes         []byte // the whole frame, from the int32 size prefix on
	Root          *Node  // KindFrame: the size, the header, the body
	Header        Values // the header's field values
	Body          Values // the body's field values
	// Nodes is how many nodes the annotated tree has, nested trees of compressed batches
	// included (what DecodeOptions.MaxNodes bounds); Inflated is how many bytes its
	// compressed batches inflated to (what DecodeOptions.MaxDecompressed bounds). A response
	// read twice (DecodeResponse) counts the work of both readings.
	Nodes    int
	Inflated int
	// Note says why a response was read at another version than its request's (KIP-511, see
	// DecodeResponse); "" otherwise.
	Note string

	mem *frameMem // DecodeOptions.Recycle: the blocks Release gives back
}

// BaseName is the frame's file base name: "0-Produce-v12-request", "0-Produce-v12-response"
// (BaseName of its API; "-1-unknown-v…" without one).
func (f *Frame) BaseName() string {
	name := "unknown"
	var key int16 = -1
	if f.API != nil {
		name, key = f.API.Name, f.API.Key
	}
	return BaseName(key, name, f.Version, f.Response)
}

// BaseName is the base name of the files of a message of API key (named api) at version v:
// "<key>-<api>-v<v>-request" or "-response", as "0-Produce-v12-request". It is the one
// definition of the name the reference, the capture report and the README's pictures give a
// frame's files (package site adds the figure and the extension).
func BaseName(key int16, api string, v int16, response bool) string {
	side := "request"
	if response {
		side = "response"
	}
	return strconv.Itoa(int(key)) + "-" + api + "-v" + strconv.Itoa(int(v)) + "-" + side
}

// ErrTruncated is wrapped by decoding errors where the frame ends too soon.
var ErrTruncated = errShort

// Error is an encoding or decoding failure: the message, the field path and the byte offset
// (from the start of the frame) where it happened.
type Error struct {
	Message string // "Fetch v17 response"
	Path    string // "Topics[0].Partitions[0].Records#length"; "" for the frame itself
	Offset  int
	Err     error
}

func (e *Error) Error() string {
	if e.Path == "" {
		return fmt.Sprintf("kafka: %s: offset %d: %v", e.Message, e.Offset, e.Err)
	}
	return fmt.Sprintf("kafka: %s: %s: offset %d: %v", e.Message, e.Path, e.Offset, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

func messageName(api *API, response bool, version int16) string {
	side := "request"
	if response {
		side = "response"
	}
	if api == nil {
		return side
	}
	return api.Name + " v" + strconv.Itoa(int(version)) + " " + side
}

func wrapErr(api *API, response bool, version int16, err error) error {
	if err == nil {
		return nil
	}
	var pe *pathError
	if errors.As(err, &pe) {
		return &Error{Message: messageName(api, response, version), Path: pe.path, Offset: pe.off, Err: pe.err}
	}
	return &Error{Message: messageName(api, response, version), Err: err}
}

// HeaderVersion returns the header version of a request or response of api at version v:
// request header v2 when the request version is flexible, else v1; response header v1 when
// the response version is flexible, else v0 — except ApiVersions responses, which always use
// header v0 so that a client can read them whatever it asked for (KIP-511), and ControlledShutdown
// v0 requests, which use request header v0 (no ClientId), as Kafka's generator says
// (ApiMessageTypeGenerator, requestHeaderVersion).
func HeaderVersion(api *API, response bool, v int16) int16 {
	if !response {
		if api.Request.FlexibleIn(v) {
			return 2
		}
		if v == 0 && FactsOf(api.Key, api.Name).V0HeaderV0 {
			return 0
		}
		return 1
	}
	if FactsOf(api.Key, api.Name).ResponseHeaderV0 {
		return 0
	}
	if api.Response.FlexibleIn(v) {
		return 1
	}
	return 0
}

// Message is what Encode writes: a request or response of an API at a version.
type Message struct {
	API           *API
	Response      bool
	Version       int16
	CorrelationID int32
	ClientID      string // the request header's client id
	Body          Values
	// Request is the request a response answers, when known: an Envelope response's
	// ResponseData is read as the answer to the request's nested frame (Embedded).
	Request *Frame
}

func (c *Catalog) headerSpec(response bool) (*schemas.Spec, error) {
	name := "RequestHeader"
	if response {
		name = "ResponseHeader"
	}
	if c.Release == nil {
		return nil, fmt.Errorf("catalog has no release")
	}
	if !response && c.reqHeader != nil {
		return c.reqHeader, nil
	}
	h := c.Release.Header(name)
	if h == nil {
		return nil, fmt.Errorf("the release has no %s spec", name)
	}
	return h, nil
}

// versionedHeader returns a request header spec that says which header version has which
// field. Before flexible versions (Kafka 2.2, 2.3) RequestHeader.json is valid at version 0
// only, with ClientId "0+": it describes header v1, the header of every request but
// ControlledShutdown v0, whose header v0 has no client id. Such a spec is read as later
// releases write it: valid 0-1, ClientId from 1. Any other spec is returned as it is.
func versionedHeader(h *schemas.Spec) *schemas.Spec {
	if h.Name != "RequestHeader" || h.ValidVersions.Hi != 0 {
		return h
	}
	i := slices.IndexFunc(h.Fields, func(f *schemas.Field) bool { return f.Name == "ClientId" })
	if i < 0 || h.Fields[i].Versions.Lo != 0 {
		return h
	}
	cp := *h
	cp.ValidVersions.Hi = 1
	cp.Fields = slices.Clone(h.Fields)
	id := *h.Fields[i]
	id.Versions.Lo = 1
	cp.Fields[i] = &id
	return &cp
}

// Encode writes m as a whole frame (int32 size, header, body) and returns it with its
// annotated tree. The header is encoded from the release's RequestHeader or ResponseHeader
// spec at the version HeaderVersion gives.
func (c *Catalog) Encode(m Message) (*Frame, error) {
	return c.NewEncoder().Encode(m)
}

// An Encoder encodes many frames of a catalogue, carving the nodes of their trees from shared
// blocks: fewer and larger allocations than Catalog.Encode makes for each frame. The frames
// keep those blocks alive together. An Encoder is not safe for concurrent use.
type Encoder struct {
	c    *Catalog
	slab []Node
	kids []*Node
	t    texts  // and their paths and display values
	buf  []byte // frame bytes are carved from here too
	w    writer // the writer of the frame being encoded (one allocation fewer per frame)
}

// NewEncoder returns an Encoder for the catalogue's APIs.
func (c *Catalog) NewEncoder() *Encoder { return &Encoder{c: c} }

// Encode is Catalog.Encode.
func (e *Encoder) Encode(m Message) (*Frame, error) {
	c := e.c
	if m.API == nil {
		return nil, errors.New("kafka: encode: no API")
	}
	spec := m.API.Request
	if m.Response {
		spec = m.API.Response
	}
	if !spec.ValidIn(m.Version) {
		return nil, wrapErr(m.API, m.Response, m.Version, fmt.Errorf("version %d is not valid (%s)", m.Version, spec.ValidVersions))
	}
	hs, err := c.headerSpec(m.Response)
	if err != nil {
		return nil, wrapErr(m.API, m.Response, m.Version, err)
	}
	hv := HeaderVersion(m.API, m.Response, m.Version)
	header := Values{"CorrelationId": int64(m.CorrelationID)}
	if !m.Response {
		header["RequestApiKey"] = int64(m.API.Key)
		header["RequestApiVersion"] = int64(m.Version)
		header["ClientId"] = m.ClientID
	}
	f := &Frame{API: m.API, Response: m.Response, Version: m.Version, HeaderVersion: hv, CorrelationID: m.CorrelationID,
		Header: header, Body: m.Body}
	if cap(e.buf)-len(e.buf) < 256 {
		e.buf = make([]byte, 0, 4096)
	}
	e.w = writer{buf: e.buf[len(e.buf):len(e.buf)]}
	w := &e.w
	k := &walker{w: w, compress: compress, slab: e.slab, kids: e.kids, chunk: slabNodes, t: e.t, keys: e.c}
	defer func() {
		e.slab, e.kids, e.t = k.slab, k.kids, k.t
		if cap(w.buf) == cap(e.buf)-len(e.buf) {
			// The frame fit in the shared buffer (appending never reallocated it, so the
			// capacity is unchanged): the next frame starts after it.
			e.buf = e.buf[:len(e.buf)+len(w.buf)]
		}
		e.w = writer{} // the frame owns its bytes now
	}()
	root := k.alloc()
	root.Kind = KindFrame
	root.Name = m.API.Name
	root.Path = "frame"
	root.WireType = "frame"
	root.Value = k.t.message(m.API, m.Response, m.Version)
	f.Root = root
	err = k.frame(root, hs, hv, spec, m.Version, header, m.Body, f)
	f.Nodes = k.nodes
	root.Length = w.pos()
	f.Bytes = w.buf[:len(w.buf):len(w.buf)] // appending to one frame's bytes must not touch the next
	if err != nil {
		return f, wrapErr(m.API, m.Response, m.Version, err)
	}
	c.embed(f, m.Request, DecodeOptions{})
	return f, nil
}

// frame walks size, header and body. Reading, f.Header and f.Body receive the values.
func (k *walker) frame(root *Node, hs *schemas.Spec, hv int16, spec *schemas.Spec, v int16, header, body Values, f *Frame) error {
	k.children(root, 3)
	walk := func() error {
		if k.w == nil && f.API == nil {
			if err := k.identify(f); err != nil {
				return err
			}
			spec, v = f.API.Request, f.Version
			hv = f.HeaderVersion
		}
		if k.shape == ShapeBody {
			return k.body(root, spec, v, body, f)
		}
		hn := k.alloc()
		hn.Kind = KindHeader
		hn.Name = "header"
		hn.Path = "header"
		hn.Offset = k.pos()
		hn.WireType = "struct"
		hn.Spec = hs.File
		hn.Value = k.t.version(hs.Name, hv)
		root.Children = append(root.Children, hn)
		k.spec, k.ver = hs, hv
		got, err := k.structBody(hn, hs.Fields, "header", "header#tags", header)
		k.end(hn)
		if k.w == nil {
			f.Header = got
			if id, ok := got["CorrelationId"].(int64); ok {
				f.CorrelationID = int32(id)
			}
		}
		if err != nil {
			return err
		}
		return k.body(root, spec, v, body, f)
	}
	if k.shape != ShapeFrame {
		return walk()
	}
	size := k.alloc()
	size.Kind = KindSize
	size.Name = "size"
	size.Path = "#size"
	size.About = "Size of the rest of the frame in bytes (int32)."
	return k.sized(root, size, sizeInt32, walk)
}

// body walks the message body.
func (k *walker) body(root *Node, spec *schemas.Spec, v int16, body Values, f *Frame) error {
	bn := k.alloc()
	bn.Kind = KindBody
	bn.Name = "body"
	bn.Path = "body"
	bn.Offset = k.pos()
	bn.WireType = "struct"
	bn.Spec = spec.File
	bn.Value = k.t.version(spec.Name, v)
	root.Children = append(root.Children, bn)
	k.spec, k.ver = spec, v
	got, err := k.structBody(bn, spec.Fields, "", "body#tags", body)
	k.end(bn)
	if k.w == nil {
		f.Body = got
	}
	return err
}

// identify reads a request's api key and version from its header (without consuming them).
func (k *walker) identify(f *Frame) error {
	r := k.r
	if r.left() < 4 {
		return k.fail("header.RequestApiKey", r.off, "%w: need 4 bytes for the api key and version, %d left", errShort, r.left())
	}
	key := int16(binary.BigEndian.Uint16(r.buf[r.off:]))
	ver := int16(binary.BigEndian.Uint16(r.buf[r.off+2:]))
	if f.API = k.cat.apiByKey(key); f.API == nil {
		return k.fail("header.RequestApiKey", r.off, "unknown api key %d", key)
	}
	f.Version = ver
	if !f.API.Request.ValidIn(ver) {
		return k.fail("header.RequestApiVersion", r.off+2, "%s version %d is not valid (%s)", f.API.Name, ver, f.API.Request.ValidVersions)
	}
	f.HeaderVersion = HeaderVersion(f.API, false, ver)
	return nil
}

// Shape says how much of a frame the bytes given to Decode hold. Test fixtures and logs often
// leave out the size prefix, or keep only the body.
type Shape int

// The shapes Decode reads.
const (
	ShapeFrame  Shape = iota // the whole frame: int32 size, header, body
	ShapeNoSize              // the header and body, without the int32 size prefix
	ShapeBody                // the body alone: no size, no header (DecodeOptions names the API and version, for a request too)
)

func (s Shape) String() string {
	switch s {
	case ShapeNoSize:
		return "frame without its size prefix"
	case ShapeBody:
		return "body only (no size, no header)"
	}
	return "whole frame"
}

// DecodeOptions says what Decode reads. A request names its API and version in its header; a
// response does not, so the caller names them.
type DecodeOptions struct {
	Response bool
	API      *API  // the response's API (ignored for requests, except with ShapeBody)
	Version  int16 // the response's version (ignored for requests, except with ShapeBody)
	// Request, for a response, is the request it answers: when API is nil, the response's API
	// and version are the request's, and the response is read as Kafka's clients read it
	// (DecodeResponse).
	Request *Frame
	// Shape is what the bytes hold: the whole frame (the zero value), the frame without its
	// size prefix, or the body alone. The frame's tree then has no size node (and no header
	// node), and its offsets count from the first byte given.
	Shape Shape
	// MaxDecompressed bounds the bytes the frame's compressed record batches inflate to,
	// together; 0 means DefaultMaxDecompressed, a negative value that nothing may inflate.
	MaxDecompressed int
	// MaxNodes bounds the nodes of the frame's annotated tree, and so the memory of decoding
	// it; 0 or less means DefaultMaxNodes. A frame with more fails with ErrTooManyFields where
	// the limit was reached, its tree decoded up to there.
	MaxNodes int
	// Recycle, in Decoder.Decode, carves the frame's tree from blocks of its own, taken from
	// those frames gave back with Frame.Release (which see), instead of blocks shared with the
	// frames decoded before and after it: a caller that is done with each frame before long
	// (capture.Stream with Options.Recycle) then allocates a fraction as much. Catalog.Decode
	// ignores it.
	Recycle bool

	nested bool // decoding the frame an Envelope carries: no Envelope in it is read as one
}

// DefaultMaxNodes is the most nodes a decoded frame's tree has when DecodeOptions.MaxNodes is
// not set: about a million fields, some 350 MB of tree (a node with its path and value texts
// takes about 350 bytes). That is the Metadata response of a cluster of 58,000 partitions (18
// nodes a partition of three replicas; the largest example frame of any release has 207), and
// it stops a small frame of tiny repeated fields from costing gigabytes: a 16 MiB ApiVersions
// v0 response of 2.8 million elements would be 11 million nodes, 4.3 GB.
const DefaultMaxNodes = 1 << 20

// ErrTooManyFields is wrapped by the error of a frame whose tree would have more nodes than
// DecodeOptions.MaxNodes.
var ErrTooManyFields = errors.New("too many fields")

// Decode reads a whole frame (int32 size, header, body) and returns it with its annotated
// tree; the frame's Bytes alias data. On failure it returns the frame decoded up to that point
// (its tree ends where the failure is) and an *Error naming the offset and field path. Lengths
// are checked against the bytes left before anything is allocated, so a hostile frame cannot
// make Decode allocate more than a small multiple of its size.
func (c *Catalog) Decode(data []byte, o DecodeOptions) (*Frame, error) {
	// A frame of n bytes has at most n leaves, and about 0.43n nodes in all (the examples):
	// usually one slab. The first slab is capped, so that a large input whose size prefix is
	// wrong costs no more than the nodes actually decoded.
	return c.answer(o, func(o DecodeOptions) (*Frame, error) {
		return c.decode(&walker{slab: make([]Node, 0, min(len(data)*7/16+8, maxFirstSlab))}, &reader{}, data, o)
	})
}

// maxFirstSlab bounds the nodes Decode reserves before it has read anything: the largest
// example frame has under 600 nodes.
const maxFirstSlab = 4096

// A Decoder decodes many frames of a catalogue, carving the nodes of their trees from shared
// blocks, as an Encoder does. It is not safe for concurrent use.
type Decoder struct {
	c    *Catalog
	slab []Node
	kids []*Node
	t    texts
	anys []any
	r    reader
}

// NewDecoder returns a Decoder for the catalogue's APIs.
func (c *Catalog) NewDecoder() *Decoder { return &Decoder{c: c} }

// Decode is Catalog.Decode.
func (d *Decoder) Decode(data []byte, o DecodeOptions) (*Frame, error) {
	return d.c.answer(o, func(o DecodeOptions) (*Frame, error) {
		if o.Recycle {
			// Blocks of the frame's own (recycle.go).
			m := frameMems.Get().(*frameMem)
			k := &walker{chunk: slabNodes, mem: m}
			k.t.New = m.newText
			f, err := d.c.decode(k, &d.r, data, o)
			d.r = reader{}
			m.noteUsed(k)
			f.mem = m
			return f, err
		}
		k := &walker{slab: d.slab, kids: d.kids, chunk: slabNodes, t: d.t, anys: d.anys}
		f, err := d.c.decode(k, &d.r, data, o)
		d.r = reader{} // do not keep data alive
		d.slab, d.kids, d.t, d.anys = k.slab, k.kids, k.t, k.anys
		return f, err
	})
}

func (c *Catalog) decode(k *walker, r *reader, data []byte, o DecodeOptions) (*Frame, error) {
	f := &Frame{Response: o.Response, Bytes: data}
	*r = reader{buf: data, end: len(data)}
	k.r, k.cat, k.keys = r, c, c
	switch k.inflate = o.MaxDecompressed; {
	case k.inflate == 0:
		k.inflate = DefaultMaxDecompressed
	case k.inflate < 0:
		k.inflate = 0
	}
	maxInflate := k.inflate
	k.nodes, k.maxNodes = 0, o.MaxNodes
	if k.maxNodes <= 0 {
		k.maxNodes = DefaultMaxNodes
	}
	defer func() { f.Nodes, f.Inflated = k.nodes, maxInflate-k.inflate }()
	root := k.alloc()
	root.Kind = KindFrame
	root.Path = "frame"
	root.WireType = "frame"
	f.Root = root
	var spec *schemas.Spec
	k.shape = o.Shape
	if o.Shape == ShapeBody && !o.Response {
		if o.API == nil {
			return f, &Error{Message: "request", Err: errors.New("decoding a request's body needs its API")}
		}
		f.API, f.Version = o.API, o.Version
		spec = o.API.Request
		if !spec.ValidIn(o.Version) {
			return f, wrapErr(o.API, false, o.Version, fmt.Errorf("version %d is not valid (%s)", o.Version, spec.ValidVersions))
		}
		f.HeaderVersion = HeaderVersion(o.API, false, o.Version)
	}
	if o.Response {
		if o.API == nil {
			return f, &Error{Message: "response", Err: errors.New("decoding a response needs its API")}
		}
		f.API, f.Version = o.API, o.Version
		spec = o.API.Response
		if !spec.ValidIn(o.Version) {
			return f, wrapErr(o.API, true, o.Version, fmt.Errorf("version %d is not valid (%s)", o.Version, spec.ValidVersions))
		}
		f.HeaderVersion = HeaderVersion(o.API, true, o.Version)
	}
	hs, err := c.headerSpec(o.Response)
	if err != nil {
		return f, wrapErr(f.API, o.Response, f.Version, err)
	}
	err = k.frame(root, hs, f.HeaderVersion, spec, f.Version, nil, nil, f)
	root.Length = r.off
	if f.API != nil {
		root.Name = f.API.Name
		root.Value = k.t.message(f.API, f.Response, f.Version)
	}
	if err == nil && r.off != len(data) {
		err = k.fail("", r.off, "%d bytes after the end of the frame", len(data)-r.off)
	}
	api, v := f.API, f.Version
	if at := 4 * boolInt(o.Shape == ShapeFrame); api == nil && !o.Response && o.Shape != ShapeBody && len(data) >= at+4 {
		// The walk failed before the header: name the message the header announces.
		api, v = c.apiByKey(int16(binary.BigEndian.Uint16(data[at:]))), int16(binary.BigEndian.Uint16(data[at+2:]))
	}
	return f, wrapErr(api, o.Response, v, err)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// apiByKey returns the API with the given key, or nil.
func (c *Catalog) apiByKey(key int16) *API {
	for _, a := range c.APIs {
		if a.Key == key {
			return a
		}
	}
	return nil
}
