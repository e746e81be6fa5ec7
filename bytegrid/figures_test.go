package bytegrid_test

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/canvas/svgcanvas"
	"github.com/kafkagrid/kafkagrid/canvas/svgcheck"
	"github.com/kafkagrid/kafkagrid/internal/testenv"
)

// figureDirs are where published RFC figures are kept: the shared folder beside the
// repository (../shared/rfc-figures, or $KAFKAGRID_RFC_FIGURES), and the copies beside the
// specs in examples/protocols/figures (NAME.rfc.txt).
func figureFiles(t *testing.T) map[string]string {
	t.Helper()
	root := moduleRoot(t)
	files := map[string]string{} // name -> figure file
	shared := os.Getenv("KAFKAGRID_RFC_FIGURES")
	if shared == "" {
		shared = filepath.Join(root, "..", "shared", "rfc-figures")
	}
	if ms, _ := filepath.Glob(filepath.Join(shared, "*.txt")); len(ms) > 0 {
		for _, m := range ms {
			files[strings.TrimSuffix(filepath.Base(m), ".txt")] = m
		}
	} else {
		t.Logf("no figures in %s: checking the copies in examples/protocols/figures only", shared)
	}
	ms, _ := filepath.Glob(filepath.Join(root, "examples", "protocols", "figures", "*.rfc.txt"))
	for _, m := range ms {
		name := strings.TrimSuffix(filepath.Base(m), ".rfc.txt")
		if _, ok := files[name]; !ok {
			files[name] = m
		}
	}
	if len(files) == 0 {
		t.Fatal("no RFC figures found")
	}
	return files
}

// TestRFCFigures is the acceptance test of the figure properties: for every published figure
// (see figureFiles) that has a spec written for it, examples/protocols/figures/NAME.yaml, the
// spec draws as text exactly the figure, line for line, but for the spaces on either side of a
// label inside its box (hand placement). The figure's first line, "source: …", is not part of
// it. A figure with no spec (one newly dropped into the shared folder) is left to rfcart's
// round-trip test, which reads the figure itself (TestRoundTrip in package bytegrid/rfcart).
func TestRFCFigures(t *testing.T) {
	files := figureFiles(t)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	dir := filepath.Join(moduleRoot(t), "examples", "protocols", "figures")
	compared := 0
	for _, name := range names {
		spec := filepath.Join(dir, name+".yaml")
		if _, err := os.Stat(spec); errors.Is(err, fs.ErrNotExist) {
			t.Logf("%s: no hand-written spec %s; the figure is left to rfcart's round-trip test", files[name], spec)
			continue
		} else if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		compared++
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(files[name])
			if err != nil {
				t.Fatal(err)
			}
			want := figureLines(string(src))
			s := protocol(t, filepath.Join("figures", name))
			d, err := bytegrid.Layout(s.Fields, s.Options)
			if err != nil {
				t.Fatal(err)
			}
			var txt bytes.Buffer
			if err := d.WriteText(&txt); err != nil {
				t.Fatal(err)
			}
			got := figureLines(txt.String())
			if len(got) != len(want) {
				t.Errorf("%d lines, want %d:\n%s", len(got), len(want), txt.String())
			}
			for i := 0; i < min(len(got), len(want)); i++ {
				if !sameFigureLine(want[i], got[i]) {
					t.Errorf("line %d:\nwant %q\n got %q", i+1, want[i], got[i])
				}
			}
		})
	}
	if compared == 0 {
		t.Errorf("no figure has a hand-written spec in %s", dir)
	}
}

