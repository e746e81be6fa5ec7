package rfcart

import (
	"regexp"
	"strings"
	"sync"
)

// byteUnitRE is the unit a ruler of byte offsets may end with: "(BYTE)", "(bytes)", "octets".
var byteUnitRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^\(?(bytes?|octets?)\)?$`)
})

// isUnitRuler reports whether s (trimmed) is a ruler of numbers followed by a byte unit
// ("0   4   5   6   8 (BYTE)").
func isUnitRuler(s string) bool {
	ws := strings.Fields(s)
	return len(ws) > 2 && byteUnitRE().MatchString(ws[len(ws)-1]) && isRuler(strings.Join(ws[:len(ws)-1], " "))
}

// byteRuler reads a ruler of bytes over a grid of byte boxes, which no bit ruler is: the
// bytes' numbers 0, 1, 2, … each over the start of its box (RFC 2205's RSVP objects, boxes of
// fourteen columns: "0             1              2             3"), or the bytes' offsets
// each over its boundary, a unit after them (the KCP spec's "0   4   5   6   8 (BYTE)" over
// boxes of four columns a byte). Either gives the columns of a byte; the ruler is kept as
// printed above the grid, which is read a byte a box of those columns.
func byteRuler(p *parser, first int, above []string) (int, []string) {
	if first == 0 || p.lines[first-1] == nil {
		return first, above
	}
	ruler, rule := p.lines[first-1], p.lines[first]
	edges := ruleEdges(rule)
	words := strings.Fields(string(ruler))
	if len(edges) < 2 || len(words) < 2 {
		return first, above
	}
	unit := byteUnitRE().MatchString(words[len(words)-1])
	if unit {
		ruler = []rune(strings.TrimRight(string(ruler), " "))
		ruler = ruler[:len(ruler)-len([]rune(words[len(words)-1]))]
	}
	nums := numbers(ruler)
	if len(nums) != len(strings.Fields(string(ruler))) || len(nums) < 2 {
		return first, above
	}
	x, width := edges[0], edges[len(edges)-1]-edges[0]
	bc := 0
	switch {
	case byteNumbers(nums, x, width):
		bc = width / len(nums)
	case unit:
		bc = byteOffsets(nums, x, width)
	}
	if bc < 3 {
		return first, above
	}
	above = append(above, string(p.lines[first-1]))
	p.lines[first-1] = nil
	p.bytes, p.byteCols = true, bc
	return first, above
}

// byteNumbers reports whether nums count the bytes 0, 1, 2, … of a row width columns wide
// from column x, each within two columns of its byte's start, the bytes nine columns or
// more (narrower, they are bits).
func byteNumbers(nums []number, x, width int) bool {
	n := len(nums)
	if width%n != 0 || width/n < 9 {
		return false
	}
	bc := width / n
	for k, m := range nums {
		if from := x + k*bc; m.v != k || m.start < from-2 || m.start >= from+bc {
			return false // (each over its box: at its start, RFC 2205's objects, or mid-box, its common header)
		}
	}
	return true
}

// byteOffsets returns the columns of a byte when nums are offsets from 0 each standing at its
// boundary, x + offset × columns, the last at the row's end; 0 when they are not.
func byteOffsets(nums []number, x, width int) int {
	last := nums[len(nums)-1].v
	if nums[0].v != 0 || nums[0].start != x || last == 0 || width%last != 0 {
		return 0
	}
	bc := width / last
	for k, m := range nums {
		if k > 0 && m.v <= nums[k-1].v || m.start != x+m.v*bc {
			return 0
		}
	}
	return bc
}
