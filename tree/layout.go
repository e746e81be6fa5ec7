package tree

import (
	"fmt"
	"strconv"

	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/internal/arena"
	"github.com/kafkagrid/kafkagrid/internal/mono"
	"github.com/kafkagrid/kafkagrid/style"
)

// Limits on the input Layout accepts.
const (
	MaxDepth = 10000   // deepest nesting below the root
	MaxRows  = 1 << 22 // most visible rows (about four million)
)

// Options configure a layout. The zero value means the defaults.
type Options struct {
	// FontSize is the size of all text; 0 means 12 pt. Every other measure scales with it.
	FontSize canvas.Pt
	// HideFraming leaves out framing nodes (Kind.Framing); their children move up a level.
	HideFraming bool
	// GroupColors maps a node's Group to its colour index (style.Group), so that the tree
	// uses the byte grid's colours. Groups it lacks take, in order of first appearance, the
	// next index no listed group uses, as in package bytegrid.
	GroupColors map[string]int
	// MaxLabel, MaxValue and MaxType are the most runes drawn of a label, value and type
	// before they are cut with an ellipsis; 0 means 48, 40 and 24.
	MaxLabel, MaxValue, MaxType int
	// Title names the drawing (the SVG <title>); it is not drawn.
	Title string
	// Narrow draws the Name, Offset and Length columns only: the decimal offset and the
	// wire type (still in each row's tooltip) are left out, their columns zero wide, so that
	// the tree fits a narrow column (a README on a phone) at a readable size. WriteText writes
	// every column whatever this says.
	Narrow bool
}

func (o Options) withDefaults() Options {
	if o.FontSize <= 0 {
		o.FontSize = 12
	}
	if o.MaxLabel <= 0 {
		o.MaxLabel = 48
	}
	if o.MaxValue <= 0 {
		o.MaxValue = 40
	}
	if o.MaxType <= 0 {
		o.MaxType = 24
	}
	return o
}

// Column indexes into Diagram.Columns.
const (
	ColName   = iota // chip, label and value (left aligned, indented)
	ColOffset        // offset in hex (right aligned)
	ColDec           // offset in decimal (right aligned)
	ColLength        // length in bytes (right aligned)
	ColType          // wire type (left aligned)
	numCols
)

// A Column is one column of the drawing, with its header text.
type Column struct {
	Name  string        `json:"name"`
	X     canvas.Pt     `json:"x"` // left edge
	W     canvas.Pt     `json:"w"`
	Align canvas.Anchor `json:"align"` // canvas.Start or canvas.End
}

var _ canvas.Columned = (*Diagram)(nil)

// ColumnSpans returns the drawing's columns for a document that cuts a wide tree between
// them (canvas.Columned).
func (d *Diagram) ColumnSpans() []canvas.ColumnSpan {
	cs := make([]canvas.ColumnSpan, len(d.Columns))
	for i, c := range d.Columns {
		cs[i] = canvas.ColumnSpan{Name: c.Name, X: c.X, W: c.W}
	}
	return cs
}

// A Box is a rectangle with its top-left corner at (X, Y).
type Box struct {
	X canvas.Pt `json:"x"`
	Y canvas.Pt `json:"y"`
	W canvas.Pt `json:"w"`
	H canvas.Pt `json:"h"`
}

// A Run is one measured text run.
type Run struct {
	Col    int           `json:"col"` // the column it belongs to
	X      canvas.Pt     `json:"x"`   // anchor point: the left end, or the right end if Anchor is End
	Y      canvas.Pt     `json:"y"`   // baseline
	W      canvas.Pt     `json:"w"`   // measured width
	Anchor canvas.Anchor `json:"anchor,omitempty"`
	S      string        `json:"s"` // clean text, drawn as is
	Fill   style.Role    `json:"fill"`
	Class  string        `json:"class,omitempty"`
}

// Left returns the x of the run's left end.
func (r Run) Left() canvas.Pt {
	switch r.Anchor {
	case canvas.End:
		return r.X - r.W
	case canvas.Middle:
		return r.X - r.W/2
	}
	return r.X
}

