package kafka

import (
	"encoding/hex"
	"math"
	"strconv"
	"unsafe"
)

// texts is an append-only byte arena the walker carves the strings of a tree from: paths
// ("Topics[0].Partitions[0].Index#length") and display values ("42", "\"orders\"",
// "7 → length 6"). One frame builds some hundred such strings; made one by one they were
// the largest share of the allocations of encoding and decoding.
//
// Bytes once carved are never written again: a string is only handed out for bytes below
// len(buf), and later appends write at or after len(buf) — into the same block while it has
// room, else into a new block (the old one stays alive as long as a string points into it).
// That is what makes the unsafe.String conversion sound. A retained string keeps its whole
// block (textBlock bytes at most, unless the string itself is longer) alive, as a node keeps
// its node slab alive.
type texts struct{ buf []byte }

// textBlock is the largest size of a fresh block: the strings of some ten frames. Blocks grow
// to it from 512 bytes, so that a single small frame does not hold 8 KiB.
const textBlock = 8 << 10

// room makes sure n more bytes fit in the current block, so that the bytes about to be
// appended stay contiguous without a copy.
func (t *texts) room(n int) {
	if cap(t.buf)-len(t.buf) < n {
		t.buf = make([]byte, 0, max(n, min(max(2*cap(t.buf), 512), textBlock)))
	}
}

// set makes b, the result of appending to buf, the arena's buffer. When b is buf grown in
// place (the usual case: room reserved enough), only the length is stored: storing the
// slice's pointer costs a write barrier while the garbage collector marks, and a tree has
// some hundred strings a frame.
func (t *texts) set(b []byte) {
	if cap(b) == cap(t.buf) { // append reallocates only past the capacity: same memory
		t.buf = t.buf[:len(b)]
	} else {
		t.buf = b
	}
}

// since returns the bytes from start to the end of the arena as a string. A string built
// with more appends than room reserved may have moved to a new block: append copies what
// was there, so buf[start:] still holds the whole string.
func (t *texts) since(start int) string {
	if start >= len(t.buf) {
		return ""
	}
	b := t.buf[start:]
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// cat returns the concatenation of the parts. (A variadic call: the slice of parts stays on
// the caller's stack.)
func (t *texts) cat(parts ...string) string {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	if n == 0 {
		return ""
	}
	t.room(n)
	b := t.buf // one store of the length at the end
	start := len(b)
	for _, p := range parts {
		b = append(b, p...)
	}
	t.set(b)
	return t.since(start)
}

// join appends a field name to a path prefix ("" for the body's fields) and a suffix
// ("", "#length", "#tags").
func (t *texts) join(prefix, name, suffix string) string {
	if prefix == "" {
		if suffix == "" {
			return name
		}
		return t.cat(name, suffix)
	}
	// cat(prefix, ".", name, suffix) without the loop over parts: one call per field.
	t.room(len(prefix) + 1 + len(name) + len(suffix))
	b := t.buf
	start := len(b)
	b = append(b, prefix...)
	b = append(b, '.')
	b = append(b, name...)
	b = append(b, suffix...)
	t.set(b)
	return t.since(start)
}

// index returns prefix + "[i]" + suffix ("Topics[0]#tags").
func (t *texts) index(prefix string, i int, suffix string) string {
	t.room(len(prefix) + len(suffix) + 22)
	start := len(t.buf)
	t.buf = append(t.buf, prefix...)
	t.buf = append(t.buf, '[')
	t.set(strconv.AppendInt(t.buf, int64(i), 10))
	t.buf = append(t.buf, ']')
	t.buf = append(t.buf, suffix...)
	return t.since(start)
}

// int returns v in decimal (small values without touching the arena).
func (t *texts) int(v int64) string {
	if 0 <= v && v < 100 {
		return strconv.FormatInt(v, 10) // a constant for small values: no allocation
	}
	t.room(20)
	start := len(t.buf)
	t.set(strconv.AppendInt(t.buf, v, 10))
	return t.since(start)
}

// intSuffix returns v in decimal followed by suffix ("3 elements", "150 bytes").
func (t *texts) intSuffix(v int64, suffix string) string {
	t.room(20 + len(suffix))
	start := len(t.buf)
	t.set(strconv.AppendInt(t.buf, v, 10))
	t.buf = append(t.buf, suffix...)
	return t.since(start)
}

// quote returns s as a double-quoted Go string literal, as strconv.Quote does.
func (t *texts) quote(s string) string {
	if plainASCII(s) {
		// strconv.Quote leaves printable ASCII other than '"' and '\' as it is: most
		// strings of the examples (names, ids) need no per-rune work.
		return t.cat(`"`, s, `"`)
	}
	t.room(len(s) + 2)
	start := len(t.buf)
	t.set(strconv.AppendQuote(t.buf, s))
	return t.since(start)
}

// plainASCII reports whether s is printable ASCII without a double quote or backslash: the
// strings strconv.Quote only puts quotes around.
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c > '~' || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// quoteBytes is quote of the bytes' text, without converting them to a string first.
func (t *texts) quoteBytes(b []byte) string {
	return t.quote(unsafe.String(unsafe.SliceData(b), len(b))) // AppendQuote does not keep it
}

// hex shows bytes as hexText does: "0x" and the hex of the first 32, then a count.
func (t *texts) hex(b []byte) string {
	if len(b) == 0 {
		return "0x (empty)"
	}
	h := b
	if len(h) > 32 {
		h = h[:32]
	}
	t.room(2 + 2*len(h) + 32)
	start := len(t.buf)
	t.buf = append(t.buf, "0x"...)
	t.set(hex.AppendEncode(t.buf, h))
	if len(b) > 32 {
		t.buf = append(t.buf, "… ("...)
		t.set(strconv.AppendInt(t.buf, int64(len(b)), 10))
		t.buf = append(t.buf, " bytes)"...)
	}
	return t.since(start)
}

// hex32 returns "0x" and v as 8 hex digits (a CRC).
func (t *texts) hex32(v uint32) string {
	t.room(10)
	start := len(t.buf)
	t.buf = append(t.buf, "0x"...)
	t.set(hex.AppendEncode(t.buf, []byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}))
	return t.since(start)
}

