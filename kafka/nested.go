package kafka

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Embedded is the Raw value of the content leaf (KindData, path "RequestData#data") of a
// bytes field that carries a whole frame: Envelope's RequestData and ResponseData, a request
// or response without its int32 size prefix (Facts.Envelope, KIP-590). Encode and Decode read
// the frame it carries once, as they read the records of a compressed batch; a drawing of the
// outer frame takes it from here.
//
// A nested response names neither its API nor its version: they come from the request it
// answers, the Envelope request's nested frame (Message.Request, DecodeOptions.Request).
type Embedded struct {
	// Frame is the nested frame, decoded from the content with its size prefix put back: its
	// offsets count from that prefix, 4 bytes before the content. nil when it did not decode.
	Frame *Frame
	// Root is the nested frame as the outer frame holds it: a KindFrame node named by the
	// bytes field's path ("RequestData"), with the nested header and body as children, their
	// offsets the outer frame's and their paths prefixed with the field's
	// ("RequestData.header.RequestApiKey"). nil when Frame is.
	Root *Node
	// Label says what the frame is: "CreateTopics v7 request, embedded".
	Label string
	// Note says why the content is not read as a frame ("" when it is): "the nested
	// response's API and version come from the request it answers, not known here", or the
	// decoding error.
	Note string
}

// embed reads the frame an Envelope frame f carries, when it carries one (a non-empty
// RequestData or ResponseData), into the Raw of the field's content leaf. req is the request f
// answers, when f is a response; o bounds the work (what f already spent is taken from it).
func (c *Catalog) embed(f *Frame, req *Frame, o DecodeOptions) {
	if f == nil || f.API == nil || f.Root == nil || o.nested || !FactsOf(f.API.Key, f.API.Name).Envelope {
		return
	}
	name := "RequestData"
	if f.Response {
		name = "ResponseData"
	}
	field, data := bytesField(f, name)
	if data == nil {
		return
	}
	e := &Embedded{}
	data.Raw = e
	do := DecodeOptions{nested: true, MaxNodes: max(o.MaxNodes, 0), MaxDecompressed: o.MaxDecompressed}
	if do.MaxNodes == 0 {
		do.MaxNodes = DefaultMaxNodes
	}
	if do.MaxNodes -= f.Nodes; do.MaxNodes <= 0 {
		e.Note = "kafka: nested frame: " + ErrTooManyFields.Error()
		return
	}
	if do.MaxDecompressed == 0 {
		do.MaxDecompressed = DefaultMaxDecompressed
	}
	if do.MaxDecompressed > 0 {
		if do.MaxDecompressed -= f.Inflated; do.MaxDecompressed <= 0 {
			do.MaxDecompressed = -1
		}
	}
	if f.Response {
		// A response names neither its API nor its version: the request it answers does.
		var inner *Frame
		if req != nil && req.API != nil && !req.Response && FactsOf(req.API.Key, req.API.Name).Envelope {
			if _, rd := bytesField(req, "RequestData"); rd != nil {
				if re, ok := rd.Raw.(*Embedded); ok {
					inner = re.Frame
				}
			}
		}
		if inner == nil || inner.API == nil {
			e.Note = "the nested response's API and version come from the request it answers, not known here"
			return
		}
		do.Response, do.API, do.Version = true, inner.API, inner.Version
	}
	inner, err := c.decodeBare(f.Bytes[data.Offset:data.Offset+data.Length], do)
	if inner != nil {
		f.Nodes += inner.Nodes
		f.Inflated += inner.Inflated
	}
	if err != nil {
		e.Note = err.Error()
		return
	}
	side := "request"
	if inner.Response {
		side = "response"
	}
	e.Frame = inner
	e.Label = fmt.Sprintf("%s v%d %s, embedded", inner.API.Name, inner.Version, side)
	// The nested nodes' offsets count from the size prefix decodeBare put back, 4 bytes
	// before the content.
	e.Root = &Node{Kind: KindFrame, Path: field.Path}
	for _, ch := range inner.Root.Children {
		if ch.Kind == KindSize {
			continue
		}
		e.Root.Children = append(e.Root.Children, rebase(ch, data.Offset-4, field.Path+"."))
	}
}

// bytesField returns the top-level body field of f with the given name and its content leaf,
// or nils when the field is absent, null or empty.
func bytesField(f *Frame, name string) (field, data *Node) {
	for _, part := range f.Root.Children {
		if part.Kind != KindBody {
			continue
		}
		for _, c := range part.Children {
			if c.Name != name || c.Path != name {
				continue
			}
			for _, d := range c.Children {
				if d.Kind == KindData && len(d.Children) == 0 && d.Length > 0 &&
					d.Offset >= 0 && d.Offset+d.Length <= len(f.Bytes) {
					return c, d
				}
			}
		}
	}
	return nil, nil
}

// decodeBare decodes a frame without its int32 size prefix: it puts one back and decodes the
// whole, so the frame's offsets count from that prefix.
func (c *Catalog) decodeBare(b []byte, o DecodeOptions) (*Frame, error) {
	if len(b) > 1<<30 {
		return nil, fmt.Errorf("kafka: nested frame of %d bytes: too large", len(b))
	}
	buf := make([]byte, 4+len(b))
	binary.BigEndian.PutUint32(buf, uint32(len(b)))
	copy(buf[4:], b)
	f, err := c.Decode(buf, o)
	if err != nil {
		return f, fmt.Errorf("kafka: nested frame: %w", err)
	}
	if f == nil || f.Root == nil || f.API == nil {
		return f, errors.New("kafka: nested frame: decoded to nothing")
	}
	return f, nil
}

// rebase copies n and its descendants with their offsets moved by shift and their paths
// prefixed with prefix.
func rebase(n *Node, shift int, prefix string) *Node {
	c := *n
	c.Offset += shift
	c.Path = prefix + n.Path
	if len(n.Children) > 0 {
		c.Children = make([]*Node, len(n.Children))
		for i, ch := range n.Children {
			c.Children[i] = rebase(ch, shift, prefix)
		}
	}
	return &c
}
