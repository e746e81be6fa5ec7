package kafka

import (
	"errors"
	"hash/crc32"
	"strconv"
)

// LegacyMessage is a message of the message sets that came before record batches: magic 0
// (Kafka 0.8) and magic 1 (0.10, KIP-32, adds a timestamp); see
// https://kafka.apache.org/documentation/#messageset. A compressed message is a wrapper: its
// Value holds a whole message set compressed, decoded into Inner.
type LegacyMessage struct {
	Offset     int64
	CRC        uint32 // CRC-32 (IEEE) of the bytes from Magic to the message's end
	Magic      int8   // 0 or 1
	Attributes int8   // bits 0-2 compression; bit 3 timestamp type (magic 1)
	Timestamp  int64  // magic 1 only
	Key        []byte // nil for null
	Value      []byte // nil for null; a wrapper's compressed message set
	// Inner holds a wrapper's messages. Encoding a wrapper compresses them into Value.
	Inner []*LegacyMessage
}

// legacyMagic reports whether the bytes at the reader's position start a legacy message
// (magic 0 or 1 at byte 16, where a record batch has magic 2).
func (k *walker) legacyMagic() bool {
	r := k.r
	return r.end-r.off > legacyMagicAt && r.buf[r.off+legacyMagicAt] < 2
}

