package canvas

// Drawing is a laid-out diagram: the one thing output code takes. A byte grid
// (bytegrid.Diagram) and a tree (tree.Diagram) are both a Drawing, so the SVG document
// (svgcanvas.Write), the PDF document and its placement (pdfcanvas.Write, pdfcanvas.Place) and
// page breaking (Paginate) are each written once, here and beside the backends, not once per
// diagram.
//
// A Drawing is a stack of rows under a heading repeated on every part (the grid's bit ruler,
// the tree's column header), possibly closed by a footer on the last part (the grid's
// legend). It can be painted whole, or as a run of rows [from, to) with its own top-left
// corner at the origin, so a tall drawing continues across pages.
type Drawing interface {
	// Size returns the width and height of the whole drawing, PaintRows(c, 0, NumRows()).
	Size() (w, h Pt)
	// NumRows returns the number of rows.
	NumRows() int
	// PartHeight returns the height that PaintRows(c, from, to) draws: the heading, the rows
	// and, when to is NumRows(), the footer.
	PartHeight(from, to int) Pt
	// PaintRows paints rows [from, to) under the heading, with the part's top-left corner at
	// the origin.
	PaintRows(c Canvas, from, to int)
	// BreakBefore reports whether a part may start at row i, 0 < i < NumRows(), without
	// cutting an item (a grid field that continues from the row above) in two.
	BreakBefore(i int) bool
	// Info returns what a document around the drawing says of it.
	Info() Info
}

// Columned is an optional capability of a Drawing set in columns side by side (a tree's
// name, offset, length and type columns): a document too narrow for the drawing may print it
// in windows cut between columns (the book does) instead of shrinking its text. Ask for it
// with a type assertion, d.(canvas.Columned); a drawing without it is only ever scaled.
type Columned interface {
	Drawing
	// ColumnSpans returns the drawing's columns, left to right: each one's header name, left
	// edge and width.
	ColumnSpans() []ColumnSpan
}

// ColumnSpan is one column of a Columned drawing.
type ColumnSpan struct {
	Name string
	X, W Pt
}

// Rowed is an optional capability of a Drawing whose rows a document may point at (the book
// numbers rows of its guide's byte grid): where each row lies, painted whole.
type Rowed interface {
	Drawing
	// RowSpans returns each row's top and height, from the top of the whole drawing.
	RowSpans() []RowSpan
}

// RowSpan is one row of a Rowed drawing.
type RowSpan struct{ Y, H Pt }

// Info is what a document says of a drawing besides painting it.
type Info struct {
	// Class names the kind of drawing ("kg-grid", "kg-tree"): the SVG root's extra class.
	Class string
	// CSS is the drawing's own SVG style rules (hover highlights), scoped under Class.
	CSS string
	// Title and Desc are the default accessible name and description.
	Title, Desc string
}

// Span is a run of rows [From, To): one part of a drawing.
type Span struct{ From, To int }

// Part is what one document of a drawing holds: the rows [From, To), their size, and the title
// and description that name it.
type Part struct {
	From, To      int
	Width, Height Pt
	Title, Desc   string
}

// PartOf is the part rows of d (the zero Span: the whole drawing) named title and desc, or
// where they are empty the drawing's own (Info): what each backend's Write writes.
func PartOf(d Drawing, rows Span, title, desc string) Part {
	info := d.Info()
	if title == "" {
		title = info.Title
	}
	if desc == "" {
		desc = info.Desc
	}
	p := Part{From: 0, To: d.NumRows(), Title: title, Desc: desc}
	p.Width, p.Height = d.Size()
	if rows != (Span{}) {
		p.From, p.To = rows.From, rows.To
		p.Height = d.PartHeight(rows.From, rows.To)
	}
	return p
}

// Paginate cuts d into parts that fit, heading included, in height first (the room left on
// the current page) and then next (a fresh page). It is the one page-breaking rule of every
// output (the PDF pages, the book, the printed parts of an HTML page):
//
//   - a part takes as many rows as fit, and always at least one, even a row that does not fit;
//   - when the rows go on after it, the part ends before the last row it holds where a break is
//     allowed (BreakBefore), so that no item is cut while a cut between items exists in the
//     part: white space at the foot of a page reads better than a field in two halves. A part
//     with no allowed break at all is cut where the room ends.
//
// It returns one part for a drawing that fits in first, and nil for a drawing without rows.
func Paginate(d Drawing, first, next Pt) []Span {
	n := d.NumRows()
	var parts []Span
	avail := first
	for from := 0; from < n; {
		to := from + 1
		for to < n && d.PartHeight(from, to+1) <= avail {
			to++
		}
		if to < n {
			for k := to; k > from; k-- {
				if d.BreakBefore(k) {
					to = k
					break
				}
			}
		}
		parts = append(parts, Span{from, to})
		from, avail = to, next
	}
	return parts
}
