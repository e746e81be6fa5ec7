package kafkaview

import (
	"github.com/kafkagrid/kafkagrid/kafka"
)

// nested is the frame a bytes field of an Envelope carries, as the codec read it
// (kafka.Embedded, in the Raw of the field's content leaf); or, when it did not read it as a
// frame, the reason.
type nested struct {
	field  *kafka.Node // the bytes field: RequestData or ResponseData
	data   *kafka.Node // its content (the KindData leaf)
	root   *kafka.Node // the nested frame, re-based: its header and body as children; nil if not decoded
	header *kafka.Node // the nested header (in root)
	label  string      // "CreateTopics v7 request, embedded"
	note   string      // why the bytes are drawn as bytes ("" when decoded)
}

// nest returns the frame f's body carries whole, when the codec read one (an Envelope's
// non-empty RequestData or ResponseData), with a note when its bytes are not a frame it could
// read; nil when there is none, or when o.Flat asks for the bytes.
func nest(f *kafka.Frame, o Options) *nested {
	if o.Flat || f == nil || f.Root == nil {
		return nil
	}
	for _, part := range f.Root.Children {
		if part.Kind != kafka.KindBody {
			continue
		}
		for _, field := range part.Children {
			for _, data := range field.Children {
				e, ok := data.Raw.(*kafka.Embedded)
				if !ok || data.Kind != kafka.KindData {
					continue
				}
				nn := &nested{field: field, data: data}
				if e.Root == nil {
					nn.note = "Not drawn as a frame: " + e.Note + "."
					return nn
				}
				nn.root, nn.label = e.Root, e.Label
				for _, c := range e.Root.Children {
					if c.Kind == kafka.KindHeader {
						nn.header = c
					}
				}
				return nn
			}
		}
	}
	return nil
}
