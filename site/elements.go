package site

import "bytes"

// Elements counts the elements a browser makes of an HTML page (or of inline SVG) at load, for
// pages kafkagrid writes (every element's start tag written, none implied): start tags outside
// comments, the text of script, style, title, textarea and noscript (a browser running script
// reads the last as text), and the content of a template, which is a separate fragment until
// cloned. Linear in the page; the reference's tests check it against an HTML5 parser on every page
// of a build. The reference and the report keep their pages under their ceilings of elements by
// it.
func Elements(page []byte) int {
	n, tmpl := 0, 0
	for i := 0; i < len(page); i++ {
		k := bytes.IndexByte(page[i:], '<')
		if k < 0 || i+k+1 >= len(page) {
			return n
		}
		i += k
		rest := page[i+1:]
		switch {
		case bytes.HasPrefix(rest, []byte("!--")):
			end := bytes.Index(rest[3:], []byte("-->"))
			if end < 0 {
				return n
			}
			i += 1 + 3 + end + 2
		case rest[0] == '/':
			if tmpl > 0 && hasTagName(rest[1:], "template") {
				tmpl--
			}
		case isLetter(rest[0]):
			j := 0
			for j < len(rest) && (isLetter(rest[j]) || rest[j] >= '0' && rest[j] <= '9' || rest[j] == '-' || rest[j] == ':') {
				j++
			}
			tag := rest[:j]
			if tmpl == 0 {
				n++
			}
			if len(tag) == len("template") && bytes.EqualFold(tag, []byte("template")) {
				tmpl++
				continue
			}
			for _, raw := range rawText {
				if len(tag) != len(raw) || !bytes.EqualFold(tag, raw) {
					continue
				}
				gt := bytes.IndexByte(rest, '>')
				if gt < 0 || gt > 0 && rest[gt-1] == '/' {
					break // a self-closing SVG <style/> or <title/> has no text
				}
				end := indexEnd(rest[gt:], raw)
				if end < 0 {
					return n
				}
				i += gt + end
				break
			}
		}
	}
	return n
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// rawText are the elements whose content is text to a browser running script.
var rawText = [][]byte{[]byte("script"), []byte("style"), []byte("title"), []byte("textarea"), []byte("noscript")}

// hasTagName reports whether b starts with the tag name (any case) followed by a delimiter.
func hasTagName(b []byte, name string) bool {
	return len(b) > len(name) && bytes.EqualFold(b[:len(name)], []byte(name)) && !isLetter(b[len(name)]) && b[len(name)] != '-'
}

// indexEnd is the index in b of the first end tag of name (any case), or -1.
func indexEnd(b, name []byte) int {
	for i := 0; ; {
		k := bytes.Index(b[i:], []byte("</"))
		if k < 0 {
			return -1
		}
		i += k
		if rest := b[i+2:]; len(rest) >= len(name) && bytes.EqualFold(rest[:len(name)], name) && (len(rest) == len(name) || !isLetter(rest[len(name)])) {
			return i
		}
		i += 2
	}
}
