package gridyaml_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/bytegrid/gridyaml"
	"github.com/kafkagrid/kafkagrid/canvas/svgcanvas"
)

func TestExamples(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "examples", "protocols", "*.yaml"))
	if err != nil || len(files) < 4 {
		t.Fatalf("examples: %v %v", files, err)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := gridyaml.Parse(f, src)
		if err != nil {
			t.Fatal(err)
		}
		if s.Name == "" || len(s.Fields) == 0 {
			t.Errorf("%s: empty spec", f)
		}
		if _, err := bytegrid.Layout(s.Fields, s.Options); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

func TestParse(t *testing.T) {
	src := `name: T
description: D
row_bits: 16
offsets: decimal
elide_rows: 2
hex: false
data: "01 02 03"
groups: {A: 5}
fields:
  - {name: a, bits: 4, kind: length, group: A, value: v, type: uint4, desc: about, path: p.a}
  - {name: b, bits: 4}
  - {name: c, bytes: 1, offset: 16}
`
	s, err := gridyaml.Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := bytegrid.Options{RowBits: 16, DecimalOffsets: true, ElideRows: 2, NoHex: true, Data: []byte{1, 2, 3}, GroupColors: map[string]int{"A": 5}}
	if fmt.Sprint(s.Options) != fmt.Sprint(want) {
		t.Errorf("options %+v, want %+v", s.Options, want)
	}
	if len(s.Fields) != 3 {
		t.Fatalf("%d fields", len(s.Fields))
	}
	a, b, c := s.Fields[0], s.Fields[1], s.Fields[2]
	if a.Kind != bytegrid.Length || a.Path != "p.a" || a.Value != "v" || a.Desc != "about" || a.Type != "uint4" || a.Group != "A" {
		t.Errorf("a = %+v", a)
	}
	if b.Offset != 4 || b.Path != "b" || b.Bytes != nil {
		t.Errorf("b = %+v", b)
	}
	if c.Offset != 16 || c.Bits != 8 || string(c.Bytes) != "\x03" {
		t.Errorf("c = %+v", c)
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name, src string
		line      int
		want      string
	}{
		{"syntax", "name: [", 1, "gridyaml: x.yaml:1: did not find expected node content"},
		{"invalid UTF-8", "name: x\ndesc: \xff\n", 2, "gridyaml: x.yaml:2: invalid leading UTF-8 octet"},
		{"unknown anchor", "name: x\n\ndesc: *nope\n", 3, "gridyaml: x.yaml:3: unknown anchor"},
		{"not a mapping", "- a", 1, "mapping"},
		{"unknown key", "name: x\ncolour: red\n", 2, `unknown key "colour"`},
		{"missing name", "fields: []\n", 1, "missing name"},
		{"bad row width", "name: x\nrow_bits: 129\n", 2, "row_bits 129"},
		{"zero row width", "name: x\nrow_bits: 0\n", 2, "row_bits 0"},
		{"bad ruler", "name: x\nruler: inches\n", 2, `ruler "inches"`},
		{"bad bit order", "name: x\nbit_order: middle\n", 2, "bit_order"},
		{"bad text key", "name: x\ntext: {margin: 2, colour: red}\n", 2, `text: unknown key "colour"`},
		{"bad margin", "name: x\ntext: {margin: -1}\n", 2, "margin -1"},
		{"bad elision", "name: x\ntext: {elide: '--', elide_at: 3}\n", 2, `elide "--"`},
		{"bad elision column", "name: x\ntext:\n  elide: //\n  elide_at: 0\n", 4, "elide_at 0"},
		{"bad ruler shift", "name: x\ntext: {ruler_shift: 9}\n", 2, "ruler_shift 9"},
		{"bad tens_no_zero", "name: x\ntext: {tens_no_zero: 3}\n", 2, "want true or false"},
		{"bad open", "name: x\ntext: {open: shut}\n", 2, "open"},
		{"bad align", "name: x\ntext:\n  align: left\n", 3, `align "left"`},
		{"bad label", "name: x\nfields:\n  - {name: a, bits: 1, label: sideways}\n", 3, `label "sideways"`},
		{"condition of a mandatory field", "name: x\nfields:\n  - {name: a, bits: 8}\n  - {name: b, bits: 8, condition: if C}\n", 4, "optional field only"},
		{"range of a fixed field", "name: x\nfields:\n  - {name: a, bits: 8, max_bits: 16}\n", 3, "variable field only"},
		{"bad variable", "name: x\nfields:\n  - {name: a, bits: 8, variable: maybe}\n", 3, "true or false"},
		{"bad offsets", "name: x\noffsets: octal\n", 2, "offsets"},
		{"bad data", "name: x\ndata: zz\n", 2, "data"},
		{"bad group colour", "name: x\ngroups: {a: 12}\n", 2, "colour 12"},
		{"unknown field key", "name: x\nfields:\n  - name: a\n    bits: 8\n    size: 3\n", 5, `field "a": unknown key "size"`},
		{"zero length", "name: x\nfields:\n  - {name: a, bits: 0}\n", 3, `field "a": bits 0`},
		{"no length", "name: x\nfields:\n  - {name: a}\n", 3, "missing length"},
		{"both lengths", "name: x\nfields:\n  - {name: a, bits: 8, bytes: 1}\n", 3, "both"},
		{"overlap", "name: x\nfields:\n  - {name: a, bits: 8}\n  - {name: b, bits: 8, offset: 4}\n", 4, `field "b": offset 4 overlaps`},
		{"out of order", "name: x\nfields:\n  - {name: a, bits: 8, offset: 16}\n  - {name: b, bits: 8, offset: 0}\n", 4, `field "b"`},
		{"wider than data", "name: x\ndata: '0102'\nfields:\n  - {name: a, bytes: 1}\n  - {name: b, bytes: 2}\n", 5, `field "b": bits 8 to 24 lie beyond the data`},
		{"bad kind", "name: x\nfields:\n  - {name: a, bits: 8, kind: fancy}\n", 3, `unknown kind "fancy"`},
		{"bad integer", "name: x\nfields:\n  - {name: a, bits: many}\n", 3, "want an integer"},
		{"unnamed field", "name: x\nfields:\n  - {bits: 8}\n", 3, "field #1: missing name"},
		{"duplicate key", "name: x\nname: y\n", 2, "duplicate key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := gridyaml.Parse("x.yaml", []byte(tt.src))
			if err == nil {
				t.Fatal("no error")
			}
			var e *gridyaml.Error
			if !errors.As(err, &e) {
				t.Fatalf("%T %v", err, err)
			}
			if e.Line != tt.line || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "gridyaml: x.yaml") {
				t.Errorf("err = %q (line %d), want line %d and %q", err, e.Line, tt.line, tt.want)
			}
		})
	}
}

