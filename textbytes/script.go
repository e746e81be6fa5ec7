package textbytes

import (
	"fmt"
	"slices"
	"strings"
)

// A whole script (Python, JavaScript, shell, Ruby …) holds its bytes in expressions built of
// pieces: byte strings ("\x00\x2a", b'…', printf '\x00…'), struct.pack calls, the typed
// encoders of the Python Kafka clients (Int32.encode(1), String("utf-8").encode("t")),
// int.to_bytes, bytes.fromhex, number lists given to bytes() or Buffer.from(), and lists of
// hex strings ("00 00 00 30", …). Pieces side by side in one expression ('+', ',', '\',
// brackets, b"".join, Buffer.concat) are one run of bytes; the largest run that holds a
// piece marked as bytes by its own form is read. A piece whose bytes only running the code
// gives (a name among its values, an encoder not known) makes its run unreadable: when that
// run is the script's largest, the error names its line.

// scriptMarks are what a script's byte pieces have in their text, one at least: a script that
// has none is not read token by token.
var scriptMarks = []string{`\x`, "pack(", ".encode(", "to_bytes(", "fromhex", "unhexlify", "hex", "bytes(", "bytearray(", "Uint8Array", "Buffer."}

// piece is one part of a byte expression of a script.
type piece struct {
	b       []byte
	rule    string // what read it: "byte string", "struct.pack", "Int32.encode", …
	strong  bool   // bytes by its own form (a plain b'k1' may be text, and only joins a run)
	opaque  *perr  // its bytes are known only by running the code: why, and where
	at, end int    // where it stands in the text
	fn      string // a list of hex strings: the name of the function it is given to
	name    string // a name standing for bytes (msg in b"".join([head, msg]))
}

// pieceRule reads a piece at toks[i]; next is the index past it; ok is false when the piece
// is not there.
type pieceRule func(toks []ltok, i int) (p piece, next int, ok bool)

// pieceRules are tried in order at every token of a script.
var pieceRules = []pieceRule{structPackPiece, typedEncodePiece, toBytesPiece, fromHexPiece, numberListPiece, hexListPiece, shellHexPiece, unknownEncodePiece, strEncodePiece, stringPiece, namePiece}

// scriptTokens cuts s into tokens line by line; a line that does not lex (an apostrophe in a
// word) stands as one token of kind 'x', which no expression crosses.
func scriptTokens(s string) []ltok {
	var toks []ltok
	for pos := 0; pos < len(s); {
		end := strings.IndexByte(s[pos:], '\n')
		if end < 0 {
			end = len(s)
		} else {
			end += pos
		}
		lx := lexer{s: s[:end], i: pos}
		n, start := len(toks), pos
		pos = end + 1
		for {
			t, more, err := lx.next()
			if err != nil {
				toks = append(toks[:n], ltok{kind: 'x', at: start})
				break
			}
			if !more {
				break
			}
			toks = append(toks, t)
		}
	}
	return toks
}

// run is a byte expression of a script: pieces joined.
type run struct {
	pieces []piece
	n      int // bytes
	strong bool
	opaque *perr
	first  int // the token index of its first piece
}

// scriptJoiner reports whether toks[i] may stand between two pieces of one expression: '+',
// ',', '\\', brackets, join and concat, and a name that qualifies another (types.Int32).
func scriptJoiner(toks []ltok, i int) bool {
	switch t := toks[i]; t.kind {
	case 'p':
		return strings.Contains("+,()[]\\.", t.text)
	case 'i':
		switch t.text {
		case "join", "concat", "Buffer", "bytes", "bytearray":
			return true
		}
		return isText(toks, i+1, ".") && !isText(toks, i-1, ".")
	}
	return false
}

// scriptRuns reads the pieces of a script's tokens and joins them into runs.
func scriptRuns(toks []ltok) []run {
	var runs []run
	var cur *run
	for i := 0; i < len(toks); {
		if p, next, ok := readPiece(toks, i); ok {
			if cur == nil {
				runs = append(runs, run{first: i})
				cur = &runs[len(runs)-1]
			}
			cur.add(p)
			i = next
			continue
		}
		if !scriptJoiner(toks, i) {
			cur = nil
		}
		i++
	}
	return runs
}

func readPiece(toks []ltok, i int) (piece, int, bool) {
	for _, rule := range pieceRules {
		if p, next, ok := rule(toks, i); ok {
			return p, next, true
		}
	}
	return piece{}, i, false
}

