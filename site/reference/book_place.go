package reference

import (
	"strings"

	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/canvas/pdfcanvas"
	"github.com/kafkagrid/kafkagrid/internal/mono"
	"github.com/kafkagrid/kafkagrid/site"
	"github.com/kafkagrid/kafkagrid/tree"
)

// treeWidth is the width every tree of the book is drawn as if it had: one scale for all
// trees (the page width over treeWidth: 7.5 pt text on A4), so that their text is the same size
// in every chapter. It holds nine in ten trees of a release whole (their widths at 12 pt run
// from about 500 to 930 points, the tenth widest 800). A wider tree is not shrunk: it is
// printed in two column windows at the same scale (treeWindows), the second continuing the
// first.
const treeWidth = 800

// scaleOf returns the scale d is drawn at: the page width over the wider of d and ref (0 for
// d's own width), never enlarged. For trees (ref treeWidth) place keeps this scale also when d
// is wider, cutting it into column windows.
func (bk *book) scaleOf(d site.Figure, ref float64) float64 {
	w, _ := figSize(d)
	return min(1, bk.cw/max(w, ref))
}

// span is a run of a drawing's x coordinates, [from, to).
type span struct{ from, to float64 }

// window is a horizontal slice of a drawing printed as one: its spans of the drawing's x, side
// by side, and a caption note.
type window struct {
	spans []span
	note  string
}

// treeWindows cuts a tree wider than ref into column windows at most ref wide, cut between
// columns, never in one: the first holds the Name column (the tree itself: labels and values)
// and as many columns after it as fit; the second the Name column again, so that each row is
// still known, and the columns left, joined with a dashed rule. It returns nil when the tree is
// not wider than ref, is not set in columns (canvas.Columned), or cannot be cut so (a Name
// column near ref wide), and the caller then scales it down to fit instead.
func treeWindows(d site.Figure, ref float64) []window {
	t, ok := d.Drawing.(canvas.Columned)
	w, _ := figSize(d)
	if !ok || w <= ref {
		return nil
	}
	cols := t.ColumnSpans()
	if len(cols) < 2 {
		return nil
	}
	// edge(i) is the boundary after column i: midway to the next column, the drawing's edge
	// after the last.
	edge := func(i int) float64 {
		if i+1 >= len(cols) {
			return w
		}
		return float64(cols[i].X+cols[i].W+cols[i+1].X) / 2
	}
	k := 0 // the last column of the first window
	for k+1 < len(cols) && edge(k+1) <= ref {
		k++
	}
	if k == 0 || k+1 >= len(cols) {
		return nil
	}
	first := window{spans: []span{{0, edge(k)}}}
	second := window{spans: []span{{0, edge(0)}, {edge(k), w}}}
	if edge(0)+w-edge(k) > ref {
		return nil
	}
	var names []string
	for _, c := range cols[k+1:] {
		names = append(names, c.Name)
	}
	rest := strings.Join(names, ", ")
	if len(names) == 1 {
		first.note = " (its " + rest + " column follows it)"
	} else {
		first.note = " (its " + rest + " columns follow it)"
	}
	second.note = ": " + cols[0].Name + " and " + rest
	return []window{first, second}
}

// place draws a drawing scaled to the page width as if it were ref wide (scaleOf; never
// enlarged), split between rows across pages when it does not fit. A tree wider than ref is
// printed at the same scale in column windows (treeWindows), one after the other.
func (bk *book) place(caption string, d site.Figure, ref float64) {
	w, _ := figSize(d)
	if w <= 0 {
		return
	}
	scale := bk.scaleOf(d, ref)
	wins := treeWindows(d, ref)
	if len(wins) > 0 {
		scale = min(1, bk.cw/ref)
	} else {
		wins = []window{{spans: []span{{0, w}}}}
	}
	for wi, win := range wins {
		if bk.breaksBefore(d, bk.y, scale) {
			bk.newPage(bk.titles[len(bk.titles)-1])
		}
		parts := func(s float64) []canvas.Span { return bk.paginate(d, s) }
		ps := parts(scale)
		// A drawing that runs a page longer only by its last few rows (a page holding one
		// grid row) is drawn a little smaller instead (bookShrinkSteps).
		if len(ps) > 1 && len(wins) == 1 {
			for _, f := range bookShrinkSteps {
				if scale*f < minScale(d) {
					break
				}
				if q := parts(scale * f); len(q) < len(ps) {
					scale *= f
					ps = q
					break
				}
			}
		}
		for i, p := range ps {
			if i > 0 {
				bk.newPage(bk.titles[len(bk.titles)-1])
			}
			cap := caption + win.note
			switch {
			case wi > 0 && i == 0:
				cap = caption + ", continued" + win.note
			case i > 0:
				cap += " (continued)"
			}
			bk.caption(cap)
			h := float64(d.PartHeight(p.From, p.To)) * scale
			x := marginX
			for si, sp := range win.spans {
				sw := (sp.to - sp.from) * scale
				clip := len(win.spans) > 1 || sp.from > 0 || sp.to < w
				if clip {
					bk.pdf.ClipRect(x, bk.y, sw, h, false)
					// The clip's q…Q restores the page's font; make fpdf set the drawing's anew.
					bk.pdf.SetFont(sansFont, "", 1)
				}
				var err error
				if clip {
					// Only the text runs inside the span are written: the clip hides the others,
					// but a reader's search and copy would still find them.
					c := pdfcanvas.New(bk.pdf, x-sp.from*scale, bk.y, scale, pdfcanvas.Options{})
					d.PaintRows(spanCanvas{c, canvas.Pt(sp.from), canvas.Pt(sp.to)}, p.From, p.To)
					err = c.Close()
					bk.pdf.ClipEnd()
				} else {
					_, err = pdfcanvas.Place(bk.pdf, d.Drawing, pdfcanvas.Placement{Rows: p, X: x, Y: bk.y, Scale: scale})
				}
				if err != nil {
					return // fpdf keeps the error; the chapter loop reports it
				}
				if si > 0 {
					// The join between windows: a dashed rule where columns were left out.
					bk.pdf.SetDrawColor(int(colMuted.R), int(colMuted.G), int(colMuted.B))
					bk.pdf.SetLineWidth(0.6)
					bk.pdf.SetDashPattern([]float64{2, 2}, 0)
					bk.pdf.Line(x, bk.y, x, bk.y+h)
					bk.pdf.SetDashPattern(nil, 0)
				}
				x += sw
			}
			bk.y += h + 14
		}
	}
}

