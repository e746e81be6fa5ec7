// Package mono measures text in the one monospace face every diagram uses, Go Mono, and cleans
// strings so that each rune drawn is one Go Mono has a glyph for.
//
// Every Go Mono glyph advances 0.6 em, so the width of a clean string is its rune count × 0.6 ×
// size. The SVG painter names a monospace stack that starts with Go Mono; the PDF painter embeds
// Go Mono itself, so print matches the layout.
package mono

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/goregular"
)

// Advance is the advance width of every Go Mono glyph, in em.
const Advance = 0.6

// Ascent and Descent are the vertical extent of a run of Go Mono text above and below its
// baseline, as fractions of its size, rounded outward: the box every layout fits text into and
// every geometry check (canvas/svgcheck, tree's Check) verifies.
const (
	Ascent  = 0.8
	Descent = 0.25
)

// Width returns the width, in the unit of size, of s drawn at font size size. s should be clean
// (see Clean); an unclean s is measured as Clean would leave it.
func Width(s string, size float64) float64 {
	return float64(utf8.RuneCountInString(s)) * Advance * size
}

// Runes returns how many monospace cells s occupies.
func Runes(s string) int { return utf8.RuneCountInString(s) }

// Fit returns the largest number of runes of width size that fit in width w.
func Fit(w, size float64) int {
	if size <= 0 || w <= 0 {
		return 0
	}
	return int(w/(Advance*size) + 1e-9)
}

// Replacement stands for a rune Go Mono cannot draw.
const Replacement = '?'

// Clean returns s with invalid UTF-8, control characters, bidirectional marks, format
// characters (zero-width, the soft hyphen), line and paragraph separators and runes that
// Go Mono lacks replaced by Replacement (tabs and newlines become spaces), so that the text
// drawn is the text measured and cannot reorder or break a diagram.
func Clean(s string) string { return clean(s, drawable, Replacement) }

// clean returns s with invalid UTF-8 and the runes keep rejects replaced by repl, and tabs and
// newlines by spaces: the one loop behind Clean and CleanAttr.
func clean(s string, keep func(rune) bool, repl rune) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			ascii = false
			break
		}
	}
	if ascii {
		return s // printable ASCII, the common case: nothing to replace
	}
	ok := utf8.ValidString(s)
	for _, r := range s {
		if !ok {
			break
		}
		ok = keep(r)
	}
	if ok {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case r == utf8.RuneError && n <= 1:
			b.WriteRune(repl)
		case r == '\t' || r == '\n' || r == '\r':
			b.WriteByte(' ')
		case !keep(r):
			b.WriteRune(repl)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Truncate cuts a clean s to at most n runes, ending in "…" when it cut.
func Truncate(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	rs := []rune(s)
	return string(rs[:n-1]) + "…"
}

func drawable(r rune) bool {
	if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
		return false
	}
	if r < 0x7f {
		return true
	}
	// Runes a reader would not see: bidirectional controls, format characters (zero-width
	// spaces and joiners, the soft hyphen, U+FEFF), line and paragraph separators.
	if unicode.Is(unicode.Bidi_Control, r) || unicode.Is(unicode.Cf, r) || r == 0x200b || r == 0x2028 || r == 0x2029 || unicode.IsControl(r) {
		return false
	}
	return hasGlyph(r)
}

//go:generate go run gen_glyphs.go

// hasGlyph reports whether Go Mono has a glyph for r: a binary search of its cmap's runes
// (glyphRanges, generated from the font; TestGlyphRanges checks it), so that measuring text
// neither parses the font nor links a font parser.
func hasGlyph(r rune) bool {
	lo, hi := 0, len(glyphRanges)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		switch {
		case r < glyphRanges[m][0]:
			hi = m
		case r > glyphRanges[m][1]:
			lo = m + 1
		default:
			return true
		}
	}
	return false
}

// MonoTTF returns a copy of the Go Mono TrueType font (for embedding in PDF). It is a copy
// because fpdf's font subsetter writes into the bytes it is given.
func MonoTTF() []byte { return bytes.Clone(gomono.TTF) }

// RegularTTF returns a copy of the Go Regular TrueType font (prose in the PDF book).
func RegularTTF() []byte { return bytes.Clone(goregular.TTF) }

// SVGFontStack is the font-family list diagrams name in SVG.
const SVGFontStack = `"Go Mono","DejaVu Sans Mono",Menlo,Consolas,monospace`

// CleanAttr makes s safe for an attribute or a one-line tooltip: invalid UTF-8, control and
// bidirectional characters become U+FFFD (tabs and newlines a space), so the text cannot break
// the XML or reorder itself. Unlike Clean it keeps runes Go Mono lacks: a browser draws
// tooltips in its own font.
func CleanAttr(s string) string {
	return clean(s, func(r rune) bool { return !badAttrRune(r) }, utf8.RuneError)
}

func badAttrRune(r rune) bool {
	if r >= 0x20 && r < 0x7f {
		return false
	}
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == 0xfffe || r == 0xffff ||
		unicode.Is(unicode.Bidi_Control, r)
}
