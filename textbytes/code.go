package textbytes

import (
	"fmt"
	"strconv"
	"strings"
)

// Byte-building code: Erlang and Elixir binaries (<<0, 0::16, "foo"::binary, -1::32>>) and
// Python's struct.pack sequences (b"".join([struct.pack('>h', 3), b'cid'])). Each reads only
// literals: a variable or an expression is an error naming it, never a guess.

// maxSegmentBits bounds one segment of a binary (a 64-bit integer at most; strings are their
// bytes).
const maxSegmentBits = 64

// parseBits reads the Erlang or Elixir binaries of s ("<<" … ">>"), one after the other. ok
// is false when s holds none.
func parseBits(s string) (t *Text, err error, ok bool) {
	if !strings.Contains(s, "<<") {
		return nil, nil, false
	}
	toks, lerr := lexCode(s)
	if lerr != nil {
		return nil, lerr, true
	}
	var out []byte
	bins, mark := 0, 0
	for i := 0; i < len(toks); i++ {
		if !punctPair(toks, i, "<", "<") {
			continue
		}
		// A binary: segments up to ">>", split at commas.
		i += 2
		var seg []ltok
		closed := false
		for ; i < len(toks); i++ {
			if punctPair(toks, i, ">", ">") {
				closed = true
				i++
				break
			}
			if toks[i].kind == 'p' && toks[i].text == "," {
				b, m, err := bitSegment(seg)
				if err != nil {
					return nil, err, true
				}
				out, mark = append(out, b...), max(mark, m)
				seg = nil
				continue
			}
			seg = append(seg, toks[i])
		}
		if !closed {
			return nil, failAt(len(s), "a binary (<<) that does not end (>>)"), true
		}
		if len(seg) > 0 {
			b, m, err := bitSegment(seg)
			if err != nil {
				return nil, err, true
			}
			out, mark = append(out, b...), max(mark, m)
		}
		bins++
	}
	if bins == 0 {
		return nil, nil, false
	}
	d := "Erlang or Elixir binary"
	switch mark {
	case 1:
		d = "Erlang binary"
	case 2:
		d = "Elixir binary"
	}
	t = &Text{Bytes: out, Detail: d}
	if bins > 1 {
		t.Notes = append(t.Notes, fmt.Sprintf("%d binaries, read one after the other", bins))
	}
	return t, nil, true
}

// punctPair reports whether toks[i] and toks[i+1] are the punctuation a and b, side by side.
func punctPair(toks []ltok, i int, a, b string) bool {
	return i+1 < len(toks) && toks[i].kind == 'p' && toks[i].text == a && toks[i+1].kind == 'p' && toks[i+1].text == b && toks[i+1].at == toks[i].at+1
}

