package tree_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/canvas/svgcanvas"
	"github.com/kafkagrid/kafkagrid/canvas/svgcheck"
	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/tree"
)

// markupTree holds labels and values that could break a drawing: markup, control characters,
// invalid UTF-8, bidirectional marks, an empty label and runes Go Mono lacks.
func markupTree() *tree.Node {
	root := &tree.Node{Name: "<svg> & \"quotes\"", Path: `a<b>&"c'`, Type: "</g>", Length: 12,
		Desc: "about <b>bold</b>\nsecond line\x00"}
	root.Add(
		&tree.Node{Name: "", Value: "empty label", Type: "int8", Offset: 0, Length: 1, Path: "empty"},
		&tree.Node{Name: "ctl\x01\x1b[31m", Value: "tab\there\nnewline", Type: "int8", Offset: 1, Length: 1, Path: "ctl\x01"},
		&tree.Node{Name: "bad\xff\xfeutf8", Value: "\xc3\x28", Type: "bytes", Offset: 2, Length: 2, Path: "bad\xff"},
		&tree.Node{Name: "bidi\u202eevil", Value: "check ✓ 日本", Type: "string", Offset: 4, Length: 4, Path: "bidi"},
		&tree.Node{Name: strings.Repeat("VeryLongLabel", 10), Value: strings.Repeat("x", 500), Type: strings.Repeat("t", 60), Offset: 8, Length: 4, Path: "long"},
	)
	return root
}

func golden() []struct {
	name string
	root *tree.Node
	opt  tree.Options
} {
	return []struct {
		name string
		root *tree.Node
		opt  tree.Options
	}{
		{"fetch", fetchLike(), tree.Options{Title: "FetchResponse v17"}},
		{"fetch-noframing", fetchLike(), tree.Options{Title: "FetchResponse v17 without framing", HideFraming: true}},
		{"fetch-colors", fetchLike(), tree.Options{Title: "FetchResponse v17, grid colours",
			GroupColors: map[string]int{"Header": 5, "Body": 6, "Responses": 7, "Tagged": 4}}},
		{"markup", markupTree(), tree.Options{Title: "Hostile labels"}},
		{"single", &tree.Node{Name: "Alone", Value: "1", Type: "int8", Length: 1, Path: "Alone"}, tree.Options{}},
		{"small-font", fetchLike(), tree.Options{FontSize: 9, MaxValue: 16}},
	}
}

func render(t testing.TB, root *tree.Node, opt tree.Options) (*tree.Diagram, []byte) {
	t.Helper()
	d, err := tree.Layout(root, opt)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := svgcanvas.Write(&b, d, svgcanvas.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	return d, b.Bytes()
}

// checkXML parses an SVG document and fails unless it is well-formed XML.
func checkXML(t testing.TB, svg []byte) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(svg))
	for {
		_, err := dec.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v", err)
		}
	}
}

func TestGolden(t *testing.T) {
	for _, tc := range golden() {
		t.Run(tc.name, func(t *testing.T) {
			d, svg := render(t, tc.root, tc.opt)
			if err := d.Check(); err != nil {
				t.Errorf("Check: %v", err)
			}
			checkXML(t, svg)
			if err := svgcheck.CheckWith(svg, svgcheck.Options{BoxClass: "node", Rows: true}); err != nil {
				t.Errorf("svgcheck: %v", err)
			}
			if _, again := render(t, tc.root, tc.opt); !bytes.Equal(svg, again) {
				t.Error("two renderings differ")
			}
			js, err := json.MarshalIndent(d, "", "\t")
			if err != nil {
				t.Fatal(err)
			}
			var txt bytes.Buffer
			if err := d.WriteText(&txt); err != nil {
				t.Fatal(err)
			}
			testenv.Golden(t, filepath.Join("testdata", tc.name+".svg"), svg)
			testenv.Golden(t, filepath.Join("testdata", tc.name+".json"), append(js, '\n'))
			testenv.Golden(t, filepath.Join("testdata", tc.name+".txt"), txt.Bytes())
		})
	}
}

