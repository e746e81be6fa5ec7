package kafka

import (
	"bytes"
	"fmt"
	"hash/crc32"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// legacyBody is a Produce v2 request body (Kafka 3.9 still has it) whose records are a
// legacy message set: an uncompressed magic 0 message, then a magic 1 wrapper compressed with
// codec holding three messages.
func legacyBody(codec Codec) Values {
	inner := MessageSet{}
	for i := range 3 {
		inner = append(inner, LegacyMessage{Offset: int64(i), Magic: 1, Timestamp: story().Clock + int64(i),
			Key: []byte(fmt.Sprintf("order-%d", i)), Value: []byte(fmt.Sprintf(`{"id":%d,"total":9.5}`, i))})
	}
	set := MessageSet{
		{Offset: 0, Magic: 0, Key: nil, Value: []byte("plain old message")},
		{Offset: 3, Magic: 1, Attributes: int8(codec), Timestamp: story().Clock, Inner: inner},
	}
	return Values{"Acks": int64(-1), "TimeoutMs": int64(30000), "TopicData": []any{Values{"Name": "orders",
		"PartitionData": []any{Values{"Index": int64(0), "Records": set}}}}}
}

// TestLegacyMessageSets encodes and decodes legacy message sets with a compressed wrapper of
// each codec (gzip, snappy in the xerial framing the Java clients of that era wrote, lz4),
// and checks the bytes with kmsg's MessageV0/MessageV1 and independent decompressors.
func TestLegacyWrappers(t *testing.T) {
	cat := testCatalog(t, "3.9")
	api, _ := cat.Lookup("Produce")
	for _, codec := range []Codec{CodecGzip, CodecSnappy, CodecLZ4} {
		t.Run(codec.String(), func(t *testing.T) {
			f, err := cat.Encode(Message{API: api, Version: 2, CorrelationID: 7, ClientID: exampleClientID, Body: legacyBody(codec)})
			if err != nil {
				t.Fatal(err)
			}
			if err := checkTiling(f); err != nil {
				t.Fatal(err)
			}
			rec := f.Root.Find("TopicData[0].PartitionData[0].Records")
			plain := f.Root.Find("TopicData[0].PartitionData[0].Records[0]")
			wrap := f.Root.Find("TopicData[0].PartitionData[0].Records[1]")
			if rec == nil || plain == nil || wrap == nil {
				t.Fatal("no messages in the tree")
			}
			var m0 kmsg.MessageV0
			if err := m0.ReadFrom(f.Bytes[plain.Offset : plain.Offset+plain.Length]); err != nil || string(m0.Value) != "plain old message" ||
				uint32(m0.CRC) != crc32.ChecksumIEEE(f.Bytes[plain.Offset+16:plain.Offset+plain.Length]) {
				t.Fatalf("kmsg.MessageV0: %v %+v", err, m0)
			}
			var m1 kmsg.MessageV1
			if err := m1.ReadFrom(f.Bytes[wrap.Offset : wrap.Offset+wrap.Length]); err != nil || m1.Attributes&7 != int8(codec) {
				t.Fatalf("kmsg.MessageV1: %v", err)
			}
			if uint32(m1.CRC) != crc32.ChecksumIEEE(f.Bytes[wrap.Offset+16:wrap.Offset+wrap.Length]) {
				t.Errorf("wrapper CRC %08x", uint32(m1.CRC))
			}
			innerSet := independentInflate(t, codec, m1.Value)
			var first kmsg.MessageV1
			if err := first.ReadFrom(innerSet); err != nil || string(first.Key) != "order-0" {
				t.Fatalf("kmsg reads the first inner message: %v %+v", err, first)
			}

			g, err := cat.Decode(f.Bytes, DecodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if !equalValue(g.Body, f.Body) {
				t.Error("decoded values differ")
			}
			again, err := cat.Encode(Message{API: api, Version: 2, CorrelationID: 7, ClientID: exampleClientID, Body: g.Body})
			if err != nil || !bytes.Equal(again.Bytes, f.Bytes) {
				t.Errorf("re-encoding differs (%v)", err)
			}
			cn := g.Root.Find("TopicData[0].PartitionData[0].Records[1].Value#compressed")
			comp, ok := cn.Raw.(*Compressed)
			if !ok || comp.Root.Find("TopicData[0].PartitionData[0].Records[1].Value.Messages[2].Value") == nil || comp.Root.Offset != 0 {
				t.Fatalf("no nested messages under %v", cn)
			}
			var text bytes.Buffer
			WriteText(&text, g.Root)
			if !bytes.Contains(text.Bytes(), []byte(`Value = "{\"id\":2,\"total\":9.5}"`)) {
				t.Errorf("text tree lacks the inner messages:\n%s", text.String())
			}
		})
	}
}

// TestLegacyErrors: a bad CRC and nested compression are errors at their paths.
func TestLegacyWrapperErrors(t *testing.T) {
	cat := testCatalog(t, "3.9")
	api, _ := cat.Lookup("Produce")
	f, err := cat.Encode(Message{API: api, Version: 2, CorrelationID: 7, ClientID: exampleClientID, Body: legacyBody(CodecGzip)})
	if err != nil {
		t.Fatal(err)
	}
	b := bytes.Clone(f.Bytes)
	plain := f.Root.Find("TopicData[0].PartitionData[0].Records[0].Value#data")
	b[plain.Offset] ^= 1
	if _, err := cat.Decode(b, DecodeOptions{}); err == nil || !bytes.Contains([]byte(err.Error()), []byte("Records[0].CRC")) {
		t.Errorf("bad CRC: %v", err)
	}
	body := legacyBody(CodecGzip)
	set := body["TopicData"].([]any)[0].(Values)["PartitionData"].([]any)[0].(Values)["Records"].(MessageSet)
	set[1].Inner[0].Attributes = int8(CodecGzip)
	if _, err := cat.Encode(Message{API: api, Version: 2, CorrelationID: 7, ClientID: exampleClientID, Body: body}); err == nil {
		t.Error("nested compression encoded")
	}
}
