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
	v, i, err := bitValue(seg)
	if err != nil {
		return nil, 0, err
	}
	sp := bitSpec{size: 8}
	if rest := seg[i:]; len(rest) > 0 {
		if err := sp.read(rest); err != nil {
			return nil, 0, err
		}
	}
	out, err := sp.write(v, where)
	return out, sp.mark, err
}

// bitVal is the value of a segment of a binary: an integer, or a string's bytes.
type bitVal struct {
	n     int64
	str   []byte
	isStr bool
}

// bitValue reads the value that starts a segment: an integer (Erlang's 16#ff too), a $c or ?c
// character, a string; i is the index of the token after it.
func bitValue(seg []ltok) (v bitVal, i int, err error) {
	switch t := seg[0]; {
	case t.kind == 's' && t.text[0] == '"':
		bs, err := unescape(t.text[1:len(t.text)-1], t.at+1)
		if err != nil {
			return v, 0, err
		}
		return bitVal{str: bs, isStr: true}, 1, nil
	case t.kind == 'p' && (t.text == "$" || t.text == "?") && len(seg) > 1 && seg[1].at == t.at+1 && len(seg[1].text) > 0:
		// $a (Erlang) or ?a (Elixir): a character.
		if len(seg[1].text) > 1 {
			return v, 0, failAt(seg[1].at+1, "%s after %s is not one character", quoteTok(seg[1].text), t.text)
		}
		return bitVal{n: int64(seg[1].text[0])}, 2, nil
	case t.kind == 'n':
		return bitInteger(seg)
	case t.kind == 'i':
		return v, 0, failAt(t.at, "%s is a variable, not a value: only literals are read", quoteTok(t.text))
	}
	return v, 0, failAt(seg[0].at, "%s is not a value of a binary", quoteTok(seg[0].text))
}

// bitInteger reads an integer that starts a segment, in Erlang's base notation (16#ff) too.
func bitInteger(seg []ltok) (v bitVal, i int, err error) {
	t := seg[0]
	n, err := intLiteral(t)
	if err != nil {
		return v, 0, err
	}
	i = 1
	if i+1 >= len(seg) || seg[i].text != "#" || seg[i].at != t.at+len(t.text) {
		return bitVal{n: n}, i, nil
	}
	base := n
	digits := seg[i+1]
	if base < 2 || base > 36 || digits.at != seg[i].at+1 {
		return v, 0, failAt(seg[i].at, "%s is not a base", quoteTok(t.text))
	}
	neg := strings.HasPrefix(t.text, "-")
	if neg {
		base = -base
	}
	n, perr := strconv.ParseInt(digits.text, int(base), 64)
	if perr != nil {
		return v, 0, failAt(digits.at, "%s is not a number in base %d", quoteTok(digits.text), base)
	}
	if neg {
		n = -n
	}
	return bitVal{n: n}, i + 2, nil
}

// bitSpec is the size and type of a segment: "::16", ":16", "::size(16)", "::16-signed",
// ":32/big", "::binary", "/binary". mark is 2 for Elixir's "::", 1 for Erlang's ":", else 0.
type bitSpec struct {
	size   int
	little bool
	typed  string // "", "binary", "utf8"
	sized  bool
	mark   int
	j      int // the next token of rest
	rest   []ltok
}

// read reads rest, the tokens after the value.
func (sp *bitSpec) read(rest []ltok) error {
	sp.rest = rest
	if rest[0].text != ":" && rest[0].text != "/" {
		return failAt(rest[0].at, "%s after a value of a binary: want , or :: or /", quoteTok(rest[0].text))
	}
	if rest[0].text == ":" {
		sp.j, sp.mark = 1, 1
		if len(rest) > 1 && rest[1].text == ":" && rest[1].at == rest[0].at+1 {
			sp.j, sp.mark = 2, 2
		}
	}
	for sp.j < len(rest) {
		if err := sp.token(); err != nil {
			return err
		}
	}
	return nil
}