// legacy walks one message of a legacy message set. depth is 1 inside a wrapper, where
// compression may not nest.
func (k *walker) legacy(parent *Node, path string, m *LegacyMessage, depth int) error {
	n := k.alloc()
	n.Kind = KindStruct
	n.Name = "Message"
	n.Path = path
	n.Offset = k.pos()
	n.WireType = "message"
	n.About = "A message of a legacy message set (magic 0 or 1), before record batches."
	parent.Children = append(parent.Children, n)
	k.children(n, 9)
	defer k.end(n)
	if k.w == nil && k.c.left() < 26 {
		return k.fail(path, k.pos(), "%d bytes left, a legacy message needs at least 26", k.c.left())
	}
	p := func(name string) string { return k.t.join(path, name, "") }
	v := m.Offset
	if err := k.fixedInt(n, "Offset", p("Offset"), "Offset of the message (in a magic 1 wrapper's inner set: relative).", 8, &v); err != nil {
		return err
	}
	m.Offset = v
	leaf := k.alloc()
	leaf.Kind = KindLength
	leaf.Name = "MessageSize"
	leaf.Path = p("MessageSize")
	leaf.About = "Byte size of the rest of the message."
	return k.sized(n, leaf, sizeInt32, func() error {
		crcOff := k.pos()
		crc, err := k.c.fixed(4, uint64(m.CRC))
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
		x := int64(m.Magic)
		if err := k.fixedInt(n, "Magic", p("Magic"), "Message format version: 0, or 1 with a timestamp.", 1, &x); err != nil {
			return err
		}
		m.Magic = int8(x)
		if m.Magic != 0 && m.Magic != 1 {
			return k.fail(p("Magic"), start, "magic %d in a legacy message set (want 0 or 1)", m.Magic)
		}
		x = int64(m.Attributes)
		if err := k.fixedInt(n, "Attributes", p("Attributes"), "Bits 0-2 compression, 3 timestamp type (magic 1).", 1, &x); err != nil {
			return err
		}
		m.Attributes = int8(x)
		if m.Magic == 1 {
			if err := k.fixedInt(n, "Timestamp", p("Timestamp"), "Timestamp (ms since the epoch).", 8, &m.Timestamp); err != nil {
				return err
			}
		}
		if err := k.bytes32(n, "Key", p("Key"), "The message key (int32 length, -1 for null).", &m.Key); err != nil {
			return err
		}
		codec := Codec(m.Attributes & 7)
		if codec == CodecNone {
			if err := k.bytes32(n, "Value", p("Value"), "The message value (int32 length, -1 for null).", &m.Value); err != nil {
				return err
			}
		} else {
			if depth > 0 {
				return k.fail(p("Attributes"), start+1, "compressed message inside a compressed wrapper")
			}
			if codec > CodecLZ4 {
				return k.fail(p("Attributes"), start+1, "codec %s in a legacy message (only gzip, snappy, lz4)", codec)
			}
			if err := k.wrapperValue(n, p("Value"), m, codec); err != nil {
				return err
			}
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

// bytes32 walks an int32-length byte string (-1 null) of a legacy message.
func (k *walker) bytes32(parent *Node, name, path, about string, b *[]byte) error {
	n := k.alloc()
	n.Kind = KindField
	n.Name = name
	n.Path = path
	n.Offset = k.pos()
	n.WireType = "bytes"
	n.About = about
	parent.Children = append(parent.Children, n)
	k.children(n, 2)
	defer k.end(n)
	size := -1
	if k.w != nil && *b != nil {
		size = len(*b)
	}
	size, err := k.length(n, k.t.cat(path, sfxLength), lenInt32, true, size, false)
	if err != nil {
		return err
	}
	if size < 0 {
		*b = nil
		n.Value = "null"
		return nil
	}
	off := k.pos()
	if *b, err = k.c.raw(size, *b); err != nil {
		return k.failErr(path+sfxData, off, err)
	}
	if *b == nil {
		*b = []byte{}
	}
	if printable(*b) {
		n.Value = k.t.quoteBytes(*b)
	} else {
		n.Value = k.t.hex(*b)
	}
	n.Raw = *b
	if size > 0 {
		d := k.alloc()
		d.Kind = KindData
		d.Name = name
		d.Path = k.t.cat(path, sfxData)
		d.Offset = off
		d.Length = size
		d.WireType = "raw"
		d.Value = n.Value
		d.About = "The content bytes."
		n.Children = append(n.Children, d)
	}
	return nil
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
	// walkInner walks the inner messages with a sub-walker over codec c. It shares the
	// walker's blocks, so k must not allocate nor add text until it has them back.
	walkInner := func(c walkCodec) error {
		sub := *k
		sub.c = c
		sub.w, _ = c.(*writer)
		sub.r, _ = c.(*reader)
		defer func() { k.slab, k.kids, k.t, k.anys = sub.slab, sub.kids, sub.t, sub.anys }()
		if sub.w != nil {
			for i, im := range m.Inner {
				if err := sub.legacy(root, sub.t.index(root.Path, i, ""), im, 1); err != nil {
					return err
				}
			}
		} else {
			m.Inner = nil
			for i := 0; sub.r.left() > 0; i++ {
				im := &LegacyMessage{}
				m.Inner = append(m.Inner, im)
				if err := sub.legacy(root, sub.t.index(root.Path, i, ""), im, 1); err != nil {
					return err
				}
			}
		}
		root.Value = strconv.Itoa(len(m.Inner)) + " messages"
		sub.end(root)
		return nil
	}
	if k.w != nil {
		w := &writer{}
		if err := walkInner(w); err != nil {
			return err
		}
		comp.Data = w.buf
		comp.Framing = framingOf(codec, true)
		z, err := compress(nil, codec, comp.Data, codec == CodecSnappy)
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
		data, err := k.c.raw(size, nil)
		if err != nil {
			return k.failErr(cn.Path, cn.Offset, err)
		}
		m.Value = data
		cn.Length = size
		out, framing, note, err := decompress(codec, data, k.inflate)
		comp.Framing, comp.Note = framing, note
		if err != nil {
			n.Children = append(n.Children, cn)
			cn.Value = codec.String() + ", " + strconv.Itoa(size) + " bytes: cannot decompress"
			return k.fail(cn.Path, cn.Offset, "%s: %w", codec, err)
		}
		k.inflate -= len(out)
		comp.Data = out
		if err := walkInner(&reader{buf: out, end: len(out)}); err != nil {
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

// legacyMagicAt is the byte offset of a legacy message's magic: after Offset, MessageSize and
// CRC (a record batch has its magic there too, after BaseOffset, BatchLength and
// PartitionLeaderEpoch).
const legacyMagicAt = 16

// walkCodec names the codec interface where a parameter called codec hides it.
type walkCodec = codec
