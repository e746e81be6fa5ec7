package kafka

import (
	"encoding/hex"
	"math"
	"net/netip"
	"strconv"
	"strings"
	"unsafe"

	"github.com/kafkagrid/kafkagrid/internal/arena"
)

// texts is the arena (internal/arena) the walker carves the strings of a tree from: paths
// ("Topics[0].Partitions[0].Index#length") and display values ("42", "\"orders\"",
// "7 → length 6"), with the walker's own helpers. A retained string keeps its block alive, as
// a node keeps its node slab alive.
type texts struct{ arena.Text }

// cat returns the concatenation of the parts (arena.Text.Cat).
func (t *texts) cat(parts ...string) string { return t.Cat(parts...) }

// int returns v in decimal (arena.Text.Int).
func (t *texts) int(v int64) string { return t.Int(v) }

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
	t.Reserve(len(prefix) + 1 + len(name) + len(suffix))
	b := t.Buf()
	start := len(b)
	b = append(b, prefix...)
	b = append(b, '.')
	b = append(b, name...)
	if suffix != "" {
		b = append(b, suffix...)
	}
	t.Set(b)
	return t.Since(start)
}

// index returns prefix + "[i]" + suffix ("Topics[0]#tags").
func (t *texts) index(prefix string, i int, suffix string) string {
	t.Reserve(len(prefix) + len(suffix) + 22)
	start := t.Len()
	t.Set(append(t.Buf(), prefix...))
	t.Set(append(t.Buf(), '['))
	t.Set(strconv.AppendInt(t.Buf(), int64(i), 10))
	t.Set(append(t.Buf(), ']'))
	t.Set(append(t.Buf(), suffix...))
	return t.Since(start)
}

// intSuffix returns v in decimal followed by suffix ("3 elements", "150 bytes").
func (t *texts) intSuffix(v int64, suffix string) string {
	t.Reserve(20 + len(suffix))
	start := t.Len()
	t.Set(strconv.AppendInt(t.Buf(), v, 10))
	t.Set(append(t.Buf(), suffix...))
	return t.Since(start)
}

// quote returns s as a double-quoted Go string literal, as strconv.Quote does.
func (t *texts) quote(s string) string {
	if q, ok := t.quotePrintable(s); ok {
		return q
	}
	t.Reserve(len(s) + 2)
	start := t.Len()
	t.Set(strconv.AppendQuote(t.Buf(), s))
	return t.Since(start)
}

// quotePrintable is quote of s when s is printable ASCII, and false (nothing written)
// otherwise: strconv.Quote leaves such a string as it is but for a backslash before '"' and
// '\', so most strings (names, ids, a JSON record value) need no per-rune work (strconv's took
// 4% of decoding a capture's text). One scan decides and counts, then one pass writes.
func (t *texts) quotePrintable(s string) (string, bool) {
	esc, ok := printableASCII(s)
	if !ok {
		return "", false
	}
	t.Reserve(len(s) + 2 + esc)
	start := t.Len()
	if esc == 0 {
		// The quotes stored as bytes around one copy.
		b := append(t.Buf(), '"')
		b = append(b, s...)
		t.Set(append(b, '"'))
		return t.Since(start), true
	}
	// Written a byte at a time into the room reserved: two appends per quote (a JSON value
	// has ten) cost 2% of decode's text instructions.
	b := t.Buf()[:start+len(s)+2+esc]
	q := b[start+1 : len(b)-1]
	j := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '"' || c == '\\' {
			q[j] = '\\'
			j++
		}
		q[j] = c
		j++
	}
	b[start], b[len(b)-1] = '"', '"'
	t.Set(b)
	return t.Since(start), true
}

// printableASCII reports whether s is printable ASCII, and how many double quotes and
// backslashes it has.
func printableASCII(s string) (esc int, ok bool) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < ' ' || c > '~':
			return 0, false
		case c == '"' || c == '\\':
			esc++
		}
	}
	return esc, true
}

// quoteBytes is quote of the bytes' text, without converting them to a string first.
func (t *texts) quoteBytes(b []byte) string {
	return t.quote(unsafe.String(unsafe.SliceData(b), len(b))) // AppendQuote does not keep it
}

// quotePrintableBytes is quotePrintable of the bytes' text, without converting them first.
func (t *texts) quotePrintableBytes(b []byte) (string, bool) {
	return t.quotePrintable(unsafe.String(unsafe.SliceData(b), len(b))) // it does not keep it
}

// hex shows bytes as "0x" and the hex of the first 32, then a count of them all, and when
// they read as text (mostlyText), the text of those bytes, quoted.
func (t *texts) hex(b []byte) string {
	if len(b) == 0 {
		return "0x (empty)"
	}
	h := b
	if len(h) > 32 {
		h = h[:32]
	}
	t.Reserve(2 + 2*len(h) + 32)
	start := t.Len()
	t.Set(append(t.Buf(), "0x"...))
	t.Set(hex.AppendEncode(t.Buf(), h))
	if len(b) > 32 {
		t.Set(append(t.Buf(), "… ("...))
		t.Set(strconv.AppendInt(t.Buf(), int64(len(b)), 10))
		t.Set(append(t.Buf(), " bytes)"...))
	}
	if mostlyText(h) {
		t.Set(appendBytesText(append(t.Buf(), ' '), h, len(b) > len(h)))
	}
	return t.Since(start)
}