// token reads the spec's next token.
func (sp *bitSpec) token() error {
	rest, j := sp.rest, sp.j
	t := rest[j]
	switch {
	case t.kind == 'p' && (t.text == "-" || t.text == "/"):
		sp.j++
	case t.kind == 'n':
		n, err := strconv.Atoi(t.text)
		if err != nil || n < 0 {
			return failAt(t.at, "%s is not a size", quoteTok(t.text))
		}
		sp.size, sp.sized = n, true
		sp.j++
	case t.kind == 'i' && (t.text == "size" || t.text == "unit"):
		return sp.call(t)
	case t.kind == 'i':
		switch t.text {
		case "integer", "big", "unsigned", "signed":
		case "little":
			sp.little = true
		case "binary", "bytes", "bitstring", "bits":
			sp.typed = "binary"
		case "utf8":
			sp.typed = "utf8"
		default:
			return failAt(t.at, "%s: a type of binary segment that is not read (integer, signed, unsigned, big, little, binary)", quoteTok(t.text))
		}
		sp.j++
	default:
		return failAt(t.at, "%s in the size of a segment", quoteTok(t.text))
	}
	return nil
}

// call reads size(N) or unit(N).
func (sp *bitSpec) call(t ltok) error {
	rest, j := sp.rest, sp.j
	if j+3 >= len(rest) || rest[j+1].text != "(" || rest[j+2].kind != 'n' || rest[j+3].text != ")" {
		return failAt(t.at, "%s( ) without a number", t.text)
	}
	sp.j += 4
	if t.text == "unit" {
		if rest[j+2].text != "8" && rest[j+2].text != "1" {
			return failAt(rest[j+2].at, "unit(%s): only whole bytes are read", rest[j+2].text)
		}
		return nil
	}
	n, err := strconv.Atoi(rest[j+2].text)
	if err != nil {
		return failAt(rest[j+2].at, "%s is not a size", quoteTok(rest[j+2].text))
	}
	sp.size, sp.sized = n, true
	return nil
}

