package textbytes

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/kafkagrid/kafkagrid/internal/jsonw"
)

// Form is a way of writing bytes as text.
type Form string

// The forms Parse tells apart. "" (Auto) lets Parse choose by the content.
const (
	Auto   Form = ""
	Hex    Form = "hex"    // plain hex: "00 00 00 2a", "0000002a", "00:00:00:2a", "0x00 0x2a", a hex stream
	Dump   Form = "dump"   // an offset column: xxd, hexdump -C, od -Ax -tx1, Wireshark, tshark -x, Netty, Idx | Hex | ASCII tables
	List   Form = "list"   // a byte list: Go, Rust, C, Java (signed), JavaScript, Python, decimal or hex; Node Buffer JSON; Erlang/Elixir binaries; Python struct.pack
	String Form = "string" // a string literal: C and Wireshark "\x00…", Python b'…', a hex string ("0000002a", bytes.fromhex)
	Base64 Form = "base64" // base64 (standard or URL alphabet, padded or not)
)

// Forms lists the forms -from takes, in the order Parse tries them.
var Forms = []Form{String, Dump, List, Hex, Base64}

// ParseForm reads a form's name as -from takes it; a few tool names are accepted for it
// ("xxd", "hexdump", "od", "tshark", "wireshark", "netty" are dumps, "go", "rust", "c",
// "java", "js", "python", "buffer", "json" lists, "escaped" a string).
func ParseForm(s string) (Form, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "auto":
		return Auto, nil
	case "hex", "plain", "stream", "hexstream":
		return Hex, nil
	case "dump", "xxd", "hexdump", "od", "tshark", "wireshark", "netty", "table":
		return Dump, nil
	case "list", "go", "rust", "c", "java", "js", "javascript", "node", "buffer", "json", "python", "decimal", "erlang", "elixir", "struct":
		return List, nil
	case "string", "escaped", "c-string", "bytes":
		return String, nil
	case "base64", "b64":
		return Base64, nil
	}
	names := make([]string, len(Forms))
	for i, f := range Forms {
		names[i] = string(f)
	}
	return "", fmt.Errorf("textbytes: no form %q: want auto, %s", s, strings.Join(names, ", "))
}

// Text is what Parse read: the bytes, the form they were in (Detail names the tool or
// language where the text shows it: "xxd", "hexdump -C", "Go []byte", "Node Buffer JSON"), and
// notes on what was skipped or assumed.
type Text struct {
	Bytes  []byte
	Form   Form
	Detail string
	// Blocks are the input's separate dumps (an offset column that starts again at 0), in
	// order; nil for one block. Each is a slice of Bytes.
	Blocks [][]byte
	Notes  []string
}

// Error is the error of a text that is none of the forms: where the form that read
// furthest stopped, why, and the line there (cut at 80 characters).
type Error struct {
	Line, Col int    // 1-based; Col counts bytes
	Form      Form   // the form that read furthest
	Msg       string // what is wrong there
	Quote     string // the line, cut
	Tried     []Form // every form tried
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "textbytes: line %d, column %d: %s", e.Line, e.Col, e.Msg)
	if len(e.Tried) == 1 {
		fmt.Fprintf(&b, " (read as %s)", e.Tried[0])
	} else if len(e.Tried) > 1 {
		tried := make([]string, len(e.Tried))
		for i, f := range e.Tried {
			tried[i] = string(f)
		}
		fmt.Fprintf(&b, " (read as %s, the form that read furthest; tried %s)", e.Form, strings.Join(tried, ", "))
	}
	if e.Quote != "" {
		fmt.Fprintf(&b, "\n  %d | %s", e.Line, e.Quote)
	}
	return b.String()
}

// perr is a parser's failure at a byte offset of the text.
type perr struct {
	at  int
	msg string
}

func (e *perr) Error() string { return e.msg }

func failAt(at int, format string, a ...any) *perr {
	return &perr{at: at, msg: fmt.Sprintf(format, a...)}
}

// maxQuote is how much of a line an error quotes.
const maxQuote = 80

// quoteTok quotes a token of the input for an error, cut to 20 characters.
func quoteTok(s string) string {
	if len(s) > 20 {
		s = s[:20] + "…"
	}
	return strconv.Quote(s)
}

// Parse reads bytes written as text in any of the forms people paste (see Form), told
// apart by their content, or in the form given. Comments (#, //, /* */) and blank lines may
// stand anywhere; a line prefix shared by every line (a log's timestamp, "[tester::#GS0] ")
// is dropped; a leading paragraph of prose (a header such as "SOURCE: …") is skipped with a
// note. The cost is linear in the text, and what "*" lines of a dump expand to is bounded
// (MaxRepeat); the memory taken is at most about 4 times the text (the bytes read included)
// for a text that reads, 12 for one that reads as no form (TestParseMemory,
// TestParseFailMemory). The text is read in place, and nothing returned holds on to it. An
// error is a *Error naming the line and column.
func Parse(text []byte, from Form) (*Text, error) {
	if !LooksLikeText(text) {
		return nil, &Error{Line: 1, Col: 1, Msg: "binary data, not text", Form: from}
	}
	// The text is read in place: nothing read from it is kept but copies (the bytes, the
	// notes, the error's quote), and it is copied only when it has carriage returns.
	s := unsafe.String(unsafe.SliceData(text), len(text))
	if strings.IndexByte(s, '\r') >= 0 {
		s = strings.ReplaceAll(s, "\r\n", "\n")
		s = strings.ReplaceAll(s, "\r", "\n")
	}
	forms := Forms
	if from != Auto {
		forms = []Form{from}
	}
	t, best := parseForms(s, forms, from != Auto)
	if t != nil {
		if t.Form == List && from == Auto {
			// A list that is one piece of a larger expression of a script
			// (Buffer.concat([Buffer.from([…]), …])) is read with the expression.
			if st, pieces, _ := scriptBytes(s); st != nil && pieces > 1 && len(st.Bytes) > len(t.Bytes) {
				return st, nil
			}
		}
		return t, nil
	}
	if from == Auto || from == String {
		if t, err := parseScript(s); t != nil {
			return t, nil
		} else if err != nil {
			return nil, textError(s, &formErr{form: String, perr: err}, forms)
		}
	}
	// A paragraph of prose before the bytes (a header, a sentence): skip it, say so.
	for cut, n := 0, 0; n < 4; n++ {
		i := strings.Index(s[cut:], "\n\n")
		if i < 0 {
			break
		}
		end := cut + i + 1
		if !isProse(s[cut:end]) {
			break
		}
		cut = end
		blanked := blank(s[:cut]) + s[cut:]
		if t, _ := parseForms(blanked, forms, from != Auto); t != nil {
			first, last := 1, strings.Count(s[:cut], "\n")
			for first < last && strings.TrimSpace(lineAt(s, first)) == "" {
				first++
			}
			for last > first && strings.TrimSpace(lineAt(s, last)) == "" {
				last--
			}
			t.Notes = append([]string{fmt.Sprintf("%s are prose, not bytes: skipped", linesText(first, last))}, t.Notes...)
			return t, nil
		}
	}
	return nil, textError(s, best, forms)
}

// parseForms tries each form on s; it returns the first that reads it whole, or the failure
// that got furthest.
func parseForms(s string, forms []Form, forced bool) (*Text, *formErr) {
	var best *formErr
	for _, f := range forms {
		t, err := parseForm(s, f, forced)
		if err == nil {
			if len(t.Bytes) == 0 {
				err = failAt(len(s), "no bytes in the text")
			} else {
				t.Form = f
				return t, nil
			}
		}
		if err == errNotThisForm {
			continue
		}
		pe, _ := err.(*perr)
		if pe == nil {
			pe = failAt(0, "%v", err)
		}
		if best == nil || pe.at > best.at {
			best = &formErr{form: f, perr: pe}
		}
	}
	return nil, best
}

