package svgcanvas_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/canvas/svgcanvas"
	"github.com/kafkagrid/kafkagrid/canvas/svgcheck"
	"github.com/kafkagrid/kafkagrid/style"
	"github.com/kafkagrid/kafkagrid/tree"
)

// Write a byte grid, a canvas.Drawing, as one SVG document.
func ExampleWrite_grid() {
	d, err := bytegrid.Layout([]bytegrid.Field{
		{Offset: 0, Bits: 16, Name: "Source Port", Value: "53211", Path: "SrcPort", Bytes: []byte{0xcf, 0xdb}},
		{Offset: 16, Bits: 16, Name: "Destination Port", Value: "53", Path: "DstPort", Bytes: []byte{0, 53}},
	}, bytegrid.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	var buf bytes.Buffer
	if err := svgcanvas.Write(&buf, d, svgcanvas.WriteOptions{Title: "UDP ports", Inline: true}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(strings.Count(buf.String(), `<g class="field kind-plain"`), "fields")
	fmt.Println("check:", svgcheck.Check(buf.Bytes()))
	// Output:
	// 2 fields
	// check: <nil>
}

// Write a tree, the byte grid's twin, the same way: one group per node.
func ExampleWrite_tree() {
	root := (&tree.Node{Name: "Request", Length: 6, Path: "Request"}).Add(
		&tree.Node{Name: "Acks", Value: "-1", Type: "int16", Length: 2, Path: "Acks"},
		&tree.Node{Name: "TimeoutMs", Value: "30000", Type: "int32", Offset: 2, Length: 4, Path: "TimeoutMs"},
	)
	d, err := tree.Layout(root, tree.Options{Title: "Request"})
	if err != nil {
		fmt.Println(err)
		return
	}
	var b bytes.Buffer
	if err := svgcanvas.Write(&b, d, svgcanvas.WriteOptions{Inline: true, IDPrefix: "req"}); err != nil {
		fmt.Println(err)
		return
	}
	for _, l := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(l, "<g class=\"node") {
			fmt.Println(l)
		}
	}
	// Output:
	// <g class="node kind-plain" data-path="Request" data-offset="0" data-length="6">
	// <g class="node kind-plain" data-path="Acks" data-offset="0" data-length="2">
	// <g class="node kind-plain" data-path="TimeoutMs" data-offset="2" data-length="4">
}

type failAfter struct{ n int }

func (f *failAfter) Write(p []byte) (int, error) {
	if f.n < len(p) {
		return 0, errors.New("full")
	}
	f.n -= len(p)
	return len(p), nil
}

func TestWriteError(t *testing.T) {
	d, err := bytegrid.Layout([]bytegrid.Field{{Bits: 8, Name: "a"}}, bytegrid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	err = svgcanvas.Write(&failAfter{10}, d, svgcanvas.WriteOptions{})
	if err == nil || !strings.HasPrefix(err.Error(), "svgcanvas: ") {
		t.Errorf("err = %v", err)
	}
}

// TestWriteRows checks that a part is the drawing's rows under its heading, sized to
// PartHeight, with the drawing's class and hover style, for both twins.
func TestWriteRows(t *testing.T) {
	var fields []bytegrid.Field
	root := &tree.Node{Name: "Frame", Path: "Frame", Length: 40}
	for i := range 10 {
		fields = append(fields, bytegrid.Field{Offset: 32 * i, Bits: 32, Name: fmt.Sprint("F", i), Path: fmt.Sprint("F", i), Bytes: []byte{0, 0, 0, byte(i)}})
		root.Add(&tree.Node{Name: fmt.Sprint("F", i), Offset: 4 * i, Length: 4, Path: fmt.Sprint("F", i)})
	}
	g, err := bytegrid.Layout(fields, bytegrid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tr, err := tree.Layout(root, tree.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		d     canvas.Drawing
		class string
	}{{g, "kg-grid"}, {tr, "kg-tree"}} {
		t.Run(tc.class, func(t *testing.T) {
			all := bytes.Buffer{}
			if err := svgcanvas.Write(&all, tc.d, svgcanvas.WriteOptions{IDPrefix: "x"}); err != nil {
				t.Fatal(err)
			}
			var part bytes.Buffer
			span := canvas.Span{From: 2, To: 5}
			if err := svgcanvas.Write(&part, tc.d, svgcanvas.WriteOptions{IDPrefix: "x", Rows: span}); err != nil {
				t.Fatal(err)
			}
			_, h := tc.d.Size()
			if !strings.Contains(all.String(), fmt.Sprintf(`height="%g"`, h)) {
				t.Errorf("whole drawing: no height %g", h)
			}
			ph := tc.d.PartHeight(span.From, span.To)
			if ph >= h || !strings.Contains(part.String(), fmt.Sprintf(`height="%g"`, ph)) {
				t.Errorf("part: no height %g (whole %g)", ph, h)
			}
			for _, s := range []string{`class="kg ` + tc.class + ` `, "." + tc.class + " ", ":hover"} {
				if !strings.Contains(part.String(), s) {
					t.Errorf("part lacks %q", s)
				}
			}
			if strings.Contains(part.String(), `data-path="F0"`) || !strings.Contains(part.String(), `data-path="F2"`) {
				t.Errorf("part does not hold rows 2 to 4 alone")
			}
		})
	}
}

// Choose the colours and the font of a byte grid, with public packages only: the palette
// names style roles (a group's fill, the ink), the font is a CSS font-family.
func ExampleWrite_palette() {
	d, err := bytegrid.Layout([]bytegrid.Field{{Offset: 0, Bits: 16, Name: "Port", Value: "53", Group: "UDP"}}, bytegrid.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	var buf bytes.Buffer
	err = svgcanvas.Write(&buf, d, svgcanvas.WriteOptions{
		Title: "Port",
		Palette: style.Palette{
			style.Group(0): {Light: style.RGB{R: 0xff, G: 0xee, B: 0xcc}, Dark: style.RGB{R: 0x33, G: 0x22, B: 0x11}},
		},
		FontFamily: `"IBM Plex Mono",monospace`,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	svg := buf.String()
	fmt.Println(strings.Contains(svg, "fill:#ffeecc"), strings.Contains(svg, "--kg-g0:#332211"))
	fmt.Println(strings.Contains(svg, `font-family:"IBM Plex Mono",monospace`), strings.Contains(svg, "stroke:#1f2328"))
	// Output:
	// true true
	// true true
}

// paintingCases are a byte grid and a tree with braces and stars in their texts (writeJSXSafe), and sampleDrawing.
func paintingCases(t *testing.T) []canvas.Drawing {
	t.Helper()
	g, err := bytegrid.Layout([]bytegrid.Field{
		{Offset: 0, Bits: 16, Name: "Source {Port}*", Value: "53211", Path: "SrcPort", Group: "ports", Bytes: []byte{0xcf, 0xdb}},
		{Offset: 16, Bits: 16, Name: "Destination Port", Value: "53", Path: "Dst<Port>", Group: "ports", Bytes: []byte{0, 53}},
		{Offset: 32, Bits: 32, Name: "Length & checksum", Value: "{x}", Path: "Len", Bytes: []byte{0, 8, 0, 0}},
		{Offset: 64, Bits: 64, Name: "Data", Path: "Data"},
	}, bytegrid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	root := (&tree.Node{Name: "Request", Length: 6, Path: "Request"}).Add(
		&tree.Node{Name: "Acks", Value: "-1", Type: "int16", Length: 2, Path: "Acks"},
		&tree.Node{Name: "Timeout{Ms}", Value: "30000", Type: "int32", Offset: 2, Length: 4, Path: "TimeoutMs"},
	)
	tr, err := tree.Layout(root, tree.Options{Title: "Request"})
	if err != nil {
		t.Fatal(err)
	}
	return []canvas.Drawing{g, tr, sampleDrawing{}}
}

// sampleDrawing is sample (svgcanvas_test.go) as a drawing of two rows: it has group ids,
// which the painting leaves out until it is written.
type sampleDrawing struct{}

func (sampleDrawing) Size() (w, h canvas.Pt)            { return 201, 60 }
func (sampleDrawing) NumRows() int                      { return 2 }
func (sampleDrawing) PartHeight(from, to int) canvas.Pt { return canvas.Pt(30 * (to - from)) }
func (sampleDrawing) BreakBefore(int) bool              { return true }
func (sampleDrawing) Info() canvas.Info {
	return canvas.Info{Class: "kg-sample", CSS: ".kg-sample .field:hover{x:1}", Title: "Sample {t}", Desc: "*d*"}
}
func (sampleDrawing) PaintRows(c canvas.Canvas, from, to int) {
	for i := from; i < to; i++ {
		sample(c)
	}
}

// A Painting written with any options is byte for byte the document the canvas writes at
// Close (New, PaintRows, Close: the id painted in), for the whole drawing and for each part.
func TestPaintingIsClose(t *testing.T) {
	opts := []svgcanvas.WriteOptions{
		{},
		{Inline: true, IDPrefix: "rq-grid"},
		{Inline: true, IDPrefix: "rq grid!", Title: "Other {title}", Desc: "*d*"},
		{Title: "T", Theme: svgcanvas.ThemeDark, FontFamily: "Courier"},
		{Inline: true, Theme: svgcanvas.ThemeLight},
	}
	for di, d := range paintingCases(t) {
		spans := []canvas.Span{{}}
		if n := d.NumRows(); n > 1 {
			spans = append(spans, canvas.Span{From: 0, To: 1}, canvas.Span{From: 1, To: n})
		}
		for _, rows := range spans {
			p, err := svgcanvas.Paint(d, rows)
			if err != nil {
				t.Fatal(err)
			}
			for oi, o := range opts {
				o.Rows = rows
				var got bytes.Buffer
				if err := p.Write(&got, o); err != nil {
					t.Fatal(err)
				}
				want := closeWrite(t, d, o)
				if !bytes.Equal(got.Bytes(), want) {
					t.Errorf("drawing %d, rows %v, options %d: the painting's document differs from Close's:\n%s\n---\n%s", di, rows, oi, got.Bytes(), want)
				}
				var w bytes.Buffer
				if err := svgcanvas.Write(&w, d, o); err != nil || !bytes.Equal(w.Bytes(), want) {
					t.Errorf("drawing %d, rows %v, options %d: Write differs from Close (%v)", di, rows, oi, err)
				}
			}
			p.Release()
			if err := p.Write(io.Discard, svgcanvas.WriteOptions{}); err == nil {
				t.Error("a released painting writes")
			}
			p.Release()
		}
	}
}

// closeWrite writes d as one canvas does (New, PaintRows, Close), the id painted in.
func closeWrite(t *testing.T, d canvas.Drawing, o svgcanvas.WriteOptions) []byte {
	t.Helper()
	info := d.Info()
	part := canvas.PartOf(d, o.Rows, o.Title, o.Desc)
	var buf bytes.Buffer
	c := svgcanvas.New(&buf, part.Width, part.Height, svgcanvas.Options{
		Title: part.Title, Desc: part.Desc, Inline: o.Inline, IDPrefix: o.IDPrefix, Class: info.Class,
		ExtraCSS: info.CSS, Palette: o.Palette, FontFamily: o.FontFamily, Theme: o.Theme,
	})
	d.PaintRows(c, part.From, part.To)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