// TestParseSize: a spec larger than MaxSize is refused before YAML reads it.
func TestParseSize(t *testing.T) {
	src := make([]byte, gridyaml.MaxSize+1)
	if _, err := gridyaml.Parse("x.yaml", src); err == nil || err.Error() != "gridyaml: x.yaml: 67108865 bytes, more than a spec may have (67108864)" {
		t.Errorf("%v", err)
	}
}

func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "examples", "protocols", "*.yaml"))
	for _, file := range files {
		if src, err := os.ReadFile(file); err == nil {
			f.Add(src)
		}
	}
	f.Add([]byte("name: x\nfields:\n  - {name: a, bits: 8, offset: 4}\n"))
	// The big-spec paths: a field at a huge offset, a huge field with elision off.
	f.Add([]byte("name: x\nfields:\n  - {name: a, bits: 8}\n  - {name: b, bits: 8, offset: 134217720}\n"))
	f.Add([]byte("name: x\nelide_rows: -1\nrow_bits: 8\nfields:\n  - {name: a, bits: 134217720}\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		s, err := gridyaml.Parse("f.yaml", src)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "gridyaml: f.yaml") {
				t.Fatalf("error without position prefix: %v", err)
			}
			return
		}
		// A parsed spec lays out, however large its offsets, into a diagram whose size follows
		// its fields: rows, and SVG bytes, in proportion to the fields (each elided to a few rows).
		d, err := bytegrid.Layout(s.Fields, s.Options)
		if err != nil {
			if len(s.Fields) > bytegrid.MaxRows/4 && strings.Contains(err.Error(), "rows") {
				return
			}
			t.Fatalf("parsed spec does not lay out: %v", err)
		}
		perField := bytegrid.MaxFieldRows + 3
		if e := s.Options.ElideRows; e > 0 {
			perField = e + 3
		} else if e == 0 {
			perField = 4 + 3
		}
		if len(d.Rows) > (len(s.Fields)+1)*perField {
			t.Fatalf("%d rows for %d fields", len(d.Rows), len(s.Fields))
		}
		var svg bytes.Buffer
		if err := svgcanvas.Write(&svg, d, svgcanvas.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		if max := 8<<10 + len(d.Rows)*(4<<10) + len(src)*64; svg.Len() > max {
			t.Fatalf("%d bytes of SVG for %d bytes of spec, %d rows", svg.Len(), len(src), len(d.Rows))
		}
	})
}