func (r *run) add(p piece) {
	r.pieces = append(r.pieces, p)
	r.n += len(p.b)
	r.strong = r.strong || p.strong
	if r.opaque == nil {
		r.opaque = p.opaque
	}
}

// byteNames are the names a script gives its byte expressions (header = b'\x00…').
func byteNames(toks []ltok, runs []run) map[string]bool {
	named := map[string]bool{}
	for _, r := range runs {
		if i := r.first; i >= 2 && toks[i-1].text == "=" && toks[i-2].kind == 'i' && r.strong {
			named[toks[i-2].text] = true
		}
	}
	return named
}

// markNamed marks strong the runs that join a name given to a byte expression
// (Buffer.concat([header, body])): their bytes are known only by running the script.
func markNamed(toks []ltok, runs []run) {
	named := byteNames(toks, runs)
	for i := range runs {
		for _, p := range runs[i].pieces {
			if p.name != "" && named[p.name] {
				runs[i].strong = true
			}
		}
	}
}

// namedJoin is the first "a + b" of two names given to byte expressions (msg = header +
// body): only running the script gives those bytes.
func namedJoin(toks []ltok, runs []run) *perr {
	named := byteNames(toks, runs)
	for k := 2; k < len(toks); k++ {
		if toks[k].kind == 'i' && toks[k-1].text == "+" && toks[k-2].kind == 'i' && named[toks[k].text] && named[toks[k-2].text] {
			return failAt(toks[k-2].at, "%s + %s joins byte strings by their names: only running the script gives the bytes; give them as one literal or as hex",
				toks[k-2].text, toks[k].text)
		}
	}
	return nil
}

// parseScript reads the bytes of a whole script wherever they stand (see pieceRules): the
// largest run of pieces that holds one marked as bytes, with a note naming its lines and the
// runs skipped. It returns nil when the script holds no such run, and an error when the
// script joins its byte strings by the names it gives them (msg = header + body), or when its
// largest run holds a piece only running the code gives (Int32.encode(size)): its line.
func parseScript(s string) (*Text, *perr) {
	t, _, err := scriptBytes(s)
	return t, err
}

// scriptBytes is parseScript, with the number of pieces the run read holds.
func scriptBytes(s string) (*Text, int, *perr) {
	s = stripComments(s)
	if !slices.ContainsFunc(scriptMarks, func(m string) bool { return strings.Contains(s, m) }) && !strings.ContainsAny(s, `"'`) {
		return nil, 0, nil
	}
	toks := scriptTokens(s)
	runs := scriptRuns(toks)
	if err := namedJoin(toks, runs); err != nil {
		return nil, 0, err
	}
	markNamed(toks, runs)
	best, worst := -1, -1 // the largest readable run, the largest that only running reads
	for i, r := range runs {
		switch {
		case r.opaque != nil && r.strong && (worst < 0 || len(r.pieces) > len(runs[worst].pieces)):
			worst = i
		case r.opaque == nil && r.strong && r.n > 0 && (best < 0 || r.n > runs[best].n):
			best = i
		}
	}
	if worst >= 0 && (best < 0 || len(runs[worst].pieces) >= len(runs[best].pieces)) {
		return nil, 0, runs[worst].opaque
	}
	if best < 0 {
		return nil, 0, nil
	}
	return scriptText(s, runs, best), len(runs[best].pieces), nil
}

