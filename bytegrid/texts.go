package bytegrid

import (
	"strings"
)

// texts is an append-only store for the strings a layout makes (tooltips, offset labels, data
// attribute values): each is a substring of a shared buffer, so the hundreds of short texts of
// a diagram cost a few allocations instead of one each. Bytes once written are never changed:
// when the buffer is full a new one is started, and the strings already handed out keep the
// old one alive.
type texts struct {
	b strings.Builder
}

// reserve makes room for n more bytes, so the next strings do not move the buffer.
func (t *texts) reserve(n int) {
	if t.b.Cap()-t.b.Len() < n {
		t.b.Reset() // drops the buffer from the builder only: earlier strings still refer to it
		t.b.Grow(max(n, 1024))
	}
}

// since returns the bytes written from start on as a string, without copying them.
func (t *texts) since(start int) string { return t.b.String()[start:] }

// hexDigits holds the two hex digits of every byte value, in order: the hex text of byte c
// is hexDigits[2*c : 2*c+2], without an allocation.
const hexDigits = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f" +
	"202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f" +
	"404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f" +
	"606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f" +
	"808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f" +
	"a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf" +
	"c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf" +
	"e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff"