// bitSegment reads one segment of a binary: a value (an integer, a $c or ?c character, a
// string) then an optional size and type: "::16", ":16", "::size(16)", "::16-signed",
// ":32/big", "::binary", "/binary". mark is 2 when the segment used Elixir's "::", 1 for
// Erlang's ":", else 0.
func bitSegment(seg []ltok) (b []byte, mark int, err error) {
	if len(seg) == 0 {
		return nil, 0, nil // a trailing comma
	}
	where := seg[0].at
	// The value.
	var val int64
	var str []byte
	isStr := false
	i := 0
	switch t := seg[0]; {
	case t.kind == 's' && t.text[0] == '"':
		bs, err := unescape(t.text[1:len(t.text)-1], t.at+1)
		if err != nil {
			return nil, 0, err
		}
		str, isStr = bs, true
		i = 1
	case t.kind == 'p' && (t.text == "$" || t.text == "?") && len(seg) > 1 && seg[1].at == t.at+1 && len(seg[1].text) > 0:
		// $a (Erlang) or ?a (Elixir): a character.
		val, i = int64(seg[1].text[0]), 2
		if len(seg[1].text) > 1 {
			return nil, 0, failAt(seg[1].at+1, "%s after %s is not one character", quoteTok(seg[1].text), t.text)
		}
	case t.kind == 'n':
		v, err := intLiteral(t)
		if err != nil {
			return nil, 0, err
		}
		val, i = v, 1
		// Erlang's base notation: 16#ff.
		if i+1 < len(seg) && seg[i].text == "#" && seg[i].at == t.at+len(t.text) {
			base := val
			digits := seg[i+1]
			if base < 2 || base > 36 || digits.at != seg[i].at+1 {
				return nil, 0, failAt(seg[i].at, "%s is not a base", quoteTok(t.text))
			}
			neg := strings.HasPrefix(t.text, "-")
			if neg {
				base = -base
			}
			v, perr := strconv.ParseInt(digits.text, int(base), 64)
			if perr != nil {
				return nil, 0, failAt(digits.at, "%s is not a number in base %d", quoteTok(digits.text), base)
			}
			if neg {
				v = -v
			}
			val, i = v, i+2
		}
	case t.kind == 'i':
		return nil, 0, failAt(t.at, "%s is a variable, not a value: only literals are read", quoteTok(t.text))
	default:
		return nil, 0, failAt(t.at, "%s is not a value of a binary", quoteTok(t.text))
	}
	// The size and type.
	size, little, typed := 8, false, ""
	sized := false
	rest := seg[i:]
	if len(rest) > 0 {
		if rest[0].text != ":" && rest[0].text != "/" {
			return nil, 0, failAt(rest[0].at, "%s after a value of a binary: want , or :: or /", quoteTok(rest[0].text))
		}
		j := 0
		if rest[0].text == ":" {
			j, mark = 1, 1
			if len(rest) > 1 && rest[1].text == ":" && rest[1].at == rest[0].at+1 {
				j, mark = 2, 2
			}
		}
		for j < len(rest) {
			t := rest[j]
			switch {
			case t.kind == 'p' && (t.text == "-" || t.text == "/"):
				j++
			case t.kind == 'n':
				n, err := strconv.Atoi(t.text)
				if err != nil || n < 0 {
					return nil, 0, failAt(t.at, "%s is not a size", quoteTok(t.text))
				}
				size, sized = n, true
				j++
			case t.kind == 'i' && (t.text == "size" || t.text == "unit"):
				if j+3 >= len(rest) || rest[j+1].text != "(" || rest[j+2].kind != 'n' || rest[j+3].text != ")" {
					return nil, 0, failAt(t.at, "%s( ) without a number", t.text)
				}
				if t.text == "unit" {
					if rest[j+2].text != "8" && rest[j+2].text != "1" {
						return nil, 0, failAt(rest[j+2].at, "unit(%s): only whole bytes are read", rest[j+2].text)
					}
					j += 4
					continue
				}
				n, err := strconv.Atoi(rest[j+2].text)
				if err != nil {
					return nil, 0, failAt(rest[j+2].at, "%s is not a size", quoteTok(rest[j+2].text))
				}
				size, sized = n, true
				j += 4
			case t.kind == 'i':
				switch t.text {
				case "integer", "big", "unsigned", "signed":
				case "little":
					little = true
				case "binary", "bytes", "bitstring", "bits":
					typed = "binary"
				case "utf8":
					typed = "utf8"
				default:
					return nil, 0, failAt(t.at, "%s: a type of binary segment that is not read (integer, signed, unsigned, big, little, binary)", quoteTok(t.text))
				}
				j++
			default:
				return nil, 0, failAt(t.at, "%s in the size of a segment", quoteTok(t.text))
			}
		}
	}
	if isStr {
		if sized && typed == "binary" && size != len(str) {
			return nil, mark, failAt(where, "a string of %d bytes with size %d", len(str), size)
		}
		if sized && typed == "" && size != 8 {
			return nil, mark, failAt(where, "a string with a size of %d bits: each character would be a %d-bit integer", size, size)
		}
		return str, mark, nil
	}
	if typed == "binary" {
		return nil, mark, failAt(where, "an integer typed binary")
	}
	if typed == "utf8" {
		if val < 0 || val > 0x10ffff {
			return nil, mark, failAt(where, "%d is not a character", val)
		}
		return []byte(string(rune(val))), mark, nil
	}
	if size%8 != 0 || size == 0 || size > maxSegmentBits {
		return nil, mark, failAt(where, "a segment of %d bits: only whole bytes up to 64 bits are read", size)
	}
	out, err := intBytes(val, size/8, where)
	if err != nil {
		return nil, mark, err
	}
	if little {
		for a, z := 0, len(out)-1; a < z; a, z = a+1, z-1 {
			out[a], out[z] = out[z], out[a]
		}
	}
	return out, mark, nil
}