// scriptText is the Text of runs[best], with notes on where it stands and what was skipped.
func scriptText(s string, runs []run, best int) *Text {
	r := runs[best]
	out := make([]byte, 0, r.n)
	var rules []string
	strs := true
	for _, p := range r.pieces {
		out = append(out, p.b...)
		if !slices.Contains(rules, p.rule) {
			rules = append(rules, p.rule)
		}
		strs = strs && p.rule == "byte string"
	}
	first, last := lineNo(s, r.pieces[0].at), lineNo(s, r.pieces[len(r.pieces)-1].end-1)
	t := &Text{Bytes: out, Form: String, Detail: "byte string in a script"}
	if strs {
		t.Notes = append(t.Notes, fmt.Sprintf("a script: the byte string of %s read (its code is not run)", linesText(first, last)))
	} else {
		t.Detail = "bytes built in a script (" + strings.Join(rules, ", ") + ")"
		t.Notes = append(t.Notes, fmt.Sprintf("a script: the bytes of %s read from their literals (%s; its code is not run)", linesText(first, last), strings.Join(rules, ", ")))
	}
	for _, p := range r.pieces {
		if p.fn != "" {
			t.Notes = append(t.Notes, fmt.Sprintf("the hex strings of %s are given to %s(), whose code is not run: read as hex, one after the other", linesText(lineNo(s, p.at), lineNo(s, p.end-1)), p.fn))
		}
	}
	var others, opaque []int
	for i, o := range runs {
		switch {
		case i == best:
		case o.opaque != nil:
			opaque = append(opaque, lineNo(s, o.opaque.at))
		case o.strong:
			others = append(others, lineNo(s, o.pieces[0].at))
		}
	}
	if len(others) > 0 {
		t.Notes = append(t.Notes, fmt.Sprintf("%d other byte strings (%s) skipped", len(others), linesList(others)))
	}
	if len(opaque) > 0 {
		t.Notes = append(t.Notes, fmt.Sprintf("the bytes of %s are known only by running the code: not read", linesList(opaque)))
	}
	return t
}

// lineNo is the 1-based line of offset at.
func lineNo(s string, at int) int { return strings.Count(s[:max(0, min(at, len(s)))], "\n") + 1 }

// ---- the piece rules ----

// stringPiece reads a string literal of bytes: one with two \x escapes or more (marked as
// bytes), or a b'…' literal (Python bytes, which may be text: it only joins a run).
func stringPiece(toks []ltok, i int) (piece, int, bool) {
	t, j := toks[i], i
	prefixed := false
	if t.kind == 'i' && (t.text == "b" || t.text == "rb" || t.text == "B") && i+1 < len(toks) && toks[i+1].kind == 's' && toks[i+1].at == t.at+len(t.text) {
		prefixed, j = true, i+1
		t = toks[j]
	}
	if t.kind != 's' || t.text[0] == '`' {
		return piece{}, i, false
	}
	strong := strings.Count(t.text, `\x`) >= 2
	if !strong && !prefixed {
		return piece{}, i, false
	}
	b, err := unescapeIn(t.text[1:len(t.text)-1], t.at+1, false)
	if err != nil {
		return piece{}, i, false
	}
	return piece{b: b, rule: "byte string", strong: strong, at: toks[i].at, end: t.at + len(t.text)}, j + 1, true
}

// callArgs splits the arguments of a call whose "(" is toks[i] at its top-level commas; end
// is the index of its ")", -1 when it does not close. A "[" or "{" at toks[i] is split so too.
func callArgs(toks []ltok, i int) (args [][]ltok, end int) {
	closer := map[string]string{"(": ")", "[": "]", "{": "}"}[toks[i].text]
	depth := 0
	start := i + 1
	for j := i + 1; j < len(toks); j++ {
		switch t := toks[j]; {
		case t.kind == 'x':
			return nil, -1
		case t.kind != 'p':
		case t.text == closer && depth == 0:
			if j > start {
				args = append(args, toks[start:j])
			}
			return args, j
		case t.text == "(" || t.text == "[" || t.text == "{":
			depth++
		case t.text == ")" || t.text == "]" || t.text == "}":
			depth--
		case t.text == "," && depth == 0:
			args = append(args, toks[start:j])
			start = j + 1
		}
	}
	return nil, -1
}

// hasEmpty reports whether an argument or item is empty (f(a, , b)): no piece reads it.
func hasEmpty(args [][]ltok) bool {
	for _, a := range args {
		if len(a) == 0 {
			return true
		}
	}
	return false
}

// isText reports whether toks[i] is the punctuation or name text.
func isText(toks []ltok, i int, text string) bool {
	return i >= 0 && i < len(toks) && toks[i].text == text && toks[i].kind != 's'
}

// opaquePiece is a piece whose bytes are not read (a name, a value only running the code
// gives, a call that is wrong), from toks[i] to toks[end]; err says why.
func opaquePiece(toks []ltok, i, end int, rule string, err error) (piece, int, bool) {
	pe, _ := err.(*perr)
	if pe == nil {
		pe = failAt(toks[i].at, "%v", err)
	}
	pe = failAt(pe.at, "%s (in %s)", pe.msg, rule)
	return piece{rule: rule, strong: true, opaque: pe, at: toks[i].at, end: toks[end].at + len(toks[end].text)}, end + 1, true
}

