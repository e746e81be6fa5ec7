package textbytes

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unsafe"
)

// LooksLikeText reports whether data is text that Bytes may read: no control bytes other
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

// MaxRepeat bounds what the "*" lines of a dump (hexdump -C and od write one for lines that
// repeat the line before) may add to it, all together: 4 MiB, a few thousand times what a
// pasted dump holds. A dump that claims more is an error naming the "*" line, so that a few
// lines cannot claim any length (a "*" up to offset 0x8000000 would be 128 MiB).
const MaxRepeat = 4 << 20

// Bytes reads bytes written as text in any of the forms Parse tells apart.
func Bytes(text []byte) ([]byte, error) {
	t, err := Parse(text, Auto)
	if err != nil {
		return nil, err
	}
	return t.Bytes, nil
}

// dumpRow is one line of a dump with an offset column.
type dumpRow struct {
	line   int    // 0-based
	lineAt int    // offset in the text of the line (kept for the first row)
	at     int    // offset in the text of the offset token
	offTok string // the offset's digits
	rest   string // after the offset
	restAt int    // offset in the text of rest
	star   bool   // "*": the line before repeats
	netty  bool   // "|00000000|"
	colon  bool   // "00000000:"
	off    int64
}

// parseDump reads dumps with an offset column: xxd, hexdump -C, od, Wireshark's "Copy as Hex
// Dump", tshark -x, Netty's ByteBufUtil.prettyHexDump, and "Idx | Hex | ASCII" tables, with
// any prefix before each line's offset. A line's offset must be the bytes before it (hex,
// else octal, else decimal offsets throughout); an offset of 0 after bytes starts another
// block (tshark's next packet). Table headers and rules are skipped, other lines of prose
// with a note.
func parseDump(s string, forced bool) (*Text, error) {
	var rows []dumpRow
	var prose, proseAt []int // the lines that are neither rows nor decoration, and where they start
	li := 0
	for pos := 0; pos <= len(s); li++ {
		lineAt := pos
		end := strings.IndexByte(s[pos:], '\n')
		if end < 0 {
			end = len(s)
		} else {
			end += pos
		}
		line := s[pos:end]
		pos = end + 1
		t := strings.TrimSpace(line)
		if t == "" {
			continue
		}
		if t == "*" || strings.HasSuffix(t, " *") && len(rows) > 0 && !rows[len(rows)-1].star && strings.TrimSpace(t[:len(t)-1]) == strings.TrimSpace(line[:max(0, rows[len(rows)-1].at-lineAt)]) {
			rows = append(rows, dumpRow{line: li, at: lineAt + strings.LastIndexByte(line, '*'), star: true})
			continue
		}
		r, ok := dumpRowOf(line, lineAt, li)
		if !ok {
			// Lines of prose are kept once a row is seen (a text with none is no dump).
			if len(rows) > 0 && !decoration(t) {
				prose, proseAt = append(prose, li), append(proseAt, lineAt)
			}
			continue
		}
		if len(rows) == 0 {
			r.lineAt = lineAt
			rows = make([]dumpRow, 0, strings.Count(s[lineAt:], "\n")+1) // a row a line at most
			prose, proseAt = proseBefore(s[:lineAt])
		}
		rows = append(rows, r)
	}
	if len(rows) == 0 || rows[0].star {
		return nil, errNotThisForm
	}
	// A line of the rows' prefix alone ("[tester::#GS0] ") is a blank line of the log.
	if prefix := strings.TrimSpace(s[rows[0].lineAt:rows[0].at]); prefix != "" {
		kept := prose[:0]
		for k, li := range prose {
			if strings.TrimSpace(lineOf(s, proseAt[k])) != prefix {
				kept = append(kept, li)
			}
		}
		prose = kept
	}
	var firstErr error
	for _, base := range []int{16, 8, 10} {
		t, err := dumpIn(s, rows, base)
		if err == nil {
			if len(prose) > 0 {
				t.Notes = append(t.Notes, fmt.Sprintf("%s not a dump's: skipped", proseLines(prose)))
			}
			return t, nil
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	// Said only when the text looks like a dump: several rows whose first offset is 0.
	if pe, ok := firstErr.(*perr); ok && (forced || len(rows) > 1 && pe != errNotThisForm && rows[0].offTok != "" && strings.Trim(rows[0].offTok, "0") == "") {
		return nil, pe
	}
	return nil, errNotThisForm
}

// proseBefore lists the lines of prose of s (the text before a dump's first row): neither
// blank, nor rows, nor decoration; their 0-based numbers and offsets.
func proseBefore(s string) (lines, at []int) {
	li := 0
	for pos := 0; pos < len(s); li++ {
		end := strings.IndexByte(s[pos:], '\n')
		if end < 0 {
			end = len(s)
		} else {
			end += pos
		}
		line, lineAt := s[pos:end], pos
		pos = end + 1
		t := strings.TrimSpace(line)
		if t == "" || t == "*" {
			continue
		}
		if _, ok := dumpRowOf(line, lineAt, li); !ok && !decoration(t) {
			lines, at = append(lines, li), append(at, lineAt)
		}
	}
	return lines, at
}

// lineOf is the line of s that starts at offset at.
func lineOf(s string, at int) string {
	if i := strings.IndexByte(s[at:], '\n'); i >= 0 {
		return s[at : at+i]
	}
	return s[at:]
}

func proseLines(ls []int) string {
	var parts []string
	for i := 0; i < len(ls); {
		j := i
		for j+1 < len(ls) && ls[j+1] == ls[j]+1 {
			j++
		}
		if j == i {
			parts = append(parts, strconv.Itoa(ls[i]+1))
		} else {
			parts = append(parts, fmt.Sprintf("%d–%d", ls[i]+1, ls[j]+1))
		}
		i = j + 1
		if len(parts) == 6 && i < len(ls) {
			parts = append(parts, "…")
			break
		}
	}
	if len(ls) == 1 {
		return "line " + parts[0] + " is"
	}
	return "lines " + strings.Join(parts, ", ") + " are"
}

// decoration reports whether a line is a dump's rule or column header: "-----+-----",
// "+--------+", "Idx | Hex | ASCII", Netty's "|  0  1  2  3 … f |".
func decoration(t string) bool {
	if strings.Contains(t, "----") || strings.Contains(t, "====") {
		return true
	}
	low := strings.ToLower(t)
	if strings.Contains(low, "hex") && strings.Contains(t, "|") {
		return true
	}
	return strings.Contains(t, " 0  1  2  3  4  5  6  7")
}

// dumpRowOf reads a line's offset: the first of its first 8 tokens that is 4 to 16 hex digits
// (as "0000", "00000000:", "|00000000|"); what is before it is a prefix.
func dumpRowOf(line string, lineAt, li int) (dumpRow, bool) {
	i := 0
	for n := 0; n < 8; n++ {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		if i >= len(line) {
			break
		}
		start := i
		if line[i] == '|' {
			// Netty: "|00000000| 00 00 …"
			j := i + 1
			for j < len(line) && isHex(line[j]) {
				j++
			}
			if j < len(line) && line[j] == '|' && j-i-1 >= 4 && j-i-1 <= 16 {
				return dumpRow{line: li, at: lineAt + i + 1, offTok: line[i+1 : j], rest: line[j+1:], restAt: lineAt + j + 1, netty: true}, true
			}
		}
		for i < len(line) && line[i] != ' ' && line[i] != '\t' {
			i++
		}
		tok := line[start:i]
		colon := strings.HasSuffix(tok, ":")
		d := strings.TrimSuffix(tok, ":")
		if len(d) >= 4 && len(d) <= 16 && strings.IndexFunc(d, func(r rune) bool { return r >= 0x80 || !isHex(byte(r)) }) < 0 {
			return dumpRow{line: li, at: lineAt + start, offTok: d, rest: line[i:], restAt: lineAt + i, colon: colon}, true
		}
		if byteLike(tok) {
			return dumpRow{}, false // bytes before any offset: not a dump line
		}
	}
	return dumpRow{}, false
}

// dumpIn checks the rows' offsets in one base and reads their bytes.
func dumpIn(s string, rows []dumpRow, base int) (*Text, error) {
	for i := range rows {
		if rows[i].star {
			continue
		}
		v, err := strconv.ParseInt(rows[i].offTok, base, 64)
		if err != nil || v > 1<<40 {
			return nil, failAt(rows[i].at, "%s is not an offset in base %d", quoteTok(rows[i].offTok), base)
		}
		rows[i].off = v
	}
	// A dump may start past 0 (xxd -s, od -j): its first line's offset counts as the start,
	// when a second line's offset follows from it.
	dr := dumpReader{rows: rows, base: base, blockBase: rows[0].off}
	if dr.blockBase != 0 && (len(rows) < 2 || rows[1].star) {
		return nil, errNotThisForm
	}
	for i := range rows {
		var err error
		if rows[i].star {
			err = dr.star(i)
		} else {
			err = dr.row(i)
		}
		if err != nil {
			return nil, err
		}
	}
	out, blocks := dr.out, dr.blocks
	if len(out) > dr.blockStart && dr.blockStart > 0 {
		blocks = append(blocks, out[dr.blockStart:])
	}
	r0 := rows[0]
	if !(dr.sawText || dr.ends || r0.colon || r0.netty || len(rows) > 1) {
		return nil, errNotThisForm
	}
	t := &Text{Bytes: out, Blocks: blocks, Detail: dumpDetail(r0, dr.sawText, base)}
	if r0.off != 0 {
		t.Notes = append(t.Notes, fmt.Sprintf("the dump starts at offset %#x (%d): the bytes before it are not in the text", r0.off, r0.off))
	}
	if len(blocks) > 1 {
		t.Notes = append(t.Notes, fmt.Sprintf("%d dumps (offsets start again at 0), read one after the other", len(blocks)))
	}
	return t, nil
}

// dumpReader is dumpIn's reading of the rows: the bytes so far, the dumps (blocks) they fall
// in, and the line a "*" repeats.
type dumpReader struct {
	rows          []dumpRow
	base          int
	out           []byte
	blocks        [][]byte
	blockStart    int
	blockBase     int64
	sawText, ends bool
	prev          []byte
	sc            dumpScratch
	repeated      int
}

// star repeats the line before a "*" line up to the next line's offset.
func (dr *dumpReader) star(i int) error {
	rows, r := dr.rows, &dr.rows[i]
	if i == 0 || rows[i-1].star || len(dr.prev) == 0 {
		return failAt(r.at, `"*" with no line before it to repeat`)
	}
	if i+1 >= len(rows) || rows[i+1].star {
		return failAt(r.at, `"*" with no offset after it to repeat up to`)
	}
	next := rows[i+1].off - dr.blockBase
	have := int64(len(dr.out) - dr.blockStart)
	if next <= have {
		return failAt(rows[i+1].at, "offset %#x after \"*\" is not past the %d bytes before it", next, have)
	}
	add := next - have
	if add%int64(len(dr.prev)) != 0 {
		return failAt(rows[i+1].at, "offset %#x after \"*\" is not a whole number of the repeated line's %d bytes past %#x", next, len(dr.prev), have)
	}
	if int64(dr.repeated)+add > MaxRepeat {
		return failAt(r.at, "\"*\" repeats the line before up to offset %#x: %d more bytes, past the %d (4 MiB, textbytes.MaxRepeat) the \"*\" lines of a dump may add; give the bytes as a file instead",
			next, add, MaxRepeat)
	}
	dr.repeated += int(add)
	for k := int64(0); k < add; k += int64(len(dr.prev)) {
		dr.out = append(dr.out, dr.prev...)
	}
	return nil
}

// row reads the bytes of a line with an offset, which must follow from the lines before.
func (dr *dumpReader) row(i int) error {
	rows, r := dr.rows, &dr.rows[i]
	if r.off == 0 && len(dr.out) > dr.blockStart {
		dr.blocks = append(dr.blocks, dr.out[dr.blockStart:])
		dr.blockStart, dr.blockBase = len(dr.out), 0
	}
	if have := int64(len(dr.out) - dr.blockStart); r.off-dr.blockBase != have {
		if dr.base == 16 && i > 0 {
			return failAt(r.at, "offset %s (%d) where %d was expected: the lines before hold %d bytes", r.offTok, r.off, have, have)
		}
		return errNotThisForm
	}
	want := -1
	if i+1 < len(rows) && !rows[i+1].star && rows[i+1].off != 0 {
		want = int(rows[i+1].off - r.off)
	}
	b, text, ok := dumpBytes(r.rest, want, &dr.sc) // b is sc's: copied below
	if !ok {
		if want >= 0 {
			return failAt(r.restAt, "the line does not hold the %d bytes its offset and the next one's say", want)
		}
		return failAt(r.restAt, "not a dump line's bytes")
	}
	if len(b) == 0 {
		dr.ends = true
	}
	dr.sawText = dr.sawText || text
	dr.out = append(dr.out, b...)
	if len(b) > 0 {
		dr.prev = append(dr.prev[:0], b...)
	}
	return nil
}

func dumpDetail(r dumpRow, text bool, base int) string {
	rest := strings.TrimSpace(r.rest)
	switch {
	case r.netty:
		return "Netty hex dump"
	case strings.HasPrefix(rest, "|"):
		return "hex table (Idx | Hex | ASCII)"
	case r.colon:
		return "xxd"
	case base == 8:
		return "od (octal offsets)"
	case base == 10:
		return "od -Ad"
	case strings.HasSuffix(rest, "|"):
		return "hexdump -C"
	case strings.HasSuffix(rest, "<"):
		return "od -Ax -tx1z"
	case len(r.offTok) == 6 || len(r.offTok) == 7:
		return "od -Ax -tx1"
	case len(r.offTok) == 4 && strings.HasPrefix(r.rest, "   "):
		return "Wireshark hex dump"
	case len(r.offTok) == 4:
		return "tshark -x"
	}
	return "hex dump"
}

// dumpScratch is the memory dumpBytes reuses from line to line.
type dumpScratch struct {
	all, render       []byte
	cum, ends, lastNB []int
}

// dumpBytes reads the hex of one dump line (after its offset) and drops its ASCII column:
// groups of 2 to 16 hex digits are taken while the rest of the line is not the ASCII
// rendering of what was taken ("|" between them, as tables have, is skipped). want, when not
// -1, is the number of bytes the line must hold. The cost is linear in the line: each cut
// is compared in constant time, and only a cut whose ASCII column has the right length is
// compared in full.
func dumpBytes(rest string, want int, sc *dumpScratch) (b []byte, ascii, ok bool) {
	all, cum, ends := dumpGroups(rest, sc)
	rs, firstNB, lastNB := dumpRender(all, sc)
	// An ASCII column that matches wins over reading it as hex ("61 62  ab"); a line with
	// nothing after its hex comes last.
	for _, withText := range []bool{true, false} {
		for k := len(cum) - 1; k >= 0; k-- {
			n := cum[k]
			if want >= 0 && n != want {
				continue
			}
			if dumpCut(rest[ends[k]:], withText, rs, firstNB, lastNB[n]) {
				return all[:n:n], withText, true
			}
		}
	}
	return nil, false, false
}

// dumpGroups reads the groups of 2 to 16 hex digits of a dump line: all their bytes,
// cum[k] the bytes of the first k groups, ends[k] where the first k groups end in rest.
func dumpGroups(rest string, sc *dumpScratch) (all []byte, cum, ends []int) {
	all = sc.all[:0]
	cum = append(sc.cum[:0], 0)
	ends = append(sc.ends[:0], 0)
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
		if t == "|" && len(cum) == 1 {
			ends[0] = pos // a table's rule before the hex
			continue
		}
		if t == "" || len(t)%2 != 0 || len(t) > 16 {
			break
		}
		var ok bool
		if all, ok = appendHexGroup(all, t); !ok {
			break
		}
		cum = append(cum, len(all))
		ends = append(ends, pos)
	}
	sc.all, sc.cum, sc.ends = all, cum, ends
	return all, cum, ends
}

// appendHexGroup appends the bytes of t, pairs of hex digits; ok is false (and all as it
// was) when t is not.
func appendHexGroup(all []byte, t string) ([]byte, bool) {
	n := len(all)
	for j := 0; j < len(t); j += 2 {
		if !isHex(t[j]) || !isHex(t[j+1]) {
			return all[:n], false
		}
		all = append(all, unhex(t[j])<<4|unhex(t[j+1]))
	}
	return all, true
}

// dumpRender is the ASCII rendering of all the bytes (not kept past the line), where its first
// non-blank is, and for each prefix where its last non-blank is: lastNB[n] is 1 + the index of
// the last non-blank of the first n.
func dumpRender(all []byte, sc *dumpScratch) (rs string, firstNB int, lastNB []int) {
	render := slices.Grow(sc.render[:0], len(all))[:len(all)]
	lastNB = slices.Grow(sc.lastNB[:0], len(all)+1)[:len(all)+1]
	lastNB[0] = 0
	sc.render, sc.lastNB = render, lastNB
	firstNB = len(all)
	for i, c := range all {
		if c >= 0x20 && c < 0x7f {
			render[i] = c
		} else {
			render[i] = '.'
		}
		lastNB[i+1] = lastNB[i]
		if render[i] != ' ' {
			lastNB[i+1] = i + 1
			firstNB = min(firstNB, i)
		}
	}
	return unsafe.String(unsafe.SliceData(render), len(render)), firstNB, lastNB
}

// dumpCut reports whether a line cut after its hex leaves rest: with text, an ASCII column
// that renders the bytes (lnb: where their last non-blank ends); without, nothing.
func dumpCut(rest string, withText bool, rs string, firstNB, lnb int) bool {
	tail := strings.TrimSpace(rest)
	if !withText || tail == "" {
		return !withText && tail == ""
	}
	var r string
	if lo := min(firstNB, lnb); lo < lnb {
		r = rs[lo:lnb]
	}
	// The column in its frame ("|…|", ">…<"), or bare (xxd's, which may start with a '|' of
	// the bytes).
	col := asciiColumn(tail)
	return len(col) == len(r) && col == r || len(tail) == len(r) && tail == r
}

// asciiColumn is the text of an ASCII column without its frame: "|…|" (hexdump -C, Netty),
// "| …" (tables), ">…<" (od -z), trimmed.
func asciiColumn(s string) string {
	switch {
	case len(s) >= 2 && s[0] == '|' && s[len(s)-1] == '|':
		s = s[1 : len(s)-1]
	case len(s) >= 2 && s[0] == '>' && s[len(s)-1] == '<':
		s = s[1 : len(s)-1]
	case len(s) >= 1 && s[0] == '|':
		s = s[1:]
	}
	return strings.TrimSpace(s)
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
