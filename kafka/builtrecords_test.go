package kafka

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"reflect"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// The records check that does not use our decoder: every records field of every example frame
// of every release, as build writes them (Catalog.Vectors with the build's options, overrides
// and all), is found in the frame by kmsg and read with kmsg.RecordBatch, kmsg.Record,
// kmsg.MessageV0 and kmsg.MessageV1, compressed data inflated by the codecs' own libraries.
// The rules it holds the bytes to are written here from the protocol guide and the KIPs, not
// taken from the code that writes them.

// builtMagic is the record format a records field carries (https://kafka.apache.org/
// documentation/#messageformat; the broker down-converts a fetch to it, and refuses a produce
// of another): message sets of magic 0 in Produce v0-v1 and Fetch v0-v1, of magic 1 (KIP-32,
// timestamps) in Produce v2 and Fetch v2-v3, record batches (magic 2, KIP-98) from Produce v3
// and Fetch v4, and in every other API.
func builtMagic(key, v int16) int8 {
	switch {
	case key == 0 && v <= 1, key == 1 && v <= 1:
		return 0
	case key == 0 && v == 2, key == 1 && v <= 3:
		return 1
	}
	return 2
}

// builtCodec is the codec a version's records carry when the build asks for c: zstd only in
// record batches of Produce v7+ and Fetch v10+ (KIP-110; the broker answers an older Produce
// with UNSUPPORTED_COMPRESSION_TYPE and never returns zstd to an older Fetch), and never in a
// message set, whose attributes name codecs 0-3; gzip, snappy and lz4 (Kafka 0.8.2, magic 0
// included) everywhere. What is refused is written uncompressed.
func builtCodec(key, v int16, c Codec) Codec {
	if c == CodecZstd && (builtMagic(key, v) < 2 || key == 0 && v < 7 || key == 1 && v < 10) {
		return CodecNone
	}
	return c
}

// TestBuiltRecords checks the records of every example frame of every release, every version,
// with every -compression a build takes.
func TestBuiltRecords(t *testing.T) {
	codecs := []struct {
		name   string
		codec  Codec
		xerial bool
	}{
		{"none", CodecNone, false}, {"gzip", CodecGzip, false}, {"snappy", CodecSnappy, false},
		{"snappy-xerial", CodecSnappy, true}, {"lz4", CodecLZ4, false}, {"zstd", CodecZstd, false},
	}
	for _, rel := range dataReleases(t) {
		c := testCatalog(t, rel)
		for _, tc := range codecs {
			t.Run(rel+"/"+tc.name, func(t *testing.T) {
				vecs, err := c.Vectors(VectorOptions{Versions: AllVersions(), Compression: tc.codec, Xerial: tc.xerial})
				if err != nil {
					t.Fatal(err)
				}
				fields, legacy, located := 0, 0, 0
				for _, vec := range vecs {
					for _, f := range []*Frame{vec.Request, vec.Response} {
						sets, byKmsg, err := kmsgRecordFields(f)
						if err != nil {
							t.Error(err)
							continue
						}
						if byKmsg {
							located += len(sets)
						}
						for i, raw := range sets {
							fields++
							if builtMagic(f.API.Key, f.Version) < 2 {
								legacy++
							}
							if err := checkBuiltRecords(f, raw, builtCodec(f.API.Key, f.Version, tc.codec)); err != nil {
								t.Errorf("Kafka %s %s: records field %d: %v", rel, f.BaseName(), i, err)
							}
						}
					}
				}
				if fields == 0 {
					t.Fatal("no records fields")
				}
				t.Logf("Kafka %s, %s: %d records fields (%d legacy message sets) checked, %d of them found by kmsg (the others at versions kmsg does not know)",
					rel, tc.name, fields, legacy, located)
			})
		}
	}
}