// A Row is one node's line of the drawing. Coordinates are those of the whole drawing (Paint);
// PaintRows shifts them.
type Row struct {
	Y      canvas.Pt `json:"y"` // top
	H      canvas.Pt `json:"h"`
	Depth  int       `json:"depth"`  // 0 for the root
	Parent int       `json:"parent"` // index of the parent row; -1 for the root
	Last   bool      `json:"last"`   // the last child of its parent
	Kind   Kind      `json:"kind"`
	Color  int       `json:"color"` // group colour index (style.Group)
	// Path, Offset and Length are the node's, for data attributes.
	Path   string `json:"path,omitempty"`
	Offset int    `json:"offset"`
	Length int    `json:"length"`
	// Label, Value and Type are clean and cut to their maximum, as drawn.
	Label string `json:"label"`
	Value string `json:"value,omitempty"`
	Type  string `json:"type,omitempty"`
	// Title is the tooltip: path, type, offset, length, whole value and description.
	Title string `json:"title"`
	Chip  Box    `json:"chip"`
	// Mark is the group's letter (style.GroupMark), drawn in the chip of a row that starts a
	// group (its group differs from its parent's), so that groups read without colour; ""
	// on other rows and in a tree of fewer than two groups. MarkSize is its text size.
	Mark     string    `json:"mark,omitempty"`
	MarkSize canvas.Pt `json:"markSize,omitempty"`
	// Elbow is the horizontal connector from the parent's rule to the chip, at ElbowY;
	// absent (X1 == X2) on the root.
	ElbowX1 canvas.Pt `json:"elbowX1,omitempty"`
	ElbowX2 canvas.Pt `json:"elbowX2,omitempty"`
	ElbowY  canvas.Pt `json:"elbowY,omitempty"`
	Runs    []Run     `json:"runs"`
}

// A Rule is the vertical connector of a parent: from below the chip of row From down to the
// elbow of its last child, row To.
type Rule struct {
	X    canvas.Pt `json:"x"`
	From int       `json:"from"`
	To   int       `json:"to"`
	Y1   canvas.Pt `json:"y1"`
	Y2   canvas.Pt `json:"y2"`
}

// A Diagram is a laid-out tree: plain geometry in points, origin top left, y down.
type Diagram struct {
	Title    string    `json:"title,omitempty"`
	Width    canvas.Pt `json:"width"`
	Height   canvas.Pt `json:"height"`
	FontSize canvas.Pt `json:"fontSize"`
	// HeaderH is the height of the column header, drawn at the top of every part.
	HeaderH canvas.Pt `json:"headerH"`
	Columns []Column  `json:"columns"`
	Header  []Run     `json:"header"`
	Rows    []Row     `json:"rows"`
	Rules   []Rule    `json:"rules"`
}

// metrics are the measures of a layout, all derived from the font size.
type metrics struct {
	size, rowH, padX, indent, chip, gap, colGap, base canvas.Pt
}

func newMetrics(size canvas.Pt) metrics {
	return metrics{
		size:   size,
		rowH:   canvas.Round(size * 5 / 3),         // 20 at 12 pt
		padX:   canvas.Round(size * 2 / 3),         // 8
		indent: canvas.Round(size * 4 / 3),         // 16
		chip:   canvas.Round(size * 2 / 3),         // 8
		gap:    canvas.Round(size / 2),             // 6
		colGap: canvas.Round(size * 5 / 3),         // 20
		base:   canvas.Round(size*5/6 + size*0.35), // baseline below the row top: 14.2
	}
}

// flat is a visible node before geometry.
type flat struct {
	n      *Node
	depth  int
	parent int
	color  int
	group  string
}

// twoGroups reports whether rows hold two groups or more.
func twoGroups(rows []flat) bool {
	first := ""
	for _, f := range rows {
		if f.group == "" {
			continue
		}
		if first == "" {
			first = f.group
		} else if f.group != first {
			return true
		}
	}
	return false
}

// columns sets d's columns side by side (the name column nameW wide, the others as wide as
// their widest text, in runes; a column not shown zero wide), its width and its header.
func (d *Diagram) columns(m metrics, names [numCols]string, wide [numCols]int, nameW canvas.Pt, shown func(int) bool) {
	d.Columns = make([]Column, numCols)
	x := m.padX
	for c := 0; c < numCols; c++ {
		w := nameW
		if c != ColName {
			w = 0
			if shown(c) {
				w = m.width(wide[c])
				x = canvas.Round(x + m.colGap)
			}
		}
		w = ceil(w)
		align := canvas.End
		if c == ColName || c == ColType {
			align = canvas.Start
		}
		d.Columns[c] = Column{Name: names[c], X: x, W: w, Align: align}
		x = canvas.Round(x + w)
	}
	d.Width = ceil(x + m.padX)
	d.Header = make([]Run, 0, numCols)
	for c, col := range d.Columns {
		if shown(c) {
			d.Header = append(d.Header, m.run(c, col, 0, names[c], style.Muted, "head"))
		}
	}
}

