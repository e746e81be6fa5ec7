package bytegrid_test

import (
	"encoding/binary"
	"fmt"
	"io"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/canvas/svgcanvas"
)

// frame builds byte-aligned fields one after the other.
type frame struct {
	fields []bytegrid.Field
	off    int
}

func (f *frame) add(name, value, group string, kind bytegrid.Kind, typ string, b []byte) {
	f.fields = append(f.fields, bytegrid.Field{
		Offset: f.off * 8, Bits: len(b) * 8, Name: name, Value: value, Group: group, Kind: kind,
		Bytes: b, Path: name, Type: typ, Desc: "About " + name + ".",
	})
	f.off += len(b)
}

func be16(v int) []byte { return binary.BigEndian.AppendUint16(nil, uint16(v)) }
func be32(v int) []byte { return binary.BigEndian.AppendUint32(nil, uint32(v)) }

func filled(n int, seed byte) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = seed + byte(i*7)
	}
	return b
}

// kafkaLike returns a synthetic frame shaped like a Kafka Produce request: 62 fields, 357
// bytes, with nested groups, compact strings, tagged-field sections and a long record batch.
func kafkaLike() []bytegrid.Field {
	var f frame
	f.add("Size", "353", "", bytegrid.Size, "int32", be32(353))
	f.add("RequestApiKey", "0", "Header", bytegrid.Header, "int16", be16(0))
	f.add("RequestApiVersion", "12", "Header", bytegrid.Header, "int16", be16(12))
	f.add("CorrelationId", "7", "Header", bytegrid.Header, "int32", be32(7))
	f.add("ClientId length", "9", "Header", bytegrid.Length, "int16", be16(9))
	f.add("ClientId", "kafkagrid", "Header", bytegrid.Plain, "string", []byte("kafkagrid"))
	f.add("TAG_BUFFER", "0", "Header", bytegrid.Tags, "tagged fields", []byte{0})
	f.add("TransactionalId", "null", "Body", bytegrid.Length, "compact nullable string", []byte{0})
	f.add("Acks", "-1", "Body", bytegrid.Plain, "int16", be16(0xffff))
	f.add("TimeoutMs", "30000", "Body", bytegrid.Plain, "int32", be32(30000))
	f.add("TopicData length", "2", "Body", bytegrid.Length, "compact array", []byte{3})
	for t := 0; t < 2; t++ {
		g := fmt.Sprintf("TopicData[%d]", t)
		name := fmt.Sprintf("orders-%d", t)
		f.add("Name length", fmt.Sprint(len(name)), g, bytegrid.Length, "compact string", []byte{byte(len(name) + 1)})
		f.add("Name", name, g, bytegrid.Plain, "compact string", []byte(name))
		f.add("PartitionData length", "2", g, bytegrid.Length, "compact array", []byte{3})
		for p := 0; p < 2; p++ {
			pg := fmt.Sprintf("%s.PartitionData[%d]", g, p)
			f.add("Index", fmt.Sprint(p), pg, bytegrid.Plain, "int32", be32(p))
			n := 40
			if t == 0 && p == 0 {
				n = 61
			}
			f.add("Records length", fmt.Sprint(n), pg, bytegrid.Length, "compact records", []byte{byte(n + 1)})
			f.add("BaseOffset", "0", pg, bytegrid.Plain, "int64", make([]byte, 8))
			f.add("BatchLength", fmt.Sprint(n-12), pg, bytegrid.Size, "int32", be32(n-12))
			f.add("Records", fmt.Sprintf("%d bytes", n-12), pg, bytegrid.Plain, "records", filled(n-12, byte(t*16+p)))
			f.add("TAG_BUFFER", "0", pg, bytegrid.Tags, "tagged fields", []byte{0})
		}
		f.add("TAG_BUFFER", "0", g, bytegrid.Tags, "tagged fields", []byte{0})
	}
	f.add("TAG_BUFFER", "0", "Body", bytegrid.Tags, "tagged fields", []byte{0})
	for len(f.fields) < 61 {
		f.add("Padding", "", "Body", bytegrid.Padding, "bytes", []byte{0})
	}
	f.add("Trailer", "end", "Body", bytegrid.Plain, "bytes", filled(357-f.off, 0x30))
	return f.fields
}

// ipv4 returns the fields of the RFC 791 header figure, without raw bytes.
func ipv4() []bytegrid.Field {
	specs := []struct {
		name string
		bits int
	}{
		{"Version", 4}, {"IHL", 4}, {"Type of Service", 8}, {"Total Length", 16},
		{"Identification", 16}, {"Flags", 3}, {"Fragment Offset", 13},
		{"Time to Live", 8}, {"Protocol", 8}, {"Header Checksum", 16},
		{"Source Address", 32}, {"Destination Address", 32}, {"Options", 24}, {"Padding", 8},
	}
	var fs []bytegrid.Field
	off := 0
	for _, s := range specs {
		fs = append(fs, bytegrid.Field{Offset: off, Bits: s.bits, Name: s.name, Group: "IP"})
		off += s.bits
	}
	return fs
}

func newSVG(w io.Writer, width, height canvas.Pt) *svgcanvas.Canvas {
	return svgcanvas.New(w, width, height, svgcanvas.Options{Class: "kg-grid"})
}