// structPackPiece reads struct.pack(format, values…) with literal values.
func structPackPiece(toks []ltok, i int) (piece, int, bool) {
	if !isText(toks, i, "struct") || !isText(toks, i+1, ".") || !isText(toks, i+2, "pack") || !isText(toks, i+3, "(") {
		return piece{}, i, false
	}
	_, end := callArgs(toks, i+3)
	if end < 0 {
		return piece{}, i, false
	}
	b, _, err := packCall("", toks[:end+1], i+4)
	if err != nil {
		return opaquePiece(toks, i, end, "struct.pack(…)", err)
	}
	return piece{b: b, rule: "struct.pack(…)", strong: true, at: toks[i].at, end: toks[end].at + 1}, end + 1, true
}

// typedCodec is a type of the Python Kafka clients (kafka-python's and aiokafka's
// protocol/types.py) that writes one value: ctor says it is built first, with an encoding
// (String("utf-8").encode("t")); enc writes the value.
type typedCodec struct {
	ctor bool
	enc  func(v []ltok) ([]byte, error)
}

// typedCodecs are the types whose encode the script reader runs on a literal, as those
// clients write them.
var typedCodecs = map[string]typedCodec{
	"Int8": {enc: intCodec('b')}, "Int16": {enc: intCodec('h')}, "Int32": {enc: intCodec('i')},
	"UInt32": {enc: intCodec('I')}, "Int64": {enc: intCodec('q')}, "Boolean": {enc: intCodec('?')},
	"UnsignedVarInt32": {enc: varintCodec(false)}, "VarInt32": {enc: varintCodec(true)},
	"String": {ctor: true, enc: lengthCodec(2, true)}, "CompactString": {ctor: true, enc: lengthCodec(0, true)},
	"Bytes": {enc: lengthCodec(4, false)}, "CompactBytes": {enc: lengthCodec(0, false)},
}

// intCodec writes an integer as struct.pack's code c does, big-endian.
func intCodec(c byte) func(v []ltok) ([]byte, error) {
	return func(v []ltok) ([]byte, error) {
		n, err := packValue(v, c)
		if err != nil {
			return nil, err
		}
		return packInt(n, c, packSize(c), v[0].at)
	}
}

// varintCodec writes an unsigned varint of 32 bits as those clients do (the value taken
// modulo 2³²), or with zigzag a signed one (VarInt32, as they write it: the value taken
// modulo 2³² first, so a negative one is 5 bytes).
func varintCodec(zigzag bool) func(v []ltok) ([]byte, error) {
	return func(v []ltok) ([]byte, error) {
		n, err := packValue(v, 'q')
		if err != nil {
			return nil, err
		}
		u := uint64(n) & 0xffffffff
		if zigzag {
			u = (u<<1 ^ u>>31) & 0xffffffff
		}
		var out []byte
		for ; u&^0x7f != 0; u >>= 7 {
			out = append(out, byte(u&0x7f)|0x80)
		}
		return append(out, byte(u)), nil
	}
}

// lengthCodec writes a string (text) or bytes literal after its length: an int16 or int32
// (size 2 or 4; None is -1), or a compact unsigned varint of the length plus one (size 0;
// None is 0).
func lengthCodec(size int, text bool) func(v []ltok) ([]byte, error) {
	return func(v []ltok) ([]byte, error) {
		var b []byte
		switch {
		case len(v) == 1 && v[0].kind == 'i' && v[0].text == "None":
			if size == 0 {
				return []byte{0}, nil
			}
			return intBytes(-1, size, v[0].at)
		case len(v) == 1 && v[0].kind == 's' && (text || v[0].text[0] != '"' && v[0].text[0] != '\''),
			len(v) == 2 && v[0].text == "b" && v[1].kind == 's' && !text:
			bs, err := bytesLiteral(v, len(v)-1)
			if err != nil {
				return nil, err
			}
			b = bs
		case len(v) == 1 && v[0].kind == 's':
			return nil, failAt(v[0].at, "a str where bytes are wanted")
		default:
			return nil, failAt(v[0].at, "%s is not a literal string: only literals are read", quoteTok(v[0].text))
		}
		var head []byte
		if size == 0 {
			head, _ = varintCodec(false)([]ltok{{kind: 'n', text: fmt.Sprint(len(b) + 1), at: v[0].at}})
		} else {
			var err error
			if head, err = intBytes(int64(len(b)), size, v[0].at); err != nil {
				return nil, err
			}
		}
		return append(head, b...), nil
	}
}

