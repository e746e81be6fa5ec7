package kafka

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
)

// The writer appends values to a buffer, the reader takes them from one. The walker (walk.go)
// drives one of them through the same schema walk, so encoding and decoding cannot disagree
// about the layout. Both have the same methods (fixed, uvarint, varint, raw, pos, left); the
// walker calls the one it has directly (walker.fixed and the rest), with no interface between.

// errShort is returned when a read runs past the bytes available.
var errShort = errors.New("unexpected end of data")

type writer struct{ buf []byte }

func (w *writer) pos() int { return len(w.buf) }

// The writer appends with `w.buf = append(w.buf, …)`, which within the capacity stores only
// the slice's length: storing its pointer again, as binary.AppendUvarint's result would, costs
// a write barrier while the garbage collector marks (an Encoder's writer is on the heap).

func (w *writer) fixed(n int, v uint64) (uint64, error) {
	switch n {
	case 1:
		w.buf = append(w.buf, byte(v))
	case 2:
		w.buf = append(w.buf, byte(v>>8), byte(v))
	case 4:
		w.buf = append(w.buf, byte(v>>24), byte(v>>16), byte(v>>8), byte(v))
	case 8:
		w.buf = append(w.buf, byte(v>>56), byte(v>>48), byte(v>>40), byte(v>>32), byte(v>>24), byte(v>>16), byte(v>>8), byte(v))
	default:
		return v, fmt.Errorf("fixed width %d", n)
	}
	return v, nil
}

func (w *writer) uvarint(v uint64) (uint64, error) {
	w.putUvarint(v)
	return v, nil
}

func (w *writer) varint(v int64) (int64, error) {
	w.putUvarint(uint64(v<<1) ^ uint64(v>>63)) // zigzag, as binary.AppendVarint
	return v, nil
}

// putUvarint appends v as binary.AppendUvarint does.
func (w *writer) putUvarint(v uint64) {
	for v >= 0x80 {
		w.buf = append(w.buf, byte(v)|0x80)
		v >>= 7
	}
	w.buf = append(w.buf, byte(v))
}

func (w *writer) raw(n int, b []byte) ([]byte, error) {
	if len(b) != n {
		return b, fmt.Errorf("raw: %d bytes given for %d", len(b), n)
	}
	w.buf = append(w.buf, b...)
	return b, nil
}

// patch32 overwrites the 4 bytes at off.
func (w *writer) patch32(off int, v uint32) { binary.BigEndian.PutUint32(w.buf[off:], v) }

// insert puts p at off, moving the bytes after it.
func (w *writer) insert(off int, p []byte) {
	w.buf = append(w.buf, p...)
	copy(w.buf[off+len(p):], w.buf[off:len(w.buf)-len(p)])
	copy(w.buf[off:], p)
}

type reader struct {
	buf []byte
	off int
	end int // the current limit
}

func (r *reader) left() int { return r.end - r.off }

func (r *reader) fixed(n int, _ uint64) (uint64, error) {
	if r.left() < n {
		return 0, fmt.Errorf("%w: need %d bytes, %d left", errShort, n, r.left())
	}
	b := r.buf[r.off : r.off+n]
	var v uint64
	switch n {
	case 1:
		v = uint64(b[0])
	case 2:
		v = uint64(binary.BigEndian.Uint16(b))
	case 4:
		v = uint64(binary.BigEndian.Uint32(b))
	case 8:
		v = binary.BigEndian.Uint64(b)
	default:
		return 0, fmt.Errorf("fixed width %d", n)
	}
	r.off += n
	return v, nil
}

func (r *reader) uvarint(uint64) (uint64, error) {
	x, n := binary.Uvarint(r.buf[r.off:r.end])
	if n == 0 {
		return 0, fmt.Errorf("%w: unterminated varint", errShort)
	}
	if n < 0 {
		return 0, errors.New("varint overflows 64 bits")
	}
	// Kafka writes the shortest form; a padded varint would not round-trip.
	if n > 1 && r.buf[r.off+n-1] == 0 {
		return 0, errors.New("varint not in its shortest form")
	}
	r.off += n
	return x, nil
}

func (r *reader) varint(int64) (int64, error) {
	u, err := r.uvarint(0)
	if err != nil {
		return 0, err
	}
	return int64(u>>1) ^ -int64(u&1), nil
}

func (r *reader) raw(n int, _ []byte) ([]byte, error) {
	if n < 0 || r.left() < n {
		return nil, fmt.Errorf("%w: need %d bytes, %d left", errShort, n, r.left())
	}
	b := r.buf[r.off : r.off+n : r.off+n]
	r.off += n
	return b, nil
}

// CRC32C returns the CRC-32C (Castagnoli) checksum of b, as a record batch stores it over the
// bytes from its attributes to its end (KIP-98). The table is made on first use, by hash/crc32
// itself (MakeTable builds the Castagnoli table once), not when the program starts: most
// commands never checksum a batch.
func CRC32C(b []byte) uint32 { return crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli)) }