// uuid returns the uuid in the 8-4-4-4-12 form of UUID.String.
func (t *texts) uuid(u UUID) string {
	t.room(36)
	start := len(t.buf)
	t.set(hex.AppendEncode(t.buf, u[0:4]))
	t.buf = append(t.buf, '-')
	t.set(hex.AppendEncode(t.buf, u[4:6]))
	t.buf = append(t.buf, '-')
	t.set(hex.AppendEncode(t.buf, u[6:8]))
	t.buf = append(t.buf, '-')
	t.set(hex.AppendEncode(t.buf, u[8:10]))
	t.buf = append(t.buf, '-')
	t.set(hex.AppendEncode(t.buf, u[10:]))
	return t.since(start)
}

// float returns v as floatText does: plainly, in exponent form only when huge or tiny.
func (t *texts) float(v float64) string {
	t.room(32)
	start := len(t.buf)
	if a := math.Abs(v); a != 0 && (a >= 1e21 || a < 1e-6) {
		t.set(strconv.AppendFloat(t.buf, v, 'g', -1, 64))
	} else {
		t.set(strconv.AppendFloat(t.buf, v, 'f', -1, 64))
	}
	return t.since(start)
}

// version returns name + " v" + version ("ProduceRequest v12").
func (t *texts) version(name string, v int16) string {
	return t.intAfter(name, " v", int64(v))
}

// intAfter returns prefix + sep + v in decimal.
func (t *texts) intAfter(prefix, sep string, v int64) string {
	t.room(len(prefix) + len(sep) + 20)
	start := len(t.buf)
	t.buf = append(t.buf, prefix...)
	t.buf = append(t.buf, sep...)
	t.set(strconv.AppendInt(t.buf, v, 10))
	return t.since(start)
}

// message returns messageName(api, response, version): "Produce v12 request".
func (t *texts) message(api *API, response bool, version int16) string {
	if api == nil {
		return messageName(nil, response, version)
	}
	side := " request"
	if response {
		side = " response"
	}
	t.room(len(api.Name) + 2 + 6 + len(side))
	start := len(t.buf)
	t.buf = append(t.buf, api.Name...)
	t.buf = append(t.buf, " v"...)
	t.set(strconv.AppendInt(t.buf, int64(version), 10))
	t.buf = append(t.buf, side...)
	return t.since(start)
}

// sizeText returns the display value of a size prefix, as the package-level sizeText does.
func (t *texts) sizeText(form sizeForm, size int64) string {
	if form == sizeCompact {
		t.room(48)
		start := len(t.buf)
		t.set(strconv.AppendInt(t.buf, size+1, 10))
		t.buf = append(t.buf, " → "...)
		t.set(strconv.AppendInt(t.buf, size, 10))
		t.buf = append(t.buf, " bytes"...)
		return t.since(start)
	}
	if size == 1 {
		return "1 byte"
	}
	return t.intSuffix(size, " bytes")
}

// tagText returns "3 → Name" (a tag key's display value).
func (t *texts) tagText(tag uint64, name string) string {
	t.room(24 + len(name))
	start := len(t.buf)
	t.set(strconv.AppendUint(t.buf, tag, 10))
	t.buf = append(t.buf, " → "...)
	t.buf = append(t.buf, name...)
	return t.since(start)
}
