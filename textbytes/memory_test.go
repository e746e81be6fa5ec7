package textbytes

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// genForm writes n bytes (a repeating pattern) in a form, as the tools write it.
func genForm(form string, n int) []byte {
	data := make([]byte, n)
	for i := range data {
		data[i] = byte(i*7 + i>>8)
	}
	var b strings.Builder
	const hexd = "0123456789abcdef"
	ascii := func(p []byte) string {
		r := make([]byte, len(p))
		for i, c := range p {
			if c >= 0x20 && c < 0x7f {
				r[i] = c
			} else {
				r[i] = '.'
			}
		}
		return string(r)
	}
	switch form {
	case "xxd":
		for off := 0; off < n; off += 16 {
			p := data[off:min(n, off+16)]
			fmt.Fprintf(&b, "%08x: ", off)
			col := 0
			for i, c := range p {
				b.WriteByte(hexd[c>>4])
				b.WriteByte(hexd[c&15])
				col += 2
				if i%2 == 1 {
					b.WriteByte(' ')
					col++
				}
			}
			b.WriteString(strings.Repeat(" ", 41-col))
			b.WriteString(ascii(p))
			b.WriteByte('\n')
		}
	case "wireshark":
		for off := 0; off < n; off += 16 {
			p := data[off:min(n, off+16)]
			fmt.Fprintf(&b, "%04x   ", off&0xffff)
			for _, c := range p {
				b.WriteByte(hexd[c>>4])
				b.WriteByte(hexd[c&15])
				b.WriteByte(' ')
			}
			b.WriteString(strings.Repeat("   ", 16-len(p)))
			b.WriteString("  ")
			b.WriteString(ascii(p))
			b.WriteByte('\n')
		}
	case "0x list":
		for i, c := range data {
			fmt.Fprintf(&b, "0x%02x,", c)
			if i%12 == 11 {
				b.WriteByte('\n')
			} else {
				b.WriteByte(' ')
			}
		}
	case "go":
		b.WriteString("var frame = []byte{\n")
		for i, c := range data {
			if i%12 == 0 {
				b.WriteByte('\t')
			}
			fmt.Fprintf(&b, "0x%02x,", c)
			if i%12 == 11 {
				b.WriteByte('\n')
			} else {
				b.WriteByte(' ')
			}
		}
		b.WriteString("\n}\n")
	case "hex":
		for i, c := range data {
			b.WriteByte(hexd[c>>4])
			b.WriteByte(hexd[c&15])
			if i%16 == 15 {
				b.WriteByte('\n')
			} else {
				b.WriteByte(' ')
			}
		}
	}
	return []byte(b.String())
}

func allocOf(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestParseMemory: the memory Parse takes follows the text, counted in bytes allocated: at
// most 4 times the text (the bytes read and what reading them takes), for each form pasted
// large (xxd, Wireshark's hex dump, a 0x list, a Go []byte, plain hex), at 1 MiB and 2 MiB of
// bytes.
func TestParseMemory(t *testing.T) {
	sizes := []int{1 << 20, 2 << 20}
	if testing.Short() { // the race detector's run: the bound at 1 MiB, its growth without -short
		sizes = sizes[:1]
	}
	for _, form := range []string{"xxd", "wireshark", "0x list", "go", "hex"} {
		for _, n := range sizes {
			text := genForm(form, n)
			var got *Text
			var err error
			a := allocOf(func() { got, err = Parse(text, Auto) })
			if err != nil {
				t.Fatalf("%s: %v", form, err)
			}
			if len(got.Bytes) != n {
				t.Fatalf("%s: %d bytes read, want %d", form, len(got.Bytes), n)
			}
			t.Logf("%s: %d bytes of text, %d allocated: %.2f× the text (%s)", form, len(text), a, float64(a)/float64(len(text)), got.Detail)
			if limit := uint64(4 * len(text)); a > limit {
				t.Errorf("%s: %d bytes of text allocated %d, over %d (4× the text)", form, len(text), a, limit)
			}
		}
	}
}

// TestParseFailMemory: a text that reads as no form costs a bounded multiple of it too,
// counted in bytes allocated (each form tried, and again past each leading paragraph of
// prose): at most 12 times the text for words, paragraphs of words and bad hex, a bad list, a
// dump with a prefix that does not read.
func TestParseFailMemory(t *testing.T) {
	for name, s := range map[string]string{
		"words":     strings.Repeat("some words here and there\n", 40000),
		"paras":     strings.Repeat("some words here\n\n00 01 zz\n", 40000),
		"bad hex":   strings.Repeat("00 01 02 zz 04 05\n", 60000),
		"bad list":  strings.Repeat("0x00, 0x01, foo, 0x02,\n", 50000),
		"ws prefix": strings.Repeat("[x] 0000   00 01 02 03  ....\n", 40000),
	} {
		a := allocOf(func() { Parse([]byte(s), Auto) })
		t.Logf("%s: %d bytes of text, %d allocated: %.1f× the text", name, len(s), a, float64(a)/float64(len(s)))
		if limit := uint64(12 * len(s)); a > limit {
			t.Errorf("%s: %d bytes of text allocated %d, over %d (12× the text)", name, len(s), a, limit)
		}
	}
}
