package reference

import (
	"fmt"

	"github.com/kafkagrid/kafkagrid/internal/mono"
)

// fieldDiff is a field whose value differs between an edge case's frame and the example frame
// of its version and side, or that only one of them has.
type fieldDiff struct {
	Path   string // as a reader reads it (fieldInfo.Shown, else Path)
	Offset int    // in the edge case's frame; -1 for a field only the example has
	Was    string // the example's value; "" when only the edge case has the field
	Now    string // the edge case's value; "" when only the example has it
}

// exampleOf returns the book's example message of version v and the given side (cs: an API's
// contents, one per version in the book), nil when the book has none of that version.
func exampleOf(cs []*apiContent, v int16, response bool) *message {
	for _, c := range cs {
		if c.Version != v {
			continue
		}
		if response {
			return c.Response
		}
		return c.Request
	}
	return nil
}

// messageDiff lists what m changes in base, field by field (their annotated nodes, matched by
// path): the fields of m whose value differs or that base lacks, in m's byte order, then the
// fields of base that m lacks, in base's order. A length prefix or the frame's size that
// follows from a change is listed too: the listing says every byte that differs.
func messageDiff(base, m *message) []fieldDiff {
	was := make(map[string]fieldInfo, len(base.Fields))
	for _, f := range base.Fields {
		was[f.Path] = f
	}
	shown := func(f fieldInfo) string {
		if f.Shown != "" {
			return f.Shown
		}
		return f.Path
	}
	var out []fieldDiff
	now := make(map[string]bool, len(m.Fields))
	for _, f := range m.Fields {
		now[f.Path] = true
		b, ok := was[f.Path]
		switch {
		case !ok:
			out = append(out, fieldDiff{Path: shown(f), Offset: f.Offset, Now: orNone(f.Value)})
		case b.Value != f.Value:
			out = append(out, fieldDiff{Path: shown(f), Offset: f.Offset, Was: orNone(b.Value), Now: orNone(f.Value)})
		}
	}
	for _, f := range base.Fields {
		if !now[f.Path] {
			out = append(out, fieldDiff{Path: shown(f), Offset: -1, Was: orNone(f.Value)})
		}
	}
	return out
}

// orNone is a value as the listing prints it: a field without one (a struct) as "(struct)".
func orNone(v string) string {
	if v == "" {
		return "(no value)"
	}
	return v
}

// smallDiff reports whether an edge case's frame m is better read as the fields it changes in
// the example (diff) than drawn whole: when it changes at most a third of the example's fields
// and no more than maxListedDiff of them.
func smallDiff(diff []fieldDiff, m *message) bool {
	return len(diff) > 0 && len(diff) <= maxListedDiff && 3*len(diff) <= len(m.Fields)
}

// maxListedDiff is the most changed fields an edge case is listed by; one that changes more
// is drawn whole (a listing of more would be longer to read than the grid).
const maxListedDiff = 24

// Difference listing measures: the columns' widths (the edge case's value takes the rest).
const (
	diffPathW  = 196.0
	diffOffW   = 40.0
	diffWasW   = 118.0
	diffHeadH  = 14.0
	diffValues = 8.0 // mono size of every cell: no table text under 8 pt
	// diffKeep is what stays together at a listing's start: the frame's label, the sentence
	// (two lines at most), the heads and two rows.
	diffKeep = 18 + 2*12.5 + 4 + diffHeadH + 2*(fieldLead+fieldRowPad+1.5)
)

// diffListing prints an edge case's frame m as the fields it changes in the example base: a
// sentence naming the example, a table (field, offset, the example's value, this case's) with
// its rows kept whole and its heads repeated on a new page, and the frame's hex dump, so every
// byte is still on the page.
func (bk *book) diffListing(diff []fieldDiff, side string, base, m *message) {
	const size, lead = 9, 12.5
	bk.font(sansFont, "", size)
	bk.color(colInk)
	intro := fmt.Sprintf("The example's %s (%s, drawn above) but for %s, offsets in this frame:",
		side, base.Base, plural(len(diff), "field"))
	bk.y = bk.wrap(marginX, bk.y, bk.cw, intro, size, lead) + 4
	xs := []float64{0, diffPathW + fieldGap, diffPathW + diffOffW + 2*fieldGap, diffPathW + diffOffW + diffWasW + 3*fieldGap}
	nowW := bk.cw - xs[3]
	widths := []float64{diffPathW, diffOffW, diffWasW, nowW}
	heads := func() {
		bk.font(sansFont, "B", headSize)
		bk.color(colMuted)
		for i, h := range []string{"Field", "Offset", "Example", "This case"} {
			bk.text(marginX+xs[i], bk.y, h, headSize)
		}
		bk.y += diffHeadH - 3
		bk.rule(bk.y - 2)
	}
	heads()
	for _, d := range diff {
		off := "—"
		if d.Offset >= 0 {
			off = fmt.Sprintf("0x%04x", d.Offset)
		}
		was, now := d.Was, d.Now
		if was == "" {
			was = "(not in the example)"
		}
		if now == "" {
			now = "(not in this case)"
		}
		cells := []string{d.Path, off, was, now}
		var lines [4][]string
		n := 1
		for c, s := range cells {
			lines[c] = wrapPath(mono.Clean(s), mono.Fit(widths[c], diffValues))
			n = max(n, len(lines[c]))
		}
		h := float64(n)*fieldLead + fieldRowPad + 1.5
		if bk.y+h > bk.bottom {
			bk.newPage(bk.titles[len(bk.titles)-1])
			heads()
		}
		bk.font(monoFont, "", diffValues)
		for c, ls := range lines {
			bk.color(colInk)
			if c == 2 {
				bk.color(colMuted) // the example's value: what this case replaces
			}
			for k, l := range ls {
				bk.text(marginX+xs[c], bk.y+1.5+float64(k)*fieldLead, l, diffValues)
			}
		}
		bk.y += h
		bk.rule(bk.y - 2.5)
	}
	bk.y += 10
	bk.hexDump(m.Bytes)
}
