package kafka

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"
)

// TestWriterMatchesBinary checks the writer's hand-written appends against encoding/binary:
// big-endian fixed widths, unsigned and zigzag varints, at the edges of each byte count.
func TestWriterMatchesBinary(t *testing.T) {
	values := []uint64{0, 1, 0x7f, 0x80, 0xff, 0x3fff, 0x4000, 0xffff, 1<<31 - 1, 1 << 31, math.MaxUint32,
		1 << 56, math.MaxInt64, 1 << 63, math.MaxUint64}
	for _, v := range values {
		for _, n := range []int{1, 2, 4, 8} {
			var w writer
			if _, err := w.fixed(n, v); err != nil {
				t.Fatal(err)
			}
			var full [8]byte
			binary.BigEndian.PutUint64(full[:], v)
			if want := full[8-n:]; !bytes.Equal(w.buf, want) {
				t.Errorf("fixed(%d, %#x) = %x, want %x", n, v, w.buf, want)
			}
		}
		var w writer
		w.uvarint(v)
		if want := binary.AppendUvarint(nil, v); !bytes.Equal(w.buf, want) {
			t.Errorf("uvarint(%#x) = %x, want %x", v, w.buf, want)
		}
		for _, s := range []int64{int64(v), -int64(v)} {
			var w writer
			w.varint(s)
			if want := binary.AppendVarint(nil, s); !bytes.Equal(w.buf, want) {
				t.Errorf("varint(%d) = %x, want %x", s, w.buf, want)
			}
		}
	}
	var w writer
	if _, err := w.fixed(3, 0); err == nil {
		t.Error("fixed(3, 0): no error")
	}
}
