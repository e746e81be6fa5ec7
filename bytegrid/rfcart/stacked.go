package rfcart

import "strings"

// stackedTitle reports whether the rule at line next, under the grid ending at line last,
// starts another grid under a title of its own, blank lines between them (RFC 7348's Figure
// 1: "Outer IPv4 Header:" over the IPv4 header, under the Ethernet header), and the title.
func (p *parser) stackedTitle(last, next int) (string, bool) {
	h := next - 1
	if h <= last+1 {
		return "", false
	}
	for i := last + 1; i < h; i++ {
		if strings.TrimSpace(string(p.lines[i])) != "" {
			return "", false
		}
	}
	if !isHeading(string(p.lines[h]), string(p.lines[next])) {
		return "", false
	}
	return strings.TrimSpace(string(p.lines[h])), true
}