// mostlyText reports whether b reads as text: three or more printable ASCII bytes, and at least
// three in four of all (a SASL PLAIN "\0alice\0secret", a principal "User:alice").
func mostlyText(b []byte) bool {
	n := 0
	for _, c := range b {
		if c >= 0x20 && c < 0x7f {
			n++
		}
	}
	return n >= 3 && 4*n >= 3*len(b)
}

// appendBytesText appends b as a quoted text beside its hex: printable ASCII as is, NUL as \0,
// other bytes as \xNN, and "…" inside the quotes when more bytes follow.
func appendBytesText(dst, b []byte, more bool) []byte {
	const digits = "0123456789abcdef"
	dst = append(dst, '"')
	for _, c := range b {
		switch {
		case c == '"' || c == '\\':
			dst = append(dst, '\\', c)
		case c == 0:
			dst = append(dst, '\\', '0')
		case c >= 0x20 && c < 0x7f:
			dst = append(dst, c)
		default:
			dst = append(dst, '\\', 'x', digits[c>>4], digits[c&15])
		}
	}
	if more {
		dst = append(dst, "…"...)
	}
	return append(dst, '"')
}

// withAddress returns the display value of a bytes field with the IP address it holds, when
// the field's name says it is an address and it has an address's length: Envelope's
// ClientHostAddress 0xc000020a reads "0xc000020a (192.0.2.10)".
func (t *texts) withAddress(value, field string, b []byte) string {
	if !strings.Contains(field, "Address") {
		return value
	}
	var a netip.Addr
	switch len(b) {
	case 4:
		a = netip.AddrFrom4([4]byte(b))
	case 16:
		a = netip.AddrFrom16([16]byte(b))
	default:
		return value
	}
	return t.cat(value, " (", a.String(), ")")
}

// hex32 returns "0x" and v as 8 hex digits (a CRC).
func (t *texts) hex32(v uint32) string {
	t.Reserve(10)
	start := t.Len()
	t.Set(append(t.Buf(), "0x"...))
	t.Set(hex.AppendEncode(t.Buf(), []byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}))
	return t.Since(start)
}

// uuid returns the uuid in the 8-4-4-4-12 form of UUID.String.
func (t *texts) uuid(u UUID) string {
	t.Reserve(36)
	start := t.Len()
	t.Set(hex.AppendEncode(t.Buf(), u[0:4]))
	t.Set(append(t.Buf(), '-'))
	t.Set(hex.AppendEncode(t.Buf(), u[4:6]))
	t.Set(append(t.Buf(), '-'))
	t.Set(hex.AppendEncode(t.Buf(), u[6:8]))
	t.Set(append(t.Buf(), '-'))
	t.Set(hex.AppendEncode(t.Buf(), u[8:10]))
	t.Set(append(t.Buf(), '-'))
	t.Set(hex.AppendEncode(t.Buf(), u[10:]))
	return t.Since(start)
}

// float returns v plainly, in exponent form only when huge or tiny.
func (t *texts) float(v float64) string {
	t.Reserve(32)
	start := t.Len()
	if a := math.Abs(v); a != 0 && (a >= 1e21 || a < 1e-6) {
		t.Set(strconv.AppendFloat(t.Buf(), v, 'g', -1, 64))
	} else {
		t.Set(strconv.AppendFloat(t.Buf(), v, 'f', -1, 64))
	}
	return t.Since(start)
}

// version returns name + " v" + version ("ProduceRequest v12").
func (t *texts) version(name string, v int16) string {
	return t.intAfter(name, " v", int64(v))
}

// intAfter returns prefix + sep + v in decimal.
func (t *texts) intAfter(prefix, sep string, v int64) string {
	t.Reserve(len(prefix) + len(sep) + 20)
	start := t.Len()
	t.Set(append(t.Buf(), prefix...))
	t.Set(append(t.Buf(), sep...))
	t.Set(strconv.AppendInt(t.Buf(), v, 10))
	return t.Since(start)
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
	t.Reserve(len(api.Name) + 2 + 6 + len(side))
	start := t.Len()
	t.Set(append(t.Buf(), api.Name...))
	t.Set(append(t.Buf(), " v"...))
	t.Set(strconv.AppendInt(t.Buf(), int64(version), 10))
	t.Set(append(t.Buf(), side...))
	return t.Since(start)
}

// sizeText returns the display value of a size prefix: "150 bytes", or "151 → 150 bytes"
// for a compact (varint length+1) size.
func (t *texts) sizeText(form sizeForm, size int64) string {
	if form == sizeCompact {
		t.Reserve(48)
		start := t.Len()
		t.Set(strconv.AppendInt(t.Buf(), size+1, 10))
		t.Set(append(t.Buf(), " → "...))
		t.Set(strconv.AppendInt(t.Buf(), size, 10))
		t.Set(append(t.Buf(), " bytes"...))
		return t.Since(start)
	}
	if size == 1 {
		return "1 byte"
	}
	return t.intSuffix(size, " bytes")
}

// tagText returns "3 → Name" (a tag key's display value).
func (t *texts) tagText(tag uint64, name string) string {
	t.Reserve(24 + len(name))
	start := t.Len()
	t.Set(strconv.AppendUint(t.Buf(), tag, 10))
	t.Set(append(t.Buf(), " → "...))
	t.Set(append(t.Buf(), name...))
	return t.Since(start)
}