// typedEncodePiece reads Int32.encode(1), String("utf-8").encode("t") and the other types
// of typedCodecs, with a literal value.
func typedEncodePiece(toks []ltok, i int) (piece, int, bool) {
	t := toks[i]
	c, ok := typedCodecs[t.text]
	if t.kind != 'i' || !ok {
		return piece{}, i, false
	}
	j, name := i+1, t.text
	if c.ctor {
		if !isText(toks, j, "(") {
			return piece{}, i, false
		}
		cargs, cend := callArgs(toks, j)
		if cend < 0 || len(cargs) > 1 || hasEmpty(cargs) {
			return piece{}, i, false
		}
		if len(cargs) == 1 && !utf8Name(cargs[0]) {
			return opaquePiece(toks, i, cend, name, failAt(cargs[0][0].at, "the encoding %s is not read (utf-8 and ascii are)", quoteTok(cargs[0][0].text)))
		}
		j = cend + 1
	}
	if !isText(toks, j, ".") || !isText(toks, j+1, "encode") || !isText(toks, j+2, "(") {
		return piece{}, i, false
	}
	args, end := callArgs(toks, j+2)
	rule := name + ".encode(…)"
	switch {
	case end < 0:
		return piece{}, i, false
	case len(args) != 1 || len(args[0]) == 0:
		return opaquePiece(toks, i, end, rule, failAt(toks[j+2].at, "not one value"))
	}
	b, err := c.enc(args[0])
	if err != nil {
		return opaquePiece(toks, i, end, rule, err)
	}
	return piece{b: b, rule: rule, strong: true, at: t.at, end: toks[end].at + 1}, end + 1, true
}

// utf8Name reports whether an argument is the literal name of UTF-8 or ASCII.
func utf8Name(v []ltok) bool {
	if len(v) != 1 || v[0].kind != 's' {
		return false
	}
	switch strings.ToLower(v[0].text[1 : len(v[0].text)-1]) {
	case "utf-8", "utf8", "ascii", "us-ascii":
		return true
	}
	return false
}

// unknownEncodePiece is x.encode(…), x(…).encode(…) or x.pack(…) of a name that is not a
// type read (a variable, a class of the script), or a typed write into a buffer
// (buf.writeInt32BE(12, 0)): its bytes are known only by running it.
func unknownEncodePiece(toks []ltok, i int) (piece, int, bool) {
	if toks[i].kind != 'i' || isText(toks, i-1, ".") {
		return piece{}, i, false
	}
	j := i + 1
	if isText(toks, j, "(") {
		_, cend := callArgs(toks, j)
		if cend < 0 {
			return piece{}, i, false
		}
		j = cend + 1
	}
	if !isText(toks, j, ".") || !isText(toks, j+2, "(") || toks[j+1].kind != 'i' {
		return piece{}, i, false
	}
	m := toks[j+1].text
	write := typedWrite(m)
	if m != "encode" && m != "pack" && !write {
		return piece{}, i, false
	}
	_, end := callArgs(toks, j+2)
	if end < 0 {
		return piece{}, i, false
	}
	why := failAt(toks[i].at, "%s is not a type kafkagrid reads", quoteTok(toks[i].text))
	if write {
		why = failAt(toks[i].at, "%s.%s(…) writes into a buffer: its bytes are known only by running the code", toks[i].text, m)
	}
	p, next, ok := opaquePiece(toks, i, end, toks[i].text+"."+m+"(…)", why)
	p.strong = write // a buffer's writes are bytes; x.encode() may be text
	return p, next, ok
}

// typedWrite reports whether a method writes a typed value into a buffer: Node's
// writeInt32BE, writeUInt8, writeBigInt64LE, Java's putInt, Go's PutUint32, Python's
// pack_into.
func typedWrite(m string) bool {
	rest, ok := strings.CutPrefix(m, "write")
	if !ok {
		if rest, ok = strings.CutPrefix(m, "put"); !ok {
			rest, ok = strings.CutPrefix(m, "Put")
		}
	}
	if !ok {
		return m == "pack_into"
	}
	for _, w := range []string{"Int", "UInt", "Uint", "BigInt", "BigUInt", "Float", "Double", "Short", "Long", "Char", "Byte"} {
		if strings.HasPrefix(rest, w) {
			return true
		}
	}
	return false
}