// Layout lays out the tree under root. It fails on a nil root, a negative offset or length,
// or a tree deeper than MaxDepth or larger than MaxRows.
func Layout(root *Node, opt Options) (*Diagram, error) {
	if root == nil {
		return nil, fmt.Errorf("tree: nil root")
	}
	opt = opt.withDefaults()
	rows, err := flatten(root, opt)
	if err != nil {
		return nil, err
	}
	m := newMetrics(opt.FontSize)
	d := &Diagram{Title: opt.Title, FontSize: m.size, HeaderH: m.rowH}
	d.Rows = make([]Row, len(rows))

	// Text of every row, and the widths of the columns.
	maxOff := 0
	for _, f := range rows {
		maxOff = max(maxOff, f.n.Offset)
	}
	hexDigits := max(4, len(strconv.FormatInt(int64(maxOff), 16)))
	names := [numCols]string{"Name", "Offset", "Dec", "Length", "Type"}
	var wide [numCols]int // widest text per column, in runes (the name column in points below)
	for i := ColOffset; i < numCols; i++ {
		wide[i] = mono.Runes(names[i])
	}
	shown := func(c int) bool { return !opt.Narrow || c != ColDec && c != ColType }
	var nameW canvas.Pt = canvas.Pt(mono.Width(names[ColName], float64(m.size)))
	marks := twoGroups(rows) // group letters, when there are groups to tell apart
	// A group's letter is written in its chip at the text's size (it reads at the size of the
	// labels, 7 pt and more in the book where trees print at 0.6×), the chip grown to hold it
	// and the labels moved a quarter of the text size past it.
	markBox, lead := canvas.Round(m.size), m.chip+m.gap
	if marks {
		lead = max(lead, canvas.Round(markBox+m.size/4))
	}
	// The texts Layout makes (tooltips, numbers) are carved from one buffer, the data
	// attributes from one slice: a few allocations for the whole tree, not a few per row.
	var txt arena.Text
	nText := 0
	for _, f := range rows {
		n := f.n
		nText += 96 + len(n.Path) + len(n.Name) + len(n.Type) + len(n.Value) + len(n.Desc)
	}
	txt.Reserve(nText)
	hexBuf := make([]byte, 0, 24)
	lastChild := make([]int, len(rows))
	for i := range lastChild {
		lastChild[i] = -1
	}
	nRuns := 0 // the runs of all rows, counted as the loop below makes them
	for i, f := range rows {
		n := f.n
		r := &d.Rows[i]
		r.Depth, r.Parent, r.Kind, r.Color = f.depth, f.parent, n.Kind, f.color
		r.Path, r.Offset, r.Length = mono.CleanAttr(n.Path), n.Offset, n.Length
		r.Label = mono.Truncate(mono.Clean(n.Name), opt.MaxLabel)
		r.Value = mono.Truncate(mono.Clean(n.Value), opt.MaxValue)
		r.Type = mono.Truncate(mono.Clean(n.Type), opt.MaxType)
		r.Title = title(&txt, n)
		if f.parent >= 0 {
			lastChild[f.parent] = i
		}
		w := canvas.Pt(f.depth)*m.indent + lead + m.width(mono.Runes(r.Label))
		if r.Value != "" {
			w += m.width(sepRunes(r.Label) + mono.Runes(r.Value))
		}
		nameW = max(nameW, w)
		nRuns += 3 // offset, decimal offset, length
		if r.Label != "" {
			nRuns++
		}
		if r.Value != "" {
			nRuns += 2 // ": " and the value
		}
		if r.Type != "" {
			nRuns++
		}
		wide[ColOffset] = max(wide[ColOffset], 2+hexDigits)
		wide[ColDec] = max(wide[ColDec], decLen(n.Offset))
		wide[ColLength] = max(wide[ColLength], decLen(n.Length))
		wide[ColType] = max(wide[ColType], mono.Runes(r.Type))
	}

	d.columns(m, names, wide, nameW, shown)

	// Rows. Their runs share one backing array.
	runBuf := make([]Run, 0, nRuns)
	y := d.HeaderH
	for i := range d.Rows {
		r := &d.Rows[i]
		r.Y, r.H = y, m.rowH
		r.Last = r.Parent >= 0 && lastChild[r.Parent] == i
		cx := canvas.Round(m.padX + canvas.Pt(r.Depth)*m.indent)
		mid := canvas.Round(y + m.rowH/2)
		base := canvas.Round(y + m.base)
		r.Chip = Box{X: cx, Y: canvas.Round(mid - m.chip/2), W: m.chip, H: m.chip}
		if g := rows[i].group; marks && g != "" && (r.Parent < 0 || rows[r.Parent].group != g) {
			// A row that starts a group: its chip grows to the text size (8 to 12 pt at 12 pt)
			// to the right, into the gap before the label, to hold the group's letter at the
			// text size (a letter of two or more, past the 26th group, smaller to fit).
			mark := style.GroupMark(r.Color)
			big := markBox
			size := canvas.Round(m.size)
			for size > 4 && canvas.Pt(mono.Width(mark, float64(size))) > big-1 {
				size -= 0.5
			}
			if canvas.Pt(mono.Width(mark, float64(size))) <= big-1 { // (else an explicit colour index in the thousands)
				r.Mark, r.MarkSize = mark, size
				r.Chip = Box{X: cx, Y: canvas.Round(mid - big/2), W: big, H: big}
			}
		}
		if r.Parent >= 0 {
			p := &d.Rows[r.Parent]
			r.ElbowX1 = canvas.Round(p.Chip.X + p.Chip.W/2)
			r.ElbowX2 = canvas.Round(cx - 2)
			r.ElbowY = mid
		}
		muted := r.Kind.Framing()
		labelFill, valueFill := style.Ink, style.Ink
		if muted {
			labelFill, valueFill = style.Muted, style.Muted
		}
		runs := runBuf[len(runBuf):len(runBuf):cap(runBuf)]
		// The label, ": " and the value follow one another; positions are counted in
		// characters from the text's start so that no rounding error accumulates.
		tx := canvas.Round(cx + lead)
		at := func(chars int) canvas.Pt { return canvas.Round(tx + m.width(chars)) }
		nl := mono.Runes(r.Label)
		if r.Label != "" {
			runs = append(runs, Run{Col: ColName, X: tx, Y: base, W: m.width(nl), S: r.Label, Fill: labelFill, Class: "label"})
		}
		if r.Value != "" {
			vx := tx
			if r.Label != "" {
				runs = append(runs, Run{Col: ColName, X: at(nl), Y: base, W: m.width(1), S: ":", Fill: style.Muted, Class: "sep"})
				vx = at(nl + 2)
			}
			runs = append(runs, Run{Col: ColName, X: vx, Y: base, W: m.width(mono.Runes(r.Value)), S: r.Value, Fill: valueFill, Class: "value"})
		}
		hexBuf = appendHex(hexBuf[:0], r.Offset, hexDigits)
		dec, length := txt.Int(int64(r.Offset)), txt.Int(int64(r.Length))
		runs = append(runs, m.run(ColOffset, d.Columns[ColOffset], y, txt.Bytes(hexBuf), style.Muted, "offset"))
		if shown(ColDec) {
			runs = append(runs, m.run(ColDec, d.Columns[ColDec], y, dec, style.Ink, "dec"))
		}
		runs = append(runs, m.run(ColLength, d.Columns[ColLength], y, length, style.Ink, "length"))
		if r.Type != "" && shown(ColType) {
			runs = append(runs, m.run(ColType, d.Columns[ColType], y, r.Type, style.Muted, "type"))
		}
		r.Runs = runs[:len(runs):len(runs)]
		runBuf = runBuf[:len(runBuf)+len(runs)]
		y = canvas.Round(y + m.rowH)
	}
	d.Height = y

	// Rules: one per parent, in the order of the parents.
	nRules := 0
	for _, lc := range lastChild {
		if lc >= 0 {
			nRules++
		}
	}
	if nRules > 0 {
		d.Rules = make([]Rule, 0, nRules)
	}
	for i := range d.Rows {
		if lc := lastChild[i]; lc >= 0 {
			p := &d.Rows[i]
			d.Rules = append(d.Rules, Rule{X: canvas.Round(p.Chip.X + p.Chip.W/2), From: i, To: lc, Y1: canvas.Round(p.Chip.Y + p.Chip.H), Y2: d.Rows[lc].ElbowY})
		}
	}
	return d, nil
}