// paginate cuts d, drawn at scale from the cursor on, into the parts its pages hold: as
// canvas.Paginate does, each part as many rows as fit and cut where d allows (BreakBefore),
// except where that cut would end a page above half its text area (a grid whose fields run on
// from row to row may allow its first cut only a few rows down): that part takes all the rows
// that fit, and the field cut there is drawn open at both ends of the break, as PaintRows draws
// a field that runs on beyond a part, the caption's "(continued)" saying so.
func (bk *book) paginate(d site.Figure, scale float64) []canvas.Span {
	half := marginTop + (bk.bottom-marginTop)/2
	n := d.NumRows()
	var parts []canvas.Span
	top := bk.y + captionH
	for from := 0; from < n; {
		avail := canvas.Pt((bk.bottom - top) / scale)
		to := from + 1
		for to < n && d.PartHeight(from, to+1) <= avail {
			to++
		}
		if to < n {
			for k := to; k > from; k-- {
				if d.BreakBefore(k) {
					if top+float64(d.PartHeight(from, k))*scale >= half {
						to = k
					}
					break
				}
			}
		}
		parts = append(parts, canvas.Span{From: from, To: to})
		from, top = to, marginTop+captionH
	}
	return parts
}

// spanCanvas passes on the text runs that lie within [from, to] of a drawing's x and drops the
// others; shapes pass whole (the window's clip cuts them). Text is Go Mono, so a run's width
// is measured as every painter measures it.
type spanCanvas struct {
	canvas.Canvas
	from, to canvas.Pt
}

func (s spanCanvas) Text(x, y canvas.Pt, t canvas.Text) {
	w := canvas.Pt(mono.Width(t.S, float64(t.Size)))
	l := x
	switch {
	case t.Turned: // upright: a line's height across, its glyphs left of the baseline at x
		l, w = x-t.Size, t.Size
	case t.Anchor == canvas.Middle:
		l -= w / 2
	case t.Anchor == canvas.End:
		l -= w
	}
	if l >= s.from-0.5 && l+w <= s.to+0.5 {
		s.Canvas.Text(x, y, t)
	}
}

// breaksBefore reports whether place, called with the cursor at y, would start d on a new
// page: when little of the page is left, or when d would fit whole on a fresh page but less
// than a third of it fits here; never while the cursor is above the middle of the text area,
// which would leave a page more than half blank.
func (bk *book) breaksBefore(d site.Figure, y, scale float64) bool {
	w, h := figSize(d)
	if w <= 0 {
		return false
	}
	h *= scale
	first := bk.bottom - y - captionH
	full := bk.bottom - marginTop - captionH
	if h <= first {
		return false
	}
	if y < marginTop+(bk.bottom-marginTop)/2 {
		return false // a page would end above half its text area: split the drawing instead
	}
	return first < 0.15*full || (h <= full && first < 0.3*h)
}

// bookShrinkSteps are the scales, relative to its own, a drawing may take in the book to end
// a page sooner (place): at most 10% smaller, and a tree never under minScale.
var bookShrinkSteps = []float64{0.97, 0.94, 0.9}

// bookTreeText is the smallest size a tree's text (and the group letters in its chips, drawn
// at the text's size) is printed at when a tree is drawn smaller to end a page sooner.
const bookTreeText = 7.0

// minScale is the smallest scale place may shrink d to: a tree's text stays at bookTreeText
// or more; other drawings have no floor but bookShrinkSteps.
func minScale(d site.Figure) float64 {
	if t, ok := d.Drawing.(*tree.Diagram); ok && t.FontSize > 0 {
		return bookTreeText / float64(t.FontSize)
	}
	return 0
}

func (bk *book) caption(s string) {
	bk.font(sansFont, "B", 8.5)
	bk.color(colMuted)
	bk.text(marginX, bk.y, s, 8.5)
	bk.y += captionH
}
