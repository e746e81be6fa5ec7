package reference

import "strings"

// Token kinds of a schema file, for light syntax colouring.
type tokenKind int

const (
	tokText    tokenKind = iota // punctuation, spaces, anything else
	tokComment                  // // … and /* … */
	tokKey                      // a string followed by ':'
	tokString                   // any other string
	tokNumber                   // a JSON number
	tokLiteral                  // true, false, null
)

// token is a run of one kind of text on one line.
type token struct {
	Kind tokenKind
	Text string
}

// tokenizeLines splits Kafka's JSON-with-comments into lines of tokens. It never fails: text
// it does not recognise is tokText, and an unterminated string or comment runs to the end of
// its line (or, for a block comment, of the file), so any input gives lines whose text joined
// with "\n" is the input.
func tokenizeLines(src []byte) [][]token {
	s := string(src)
	var lines [][]token
	var cur []token
	emit := func(k tokenKind, text string) {
		// A token may span lines (block comments): split it.
		for {
			i := strings.IndexByte(text, '\n')
			if i < 0 {
				break
			}
			if i > 0 {
				cur = appendToken(cur, k, text[:i])
			}
			lines = append(lines, cur)
			cur = nil
			text = text[i+1:]
		}
		if text != "" {
			cur = appendToken(cur, k, text)
		}
	}
	for i := 0; i < len(s); {
		k, j := nextToken(s, i)
		emit(k, s[i:j])
		i = j
	}
	if cur != nil || len(s) == 0 || s[len(s)-1] != '\n' {
		lines = append(lines, cur)
	}
	return lines
}

// nextToken reads the token that starts at s[i]: its kind and where it ends.
func nextToken(s string, i int) (tokenKind, int) {
	c := s[i]
	switch {
	case c == '/' && i+1 < len(s) && s[i+1] == '/':
		j := i
		for j < len(s) && s[j] != '\n' {
			j++
		}
		return tokComment, j
	case c == '/' && i+1 < len(s) && s[i+1] == '*':
		j := i + 2
		for j < len(s) && !(s[j] == '*' && j+1 < len(s) && s[j+1] == '/') {
			j++
		}
		return tokComment, min(j+2, len(s))
	case c == '"':
		return stringToken(s, i)
	case c == '-' || c >= '0' && c <= '9':
		j := i + 1
		for j < len(s) && strings.IndexByte("0123456789.eE+-", s[j]) >= 0 {
			j++
		}
		return tokNumber, j
	case isWordByte(c):
		j := i
		for j < len(s) && isWordByte(s[j]) {
			j++
		}
		if w := s[i:j]; w == "true" || w == "false" || w == "null" {
			return tokLiteral, j
		}
		return tokText, j
	}
	j := i + 1
	for j < len(s) && strings.IndexByte(`"/-0123456789`, s[j]) < 0 && !isWordByte(s[j]) {
		j++ // up to what may start another kind of token
	}
	return tokText, j
}

// stringToken reads the string that starts at s[i], to its closing quote or the end of its
// line: a key when a ':' follows it.
func stringToken(s string, i int) (tokenKind, int) {
	j := i + 1
	for j < len(s) && s[j] != '"' && s[j] != '\n' {
		if s[j] == '\\' && j+1 < len(s) && s[j+1] != '\n' {
			j++
		}
		j++
	}
	if j < len(s) && s[j] == '"' {
		j++
	}
	n := j
	for n < len(s) && (s[n] == ' ' || s[n] == '\t') {
		n++
	}
	if n < len(s) && s[n] == ':' {
		return tokKey, j
	}
	return tokString, j
}

func appendToken(ts []token, k tokenKind, text string) []token {
	if n := len(ts); n > 0 && ts[n-1].Kind == k {
		ts[n-1].Text += text
		return ts
	}
	return append(ts, token{k, text})
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}
