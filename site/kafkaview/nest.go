package kafkaview

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/kafkagrid/kafkagrid/kafka"
)

// envelopeKey is the api key of Envelope (KIP-590), whose RequestData and ResponseData hold a
// whole request or response.
const envelopeKey = 58

// nested is the frame a bytes field of an Envelope carries, decoded and moved into the outer
// frame's offsets and paths; or, when it does not decode, the reason.
type nested struct {
	field  *kafka.Node // the bytes field: RequestData or ResponseData
	data   *kafka.Node // its content (the KindData leaf)
	root   *kafka.Node // the nested frame, re-based: its header and body as children; nil if not decoded
	header *kafka.Node // the nested header (in root)
	label  string      // "CreateTopics v7 request, embedded"
	note   string      // why the bytes are drawn as bytes ("" when decoded)
}

// nest decodes the frame that f, an Envelope request or response, carries, with o.Decode. It
// returns nil when there is nothing to decode (not an Envelope, no Decode, a null or empty
// field), and a nested with a note when the bytes do not decode.
func nest(f *kafka.Frame, o Options) *nested {
	if o.Decode == nil || f == nil || f.Root == nil || f.API == nil || f.API.Key != envelopeKey {
		return nil
	}
	name := "RequestData"
	if f.Response {
		name = "ResponseData"
	}
	field, data := bytesField(f, name)
	if data == nil {
		return nil
	}
	nn := &nested{field: field, data: data}
	content := f.Bytes[data.Offset : data.Offset+data.Length]
	var do kafka.DecodeOptions
	if f.Response {
		// A response names neither its API nor its version: the request it answers does.
		var req *kafka.Frame
		if o.Request != nil && o.Request.API != nil && o.Request.API.Key == envelopeKey && !o.Request.Response {
			if _, rd := bytesField(o.Request, "RequestData"); rd != nil {
				req, _ = decodeBare(o.Decode, o.Request.Bytes[rd.Offset:rd.Offset+rd.Length], kafka.DecodeOptions{})
			}
		}
		if req == nil || req.API == nil {
			nn.note = "Not drawn as a frame: the nested response's API and version come from the request it answers, not known here."
			return nn
		}
		do = kafka.DecodeOptions{Response: true, API: req.API, Version: req.Version}
	}
	inner, err := decodeBare(o.Decode, content, do)
	if err != nil {
		nn.note = "Not drawn as a frame: " + err.Error() + "."
		return nn
	}
	side := "request"
	if inner.Response {
		side = "response"
	}
	nn.label = fmt.Sprintf("%s v%d %s, embedded", inner.API.Name, inner.Version, side)
	// The nested nodes' offsets count from the size prefix decodeBare put back, 4 bytes
	// before the content.
	nn.root = &kafka.Node{Kind: kafka.KindFrame, Path: field.Path}
	for _, c := range inner.Root.Children {
		if c.Kind == kafka.KindSize {
			continue
		}
		cc := rebase(c, data.Offset-4, field.Path+".")
		if cc.Kind == kafka.KindHeader {
			nn.header = cc
		}
		nn.root.Children = append(nn.root.Children, cc)
	}
	return nn
}

// bytesField returns the top-level body field of f with the given name and its content leaf,
// or nils when the field is absent, null or empty.
func bytesField(f *kafka.Frame, name string) (field, data *kafka.Node) {
	if f.Root == nil {
		return nil, nil
	}
	for _, part := range f.Root.Children {
		if part.Kind != kafka.KindBody {
			continue
		}
		for _, c := range part.Children {
			if c.Name != name || c.Path != name {
				continue
			}
			for _, d := range c.Children {
				if d.Kind == kafka.KindData && len(d.Children) == 0 && d.Length > 0 &&
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
func decodeBare(decode func([]byte, kafka.DecodeOptions) (*kafka.Frame, error), b []byte, o kafka.DecodeOptions) (f *kafka.Frame, err error) {
	if len(b) > 1<<30 {
		return nil, fmt.Errorf("kafkaview: nested frame of %d bytes: too large", len(b))
	}
	buf := make([]byte, 4+len(b))
	binary.BigEndian.PutUint32(buf, uint32(len(b)))
	copy(buf[4:], b)
	f, err = decode(buf, o)
	if err != nil {
		return nil, fmt.Errorf("kafkaview: nested frame: %w", err)
	}
	if f == nil || f.Root == nil || f.API == nil {
		return nil, errors.New("kafkaview: nested frame: decoded to nothing")
	}
	if f.Root.Length != len(buf) {
		return nil, fmt.Errorf("kafkaview: nested frame: %d bytes after its end", len(buf)-f.Root.Length)
	}
	return f, nil
}

// rebase copies n and its descendants with their offsets moved by shift and their paths
// prefixed with prefix, leaving the nested frame's own nodes as they are.
func rebase(n *kafka.Node, shift int, prefix string) *kafka.Node {
	c := *n
	c.Offset += shift
	c.Path = prefix + n.Path
	if len(n.Children) > 0 {
		c.Children = make([]*kafka.Node, len(n.Children))
		for i, ch := range n.Children {
			c.Children[i] = rebase(ch, shift, prefix)
		}
	}
	return &c
}