type formErr struct {
	form Form
	*perr
}

// errNotThisForm: the text shows none of the marks of the form (tried only when asked).
var errNotThisForm = &perr{msg: "not this form"}

func parseForm(s string, f Form, forced bool) (*Text, error) {
	switch f {
	case String:
		return parseStrings(s, forced)
	case Dump:
		return parseDump(s, forced)
	case List:
		return parseList(s, forced)
	case Hex:
		return parsePlain(s)
	case Base64:
		return parseBase64(s, forced)
	}
	return nil, errNotThisForm
}

func textError(s string, best *formErr, forms []Form) error {
	e := &Error{Tried: forms}
	if best == nil {
		best = &formErr{form: forms[0], perr: failAt(0, "no bytes in the text")}
	}
	e.Form, e.Msg = best.form, best.msg
	at := min(best.at, len(s))
	e.Line = strings.Count(s[:at], "\n") + 1
	start := strings.LastIndexByte(s[:at], '\n') + 1
	e.Col = at - start + 1
	line := s[start:]
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	line = strings.TrimRight(line, " \t")
	if len(line) > maxQuote {
		// Keep the column in view.
		from := 0
		if c := e.Col - 1; c > maxQuote-20 {
			from = min(c-20, len(line)-maxQuote)
		}
		cut := line[from : from+maxQuote]
		if from > 0 {
			cut = "…" + cut
		}
		if from+maxQuote < len(line) {
			cut += "…"
		}
		line = cut
	}
	e.Quote = strings.Clone(strings.ToValidUTF8(line, "?"))
	return e
}

// lineAt is line n (1-based) of s.
func lineAt(s string, n int) string {
	for ; n > 1; n-- {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			return ""
		}
		s = s[i+1:]
	}
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

func linesText(first, last int) string {
	if first == last {
		return fmt.Sprintf("line %d", first)
	}
	return fmt.Sprintf("lines %d–%d", first, last)
}

// blank replaces every byte of s but newlines by a space, keeping offsets.
func blank(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c != '\n' {
			b[i] = ' '
		}
	}
	return string(b)
}

// isProse reports whether a paragraph reads as words: a run of at least three letters that
// is no hex (a letter past f), in most of its non-blank lines.
func isProse(p string) bool {
	lines, wordy := 0, 0
	for _, l := range strings.Split(p, "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		lines++
		if hasWord(l) {
			wordy++
		}
	}
	return lines > 0 && wordy*2 > lines
}

func hasWord(l string) bool {
	run, nonHex := 0, false
	for i := 0; i <= len(l); i++ {
		c := byte(' ')
		if i < len(l) {
			c = l[i]
		}
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			run++
			if !isHex(c) {
				nonHex = true
			}
			continue
		}
		if run >= 3 && nonHex {
			return true
		}
		run, nonHex = 0, false
	}
	return false
}

// stripComments blanks #, // and /* */ comments outside quoted strings, keeping offsets: #
// starts a comment at the start of a line, after a blank, or after a comma when a blank
// follows it; // after a blank or ,;{([, /* too.
func stripComments(s string) string {
	st := commentStripper{s: s, lineStart: true, closeAt: -2}
	for i := 0; i < len(s); i++ {
		i = st.step(i)
	}
	if st.b == nil {
		return s
	}
	return unsafe.String(unsafe.SliceData(st.b), len(st.b)) // b is not written again
}

// commentStripper is stripComments' state as it reads s byte by byte.
type commentStripper struct {
	s         string
	b         []byte // a copy of s, made at the first comment; nil while there is none
	quote     byte   // the quote of the string being read, 0 outside one
	lineStart bool   // nothing but blanks before, on this line
	closeAt   int    // where the next "*/" is (-1: none after the last search), found once per comment
}

func (st *commentStripper) at(i int) byte {
	if st.b != nil {
		return st.b[i]
	}
	return st.s[i]
}

// blankTo blanks s[i:j] but its newlines.
func (st *commentStripper) blankTo(i, j int) {
	if st.b == nil {
		st.b = []byte(st.s)
	}
	for ; i < j; i++ {
		if st.b[i] != '\n' {
			st.b[i] = ' '
		}
	}
}

// step reads the byte at i; it returns the index of the last byte it took.
func (st *commentStripper) step(i int) int {
	s := st.s
	c := st.at(i)
	switch {
	case c == '\n':
		st.quote, st.lineStart = 0, true
		return i
	case st.quote != 0:
		if c == '\\' && i+1 < len(s) && s[i+1] != '\n' {
			return i + 1
		}
		if c == st.quote {
			st.quote = 0
		}
		return i
	}
	prevOK := st.lineStart || i > 0 && strings.IndexByte(" \t,;{([", st.at(i-1)) >= 0
	switch {
	case c == '"' || c == '\'':
		st.quote = c
	case st.lineComment(c, i, prevOK):
		end := strings.IndexByte(s[i:], '\n')
		if end < 0 {
			end = len(s)
		} else {
			end += i
		}
		st.blankTo(i, end)
		i = end - 1
	case c == '/' && i+1 < len(s) && s[i+1] == '*' && prevOK:
		end, ok := st.blockEnd(i)
		if !ok {
			return i // not a comment after all
		}
		st.blankTo(i, end+2)
		i = end + 1
	}
	if c != ' ' && c != '\t' {
		st.lineStart = false
	}
	return i
}

// lineComment reports whether a comment to the end of the line starts at i: # at the start
// of a line, after a blank, or after a comma when a blank follows it; // where prevOK says.
func (st *commentStripper) lineComment(c byte, i int, prevOK bool) bool {
	switch c {
	case '#':
		return st.lineStart || st.at(i-1) == ' ' || st.at(i-1) == '\t' || st.at(i-1) == ',' && hashComment(st.s, i)
	case '/':
		return i+1 < len(st.s) && st.s[i+1] == '/' && prevOK
	}
	return false
}

// blockEnd is where the "*/" that closes the comment opened at i stands; ok is false when
// none does.
func (st *commentStripper) blockEnd(i int) (end int, ok bool) {
	if st.closeAt != -1 && st.closeAt < i+2 {
		if st.closeAt = strings.Index(st.s[i+2:], "*/"); st.closeAt >= 0 {
			st.closeAt += i + 2
		}
	}
	return st.closeAt, st.closeAt >= 0
}

// hashComment reports whether the '#' at b[i], right after a comma, starts a comment ("…),#
// The client ID" in Python): a blank or a letter follows it, not hex ("0x00,#00" is no comment
// either way, but "#GS0" of a tester's log stays).
func hashComment(s string, i int) bool {
	return i+1 >= len(s) || s[i+1] == ' ' || s[i+1] == '\t' || s[i+1] == '\n'
}

// commonPrefix is the prefix every non-blank line shares once digits are masked (a log's
// timestamp, "[tester::#GS0] "), ending at a blank and holding something that is no byte; its
// length, or 0.
func commonPrefix(s string) int {
	var first string
	n := -1
	for rest, more := s, true; more; {
		var l string
		l, rest, more = strings.Cut(rest, "\n")
		if strings.TrimSpace(l) == "" {
			continue
		}
		if n < 0 {
			first, n = l, len(l)
			continue
		}
		i := 0
		for i < n && i < len(l) && (l[i] == first[i] || isDigit(l[i]) && isDigit(first[i])) {
			i++
		}
		n = i
	}
	if n <= 0 {
		return 0
	}
	p := first[:n]
	// End at a blank, and drop the tokens at its end that read as bytes or offsets.
	for {
		i := strings.LastIndexAny(p, " \t")
		if i < 0 {
			return 0
		}
		p = p[:i+1]
		toks := strings.Fields(p)
		if len(toks) == 0 {
			return 0
		}
		last := toks[len(toks)-1]
		if !byteLike(last) {
			return len(p)
		}
		p = strings.TrimRight(p, " \t")
		p = p[:len(p)-len(last)]
	}
}

