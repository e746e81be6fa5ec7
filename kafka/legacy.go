package kafka

import (
	"errors"
	"hash/crc32"
	"strconv"

	"github.com/kafkagrid/kafkagrid/schemas"
)

// MessageSet is a legacy message set: the content of a records field before record batches
// (magic 2, Kafka 0.11). Produce v0-v2 and Fetch v0-v3 carry one: magic 0 messages up to
// Produce v1 / Fetch v1, magic 1 (which adds a timestamp, KIP-32) in Produce v2 / Fetch v2-v3.
// See https://kafka.apache.org/documentation/#messageset.
type MessageSet []LegacyMessage

// LegacyMessage is one entry of a message set: its offset and size, then the message itself,
// whose CRC is computed when it is encoded and checked when it is decoded.
type LegacyMessage struct {
	Offset     int64
	CRC        uint32 // CRC-32 (IEEE) of the message from Magic to its end
	Magic      int8   // 0 or 1
	Attributes int8   // bits 0-2 compression; bit 3 timestamp type (magic 1)
	Timestamp  int64  // magic 1 only: ms since the epoch, -1 for none
	Key        []byte // nil for a null key
	Value      []byte // nil for a null value; a wrapper's compressed message set
	// Inner holds a compressed wrapper's messages (Attributes name a codec): decoded from
	// Value, and compressed into it when encoding.
	Inner MessageSet
}

// magicOffset is where the magic byte stands in a message set entry and in a record batch
// alike: after an int64 offset, an int32 size, and a CRC (legacy) or leader epoch (batch).
const magicOffset = 16

// legacyMessage walks one message set entry.
func (k *walker) legacyMessage(parent *Node, path string, m *LegacyMessage) error {
	n := k.alloc()
	n.Kind = KindStruct
	n.Name = "Message"
	n.Path = path
	n.Offset = k.pos()
	n.WireType = "message"
	n.About = "A message of a legacy message set (magic 0 or 1)."
	parent.Children = append(parent.Children, n)
	k.children(n, 9)
	defer k.end(n)
	p := func(name string) string { return k.t.join(path, name, "") }
	off := m.Offset
	if err := k.fixedInt(n, "Offset", p("Offset"), "Offset of the message in the partition (the producer writes 0).", 8, &off); err != nil {
		return err
	}
	m.Offset = off
	leaf := k.alloc()
	leaf.Kind = KindLength
	leaf.Name = "MessageSize"
	leaf.Path = p("MessageSize")
	leaf.About = "Byte length of the message after this field."
	return k.sized(n, leaf, sizeInt32, func() error {
		crcOff := k.pos()
		crc, err := k.fixed(4, uint64(m.CRC))
		if err != nil {
			return k.failErr(p("CRC"), crcOff, err)
		}
		m.CRC = uint32(crc)
		crcNode := k.alloc()
		crcNode.Kind = KindField
		crcNode.Name = "CRC"
		crcNode.Path = p("CRC")
		crcNode.Offset = crcOff
		crcNode.Length = 4
		crcNode.WireType = "uint32"
		crcNode.About = "CRC-32 (IEEE) of the message from Magic to its end."
		n.Children = append(n.Children, crcNode)
		start := k.pos()
		magic := int64(m.Magic)
		if err := k.fixedInt(n, "Magic", p("Magic"), "Message format version: 0, or 1 with a timestamp.", 1, &magic); err != nil {
			return err
		}
		if magic != 0 && magic != 1 {
			return k.fail(p("Magic"), start, "magic %d in a message set, want 0 or 1", magic)
		}
		m.Magic = int8(magic)
		a := int64(m.Attributes)
		if err := k.fixedInt(n, "Attributes", p("Attributes"), "Bits 0-2 compression (0 none), bit 3 timestamp type (magic 1).", 1, &a); err != nil {
			return err
		}
		m.Attributes = int8(a)
		if m.Magic == 1 {
			if err := k.fixedInt(n, "Timestamp", p("Timestamp"), "Timestamp of the message (ms since the epoch), magic 1 (KIP-32).", 8, &m.Timestamp); err != nil {
				return err
			}
		}
		if _, err := k.sizedBytes(n, "Key", p("Key"), "The message key (int32 length, -1 for null).", lenInt32, true, false, &m.Key); err != nil {
			return err
		}
		if codec := Codec(m.Attributes & 7); codec != CodecNone {
			if k.inWrapper {
				return k.fail(p("Attributes"), start+1, "a compressed message inside a compressed wrapper")
			}
			if codec > CodecLZ4 {
				return k.fail(p("Attributes"), start+1, "codec %s in a legacy message (gzip, snappy and lz4 only)", codec)
			}
			if err := k.wrapperValue(n, p("Value"), m, codec); err != nil {
				return err
			}
		} else if _, err := k.sizedBytes(n, "Value", p("Value"), "The message value (int32 length, -1 for null).", lenInt32, true, false, &m.Value); err != nil {
			return err
		}
		if k.w != nil {
			m.CRC = crc32.ChecksumIEEE(k.w.buf[start:k.w.pos()])
			k.w.patch32(crcOff, m.CRC)
		} else if got := crc32.ChecksumIEEE(k.r.buf[start:k.pos()]); got != m.CRC {
			return k.fail(p("CRC"), crcOff, "CRC 0x%08x, the message's bytes give 0x%08x", m.CRC, got)
		}
		crcNode.Raw, crcNode.Value = int64(m.CRC), k.t.hex32(m.CRC)
		return nil
	})
}

