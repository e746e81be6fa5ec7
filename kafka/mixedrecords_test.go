package kafka

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"strconv"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// kmsgV1 is a magic-1 message as kmsg writes it, its size and CRC set.
func kmsgV1(off int64, key, value string) []byte {
	m := kmsg.MessageV1{Offset: off, Magic: 1, Timestamp: 1633403813153, Key: []byte(key), Value: []byte(value)}
	raw := m.AppendTo(nil)
	binary.BigEndian.PutUint32(raw[8:], uint32(len(raw)-12))
	binary.BigEndian.PutUint32(raw[12:], crc32.ChecksumIEEE(raw[16:]))
	return raw
}

// kmsgV0 is a magic-0 message as kmsg writes it, its size and CRC set.
func kmsgV0(off int64, key, value string) []byte {
	m := kmsg.MessageV0{Offset: off, Key: []byte(key), Value: []byte(value)}
	raw := m.AppendTo(nil)
	binary.BigEndian.PutUint32(raw[8:], uint32(len(raw)-12))
	binary.BigEndian.PutUint32(raw[12:], crc32.ChecksumIEEE(raw[16:]))
	return raw
}

// kmsgBatch is a record batch of one record as kmsg writes it, its length and CRC-32C set.
func kmsgBatch(off int64, key, value string) []byte {
	rec := kmsg.Record{Key: []byte(key), Value: []byte(value)}
	rec.Length = int32(len(rec.AppendTo(nil)) - 1) // less the varint length 0 it wrote
	r := rec.AppendTo(nil)
	b := kmsg.RecordBatch{FirstOffset: off, Magic: 2, ProducerID: -1, ProducerEpoch: -1, FirstSequence: -1, NumRecords: 1, Records: r}
	raw := b.AppendTo(nil)
	binary.BigEndian.PutUint32(raw[8:], uint32(len(raw)-12))
	binary.BigEndian.PutUint32(raw[17:], CRC32C(raw[21:]))
	return raw
}

// fetchV4 is a Fetch v4 response, written by kmsg, whose one partition holds records.
func fetchV4(records []byte) []byte {
	resp := kmsg.NewFetchResponse()
	resp.Version = 4
	topic := kmsg.NewFetchResponseTopic()
	topic.Topic = "t"
	part := kmsg.NewFetchResponseTopicPartition()
	part.HighWatermark = 9
	part.RecordBatches = records
	topic.Partitions = append(topic.Partitions, part)
	resp.Topics = append(resp.Topics, topic)
	body := resp.AppendTo(nil)
	frame := binary.BigEndian.AppendUint32(nil, uint32(4+len(body)))
	frame = binary.BigEndian.AppendUint32(frame, 7)
	return append(frame, body...)
}

