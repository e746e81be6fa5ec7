package kafka

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
	"unsafe"

	"github.com/kafkagrid/kafkagrid/schemas"
)

// RecordBatch is a record batch of magic 2, the content of a records field (KIP-98; see
// https://kafka.apache.org/documentation/#recordbatch). Its length and CRC are computed when
// it is encoded; CRC holds the checksum read or written last.
type RecordBatch struct {
	BaseOffset           int64
	PartitionLeaderEpoch int32
	CRC                  uint32 // CRC-32C of the bytes from Attributes to the batch's end
	Attributes           int16  // compression (bits 0-2), timestamp type, transactional, control
	LastOffsetDelta      int32
	BaseTimestamp        int64
	MaxTimestamp         int64
	ProducerID           int64
	ProducerEpoch        int16
	BaseSequence         int32
	Records              []Record
	// Xerial, for a snappy batch, is the xerial framing (snappy-java's): set when decoded
	// so, and written so when encoding. Other codecs ignore it.
	Xerial bool
}

// Record is one record of a batch. Its fields are varints on the wire.
type Record struct {
	Attributes     int8
	TimestampDelta int64
	OffsetDelta    int64
	Key            []byte // nil for a null key
	Value          []byte // nil for a null value
	Headers        []RecordHeader
}

// RecordHeader is a header of a record.
type RecordHeader struct {
	Key   string
	Value []byte // nil for null
}

// batchHeaderSize is the bytes of a batch before its records: from BaseOffset to the count.
const batchHeaderSize = 61