// strEncodePiece is "text".encode() or .encode("utf-8"): the string's bytes (text: it only
// joins a run).
func strEncodePiece(toks []ltok, i int) (piece, int, bool) {
	t := toks[i]
	if t.kind != 's' || t.text[0] == '`' || !isText(toks, i+1, ".") || !isText(toks, i+2, "encode") || !isText(toks, i+3, "(") {
		return piece{}, i, false
	}
	args, end := callArgs(toks, i+3)
	if end < 0 || len(args) > 1 || len(args) == 1 && !utf8Name(args[0]) {
		return piece{}, i, false
	}
	b, err := unescape(t.text[1:len(t.text)-1], t.at+1)
	if err != nil {
		return piece{}, i, false
	}
	return piece{b: b, rule: "str.encode(…)", at: t.at, end: toks[end].at + 1}, end + 1, true
}

// toBytesPiece reads Python's (42).to_bytes(4, "big"), 42 .to_bytes(…) and
// int.to_bytes(42, 4, "big"), with byteorder= and signed= as keywords too.
func toBytesPiece(toks []ltok, i int) (piece, int, bool) {
	var recv []ltok // the number, nil for int.to_bytes
	j := i
	switch {
	case isText(toks, i, "int"):
		j = i + 1
	case isText(toks, i, "(") && i+2 < len(toks) && isText(toks, i+2, ")"):
		recv, j = toks[i+1:i+2], i+3
	case isText(toks, i, "(") && i+3 < len(toks) && isText(toks, i+1, "-") && isText(toks, i+3, ")"):
		recv, j = toks[i+1:i+3], i+4
	case toks[i].kind == 'n' || toks[i].kind == 'i':
		recv, j = toks[i:i+1], i+1
	default:
		return piece{}, i, false
	}
	if !isText(toks, j, ".") || !isText(toks, j+1, "to_bytes") || !isText(toks, j+2, "(") {
		return piece{}, i, false
	}
	args, end := callArgs(toks, j+2)
	if end < 0 || hasEmpty(args) {
		return piece{}, i, false
	}
	if recv == nil {
		if len(args) == 0 {
			return opaquePiece(toks, i, end, "int.to_bytes(…)", failAt(toks[i].at, "no value"))
		}
		recv, args = args[0], args[1:]
	}
	b, err := toBytes(recv, args)
	if err != nil {
		return opaquePiece(toks, i, end, "int.to_bytes(…)", err)
	}
	return piece{b: b, rule: "int.to_bytes(…)", strong: true, at: toks[i].at, end: toks[end].at + 1}, end + 1, true
}

// toBytes is int.to_bytes of the literal v with the arguments length, byteorder and signed
// (positional or keywords; Python's defaults 1, "big", False).
func toBytes(v []ltok, args [][]ltok) ([]byte, error) {
	n, err := packValue(v, 'q')
	if err != nil {
		return nil, err
	}
	length, little, signed := int64(1), false, false
	for k, a := range args {
		name := []string{"length", "byteorder", "signed"}[min(k, 2)]
		if len(a) > 2 && a[0].kind == 'i' && a[1].text == "=" {
			name, a = a[0].text, a[2:]
		}
		switch name {
		case "length":
			if length, err = packValue(a, 'q'); err != nil {
				return nil, err
			}
		case "byteorder":
			if len(a) != 1 || a[0].kind != 's' || a[0].text[1:len(a[0].text)-1] != "big" && a[0].text[1:len(a[0].text)-1] != "little" {
				return nil, failAt(a[0].at, "the byte order %s is not \"big\" or \"little\"", quoteTok(a[0].text))
			}
			little = a[0].text[1:len(a[0].text)-1] == "little"
		case "signed":
			s, err := packValue(a, '?')
			if err != nil {
				return nil, err
			}
			signed = s != 0
		default:
			return nil, failAt(a[0].at, "%s is not an argument of to_bytes", quoteTok(name))
		}
	}
	if length < 1 || length > 8 || !signed && n < 0 {
		return nil, failAt(v[0].at, "%d in %d bytes (signed %v) is not read", n, length, signed)
	}
	code := map[int64]byte{1: 'B', 2: 'H', 4: 'I', 8: 'Q'}[length]
	if signed {
		code = map[int64]byte{1: 'b', 2: 'h', 4: 'i', 8: 'q'}[length]
	}
	if code == 0 {
		return nil, failAt(v[0].at, "%d bytes: only 1, 2, 4 and 8 are read", length)
	}
	b, err := packInt(n, code, int(length), v[0].at)
	if err == nil && little {
		slices.Reverse(b)
	}
	return b, err
}

