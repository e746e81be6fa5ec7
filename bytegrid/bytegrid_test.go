package bytegrid_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/bytegrid/gridyaml"
	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/canvas/svgcanvas"
	"github.com/kafkagrid/kafkagrid/canvas/svgcheck"
	"github.com/kafkagrid/kafkagrid/internal/mono"
	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/style"
)

// moduleRoot is the folder of go.mod (see internal/testenv).
func moduleRoot(t testing.TB) string {
	t.Helper()
	dir, err := testenv.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func protocol(t testing.TB, name string) *gridyaml.Spec {
	t.Helper()
	file := filepath.Join(moduleRoot(t), "examples", "protocols", name+".yaml")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gridyaml.Parse(file, src)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

type goldenCase struct {
	name   string
	fields []bytegrid.Field
	opts   bytegrid.Options
}

func goldenCases(t testing.TB) []goldenCase {
	var cases []goldenCase
	for _, p := range []string{"ipv4", "tcp", "udp", "dns", "palette"} {
		s := protocol(t, p)
		cases = append(cases, goldenCase{p, s.Fields, s.Options})
	}
	hostile := []bytegrid.Field{
		{Offset: 0, Bits: 16, Name: `<script>&"'`, Value: "a\x00b\u202ec\xff", Group: "<g>", Path: `p"<>&`, Desc: "]]> --> <!--"},
		{Offset: 16, Bits: 16, Name: "\u200f\u202dRTL", Value: strings.Repeat("W", 200), Group: "&amp;"},
		{Offset: 32, Bits: 1, Name: "VeryLongNameThatCannotFitAnywhere", Value: "x"},
		{Offset: 40, Bits: 24, Name: "after a gap"},
	}
	cases = append(cases,
		goldenCase{"kafkalike", kafkaLike(), bytegrid.Options{}},
		goldenCase{"kafkalike_rows8", kafkaLike()[:12], bytegrid.Options{RowBits: 8, DecimalOffsets: true}},
		goldenCase{"kafkalike_rows64_nohex", kafkaLike(), bytegrid.Options{RowBits: 64, NoHex: true, ElideRows: -1}},
		goldenCase{"ipv4_rows16", ipv4(), bytegrid.Options{RowBits: 16}},
		goldenCase{"empty", nil, bytegrid.Options{}},
		goldenCase{"hostile", hostile, bytegrid.Options{}},
	)
	return cases
}

func TestGolden(t *testing.T) {
	for _, tc := range goldenCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			d, err := bytegrid.Layout(tc.fields, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			js, err := json.MarshalIndent(d, "", " ")
			if err != nil {
				t.Fatal(err)
			}
			var svg, txt bytes.Buffer
			if err := svgcanvas.Write(&svg, d, svgcanvas.WriteOptions{Title: tc.name, Desc: "golden " + tc.name}); err != nil {
				t.Fatal(err)
			}
			if err := d.WriteText(&txt); err != nil {
				t.Fatal(err)
			}
			if err := svgcheck.Check(svg.Bytes()); err != nil {
				t.Errorf("svgcheck: %v", err)
			}
			var again bytes.Buffer
			d2, _ := bytegrid.Layout(tc.fields, tc.opts)
			svgcanvas.Write(&again, d2, svgcanvas.WriteOptions{Title: tc.name, Desc: "golden " + tc.name})
			if !bytes.Equal(svg.Bytes(), again.Bytes()) {
				t.Error("two renders differ")
			}
			golden(t, tc.name+".json", append(js, '\n'))
			golden(t, tc.name+".svg", svg.Bytes())
			golden(t, tc.name+".txt", txt.Bytes())
		})
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	testenv.Golden(t, filepath.Join("testdata", name), got)
}

// rfc791 is the header figure of RFC 791 section 3.1, as published.
const rfc791 = `
    0                   1                   2                   3
    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   |Version|  IHL  |Type of Service|          Total Length         |
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   |         Identification        |Flags|      Fragment Offset    |
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   |  Time to Live |    Protocol   |         Header Checksum       |
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   |                       Source Address                          |
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   |                    Destination Address                        |
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   |                    Options                    |    Padding    |
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
`

// structure reduces a figure to its skeleton: each line with letters and spaces blanked, so
// only the ruler digits' positions, borders and separators remain, and names as sets of words.
func structure(fig string) (skeleton []string, names []string) {
	for _, l := range strings.Split(strings.Trim(fig, "\n"), "\n") {
		l = strings.TrimRight(strings.TrimPrefix(l, "   "), " ")
		if l == "" {
			break // the values listed under our figure
		}
		var b strings.Builder
		for _, r := range l {
			if r == '|' || r == '+' || r == '-' || r >= '0' && r <= '9' && !strings.Contains(l, "|") {
				b.WriteRune(r)
			} else {
				b.WriteByte(' ')
			}
		}
		skeleton = append(skeleton, strings.TrimRight(b.String(), " "))
		if strings.HasPrefix(l, "|") {
			for _, cell := range strings.Split(strings.Trim(l, "|"), "|") {
				names = append(names, strings.Join(strings.Fields(cell), " "))
			}
		}
	}
	return skeleton, names
}

// TestRFC791 checks that the text of the IPv4 example has the rows and field boundaries of
// RFC 791's figure.
func TestRFC791(t *testing.T) {
	s := protocol(t, "ipv4")
	d, err := bytegrid.Layout(s.Fields, s.Options)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := d.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	gotSk, gotNames := structure(buf.String())
	wantSk, wantNames := structure(rfc791)
	if strings.Join(gotSk, "\n") != strings.Join(wantSk, "\n") {
		t.Errorf("skeleton differs from RFC 791:\ngot:\n%s\nwant:\n%s", strings.Join(gotSk, "\n"), strings.Join(wantSk, "\n"))
	}
	if strings.Join(gotNames, ",") != strings.Join(wantNames, ",") {
		t.Errorf("names differ:\ngot  %q\nwant %q", gotNames, wantNames)
	}
}

func TestCheckErrors(t *testing.T) {
	tests := []struct {
		name   string
		fields []bytegrid.Field
		index  int
		want   string
	}{
		{"zero length", []bytegrid.Field{{Bits: 8, Name: "a"}, {Offset: 8, Bits: 0, Name: "b"}}, 1, "must be positive"},
		{"overlap", []bytegrid.Field{{Bits: 16, Name: "a"}, {Offset: 8, Bits: 8, Name: "b"}}, 1, "overlaps"},
		{"out of order", []bytegrid.Field{{Offset: 16, Bits: 8, Name: "a"}, {Offset: 0, Bits: 8, Name: "b"}}, 1, "overlaps"},
		{"negative", []bytegrid.Field{{Offset: -8, Bits: 8, Name: "a"}}, 0, "negative"},
		{"bytes mismatch", []bytegrid.Field{{Bits: 16, Name: "a", Bytes: []byte{1}}}, 0, "raw bytes"},
		{"bytes unaligned", []bytegrid.Field{{Offset: 4, Bits: 8, Name: "a", Bytes: []byte{1}}}, 0, "raw bytes"},
		{"huge", []bytegrid.Field{{Bits: 8, Name: "a"}, {Offset: 1<<31 - 8, Bits: 16, Name: "b"}}, 1, "past bit"},
		{"range of a fixed field", []bytegrid.Field{{Bits: 8, Name: "a", MaxBits: 16}}, 0, "variable field only"},
		{"bad range", []bytegrid.Field{{Bits: 8, Name: "a", Variable: true, MinBits: 16, MaxBits: 8}}, 0, "min <= max"},
		{"condition of a mandatory field", []bytegrid.Field{{Bits: 8, Name: "a", Condition: "if C"}}, 0, "optional field only"},
		{"label mode", []bytegrid.Field{{Bits: 8, Name: "a", Label: "sideways"}}, 0, "label mode"},
		{"caption mid-row", []bytegrid.Field{{Bits: 8, Name: "a"}, {Offset: 8, Bits: 8, Name: "b", Caption: "B:"}}, 1, "start a row"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := bytegrid.Layout(tt.fields, bytegrid.Options{})
			var fe *bytegrid.FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("err = %v, want a FieldError", err)
			}
			if fe.Index != tt.index || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "bytegrid: ") {
				t.Errorf("err = %v (index %d), want index %d and %q", err, fe.Index, tt.index, tt.want)
			}
		})
	}
	for _, rb := range []int{-1, 129} {
		if _, err := bytegrid.Layout(nil, bytegrid.Options{RowBits: rb}); err == nil {
			t.Errorf("row width %d accepted", rb)
		}
	}
	if _, err := bytegrid.Layout(nil, bytegrid.Options{RowBits: 24}); err != nil {
		t.Errorf("row width 24 (RFC 7540): %v", err)
	}
}