// TestDocumentedExamples parses every YAML example in the docs: the package doc's, and the
// ```yaml blocks of the READMEs, so that what users copy works.
func TestDocumentedExamples(t *testing.T) {
	src, err := os.ReadFile("gridyaml.go")
	if err != nil {
		t.Fatal(err)
	}
	// Every indented block of the package doc that starts with "name:" is a spec.
	blocks := map[string]string{}
	var doc []string
	n := 0
	flush := func() {
		if len(doc) > 0 && strings.HasPrefix(doc[0], "name:") {
			key := "gridyaml.go package doc"
			if n > 0 {
				key += fmt.Sprintf(" block %d", n+1)
			}
			blocks[key] = strings.Join(doc, "\n")
			n++
		}
		doc = nil
	}
	for _, line := range strings.Split(string(src), "\n") {
		if rest, ok := strings.CutPrefix(line, "//\t"); ok {
			doc = append(doc, rest)
			continue
		}
		flush()
		if !strings.HasPrefix(line, "//") {
			break
		}
	}
	if n < 2 {
		t.Errorf("found %d specs in the package doc, want the key reference and the figure example", n)
	}
	for _, readme := range []string{filepath.Join("..", "..", "README.md"), filepath.Join("..", "..", "examples", "protocols", "README.md")} {
		b, err := os.ReadFile(readme)
		if err != nil {
			t.Fatal(err)
		}
		for i, part := range strings.Split(string(b), "```yaml\n")[1:] {
			blocks[fmt.Sprintf("%s block %d", readme, i+1)] = strings.SplitN(part, "```", 2)[0]
		}
	}
	for name, block := range blocks {
		s, err := gridyaml.Parse(name, []byte(block))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if _, err := bytegrid.Layout(s.Fields, s.Options); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if len(blocks) < 2 {
		t.Errorf("found %d YAML blocks in the docs", len(blocks))
	}
	if !strings.Contains(blocks["gridyaml.go package doc"], "fields:") {
		t.Error("the package doc's example was not found")
	}
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestHostileSpecs counts the work a hostile spec costs: a spec of millions of tiny fields, or
// of millions of aliases, is refused on a count of its nodes before the YAML tree is built, so
// it allocates next to nothing (before the count, a 64 MiB spec cost 3.2 GB, and 9.6 million
// aliases 2.0 GB, before "more than 100000 fields"). A spec at the limit still parses.
func TestHostileSpecs(t *testing.T) {
	fields := func(n int) []byte {
		var b bytes.Buffer
		b.WriteString("name: x\nfields:\n")
		for i := 0; i < n; i++ {
			b.WriteString("  - {name: a, bits: 1}\n")
		}
		return b.Bytes()
	}
	aliases := func(n int) []byte {
		var b bytes.Buffer
		b.WriteString("name: x\nv: &a [1]\nw: [")
		for i := 0; i < n; i++ {
			b.WriteString("*a,")
		}
		b.WriteString("*a]\n")
		return b.Bytes()
	}
	for _, tt := range []struct {
		name string
		src  []byte
		line int
	}{
		{"fields", fields(gridyaml.MaxSize / 24), 287145},
		{"aliases", aliases(gridyaml.MaxSize / 4), 3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			n := allocated(func() { _, err = gridyaml.Parse("h.yaml", tt.src) })
			if err == nil || !strings.Contains(err.Error(), "YAML nodes") || !strings.HasPrefix(err.Error(), fmt.Sprintf("gridyaml: h.yaml:%d: ", tt.line)) {
				t.Fatalf("err = %v", err)
			}
			if n > 1<<20 {
				t.Errorf("refusing %d bytes of spec allocated %d bytes, want under 1 MiB", len(tt.src), n)
			}
			t.Logf("%d bytes of spec refused, %d bytes allocated: %v", len(tt.src), n, err)
		})
	}
	// 20,000 fields, well within the limits, parse; the count passes them untouched.
	if s, err := gridyaml.Parse("ok.yaml", fields(20000)); err != nil || len(s.Fields) != 20000 {
		t.Errorf("20000 fields: %v", err)
	}
}

// TestWrite writes every example spec and reads it back: the same fields and options.
func TestWrite(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "examples", "protocols", "*.yaml"))
	more, _ := filepath.Glob(filepath.Join("..", "..", "examples", "protocols", "figures", "*.yaml"))
	files = append(files, more...)
	if len(files) < 12 {
		t.Fatalf("%d examples", len(files))
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := gridyaml.Parse(f, src)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := gridyaml.Write(&buf, s); err != nil {
			t.Fatal(err)
		}
		back, err := gridyaml.Parse("written", buf.Bytes())
		if err != nil {
			t.Fatalf("%s written:\n%s\n%v", f, buf.String(), err)
		}
		if !reflect.DeepEqual(s, back) {
			t.Errorf("%s: read back differs:\n%+v\n%+v", f, s, back)
		}
	}
	// Strings that need quoting.
	s := &gridyaml.Spec{Name: `a "b": c # d`, Fields: []bytegrid.Field{{Bits: 8, Name: "x: {y}, [z]", Path: "x: {y}, [z]", Label: bytegrid.LabelStacked, Condition: "if a\nb", Optional: true}}}
	var buf bytes.Buffer
	gridyaml.Write(&buf, s)
	back, err := gridyaml.Parse("q", buf.Bytes())
	if err != nil || !reflect.DeepEqual(s, back) {
		t.Errorf("quoting: %v\n%s\n%+v", err, buf.String(), back)
	}
}
