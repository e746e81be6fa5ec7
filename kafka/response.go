package kafka

import (
	"errors"
	"fmt"
)

// DecodeResponse decodes data, a whole response frame, as the answer to req, the request
// frame it answers (encoded or decoded): the response's API and version are req's. It reads
// the response as Kafka's clients do. An ApiVersions response (Facts.ResponseHeaderV0) that
// does not decode at the version asked is read again at v0: a broker that does not speak that
// version answers in v0, with UNSUPPORTED_VERSION and the versions it does speak (KIP-511,
// https://cwiki.apache.org/confluence/x/ltANCw); the frame's Note then says so, and its Nodes
// and Inflated count both readings, which o's limits bound together. When neither reading
// succeeds, the first one's frame and error are returned.
//
// It is Decode with o.Response set and o.Request = req; the other fields of o apply as there.
func (c *Catalog) DecodeResponse(data []byte, req *Frame, o DecodeOptions) (*Frame, error) {
	o, err := responseOptions(req, o)
	if err != nil {
		return &Frame{Response: true, Bytes: data}, err
	}
	return c.Decode(data, o)
}

// DecodeResponse is Catalog.DecodeResponse, with the Decoder's shared blocks.
func (d *Decoder) DecodeResponse(data []byte, req *Frame, o DecodeOptions) (*Frame, error) {
	o, err := responseOptions(req, o)
	if err != nil {
		return &Frame{Response: true, Bytes: data}, err
	}
	return d.Decode(data, o)
}

func responseOptions(req *Frame, o DecodeOptions) (DecodeOptions, error) {
	if req == nil || req.API == nil || req.Response {
		return o, &Error{Message: "response", Err: errors.New("decoding a response needs the request frame it answers")}
	}
	o.Response, o.Request, o.API, o.Version = true, req, nil, 0
	return o, nil
}

// answer runs dec with o, reads the frame an Envelope carries (embed), and runs dec with o, the API and version of a response taken from o.Request when o.API
// is nil; an ApiVersions response that fails is read again at v0 (KIP-511, DecodeResponse),
// with what the first reading spent taken from o's limits.
func (c *Catalog) answer(o DecodeOptions, dec func(DecodeOptions) (*Frame, error)) (*Frame, error) {
	f, err := answerAt(o, dec)
	c.embed(f, o.Request, o)
	return f, err
}

// answerAt is answer without the nested frame.
func answerAt(o DecodeOptions, dec func(DecodeOptions) (*Frame, error)) (*Frame, error) {
	if !o.Response || o.Request == nil || o.API != nil {
		return dec(o)
	}
	o.API, o.Version = o.Request.API, o.Request.Version
	f, err := dec(o)
	if err == nil || f == nil || o.API == nil || o.Version == 0 || !FactsOf(o.API.Key, o.API.Name).ResponseHeaderV0 {
		return f, err
	}
	o0 := o
	o0.Version = 0
	if o0.MaxNodes <= 0 {
		o0.MaxNodes = DefaultMaxNodes
	}
	if o0.MaxNodes -= f.Nodes; o0.MaxNodes <= 0 {
		return f, err // the first reading spent the budget
	}
	switch {
	case o0.MaxDecompressed == 0:
		o0.MaxDecompressed = DefaultMaxDecompressed - f.Inflated
	case o0.MaxDecompressed > 0:
		o0.MaxDecompressed -= f.Inflated
	}
	if o0.MaxDecompressed == 0 {
		o0.MaxDecompressed = -1 // nothing more may inflate
	}
	f0, err0 := dec(o0)
	if f0 == nil {
		return f, err
	}
	if err0 != nil {
		f.Nodes += f0.Nodes
		f.Inflated += f0.Inflated
		return f, err
	}
	f0.Nodes += f.Nodes
	f0.Inflated += f.Inflated
	f0.Note = fmt.Sprintf("the broker answers %s v%d in v0: it does not speak v%d (KIP-511)", o.API.Name, o.Version, o.Version)
	return f0, nil
}