// recordsMagic is the record format an API's records field carries at a version: a message
// set of magic 0 or 1 for Produce v0-v2 and Fetch v0-v3, record batches (2) otherwise.
func recordsMagic(apiKey, v int16) int8 {
	switch {
	case apiKey == KeyProduce && v <= 1, apiKey == KeyFetch && v <= 1:
		return 0
	case apiKey == KeyProduce && v == 2, apiKey == KeyFetch && v <= 3:
		return 1
	}
	return 2
}

// legacySet is a list of record batches as a legacy message set of the given magic, as the
// broker down-converts them (or an old producer writes its records): each record of the data
// batches one message, at its offset (base offset + offset delta), with its key and value, and
// in magic 1 its timestamp (base timestamp + timestamp delta, CreateTime). Control batches
// (transaction markers) have no legacy form and are left out, as are record headers (KIP-82:
// magic 2 only).
func legacySet(bs []*RecordBatch, magic int8) MessageSet {
	out := MessageSet{}
	for _, b := range bs {
		if b == nil || b.Attributes&attrControl != 0 {
			continue
		}
		for _, r := range b.Records {
			m := LegacyMessage{Offset: b.BaseOffset + r.OffsetDelta, Magic: magic, Key: r.Key, Value: r.Value}
			if magic == 1 {
				m.Timestamp = b.BaseTimestamp + r.TimestampDelta
			}
			out = append(out, m)
		}
	}
	return out
}

// legacyRecords replaces the record batches of example values by message sets where the API's
// version predates record batches (recordsMagic). It runs on the values as they are encoded,
// after the overrides are merged (a list override builds its elements afresh, batches
// included).
func legacyRecords(vals Values, magic int8) {
	for key, x := range vals {
		switch v := x.(type) {
		case []*RecordBatch:
			vals[key] = legacySet(v, magic)
		case Values:
			legacyRecords(v, magic)
		case []any:
			for _, e := range v {
				if ev, ok := e.(Values); ok {
					legacyRecords(ev, magic)
				}
			}
		}
	}
}

func equalMessageSet(a, b MessageSet) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Offset != y.Offset || x.Magic != y.Magic || x.Attributes != y.Attributes || x.Timestamp != y.Timestamp ||
			!equalNullBytes(x.Key, y.Key) {
			return false
		}
		// A wrapper's value is its compressed messages: compare those (compressors differ).
		if x.Attributes&7 != 0 {
			if !equalMessageSet(x.Inner, y.Inner) {
				return false
			}
		} else if !equalNullBytes(x.Value, y.Value) {
			return false
		}
	}
	return true
}

// recordsPrim is a field's type, except that Kafka 2.4's Records fields of Produce and Fetch,
// typed "bytes" before the spec format had "records", are records: their bytes are record
// batches (or message sets) all the same, and are walked as such.
func recordsPrim(f *schemas.Field) schemas.Prim {
	if f.Type.Prim == schemas.Bytes && !f.Type.Array && f.Name == "Records" {
		return schemas.Records
	}
	return f.Type.Prim
}