// figureLines returns the lines of a figure without its "source:" line, trailing spaces and
// trailing empty lines.
func figureLines(s string) []string {
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	if len(lines) > 0 && strings.HasPrefix(lines[0], "source:") {
		lines = lines[1:]
	}
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], " \t")
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// sameFigureLine reports whether two lines of a figure are the same but for the spaces on
// either side of a label inside its box: the edges ('|', '+', and ':' standing alone) must be
// in the same columns, and the text between two edges the same once trimmed. A rule (only
// '+', '-', '=', spaces, ':' and '.') must be identical.
func sameFigureLine(want, got string) bool {
	if want == got {
		return true
	}
	if strings.Trim(want, "+-=:. ") == "" {
		return false
	}
	a, b := figureCells(want), figureCells(got)
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// figureCells splits a line at its edges: each edge as its column and character, each text
// between edges trimmed.
func figureCells(s string) []string {
	rs := []rune(s)
	var out []string
	start := 0
	edge := func(i int) bool {
		switch rs[i] {
		case '|', '+':
			return true
		case ':':
			return (i == 0 || rs[i-1] == ' ') && (i == len(rs)-1 || rs[i+1] == ' ')
		}
		return false
	}
	for i := range rs {
		if !edge(i) {
			continue
		}
		if t := strings.TrimSpace(string(rs[start:i])); t != "" {
			out = append(out, t)
		}
		out = append(out, string(rs[i])+"@"+itoa(i))
		start = i + 1
	}
	rest := string(rs[start:])
	// "..." in place of the right edge (RFC 7540's open end, after spaces) is an edge too.
	if strings.HasSuffix(rest, "  ...") && strings.TrimSpace(rest) != "..." {
		out = append(out, strings.TrimSpace(strings.TrimSuffix(rest, "...")), "...@"+itoa(len(rs)))
		return out
	}
	if t := strings.TrimSpace(rest); t != "" {
		out = append(out, t)
	}
	return out
}

func itoa(i int) string {
	var b [20]byte
	n := len(b)
	for {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
		if i == 0 {
			break
		}
	}
	return string(b[n:])
}

// TestSameFigureLine checks the comparison itself: the spaces around a label may move, an
// edge or a letter may not.
func TestSameFigureLine(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"|  Data | x |", "| Data  |  x|", true},
		{"|  Data | x |", "|  Data  | x|", false}, // an edge moved
		{"|  Data | x |", "|  Date | x |", false},
		{"+-+-+-+", "+-+-+-", false},
		{"+-+-+-+", "+-+ +-+", false},
		{"  |   :", "  |   |", false},
		{"|   data octets ...", "|  data octets ...", true},
		{"+   Source Address   +", "+  Source Address    +", true},
		{"| Type: A |", "|  Type: A|", true},
		{"|    Payload (0...)      ...", "|  Payload (0...)        ...", true},
		{"|    Payload (0...)      ...", "|  Payload (0...)       ...", false},
		{"|   data octets ...", "|  data octets ...", true},
	} {
		if got := sameFigureLine(tt.a, tt.b); got != tt.want {
			t.Errorf("sameFigureLine(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestFigureOutputs keeps the drawings beside the figure specs in examples/protocols/figures
// current (refresh with -update): what "kafkagrid grid NAME.yaml -o NAME.svg" and "-o
// NAME.txt" write.
func TestFigureOutputs(t *testing.T) {
	dir := filepath.Join(moduleRoot(t), "examples", "protocols", "figures")
	specs, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if len(specs) < 8 {
		t.Errorf("%d figure specs in %s, want at least 8", len(specs), dir)
	}
	for _, spec := range specs {
		name := strings.TrimSuffix(filepath.Base(spec), ".yaml")
		t.Run(name, func(t *testing.T) {
			s := protocol(t, filepath.Join("figures", name))
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
			checkTextInBoxes(t, d)
			for file, got := range map[string][]byte{name + ".svg": svg.Bytes(), name + ".txt": txt.Bytes()} {
				testenv.Golden(t, filepath.Join(dir, file), got) // what kafkagrid grid writes
			}
		})
	}
}

// checkTextInBoxes checks that every run of a field lies inside one of its segments, and that
// no two runs of the diagram overlap.
func checkTextInBoxes(t *testing.T, d *bytegrid.Diagram) {
	t.Helper()
	type rect struct{ x0, y0, x1, y1 float64 }
	var all []rect
	for _, b := range d.Fields {
		for _, r := range b.Runs {
			in := false
			for _, s := range b.Segs {
				if s.Row == r.Row && float64(r.Left()) >= float64(s.X)-0.01 && float64(r.Left()+r.W) <= float64(s.X+s.W)+0.01 &&
					float64(r.Y-r.Size*0.8) >= float64(s.Y)-0.01 && float64(r.Y+r.Size*0.25) <= float64(s.Y+s.H)+0.01 {
					in = true
				}
			}
			if !in {
				t.Errorf("field %q: run %q at (%.1f, %.1f) lies outside its box", b.Name, r.S, r.X, r.Y)
			}
			all = append(all, rect{float64(r.Left()), float64(r.Y - r.Size*0.8), float64(r.Left() + r.W), float64(r.Y + r.Size*0.25)})
		}
	}
	for i := range all {
		for j := i + 1; j < len(all); j++ {
			a, b := all[i], all[j]
			if a.x0 < b.x1-0.01 && b.x0 < a.x1-0.01 && a.y0 < b.y1-0.01 && b.y0 < a.y1-0.01 {
				t.Errorf("two runs overlap: %v and %v", a, b)
			}
		}
	}
}

// TestFigureSVG draws the figure properties as SVG: valid, every run in its box, no two
// overlapping; the caption, the double rule, the break of a variable field and the dashed
// border of an optional one are there; LSB0 numbers the ruler from the right.
func TestFigureSVG(t *testing.T) {
	fields := []bytegrid.Field{
		{Offset: 0, Bits: 24, Name: "Length"},
		{Offset: 24, Bits: 8, Name: "Type"},
		{Offset: 32, Bits: 1, Name: "FIN", Label: bytegrid.LabelVertical},
		{Offset: 33, Bits: 7, Name: "Payload len", Label: bytegrid.LabelStacked},
		{Offset: 40, Bits: 24, Name: "Masking-key", Optional: true, Condition: "if MASK set to 1"},
		{Offset: 64, Bits: 64, Name: "Payload", Variable: true, DoubleRule: true, Caption: "Payload:"},
	}
	for _, opts := range []bytegrid.Options{{}, {RowBits: 16, Ruler: bytegrid.RulerBytes}, {LSB0: true, Ruler: bytegrid.RulerTensAll}} {
		d, err := bytegrid.Layout(fields, opts)
		if err != nil {
			t.Fatal(err)
		}
		var svg bytes.Buffer
		if err := svgcanvas.Write(&svg, d, svgcanvas.WriteOptions{Title: "t"}); err != nil {
			t.Fatal(err)
		}
		if err := svgcheck.Check(svg.Bytes()); err != nil {
			t.Errorf("%+v: %v", opts, err)
		}
		checkTextInBoxes(t, d)
		s := svg.String()
		for _, want := range []string{">Payload:<", "field kind-plain optional", "field kind-plain variable", "stroke-dasharray", ">if MASK set to 1<", ">F<", ">Payload<"} {
			if !strings.Contains(s, want) {
				t.Errorf("%+v: no %q in the SVG", opts, want)
			}
		}
		if opts.LSB0 {
			if d.Ruler[len(d.Ruler)-1].S != "0" || d.Ruler[0].S != "3" {
				t.Errorf("LSB0 ruler runs %q … %q, want 3 … 0", d.Ruler[0].S, d.Ruler[len(d.Ruler)-1].S)
			}
		}
		// The stacked and vertical labels made their row taller.
		if r := d.Fields[2].Segs[0].Row; d.Rows[r].H <= d.Rows[0].H {
			t.Errorf("%+v: row %d (%v) not taller than row 0 (%v)", opts, r, d.Rows[r].H, d.Rows[0].H)
		}
	}
}

// FuzzFigureText lays out and writes, as text and SVG, fields with every figure property the
// input's bytes choose: never a panic, and text in proportion to the rows.
func FuzzFigureText(f *testing.F) {
	f.Add([]byte{32, 0, 4, 1, 4, 2, 1, 3, 1, 3, 22, 0, 32, 4, 32, 8})
	f.Add([]byte{24, 7, 24, 0, 8, 0, 8, 0, 1, 0, 31, 16, 48, 40})
	f.Add([]byte{8, 9, 3, 1, 1, 2, 1, 2, 1, 6, 1, 6, 1, 6})
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) < 2 {
			return
		}
		opts := bytegrid.Options{RowBits: int(b[0])%bytegrid.MaxRowBits + 1, ElideRows: int(b[1]%5) - 1}
		if opts.ElideRows == 0 {
			opts.ElideRows = 2
		}
		rulers := []bytegrid.Ruler{bytegrid.RulerTens, bytegrid.RulerTensAll, bytegrid.RulerUnits, bytegrid.RulerBytes, bytegrid.RulerNone}
		opts.Ruler = rulers[int(b[1]>>3)%len(rulers)]
		opts.LSB0 = b[1]&0x80 != 0
		opts.Text = bytegrid.TextOptions{Margin: int(b[1] % 3), RowLines: int(b[1]>>5) % 4,
			Align: []string{"", "top", "bottom"}[int(b[1])%3], Ticks: []string{"", "fields"}[int(b[1]>>2)%2],
			Open: []string{"", "dots", "bottom"}[int(b[1]>>4)%3]}
		var fields []bytegrid.Field
		off := 0
		names := []string{"A", "Data Offset", "CWR", "Extended payload length\n(16/64)", "", "x y z w"}
		for i := 2; i+1 < len(b) && len(fields) < 64; i += 2 {
			bits, fl := int(b[i])+1, b[i+1]
			fd := bytegrid.Field{Offset: off, Bits: bits, Name: names[int(fl)%len(names)]}
			fd.Label = []bytegrid.LabelMode{"", bytegrid.LabelStacked, bytegrid.LabelVertical, bytegrid.LabelNote}[int(fl>>3)%4]
			fd.Variable = fl&0x20 != 0
			fd.Optional = fl&0x40 != 0
			if fd.Optional && fl&1 != 0 {
				fd.Condition = "if C"
			}
			fd.DoubleRule = fl&0x80 != 0
			if fl&0x10 != 0 && off%opts.RowBits == 0 {
				fd.Caption = "Next:"
			}
			fields = append(fields, fd)
			off += bits
		}
		d, err := bytegrid.Layout(fields, opts)
		if err != nil {
			return
		}
		var txt, svg bytes.Buffer
		if err := d.WriteText(&txt); err != nil {
			t.Fatal(err)
		}
		if max := (len(d.Rows)*20 + 20) * (4*opts.RowBits + 100); txt.Len() > max {
			t.Fatalf("%d bytes of text for %d rows", txt.Len(), len(d.Rows))
		}
		if err := svgcanvas.Write(&svg, d, svgcanvas.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	})
}

// TestRowBreak: a field with RowBreak starts a new row, and keeps its own offset in its box,
// its data attributes and the row's offset label; the hex of a byte split among fields comes
// from the data at the fields' own offsets.
func TestRowBreak(t *testing.T) {
	fields := []bytegrid.Field{
		{Offset: 0, Bits: 24, Name: "Length"},
		{Offset: 24, Bits: 8, Name: "Type", RowBreak: true},
		{Offset: 32, Bits: 1, Name: "R", RowBreak: true},
		{Offset: 33, Bits: 7, Name: "Stream"},
	}
	d, err := bytegrid.Layout(fields, bytegrid.Options{Data: []byte{0, 0, 9, 1, 0x85}})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Rows) != 3 {
		t.Fatalf("%d rows, want 3", len(d.Rows))
	}
	for i, want := range []int{0, 24, 32, 33} {
		if d.Fields[i].Offset != want {
			t.Errorf("field %d at bit %d, want %d", i, d.Fields[i].Offset, want)
		}
	}
	for i, want := range []string{"0x0000", "0x0003", "0x0004"} {
		if d.Rows[i].Offset.S != want {
			t.Errorf("row %d offset %q, want %q", i, d.Rows[i].Offset.S, want)
		}
	}
	if d.Fields[1].Segs[0].Row != 1 || d.Fields[1].Segs[0].From != 0 || d.Fields[2].Segs[0].Row != 2 {
		t.Errorf("Type in row %d from bit %d, R in row %d", d.Fields[1].Segs[0].Row, d.Fields[1].Segs[0].From, d.Fields[2].Segs[0].Row)
	}
	if len(d.Cells) != 1 || d.Cells[0].Hex.S != "85" {
		t.Errorf("cells %+v, want the one byte 85", d.Cells)
	}
	var svg bytes.Buffer
	if err := svgcanvas.Write(&svg, d, svgcanvas.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(svg.String(), `<g class="field kind-plain" data-offset="3" data-length="1">`) {
		t.Error("Type's data-offset is not 3")
	}
}

// TestRuleMarksAndLabelCols: Text.RuleMarks draws the marks kept on a rule, Field.LabelCols
// each line of a stacked label at its own column, and bad ones are refused.
func TestRuleMarksAndLabelCols(t *testing.T) {
	fields := []bytegrid.Field{
		{Name: "Weight", Bits: 8, Offset: 0},
		{Name: "Connection ID\n(if any,", Bits: 8, Offset: 8, Label: bytegrid.LabelStacked, LabelCols: []int{2, 2}},
	}
	opts := bytegrid.Options{RowBits: 16, Ruler: bytegrid.RulerNone, Text: bytegrid.TextOptions{BitChars: 2, RuleMarks: "0:16:| 1:8:-"}}
	d, err := bytegrid.Layout(fields, opts)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := d.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := "+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-|\n|    Weight     | Connection ID |\n|               | (if any,      |\n+-+-+-+-+-+-+-+---+-+-+-+-+-+-+-+\n"
	if got := b.String(); got != want {
		t.Errorf("drawn\n%s\nwant\n%s", got, want)
	}
	for _, bad := range []string{"x:1:+", "1:1:*", "1:999:+", "1:1"} {
		opts.Text.RuleMarks = bad
		if _, err := bytegrid.Layout(fields, opts); err == nil {
			t.Errorf("rule marks %q: no error", bad)
		}
	}
	fields[1].LabelCols = []int{-1}
	opts.Text.RuleMarks = ""
	if _, err := bytegrid.Layout(fields, opts); err == nil {
		t.Error("label column -1: no error")
	}
}
