// Package arena is the one append-only text arena of kafkagrid: the codec (kafka) carves the
// paths and display values of an annotated frame from it, and the layouts (bytegrid, tree)
// their tooltips and numbers. One frame or diagram makes some hundred short strings; made one
// by one they were the largest share of the allocations of encoding, decoding and laying out.
//
// Bytes once carved are never written again: a string is only handed out for bytes below the
// arena's length, and later appends write at or after it — into the same block while it has
// room, else into a new block (the old one stays alive as long as a string points into it).
// That is what makes the unsafe.String conversion sound. A retained string keeps its whole
// block (Block bytes at most, unless a reservation asked for more) alive.
//
// A Text is not safe for concurrent use; the strings it hands out are immutable and may be
// shared freely.
package arena

import (
	"strconv"
	"unsafe"
)

// Block is the largest size of a fresh block made by growth alone: blocks grow to it from 512
// bytes, so that a small frame or diagram does not hold 8 KiB. Reserve may ask for more.
const Block = 8 << 10

// Text is an append-only byte arena that strings are carved from. Its zero value is empty and
// ready to use. To build a string, note Len, append to Buf, store the result with Set, and
// take the string with Since; or use the helpers.
type Text struct {
	buf []byte
	// New, when set, makes the next block, empty with room for at least n bytes, in place of
	// the growth from 512 bytes: a caller that recycles its blocks (kafka's
	// DecodeOptions.Recycle).
	New func(n int) []byte
}

// Reserve makes sure n more bytes fit in the current block, so that the bytes about to be
// appended stay contiguous without a copy.
func (t *Text) Reserve(n int) {
	if cap(t.buf)-len(t.buf) < n {
		if t.New != nil {
			t.buf = t.New(n)
			return
		}
		t.buf = make([]byte, 0, max(n, min(max(2*cap(t.buf), 512), Block)))
	}
}

// Buf returns the arena's buffer to append to; store the result with Set.
func (t *Text) Buf() []byte { return t.buf }

// Len returns the length of the buffer: where the next string starts.
func (t *Text) Len() int { return len(t.buf) }

// Set makes b, the result of appending to Buf, the arena's buffer. When b is the buffer grown
// in place (the usual case: Reserve made room), only the length is stored: storing the slice's
// pointer costs a write barrier while the garbage collector marks.
func (t *Text) Set(b []byte) {
	if cap(b) == cap(t.buf) { // append reallocates only past the capacity: same memory
		t.buf = t.buf[:len(b)]
	} else {
		t.buf = b
	}
}

// Since returns the bytes from start to the end of the arena as a string. A string built with
// more appends than Reserve made room for may have moved to a new block: append copies what
// was there, so the buffer from start on still holds the whole string.
func (t *Text) Since(start int) string {
	if start >= len(t.buf) {
		return ""
	}
	b := t.buf[start:]
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// Bytes returns a copy of p, as a string carved from the arena.
func (t *Text) Bytes(p []byte) string {
	if len(p) == 0 {
		return ""
	}
	t.Reserve(len(p))
	start := len(t.buf)
	t.Set(append(t.buf, p...))
	return t.Since(start)
}

// Cat returns the concatenation of the parts. (A variadic call: the slice of parts stays on
// the caller's stack.)
func (t *Text) Cat(parts ...string) string {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	if n == 0 {
		return ""
	}
	t.Reserve(n)
	b := t.buf // one store of the length at the end
	start := len(b)
	for _, p := range parts {
		b = append(b, p...)
	}
	t.Set(b)
	return t.Since(start)
}

// Int returns v in decimal (small values without touching the arena).
func (t *Text) Int(v int64) string {
	if 0 <= v && v < 100 {
		return strconv.FormatInt(v, 10) // a constant for small values: no allocation
	}
	t.Reserve(20)
	start := len(t.buf)
	t.Set(strconv.AppendInt(t.buf, v, 10))
	return t.Since(start)
}