// kmsgRecordFields returns the non-null records fields of a frame as kmsg finds them: it reads
// the body, and its records fields are collected in wire order (collectRecords). For a
// version kmsg does not know, the fields are where our frame's tree puts them. Either way,
// their number and bytes must agree with the tree.
func kmsgRecordFields(f *Frame) (fields [][]byte, byKmsg bool, err error) {
	var tree [][]byte
	f.Root.Walk(func(n *Node) bool {
		if n.WireType != "records" && n.WireType != "compact_records" {
			return true
		}
		if n.Value != "null" && len(n.Children) > 0 {
			l := n.Children[0]
			tree = append(tree, f.Bytes[l.Offset+l.Length:n.Offset+n.Length])
		}
		return false
	})
	if len(tree) == 0 {
		return nil, false, nil
	}
	var msg interface {
		SetVersion(int16)
		ReadFrom([]byte) error
	}
	if f.Response {
		if r := kmsg.ResponseForKey(f.API.Key); r != nil && f.Version <= r.MaxVersion() {
			msg = r
		}
	} else if r := kmsg.RequestForKey(f.API.Key); r != nil && f.Version <= r.MaxVersion() {
		msg = r
	}
	if msg == nil {
		return tree, false, nil
	}
	body := f.Root.Children[len(f.Root.Children)-1]
	msg.SetVersion(f.Version)
	if err := msg.ReadFrom(f.Bytes[body.Offset:]); err != nil {
		return nil, false, fmt.Errorf("%s: kmsg: %v", f.BaseName(), err)
	}
	var found [][]byte
	collectRecords(reflect.ValueOf(msg), &found)
	if len(found) != len(tree) {
		return nil, false, fmt.Errorf("%s: kmsg finds %d records fields, the frame's tree %d", f.BaseName(), len(found), len(tree))
	}
	for i := range found {
		if !bytes.Equal(found[i], tree[i]) {
			return nil, false, fmt.Errorf("%s: records field %d: kmsg and the frame's tree disagree on its bytes", f.BaseName(), i)
		}
	}
	return found, true, nil
}

