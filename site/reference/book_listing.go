package reference

import (
	"strings"

	"github.com/kafkagrid/kafkagrid/site"
)

// hexDump prints a frame's bytes as a hex dump (offset, 16 bytes, their ASCII), after its
// drawings, in the schema's small mono; it moves whole to the next page when it would leave
// fewer than four lines here.
func (bk *book) hexDump(b []byte) {
	lines := strings.Split(strings.TrimRight(site.HexDump(b), "\n"), "\n")
	if bk.y+captionH+float64(min(len(lines), 4))*schemaLead > bk.bottom {
		bk.newPage(bk.titles[len(bk.titles)-1])
	}
	bk.caption("Hex dump")
	for _, l := range lines {
		if bk.y+schemaLead > bk.bottom {
			bk.newPage(bk.titles[len(bk.titles)-1])
		}
		bk.font(monoFont, "", schemaSize)
		bk.color(colInk)
		bk.text(marginX, bk.y, l, schemaSize)
		bk.y += schemaLead
	}
	bk.y += 14
}