// TestPaintRows cuts the Kafka-like frame into parts and checks each part: valid, text inside
// boxes, parts cover every row once, cuts avoid splitting fields when they can.
func TestPaintRows(t *testing.T) {
	d, err := bytegrid.Layout(kafkaLike(), bytegrid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	maxH := d.PartHeight(0, 6)
	parts := canvas.Paginate(d, maxH, maxH)
	if len(parts) < 2 {
		t.Fatal("no cuts")
	}
	next := 0
	for _, p := range parts {
		from, to := p.From, p.To
		if from != next || to <= from {
			t.Fatalf("part %d..%d after row %d", from, to, next)
		}
		next = to
		if h := d.PartHeight(from, to); h > maxH && to-from > 1 {
			t.Errorf("part %d..%d is %g tall, max %g", from, to, h, maxH)
		}
		if to < len(d.Rows) && d.Rows[to].Joined {
			// Allowed only if no row of the part could start the next one.
			for k := to - 1; k > from; k-- {
				if !d.Rows[k].Joined {
					t.Errorf("cut at %d splits a field though row %d was free", to, k)
					break
				}
			}
		}
		var buf bytes.Buffer
		var rec canvas.Recorder
		d.PaintRows(&rec, from, to)
		if len(rec.Calls) == 0 {
			t.Fatal("nothing painted")
		}
		// First of all, outside every group, the paper background covering the part.
		wantBg := fmt.Sprintf("rect 0 0 %g %g %+v", d.Width, d.PartHeight(from, to), canvas.Style{Fill: style.Paper, Class: "bg"})
		if rec.Calls[0] != wantBg {
			t.Errorf("part %d..%d: first call %q, want the background %q", from, to, rec.Calls[0], wantBg)
		}
		c := newSVG(&buf, d.Width, d.PartHeight(from, to))
		d.PaintRows(c, from, to)
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
		if err := svgcheck.Check(buf.Bytes()); err != nil {
			t.Errorf("part %d..%d: %v", from, to, err)
		}
	}
	if next != len(d.Rows) {
		t.Errorf("parts end at row %d of %d", next, len(d.Rows))
	}
}

// TestLabels checks the fitting of names: shrink, wrap, then a numbered note.
func TestLabels(t *testing.T) {
	fields := []bytegrid.Field{
		{Offset: 0, Bits: 8, Name: "Short"},
		{Offset: 8, Bits: 4, Name: "AVeryLongFieldName"},
		{Offset: 12, Bits: 2, Name: "Flags"},
		{Offset: 14, Bits: 18, Name: "Rest"},
	}
	d, err := bytegrid.Layout(fields, bytegrid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	runs := func(i int) []string {
		var s []string
		for _, r := range d.Fields[i].Runs {
			s = append(s, r.S)
		}
		return s
	}
	if got := runs(0); len(got) != 1 || got[0] != "Short" {
		t.Errorf("Short: %q", got)
	}
	if got := runs(1); len(got) != 2 || got[0]+got[1] != "AVeryLongFieldName" {
		t.Errorf("long name not wrapped in two: %q", got)
	}
	if got := runs(2); len(got) != 1 || got[0] != "1" || len(d.Notes) != 1 || d.Notes[0].Text != "Flags" {
		t.Errorf("narrow field: runs %q, notes %+v", got, d.Notes)
	}
}

// TestLabelWords checks that a name is wrapped only between words: a label that does not fit
// its box in whole words gets a note mark, never a mid-word break ("Rese / rved").
func TestLabelWords(t *testing.T) {
	for _, tc := range []struct {
		name  string
		bits  int
		value string
		runs  []string
		notes []string
	}{
		{name: "Reserved", bits: 2, value: "0", runs: []string{"1"}, notes: []string{"Reserved = 0"}},
		{name: "Reserved", bits: 2, runs: []string{"1"}, notes: []string{"Reserved"}},
		{name: "Reserved", bits: 4, runs: []string{"Reserved"}},
		{name: "Abcdefghijklmnop", bits: 5, runs: []string{"1"}, notes: []string{"Abcdefghijklmnop"}},
		{name: "SourceConnectionId", bits: 6, runs: []string{"Source", "ConnectionId"}},
		{name: "Reserved Bits", bits: 4, runs: []string{"Reserved", "Bits"}},
	} {
		t.Run(fmt.Sprintf("%s/%d", tc.name, tc.bits), func(t *testing.T) {
			fields := []bytegrid.Field{
				{Offset: 0, Bits: tc.bits, Name: tc.name, Value: tc.value, Kind: bytegrid.Padding},
				{Offset: tc.bits, Bits: 32 - tc.bits, Name: "Rest"},
			}
			d, err := bytegrid.Layout(fields, bytegrid.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var runs, notes []string
			for _, r := range d.Fields[0].Runs {
				runs = append(runs, r.S)
			}
			for _, n := range d.Notes {
				notes = append(notes, n.Text)
			}
			if !slices.Equal(runs, tc.runs) || !slices.Equal(notes, tc.notes) {
				t.Errorf("runs %q, notes %q; want runs %q, notes %q", runs, notes, tc.runs, tc.notes)
			}
		})
	}
}

func TestWriteTextError(t *testing.T) {
	d, _ := bytegrid.Layout(ipv4(), bytegrid.Options{})
	if err := d.WriteText(errWriter{}); err == nil {
		t.Error("no error from a failing writer")
	}
}

type errWriter struct{}

func (errWriter) Write([]byte) (int, error) { return 0, errors.New("broken") }

// FuzzLayout feeds random field lists and labels to the layout and the SVG painter and checks
// that the SVG stays well-formed and passes svgcheck.
func FuzzLayout(f *testing.F) {
	f.Add([]byte{4, 4, 8, 16, 16, 3, 13}, "Version", "4", uint8(32))
	f.Add([]byte{32, 200, 1, 0, 7}, "<&\"'>\x00\xff\u202e", "]]>", uint8(8))
	f.Add([]byte{}, "", "", uint8(64))
	f.Add([]byte{4, 4, 8, 16, 16, 3, 13, 1, 6, 1}, "Flags", "DF", uint8(10))
	f.Add([]byte{9, 80, 4, 100, 7}, "BaseOffset", "0", uint8(2+8)) // fields of three rows and more, sub-byte, with data
	f.Fuzz(func(t *testing.T, lengths []byte, name, value string, rb uint8) {
		if len(lengths) > 64 {
			lengths = lengths[:64]
		}
		var fields []bytegrid.Field
		off := 0
		for i, l := range lengths {
			if l == 0 {
				off += 3 // a gap
				continue
			}
			bits := int(l)
			var raw []byte
			if off%8 == 0 && i%2 == 0 {
				bits = 8 * (int(l)%12 + 1)
				raw = bytes.Repeat([]byte{l}, bits/8)
			}
			fields = append(fields, bytegrid.Field{Offset: off, Bits: bits, Name: name[:min(len(name), i)], Value: value, Group: value[:min(len(value), i%3)], Item: name[:min(len(name), i%4)], Short: value[:min(len(value), i%2)], Kind: bytegrid.Kind(i % 8), Bytes: raw, Path: name})
			off += bits
		}
		rows := []int{8, 16, 32, 64}[rb%4]
		var data []byte
		if rb&8 != 0 { // the frame's bytes, for the hex cells of sub-byte fields
			data = bytes.Repeat([]byte{0xa5}, (off+7)/8)
		}
		d, err := bytegrid.Layout(fields, bytegrid.Options{RowBits: rows, ElideRows: int(rb%5) - 1, Data: data})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range d.Cells {
			for _, b := range d.Fields {
				for _, r := range b.Runs {
					if r.Row == c.Row && r.Class != "hex" && r.Y+mono.Descent*r.Size > c.Y+0.01 &&
						r.Left() < c.X+c.W-0.01 && r.Left()+r.W > c.X+0.01 {
						t.Fatalf("label %q of %q reaches into the hex cell %+v", r.S, b.Name, c)
					}
				}
			}
		}
		var buf bytes.Buffer
		if err := svgcanvas.Write(&buf, d, svgcanvas.WriteOptions{Title: name, Desc: value}); err != nil {
			t.Fatal(err)
		}
		if err := svgcheck.Check(buf.Bytes()); err != nil {
			t.Fatalf("%v\n%s", err, buf.Bytes())
		}
		if err := d.WriteText(io.Discard); err != nil {
			t.Fatal(err)
		}
		// A group letter lies inside its box and clear of the box's other text.
		for _, b := range d.Fields {
			for _, m := range b.Runs {
				if m.Class != "group" {
					continue
				}
				in := false
				for _, s := range b.Segs {
					in = in || s.Row == m.Row && m.Left() >= s.X && m.Left()+m.W <= s.X+s.W && m.Y-m.Size*0.8 >= s.Y && m.Y+m.Size*0.25 <= s.Y+s.H
				}
				if !in {
					t.Fatalf("group letter %q of %q outside its box", m.S, b.Name)
				}
				for _, r := range b.Runs {
					if r != m && r.Row == m.Row && r.Left() < m.Left()+m.W && m.Left() < r.Left()+r.W && r.Y-r.Size*0.8 < m.Y+m.Size*0.25 && m.Y-m.Size*0.8 < r.Y+r.Size*0.25 {
						t.Fatalf("group letter %q of %q overlaps %q", m.S, b.Name, r.S)
					}
				}
			}
		}
	})
}

func BenchmarkKafkaLike(b *testing.B) {
	fields := kafkaLike()
	b.ReportAllocs()
	for b.Loop() {
		d, err := bytegrid.Layout(fields, bytegrid.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if err := svgcanvas.Write(io.Discard, d, svgcanvas.WriteOptions{Title: "Produce"}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkIPv4(b *testing.B) {
	s := protocol(b, "ipv4")
	b.ReportAllocs()
	for b.Loop() {
		d, err := bytegrid.Layout(s.Fields, s.Options)
		if err != nil {
			b.Fatal(err)
		}
		if err := svgcanvas.Write(io.Discard, d, svgcanvas.WriteOptions{Title: "IPv4"}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSize keeps the SVG of a 60-field frame, hex included, under 62 KB (55 KB until every
// fitted run carried lengthAdjust="spacingAndGlyphs", 32 bytes each, which Asciidoctor PDF
// needs to print it; see svgcanvas).
func TestSize(t *testing.T) {
	d, err := bytegrid.Layout(kafkaLike(), bytegrid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := svgcanvas.Write(&buf, d, svgcanvas.WriteOptions{Title: "Produce"}); err != nil {
		t.Fatal(err)
	}
	if buf.Len() > 62<<10 {
		t.Errorf("SVG of %d fields is %d bytes, over 62 KB", len(d.Fields), buf.Len())
	}
	t.Logf("SVG of %d fields: %d bytes", len(d.Fields), buf.Len())
}

// TestExampleOutputs keeps the drawings shipped beside the protocol descriptions in
// examples/protocols up to date (refresh with -update): they are what
// "kafkagrid grid X.yaml -o X.svg" and "-o X.txt" write.
func TestExampleOutputs(t *testing.T) {
	dir := filepath.Join(moduleRoot(t), "examples", "protocols")
	for _, p := range []string{"ipv4", "tcp", "udp", "dns", "palette"} {
		t.Run(p, func(t *testing.T) {
			s := protocol(t, p)
			d, err := bytegrid.Layout(s.Fields, s.Options)
			if err != nil {
				t.Fatal(err)
			}
			var svg, txt bytes.Buffer
			if err := svgcanvas.Write(&svg, d, svgcanvas.WriteOptions{Title: s.Name, Desc: s.Desc}); err != nil {
				t.Fatal(err)
			}
			if err := d.WriteText(&txt); err != nil {
				t.Fatal(err)
			}
			for name, got := range map[string][]byte{p + ".svg": svg.Bytes(), p + ".txt": txt.Bytes()} {
				testenv.Golden(t, filepath.Join(dir, name), got) // what kafkagrid grid writes
			}
		})
	}
}

// TestPaintDecoded paints a diagram decoded from its JSON: the drawing must be the one of the
// diagram Layout returned (painting must not depend on anything JSON leaves out).
func TestPaintDecoded(t *testing.T) {
	for _, tc := range goldenCases(t) {
		if tc.name == "hostile" {
			continue // its invalid UTF-8 does not survive JSON
		}
		t.Run(tc.name, func(t *testing.T) {
			d, err := bytegrid.Layout(tc.fields, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			js, err := json.Marshal(d)
			if err != nil {
				t.Fatal(err)
			}
			var back bytegrid.Diagram
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
	fields := []bytegrid.Field{{Offset: 0, Bits: 8, Name: "a", Group: "x"}, {Offset: 8, Bits: 8, Name: "b", Group: "y"}}
	d, err := bytegrid.Layout(fields, bytegrid.Options{GroupColors: map[string]int{"x": -3, "y": 1 << 40}})
	if err != nil {
		t.Fatal(err)
	}
	if d.Fields[0].Fill != "g3" || d.Fields[1].Fill != "g4" { // 1<<40 mod 12 = 4
		t.Errorf("fills %q %q, want g3 g4", d.Fields[0].Fill, d.Fields[1].Fill)
	}
}

// TestGroupColours: explicit colours first, the other groups take the free palette indexes in
// order of first appearance, a field without a group takes index 0, and the legend lists the
// groups in order of first appearance. More groups than the palette wrap around it. An
// explicit colour of a group the fields do not have reserves nothing.
func TestGroupColours(t *testing.T) {
	field := func(i int, g string) bytegrid.Field {
		return bytegrid.Field{Offset: 8 * i, Bits: 8, Name: "f", Group: g}
	}
	tests := []struct {
		name     string
		groups   []string
		explicit map[string]int
		fills    []string // per field
		swatches []string // legend order
	}{
		{"implicit", []string{"x", "y", "x", "", "z"}, nil,
			[]string{"g0", "g1", "g0", "g0", "g2"}, []string{"g0", "g1", "g2"}},
		{"explicit first", []string{"x", "y", "x", "z", ""}, map[string]int{"z": 0},
			[]string{"g1", "g2", "g1", "g0", "g0"}, []string{"g1", "g2", "g0"}},
		{"explicit absent", []string{"x", "y"}, map[string]int{"w": 1}, // reserves nothing
			[]string{"g0", "g1"}, []string{"g0", "g1"}},
		{"ungrouped explicit", []string{"", "x"}, map[string]int{"": 3},
			[]string{"g3", "g0"}, []string{"g0"}},
		{"wrap", []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "a"}, nil,
			[]string{"g0", "g1", "g2", "g3", "g4", "g5", "g6", "g7", "g8", "g9", "g10", "g11", "g0", "g0"},
			[]string{"g0", "g1", "g2", "g3", "g4", "g5", "g6", "g7", "g8", "g9", "g10", "g11", "g0"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var fields []bytegrid.Field
			for i, g := range tc.groups {
				fields = append(fields, field(i, g))
			}
			d, err := bytegrid.Layout(fields, bytegrid.Options{GroupColors: tc.explicit})
			if err != nil {
				t.Fatal(err)
			}
			var fills, swatches []string
			for _, b := range d.Fields {
				fills = append(fills, string(b.Fill))
			}
			for _, s := range d.Swatch {
				swatches = append(swatches, string(s.Fill))
			}
			if strings.Join(fills, " ") != strings.Join(tc.fills, " ") {
				t.Errorf("fills %v, want %v", fills, tc.fills)
			}
			if strings.Join(swatches, " ") != strings.Join(tc.swatches, " ") {
				t.Errorf("swatches %v, want %v", swatches, tc.swatches)
			}
		})
	}
}

// TestConcurrentPaint paints one diagram from several goroutines (run with -race): a Diagram is
// read-only once made, shared buffers included.
func TestConcurrentPaint(t *testing.T) {
	d, err := bytegrid.Layout(kafkaLike(), bytegrid.Options{})
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

// TestSizeFollowsContent: a diagram's size follows its fields, not their offsets: a field at a
// huge offset leaves a gap row, a huge field is elided even when elision is off, and a diagram
// past MaxRows rows is refused rather than drawn.
func TestSizeFollowsContent(t *testing.T) {
	for _, tc := range []struct {
		name    string
		fields  []bytegrid.Field
		opts    bytegrid.Options
		maxRows int
		gap     string // the gap row's label, if any
		err     string
	}{
		{"field at 16 MiB", []bytegrid.Field{{Offset: 0, Bits: 8, Name: "a"}, {Offset: 134217720, Bits: 8, Name: "b"}}, bytegrid.Options{}, 3, "… 16777208 bytes, 0x0004–0xfffffb …", ""},
		{"16 MiB field, elision off", []bytegrid.Field{{Offset: 0, Bits: 1 << 27, Name: "blob"}}, bytegrid.Options{ElideRows: -1}, 3, "", ""},
		{"16 MiB field, rows of 8 bits", []bytegrid.Field{{Offset: 0, Bits: 1 << 27, Name: "blob"}}, bytegrid.Options{RowBits: 8, ElideRows: -1}, 3, "", ""},
		{"a short gap is drawn", []bytegrid.Field{{Offset: 0, Bits: 8, Name: "a"}, {Offset: 64, Bits: 8, Name: "b"}}, bytegrid.Options{}, 3, "", ""},
		{"too many rows", manyFields(bytegrid.MaxRows + 10), bytegrid.Options{RowBits: 8}, 0, "", "more than 100000 rows"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := bytegrid.Layout(tc.fields, tc.opts)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				// Refused before the rows are drawn: a few allocations, not one a row.
				if allocs := testing.AllocsPerRun(2, func() { bytegrid.Layout(tc.fields, tc.opts) }); allocs > 1000 {
					t.Errorf("%.0f allocations to refuse %d fields, want at most 1,000", allocs, len(tc.fields))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(d.Rows) > tc.maxRows {
				t.Errorf("%d rows, want at most %d", len(d.Rows), tc.maxRows)
			}
			var gaps []string
			for _, r := range d.Rows {
				if r.Gap.S != "" {
					gaps = append(gaps, r.Gap.S)
				}
			}
			if strings.Join(gaps, ",") != tc.gap {
				t.Errorf("gap rows %q, want %q", gaps, tc.gap)
			}
			var svg bytes.Buffer
			if err := svgcanvas.Write(&svg, d, svgcanvas.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			var txt bytes.Buffer
			if err := d.WriteText(&txt); err != nil {
				t.Fatal(err)
			}
			if svg.Len() > 64<<10 || txt.Len() > 16<<10 {
				t.Errorf("SVG %d bytes, text %d bytes, for %d fields", svg.Len(), txt.Len(), len(tc.fields))
			}
			// The work follows the drawing, not the field's bits: laying out and painting both
			// make as many allocations as a diagram of a few rows.
			allocs := testing.AllocsPerRun(2, func() {
				d, _ := bytegrid.Layout(tc.fields, tc.opts)
				svgcanvas.Write(io.Discard, d, svgcanvas.WriteOptions{})
				d.WriteText(io.Discard)
			})
			t.Logf("%.0f allocations", allocs)
			if allocs > 1000 {
				t.Errorf("%.0f allocations to lay out and paint %d fields, want at most 1,000", allocs, len(tc.fields))
			}
		})
	}
}

// manyFields returns n one-byte fields, each two bytes after the last.
func manyFields(n int) []bytegrid.Field {
	out := make([]bytegrid.Field, n)
	for i := range out {
		out[i] = bytegrid.Field{Offset: 16 * i, Bits: 8, Name: "f"}
	}
	return out
}

// TestFramingNoLouderThanData checks that a framing label is drawn no larger than the
// smallest data name of its row: beside a one-byte field whose long name shrinks to the
// floor, "tagged fields" shrinks too; in a row of its own it keeps full size.
func TestFramingNoLouderThanData(t *testing.T) {
	tests := []struct {
		name   string
		fields []bytegrid.Field
	}{
		{"beside a long one-byte name", []bytegrid.Field{
			{Offset: 0, Bits: 8, Name: "tagged fields", Value: "0 → none", Kind: style.Tags, Bytes: []byte{0}},
			{Offset: 8, Bits: 8, Name: "AllowAutoTopicCreation", Value: "false", Bytes: []byte{0}},
			{Offset: 16, Bits: 16, Name: "ErrorCode", Value: "0", Bytes: []byte{0, 0}},
		}},
		{"alone in its row", []bytegrid.Field{
			{Offset: 0, Bits: 32, Name: "CorrelationId", Value: "7", Bytes: []byte{0, 0, 0, 7}},
			{Offset: 32, Bits: 8, Name: "tagged fields", Value: "0 → none", Kind: style.Tags, Bytes: []byte{0}},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := bytegrid.Layout(tc.fields, bytegrid.Options{})
			if err != nil {
				t.Fatal(err)
			}
			minData := map[int]canvas.Pt{}
			for i, b := range d.Fields {
				if tc.fields[i].Kind.Framing() {
					continue
				}
				for _, r := range b.Runs {
					if r.Class == "name" && (minData[r.Row] == 0 || r.Size < minData[r.Row]) {
						minData[r.Row] = r.Size
					}
				}
			}
			named := false
			for i, b := range d.Fields {
				if !tc.fields[i].Kind.Framing() {
					continue
				}
				for _, r := range b.Runs {
					if r.Class != "name" && r.Class != "value" {
						continue
					}
					named = named || r.Class == "name"
					if m := minData[r.Row]; m > 0 && r.Size > m {
						t.Errorf("framing %s %q at %g, louder than the data name at %g", r.Class, r.S, r.Size, m)
					}
					if m := minData[r.Row]; m == 0 && r.Class == "name" && r.Size != 12 {
						t.Errorf("framing name %q alone in its row drawn at %g, want 12", r.S, r.Size)
					}
				}
			}
			if !named {
				t.Error("the framing field has no name run")
			}
		})
	}
}

// TestBitWidth: a 16-bit row of 16 pt bits draws each byte as wide as a 32-bit row does, in
// about half the width, every field at the same width per byte; out-of-range widths are an
// error that names the bounds.
func TestBitWidth(t *testing.T) {
	wide, err := bytegrid.Layout(kafkaLike(), bytegrid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	narrow, err := bytegrid.Layout(kafkaLike(), bytegrid.Options{RowBits: 16, BitWidth: 16})
	if err != nil {
		t.Fatal(err)
	}
	if narrow.BitW != wide.BitW {
		t.Errorf("BitW = %g, want %g", float64(narrow.BitW), float64(wide.BitW))
	}
	ww, _ := wide.Size()
	nw, _ := narrow.Size()
	if gridW := float64(wide.BitW) * 16; float64(ww)-float64(nw) < gridW-1 || float64(ww)-float64(nw) > gridW+1 {
		t.Errorf("16-bit rows of 16 pt: %g wide, 32-bit rows %g: want %g narrower", float64(nw), float64(ww), gridW)
	}
	def, err := bytegrid.Layout(kafkaLike(), bytegrid.Options{RowBits: 16})
	if err != nil {
		t.Fatal(err)
	}
	if def.BitW != 26 {
		t.Errorf("16-bit rows by default: BitW %g, want 26", float64(def.BitW))
	}
	for _, bw := range []canvas.Pt{-1, 5, 9.9, 40.5, 100, canvas.Pt(math.NaN()), canvas.Pt(math.Inf(1))} {
		_, err := bytegrid.Layout(kafkaLike(), bytegrid.Options{BitWidth: bw})
		if err == nil || !strings.Contains(err.Error(), "bit width") || !strings.Contains(err.Error(), "10 to 40") {
			t.Errorf("BitWidth %g: err %v, want one naming the bounds 10 to 40", float64(bw), err)
		}
	}
}

// TestOffsetsAfterVariable: a field after a variable-length one has no offset from the start
// (none is known): its tooltip counts from the variable field's end, its box names that field,
// and the SVG writes no data-offset for it.
func TestOffsetsAfterVariable(t *testing.T) {
	fields := []bytegrid.Field{
		{Offset: 0, Bits: 8, Name: "Len"},
		{Offset: 8, Bits: 24, Name: "Data", Variable: true},
		{Offset: 32, Bits: 16, Name: "Checksum"},
		{Offset: 48, Bits: 16, Name: "Tail"},
	}
	d, err := bytegrid.Layout(fields, bytegrid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if b := d.Fields[0]; b.After != "" || !strings.Contains(b.Title, "offset 0 (0x0), 1 byte") {
		t.Errorf("Len: %q %q", b.After, b.Title)
	}
	if b := d.Fields[3]; b.After != "Data" || b.AfterBits != 16 || !strings.Contains(b.Title, "offset +2 (0x2) after the end of Data, 2 bytes") {
		t.Errorf("Tail: after %q +%d, %q", b.After, b.AfterBits, b.Title)
	}
	var buf bytes.Buffer
	if err := svgcanvas.Write(&buf, d, svgcanvas.WriteOptions{Title: "t"}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(buf.String(), "data-offset="); n != 2 {
		t.Errorf("%d data-offset attributes, want 2 (Len and Data)", n)
	}
}
