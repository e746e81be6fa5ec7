package tree

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/internal/mono"
)

// Check verifies the geometry of d: every text run is measured as mono measures it and lies
// inside its column and its row (or the header); the runs of a row do not overlap one another
// or the chip, and a group letter fits its chip; columns lie side by side inside the drawing; rows follow one another without
// overlapping; connectors lie in the name column and point down. It reports at most ten
// problems, joined, or nil. The lead runs it over every generated tree.
func (d *Diagram) Check() error {
	var errs []error
	bad := func(format string, a ...any) bool {
		if len(errs) < 10 {
			errs = append(errs, fmt.Errorf("tree: check: "+format, a...))
		}
		return len(errs) < 10
	}
	const eps = 0.01
	if len(d.Columns) != numCols {
		bad("%d columns, want %d", len(d.Columns), numCols)
		return errors.Join(errs...)
	}
	var prev canvas.Pt
	for i, c := range d.Columns {
		if c.X < prev-eps || c.W < 0 {
			bad("column %q at %g (width %g) overlaps the one before (ends %g)", c.Name, c.X, c.W, prev)
		}
		prev = c.X + c.W
		if i == len(d.Columns)-1 && prev > d.Width+eps {
			bad("column %q ends at %g, past the width %g", c.Name, prev, d.Width)
		}
	}
	// where names row i (-1: the header) in a message; only called on a fault.
	where := func(i int) string {
		if i < 0 {
			return "header"
		}
		return fmt.Sprintf("row %d (%q)", i, d.Rows[i].Label)
	}
	checkRuns := func(i int, runs []Run, top, h canvas.Pt, chip *Box) bool {
		type span struct {
			l, r canvas.Pt
			s    string
		}
		spans := make([]span, 0, len(runs)+1)
		if chip != nil {
			spans = append(spans, span{chip.X, chip.X + chip.W, "chip"})
		}
		for _, r := range runs {
			if r.Col < 0 || r.Col >= len(d.Columns) {
				return bad("%s: run %q in column %d of %d", where(i), r.S, r.Col, len(d.Columns))
			}
			if want := canvas.Pt(mono.Width(r.S, float64(d.FontSize))); math.Abs(float64(want-r.W)) > eps {
				return bad("%s: run %q measured %g, mono says %g", where(i), r.S, r.W, want)
			}
			c := d.Columns[r.Col]
			l := r.Left()
			if l < c.X-eps || l+r.W > c.X+c.W+eps {
				return bad("%s: run %q [%g, %g] leaves column %q [%g, %g]", where(i), r.S, l, l+r.W, c.Name, c.X, c.X+c.W)
			}
			if r.Y-mono.Ascent*d.FontSize < top-eps || r.Y+mono.Descent*d.FontSize > top+h+eps {
				return bad("%s: run %q at baseline %g leaves its row [%g, %g]", where(i), r.S, r.Y, top, top+h)
			}
			spans = append(spans, span{l, l + r.W, r.S})
		}
		sort.Slice(spans, func(i, j int) bool { return spans[i].l < spans[j].l })
		for i := 1; i < len(spans); i++ {
			if spans[i].l < spans[i-1].r-eps {
				return bad("%s: %q overlaps %q", where(i), spans[i].s, spans[i-1].s)
			}
		}
		return true
	}
	if !checkRuns(-1, d.Header, 0, d.HeaderH, nil) {
		return errors.Join(errs...)
	}
	bottom := d.HeaderH
	for i := range d.Rows {
		r := &d.Rows[i]
		if r.Y < bottom-eps {
			if !bad("%s: top %g overlaps the row above (ends %g)", where(i), r.Y, bottom) {
				break
			}
		}
		bottom = r.Y + r.H
		c := d.Columns[ColName]
		if r.Chip.X < c.X-eps || r.Chip.X+r.Chip.W > c.X+c.W+eps || r.Chip.Y < r.Y-eps || r.Chip.Y+r.Chip.H > bottom+eps {
			if !bad("%s: chip leaves its cell", where(i)) {
				break
			}
		}
		if r.Mark != "" && (r.MarkSize <= 0 || canvas.Pt(mono.Width(r.Mark, float64(r.MarkSize))) > r.Chip.W+eps || r.MarkSize > r.Chip.H+eps) {
			if !bad("%s: group letter %q at %g pt does not fit its chip", where(i), r.Mark, r.MarkSize) {
				break
			}
		}
		if !checkRuns(i, r.Runs, r.Y, r.H, &r.Chip) {
			break
		}
	}
	if bottom > d.Height+eps {
		bad("rows end at %g, past the height %g", bottom, d.Height)
	}
	for _, ru := range d.Rules {
		c := d.Columns[ColName]
		if ru.From < 0 || ru.To >= len(d.Rows) || ru.From >= ru.To || ru.Y1 > ru.Y2 || ru.X < c.X || ru.X > c.X+c.W {
			if !bad("connector %+v is out of place", ru) {
				break
			}
		}
	}
	return errors.Join(errs...)
}
