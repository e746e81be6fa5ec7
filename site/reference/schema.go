package reference

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
			i := indexByte(text, '\n')
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
		c := s[i]
		switch {
		case c == '/' && i+1 < len(s) && s[i+1] == '/':
			j := i
			for j < len(s) && s[j] != '\n' {
				j++
			}
			emit(tokComment, s[i:j])
			i = j
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			j := i + 2
			for j < len(s) && !(s[j] == '*' && j+1 < len(s) && s[j+1] == '/') {
				j++
			}
			if j < len(s) {
				j += 2
			}
			emit(tokComment, s[i:j])
			i = j
		case c == '"':
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
			k := tokString
			n := j
			for n < len(s) && (s[n] == ' ' || s[n] == '\t') {
				n++
			}
			if n < len(s) && s[n] == ':' {
				k = tokKey
			}
			emit(k, s[i:j])
			i = j
		case c == '-' || c >= '0' && c <= '9':
			j := i + 1
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.' || s[j] == 'e' || s[j] == 'E' || s[j] == '+' || s[j] == '-') {
				j++
			}
			emit(tokNumber, s[i:j])
			i = j
		case isWordByte(c):
			j := i
			for j < len(s) && isWordByte(s[j]) {
				j++
			}
			w := s[i:j]
			if w == "true" || w == "false" || w == "null" {
				emit(tokLiteral, w)
			} else {
				emit(tokText, w)
			}
			i = j
		default:
			j := i + 1
			for j < len(s) && s[j] != '"' && s[j] != '/' && s[j] != '-' && !(s[j] >= '0' && s[j] <= '9') && !isWordByte(s[j]) {
				j++
			}
			emit(tokText, s[i:j])
			i = j
		}
	}
	if cur != nil || len(s) == 0 || s[len(s)-1] != '\n' {
		lines = append(lines, cur)
	}
	return lines
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

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}
