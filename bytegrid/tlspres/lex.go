package tlspres

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// token is one word, number or punctuation mark of a document, with its place.
type token struct {
	text      string
	pos       int // its byte offset
	line, col int
}

// lexer cuts a document into tokens, skipping white space and /* comments */.
type lexer struct {
	file      string
	src       string
	pos       int
	line, col int
}

func (l *lexer) errAt(line, col int, format string, a ...any) error {
	return &Error{Reader: "tlspres", File: l.file, Line: line, Col: col, Err: fmt.Errorf(format, a...)}
}

func (l *lexer) advance(n int) {
	for _, r := range l.src[l.pos : l.pos+n] {
		if r == '\n' {
			l.line, l.col = l.line+1, 1
		} else {
			l.col++
		}
	}
	l.pos += n
}

// skip passes white space and comments; an unclosed comment is an error.
func (l *lexer) skip() error {
	for l.pos < len(l.src) {
		switch c := l.src[l.pos]; {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			l.advance(1)
		case strings.HasPrefix(l.src[l.pos:], "/*"):
			end := strings.Index(l.src[l.pos+2:], "*/")
			if end < 0 {
				return l.errAt(l.line, l.col, "a comment that is not closed (want */)")
			}
			l.advance(end + 4)
		default:
			return nil
		}
	}
	return nil
}

// next returns the next token, or a token with no text at the end.
func (l *lexer) next() (token, error) {
	if err := l.skip(); err != nil {
		return token{}, err
	}
	t := token{pos: l.pos, line: l.line, col: l.col}
	if l.pos >= len(l.src) {
		return t, nil
	}
	n := l.tokenLen()
	t.text = l.src[l.pos : l.pos+n]
	l.advance(n)
	return t, nil
}

// tokenLen is the length of the token at pos: a word (letters, digits, "_", "." and "-"
// inside, as in TLSPlaintext.length or ASN.1_subjectPublicKeyInfo), "..", or one mark.
func (l *lexer) tokenLen() int {
	s := l.src[l.pos:]
	if strings.HasPrefix(s, "..") {
		return 2
	}
	n := 0
	for n < len(s) && isWord(s[n], n) {
		if s[n] == '.' && strings.HasPrefix(s[n:], "..") {
			break
		}
		n++
	}
	if n == 0 {
		_, size := utf8.DecodeRuneInString(s)
		return size
	}
	return n
}

func isWord(c byte, i int) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_':
		return true
	case c == '.':
		return i > 0
	}
	return false
}

// peekLine is the rest of the current line after white space (not after comments).
func (l *lexer) peekLine() string {
	s := l.src[l.pos:]
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

// skipLine passes the rest of the current line.
func (l *lexer) skipLine() {
	s := l.src[l.pos:]
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		l.advance(i + 1)
		return
	}
	l.advance(len(s))
}

// skipBlank passes white space only (not comments), for the top level's line checks.
func (l *lexer) skipBlank() {
	for l.pos < len(l.src) && strings.IndexByte(" \t\r\n", l.src[l.pos]) >= 0 {
		l.advance(1)
	}
}
