// Package htmlw writes HTML pages without html/template: the markup is the caller's, and each
// value is escaped for where it stands, as html/template escapes it there, byte for byte
// (the report's tests render both and compare):
//
//   - [Writer.Text]: element content, RCDATA (<title>, <textarea>) and a quoted attribute
//     value: NUL, ", &, ', +, < and > replaced (html/template's htmlEscaper, rcdataEscaper and
//     attrEscaper of a string);
//   - [Writer.URL]: a whole URL in a quoted attribute (href="…"): a scheme other than http,
//     https or mailto replaced by "#ZgotmplZ", then every byte that is not a URL's own
//     percent-encoded, then escaped as an attribute (urlFilter, urlNormalizer, attrEscaper);
//   - [Writer.URLPath]: a value inside a URL's path, after its start (href="../f/…"): as URL
//     without the scheme's check (urlNormalizer, attrEscaper);
//   - [Writer.URLQuery]: a value inside a URL's query or fragment (href="#conn…"): every byte
//     but letters, digits and -._~ percent-encoded (urlEscaper);
//   - [Writer.Int]: a number, in any of these and in a style attribute's CSS value.
//
// Markup, CSS, JavaScript and HTML that are already safe (a drawing's SVG, the one page
// script) go in unchanged with [Writer.Raw]; JSON in a <script> element must not hold "</"
// (encoding/json escapes < and >). The package keeps no state between writers, and a Writer
// keeps the first write error, returned by Flush.
package htmlw

import (
	"io"
	"strconv"
	"strings"
)

// bufSize is how much a Writer holds before it writes to its io.Writer.
const bufSize = 32 << 10

// Writer writes a page to an io.Writer through a buffer. It is not safe for concurrent use.
type Writer struct {
	w   io.Writer
	buf []byte
	err error
}

// New returns a Writer to w; call Flush when the page is written.
func New(w io.Writer) *Writer { return &Writer{w: w, buf: make([]byte, 0, bufSize)} }

// Raw writes s unchanged: markup, or content already safe where it stands.
func (w *Writer) Raw(s string) {
	w.buf = append(w.buf, s...)
	w.spill()
}

// Text writes s escaped as element content or a quoted attribute value.
func (w *Writer) Text(s string) {
	w.buf = AppendText(w.buf, s)
	w.spill()
}

// Int writes n in decimal.
func (w *Writer) Int(n int) {
	w.buf = strconv.AppendInt(w.buf, int64(n), 10)
	w.spill()
}

// URL writes s as the whole value of a quoted URL attribute (href, src), from its start.
func (w *Writer) URL(s string) {
	w.buf = AppendURL(w.buf, s)
	w.spill()
}

// URLPath writes s as a part of a quoted URL attribute's path, after its start.
func (w *Writer) URLPath(s string) {
	w.buf = appendNormURL(w.buf, s)
	w.spill()
}

// URLQuery writes s as a part of a quoted URL attribute's query or fragment.
func (w *Writer) URLQuery(s string) {
	w.buf = appendURLBytes(w.buf, s, false)
	w.spill()
}

// Flush writes what the Writer holds and returns the first error of any write.
func (w *Writer) Flush() error {
	if w.err == nil && len(w.buf) > 0 {
		_, w.err = w.w.Write(w.buf)
	}
	w.buf = w.buf[:0]
	return w.err
}

func (w *Writer) spill() {
	if len(w.buf) >= bufSize {
		w.Flush()
	}
}

// textRepl is what each escaped byte of Text becomes (html/template's htmlReplacementTable).
var textRepl = [...]string{0: "\uFFFD", '"': "&#34;", '&': "&amp;", '\'': "&#39;", '+': "&#43;", '<': "&lt;", '>': "&gt;"}

// AppendText appends s escaped as Text writes it. Only ASCII bytes are replaced, so a byte of
// a multi-byte rune or of invalid UTF-8 is kept as it is, as html/template keeps it.
func AppendText(dst []byte, s string) []byte {
	written := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if int(c) >= len(textRepl) || textRepl[c] == "" {
			continue
		}
		dst = append(dst, s[written:i]...)
		dst = append(dst, textRepl[c]...)
		written = i + 1
	}
	return append(dst, s[written:]...)
}

// Failsafe is what stands for a URL whose scheme a page must not link (html/template's).
const Failsafe = "#ZgotmplZ"

// SafeURL says whether s may be linked: no scheme, or http, https or mailto.
func SafeURL(s string) bool {
	if protocol, _, ok := strings.Cut(s, ":"); ok && !strings.Contains(protocol, "/") {
		return strings.EqualFold(protocol, "http") || strings.EqualFold(protocol, "https") || strings.EqualFold(protocol, "mailto")
	}
	return true
}

// AppendURL appends s as URL writes it.
func AppendURL(dst []byte, s string) []byte {
	if !SafeURL(s) {
		s = Failsafe
	}
	return appendNormURL(dst, s)
}

// appendNormURL appends s percent-encoded but for a URL's own characters, then escaped for a
// quoted attribute.
func appendNormURL(dst []byte, s string) []byte {
	start := len(dst)
	dst = appendURLBytes(dst, s, true)
	// The normalized URL holds only ASCII: escaped for the attribute in place, through a copy.
	norm := string(dst[start:])
	return AppendText(dst[:start], norm)
}

// appendURLBytes percent-encodes s: every byte but letters, digits and -._~, and when norm
// also not RFC 3986's reserved characters or a valid %XX escape (html/template's
// processURLOnto).
func appendURLBytes(dst []byte, s string, norm bool) []byte {
	const hex = "0123456789abcdef"
	for i := 0; i < len(s); i++ {
		c := s[i]
		if urlKeep(s, i, norm) {
			dst = append(dst, c)
			continue
		}
		dst = append(dst, '%', hex[c>>4], hex[c&15])
	}
	return dst
}

// urlKeep says whether the byte s[i] stays as it is in a URL.
func urlKeep(s string, i int, norm bool) bool {
	c := s[i]
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	case c == '-' || c == '.' || c == '_' || c == '~':
		return true
	case strings.IndexByte("!#$&*+,/:;=?@[]", c) >= 0:
		return norm
	case c == '%':
		return norm && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2])
	}
	return false
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
