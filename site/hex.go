package site

import (
	"fmt"
	"strings"
)

// HexDump returns b as a classic hex dump: offset, 16 bytes in two groups of 8, and the
// printable ASCII, one line per 16 bytes, each line ending in "\n".
func HexDump(b []byte) string {
	var sb strings.Builder
	for off := 0; off < len(b); off += 16 {
		end := min(off+16, len(b))
		fmt.Fprintf(&sb, "%08x ", off)
		for i := off; i < off+16; i++ {
			if i == off+8 {
				sb.WriteByte(' ')
			}
			if i < end {
				fmt.Fprintf(&sb, " %02x", b[i])
			} else {
				sb.WriteString("   ")
			}
		}
		sb.WriteString("  |")
		for i := off; i < end; i++ {
			sb.WriteByte(printable(b[i]))
		}
		sb.WriteString("|\n")
	}
	return sb.String()
}

// HexOptions tune HexHTML. The zero value dumps every byte, 16 a line, none marked.
type HexOptions struct {
	// PerLine is 16 (0 means 16) or 8: 8 bytes a line with 4-digit offsets when the frame is
	// under 64 KiB, 44 columns, which a phone shows whole (CSS's pre.h8).
	PerLine int
	// Failed marks the byte at FailAt, where decoding failed (class "bad"); FailAt may be
	// len(b), a frame that ends too soon: its last lines are then shown.
	Failed bool
	FailAt int
	// Limit, when positive, shows only the first Limit bytes (rounded up to whole lines), the
	// lines around FailAt when it lies beyond them, and a line saying how many bytes are not
	// shown.
	Limit int
	// HaveJSON says the frame's annotated JSON is written beside the page: the line of bytes
	// not shown says it holds them.
	HaveJSON bool
}

// HexHTML returns b as the hex dump of a page: every byte a span carrying its offset (data-o),
// so the page script lights the bytes of the field under the pointer; offsets and ASCII in
// spans of class "off" and "asc". Each line ends in "\n", for a <pre class="hex">. Its size is
// bounded by Limit: some 14 bytes of HTML a byte shown.
func HexHTML(b []byte, o HexOptions) string {
	per := o.PerLine
	if per != 8 {
		per = 16
	}
	digits := 8
	if per < 16 && len(b) <= 0x10000 {
		digits = 4
	}
	bad := -1
	if o.Failed {
		bad = o.FailAt
	}
	var sb strings.Builder
	lines := func(lo, hi int) { // the lines of b[lo:hi], lo a multiple of per
		for off := lo; off < hi; off += per {
			hexLine(&sb, b, off, min(off+per, hi), per, digits, bad)
		}
	}
	limit := o.Limit
	if limit <= 0 || len(b) <= limit {
		lines(0, len(b))
		return sb.String()
	}
	limit = (limit + 15) &^ 15
	if limit >= len(b) {
		lines(0, len(b))
		return sb.String()
	}
	lines(0, limit)
	shown := limit
	if bad >= limit && bad <= len(b) { // at len(b): the frame ends too soon; show its end
		lo := max(bad&^15-128, limit)
		hi := min(bad&^15+144, len(b))
		if lo > shown {
			fmt.Fprintf(&sb, "… %d bytes not shown …\n", lo-shown)
		}
		lines(lo, hi)
		shown = hi
	}
	if shown < len(b) {
		if o.HaveJSON {
			fmt.Fprintf(&sb, "… %d bytes not shown (the frame's JSON holds them all, in hex) …\n", len(b)-shown)
		} else {
			fmt.Fprintf(&sb, "… %d bytes not shown …\n", len(b)-shown)
		}
	}
	return sb.String()
}

// hexLine writes one line of a page's hex dump: b[off:end], per bytes a line, the byte at bad
// marked.
func hexLine(sb *strings.Builder, b []byte, off, end, per, digits, bad int) {
	fmt.Fprintf(sb, `<span class="off">%0*x</span> `, digits, off)
	for i := off; i < off+per; i++ {
		if i == off+8 {
			sb.WriteByte(' ')
		}
		switch {
		case i >= end:
			sb.WriteString("   ")
		case i == bad:
			fmt.Fprintf(sb, ` <span data-o="%d" class="bad" title="decoding failed here">%02x</span>`, i, b[i])
		default:
			fmt.Fprintf(sb, ` <span data-o="%d">%02x</span>`, i, b[i])
		}
	}
	sb.WriteString(`  <span class="asc">|`)
	for i := off; i < end; i++ {
		c := printable(b[i])
		if e := hexEscapes[c]; e != "" {
			sb.WriteString(e)
		} else {
			sb.WriteByte(c)
		}
	}
	sb.WriteString("|</span>\n")
}

// HexElements is how many HTML elements HexHTML writes for n bytes shown per a line: a span a
// byte and two a line. A page that must stay under a DOM ceiling counts with it.
func HexElements(n, per int) int {
	if per != 8 {
		per = 16
	}
	return n + 2*((n+per-1)/per)
}

// hexEscapes are the printable characters a dump's ASCII column escapes (as
// html/template.HTMLEscape does).
var hexEscapes = [128]string{'"': "&#34;", '\'': "&#39;", '&': "&amp;", '<': "&lt;", '>': "&gt;"}

func printable(c byte) byte {
	if c >= 0x20 && c < 0x7f {
		return c
	}
	return '.'
}