// width returns the width of n characters, rounded like every coordinate.
func (m metrics) width(n int) canvas.Pt {
	return canvas.Round(canvas.Pt(float64(n) * mono.Advance * float64(m.size)))
}

// run returns a text run in column c of the row whose top is y.
func (m metrics) run(c int, col Column, y canvas.Pt, s string, fill style.Role, class string) Run {
	r := Run{Col: c, Y: canvas.Round(y + m.base), W: m.width(mono.Runes(s)), S: s, Fill: fill, Class: class}
	if col.Align == canvas.End {
		r.X, r.Anchor = canvas.Round(col.X+col.W), canvas.End
	} else {
		r.X = col.X
	}
	return r
}

// flatten lists the visible nodes in pre-order, without recursion, and gives each its colour.
func flatten(root *Node, opt Options) ([]flat, error) {
	type frame struct {
		n      *Node
		depth  int    // depth of the node's row if visible
		parent int    // visible parent row
		group  string // the parent's effective group
	}
	var (
		out    = make([]flat, 0, 64)
		groups = make([]string, 0, 64) // effective group of each row: its own, else its parent's
		stack  = append(make([]frame, 0, 32), frame{n: root, parent: -1})
	)
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := f.n
		if n == nil {
			continue
		}
		if n.Offset < 0 || n.Length < 0 {
			return nil, fmt.Errorf("tree: %s: negative offset or length (%d, %d)", nodeName(n), n.Offset, n.Length)
		}
		if f.depth > MaxDepth {
			return nil, fmt.Errorf("tree: %s: deeper than %d levels (is a node its own descendant?)", nodeName(n), MaxDepth)
		}
		g := n.Group
		if g == "" {
			g = f.group
		}
		hide := opt.HideFraming && n.Kind.Framing() && f.parent >= 0
		childDepth, childParent := f.depth+1, len(out)
		if hide {
			childDepth, childParent = f.depth, f.parent
		} else {
			if len(out) >= MaxRows {
				return nil, fmt.Errorf("tree: more than %d rows (is a node its own descendant?)", MaxRows)
			}
			out = append(out, flat{n: n, depth: f.depth, parent: f.parent})
			groups = append(groups, g)
		}
		for i := len(n.Children) - 1; i >= 0; i-- {
			stack = append(stack, frame{n: n.Children[i], depth: childDepth, parent: childParent, group: g})
		}
	}
	colors := style.GroupColors(groups, opt.GroupColors)
	for i, g := range groups {
		out[i].color, out[i].group = colors[g], g
	}
	return out, nil
}