// byteLike reports whether a token could be bytes or an offset ("00", "0x2a,", "0010",
// "00:2a", "|").
func byteLike(t string) bool {
	t = strings.Trim(t, "|:,")
	if t == "" {
		return true
	}
	t = strings.TrimPrefix(strings.TrimPrefix(t, "0x"), "0X")
	for more := true; more; {
		var p string
		p, t, more = strings.Cut(t, ":")
		if p == "" || len(p)%2 != 0 && len(p) != 1 {
			return false
		}
		for i := 0; i < len(p); i++ {
			if !isHex(p[i]) {
				return false
			}
		}
	}
	return true
}

// dropPrefix blanks the first n bytes of every non-blank line.
func dropPrefix(s string, n int) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) != "" && len(l) >= n {
			lines[i] = strings.Repeat(" ", n) + l[n:]
		}
	}
	return strings.Join(lines, "\n")
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// ---- plain hex ----

// parsePlain reads hex bytes separated by blanks, commas, colons or semicolons, each token
// an even number of digits (a hex stream is one long token), with an optional 0x (then one
// digit is a byte too).
func parsePlain(s string) (*Text, error) {
	s = stripComments(s)
	if t := strings.TrimSpace(s); strings.HasPrefix(t, "<Buffer ") && strings.HasSuffix(t, ">") {
		// Node's util.inspect of a Buffer: "<Buffer 00 00 00 23 …>".
		i := strings.Index(s, "<Buffer ")
		if strings.HasSuffix(t, " more bytes>") {
			return nil, failAt(strings.LastIndex(s, "..."), "Node cut the Buffer short (\"… more bytes\"): print it whole, with JSON.stringify(buf) or buf.toString('hex')")
		}
		j := strings.LastIndexByte(s, '>')
		s = s[:i] + blank(s[i:i+len("<Buffer ")]) + s[i+len("<Buffer "):j] + " " + s[j+1:]
		t, err := plainHex(s)
		if err == nil {
			t.Detail = "Node Buffer (util.inspect)"
		}
		return t, err
	}
	t, err := plainHex(s)
	if err == nil {
		return t, nil
	}
	if n := commonPrefix(s); n > 0 {
		if t, err2 := plainHex(dropPrefix(s, n)); err2 == nil {
			t.Notes = append(t.Notes, fmt.Sprintf("a prefix of %d characters on every line (%s) is not bytes: dropped", n, quoteTok(strings.TrimSpace(firstLine(s)[:n]))))
			return t, nil
		}
	}
	if a, notes, ok := annotated(s); ok {
		t, err2 := plainHex(a)
		if err2 == nil {
			t.Notes = append(t.Notes, notes...)
			return t, nil
		}
		// Past the lines of words, the first line that is neither: say where it is wrong.
		if p2, ok := err2.(*perr); ok {
			if p1, ok := err.(*perr); ok && p2.at > p1.at {
				return nil, p2
			}
		}
	}
	return nil, err
}

// annotated blanks what an annotated listing holds besides its bytes: lines of words with no
// byte on them (headings such as "*** Request header", "Message => Crc MagicByte …", "[ the
// first element of the array"), and a label before a line's bytes ("Hex Stream: 0000…",
// "sent: 00 01"). ok is false when there is nothing to blank or no line of bytes is left; the
// notes say which lines were skipped or cut.
func annotated(s string) (out string, notes []string, ok bool) {
	var b []byte // s with words and labels blanked, copied at the first
	blankIn := func(from, to int) {
		if b == nil {
			b = []byte(s)
		}
		for k := from; k < to; k++ {
			if b[k] != '\n' {
				b[k] = ' '
			}
		}
	}
	var words, labels []int
	var toks []string // the line's, reused
	byteLines := 0
	li := 0
	for pos := 0; pos <= len(s); li++ {
		end := strings.IndexByte(s[pos:], '\n')
		if end < 0 {
			end = len(s)
		} else {
			end += pos
		}
		l, lineAt := s[pos:end], pos
		pos = end + 1
		toks = toks[:0]
		for tok := range strings.FieldsSeq(l) {
			toks = append(toks, tok)
		}
		if len(toks) == 0 {
			continue
		}
		first := -1
		for k, tok := range toks {
			if byteToken(tok) {
				first = k
				break
			}
		}
		switch {
		case first < 0:
			if !hasWord(l) {
				byteLines++ // neither bytes nor words: plain hex says what is wrong there
				continue
			}
			words = append(words, li+1)
			blankIn(lineAt, end)
		case first > 0:
			// A label: words ending with ':' before the bytes, every token after it a byte.
			cut := strings.Index(l, toks[first-1]) + len(toks[first-1])
			if !strings.HasSuffix(toks[first-1], ":") || !hasWord(l[:cut]) {
				byteLines++
				continue
			}
			for _, tok := range toks[first:] {
				if !byteToken(tok) {
					return "", nil, false
				}
			}
			blankIn(lineAt, lineAt+cut)
			labels = append(labels, li+1)
			byteLines++
		default:
			byteLines++
		}
	}
	if byteLines == 0 || len(words)+len(labels) == 0 {
		return "", nil, false
	}
	if len(words) > 0 {
		notes = append(notes, fmt.Sprintf("%s hold words, not bytes: skipped", linesList(words)))
	}
	if len(labels) > 0 {
		notes = append(notes, fmt.Sprintf("the label before the bytes of %s is not bytes: dropped", linesList(labels)))
	}
	return unsafe.String(unsafe.SliceData(b), len(b)), notes, true
}

// byteToken reports whether a token is bytes as plain hex writes them: pairs of hex digits,
// alone or run together ("00", "0000004d"), joined by colons ("00:00:00:7a:"), or "0x2a".
func byteToken(t string) bool {
	t = strings.Trim(t, ",;")
	if len(t) > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X') {
		t = t[2:]
		if len(t) == 1 {
			return isHex(t[0])
		}
	}
	t = strings.TrimSuffix(t, ":")
	if t == "" {
		return false
	}
	for more := true; more; {
		var p string
		p, t, more = strings.Cut(t, ":")
		if len(p) < 2 || len(p)%2 != 0 {
			return false
		}
		for i := 0; i < len(p); i++ {
			if !isHex(p[i]) {
				return false
			}
		}
	}
	return true
}

// linesList names line numbers: "line 3", "lines 1, 3, 5–7", the first ten and a count.
func linesList(ns []int) string {
	var parts []string
	for i := 0; i < len(ns); {
		j := i
		for j+1 < len(ns) && ns[j+1] == ns[j]+1 {
			j++
		}
		if len(parts) == 10 {
			parts = append(parts, fmt.Sprintf("and %d more", len(ns)-i))
			break
		}
		if i == j {
			parts = append(parts, strconv.Itoa(ns[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d–%d", ns[i], ns[j]))
		}
		i = j + 1
	}
	if len(ns) == 1 {
		return "line " + parts[0]
	}
	return "lines " + strings.Join(parts, ", ")
}

func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			return l
		}
	}
	return ""
}

