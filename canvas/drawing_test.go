package canvas_test

import (
	"fmt"
	"testing"

	"github.com/kafkagrid/kafkagrid/canvas"
)

// rows is a Drawing of n rows of 10 pt under a 5 pt heading, in which a part may not start at
// the rows of joined.
type rows struct {
	n      int
	joined map[int]bool
}

func (r rows) Size() (w, h canvas.Pt)            { return 100, r.PartHeight(0, r.n) }
func (r rows) NumRows() int                      { return r.n }
func (r rows) PartHeight(from, to int) canvas.Pt { return 5 + canvas.Pt(10*(to-from)) }
func (r rows) PaintRows(canvas.Canvas, int, int) {}
func (r rows) BreakBefore(i int) bool            { return !r.joined[i] }
func (r rows) Info() canvas.Info                 { return canvas.Info{} }

func TestPaginate(t *testing.T) {
	joined := map[int]bool{3: true, 7: true}
	tests := []struct {
		name        string
		d           rows
		first, next canvas.Pt
		want        string
	}{
		{"fits", rows{10, joined}, 200, 200, "[{0 10}]"},
		{"cut where the room ends, a free row", rows{10, joined}, 45, 105, "[{0 4} {4 10}]"},
		{"back off a joined row", rows{10, joined}, 35, 45, "[{0 2} {2 6} {6 10}]"},
		{"one row a part", rows{10, joined}, 5, 5, "[{0 1} {1 2} {2 3} {3 4} {4 5} {5 6} {6 7} {7 8} {8 9} {9 10}]"},
		{"no free row: cut where the room ends", rows{4, map[int]bool{1: true, 2: true, 3: true}}, 25, 25, "[{0 2} {2 4}]"},
		{"every row free", rows{6, nil}, 35, 35, "[{0 3} {3 6}]"},
		{"no rows", rows{0, nil}, 100, 100, "[]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := canvas.Paginate(tt.d, tt.first, tt.next)
			if s := fmt.Sprint(got); s != tt.want {
				t.Errorf("Paginate(%g, %g) = %s, want %s", tt.first, tt.next, s, tt.want)
			}
		})
	}
}

// named is rows with a title and description of its own.
type named struct{ rows }

func (named) Info() canvas.Info { return canvas.Info{Title: "Own", Desc: "own desc"} }

// TestPartOf: the whole drawing for the zero Span, else the run's rows and height; the title
// and description given, else the drawing's.
func TestPartOf(t *testing.T) {
	d := named{rows{n: 4}}
	for _, tc := range []struct {
		rows        canvas.Span
		title, desc string
		want        canvas.Part
	}{
		{canvas.Span{}, "", "", canvas.Part{From: 0, To: 4, Width: 100, Height: 45, Title: "Own", Desc: "own desc"}},
		{canvas.Span{From: 1, To: 3}, "T", "", canvas.Part{From: 1, To: 3, Width: 100, Height: 25, Title: "T", Desc: "own desc"}},
		{canvas.Span{From: 3, To: 4}, "", "D", canvas.Part{From: 3, To: 4, Width: 100, Height: 15, Title: "Own", Desc: "D"}},
	} {
		if got := canvas.PartOf(d, tc.rows, tc.title, tc.desc); got != tc.want {
			t.Errorf("PartOf(%v, %q, %q) = %+v, want %+v", tc.rows, tc.title, tc.desc, got, tc.want)
		}
	}
}

// A backend's Write takes the part it writes from PartOf: here rows 1 and 2 of a drawing of
// four, under its own title.
func ExamplePartOf() {
	p := canvas.PartOf(named{rows{n: 4}}, canvas.Span{From: 1, To: 3}, "", "")
	fmt.Printf("rows %d-%d, %g × %g pt, %q\n", p.From, p.To, p.Width, p.Height, p.Title)
	// Output: rows 1-3, 100 × 25 pt, "Own"
}