// fromHexPiece reads hex given to a call that decodes it: bytes.fromhex("…"),
// bytearray.fromhex, binascii.unhexlify("…"), Buffer.from("…", "hex").
func fromHexPiece(toks []ltok, i int) (piece, int, bool) {
	j, rule := -1, ""
	switch {
	case (isText(toks, i, "bytes") || isText(toks, i, "bytearray")) && isText(toks, i+1, ".") && isText(toks, i+2, "fromhex"):
		j, rule = i+3, toks[i].text+".fromhex(…)"
	case isText(toks, i, "unhexlify") && !isText(toks, i-1, "."):
		j, rule = i+1, "unhexlify(…)"
	case isText(toks, i, "binascii") && isText(toks, i+1, ".") && (isText(toks, i+2, "unhexlify") || isText(toks, i+2, "a2b_hex")):
		j, rule = i+3, "binascii."+toks[i+2].text+"(…)"
	case isText(toks, i, "Buffer") && isText(toks, i+1, ".") && isText(toks, i+2, "from"):
		j, rule = i+3, "Buffer.from(…, 'hex')"
	default:
		return piece{}, i, false
	}
	if !isText(toks, j, "(") {
		return piece{}, i, false
	}
	args, end := callArgs(toks, j)
	if end < 0 || len(args) == 0 || hasEmpty(args) {
		return piece{}, i, false
	}
	if rule == "Buffer.from(…, 'hex')" && (len(args) != 2 || len(args[1]) != 1 || args[1][0].kind != 's' || args[1][0].text[1:len(args[1][0].text)-1] != "hex") {
		return piece{}, i, false
	}
	a := args[0]
	if len(a) == 2 && a[0].text == "b" {
		a = a[1:]
	}
	if len(a) != 1 || a[0].kind != 's' {
		return opaquePiece(toks, i, end, rule, failAt(a[0].at, "%s is not a literal string", quoteTok(a[0].text)))
	}
	ht, err := plainHex(strings.Repeat(" ", a[0].at+1) + a[0].text[1:len(a[0].text)-1])
	if err != nil {
		return opaquePiece(toks, i, end, rule, err)
	}
	return piece{b: ht.Bytes, rule: rule, strong: true, at: toks[i].at, end: toks[end].at + 1}, end + 1, true
}

// numberListPiece reads a list of numbers given to a constructor of bytes: bytes([…]),
// bytearray([…]), Buffer.from([…]), new Uint8Array([…]), Uint8Array.from([…]).
func numberListPiece(toks []ltok, i int) (piece, int, bool) {
	j, rule := -1, ""
	switch {
	case isText(toks, i, "bytes") || isText(toks, i, "bytearray") || isText(toks, i, "Uint8Array"):
		j, rule = i+1, toks[i].text+"([…])"
	case (isText(toks, i, "Buffer") || isText(toks, i, "Uint8Array")) && isText(toks, i+1, ".") && (isText(toks, i+2, "from") || isText(toks, i+2, "of")):
		j, rule = i+3, toks[i].text+"."+toks[i+2].text+"([…])"
	default:
		return piece{}, i, false
	}
	if !isText(toks, j, "(") {
		return piece{}, i, false
	}
	args, end := callArgs(toks, j)
	if end < 0 || len(args) == 0 || hasEmpty(args) {
		return piece{}, i, false
	}
	items := args
	if rule != "Uint8Array.of([…])" {
		if len(args) != 1 || len(args[0]) < 2 || !isText(args[0], 0, "[") || !isText(args[0], len(args[0])-1, "]") {
			return piece{}, i, false
		}
		items, _ = callArgs(append(append([]ltok{{kind: 'p', text: "("}}, args[0][1:len(args[0])-1]...), ltok{kind: 'p', text: ")"}), 0)
		if hasEmpty(items) {
			return piece{}, i, false
		}
	}
	b := make([]byte, 0, len(items))
	for _, it := range items {
		n := castNumber(it)
		if n == nil {
			return opaquePiece(toks, i, end, rule, failAt(it[0].at, "%s is a name, not a byte: its value is known only by running the code", quoteTok(it[0].text)))
		}
		v, why, ok := numValue(n.text, false)
		if !ok || why != "" {
			return opaquePiece(toks, i, end, rule, failAt(n.at, "%s is not a byte", quoteTok(n.text)))
		}
		b = append(b, byte(v))
	}
	return piece{b: b, rule: rule, strong: true, at: toks[i].at, end: toks[end].at + 1}, end + 1, true
}