// wrapperValue walks a compressed wrapper's Value: its int32 length, then the compressed
// message set as one field whose Raw is a *Compressed holding the inner messages as a nested
// tree (offsets from the start of the decompressed data).
func (k *walker) wrapperValue(parent *Node, path string, m *LegacyMessage, codec Codec) error {
	n := k.alloc()
	n.Kind = KindField
	n.Name = "Value"
	n.Path = path
	n.Offset = k.pos()
	n.WireType = "bytes"
	n.About = "The wrapper's value: a message set compressed with " + codec.String() + "."
	parent.Children = append(parent.Children, n)
	k.children(n, 2)
	defer k.end(n)
	comp := &Compressed{Codec: codec}
	root := k.alloc()
	root.Kind = KindArray
	root.Name = "Messages"
	root.Path = k.t.cat(path, ".Messages")
	root.WireType = "message_set"
	root.About = "The wrapper's messages, decompressed (offsets from the start of the decompressed data)."
	comp.Root = root
	cn := k.alloc()
	cn.Kind = KindField
	cn.Name = "Value"
	cn.Path = k.t.cat(path, "#compressed")
	cn.WireType = codec.String()
	cn.About = "The message set, compressed with " + codec.String() + "; decoded as a nested frame whose offsets count from the start of the decompressed data."
	cn.Raw = comp
	// walkInner walks the inner messages over w or r (the other nil), as k.nested does.
	walkInner := func(w *writer, r *reader) error {
		return k.nested(w, r, true, func() error { return k.innerMessages(root, m) })
	}
	if k.w != nil {
		w := &writer{}
		if err := walkInner(w, nil); err != nil {
			return err
		}
		comp.Data = w.buf
		comp.Framing = framingOf(codec, true)
		z, err := k.compress(nil, codec, comp.Data, codec == CodecSnappy)
		if err != nil {
			return k.fail(cn.Path, n.Offset, "%s: %w", codec, err)
		}
		m.Value = z
		if _, err := k.length(n, k.t.cat(path, sfxLength), lenInt32, true, len(z), false); err != nil {
			return err
		}
		cn.Offset = k.pos()
		k.w.buf = append(k.w.buf, z...)
		cn.Length = len(z)
	} else {
		size, err := k.length(n, k.t.cat(path, sfxLength), lenInt32, true, 0, false)
		if err != nil {
			return err
		}
		if size < 0 {
			return k.fail(path, n.Offset, "a compressed wrapper with a null value")
		}
		cn.Offset = k.pos()
		data, err := k.raw(size, nil)
		if err != nil {
			return k.failErr(cn.Path, cn.Offset, err)
		}
		m.Value = data
		cn.Length = size
		out, framing, note, spent, err := inflate(codec, data, k.inflate)
		k.inflate -= min(spent, k.inflate) - len(out) // a failed inflation costs what it produced
		comp.Framing, comp.Note = framing, note
		if err != nil {
			n.Children = append(n.Children, cn)
			cn.Value = codec.String() + ", " + strconv.Itoa(size) + " bytes: cannot decompress"
			return k.fail(cn.Path, cn.Offset, "%s: %w", codec, err)
		}
		k.inflate -= len(out)
		comp.Data = out
		if err := walkInner(nil, &reader{buf: out, end: len(out)}); err != nil {
			n.Children = append(n.Children, cn)
			var pe *pathError
			if errors.As(err, &pe) {
				return k.fail(pe.path, cn.Offset, "in the %s-decompressed messages at their offset %d: %w", codec, pe.off, pe.err)
			}
			return err
		}
	}
	n.Children = append(n.Children, cn)
	cn.Value = k.t.cat(codec.String(), ", "+strconv.Itoa(cn.Length)+" → "+strconv.Itoa(len(comp.Data))+" bytes")
	n.Value = cn.Value
	return nil
}

// innerMessages walks the messages inside a compressed legacy wrapper into root (m's inner
// message set), over k's writer or reader, which k.nested has set to the plain messages.
func (k *walker) innerMessages(root *Node, m *LegacyMessage) error {
	if k.w != nil {
		for i := range m.Inner {
			if err := k.legacyMessage(root, k.t.index(root.Path, i, ""), &m.Inner[i]); err != nil {
				return err
			}
		}
	} else {
		m.Inner = MessageSet{}
		for i := 0; k.r.left() > 0; i++ {
			if err := k.spent(root.Path, k.pos()); err != nil {
				return err
			}
			m.Inner = append(m.Inner, LegacyMessage{})
			if err := k.legacyMessage(root, k.t.index(root.Path, i, ""), &m.Inner[i]); err != nil {
				return err
			}
		}
	}
	root.Value = k.messagesText(len(m.Inner))
	k.end(root)
	return nil
}