// collectRecords appends the non-null []byte fields named Records, RecordBatches or Bytes
// (FetchSnapshot's UnalignedRecords) of a kmsg value, depth first in field order (the wire
// order).
func collectRecords(v reflect.Value, out *[][]byte) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			collectRecords(v.Elem(), out)
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Struct {
			for i := range v.Len() {
				collectRecords(v.Index(i), out)
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			fv, name := v.Field(i), v.Type().Field(i).Name
			if (name == "Records" || name == "RecordBatches" || name == "Bytes") && fv.Type() == reflect.TypeFor[[]byte]() {
				if !fv.IsNil() {
					*out = append(*out, fv.Bytes())
				}
				continue
			}
			if v.Type().Field(i).IsExported() {
				collectRecords(fv, out)
			}
		}
	}
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// checkBuiltRecords checks one records field of f: the magic its version requires, each
// entry read by kmsg and re-encoded to the same bytes, its CRC (CRC-32C of a batch from its
// attributes on, IEEE CRC-32 of a message from its magic on), the codec (want), the offsets
// (a producer's from 0, a fetch's from the story's batch offset, each entry following the one
// before), the counts, and the story's record: once, with its key, value and timestamp.
func checkBuiltRecords(f *Frame, raw []byte, want Codec) error {
	magic := builtMagic(f.API.Key, f.Version)
	s := story()
	rec := exampleBatch(s).Records[0]
	next := int64(-1) // the offset the next entry must have; -1 before the first
	switch {
	case f.API.Key == 0:
		next = 0
	case f.API.Key == 1:
		next = s.Log.BatchOffset
	}
	data := 0 // the story's record, seen
	for off := 0; off < len(raw); {
		if len(raw)-off <= magicOffset+1 {
			return fmt.Errorf("offset %d: %d bytes left, too few for an entry", off, len(raw)-off)
		}
		if got := int8(raw[off+magicOffset]); got != magic {
			return fmt.Errorf("offset %d: magic %d, want %d", off, got, magic)
		}
		size := int(int32(binary.BigEndian.Uint32(raw[off+8:])))
		if size < 0 || 12+size > len(raw)-off {
			return fmt.Errorf("offset %d: length %d passes the field's end", off, size)
		}
		entry := raw[off : off+12+size]
		off += len(entry)
		if magic == 2 {
			n, err := checkBuiltBatch(entry, want, &next, rec)
			if err != nil {
				return fmt.Errorf("batch at offset %d: %w", off-len(entry), err)
			}
			data += n
			continue
		}
		m, err := readMessage(entry, magic)
		if err != nil {
			return fmt.Errorf("message at offset %d: %w", off-len(entry), err)
		}
		if codec := Codec(m.attributes & 7); codec != want {
			return fmt.Errorf("message at offset %d: codec %s, want %s", off-len(entry), codec, want)
		}
		msgs := []message{m}
		if want != CodecNone {
			if m.key != nil {
				return errors.New("a compressed wrapper with a key")
			}
			innerSet, err := inflateIndependently(want, m.value)
			if err != nil {
				return fmt.Errorf("wrapper: %s: %v", want, err)
			}
			msgs = nil
			for in := 0; in < len(innerSet); {
				if len(innerSet)-in < 12 {
					return fmt.Errorf("wrapper: %d bytes after its last message", len(innerSet)-in)
				}
				isize := int(int32(binary.BigEndian.Uint32(innerSet[in+8:])))
				if isize < 0 || 12+isize > len(innerSet)-in {
					return fmt.Errorf("wrapper: inner length %d", isize)
				}
				im, err := readMessage(innerSet[in:in+12+isize], magic)
				if err != nil {
					return fmt.Errorf("wrapper: inner message at %d: %w", in, err)
				}
				if im.attributes&7 != 0 {
					return errors.New("wrapper: a compressed inner message")
				}
				in += 12 + isize
				msgs = append(msgs, im)
			}
			if len(msgs) == 0 {
				return errors.New("an empty wrapper")
			}
			// The wrapper has the offset of its last message: inner offsets are absolute in
			// magic 0, count from 0 in magic 1 (KIP-31); its timestamp is their largest.
			first := next
			for i := range msgs {
				if magic == 1 {
					if msgs[i].offset != int64(i) {
						return fmt.Errorf("wrapper: inner message %d has relative offset %d", i, msgs[i].offset)
					}
					msgs[i].offset += first
					if msgs[i].timestamp > m.timestamp {
						return fmt.Errorf("wrapper timestamp %d below an inner one %d", m.timestamp, msgs[i].timestamp)
					}
				}
			}
			if last := msgs[len(msgs)-1].offset; m.offset != last {
				return fmt.Errorf("wrapper offset %d, want its last message's %d", m.offset, last)
			}
		}
		for _, im := range msgs {
			if next >= 0 && im.offset != next {
				return fmt.Errorf("message offset %d, want %d", im.offset, next)
			}
			next = im.offset + 1
			if string(im.key) != string(rec.Key) || string(im.value) != string(rec.Value) {
				return fmt.Errorf("message key %q value %q, want the story's %q %q", im.key, im.value, rec.Key, rec.Value)
			}
			if magic == 1 && im.timestamp != s.Clock {
				return fmt.Errorf("message timestamp %d, want the story's %d", im.timestamp, s.Clock)
			}
			data++
		}
	}
	if data != 1 {
		return fmt.Errorf("the story's record %d times, want once", data)
	}
	return nil
}

// message is what the test reads of a legacy message.
type message struct {
	offset     int64
	attributes int8
	timestamp  int64
	key, value []byte
}

