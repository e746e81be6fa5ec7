package rfcart

import "strings"

// A startRule reads lines at the top of the grid that are not its first row: it gets the
// line of the grid's first rule and the lines kept as printed above the grid, and returns
// the line where the grid's first rule really is and those lines, with what it took from the
// grid kept as printed. Each rule is one small function, with its own figure in
// TestStartRules.
type startRule struct {
	name string
	read func(p *parser, first int, above []string) (int, []string)
}

// startRules are applied in order, each from where the one before left the grid's start.
var startRules = []startRule{
	{"a ruler boxed over the grid", boxedRuler},
	{"double slash side edges", doubleSlashEdges},
	{"'!' edges", bangEdges},
	{"a ruler of bytes", byteRuler},
	{"a ruler with bits left out", sparseRuler},
	{"'+' edges inside a row", plusEdges},
	{"crossing lines one under another", leftOutRows},
	{"a line of dots with no edges", edgelessDots},
}

// boxedRuler reads a ruler drawn in a box of its own over the grid, a bit a cell (RFC 6184's
// "+---------------+" over "|0|1|2|3|4|5|6|7|", RFC 7798's two bytes of it): a rule, a row
// whose cells each hold one digit, the bit's number counted from 0 by the byte or by tens, and
// a rule under it, all three from one column. The two lines are the figure's ruler, kept as
// printed above the grid, which starts at the rule under them; read as a row, they were eight
// one-bit fields named "0" to "7".
func boxedRuler(p *parser, first int, above []string) (int, []string) {
	if first+2 >= len(p.lines) {
		return first, above
	}
	top, row, rule := p.lines[first], p.lines[first+1], p.lines[first+2]
	x := indent(top)
	if x != indent(row) || x != indent(rule) || !isPlainRule(string(top[x:])) ||
		!isPlainRule(string(rule[x:])) || !isBitNumbers(strings.TrimRight(string(row[x:]), " ")) {
		return first, above
	}
	above = append(above, string(top), string(row))
	p.lines[first], p.lines[first+1] = nil, nil
	return first + 2, above
}

// indent is the column of a line's first character that is not a space.
func indent(l []rune) int {
	for i, r := range l {
		if r != ' ' {
			return i
		}
	}
	return len(l)
}

// isPlainRule reports whether s (from its first '+', trailing spaces allowed) is a rule of
// '+' and '-' alone that starts and ends with '+'.
func isPlainRule(s string) bool {
	s = strings.TrimRight(s, " ")
	if len(s) < 3 || s[0] != '+' || s[len(s)-1] != '+' {
		return false
	}
	return strings.Trim(s, "+-") == ""
}

// isBitNumbers reports whether s is a row of cells of one digit each, "|0|1|…|", at least a
// byte of them, numbering the bits from 0 by the byte (0 to 7 again and again) or by tens.
func isBitNumbers(s string) bool {
	if len(s) < 3 || s[0] != '|' || s[len(s)-1] != '|' {
		return false
	}
	cells := strings.Split(s[1:len(s)-1], "|")
	if len(cells) < 8 {
		return false
	}
	byByte, byTens := true, true
	for k, c := range cells {
		if len(c) != 1 || c[0] < '0' || c[0] > '9' {
			return false
		}
		d := int(c[0] - '0')
		byByte = byByte && d == k%8
		byTens = byTens && d == k%10
	}
	return byByte || byTens
}

// doubleSlashEdges reads "//" side edges, a row's left edge "//" from the grid's edge or its
// right edge "//" ending at the first rule's end or starting there (RFC 5440's Optional TLVs, RFC 8754's Padding
// and HMAC), as one '/' side mark each: the inner '/' of each pair is read as blank, with a
// warning, for the figure is drawn back with single marks.
func doubleSlashEdges(p *parser, first int, above []string) (int, []string) {
	x := indent(p.lines[first])
	end := len([]rune(strings.TrimRight(string(p.lines[first]), " "))) - 1
	for i := first + 1; i < len(p.lines); i++ {
		l := p.lines[i]
		if len(l) == 0 || indent(l) < x {
			break
		}
		t := []rune(strings.TrimRight(string(l), " "))
		if indent(l) != x || len(t) != end+1 && len(t) != end+2 || end-1 <= x+1 {
			continue
		}
		// the right "//" ends at the edge's column, or starts there (RFC 2205's objects)
		left, right := string(t[x:x+2]) == "//", string(t[len(t)-2:]) == "//"
		if left {
			l[x+1] = ' '
		}
		switch {
		case right && len(t) == end+1:
			l[end-1] = ' '
		case right:
			p.lines[i] = l[:end+1]
		}
		if left || right {
			p.warn(i, x, "side edges \"//\" read as one '/' each (drawn back so)")
		}
	}
	return first, above
}

// bangEdges reads the '!' edges of RFC 2408's figures (ISAKMP, and the IKEv1 RFCs after it:
// "!  Next Payload ! MjVer ! MnVer !") as '|' edges, with a warning, for the figure is drawn
// back with '|'. An edge is a '!' at the grid's left edge, at a line's end, or between
// spaces, on a line of the grid that starts with '!'.
func bangEdges(p *parser, first int, above []string) (int, []string) {
	x := indent(p.lines[first])
	for i := first + 1; i < len(p.lines); i++ {
		l := p.lines[i]
		if len(l) <= x || indent(l) != x || !strings.ContainsRune("+|!", l[x]) {
			break
		}
		if l[x] != '!' {
			continue
		}
		for c := x; c < len(l); c++ {
			if l[c] == '!' && (c == x || c == len(l)-1 || l[c-1] == ' ' && l[c+1] == ' ') {
				l[c] = '|'
			}
		}
		p.warn(i, x, "'!' edges read as '|' (drawn back with '|')")
	}
	return first, above
}