func plainHex(s string) (*Text, error) {
	out := make([]byte, 0, len(s)/2)
	stream := false
	for i := 0; i < len(s); {
		c := s[i]
		if c == ' ' || c == '\t' || c == '\n' || c == ',' || c == ':' || c == ';' || c == '-' && i > 0 && isHex(s[i-1]) && i+1 < len(s) && isHex(s[i+1]) {
			i++
			continue
		}
		start := i
		for i < len(s) && !strings.ContainsRune(" \t\n,:;", rune(s[i])) {
			i++
		}
		tok := s[start:i]
		digits, pre := tok, 0
		if len(tok) > 2 && tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X') {
			digits, pre = tok[2:], 2
		}
		if j := strings.IndexFunc(digits, func(r rune) bool { return r >= 0x80 || !isHex(byte(r)) }); j >= 0 {
			return nil, failAt(start+pre+j, "%q is not a hex digit, in %s", digits[j:j+1], quoteTok(tok))
		}
		if pre == 2 && len(digits) == 1 {
			digits = "0" + digits
		}
		if len(digits)%2 != 0 {
			return nil, failAt(start, "%s has %d hex digits: a byte is two", quoteTok(tok), len(digits))
		}
		if len(digits) > 8 {
			stream = true
		}
		for j := 0; j < len(digits); j += 2 {
			out = append(out, unhex(digits[j])<<4|unhex(digits[j+1]))
		}
	}
	t := &Text{Bytes: out, Detail: "plain hex"}
	if stream {
		t.Detail = "hex stream"
	}
	return t, nil
}

func unhex(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// ---- base64 ----

// parseBase64 reads base64 in any of its four alphabets; unasked, only when the text is one
// run of the alphabet (blanks and line breaks aside) that is not hex and decodes exactly.
func parseBase64(s string, forced bool) (*Text, error) {
	s = stripComments(s)
	var odd bool // a character outside hex: "AAAA" is hex too, but "AAAAIwAS" is not
	chars := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
		case c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || isDigit(c) || c == '+' || c == '/' || c == '-' || c == '_' || c == '=':
			if !isHex(c) {
				odd = true
			}
			chars++
		default:
			return nil, failAt(i, "%q is not a base64 character", s[i:i+1])
		}
	}
	if !forced && (!odd || chars < 8 || !base64Lines(s)) {
		return nil, errNotThisForm
	}
	// The characters, blanks dropped, copied once it is base64 that is read.
	b := make([]byte, 0, chars)
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != ' ' && c != '\t' && c != '\n' {
			b = append(b, c)
		}
	}
	enc := unsafe.String(unsafe.SliceData(b), len(b))
	for _, e := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		if out, err := e.Strict().DecodeString(enc); err == nil {
			return &Text{Bytes: out, Detail: "base64"}, nil
		}
	}
	_, err := base64.StdEncoding.DecodeString(enc)
	return nil, failAt(len(s), "not base64: %v", err)
}

// base64Lines reports whether s is laid out as base64 tools write it: one run of characters
// a line, every line but the last of one length, a multiple of 4.
func base64Lines(s string) bool {
	first, prev, n := -1, -1, 0 // the first line's length, the one before this, lines seen
	for rest, more := s, true; more; {
		var l string
		l, rest, more = strings.Cut(rest, "\n")
		if l = strings.TrimSpace(l); l == "" {
			continue
		}
		if strings.ContainsAny(l, " \t") {
			return false
		}
		if first < 0 {
			first = len(l)
		}
		// Every line but the last of the first's length, a multiple of 4; none longer.
		if prev >= 0 && (prev != first || prev%4 != 0) || len(l) > first {
			return false
		}
		prev = len(l)
		n++
	}
	return n > 0
}

// ---- Node Buffer JSON and byte lists ----

type ltok struct {
	kind byte // 'n' number, 'i' identifier, 's' string, 'p' punctuation
	text string
	at   int
}

// lexCode cuts code into numbers, identifiers, strings and punctuation.
func lexCode(s string) ([]ltok, *perr) {
	var toks []ltok
	lx := lexer{s: s}
	for {
		t, ok, err := lx.next()
		if err != nil {
			return toks, err
		}
		if !ok {
			return toks, nil
		}
		toks = append(toks, t)
	}
}

// lexer cuts code into tokens one at a time, so that a reader that stops early (a form that
// is not this one) costs nothing past where it stopped.
type lexer struct {
	s    string
	i    int
	prev byte // the kind of the token before, 0 at the start
}

// next returns the next token; ok is false at the end.
func (lx *lexer) next() (t ltok, ok bool, err *perr) {
	s := lx.s
	i := lx.i
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
		i++
	}
	if i >= len(s) {
		lx.i = i
		return ltok{}, false, nil
	}
	c := s[i]
	switch {
	case lx.numberAt(i):
		t = ltok{'n', s[i:numberEnd(s, i+1)], i}
	case isIdentStart(c):
		t = ltok{'i', s[i:identEnd(s, i+1)], i}
	case c == '"' || c == '\'' || c == '`':
		j, closed := quoteEnd(s, i)
		if !closed {
			lx.i = len(s)
			return ltok{}, false, failAt(i, "a string that does not end on its line")
		}
		t = ltok{'s', s[i : j+1], i}
	default:
		t = ltok{'p', s[i : i+1], i}
	}
	lx.i = t.at + len(t.text)
	lx.prev = t.kind
	return t, true, nil
}

// numberAt reports whether a number starts at s[i]: a digit, or a sign before one where a
// value may stand (at the start, or after punctuation).
func (lx *lexer) numberAt(i int) bool {
	s, c := lx.s, lx.s[i]
	return isDigit(c) || (c == '-' || c == '+') && i+1 < len(s) && isDigit(s[i+1]) && (lx.prev == 0 || lx.prev == 'p')
}