// records walks a records field: its byte length (nullable), then record batches until the
// length is used up.
func (k *walker) records(parent *Node, f *schemas.Field, lpath string, in any) (any, error) {
	path := trim(lpath, sfxLength)
	compact := k.spec.CompactIn(f, k.ver)
	nullable := f.NullableIn(k.ver)
	n := k.fieldNode(KindField, f.Name, path, f)
	n.WireType = strWire(schemas.Records, compact, nullable)
	parent.Children = append(parent.Children, n)
	k.children(n, 2) // the length, and usually one batch
	var mixed Records
	if k.w != nil {
		switch in.(type) {
		case nil:
		case []*RecordBatch, MessageSet, Records:
			mixed = entriesOf(in)
		default:
			return nil, k.fail(path, n.Offset, "want []*RecordBatch, MessageSet or Records, have %T", in)
		}
	}
	form, sform := lenInt32, sizeInt32
	if compact {
		form, sform = lenCompact, sizeCompact
	}
	isNull := false
	if k.w != nil {
		isNull = isNilRecords(in)
	} else {
		// Peek: a null marker has no region to walk.
		r := k.r
		var u uint64
		save := r.off
		var err error
		if compact {
			u, err = r.uvarint(0)
			isNull = err == nil && u == 0
		} else {
			u, err = r.fixed(4, 0)
			isNull = err == nil && int32(u) == -1
		}
		r.off = save
	}
	if isNull {
		if _, err := k.length(n, lpath, form, nullable, -1, false); err != nil {
			k.end(n)
			return nil, err
		}
		n.Value = "null"
		k.end(n)
		return nil, nil
	}
	leaf := k.alloc()
	leaf.Kind = KindLength
	leaf.Name = "length"
	leaf.Path = lpath
	leaf.About = "Byte length of the record batches."
	leaf.Spec = n.Spec
	err := k.sized(n, leaf, sform, func() error {
		if k.w != nil {
			for i := range mixed {
				if err := k.recordsEntry(n, k.t.index(path, i, ""), &mixed[i]); err != nil {
					return err
				}
			}
			return nil
		}
		// Entry by entry, as Kafka's client reads them (ByteBufferLogInputStream): the magic
		// byte, at the same place in a message set entry and a batch, says what each one is,
		// and a last entry cut short is kept as such.
		for i := 0; k.left() > 0; i++ {
			if err := k.spent(path, k.pos()); err != nil {
				return err
			}
			var e RecordsEntry
			err := k.recordsEntry(n, k.t.index(path, i, ""), &e)
			if e.Batch != nil || e.Message != nil || e.Partial != nil {
				mixed = append(mixed, e)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	if k.w == nil {
		in = mixed.simplest()
	}
	n.Raw = in
	n.Value = k.recordsValue(mixed)
	k.end(n)
	return in, err
}

// Records is the content of a records field as Kafka's client reads it, entry by entry: record
// batches (magic 2) and legacy messages (magic 0 and 1) in any mix, as a log written before
// and after a message-format change is served, and a last entry cut short where a fetch's
// byte limit ends the field. A decoded field whose entries are all batches is a
// []*RecordBatch, all messages a MessageSet; a Records otherwise. Each is encoded as it is.
type Records []RecordsEntry

// RecordsEntry is one entry of a records field: a batch, a legacy message, or a partial entry
// (one of the three set).
type RecordsEntry struct {
	Batch   *RecordBatch
	Message *LegacyMessage
	// Partial holds the bytes of a last entry cut short, and PartialSize the bytes its header
	// says it takes (0 when fewer than its 12-byte offset and size are there). Kafka's client
	// skips it (the next fetch reads it whole).
	Partial     []byte
	PartialSize int
}

// The sizes Kafka reads an entry's header by (org.apache.kafka.common.record.Records and
// LegacyRecord): the offset and size (LOG_OVERHEAD), up to the magic byte, and the smallest
// message of magic 0 after its size (RECORD_OVERHEAD_V0).
const (
	logOverhead          = 12
	headerUpToMagic      = magicOffset + 1
	recordOverheadV0     = 14
	partialNoSizeMessage = "partial: %d of at least %d bytes (Kafka skips a last entry cut short)"
)

// isNilRecords reports whether a records field's value to encode is null.
func isNilRecords(in any) bool {
	switch v := in.(type) {
	case []*RecordBatch:
		return v == nil
	case MessageSet:
		return v == nil
	case Records:
		return v == nil
	}
	return in == nil
}

// entriesOf is a records field's value as entries: a []*RecordBatch, a MessageSet or Records.
func entriesOf(in any) Records {
	switch v := in.(type) {
	case Records:
		return v
	case []*RecordBatch:
		out := make(Records, len(v))
		for i, b := range v {
			out[i].Batch = b
		}
		return out
	case MessageSet:
		out := make(Records, len(v))
		for i := range v {
			out[i].Message = &v[i]
		}
		return out
	}
	return nil
}

// simplest is the value a decoded field's entries give: a []*RecordBatch when all are
// batches, a MessageSet when all are messages (an empty field: no batches), Records otherwise.
func (rs Records) simplest() any {
	batches, messages := 0, 0
	for _, e := range rs {
		switch {
		case e.Batch != nil:
			batches++
		case e.Message != nil:
			messages++
		}
	}
	switch {
	case batches == len(rs):
		out := make([]*RecordBatch, len(rs))
		for i, e := range rs {
			out[i] = e.Batch
		}
		return out
	case messages == len(rs):
		out := make(MessageSet, len(rs))
		for i, e := range rs {
			out[i] = *e.Message
		}
		return out
	}
	return rs
}

// recordsValue is a records field's text: its batches, messages and partial entry counted.
func (k *walker) recordsValue(rs Records) string {
	batches, messages, partial := 0, 0, 0
	for _, e := range rs {
		switch {
		case e.Batch != nil:
			batches++
		case e.Message != nil:
			messages++
		default:
			partial++
		}
	}
	var parts []string
	if batches > 0 || messages == 0 && partial == 0 {
		parts = append(parts, k.recordsText(batches))
	}
	if messages > 0 {
		parts = append(parts, k.messagesText(messages))
	}
	if partial > 0 {
		parts = append(parts, "1 partial")
	}
	return strings.Join(parts, ", ")
}

// recordsEntry walks one entry of a records field. Reading, it does as Kafka's
// ByteBufferLogInputStream.nextBatch: fewer than 12 bytes left, or fewer than the entry's size
// says, is a partial last entry; a size under the smallest message's, or a magic other than 0,
// 1 and 2, is corrupt; magic 2 is a record batch, 0 and 1 a legacy message.
func (k *walker) recordsEntry(parent *Node, path string, e *RecordsEntry) error {
	if k.w != nil {
		switch {
		case e.Batch != nil:
			return k.batch(parent, path, e.Batch)
		case e.Message != nil:
			return k.legacyMessage(parent, path, e.Message)
		}
		return k.partialEntry(parent, path, e)
	}
	r := k.r
	left := r.left()
	if left < logOverhead {
		e.PartialSize = 0
		return k.partialEntry(parent, path, e)
	}
	size := int64(int32(binary.BigEndian.Uint32(r.buf[r.off+8:])))
	if size < recordOverheadV0 {
		return k.fail(k.t.join(path, "Size", ""), r.off+8, "entry size %d, less than the %d bytes of the smallest message", size, recordOverheadV0)
	}
	if left >= headerUpToMagic {
		if magic := int8(r.buf[r.off+magicOffset]); magic < 0 || magic > 2 {
			return k.fail(k.t.join(path, "Magic", ""), r.off+magicOffset, "magic %d: Kafka knows 0, 1 and 2", magic)
		}
	}
	if int64(left) < logOverhead+size {
		e.PartialSize = int(logOverhead + size)
		return k.partialEntry(parent, path, e)
	}
	if r.buf[r.off+magicOffset] == 2 {
		e.Batch = &RecordBatch{}
		return k.batch(parent, path, e.Batch)
	}
	e.Message = &LegacyMessage{}
	return k.legacyMessage(parent, path, e.Message)
}

// partialEntry walks a last entry cut short: its bytes, as they are.
func (k *walker) partialEntry(parent *Node, path string, e *RecordsEntry) error {
	n := k.alloc()
	n.Kind = KindField
	n.Name = "Partial"
	n.Path = path
	n.Offset = k.pos()
	n.WireType = "partial"
	n.About = "A last entry cut short, as a broker sends where a fetch's byte limit ends the records; Kafka's client skips it."
	parent.Children = append(parent.Children, n)
	size := len(e.Partial)
	if k.w == nil {
		size = k.r.left()
	}
	b, err := k.raw(size, e.Partial)
	if err != nil {
		return k.failErr(path, n.Offset, err)
	}
	e.Partial = b
	n.Raw = b
	if e.PartialSize > 0 {
		n.Value = "partial: " + strconv.Itoa(len(b)) + " of " + strconv.Itoa(e.PartialSize) + " bytes (Kafka skips a last entry cut short)"
	} else {
		n.Value = fmt.Sprintf(partialNoSizeMessage, len(b), logOverhead)
	}
	k.end(n)
	return nil
}
func (k *walker) messagesText(n int) string {
	if n == 1 {
		return "1 message"
	}
	return k.t.intSuffix(int64(n), " messages")
}

func (k *walker) recordsText(n int) string {
	if n == 1 {
		return "1 record batch"
	}
	return k.t.intSuffix(int64(n), " record batches")
}

// intWires names fixed-width integers by their width in bytes.
var intWires = [...]string{1: "int8", 2: "int16", 4: "int32", 8: "int64"}

// fixedInt walks a fixed-width integer of a batch or record as a KindField leaf.
func (k *walker) fixedInt(parent *Node, name, path, about string, width int, v *int64) error {
	n := k.alloc()
	n.Kind = KindField
	n.Name = name
	n.Path = path
	n.Offset = k.pos()
	n.About = about
	n.WireType = intWires[width]
	u, err := k.fixed(width, uint64(*v)&mask(width))
	if err != nil {
		return k.failErr(path, n.Offset, err)
	}
	switch width {
	case 1:
		*v = int64(int8(u))
	case 2:
		*v = int64(int16(u))
	case 4:
		*v = int64(int32(u))
	default:
		*v = int64(u)
	}
	n.Raw, n.Value = *v, k.t.int(*v)
	k.end(n)
	parent.Children = append(parent.Children, n)
	return nil
}

// varintField walks a zigzag varint of a record.
func (k *walker) varintField(parent *Node, name, path, about string, v *int64) error {
	n := k.alloc()
	n.Kind = KindField
	n.Name = name
	n.Path = path
	n.Offset = k.pos()
	n.WireType = "varint"
	n.About = about
	x, err := k.varint(*v)
	if err != nil {
		return k.failErr(path, n.Offset, err)
	}
	*v = x
	n.Raw, n.Value = *v, k.t.int(*v)
	k.end(n)
	parent.Children = append(parent.Children, n)
	return nil
}

// varBytes walks a record key, value or header part: a varint length (-1 null), then bytes.
func (k *walker) varBytes(parent *Node, name, path, about string, nullable, text bool, b *[]byte) (*Node, error) {
	return k.sizedBytes(parent, name, path, about, lenVarint, nullable, text, b)
}

// sizedBytes walks bytes behind a length of the given form (-1 null): a record's varint-sized
// key, value and header parts, and a legacy message's int32-sized key and value.
func (k *walker) sizedBytes(parent *Node, name, path, about string, form lenForm, nullable, text bool, b *[]byte) (*Node, error) {
	n := k.alloc()
	n.Kind = KindField
	n.Name = name
	n.Path = path
	n.Offset = k.pos()
	n.WireType = "varint_bytes"
	if form == lenInt32 {
		n.WireType = "bytes"
	}
	n.About = about
	parent.Children = append(parent.Children, n)
	k.children(n, 2)
	size := -1
	if k.w != nil && *b != nil {
		size = len(*b)
	}
	size, err := k.length(n, k.t.cat(path, sfxLength), form, nullable, size, false)
	if err != nil {
		k.end(n)
		return n, err
	}
	if size < 0 {
		*b = nil
		n.Value = "null"
		k.end(n)
		return n, nil
	}
	off := k.pos()
	if *b, err = k.raw(size, *b); err != nil {
		k.end(n)
		return n, k.failErr(path+sfxData, off, err)
	}
	if *b == nil {
		*b = []byte{}
	}
	switch {
	case text:
		n.Value = k.t.quoteBytes(*b)
		if len(n.Value) == len(*b)+2 {
			n.Raw = n.Value[1 : len(n.Value)-1] // nothing escaped: the quoted text holds it
		} else {
			n.Raw = string(*b)
		}
	default:
		// Printable bytes quoted, others in hex: one scan decides and counts the escapes.
		v, ok := k.t.quotePrintableBytes(*b)
		if !ok {
			v = k.t.hex(*b)
		}
		n.Value = v
		n.Raw = *b
	}
	if size > 0 {
		d := k.alloc()
		d.Kind = KindData
		d.Name = name
		d.Path = k.t.cat(path, sfxData)
		d.Offset = off
		d.Length = size
		d.WireType = "raw"
		if text {
			d.WireType = "utf8"
		}
		d.Value = n.Value
		d.About = "The content bytes."
		n.Children = append(n.Children, d)
	}
	k.end(n)
	return n, nil
}

// batch walks one record batch (magic 2).
func (k *walker) batch(parent *Node, path string, b *RecordBatch) error {
	n := k.alloc()
	n.Kind = KindStruct
	n.Name = "RecordBatch"
	n.Path = path
	n.Offset = k.pos()
	n.WireType = "record_batch"
	n.About = "A record batch, magic 2 (KIP-98)."
	parent.Children = append(parent.Children, n)
	k.children(n, 13) // the fields of a batch
	defer k.end(n)
	if k.w == nil && k.left() < batchHeaderSize {
		return k.fail(path, k.pos(), "%d bytes left, a record batch needs at least %d", k.left(), batchHeaderSize)
	}
	p := func(name string) string { return k.t.join(path, name, "") }
	v := b.BaseOffset
	if err := k.fixedInt(n, "BaseOffset", p("BaseOffset"), "Offset of the first record of the batch.", 8, &v); err != nil {
		return err
	}
	b.BaseOffset = v
	leaf := k.alloc()
	leaf.Kind = KindLength
	leaf.Name = "BatchLength"
	leaf.Path = p("BatchLength")
	leaf.About = "Byte length of the rest of the batch (after this field)."
	return k.sized(n, leaf, sizeInt32, func() error {
		// fi walks one fixed-width field of the batch header and returns its value.
		fi := func(name, about string, width int, x int64) (int64, error) {
			err := k.fixedInt(n, name, p(name), about, width, &x)
			return x, err
		}
		x, err := fi("PartitionLeaderEpoch", "Leader epoch of the partition, set by the broker.", 4, int64(b.PartitionLeaderEpoch))
		if err != nil {
			return err
		}
		b.PartitionLeaderEpoch = int32(x)
		magic := int64(2)
		mo := k.pos()
		if err := k.fixedInt(n, "Magic", p("Magic"), "Record batch format version: 2.", 1, &magic); err != nil {
			return err
		}
		if magic != 2 {
			return k.fail(p("Magic"), mo, "magic %d, only 2 is supported", magic)
		}
		crcOff := k.pos()
		crc, err := k.fixed(4, uint64(b.CRC))
		if err != nil {
			return k.failErr(p("CRC"), crcOff, err)
		}
		b.CRC = uint32(crc)
		crcNode := k.alloc()
		crcNode.Kind = KindField
		crcNode.Name = "CRC"
		crcNode.Path = p("CRC")
		crcNode.Offset = crcOff
		crcNode.Length = 4
		crcNode.WireType = "uint32"
		crcNode.About = "CRC-32C of the batch from Attributes to its end."
		n.Children = append(n.Children, crcNode)
		start := k.pos()
		if x, err = fi("Attributes", "Bits 0-2 compression, 3 timestamp type, 4 transactional, 5 control, 6 delete horizon.", 2, int64(b.Attributes)); err != nil {
			return err
		}
		b.Attributes = int16(x)
		n.Children[len(n.Children)-1].Value = k.t.attributesText(b.Attributes)
		if x, err = fi("LastOffsetDelta", "Offset of the last record relative to BaseOffset.", 4, int64(b.LastOffsetDelta)); err != nil {
			return err
		}
		b.LastOffsetDelta = int32(x)
		if b.BaseTimestamp, err = fi("BaseTimestamp", "Timestamp of the first record (ms since the epoch).", 8, b.BaseTimestamp); err != nil {
			return err
		}
		if b.MaxTimestamp, err = fi("MaxTimestamp", "Largest timestamp of the batch.", 8, b.MaxTimestamp); err != nil {
			return err
		}
		if b.ProducerID, err = fi("ProducerId", "Producer id of an idempotent or transactional producer, -1 otherwise.", 8, b.ProducerID); err != nil {
			return err
		}
		if x, err = fi("ProducerEpoch", "Epoch of the producer id.", 2, int64(b.ProducerEpoch)); err != nil {
			return err
		}
		b.ProducerEpoch = int16(x)
		if x, err = fi("BaseSequence", "Sequence number of the first record, for idempotence.", 4, int64(b.BaseSequence)); err != nil {
			return err
		}
		b.BaseSequence = int32(x)
		count := len(b.Records)
		rp := p("Records")
		arr := k.alloc()
		arr.Kind = KindArray
		arr.Name = "Records"
		arr.Path = rp
		arr.Offset = k.pos()
		arr.WireType = "array"
		arr.About = "The records of the batch."
		n.Children = append(n.Children, arr)
		if codec := Codec(b.Attributes & 7); codec != CodecNone {
			err := k.compressedRecords(arr, rp, b, codec)
			k.end(arr)
			if err != nil {
				return err
			}
			return k.batchCRC(b, crcNode, crcOff, start, p("CRC"))
		}
		k.children(arr, 1+max(count, 0))
		count, err = k.length(arr, k.t.cat(rp, sfxLength), lenInt32, false, count, true)
		if err != nil {
			k.end(arr)
			return err
		}
		if k.w == nil {
			b.Records = make([]Record, count)
		}
		for i := range count {
			if err := k.spent(rp, k.pos()); err != nil {
				k.end(arr)
				return err
			}
			path := k.t.index(rp, i, "")
			if err := k.record(arr, path, path[len(rp):], &b.Records[i]); err != nil {
				k.end(arr)
				return err
			}
		}
		if count == 1 {
			arr.Value = "1 record"
		} else {
			arr.Value = k.t.intSuffix(int64(count), " records")
		}
		k.end(arr)
		if k.w == nil && k.r.left() > 0 {
			// Said as what it is, not as the CRC mismatch it also makes.
			return k.fail(k.t.cat(rp, sfxLength), arr.Offset, "record count %d, but %d bytes of the batch follow its last record", count, k.r.left())
		}
		return k.batchCRC(b, crcNode, crcOff, start, p("CRC"))
	})
}

// batchCRC writes (patches) or checks a batch's CRC-32C over its bytes from start (the
// Attributes) to the current position.
func (k *walker) batchCRC(b *RecordBatch, crcNode *Node, crcOff, start int, path string) error {
	if k.w != nil {
		b.CRC = CRC32C(k.w.buf[start:k.w.pos()])
		k.w.patch32(crcOff, b.CRC)
	} else {
		got := CRC32C(k.r.buf[start:k.pos()])
		if got != b.CRC {
			return k.fail(path, crcOff, "CRC 0x%08x, the batch's bytes give 0x%08x", b.CRC, got)
		}
	}
	crcNode.Raw, crcNode.Value = int64(b.CRC), k.t.hex32(b.CRC)
	return nil
}

// record walks one record: its varint length, then its fields.
func (k *walker) record(parent *Node, path, name string, rec *Record) error {
	n := k.alloc()
	n.Kind = KindElement
	n.Name = name
	n.Path = path
	n.Offset = k.pos()
	n.WireType = "record"
	n.About = "A record."
	parent.Children = append(parent.Children, n)
	k.children(n, 7) // the length and the fields of a record
	defer k.end(n)
	p := func(s string) string { return k.t.join(path, s, "") }
	leaf := k.alloc()
	leaf.Kind = KindLength
	leaf.Name = "Length"
	leaf.Path = p("Length")
	leaf.About = "Byte length of the record after this field (zigzag varint)."
	return k.sized(n, leaf, sizeVarint, func() error {
		a := int64(rec.Attributes)
		if err := k.fixedInt(n, "Attributes", p("Attributes"), "Record attributes (unused, 0).", 1, &a); err != nil {
			return err
		}
		rec.Attributes = int8(a)
		if err := k.varintField(n, "TimestampDelta", p("TimestampDelta"), "Timestamp relative to the batch's BaseTimestamp.", &rec.TimestampDelta); err != nil {
			return err
		}
		if err := k.varintField(n, "OffsetDelta", p("OffsetDelta"), "Offset relative to the batch's BaseOffset.", &rec.OffsetDelta); err != nil {
			return err
		}
		if _, err := k.varBytes(n, "Key", p("Key"), "The record key (varint length, -1 for null).", true, false, &rec.Key); err != nil {
			return err
		}
		if _, err := k.varBytes(n, "Value", p("Value"), "The record value (varint length, -1 for null).", true, false, &rec.Value); err != nil {
			return err
		}
		hp := p("Headers")
		hn := k.alloc()
		hn.Kind = KindArray
		hn.Name = "Headers"
		hn.Path = hp
		hn.Offset = k.pos()
		hn.WireType = "varint_array"
		hn.About = "The record headers."
		n.Children = append(n.Children, hn)
		k.children(hn, 1+len(rec.Headers))
		defer k.end(hn)
		count, err := k.length(hn, k.t.cat(hp, sfxLength), lenVarint, false, len(rec.Headers), true)
		if err != nil {
			return err
		}
		if k.w == nil {
			rec.Headers = make([]RecordHeader, count)
		}
		for j := range count {
			if err := k.spent(hp, k.pos()); err != nil {
				return err
			}
			h := &rec.Headers[j]
			ep := k.t.index(hp, j, "")
			el := k.alloc()
			el.Kind = KindElement
			el.Name = ep[len(hp):]
			el.Path = ep
			el.Offset = k.pos()
			el.WireType = "header"
			el.About = "A record header."
			hn.Children = append(hn.Children, el)
			k.children(el, 2)
			// The writer only reads the key's bytes: no copy of the string.
			key := unsafe.Slice(unsafe.StringData(h.Key), len(h.Key))
			if key == nil {
				key = []byte{} // an empty key, not a null one
			}
			kn, err := k.varBytes(el, "Key", k.t.join(ep, "Key", ""), "Header key (UTF-8).", false, true, &key)
			if s, ok := kn.Raw.(string); ok && k.w == nil {
				h.Key = s
			}
			if err == nil {
				_, err = k.varBytes(el, "Value", k.t.join(ep, "Value", ""), "Header value.", true, false, &h.Value)
			}
			k.end(el)
			if err != nil {
				return err
			}
		}
		if count == 1 {
			hn.Value = "1 header"
		} else {
			hn.Value = k.t.intSuffix(int64(count), " headers")
		}
		return nil
	})
}