// write is the segment's bytes: v as the spec says.
func (sp *bitSpec) write(v bitVal, where int) ([]byte, error) {
	if v.isStr {
		if sp.sized && sp.typed == "binary" && sp.size != len(v.str) {
			return nil, failAt(where, "a string of %d bytes with size %d", len(v.str), sp.size)
		}
		if sp.sized && sp.typed == "" && sp.size != 8 {
			return nil, failAt(where, "a string with a size of %d bits: each character would be a %d-bit integer", sp.size, sp.size)
		}
		return v.str, nil
	}
	switch sp.typed {
	case "binary":
		return nil, failAt(where, "an integer typed binary")
	case "utf8":
		if v.n < 0 || v.n > 0x10ffff {
			return nil, failAt(where, "%d is not a character", v.n)
		}
		return []byte(string(rune(v.n))), nil
	}
	if sp.size%8 != 0 || sp.size == 0 || sp.size > maxSegmentBits {
		return nil, failAt(where, "a segment of %d bits: only whole bytes up to 64 bits are read", sp.size)
	}
	out, err := intBytes(v.n, sp.size/8, where)
	if err != nil {
		return nil, err
	}
	if sp.little {
		for a, z := 0, len(out)-1; a < z; a, z = a+1, z-1 {
			out[a], out[z] = out[z], out[a]
		}
	}
	return out, nil
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
		case packFiller(toks, i):
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

// packFiller reports whether toks[i] is code around the pieces of a struct.pack sequence:
// b of b'…', join, bytes, the name the bytes are given (expected = …), brackets, commas, +.
func packFiller(toks []ltok, i int) bool {
	tk := toks[i]
	switch {
	case tk.kind == 'i' && tk.text == "b" && i+1 < len(toks) && toks[i+1].kind == 's' && toks[i+1].at == tk.at+1:
	case tk.kind == 'i' && (tk.text == "join" || tk.text == "bytes" || tk.text == "b"):
	case tk.kind == 'i' && i+1 < len(toks) && toks[i+1].text == "=" && (i+2 >= len(toks) || toks[i+2].text != "="):
	case tk.kind == 'p' && strings.Contains("[](),+=.\\", tk.text):
	default:
		return false
	}
	return true
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
	args, end := packArgs(toks, i)
	if end < 0 {
		return nil, 0, failAt(toks[i-1].at, "a struct.pack call that is not closed")
	}
	if len(args) == 0 || len(args[0]) != 1 || args[0][0].kind != 's' {
		at := toks[i-1].at
		if len(args) > 0 && len(args[0]) > 0 {
			at = args[0][0].at
		}
		return nil, 0, failAt(at, "the format of struct.pack is not a literal string")
	}
	ft := args[0][0]
	p := packer{ft: ft, format: ft.text[1 : len(ft.text)-1], vals: args[1:]}
	if err := p.order(); err != nil {
		return nil, 0, err
	}
	for p.fi < len(p.format) {
		if err := p.code(); err != nil {
			return nil, 0, err
		}
	}
	if p.vi != len(p.vals) {
		at := ft.at
		if v := p.vals[p.vi]; len(v) > 0 {
			at = v[0].at
		}
		return nil, 0, failAt(at, "format %q takes %d values; %d given", p.format, p.vi, len(p.vals))
	}
	return p.out, end, nil
}

// packArgs splits the arguments of struct.pack from toks[i] (after its "(") at top-level
// commas; end is the index of the bracket that closes the call, -1 when none does.
func packArgs(toks []ltok, i int) (args [][]ltok, end int) {
	var cur []ltok
	depth := 0
	end = -1
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
	if end >= 0 && len(cur) > 0 {
		args = append(args, cur)
	}
	return args, end
}

// packer writes the values of a struct.pack call by its format, code by code.
type packer struct {
	ft     ltok // the format's token
	format string
	vals   [][]ltok
	little bool
	fi, vi int // the next code of the format, the next value
	out    []byte
}

// order reads the format's byte order: >, ! or <; none is refused where it matters.
func (p *packer) order() error {
	if p.format != "" {
		switch p.format[0] {
		case '>', '!':
			p.fi = 1
		case '<':
			p.little, p.fi = true, 1
		case '=', '@':
			return failAt(p.ft.at+1, "format %q: native byte order; only >, ! and < are read", p.format)
		}
	}
	if p.fi == 0 && strings.ContainsAny(p.format, "hHiIlLqQ") {
		return failAt(p.ft.at+1, "format %q has no byte order (>, ! or <): native order and alignment", p.format)
	}
	return nil
}

// next is the value for code.
func (p *packer) next(code byte) ([]ltok, error) {
	if p.vi >= len(p.vals) {
		return nil, failAt(p.ft.at, "format %q wants more values than the %d given", p.format, len(p.vals))
	}
	v := p.vals[p.vi]
	p.vi++
	if len(v) == 0 {
		return nil, failAt(p.ft.at, "an empty value for %q", string(code))
	}
	return v, nil
}

// count reads a repeat count before a code ("3s", "2h"); has is false when there is none.
func (p *packer) count() (count int, has bool, err error) {
	if !isDigit(p.format[p.fi]) {
		return 1, false, nil
	}
	j := p.fi
	for j < len(p.format) && isDigit(p.format[j]) {
		j++
	}
	n, err := strconv.Atoi(p.format[p.fi:j])
	if err != nil || n > 1<<16 || j == len(p.format) {
		return 0, false, failAt(p.ft.at+1+p.fi, "format %q: a count without a code", p.format)
	}
	p.fi = j
	return n, true, nil
}

// code writes the values of the format's next code (with its count).
func (p *packer) code() error {
	if p.format[p.fi] == ' ' {
		p.fi++
		return nil
	}
	count, hasCount, err := p.count()
	if err != nil {
		return err
	}
	c := p.format[p.fi]
	p.fi++
	switch c {
	case 'x':
		p.out = append(p.out, make([]byte, count)...)
		return nil
	case 's', 'p':
		return p.bytesField(c, count, hasCount)
	}
	size := packSize(c)
	if size == 0 {
		return failAt(p.ft.at+p.fi, "format %q: code %q is not read", p.format, string(c))
	}
	for k := 0; k < count; k++ {
		if err := p.integer(c, size); err != nil {
			return err
		}
	}
	return nil
}

// bytesField writes a bytes literal in a field of count bytes (code s or p).
func (p *packer) bytesField(c byte, count int, hasCount bool) error {
	v, err := p.next(c)
	if err != nil {
		return err
	}
	if len(v) != 2 && len(v) != 1 || v[len(v)-1].kind != 's' {
		return failAt(v[0].at, "the value of %q is not a bytes literal", string(c))
	}
	bs, err := bytesLiteral(v, len(v)-1)
	if err != nil {
		return err
	}
	if !hasCount {
		count = 1
	}
	field := make([]byte, count)
	copy(field, bs)
	p.out = append(p.out, field...)
	return nil
}

// integer writes the next value as the integer code c of size bytes.
func (p *packer) integer(c byte, size int) error {
	v, err := p.next(c)
	if err != nil {
		return err
	}
	n, err := packValue(v, c)
	if err != nil {
		return err
	}
	b, err := packInt(n, c, size, v[0].at)
	if err != nil {
		return err
	}
	if p.little {
		for a, z := 0, len(b)-1; a < z; a, z = a+1, z-1 {
			b[a], b[z] = b[z], b[a]
		}
	}
	p.out = append(p.out, b...)
	return nil
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
