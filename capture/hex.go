package capture

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// LooksLikeText reports whether data is text that ParseHex may read: no control bytes other
// than whitespace, in its first 4 KiB.
func LooksLikeText(data []byte) bool {
	if len(data) == 0 {
		return false
	}
	for _, c := range data[:min(len(data), 4096)] {
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}

// MaxHexBytes bounds what a hex dump may expand to: hexdump -C writes "*" for repeated lines,
// so that a few lines can claim any length. 128 MiB is more than the largest frame Read takes.
const MaxHexBytes = 128 << 20

// ParseHex reads bytes written as text, in any of the forms people paste:
//
//   - plain hex, with any whitespace (and optional 0x prefixes and commas): "00 00 00 2a …";
//   - xxd: "00000000: 0000 002a 0012 0004  ...*....";
//   - hexdump -C: "00000000  00 00 00 2a 00 12 00 04  |...*....|", "*" lines for repeats;
//   - Wireshark's "Copy as Hex Dump": "0000   00 00 00 2a 00 12 00 04   ...*....";
//   - Wireshark's "Copy as Escaped String" (and C strings): "\x00\x00\x00\x2a" \ …
//
// A form with an offset column is recognised by its offsets: the first is 0 and each line's is
// the previous one's plus its bytes. The ASCII column is recognised by matching the bytes it
// shows. An error names the line and column.
func ParseHex(text []byte) ([]byte, error) {
	s := string(text)
	if strings.Contains(s, `\x`) || strings.HasPrefix(strings.TrimSpace(s), `"`) {
		return parseEscaped(s)
	}
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	if out, ok := parseOffsetDump(lines); ok {
		return out, nil
	}
	return parsePlainHex(lines)
}

// parsePlainHex reads hex digits separated by any whitespace; a token may carry a 0x prefix
// and a trailing comma, and must have an even number of digits.
func parsePlainHex(lines []string) ([]byte, error) {
	var out []byte
	for i, line := range lines {
		col := 0
		for _, tok := range strings.Fields(line) {
			col = strings.Index(line[col:], tok) + col
			t := strings.TrimSuffix(tok, ",")
			t = strings.TrimPrefix(strings.TrimPrefix(t, "0x"), "0X")
			if len(t)%2 != 0 {
				return nil, fmt.Errorf("capture: hex: line %d, column %d: %q has an odd number of digits", i+1, col+1, tok)
			}
			for j := 0; j < len(t); j += 2 {
				b, err := strconv.ParseUint(t[j:j+2], 16, 8)
				if err != nil {
					return nil, fmt.Errorf("capture: hex: line %d, column %d: %q is not hex", i+1, col+1, tok)
				}
				out = append(out, byte(b))
			}
			col += len(tok)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("capture: hex: no bytes in the text")
	}
	return out, nil
}

// dumpLine is one line of a dump with an offset column.
type dumpLine struct {
	off   int
	rest  string // after the offset
	star  bool   // hexdump's "*": the line before repeats
	index int    // line number (0-based)
}

// parseOffsetDump reads xxd, hexdump -C and Wireshark hex dumps. ok is false when the text
// is not such a dump (its offsets do not add up), so that it is read as plain hex.
func parseOffsetDump(lines []string) (out []byte, ok bool) {
	var ls []dumpLine
	for i, line := range lines {
		t := strings.TrimSpace(line)
		if t == "" {
			continue
		}
		if t == "*" {
			ls = append(ls, dumpLine{star: true, index: i})
			continue
		}
		end := strings.IndexAny(t, " \t")
		tok := t
		if end >= 0 {
			tok = t[:end]
		}
		tok = strings.TrimSuffix(tok, ":")
		if len(tok) < 4 || len(tok) > 16 {
			return nil, false
		}
		off, err := strconv.ParseUint(tok, 16, 63)
		if err != nil || off > 1<<40 {
			return nil, false
		}
		rest := ""
		if end >= 0 {
			rest = t[end:]
		}
		ls = append(ls, dumpLine{off: int(off), rest: rest, index: i})
	}
	if len(ls) == 0 || ls[0].star || ls[0].off != 0 {
		return nil, false
	}
	// Plain hex grouped in fours ("0000 002a …") must not pass for a dump: a dump shows an
	// ASCII column, a colon after its offset (xxd), or offsets that add up over lines.
	sawASCII := strings.HasSuffix(strings.Fields(lines[ls[0].index])[0], ":") || len(ls) > 1
	var prev []byte
	for i, l := range ls {
		if l.star {
			if i == 0 || i+1 >= len(ls) || ls[i+1].star || len(prev) == 0 {
				return nil, false
			}
			// Repeat the line before up to the next offset, within the limit.
			if ls[i+1].off > MaxHexBytes {
				return nil, false
			}
			for len(out) < ls[i+1].off {
				n := min(len(prev), ls[i+1].off-len(out))
				out = append(out, prev[:n]...)
			}
			continue
		}
		if l.off != len(out) {
			return nil, false
		}
		want := -1 // the bytes this line holds, known from the next offset
		if i+1 < len(ls) && !ls[i+1].star {
			want = ls[i+1].off - l.off
		}
		b, ascii, ok := dumpBytes(l.rest, want)
		if !ok {
			return nil, false
		}
		sawASCII = sawASCII || ascii
		out = append(out, b...)
		prev = b
	}
	return out, len(out) > 0 && sawASCII
}

// dumpBytes reads the hex of one dump line (after its offset) and drops its ASCII column:
// tokens of 2 or 4 hex digits are taken while the rest of the line is not the ASCII rendering
// of what was taken. want, when not -1, is the number of bytes the line must hold.
func dumpBytes(rest string, want int) (b []byte, ascii, ok bool) {
	type tok struct {
		b   []byte
		end int // end of the token in rest
	}
	var toks []tok
	pos := 0
	for pos < len(rest) {
		for pos < len(rest) && (rest[pos] == ' ' || rest[pos] == '\t') {
			pos++
		}
		start := pos
		for pos < len(rest) && rest[pos] != ' ' && rest[pos] != '\t' {
			pos++
		}
		t := rest[start:pos]
		if t == "" || (len(t) != 2 && len(t) != 4) {
			break
		}
		var b []byte
		for j := 0; j < len(t); j += 2 {
			v, err := strconv.ParseUint(t[j:j+2], 16, 8)
			if err != nil {
				b = nil
				break
			}
			b = append(b, byte(v))
		}
		if b == nil {
			break
		}
		toks = append(toks, tok{b, pos})
	}
	// An ASCII column that matches wins over reading it as hex ("61 62  ab"); a line with
	// nothing after its hex comes last.
	for _, ascii := range []bool{true, false} {
		for k := len(toks); k >= 0; k-- {
			var b []byte
			end := 0
			for _, t := range toks[:k] {
				b = append(b, t.b...)
			}
			if k > 0 {
				end = toks[k-1].end
			}
			if want >= 0 && len(b) != want {
				continue
			}
			tail := strings.TrimSpace(rest[end:])
			if ascii && tail != "" && asciiMatches(tail, b) || !ascii && tail == "" {
				return b, ascii, true
			}
		}
	}
	return nil, false, false
}

// asciiMatches reports whether s is the ASCII column of b: printable bytes as themselves,
// others as '.', optionally between '|' (hexdump -C).
func asciiMatches(s string, b []byte) bool {
	if len(s) >= 2 && s[0] == '|' && s[len(s)-1] == '|' {
		s = s[1 : len(s)-1]
	}
	var want bytes.Buffer
	for _, c := range b {
		if c >= 0x20 && c < 0x7f {
			want.WriteByte(c)
		} else {
			want.WriteByte('.')
		}
	}
	return strings.TrimSpace(s) == strings.TrimSpace(want.String())
}

// parseEscaped reads C-style strings: "\x00\x2a…" pieces in double quotes, joined by
// whitespace, '\' line continuations or '+'. Outside quotes only those may appear.
func parseEscaped(s string) ([]byte, error) {
	var out []byte
	line, col := 1, 0
	errf := func(format string, a ...any) error {
		return fmt.Errorf("capture: escaped string: line %d, column %d: %s", line, col, fmt.Sprintf(format, a...))
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		col++
		switch {
		case c == '\n':
			line, col = line+1, 0
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\\' || c == '+' || c == ';':
			continue
		case c != '"':
			return nil, errf("%q outside a quoted string", c)
		}
		// A quoted string.
		for i++; ; i++ {
			if i >= len(s) {
				return nil, errf("unterminated string")
			}
			c := s[i]
			col++
			if c == '"' {
				break
			}
			if c == '\n' {
				return nil, errf("newline inside a string")
			}
			if c != '\\' {
				out = append(out, c)
				continue
			}
			if i+1 >= len(s) {
				return nil, errf("escape at the end")
			}
			i++
			col++
			switch e := s[i]; e {
			case 'x':
				j := i + 1
				for j < len(s) && j < i+3 && isHex(s[j]) {
					j++
				}
				if j == i+1 {
					return nil, errf(`\x without hex digits`)
				}
				v, _ := strconv.ParseUint(s[i+1:j], 16, 8)
				out = append(out, byte(v))
				col += j - i - 1
				i = j - 1
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case '0', '1', '2', '3', '4', '5', '6', '7':
				j := i
				for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
					j++
				}
				v, _ := strconv.ParseUint(s[i:j], 8, 16)
				if v > 255 {
					return nil, errf("octal escape %s out of range", s[i:j])
				}
				out = append(out, byte(v))
				col += j - i - 1
				i = j - 1
			case '\\', '"', '\'', '?':
				out = append(out, e)
			default:
				return nil, errf(`unknown escape \%c`, e)
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("capture: escaped string: no bytes in the text")
	}
	return out, nil
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