// readMessage reads a legacy message with kmsg, checks that kmsg writes it back to the same
// bytes, and checks its CRC-32 (IEEE, from the magic byte on).
func readMessage(entry []byte, magic int8) (message, error) {
	var m message
	var crc int32
	var again []byte
	if magic == 0 {
		var k kmsg.MessageV0
		if err := k.ReadFrom(entry); err != nil {
			return m, fmt.Errorf("kmsg.MessageV0: %v", err)
		}
		m = message{offset: k.Offset, attributes: k.Attributes, key: k.Key, value: k.Value}
		crc, again = k.CRC, k.AppendTo(nil)
	} else {
		var k kmsg.MessageV1
		if err := k.ReadFrom(entry); err != nil {
			return m, fmt.Errorf("kmsg.MessageV1: %v", err)
		}
		m = message{offset: k.Offset, attributes: k.Attributes, timestamp: k.Timestamp, key: k.Key, value: k.Value}
		crc, again = k.CRC, k.AppendTo(nil)
	}
	if !bytes.Equal(again, entry) {
		return m, errors.New("kmsg writes the message back differently")
	}
	if got := crc32.ChecksumIEEE(entry[magicOffset:]); uint32(crc) != got {
		return m, fmt.Errorf("CRC 0x%08x, the message's bytes give 0x%08x", uint32(crc), got)
	}
	return m, nil
}

// checkBuiltBatch checks one record batch and returns how many times the story's record is
// in it: kmsg reads it and writes it back to the same bytes, its CRC-32C, codec, offsets,
// record count and records (read one by one with kmsg.Record from the inflated data).
func checkBuiltBatch(entry []byte, want Codec, next *int64, rec Record) (int, error) {
	var b kmsg.RecordBatch
	if err := b.ReadFrom(entry); err != nil {
		return 0, fmt.Errorf("kmsg.RecordBatch: %v", err)
	}
	if !bytes.Equal(b.AppendTo(nil), entry) {
		return 0, errors.New("kmsg writes the batch back differently")
	}
	if got := crc32.Checksum(entry[21:], castagnoli); uint32(b.CRC) != got {
		return 0, fmt.Errorf("CRC 0x%08x, the batch's bytes give 0x%08x (CRC-32C)", uint32(b.CRC), got)
	}
	if codec := Codec(b.Attributes & 7); codec != want {
		return 0, fmt.Errorf("codec %s, want %s", codec, want)
	}
	if *next >= 0 && b.FirstOffset != *next {
		return 0, fmt.Errorf("base offset %d, want %d", b.FirstOffset, *next)
	}
	if b.NumRecords < 1 || b.LastOffsetDelta != b.NumRecords-1 {
		return 0, fmt.Errorf("%d records, last offset delta %d", b.NumRecords, b.LastOffsetDelta)
	}
	*next = b.FirstOffset + int64(b.LastOffsetDelta) + 1
	s := story()
	if b.FirstTimestamp != s.Clock || b.MaxTimestamp != s.Clock {
		return 0, fmt.Errorf("timestamps %d, %d, want the story's %d", b.FirstTimestamp, b.MaxTimestamp, s.Clock)
	}
	recs := b.Records
	if want != CodecNone {
		out, err := inflateIndependently(want, recs)
		if err != nil {
			return 0, fmt.Errorf("%s: %v", want, err)
		}
		recs = out
	}
	control := b.Attributes&0x20 != 0
	data := 0
	for i := range int(b.NumRecords) {
		l, n := binary.Varint(recs)
		if n <= 0 || l < 0 || int64(len(recs)-n) < l {
			return 0, fmt.Errorf("record %d: bad length", i)
		}
		var r kmsg.Record
		if err := r.ReadFrom(recs[:n+int(l)]); err != nil {
			return 0, fmt.Errorf("kmsg.Record %d: %v", i, err)
		}
		recs = recs[n+int(l):]
		if r.OffsetDelta != int32(i) {
			return 0, fmt.Errorf("record %d: offset delta %d", i, r.OffsetDelta)
		}
		switch {
		case control:
			// A transaction marker: key version 0, type 1 (COMMIT).
			if !bytes.Equal(r.Key, []byte{0, 0, 0, 1}) {
				return 0, fmt.Errorf("control record key % x", r.Key)
			}
		case string(r.Key) == string(rec.Key) && string(r.Value) == string(rec.Value):
			data++
		default:
			return 0, fmt.Errorf("record %d: key %q value %q, want the story's", i, r.Key, r.Value)
		}
	}
	if len(recs) != 0 {
		return 0, fmt.Errorf("%d bytes after the last record", len(recs))
	}
	return data, nil
}