// intLiteral reads an integer token: decimal, 0x hex, 0b, 0o, with a sign and _ separators.
func intLiteral(t ltok) (int64, error) {
	s := strings.ReplaceAll(t.text, "_", "")
	v, err := strconv.ParseInt(s, 0, 64)
	if err != nil {
		// 0-led decimals ("0010") read as decimal, not octal.
		if v2, err2 := strconv.ParseInt(s, 10, 64); err2 == nil {
			return v2, nil
		}
		return 0, failAt(t.at, "%s is not an integer", quoteTok(t.text))
	}
	return v, nil
}

// intBytes writes v big-endian in n bytes: as unsigned, or as two's complement when negative;
// a value that does not fit is an error.
func intBytes(v int64, n int, at int) ([]byte, error) {
	bits := uint(8 * n)
	if bits < 64 {
		lo, hi := -(int64(1) << (bits - 1)), int64(1)<<bits-1
		if v < lo || v > hi {
			return nil, failAt(at, "%d does not fit in %d bytes", v, n)
		}
	}
	out := make([]byte, n)
	u := uint64(v)
	for i := n - 1; i >= 0; i-- {
		out[i] = byte(u)
		u >>= 8
	}
	return out, nil
}

// ---- Python struct.pack ----

// parseStructPack reads Python code that builds bytes from struct.pack calls and bytes
// literals: b"".join([struct.pack('>h', 3), b'cid', …]) or pieces joined by +. Every piece
// must be a literal: a variable is an error. ok is false when s has no struct.pack call.
func parseStructPack(s string) (t *Text, err error, ok bool) {
	if !strings.Contains(s, "struct.pack(") {
		return nil, nil, false
	}
	toks, lerr := lexCode(s)
	if lerr != nil {
		return nil, nil, false
	}
	var out []byte
	calls := 0
	for i := 0; i < len(toks); i++ {
		tk := toks[i]
		switch {
		case tk.kind == 'i' && tk.text == "pack" && i+1 < len(toks) && toks[i+1].text == "(" && i > 1 && toks[i-1].text == "." && toks[i-2].text == "struct":
			b, next, err := packCall(s, toks, i+2)
			if err != nil {
				return nil, err, true
			}
			out = append(out, b...)
			calls++
			i = next
		case tk.kind == 'i' && tk.text == "struct" && i+1 < len(toks) && toks[i+1].text == ".":
			i++ // struct . pack
		case tk.kind == 's':
			bs, err := bytesLiteral(toks, i)
			if err != nil {
				return nil, err, true
			}
			// b"" before .join is the separator: empty, so nothing.
			out = append(out, bs...)
		case tk.kind == 'i' && tk.text == "b" && i+1 < len(toks) && toks[i+1].kind == 's' && toks[i+1].at == tk.at+1:
		case tk.kind == 'i' && (tk.text == "join" || tk.text == "bytes" || tk.text == "b"):
		case tk.kind == 'i' && i+1 < len(toks) && toks[i+1].text == "=" && (i+2 >= len(toks) || toks[i+2].text != "="):
			// The name the bytes are given: expected = …
		case tk.kind == 'p' && strings.Contains("[](),+=.\\", tk.text):
		case tk.kind == 'i':
			return nil, failAt(tk.at, "%s is a name, not bytes: only struct.pack(…) with literal values and b'…' literals are read", quoteTok(tk.text)), true
		default:
			return nil, failAt(tk.at, "%s outside a struct.pack call", quoteTok(tk.text)), true
		}
	}
	if calls == 0 {
		return nil, nil, false
	}
	return &Text{Bytes: out, Detail: "Python struct.pack"}, nil, true
}