// plusEdges reads a '+' standing alone inside a row, a space either side, on a line that
// starts with the grid's '|' edge (the RUDP draft's "|  Sequence #   +   Ack Number  |") as
// an edge '|', with a warning: the figure is drawn back with '|'. A '+' at the grid's edges is
// a crossing rule's (RFC 8200), and one in a word is text.
func plusEdges(p *parser, first int, above []string) (int, []string) {
	x := indent(p.lines[first])
	for i := first + 1; i < len(p.lines); i++ {
		l := p.lines[i]
		if len(l) <= x || indent(l) != x || !strings.ContainsRune("+|:~/.\\", l[x]) {
			break
		}
		if l[x] != '|' {
			continue
		}
		for c := x + 1; c+1 < len(l)-1; c++ {
			if l[c] == '+' && l[c-1] == ' ' && l[c+1] == ' ' && p.fieldsMeetUnder(i, x, c) {
				l[c] = '|'
				p.warn(i, c, "'+' inside the row read as an edge '|' (drawn back with '|')")
			}
		}
	}
	return first, above
}

// fieldsMeetUnder reports whether the rule closing the row of line i (the next line starting
// with '+' at column x) marks a boundary of fields at column c, dashes either side
// ("+---------------+----"): a '+' in a row over a rule marked at every bit is a sum's
// ("IP header + 8 octets", RFC 792), not an edge.
func (p *parser) fieldsMeetUnder(i, x, c int) bool {
	for j := i + 1; j < len(p.lines); j++ {
		r := p.lines[j]
		if len(r) <= x || r[x] != '+' {
			continue
		}
		return c+2 < len(r) && c >= 2 && string(r[c-2:c+3]) == "--+--"
	}
	return false
}

// sparseRuler reads a ruler of bit numbers, some left out ("0 1 2 3 4 5 6 7 8            15",
// the RUDP draft), each number's last digit over the middle of its bit of two columns: it is
// kept as printed above the grid (no ruler is drawn for it), and says bits are two columns.
func sparseRuler(p *parser, first int, above []string) (int, []string) {
	if first == 0 || p.lines[first-1] == nil {
		return first, above
	}
	l, x := p.lines[first-1], indent(p.lines[first])
	nums := numbers(l)
	if len(nums) < 2 || len(nums) != len(strings.Fields(string(l))) {
		return first, above
	}
	gap := false
	for k, n := range nums {
		if n.end-1 != x+1+2*n.v || k > 0 && n.v <= nums[k-1].v {
			return first, above
		}
		gap = gap || k > 0 && n.v > nums[k-1].v+1
	}
	if !gap || nums[len(nums)-1].v < 10 {
		return first, above // (every bit numbered, or no number of two digits: a ruler of units)
	}
	above = append(above, string(l))
	p.lines[first-1] = nil
	p.cpb = 2
	return first, above
}

// leftOutRows reads crossing lines one under another, no row between ("+   +" lines, RFC
// 5798's VRRP addresses: rows of a list left out): the first is the field's crossing line; the
// others stand for rows not drawn, read as its inside ('|' edges) and remembered
// (parser.leftOut), so that the field holding them is read as a variable field, with a
// warning: the figure does not say how many rows it has.
func leftOutRows(p *parser, first int, above []string) (int, []string) {
	x := indent(p.lines[first])
	end := len([]rune(strings.TrimRight(string(p.lines[first]), " "))) - 1
	crossing := func(i int) bool {
		l := p.lines[i]
		return len(l) == end+1 && indent(l) == x && l[x] == '+' && l[end] == '+' && strings.TrimSpace(string(l[x+1:end])) == ""
	}
	for i := first + 2; i < len(p.lines); i++ {
		if crossing(i) && crossing(i-1) {
			p.lines[i][x], p.lines[i][end] = '|', '|'
			p.leftOut = append(p.leftOut, i)
		}
		if len(p.lines[i]) == 0 || indent(p.lines[i]) != x {
			break
		}
	}
	return first, above
}

// edgelessDots reads a line of dots alone with no edges inside the grid, between lines of
// '|' edges (RFC 8754's SRH: "...", the segments left out between Segment List[0] and [n]),
// as that row's inside: its edges are read as '|', warned (drawn back with them).
func edgelessDots(p *parser, first int, above []string) (int, []string) {
	x := indent(p.lines[first])
	end := len([]rune(strings.TrimRight(string(p.lines[first]), " "))) - 1
	rowAt := func(i int) bool {
		l := p.lines[i]
		return len(l) == end+1 && indent(l) == x && l[x] == '|' && l[end] == '|'
	}
	for i := first + 2; i+1 < len(p.lines); i++ {
		l := p.lines[i]
		if strings.Trim(strings.TrimSpace(string(l)), ".") != "" || strings.TrimSpace(string(l)) == "" || !rowAt(i-1) || !rowAt(i+1) || len(l) > end {
			continue
		}
		row := []rune(strings.Repeat(" ", end+1))
		copy(row, l)
		row[x], row[end] = '|', '|'
		p.lines[i] = row
		p.warn(i, x, "a line of dots with no edges, inside the grid: read as its row's inside (drawn back with '|' edges)")
	}
	return first, above
}
