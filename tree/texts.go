package tree

import (
	"strconv"
	"strings"
)

// texts is an append-only store for the strings a layout makes (tooltips, offsets, lengths):
// each is a substring of a shared buffer, so the hundreds of short texts of a tree cost a few
// allocations instead of one each. Bytes once written are never changed: when the buffer is
// full a new one is started, and the strings already handed out keep the old one alive.
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

// bytes returns a copy of p as a string from the buffer.
func (t *texts) bytes(p []byte) string {
	t.reserve(len(p))
	start := t.b.Len()
	t.b.Write(p)
	return t.since(start)
}

// itoa is strconv.Itoa, from the buffer.
func (t *texts) itoa(v int) string {
	if v >= 0 && v < 100 {
		return strconv.Itoa(v) // no allocation
	}
	var buf [24]byte
	return t.bytes(strconv.AppendInt(buf[:0], int64(v), 10))
}