// bytesLiteral reads the string token toks[i] (b'…', '…') as bytes.
func bytesLiteral(toks []ltok, i int) ([]byte, error) {
	t := toks[i]
	if t.text[0] == '`' {
		return nil, failAt(t.at, "a template string is not bytes")
	}
	return unescape(t.text[1:len(t.text)-1], t.at+1)
}

// packCall reads the arguments of struct.pack from toks[i] (after its "("): a literal format
// and one literal value per item; it returns the bytes and the index of the closing ")".
func packCall(s string, toks []ltok, i int) ([]byte, int, error) {
	// The arguments, split at top-level commas.
	var args [][]ltok
	var cur []ltok
	depth := 0
	end := -1
	for j := i; j < len(toks); j++ {
		t := toks[j]
		if t.kind == 'p' {
			switch t.text {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				if depth == 0 {
					end = j
				}
				depth--
			case ",":
				if depth == 0 {
					args = append(args, cur)
					cur = nil
					continue
				}
			}
		}
		if end >= 0 {
			break
		}
		cur = append(cur, t)
	}
	if end < 0 {
		return nil, 0, failAt(toks[i-1].at, "a struct.pack call that is not closed")
	}
	if len(cur) > 0 {
		args = append(args, cur)
	}
	if len(args) == 0 || len(args[0]) != 1 || args[0][0].kind != 's' {
		at := toks[i-1].at
		if len(args) > 0 && len(args[0]) > 0 {
			at = args[0][0].at
		}
		return nil, 0, failAt(at, "the format of struct.pack is not a literal string")
	}
	ft := args[0][0]
	format := ft.text[1 : len(ft.text)-1]
	vals := args[1:]
	// Byte order.
	little := false
	fi := 0
	if format != "" {
		switch format[0] {
		case '>', '!':
			fi = 1
		case '<':
			little, fi = true, 1
		case '=', '@':
			return nil, 0, failAt(ft.at+1, "format %q: native byte order; only >, ! and < are read", format)
		}
	}
	if fi == 0 && strings.ContainsAny(format, "hHiIlLqQ") {
		return nil, 0, failAt(ft.at+1, "format %q has no byte order (>, ! or <): native order and alignment", format)
	}
	var out []byte
	vi := 0
	next := func(code byte) ([]ltok, error) {
		if vi >= len(vals) {
			return nil, failAt(ft.at, "format %q wants more values than the %d given", format, len(vals))
		}
		v := vals[vi]
		vi++
		if len(v) == 0 {
			return nil, failAt(ft.at, "an empty value for %q", string(code))
		}
		return v, nil
	}
	for fi < len(format) {
		c := format[fi]
		if c == ' ' {
			fi++
			continue
		}
		count, hasCount := 1, false
		if isDigit(c) {
			j := fi
			for j < len(format) && isDigit(format[j]) {
				j++
			}
			n, err := strconv.Atoi(format[fi:j])
			if err != nil || n > 1<<16 || j == len(format) {
				return nil, 0, failAt(ft.at+1+fi, "format %q: a count without a code", format)
			}
			count, hasCount, fi = n, true, j
			c = format[fi]
		}
		fi++
		size := 0
		switch c {
		case 'x':
			out = append(out, make([]byte, count)...)
			continue
		case 's', 'p':
			v, err := next(c)
			if err != nil {
				return nil, 0, err
			}
			if len(v) != 2 && len(v) != 1 || v[len(v)-1].kind != 's' {
				return nil, 0, failAt(v[0].at, "the value of %q is not a bytes literal", string(c))
			}
			bs, err := bytesLiteral(v, len(v)-1)
			if err != nil {
				return nil, 0, err
			}
			if !hasCount {
				count = 1
			}
			field := make([]byte, count)
			copy(field, bs)
			out = append(out, field...)
			continue
		case 'c', 'b', 'B', '?':
			size = 1
		case 'h', 'H':
			size = 2
		case 'i', 'I', 'l', 'L':
			size = 4
		case 'q', 'Q':
			size = 8
		default:
			return nil, 0, failAt(ft.at+fi, "format %q: code %q is not read", format, string(c))
		}
		for k := 0; k < count; k++ {
			v, err := next(c)
			if err != nil {
				return nil, 0, err
			}
			n, err := packValue(v, c)
			if err != nil {
				return nil, 0, err
			}
			b, err := packInt(n, c, size, v[0].at)
			if err != nil {
				return nil, 0, err
			}
			if little {
				for a, z := 0, len(b)-1; a < z; a, z = a+1, z-1 {
					b[a], b[z] = b[z], b[a]
				}
			}
			out = append(out, b...)
		}
	}
	if vi != len(vals) {
		return nil, 0, failAt(vals[vi][0].at, "format %q takes %d values; %d given", format, vi, len(vals))
	}
	return out, end, nil
}

