package reference

import (
	"fmt"
	"html/template"
	"strings"
)

// hexDump returns b as a classic hex dump: offset, 16 bytes in two groups of 8, and the
// printable ASCII, one line per 16 bytes, each line ending in "\n".
func hexDump(b []byte) string {
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

// hexDumpHTML is hexDump with every byte in a span carrying its offset (data-o), so a page can
// highlight the bytes of the field under the pointer.
func hexDumpHTML(b []byte) template.HTML { return hexDumpLines(b, 16) }

// hexDumpNarrow is hexDumpHTML 8 bytes a line, with 4-digit offsets when the frame is under
// 64 KiB: 44 columns, which a phone shows whole (pageCSS).
func hexDumpNarrow(b []byte) template.HTML { return hexDumpLines(b, 8) }

func hexDumpLines(b []byte, per int) template.HTML {
	var sb strings.Builder
	digits := 8
	if per < 16 && len(b) <= 0x10000 {
		digits = 4
	}
	for off := 0; off < len(b); off += per {
		end := min(off+per, len(b))
		fmt.Fprintf(&sb, `<span class="off">%0*x</span> `, digits, off)
		for i := off; i < off+per; i++ {
			if i == off+8 {
				sb.WriteByte(' ')
			}
			if i < end {
				fmt.Fprintf(&sb, ` <span data-o="%d">%02x</span>`, i, b[i])
			} else {
				sb.WriteString("   ")
			}
		}
		sb.WriteString(`  <span class="asc">|`)
		for i := off; i < end; i++ {
			template.HTMLEscape(&sb, []byte{printable(b[i])})
		}
		sb.WriteString("|</span>\n")
	}
	return template.HTML(sb.String())
}

func printable(c byte) byte {
	if c >= 0x20 && c < 0x7f {
		return c
	}
	return '.'
}