// numberEnd is where the number whose rest starts at s[j] ends: hex digits, 0x, _ and the
// letters of type suffixes (u8, i8, L, uy).
func numberEnd(s string, j int) int {
	for j < len(s) && (isHex(s[j]) || strings.IndexByte("xX_ouiULly8", s[j]) >= 0) {
		j++
	}
	return j
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// identEnd is where the identifier whose rest starts at s[j] ends.
func identEnd(s string, j int) int {
	for j < len(s) && (isDigit(s[j]) || isIdentStart(s[j])) {
		j++
	}
	return j
}

// quoteEnd is the index of the quote that closes the string opened at s[i] on its line (a
// backslash escapes the byte after it); closed is false when none does.
func quoteEnd(s string, i int) (j int, closed bool) {
	c := s[i]
	j = i + 1
	for j < len(s) && s[j] != c && s[j] != '\n' {
		if s[j] == '\\' {
			j++
		}
		j++
	}
	return j, j < len(s) && s[j] == c
}

// numValue reads one number of a byte list: decimal, 0x hex, 0o or 0 octal (C), 0b binary,
// with a type suffix (u8, i8, _u8, L, uy), signed bytes -128 to -1 as Java writes them;
// bare says the list is hex written without 0x. ok is false when it is no number at all.
func numValue(t string, bare bool) (v int, why string, ok bool) {
	neg := false
	switch {
	case strings.HasPrefix(t, "-"):
		neg, t = true, t[1:]
	case strings.HasPrefix(t, "+"):
		t = t[1:]
	}
	for _, suf := range []string{"_u8", "_i8", "u8", "i8", "uy", "y", "UL", "ul", "L", "l", "U", "u"} {
		if strings.HasSuffix(t, suf) && len(t) > len(suf) {
			t = t[:len(t)-len(suf)]
			break
		}
	}
	t = strings.ReplaceAll(t, "_", "")
	base := 10
	switch {
	case len(t) > 2 && (t[:2] == "0x" || t[:2] == "0X"):
		base, t = 16, t[2:]
	case len(t) > 2 && (t[:2] == "0b" || t[:2] == "0B"):
		base, t = 2, t[2:]
	case len(t) > 2 && (t[:2] == "0o" || t[:2] == "0O"):
		base, t = 8, t[2:]
	case bare:
		base = 16
	}
	u, err := strconv.ParseUint(t, base, 32)
	if err != nil {
		return 0, "", false
	}
	n := int(u)
	if neg {
		n = -n
	}
	if n < -128 || n > 255 {
		return 0, fmt.Sprintf("%d is not a byte (0 to 255, or -128 to -1 as a signed byte)", n), true
	}
	return n & 0xff, "", true
}

// group is a pair of brackets of a byte list's text, numbered in the order they open (the
// top level is group 0).
type group struct {
	open   int32 // offset of the opening bracket (-1 for the top level)
	parent int32 // index of the enclosing group, -1 at the top
	depth  int32
	call   bool // the arguments of a call of a name that builds no bytes (writeInt32BE(12, 0))
}

// listItem is what the reading of a list keeps of one item (the tokens between two commas):
// its first tokens (castNumber looks at three at most), how many, and where it ends.
type listItem struct {
	toks [4]ltok
	n    int
	end  int
}

// view is the item as castNumber and hexPair take it: its tokens, or four of them standing
// for more (which is no number).
func (it *listItem) view() []ltok { return it.toks[:min(it.n, 4)] }

func (it *listItem) add(t ltok) {
	if it.n < len(it.toks) {
		it.toks[it.n] = t
	}
	it.n++
	it.end = t.at + len(t.text)
}

// listFail is the first item of a group that is no number.
type listFail struct {
	idx      int    // its index among the group's items
	kind     byte   // 'c': no number (a cast or a word); 'n': a number that does not read; 'w': not a byte
	empty    bool   // an empty item (", ,")
	name     bool   // an item that is one name (a variable)
	at, end  int    // where it is
	why, tok string // for 'w' the reason, for 'n' the token
}

// groupSum is what the reading of a list keeps of one group of two items or more: the values
// of its items read as decimal and, while every item is two hex digits, as hex, and its first
// item that is no number.
type groupSum struct {
	gi             int
	items, nums    int // items (a trailing empty one aside) and those that are numbers
	allPairs, hexy bool
	dec, hex       []byte
	fail           *listFail
	heldEmpty      bool // an empty item not yet known to be the trailing one
	totalItems     int  // items counted as the original split counts them (a trailing empty one too)
}

// parseList reads a byte list: the numbers of the largest bracketed list whose every item is
// one number (with a cast such as (byte)), and the lists beside it in the same brackets and
// paragraph (Go's [][]byte{{…}, {…}}); Node's {"type":"Buffer","data":[…]} by its type.
func parseList(s string, forced bool) (*Text, error) {
	if t, ok := parseBuffer(s); ok {
		return t, nil
	}
	s = stripComments(s)
	if t, err, ok := parseGoPrint(s); ok {
		return t, err
	}
	if t, err, ok := parseStructPack(s); ok {
		return t, err
	}
	if t, err, ok := parseBits(s); ok {
		if err == nil {
			return t, nil
		}
		// Shifts in code that is a list after all (x << 2 >> 1)?
		if lt, lerr := parseNumberList(s, forced); lerr == nil {
			return lt, nil
		}
		return nil, err
	}
	return parseNumberList(s, forced)
}

// maxDepth bounds how deep the brackets of a byte list may nest (Go's [][]byte{{…}} is two).
const maxDepth = 64

// parseNumberList is parseList's reading of the brackets of s (comments blanked). It reads
// the tokens as they are cut and keeps of each group its values (a byte or two an item) and
// its first failure, not its tokens, so that its memory is a small multiple of the bytes read.
func parseNumberList(s string, forced bool) (*Text, error) {
	lr := listReader{lx: lexer{s: s}, groups: []group{{open: -1, parent: -1}}}
	lr.stack = []openGroup{{gi: 0, sum: groupSum{gi: 0, allPairs: true}}}
	if err := lr.read(); err != nil {
		return nil, err
	}
	bgs, firstBad, err := byteGroups(s, lr.groups, lr.sums)
	if err != nil {
		return nil, err
	}
	var best *bgroup
	for i := range bgs {
		if best == nil || bgs[i].count > best.count {
			best = &bgs[i]
		}
	}
	if best == nil {
		if firstBad != nil {
			return nil, firstBad
		}
		if forced {
			return nil, failAt(0, "no list of numbers separated by commas")
		}
		return nil, errNotThisForm
	}
	out, bare, lists := besideLists(s, lr.groups, bgs, best)
	t := &Text{Bytes: out, Detail: listDetail(s, bare, lr.signed)}
	if lists > 1 {
		t.Notes = append(t.Notes, fmt.Sprintf("%d byte lists side by side, read one after the other", lists))
	}
	return t, nil
}

// openGroup is a group of a list whose closing bracket is not read yet.
type openGroup struct {
	gi   int
	sum  groupSum
	item listItem // the item being read
}

// listReader is parseNumberList's reading of the brackets: the groups, those open, and the
// summaries of those closed.
type listReader struct {
	lx     lexer
	groups []group
	stack  []openGroup
	sums   []groupSum // the groups of two items or more, as they close
	signed bool
	prev   ltok // the token before
}

// callOf reports whether the bracket open, right after the token prev, opens the arguments
// of a call of a name that builds no bytes (buf.writeInt32BE(12, 0), connect(9092, host)):
// those are no byte list. A name that says it builds bytes or a list (bytes, bytearray,
// byteArrayOf, Uint8Array.of, Buffer.from, vec, list, tuple, Data, binary) keeps its list.
func callOf(prev, open ltok) bool {
	if prev.kind != 'i' || prev.at+len(prev.text) != open.at {
		return false
	}
	name := strings.ToLower(prev.text)
	for _, w := range []string{"byte", "array", "of", "from", "list", "vec", "buffer", "data", "binary", "bin", "tuple", "u8", "char"} {
		if strings.Contains(name, w) {
			return false
		}
	}
	return true
}

// drain is err unless the text does not lex further on (a text that does not lex is
// refused as a whole, as it was when it was cut whole before reading).
func (lr *listReader) drain(err *perr) *perr {
	for {
		_, ok, lerr := lr.lx.next()
		if lerr != nil {
			return lerr
		}
		if !ok {
			return err
		}
	}
}

// read takes every token; the summaries come out sorted in the order the groups open.
func (lr *listReader) read() *perr {
	for {
		t, ok, lerr := lr.lx.next()
		if lerr != nil {
			return lerr
		}
		if !ok {
			break
		}
		if t.kind == 'n' && strings.HasPrefix(t.text, "-") {
			lr.signed = true
		}
		if err := lr.token(t); err != nil {
			return err
		}
		lr.prev = t
	}
	lr.endItem(&lr.stack[0])
	if len(lr.stack) > 1 {
		return failAt(int(lr.groups[lr.stack[len(lr.stack)-1].gi].open), "a bracket that is not closed")
	}
	if lr.stack[0].sum.totalItems > 1 || lr.stack[0].sum.items >= 2 {
		lr.sums = append(lr.sums, lr.stack[0].sum)
	}
	slices.SortFunc(lr.sums, func(a, b groupSum) int { return a.gi - b.gi })
	return nil
}

func (lr *listReader) token(t ltok) *perr {
	top := &lr.stack[len(lr.stack)-1]
	if t.kind == 'p' {
		switch t.text {
		case "[", "{", "(":
			if len(lr.stack) > maxDepth {
				return lr.drain(failAt(t.at, "brackets nested more than %d deep", maxDepth))
			}
			gi := len(lr.groups)
			top.item.add(ltok{'g', t.text, t.at})
			lr.groups = append(lr.groups, group{open: int32(t.at), parent: int32(top.gi), depth: int32(len(lr.stack)), call: t.text == "(" && callOf(lr.prev, t)})
			lr.stack = append(lr.stack, openGroup{gi: gi, sum: groupSum{gi: gi, allPairs: true}})
			return nil
		case "]", "}", ")":
			if len(lr.stack) == 1 {
				return lr.drain(failAt(t.at, "%q closes no bracket", t.text))
			}
			lr.endItem(top)
			if top.sum.totalItems > 1 {
				lr.sums = append(lr.sums, top.sum)
			}
			lr.stack = lr.stack[:len(lr.stack)-1]
			return nil
		case ",":
			lr.endItem(top)
			return nil
		}
	}
	top.item.add(t)
	return nil
}

// endItem ends the item being read in group o.
func (lr *listReader) endItem(o *openGroup) {
	g := &o.sum
	it := &o.item
	g.totalItems++
	if g.heldEmpty {
		listTake(g, nil)
		g.heldEmpty = false
	}
	if it.n == 0 {
		g.heldEmpty = true
	} else {
		listTake(g, it)
	}
	*it = listItem{}
}

// bgroup is a group whose every item is a number (the last may be empty: a trailing comma).
type bgroup struct {
	g     int
	vals  []byte
	bare  bool
	count int
}

// byteGroups are the groups of bytes, in the order they open; firstBad is the first item that
// is no byte of a group that is mostly numbers; err a number that is not a byte, in a group
// of numbers.
func byteGroups(s string, groups []group, sums []groupSum) (bgs []bgroup, firstBad, err *perr) {
	numbers := 0
	for i := range sums {
		g := &sums[i]
		if g.items == 0 || g.totalItems <= 1 && g.gi != 0 || g.gi == 0 && g.items < 2 || groups[g.gi].call {
			continue
		}
		switch {
		case g.allPairs && g.hexy:
			// Bare hex ("00, 2a") is read as hex when an item has a hex letter or a leading 0.
			numbers += len(g.hex)
			bgs = append(bgs, bgroup{g: g.gi, vals: g.hex, bare: true, count: len(g.hex)})
		case g.fail != nil:
			numbers += g.fail.idx
			bad, err := groupFailure(s, g, numbers)
			if err != nil {
				return nil, nil, err
			}
			if firstBad == nil {
				firstBad = bad
			}
		default:
			numbers += len(g.dec)
			bgs = append(bgs, bgroup{g: g.gi, vals: g.dec, count: len(g.dec)})
		}
	}
	return bgs, firstBad, nil
}

// groupFailure says what is wrong with a group's first item that is no number: bad, to
// report when no list reads; err, a number that is not a byte in a list of numbers.
func groupFailure(s string, g *groupSum, numbers int) (bad, err *perr) {
	f := g.fail
	switch f.kind {
	case 'c':
		switch {
		case f.empty || numbers == 0 || g.nums <= g.items/2:
		case f.name:
			return failAt(f.at, "%s is a name, not a byte: its value is known only by running the code; give the bytes it holds", quoteTok(s[f.at:f.end])), nil
		default:
			return failAt(f.at, "%s is not a byte in the list", quoteTok(s[f.at:f.end])), nil
		}
	case 'n':
		return failAt(f.at, "%s is not a number", quoteTok(f.tok)), nil
	case 'w':
		if g.nums >= g.items {
			return nil, failAt(f.at, "%s", f.why)
		}
		// Not every item a number: the arguments of a call in a script
		// (connect(9092, "host")), no byte list.
	}
	return nil, nil
}

// besideLists joins the byte groups beside the largest, best: same brackets, same paragraph.
func besideLists(s string, groups []group, bgs []bgroup, best *bgroup) (out []byte, bare bool, lists int) {
	bg := groups[best.g]
	var paras []int // where each blank line is
	for i := 0; ; {
		j := strings.Index(s[i:], "\n\n")
		if j < 0 {
			break
		}
		paras = append(paras, i+j)
		i += j + 1
	}
	for _, b := range bgs {
		g := groups[b.g]
		if g.parent != bg.parent || g.depth != bg.depth || paragraph(paras, int(g.open)) != paragraph(paras, int(bg.open)) {
			continue
		}
		if out == nil && lists == 0 {
			out = b.vals // the first list's values are not written again
		} else {
			out = append(out, b.vals...)
		}
		bare = bare || b.bare
		lists++
	}
	return out, bare, lists
}

// listTake adds one item of a group to its summary (nil: an empty item that is not the last).
func listTake(g *groupSum, it *listItem) {
	var view []ltok
	if it != nil {
		view = it.view()
		g.items++
	} else {
		g.items++
	}
	idx := g.items - 1
	// As hex, while every item is two hex digits.
	if g.allPairs {
		if p := hexPair(view); p != nil {
			n := p.text
			if n[0] == '0' || !isDigit(n[0]) || !isDigit(n[1]) {
				g.hexy = true
			}
			v, _, _ := numValue(n, true)
			g.hex = append(g.hex, byte(v))
		} else {
			g.allPairs, g.hex = false, nil
		}
	}
	// As decimal (or 0x…), up to the first item that is no number.
	n := castNumber(view)
	if n != nil {
		g.nums++
	}
	if g.fail != nil {
		return
	}
	if n == nil {
		f := &listFail{idx: idx, kind: 'c', empty: it == nil}
		if it != nil {
			f.at, f.end = it.toks[0].at, it.end
			f.name = it.n == 1 && it.toks[0].kind == 'i'
		}
		g.fail = f
		return
	}
	v, why, isNum := numValue(n.text, false)
	switch {
	case !isNum:
		g.fail = &listFail{idx: idx, kind: 'n', at: n.at, tok: n.text}
	case why != "":
		g.fail = &listFail{idx: idx, kind: 'w', at: n.at, why: why}
	default:
		g.dec = append(g.dec, byte(v))
	}
}

// paragraph is the number of blank lines before offset at.
func paragraph(paras []int, at int) int {
	n, _ := slices.BinarySearch(paras, at)
	return n
}

// parseGoPrint reads Go's fmt.Println of a []byte: "[0 0 0 35 0 18]", decimal bytes between
// blanks in one pair of brackets. ok is false when the text is not so.
func parseGoPrint(s string) (t *Text, err error, ok bool) {
	i, j := strings.IndexByte(s, '['), strings.LastIndexByte(s, ']')
	if i < 0 || j < i || strings.TrimSpace(s[:i]) != "" || strings.TrimSpace(s[j+1:]) != "" || strings.ContainsAny(s[i+1:j], ",[]") {
		return nil, nil, false
	}
	out := make([]byte, 0, (j-i)/2)
	for k := i + 1; k < j; {
		for k < j && (s[k] == ' ' || s[k] == '\t' || s[k] == '\n') {
			k++
		}
		start := k
		for k < j && s[k] != ' ' && s[k] != '\t' && s[k] != '\n' {
			k++
		}
		if start == k {
			break
		}
		n, perr := strconv.ParseUint(s[start:k], 10, 16)
		switch {
		case perr != nil:
			return nil, nil, false // not decimal: another form (hex in brackets reads as no list)
		case n > 255:
			return nil, failAt(start, "%d is not a byte (0 to 255)", n), true
		}
		out = append(out, byte(n))
	}
	if len(out) < 2 {
		return nil, nil, false
	}
	return &Text{Bytes: out, Detail: "Go fmt.Println of a []byte"}, nil, true
}

// hexPair returns an item that is two hex digits ("00", "6e", "c7"), or nil.
func hexPair(it []ltok) *ltok {
	if len(it) == 1 && (it[0].kind == 'n' || it[0].kind == 'i') && len(it[0].text) == 2 && isHex(it[0].text[0]) && isHex(it[0].text[1]) {
		return &it[0]
	}
	return nil
}

// castNumber returns the number of a list item: "0x2a", "(byte)0x80", "(byte) -1", "byte(7)",
// "0x2a as u8"; nil when the item is anything else.
func castNumber(it []ltok) *ltok {
	if len(it) == 2 && it[0].kind == 'i' && it[0].text == "b" && it[0].at+1 == it[1].at {
		it = it[1:] // Rust's b'a'
	}
	switch {
	case len(it) == 1 && it[0].kind == 's' && it[0].text[0] == '\'':
		// A character literal: 't', '\x00', '\n' (sarama writes topic names so).
		in := it[0].text[1 : len(it[0].text)-1]
		if b, err := unescape(in, it[0].at+1); err == nil && len(b) == 1 {
			return &ltok{kind: 'n', text: strconv.Itoa(int(b[0])), at: it[0].at}
		}
		if r, n := utf8.DecodeRuneInString(in); n == len(in) && r != utf8.RuneError && r < 256 {
			return &ltok{kind: 'n', text: strconv.Itoa(int(r)), at: it[0].at} // Go's 'ÿ' is 255
		}
		return nil
	case len(it) == 1 && it[0].kind == 'n':
		return &it[0]
	case len(it) == 2 && it[0].kind == 'g' && it[1].kind == 'n':
		return &it[1] // "(byte)" was a group of one identifier
	case len(it) == 3 && it[0].kind == 'n' && it[1].text == "as" && it[2].kind == 'i':
		return &it[0]
	}
	return nil
}

// listDetail names the language of a byte list by its marks.
func listDetail(s string, bare, signed bool) string {
	lang := "byte list"
	switch {
	case strings.Contains(s, `"Buffer"`) && strings.Contains(s, `"data"`):
		lang = "Node Buffer JSON"
	case strings.Contains(s, "[]byte"):
		lang = "Go []byte"
	case strings.Contains(s, "vec!") || strings.Contains(s, "u8") || strings.Contains(s, "&["):
		lang = "Rust byte list"
	case strings.Contains(s, "new byte[]") || strings.Contains(s, "byte[]") || strings.Contains(s, "(byte)"):
		lang = "Java byte[]"
	case strings.Contains(s, "Buffer.from") || strings.Contains(s, "Uint8Array") || strings.Contains(s, "new Buffer"):
		lang = "JavaScript bytes"
	case strings.Contains(s, "bytearray(") || strings.Contains(s, "bytes("):
		lang = "Python bytes"
	case strings.Contains(s, "char ") || strings.Contains(s, "uint8_t") || strings.Contains(s, "[] = {"):
		lang = "C array"
	}
	switch {
	case signed:
		lang += ", signed bytes"
	case bare:
		lang += ", hex without 0x"
	}
	return lang
}

// parseBuffer reads Node's JSON of a Buffer: {"type":"Buffer","data":[0,0,0,35,…]}.
func parseBuffer(s string) (*Text, bool) {
	t := strings.TrimSpace(stripComments(s))
	if !strings.HasPrefix(t, "{") || !strings.Contains(t, `"Buffer"`) {
		return nil, false
	}
	// As json.Decoder.Decode reads it into struct{Type string; Data []int}, without its
	// reflection (internal/jsonw), which would link every type's fields into the browser
	// decoder.
	var v struct {
		Type string
		Data []int
	}
	dec := json.NewDecoder(strings.NewReader(t))
	dec.UseNumber()
	err := jsonw.ReadObject(dec, []jsonw.Field{{Name: "type", String: &v.Type}, {Name: "data", Ints: &v.Data}})
	if err != nil || v.Type != "Buffer" || dec.More() {
		return nil, false
	}
	out := make([]byte, len(v.Data))
	for i, n := range v.Data {
		if n < 0 || n > 255 {
			return nil, false // the list reader says where
		}
		out[i] = byte(n)
	}
	return &Text{Bytes: out, Detail: "Node Buffer JSON"}, true
}

// ---- string literals ----

// codeWords may stand outside the strings of a string form: the calls and names around a
// literal in Python, JavaScript, Perl, Java and Go.
var codeWords = map[string]bool{
	"b": true, "bytes": true, "bytearray": true, "fromhex": true, "Buffer": true, "from": true,
	"hex": true, "base64": true, "unhexlify": true, "binascii": true, "a2b_hex": true, "pack": true,
	"H": true, "new": true, "var": true, "let": true, "const": true, "my": true, "unhex": true,
	"DecodeString": true, "parseHexBinary": true, "DatatypeConverter": true, "HexFormat": true,
	"of": true, "parseHex": true, "decode": true, "string": true, "byte": true, "char": true,
	"unsigned": true, "static": true, "uint8_t": true, "u8": true,
}

// parseStrings reads string literals: C's and Wireshark's "\x00\x2a…" (joined by blanks, '\'
// line continuations, '+', '.', or Python's parentheses), Python's b'…', and a string of hex
// digits ("0000002a…", bytes.fromhex('…'), Perl's pack("H*", "…")).
func parseStrings(s string, forced bool) (*Text, error) {
	s = stripComments(s)
	if !forced && strings.Contains(s, "struct.pack(") {
		return nil, errNotThisForm // the strings are struct.pack's formats and values: a list
	}
	sr := stringsReader{s: s, forced: forced, lx: lexer{s: s}}
	if err := sr.read(); err != nil {
		return nil, err
	}
	return sr.result()
}

// stringsReader is parseStrings' state: the strings read, and the calls seen around them.
type stringsReader struct {
	s                         string
	forced                    bool
	lx                        lexer
	strs                      []ltok
	hexCall, b64Call, prefixB bool
}

// read takes the tokens as they are cut, a window of four kept (two before, the token, one
// after): a text of another form stops at its first token that is no string's, at no cost
// past it. A text that does not lex is refused as a whole, wherever it stops.
func (sr *stringsReader) read() error {
	var win [4]ltok // win[0], win[1]: the tokens before; win[2] this one; win[3] the next
	n := 0          // the tokens read into win, up to 4
	t3, more, lerr := sr.lx.next()
	if lerr != nil {
		return sr.lexFail(lerr)
	}
	for more {
		win[0], win[1], win[2] = win[1], win[2], t3
		t := t3
		t3, more, lerr = sr.lx.next()
		if lerr != nil {
			return sr.lexFail(lerr)
		}
		win[3] = t3
		n = min(n+1, 3)
		toks := win[3-n:] // the tokens i-n+1 … i, and the next
		if !more {
			toks = win[3-n : 3]
		}
		if err := sr.token(t, toks, n-1); err != nil {
			return err
		}
	}
	return nil
}

// token takes t, toks[k] with its neighbours in toks.
func (sr *stringsReader) token(t ltok, toks []ltok, k int) error {
	switch t.kind {
	case 's':
		sr.str(t, toks, k)
	case 'i':
		if strings.Contains(t.text, "fromhex") || strings.Contains(t.text, "hex") || t.text == "unhexlify" || t.text == "parseHexBinary" {
			sr.hexCall = true
		}
		if !codeWords[t.text] && (k+1 >= len(toks) || !strings.Contains("=:.[(", toks[k+1].text)) &&
			(k == 0 || toks[k-1].text != "." && !rubySymbol(toks, k)) {
			return sr.outside(t.at, quoteTok(t.text))
		}
	case 'n':
		return sr.outside(t.at, quoteTok(t.text))
	case 'p':
		if !strings.Contains("+\\;,()[]{}=.:*$@&<>", t.text) {
			return sr.outside(t.at, fmt.Sprintf("%q", t.text))
		}
	}
	return nil
}

// str takes a string: a call's argument that says what the others are ("hex", "H*",
// "base64"), or one of the strings read.
func (sr *stringsReader) str(t ltok, toks []ltok, k int) {
	switch t.text[1 : len(t.text)-1] {
	case "hex", "H*", "H":
		sr.hexCall = true
		return
	case "base64":
		sr.b64Call = true
		return
	}
	if k > 0 && toks[k-1].kind == 'i' && (toks[k-1].text == "b" || toks[k-1].text == "rb" || toks[k-1].text == "B") && toks[k-1].at+len(toks[k-1].text) == t.at {
		sr.prefixB = true
	}
	sr.strs = append(sr.strs, t)
}

// outside is the failure of a token (quoted as what) outside a quoted string.
func (sr *stringsReader) outside(at int, what string) error {
	if len(sr.strs) == 0 && !sr.forced {
		return sr.fail(errNotThisForm)
	}
	return sr.fail(failAt(at, "%s outside a quoted string", what))
}

// lexFail is the failure of a text that does not lex.
func (sr *stringsReader) lexFail(lerr *perr) error {
	if sr.forced || strings.Contains(sr.s, `\x`) {
		return lerr
	}
	return errNotThisForm
}

// fail is a failure at a token, unless the text does not lex further on.
func (sr *stringsReader) fail(err error) error {
	if err == errNotThisForm && !strings.Contains(sr.s, `\x`) {
		return err
	}
	for {
		_, ok, lerr := sr.lx.next()
		if lerr != nil {
			return sr.lexFail(lerr)
		}
		if !ok {
			return err
		}
	}
}

// result is the bytes of the strings read: base64, hex, or escapes.
func (sr *stringsReader) result() (*Text, error) {
	strs := sr.strs
	if len(strs) == 0 {
		if sr.forced {
			return nil, failAt(0, "no quoted string")
		}
		return nil, errNotThisForm
	}
	escapes := false
	for _, t := range strs {
		if strings.Contains(t.text, `\`) {
			escapes = true
		}
	}
	if sr.b64Call {
		return base64Strings(strs)
	}
	if !escapes && !sr.prefixB {
		if t, err, done := sr.hexStrings(); done {
			return t, err
		}
	}
	return escapedStrings(strs, sr.prefixB)
}

// base64Strings is the strings' text joined, read as base64.
func base64Strings(strs []ltok) (*Text, error) {
	var enc strings.Builder
	for _, t := range strs {
		enc.WriteString(t.text[1 : len(t.text)-1])
	}
	if out, err := base64.StdEncoding.DecodeString(enc.String()); err == nil {
		return &Text{Bytes: out, Detail: "base64 string"}, nil
	}
	return nil, failAt(strs[0].at, "the string is not base64")
}

// hexStrings reads the strings as a string of hex digits: bytes.fromhex, pack("H*", …), or a
// plain hex string. done is false when they are not hex and may be escapes after all.
func (sr *stringsReader) hexStrings() (t *Text, err error, done bool) {
	strs := sr.strs
	var hexText strings.Builder
	for _, t := range strs {
		hexText.WriteString(blank(t.text[:1]))
		hexText.WriteString(t.text[1 : len(t.text)-1])
		hexText.WriteString(blank(t.text[len(t.text)-1:]))
	}
	padded := strings.Repeat(" ", strs[0].at) + hexText.String()
	ht, err := plainHex(padded)
	if err == nil && len(ht.Bytes) > 0 {
		ht.Detail = "hex in a string"
		if sr.hexCall {
			ht.Detail = "hex in a string (fromhex, pack H*)"
		}
		return ht, nil, true
	}
	if sr.hexCall || !sr.forced && !strings.ContainsAny(sr.s, `\`) {
		if err != nil && (sr.hexCall || sr.forced) {
			return nil, err, true
		}
		return nil, errNotThisForm, true
	}
	return nil, nil, false
}

// escapedStrings is the strings' bytes, escapes read (Rust's b"…" has no octal escapes).
func escapedStrings(strs []ltok, prefixB bool) (*Text, error) {
	var out []byte
	for _, t := range strs {
		b, err := unescapeIn(t.text[1:len(t.text)-1], t.at+1, prefixB && t.text[0] == '"')
		if err != nil {
			return nil, err
		}
		out = append(out, b...)
	}
	d := "C string"
	switch {
	case prefixB && strs[0].text[0] == '"':
		d = "Rust byte string (or Python bytes literal)"
	case prefixB:
		d = "Python bytes literal"
	}
	return &Text{Bytes: out, Detail: d}, nil
}

// rubySymbol reports whether toks[i] is a Ruby symbol (":name", as in let(:bytes) { "…" }).
func rubySymbol(toks []ltok, i int) bool {
	return i > 0 && toks[i-1].kind == 'p' && toks[i-1].text == ":" && toks[i-1].at+1 == toks[i].at &&
		(i == 1 || toks[i-2].text != ":" && toks[i-2].at+1 != toks[i-1].at || toks[i-2].kind == 'p' && strings.Contains("({[, ", toks[i-2].text))
}

// unescape reads the inside of a string literal: \xHH, \n \r \t \0 \a \b \f \v, octal \NNN,
// \\ \" \' \?; other bytes stand for themselves. at is the offset of its first byte.
func unescape(s string, at int) ([]byte, error) { return unescapeIn(s, at, false) }

// unescapeIn is unescape; with noOctal, \0 is a NUL and digits after it are themselves, as
// Rust's b"…" (which has no octal escapes) and the bytes crate's Debug write it.
func unescapeIn(s string, at int, noOctal bool) ([]byte, error) {
	out := make([]byte, 0, len(s)/4+1)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		if i+1 >= len(s) {
			return nil, failAt(at+i, "escape at the end of a string")
		}
		i++
		switch e := s[i]; e {
		case 'x':
			j := i + 1
			for j < len(s) && j < i+3 && isHex(s[j]) {
				j++
			}
			if j == i+1 {
				return nil, failAt(at+i-1, `\x without hex digits`)
			}
			v, _ := strconv.ParseUint(s[i+1:j], 16, 8)
			out = append(out, byte(v))
			i = j - 1
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'a':
			out = append(out, 7)
		case 'b':
			out = append(out, 8)
		case 'f':
			out = append(out, 12)
		case 'v':
			out = append(out, 11)
		case '0', '1', '2', '3', '4', '5', '6', '7':
			if noOctal {
				if e != '0' {
					return nil, failAt(at+i-1, `unknown escape \%c`, e)
				}
				out = append(out, 0)
				continue
			}
			j := i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			v, _ := strconv.ParseUint(s[i:j], 8, 16)
			if v > 255 {
				return nil, failAt(at+i-1, "octal escape \\%s is more than a byte", s[i:j])
			}
			out = append(out, byte(v))
			i = j - 1
		case '\\', '"', '\'', '?':
			out = append(out, e)
		default:
			return nil, failAt(at+i-1, `unknown escape \%c`, e)
		}
	}
	return out, nil
}