// packSize is the size of struct.pack's integer code c (0 for another code).
func packSize(c byte) int {
	switch c {
	case 'c', 'b', 'B', '?':
		return 1
	case 'h', 'H':
		return 2
	case 'i', 'I', 'l', 'L':
		return 4
	case 'q', 'Q':
		return 8
	}
	return 0
}

// packInt writes n as struct.pack's integer code c of size bytes does, big-endian; a value out
// of the code's range is an error at at.
func packInt(n int64, c byte, size, at int) ([]byte, error) {
	unsigned := c == 'B' || c == 'H' || c == 'I' || c == 'L' || c == 'Q' || c == '?'
	bits := uint(8 * size)
	if bits < 64 {
		lo, hi := -(int64(1) << (bits - 1)), int64(1)<<(bits-1)-1
		if unsigned {
			lo, hi = 0, int64(1)<<bits-1
		}
		if n < lo || n > hi {
			return nil, failAt(at, "%d is out of range for %q", n, string(c))
		}
	} else if unsigned && n < 0 {
		return nil, failAt(at, "%d is out of range for %q", n, string(c))
	}
	return intBytes(n, size, at)
}

// packValue reads one literal value of struct.pack: an integer, True or False, len of a
// literal string, or (for 'c') a one-byte bytes literal.
func packValue(v []ltok, code byte) (int64, error) {
	switch {
	case len(v) == 1 && v[0].kind == 'n':
		return intLiteral(v[0])
	case len(v) == 2 && v[0].text == "-" && v[1].kind == 'n':
		n, err := intLiteral(v[1])
		return -n, err
	case len(v) == 1 && v[0].kind == 'i' && (v[0].text == "True" || v[0].text == "False"):
		if v[0].text == "True" {
			return 1, nil
		}
		return 0, nil
	case len(v) == 4 && v[0].text == "len" && v[1].text == "(" && v[3].text == ")" && v[2].kind == 's',
		len(v) == 5 && v[0].text == "len" && v[1].text == "(" && v[2].text == "b" && v[3].kind == 's' && v[4].text == ")":
		bs, err := bytesLiteral(v, len(v)-2)
		return int64(len(bs)), err
	case code == 'c' && v[len(v)-1].kind == 's':
		bs, err := bytesLiteral(v, len(v)-1)
		if err == nil && len(bs) != 1 {
			err = failAt(v[0].at, "'c' wants one byte, not %d", len(bs))
		}
		if err != nil {
			return 0, err
		}
		return int64(bs[0]), nil
	}
	return 0, failAt(v[0].at, "%s is not a literal value: only numbers, True, False and len('…') are read", quoteTok(v[0].text))
}
