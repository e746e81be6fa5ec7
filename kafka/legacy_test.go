package kafka

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"strings"
	"testing"
)

// TestLegacyMessageSets: Produce v0-v2 and Fetch v0-v3 carry message sets of magic 0 and 1,
// byte for byte as the protocol guide describes them, with the CRC-32 (IEEE) checked on decode.
// TestBuiltRecords checks every records field of every frame with kmsg; this one the bytes.
func TestLegacyMessageSets(t *testing.T) {
	for _, rel := range testReleases(t) {
		c := testCatalog(t, rel)
		for _, tc := range []struct {
			api   string
			v     int16
			resp  bool
			magic int8
		}{
			{"Produce", 0, false, 0}, {"Produce", 1, false, 0}, {"Produce", 2, false, 1}, {"Produce", 3, false, 2},
			{"Fetch", 0, true, 0}, {"Fetch", 1, true, 0}, {"Fetch", 2, true, 1}, {"Fetch", 3, true, 1}, {"Fetch", 4, true, 2},
		} {
			api, ok := c.Lookup(tc.api)
			if !ok || !api.Request.ValidIn(tc.v) {
				continue // KIP-896 removed these versions in 4.0
			}
			// With the built-in overrides, as build writes them (a list override builds its
			// elements afresh, records included).
			data, err := fsReadExample(api)
			if err != nil {
				t.Fatal(err)
			}
			body, _, err := Example(api, tc.resp, tc.v, api.Name+".yaml", data)
			if err != nil {
				t.Fatal(err)
			}
			f, err := c.Encode(Message{API: api, Response: tc.resp, Version: tc.v, CorrelationID: 7, ClientID: "kafkagrid", Body: body})
			if err != nil {
				t.Fatalf("%s: %v", rel, err)
			}
			var rec *Node
			f.Root.Walk(func(n *Node) bool {
				if n.WireType == "message" || n.WireType == "record_batch" {
					rec = n
					return false
				}
				return true
			})
			if rec == nil {
				t.Fatalf("%s %s: no records", rel, f.BaseName())
			}
			raw := f.Bytes[rec.Offset : rec.Offset+rec.Length]
			if got := int8(raw[magicOffset]); got != tc.magic {
				t.Errorf("%s %s: magic %d, want %d", rel, f.BaseName(), got, tc.magic)
			}
			if tc.magic == 2 {
				continue
			}
			// offset, size, crc, magic, attributes, [timestamp], key, value: as the guide says.
			// A producer sends offset 0; a fetch returns the story's offset.
			off := uint64(0)
			if tc.resp {
				off = uint64(story().Log.BatchOffset)
			}
			want := binary.BigEndian.AppendUint64(nil, off)
			msg := []byte{byte(tc.magic), 0}
			if tc.magic == 1 {
				msg = binary.BigEndian.AppendUint64(msg, uint64(story().Clock))
			}
			r := exampleBatch(story()).Records[0]
			msg = binary.BigEndian.AppendUint32(msg, uint32(len(r.Key)))
			msg = append(msg, r.Key...)
			msg = binary.BigEndian.AppendUint32(msg, uint32(len(r.Value)))
			msg = append(msg, r.Value...)
			want = binary.BigEndian.AppendUint32(want, uint32(4+len(msg)))
			want = binary.BigEndian.AppendUint32(want, crc32.ChecksumIEEE(msg))
			want = append(want, msg...)
			if !bytes.Equal(raw, want) {
				t.Errorf("%s %s:\n got % x\nwant % x", rel, f.BaseName(), raw, want)
			}
			g, err := c.Decode(f.Bytes, DecodeOptions{Response: tc.resp, API: api, Version: tc.v})
			if err != nil || !bytes.Equal(g.Bytes, f.Bytes) || !equalValue(g.Body, f.Body) {
				t.Errorf("%s %s: round trip: %v", rel, f.BaseName(), err)
			}
			if d := diffTrees(f.Root, g.Root); d != "" {
				t.Errorf("%s %s: decoded tree differs: %s", rel, f.BaseName(), d)
			}
			// A flipped value byte fails the CRC, at the CRC's offset.
			bad := bytes.Clone(f.Bytes)
			bad[rec.Offset+rec.Length-1] ^= 1
			if _, err := c.Decode(bad, DecodeOptions{Response: tc.resp, API: api, Version: tc.v}); err == nil || !strings.Contains(err.Error(), "CRC 0x") {
				t.Errorf("%s %s: corrupt message: %v", rel, f.BaseName(), err)
			}
		}
	}
}