func TestLayoutShape(t *testing.T) {
	root := fetchLike()
	d, err := tree.Layout(root, tree.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := d.NumRows(), countNodes(root); got != want {
		t.Errorf("rows = %d, want one per node (%d)", got, want)
	}
	// Right-hand columns line up: every run of a column has the same anchor x.
	for c := tree.ColOffset; c < tree.ColType+1; c++ {
		var x canvas.Pt = -1
		for _, r := range d.Rows {
			for _, ru := range r.Runs {
				if ru.Col != c {
					continue
				}
				if x >= 0 && ru.X != x {
					t.Fatalf("column %d: run %q at x %g, others at %g", c, ru.S, ru.X, x)
				}
				x = ru.X
			}
		}
	}
	// Every parent's connector runs from its row to its last child's, and each child's elbow
	// starts on its parent's connector.
	rules := map[int]tree.Rule{}
	for _, ru := range d.Rules {
		rules[ru.From] = ru
	}
	for i, r := range d.Rows {
		if r.Parent < 0 {
			continue
		}
		ru, ok := rules[r.Parent]
		if !ok {
			t.Fatalf("row %d: parent %d has no connector", i, r.Parent)
		}
		if r.ElbowX1 != ru.X || r.ElbowY < ru.Y1 || r.ElbowY > ru.Y2 {
			t.Errorf("row %d: elbow (%g, %g) is off its parent's connector %+v", i, r.ElbowX1, r.ElbowY, ru)
		}
		if r.Last != (ru.To == i) {
			t.Errorf("row %d: Last = %v, connector ends at row %d", i, r.Last, ru.To)
		}
	}
}

func TestHideFraming(t *testing.T) {
	root := fetchLike()
	d, err := tree.Layout(root, tree.Options{HideFraming: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range d.Rows {
		if r.Kind.Framing() {
			t.Errorf("framing row %q (%v) drawn with HideFraming", r.Label, r.Kind)
		}
	}
	// The body's tagged-field section is framing with data below it: its NodeEndpoints
	// move up to the section's parent, Body.
	var body, endpoints = -1, -1
	for i, r := range d.Rows {
		switch r.Label {
		case "Body":
			body = i
		case "NodeEndpoints [1]":
			endpoints = i
		}
	}
	if endpoints < 0 || d.Rows[endpoints].Parent != body || d.Rows[endpoints].Depth != 2 {
		t.Errorf("NodeEndpoints: row %d, want a child of Body (row %d) at depth 2", endpoints, body)
	}
	if err := d.Check(); err != nil {
		t.Error(err)
	}
}

func TestGroupColors(t *testing.T) {
	root := &tree.Node{Name: "r", Children: []*tree.Node{
		{Name: "a", Group: "A", Children: []*tree.Node{{Name: "a1"}}},
		{Name: "b", Group: "B"},
		{Name: "c", Group: "A"},
		{Name: "d", Group: "D"},
	}}
	for _, tc := range []struct {
		name string
		m    map[string]int
		want []int // r a a1 b c d
	}{
		{"first appearance", nil, []int{0, 0, 0, 1, 0, 2}},
		{"given", map[string]int{"A": 5, "B": 3, "D": 7}, []int{0, 5, 5, 3, 5, 7}},
		{"partly given", map[string]int{"B": 4}, []int{0, 0, 0, 4, 0, 1}},
		{"next free index", map[string]int{"B": 0}, []int{0, 1, 1, 0, 1, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := tree.Layout(root, tree.Options{GroupColors: tc.m})
			if err != nil {
				t.Fatal(err)
			}
			var got []int
			for _, r := range d.Rows {
				got = append(got, r.Color)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("colours = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestLabels(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{tree.ArrayLabel("Topics", 2), "Topics [2]"},
		{tree.ArrayLabel("Topics", 0), "Topics [0]"},
		{tree.ArrayLabel("Topics", -1), "Topics null"},
		{tree.IndexLabel(0), "[0]"},
		{tree.IndexLabel(12), "[12]"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func TestErrors(t *testing.T) {
	cyc := &tree.Node{Name: "loop"}
	cyc.Children = []*tree.Node{cyc, cyc}
	for _, tc := range []struct {
		name string
		root *tree.Node
		want string
	}{
		{"nil", nil, "tree: nil root"},
		{"negative offset", &tree.Node{Name: "x", Path: "P", Offset: -1}, `tree: "P": negative offset`},
		{"negative length", &tree.Node{Name: "x", Length: -3}, `tree: "x": negative offset or length (0, -3)`},
		{"cycle", cyc, "deeper than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tree.Layout(tc.root, tree.Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestHostileInput draws inputs that could blow the stack, the time or the XML.
func TestHostileInput(t *testing.T) {
	deep := &tree.Node{Name: "level 0"}
	n := deep
	for i := 1; i <= 1000; i++ {
		c := &tree.Node{Name: fmt.Sprintf("level %d", i), Offset: i, Length: 1, Path: fmt.Sprintf("p%d", i)}
		n.Children = []*tree.Node{c}
		n = c
	}
	// 100,000 rows; 25,000 with -short (the race detector's run, where the full size takes
	// 1.3 GB).
	rows := 100000
	if testing.Short() {
		rows = 25000
	}
	wide := &tree.Node{Name: "wide", Children: make([]*tree.Node, rows)}
	for i := range wide.Children {
		wide.Children[i] = &tree.Node{Name: tree.IndexLabel(i), Value: "v", Offset: i, Length: 1}
	}
	for _, tc := range []struct {
		name string
		root *tree.Node
		rows int
		xml  bool // parse the SVG (slow for 100,000 rows: the fuzz test covers well-formedness)
	}{
		{"deep", deep, 1001, true},
		{"wide", wide, rows + 1, false},
		{"markup", markupTree(), 6, true},
		{"nil children", &tree.Node{Name: "r", Children: []*tree.Node{nil, {Name: "x"}, nil}}, 2, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, svg := render(t, tc.root, tree.Options{})
			if d.NumRows() != tc.rows {
				t.Errorf("rows = %d, want %d", d.NumRows(), tc.rows)
			}
			if err := d.Check(); err != nil {
				t.Error(err)
			}
			if tc.xml {
				checkXML(t, svg)
			} else if !bytes.HasSuffix(svg, []byte("</svg>\n")) {
				t.Error("SVG does not end with </svg>")
			}
			var txt bytes.Buffer
			if err := d.WriteText(&txt); err != nil {
				t.Fatal(err)
			}
			if got := strings.Count(txt.String(), "\n"); got != tc.rows+1 {
				t.Errorf("text has %d lines, want %d", got, tc.rows+1)
			}
		})
	}
	// Nothing unclean reaches the drawing.
	_, svg := render(t, markupTree(), tree.Options{})
	for _, bad := range []string{"\x01", "\x1b", "\xff", "\u202e", "<svg> &"} {
		if bytes.Contains(svg, []byte(bad)) {
			t.Errorf("SVG holds %q", bad)
		}
	}
}

// TestPaintRows cuts the Fetch tree into parts and checks each part: header first, every row
// once, connectors that cross a cut drawn to the part's edge.
func TestPaintRows(t *testing.T) {
	d, err := tree.Layout(fetchLike(), tree.Options{})
	if err != nil {
		t.Fatal(err)
	}
	spans := canvas.Paginate(d, 200, 400)
	if len(spans) < 3 {
		t.Fatalf("Paginate(200, 400) gave %d parts: %v", len(spans), spans)
	}
	next := 0
	for k, sp := range spans {
		if sp.From != next || sp.To <= sp.From {
			t.Fatalf("part %d = %v, want one starting at %d", k, sp, next)
		}
		next = sp.To
		limit := canvas.Pt(400)
		if k == 0 {
			limit = 200
		}
		h := d.PartHeight(sp.From, sp.To)
		if h > limit {
			t.Errorf("part %d: height %g over %g", k, h, limit)
		}
		if sp.To < d.NumRows() && h+d.Rows[sp.To].H <= limit {
			t.Errorf("part %d: row %d would still fit", k, sp.To)
		}
		var rec canvas.Recorder
		d.PaintRows(&rec, sp.From, sp.To)
		calls := strings.Join(rec.Calls, "\n")
		if got := strings.Count(calls, `begin "" "node `); got != sp.To-sp.From {
			t.Errorf("part %d: %d node groups, want %d", k, got, sp.To-sp.From)
		}
		if !strings.Contains(rec.Calls[1], `"header"`) {
			t.Errorf("part %d: does not start with the header: %s", k, rec.Calls[1])
		}
		// A connector crossing the top cut starts at the header's bottom; one crossing the
		// bottom cut ends at the part's bottom.
		crossTop, crossBottom := false, false
		for _, ru := range d.Rules {
			crossTop = crossTop || (ru.From < sp.From && ru.To >= sp.From)
			crossBottom = crossBottom || (ru.From < sp.To && ru.To >= sp.To)
		}
		if crossTop && !strings.Contains(calls, fmt.Sprintf(" %g ", d.HeaderH)+"") {
			t.Errorf("part %d: no connector from the header's bottom", k)
		}
		if crossBottom && !hasVerticalTo(rec.Calls, h) {
			t.Errorf("part %d: no connector to the bottom edge %g", k, h)
		}
	}
	if next != d.NumRows() {
		t.Errorf("parts end at row %d of %d", next, d.NumRows())
	}
	// Painting all rows as one part is Paint.
	var a, b canvas.Recorder
	d.Paint(&a)
	d.PaintRows(&b, 0, d.NumRows())
	if strings.Join(a.Calls, "\n") != strings.Join(b.Calls, "\n") {
		t.Error("Paint differs from PaintRows over all rows")
	}
	if got := d.PartHeight(0, d.NumRows()); got != d.Height {
		t.Errorf("PartHeight(all) = %g, want Height %g", got, d.Height)
	}
}

func hasVerticalTo(calls []string, y canvas.Pt) bool {
	for _, c := range calls {
		var x1, y1, x2, y2 float64
		if _, err := fmt.Sscanf(strings.TrimSpace(c), "line %g %g %g %g", &x1, &y1, &x2, &y2); err == nil && x1 == x2 && y2 == float64(y) {
			return true
		}
	}
	return false
}

type failWriter struct{ n int }

func (w *failWriter) Write(p []byte) (int, error) {
	if w.n <= 0 {
		return 0, errors.New("disk full")
	}
	w.n--
	return len(p), nil
}

func TestWriteErrors(t *testing.T) {
	d, err := tree.Layout(fetchLike(), tree.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.WriteText(&failWriter{}); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("WriteText: err = %v, want disk full", err)
	}
	if err := svgcanvas.Write(&failWriter{}, d, svgcanvas.WriteOptions{}); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("svgcanvas.Write: err = %v, want disk full", err)
	}
	if err := svgcanvas.Write(io.Discard, nil, svgcanvas.WriteOptions{}); err == nil {
		t.Error("svgcanvas.Write(nil): no error")
	}
}

func TestCheckFindsFaults(t *testing.T) {
	for _, tc := range []struct {
		name   string
		break_ func(d *tree.Diagram)
		want   string
	}{
		{"run leaves column", func(d *tree.Diagram) { d.Rows[3].Runs[0].X += 2000 }, "leaves column"},
		{"mis-measured", func(d *tree.Diagram) { d.Rows[2].Runs[0].W /= 2 }, "measured"},
		{"rows overlap", func(d *tree.Diagram) { d.Rows[5].Y -= 5 }, "overlaps the row above"},
		{"run leaves row", func(d *tree.Diagram) { d.Rows[4].Runs[1].Y += 15 }, "leaves its row"},
		{"runs overlap", func(d *tree.Diagram) { d.Rows[4].Runs[2].X = d.Rows[4].Runs[0].X }, "overlaps"},
		{"columns overlap", func(d *tree.Diagram) { d.Columns[2].X -= 30 }, "overlaps the one before"},
		{"connector", func(d *tree.Diagram) { d.Rules[0].To = d.Rules[0].From }, "connector"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := tree.Layout(fetchLike(), tree.Options{})
			if err != nil {
				t.Fatal(err)
			}
			tc.break_(d)
			if err := d.Check(); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Check = %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// TestPaintDecoded paints a diagram decoded from its JSON: the drawing must be the one of the
// diagram Layout returned (painting must not depend on anything JSON leaves out).
func TestPaintDecoded(t *testing.T) {
	for _, tc := range golden() {
		t.Run(tc.name, func(t *testing.T) {
			d, err := tree.Layout(tc.root, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			js, err := json.Marshal(d)
			if err != nil {
				t.Fatal(err)
			}
			var back tree.Diagram
			if err := json.Unmarshal(js, &back); err != nil {
				t.Fatal(err)
			}
			var want, got canvas.Recorder
			d.Paint(&want)
			back.Paint(&got)
			if w, g := strings.Join(want.Calls, "\n"), strings.Join(got.Calls, "\n"); w != g {
				t.Errorf("decoded diagram paints differently:\n%s", testenv.FirstDiff([]byte(w), []byte(g)))
			}
		})
	}
}

// TestNegativeGroupColors: an out-of-range colour index is folded into the palette, not a panic.
func TestNegativeGroupColors(t *testing.T) {
	root := (&tree.Node{Name: "r", Group: "x"}).Add(&tree.Node{Name: "c", Group: "y"})
	d, err := tree.Layout(root, tree.Options{GroupColors: map[string]int{"x": -3, "y": 1 << 40}})
	if err != nil {
		t.Fatal(err)
	}
	var rec canvas.Recorder
	d.Paint(&rec)
	if err := d.Check(); err != nil {
		t.Error(err)
	}
}

// TestConcurrentPaint paints one diagram from several goroutines (run with -race): a Diagram is
// read-only once made, shared buffers included.
func TestConcurrentPaint(t *testing.T) {
	d, err := tree.Layout(fetchLike(), tree.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := svgcanvas.Write(&want, d, svgcanvas.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			var got bytes.Buffer
			err := svgcanvas.Write(&got, d, svgcanvas.WriteOptions{})
			if err == nil && !bytes.Equal(got.Bytes(), want.Bytes()) {
				err = errors.New("a concurrent painting differs")
			}
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
