// Package yamlerr gives every syntax error of gopkg.in/yaml.v3 a line. yaml.v3 says "yaml: line
// N: what" for most errors, but not for some (invalid UTF-8, control characters, an unknown
// anchor, "mapping values are not allowed in this context"); Locate finds the line of those in
// the input, so that a user is always told where.
//
// It is for the YAML readers of this module (example overrides, protocol specs); it imports
// nothing of them. Locate costs time linear in the input, times the log of its line count for
// the errors it has to bisect.
package yamlerr

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// lineRE matches yaml.v3's "yaml: line N: what"; it is compiled on first use, not when the
// program starts (most runs parse no YAML that fails).
var lineRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: line (\d+): (.*)$`) })

// Locate returns the 1-based line a yaml.v3 error of parsing src is about, and the error's text
// without the "yaml: " and "line N: " prefixes. The line is 0 only when src parses without error
// when cut at every line (it never is for an error yaml.v3 gave on src).
func Locate(src []byte, err error) (line int, msg string) {
	text := err.Error()
	if m := lineRE().FindStringSubmatch(text); m != nil {
		n, _ := strconv.Atoi(m[1])
		// An unexpected end is reported on the line after the last one.
		return max(1, min(n, bytes.Count(src, []byte("\n"))+1)), m[2]
	}
	msg = strings.TrimPrefix(text, "yaml: ")
	switch {
	case strings.Contains(msg, "UTF-8"):
		off := 0
		for off < len(src) {
			r, size := utf8.DecodeRune(src[off:])
			if r == utf8.RuneError && size <= 1 {
				return lineOf(src, off), msg
			}
			off += size
		}
	case strings.Contains(msg, "control characters"):
		for i, c := range src {
			if c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0x7f {
				return lineOf(src, i), msg
			}
		}
	case strings.HasPrefix(msg, "unknown anchor '"):
		name := strings.TrimSuffix(strings.TrimPrefix(msg, "unknown anchor '"), "' referenced")
		if i := bytes.Index(src, []byte("*"+name)); i >= 0 {
			return lineOf(src, i), msg
		}
	}
	return bisect(src), msg
}

// lineOf is the 1-based line of a byte offset.
func lineOf(src []byte, off int) int { return bytes.Count(src[:off], []byte("\n")) + 1 }

// bisect finds the first line at which src, cut after that line, no longer parses.
func bisect(src []byte) int {
	lines := bytes.SplitAfter(src, []byte("\n"))
	fails := func(k int) bool {
		var doc yaml.Node
		return yaml.Unmarshal(bytes.Join(lines[:k], nil), &doc) != nil
	}
	lo, hi := 1, len(lines)
	if !fails(hi) {
		return 0
	}
	for lo < hi {
		mid := (lo + hi) / 2
		if fails(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}
