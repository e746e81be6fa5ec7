package rfcart

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/kafkagrid/kafkagrid/bytegrid"
)

// altCountsRE is a choice of bare counts in a label: RFC 6455's "(16/64)", the extended
// payload length that is 16 or 64 bits.
var altCountsRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\(((?:\d{1,4}/)+\d{1,4})\)`) })

// readAltCounts reads a label giving a choice of counts, "(16/64)", in the unit of the
// figure's other bare counts ("opcode (4)" over four bits: bits), as a variable field of
// those sizes (MinBits, MaxBits), when the box is drawn at one of them; drawn at none, it is
// read at its drawn size and said.
func readAltCounts(p *parser, f bytegrid.Field, at textAt) ([]bytegrid.Field, error) {
	m := altCountsRE().FindStringSubmatch(strings.ReplaceAll(f.Name, "\n", " "))
	if m == nil || p.parenUnit == 0 || f.Variable {
		return []bytegrid.Field{f}, nil
	}
	var sizes []int
	for _, s := range strings.Split(m[1], "/") {
		v, _ := strconv.Atoi(s)
		sizes = append(sizes, v*p.parenUnit)
	}
	if !slices.Contains(sizes, f.Bits) {
		p.warn(at.line, at.col, "%q is drawn %s wide and its label says %s: read at its drawn width", firstLine(f.Name), plural(f.Bits, "bit"), m[0])
		return []bytegrid.Field{f}, nil
	}
	f.Variable, f.MinBits, f.MaxBits = true, slices.Min(sizes), slices.Max(sizes)
	p.keepEdges(&f)
	return []bytegrid.Field{f}, nil
}