// TestRecordsEntryByEntry reads a records field as Kafka's client does: entry by entry, each by
// its own magic byte, and a last entry cut short kept as a partial one. The entries are
// written by kmsg, and each decoded entry's bytes are read back by kmsg's own type for its
// magic; the frame re-encodes to the same bytes.
func TestRecordsEntryByEntry(t *testing.T) {
	c := testCatalog(t, testReleases(t)[len(testReleases(t))-1])
	api, _ := c.Lookup("Fetch")
	if !api.Response.ValidIn(4) {
		c = testCatalog(t, "3.9")
		api, _ = c.Lookup("Fetch")
	}
	b0 := kmsgBatch(0, "alpha", "a")
	m1 := kmsgV1(1, "beta", "b")
	m0 := kmsgV0(2, "gamma", "c")
	b3 := kmsgBatch(3, "delta", "d")
	cut := kmsgV1(4, "epsilon", "eeeeeeee")
	tests := []struct {
		name    string
		records []byte
		want    []string // magic of each entry, or "partial N/M"
		value   string
	}{
		{"batch, then magic 1 and 0, then a batch", cat(b0, m1, m0, b3), []string{"2", "1", "0", "2"}, "2 record batches, 2 messages"},
		{"messages of magic 1 and 0", cat(m1, m0), []string{"1", "0"}, "2 messages"},
		{"a message cut short", cat(m1, cut[:20]), []string{"1", "partial 20/" + itoa(len(cut))}, "1 message, 1 partial"},
		{"a batch cut short before its magic", cat(b0, b3[:14]), []string{"2", "partial 14/" + itoa(len(b3))}, "1 record batch, 1 partial"},
		{"fewer bytes than an offset and size", cat(b0, b3[:7]), []string{"2", "partial 7/0"}, "1 record batch, 1 partial"},
		{"only a partial batch", b3[:40], []string{"partial 40/" + itoa(len(b3))}, "1 partial"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			frame := fetchV4(tt.records)
			f, err := c.Decode(frame, DecodeOptions{Response: true, API: api, Version: 4})
			if err != nil {
				t.Fatal(err)
			}
			var field *Node
			f.Root.Walk(func(n *Node) bool {
				if n.Name == "Records" && n.WireType != "array" {
					field = n
					return false
				}
				return true
			})
			if field == nil || field.Value != tt.value {
				t.Fatalf("records node %+v, want value %q", field, tt.value)
			}
			var got []string
			for _, e := range field.Children[1:] {
				raw := frame[e.Offset : e.Offset+e.Length]
				if e.WireType == "partial" {
					pe := e.Raw.([]byte)
					size := 0
					if s := strings.Fields(e.Value); len(s) > 3 {
						size, _ = strconv.Atoi(s[3])
					}
					if !bytes.Equal(pe, raw) || !strings.HasPrefix(e.Value, "partial: "+itoa(len(raw))+" of ") {
						t.Errorf("partial %q: bytes %x", e.Value, pe)
					}
					got = append(got, "partial "+itoa(len(raw))+"/"+itoa(size))
					continue
				}
				// kmsg reads the entry's bytes by its magic and writes them back the same.
				var again []byte
				switch raw[magicOffset] {
				case 0:
					var m kmsg.MessageV0
					if err := m.ReadFrom(raw); err != nil {
						t.Fatal(err)
					}
					again = m.AppendTo(nil)
				case 1:
					var m kmsg.MessageV1
					if err := m.ReadFrom(raw); err != nil {
						t.Fatal(err)
					}
					again = m.AppendTo(nil)
				case 2:
					var b kmsg.RecordBatch
					if err := b.ReadFrom(raw); err != nil {
						t.Fatal(err)
					}
					again = b.AppendTo(nil)
				}
				if !bytes.Equal(again, raw) || !bytes.Contains(tt.records, raw) {
					t.Errorf("entry %s at %d: kmsg reads it differently", e.Path, e.Offset)
				}
				got = append(got, itoa(int(raw[magicOffset])))
			}
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Errorf("entries %q, want %q", got, tt.want)
			}
			// Written back from its values, the frame is the same bytes.
			again, err := c.Encode(Message{API: api, Response: true, Version: 4, CorrelationID: 7, Body: f.Body})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(again.Bytes, frame) {
				t.Errorf("re-encoded differently at byte %d", firstDiff(again.Bytes, frame))
			}
		})
	}
}

// TestRecordsCorruptEntry: an entry whose size is below the smallest message's, or whose
// magic Kafka does not know, is corrupt, as Kafka's client says, not a partial entry.
func TestRecordsCorruptEntry(t *testing.T) {
	c := testCatalog(t, "3.9")
	api, _ := c.Lookup("Fetch")
	small := kmsgV1(0, "k", "v")
	binary.BigEndian.PutUint32(small[8:], 13)
	magic := kmsgV1(0, "k", "v")
	magic[magicOffset] = 3
	for name, tt := range map[string]struct {
		rec  []byte
		want string
	}{
		"size":  {small, "entry size 13, less than the 14 bytes"},
		"magic": {magic, "magic 3: Kafka knows 0, 1 and 2"},
	} {
		_, err := c.Decode(fetchV4(tt.rec), DecodeOptions{Response: true, API: api, Version: 4})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", name, err, tt.want)
		}
	}
}

func cat(bs ...[]byte) []byte { return bytes.Join(bs, nil) }