func nodeName(n *Node) string {
	if n.Path != "" {
		return strconv.Quote(n.Path)
	}
	return strconv.Quote(n.Name)
}

// title returns a node's tooltip (style.Tip, the text both twins share).
func title(t *arena.Text, n *Node) string {
	head := n.Path
	if head == "" {
		head = n.Name
	}
	tip := style.Tip{Head: head, Type: n.Type, Bit: 8 * n.Offset, Bits: 8 * n.Length, Kind: n.Kind, Value: n.Value, Desc: n.Desc}
	t.Reserve(tip.Size())
	start := t.Len()
	t.Set(tip.Append(t.Buf()))
	return t.Since(start)
}

// sepRunes is the width of the ": " between a label and its value: none without a label.
func sepRunes(label string) int {
	if label == "" {
		return 0
	}
	return 2
}

func decLen(v int) int {
	n := 1
	for v >= 10 {
		v /= 10
		n++
	}
	return n
}

func appendHex(b []byte, v, digits int) []byte {
	b = append(b, '0', 'x')
	var buf [24]byte
	h := strconv.AppendInt(buf[:0], int64(v), 16)
	for i := len(h); i < digits; i++ {
		b = append(b, '0')
	}
	return append(b, h...)
}

// ceil rounds a width up to a whole point, so columns sit on whole points.
func ceil(v canvas.Pt) canvas.Pt {
	i := canvas.Pt(int64(v))
	if i < v {
		i++
	}
	return i
}