// hexListPiece reads a list of two hex strings or more (["00 00 00 30", "00 01", …]), as
// scripts write a frame a field a line and join them with a function of their own: the
// strings' hex, one after the other. One string at least must show it is hex by its form
// (bytes apart, or a letter a-f), so that a list of numbers written as strings is not read. A
// name among such strings is a piece only running the code reads.
func hexListPiece(toks []ltok, i int) (piece, int, bool) {
	if !isText(toks, i, "[") && !isText(toks, i, "(") {
		return piece{}, i, false
	}
	items, end := callArgs(toks, i)
	if end < 0 || len(items) < 2 {
		return piece{}, i, false
	}
	var b []byte
	var name *ltok
	hexes, marked := 0, false
	for _, it := range items {
		switch {
		case len(it) == 1 && it[0].kind == 's' && it[0].text[0] != '`':
			body := it[0].text[1 : len(it[0].text)-1]
			ht, err := plainHex(body)
			if err != nil || len(ht.Bytes) == 0 || strings.Contains(body, `\`) {
				return piece{}, i, false
			}
			b = append(b, ht.Bytes...)
			hexes++
			marked = marked || len(strings.Fields(body)) > 1 || strings.ContainsAny(strings.ToLower(body), "abcdef")
		case len(it) == 1 && it[0].kind == 'i' && name == nil:
			name = &it[0]
		default:
			return piece{}, i, false
		}
	}
	if hexes < 2 || !marked {
		return piece{}, i, false
	}
	if name != nil {
		return opaquePiece(toks, i, end, "a list of hex strings", failAt(name.at, "%s is a name among hex strings: its value is known only by running the code", quoteTok(name.text)))
	}
	p := piece{b: b, rule: "hex strings", strong: true, at: toks[i].at, end: toks[end].at + 1}
	if isText(toks, i-1, "(") && i >= 2 && toks[i-2].kind == 'i' {
		p.fn = toks[i-2].text
	}
	return p, end + 1, true
}

// shellHexPiece reads a string of hex piped to xxd -r (echo '00 00 00 0c …' | xxd -r -p).
func shellHexPiece(toks []ltok, i int) (piece, int, bool) {
	t := toks[i]
	if t.kind != 's' || t.text[0] == '`' || !isText(toks, i+1, "|") || !isText(toks, i+2, "xxd") {
		return piece{}, i, false
	}
	j := i + 3
	reverse := false
	for ; j < len(toks) && j < i+9; j++ { // xxd's flags: -r -p, -c 256
		t := toks[j]
		if t.kind == 'x' || t.kind == 's' || t.kind == 'p' && t.text != "-" {
			break
		}
		reverse = reverse || t.text == "r" && isText(toks, j-1, "-")
	}
	ht, err := plainHex(t.text[1 : len(t.text)-1])
	if !reverse || err != nil || len(ht.Bytes) == 0 {
		return piece{}, i, false
	}
	return piece{b: ht.Bytes, rule: "xxd -r", strong: true, at: t.at, end: toks[j-1].at + len(toks[j-1].text)}, j, true
}

// namePiece is a name standing as an operand among pieces ('+', ',' or a bracket on each
// side: b"".join([head, msg])): its bytes are known only by running the script. It makes its
// run unreadable, and marks it as bytes only when the name is given to a byte expression.
func namePiece(toks []ltok, i int) (piece, int, bool) {
	t := toks[i]
	if t.kind != 'i' || i == 0 || i+1 >= len(toks) {
		return piece{}, i, false
	}
	before, after := toks[i-1], toks[i+1]
	if before.kind != 'p' || !strings.Contains("+,[(", before.text) || after.kind != 'p' || !strings.Contains("+,])", after.text) {
		return piece{}, i, false
	}
	return piece{name: t.text, opaque: failAt(t.at, "%s is a name, not bytes: its value is known only by running the code (only literals are read)", quoteTok(t.text)),
		at: t.at, end: t.at + len(t.text)}, i + 1, true
}
