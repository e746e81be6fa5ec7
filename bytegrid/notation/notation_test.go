package notation_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/bytegrid/gridyaml"
	"github.com/kafkagrid/kafkagrid/bytegrid/notation"
)

// TestRoundTrip: each example (RFC 9000's long header, ACK and STREAM frames, RFC 9113's frame
// header, RFC 9114's SETTINGS frame) is written back as it was read, and the text written
// reads as the same fields.
func TestRoundTrip(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txt")
	if len(files) < 5 {
		t.Fatalf("%d examples", len(files))
	}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		spec, err := notation.Parse(file, src)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := notation.Write(&b, spec.Name, spec.Fields); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if b.String() != string(src) {
			t.Errorf("%s: written back as\n%s\nwant\n%s", file, b.String(), src)
		}
		again, err := notation.Parse("again", b.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(again, spec) {
			t.Errorf("%s: read again as %+v, want %+v", file, again, spec)
		}
		if _, err := bytegrid.Layout(spec.Fields, spec.Options); err != nil {
			t.Errorf("%s: %v", file, err)
		}
	}
}

// TestFields: what each form becomes, on RFC 9000's long header as the RFC prints it
// (indented, with its caption) and the ACK frame's references.
func TestFields(t *testing.T) {
	const rfc = `
   Long Header Packet {
     Header Form (1) = 1,
     Fixed Bit (1) = 1,
     Long Packet Type (2),
     Type-Specific Bits (4),
     Version (32),
     Destination Connection ID Length (8),
     Destination Connection ID (0..160),
     Source Connection ID Length (8),
     Source Connection ID (0..160),
     Type-Specific Payload (..),
   }

                   Figure 13: Long Header Packet Format
`
	spec, err := notation.Parse("rfc9000", []byte(rfc))
	if err != nil {
		t.Fatal(err)
	}
	if spec.Name != "Long Header Packet" || len(spec.Fields) != 10 || spec.Options.RowBits != 32 {
		t.Fatalf("%+v", spec)
	}
	want := []bytegrid.Field{
		{Offset: 0, Bits: 1, Name: "Header Form", Value: "1", Path: "Header Form"},
		{Offset: 1, Bits: 1, Name: "Fixed Bit", Value: "1", Path: "Fixed Bit"},
		{Offset: 2, Bits: 2, Name: "Long Packet Type", Path: "Long Packet Type"},
		{Offset: 4, Bits: 4, Name: "Type-Specific Bits", Path: "Type-Specific Bits"},
		{Offset: 8, Bits: 32, Name: "Version", Path: "Version"},
		{Offset: 40, Bits: 8, Name: "Destination Connection ID Length", Path: "Destination Connection ID Length"},
		{Offset: 48, Bits: 16, Name: "Destination Connection ID", Path: "Destination Connection ID", Variable: true, MaxBits: 160, LengthFrom: "Destination Connection ID Length"},
		{Offset: 64, Bits: 8, Name: "Source Connection ID Length", Path: "Source Connection ID Length"},
		{Offset: 72, Bits: 24, Name: "Source Connection ID", Path: "Source Connection ID", Variable: true, MaxBits: 160, LengthFrom: "Source Connection ID Length"},
		{Offset: 96, Bits: 32, Name: "Type-Specific Payload", Path: "Type-Specific Payload", Variable: true},
	}
	if !reflect.DeepEqual(spec.Fields, want) {
		t.Errorf("fields\n%+v\nwant\n%+v", spec.Fields, want)
	}

	src, _ := os.ReadFile("testdata/quic-ack-frame.txt")
	ack, err := notation.Parse("ack", src)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range ack.Fields {
		s := f.Path
		if f.Optional {
			s = "[" + s + "]"
		}
		if f.Repeated {
			s += " ..."
		}
		if f.Kind != bytegrid.Varint || !f.Variable || f.MinBits != 8 || f.MaxBits != 64 {
			t.Errorf("%s: not a variable-length integer: %+v", f.Name, f)
		}
		got = append(got, s)
	}
	wantPaths := "Type|Largest Acknowledged|ACK Delay|ACK Range Count|First ACK Range|ACK Range.Gap ...|ACK Range.ACK Range Length ...|[ECN Counts.ECT0 Count]|[ECN Counts.ECT1 Count]|[ECN Counts.ECN-CE Count]"
	if strings.Join(got, "|") != wantPaths {
		t.Errorf("ACK frame:\n%s\nwant\n%s", strings.Join(got, "|"), wantPaths)
	}
	if ack.Fields[0].Bits != 8 || ack.Fields[0].Value != "0x02..0x03" || ack.Fields[1].Bits != 24 || ack.Fields[2].Bits != 32 || ack.Fields[5].Group != "ACK Range" {
		t.Errorf("ACK frame fields: %+v", ack.Fields[:6])
	}
}

// TestLengths: every length form, and how a variable field is drawn.
func TestLengths(t *testing.T) {
	for _, tc := range []struct {
		len            string
		bits, min, max int
		variable       bool
	}{
		{"7", 7, 0, 0, false},
		{"..", 32, 0, 0, true},
		{"8..24", 24, 8, 24, true},
		{"16..", 32, 16, 0, true},
		{"64..", 64, 64, 0, true},
		{"..128", 32, 0, 128, true},
		{"0..8", 8, 0, 8, true},
		{" 8 .. 16 ", 16, 8, 16, true},
	} {
		spec, err := notation.Parse("x", []byte("S { F ("+tc.len+") }"))
		if err != nil {
			t.Errorf("(%s): %v", tc.len, err)
			continue
		}
		f := spec.Fields[0]
		if f.Bits != tc.bits || f.MinBits != tc.min || f.MaxBits != tc.max || f.Variable != tc.variable {
			t.Errorf("(%s): %+v", tc.len, f)
		}
	}
	// Mid-row: to the row's end, or the next row's for a minimum that needs more.
	for src, want := range map[string]string{
		"S { A (8), B (..) }":     "8+24",
		"S { A (24), B (16..) }":  "24+40",
		"S { A (24), B (..4) }":   "24+4",
		"S { A (4), B (i) }":      "4+28",
		"S { A (28), B (i) }":     "28+36",
		"S { A (31), B (1..1) }":  "31+1",
		"S { A (32), B (8..24) }": "32+24",
	} {
		spec, err := notation.Parse("x", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if b := spec.Fields[1]; fmt.Sprintf("%d+%d", b.Offset, b.Bits) != want {
			t.Errorf("%s: B at %d+%d, want %s", src, b.Offset, b.Bits, want)
		}
	}
	for v, bits := range map[string]int{"0": 8, "63": 8, "64": 16, "0x3fff": 16, "16384": 32, "0x40000000": 64} {
		spec, err := notation.Parse("x", []byte("S { F (i) = "+v+" }"))
		if err != nil || spec.Fields[0].Bits != bits {
			t.Errorf("(i) = %s: %v %+v, want %d bits", v, err, spec, bits)
		}
	}
}

// TestErrors: bad input gets an error with its line and column.
func TestErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"", "x:1:1: no structure"},
		{"S {\n  A (8),\n  B (x),\n}", "x:3:6: field \"B\": length \"x\""},
		{"S {\n  A (8)\n  B (8),\n}", "x:3:3: want \",\" or \"}\" after field \"A\""},
		{"S {\n  A (8),\n", "no closing \"}\""},
		{"S {\n  [A (8),\n}", "x:2:9: field \"A\": want \"]\""},
		{"S {\n  A (0),\n}", "x:2:6: field \"A\": length 0"},
		{"S {\n  A (16..8),\n}", "maximum is below the minimum"},
		{"S {\n  A (8) = ,\n}", "x:2:10: field \"A\": \"=\" without a value"},
		{"S { T (..) }\nT { S (8) }", "refers to itself"},
		{"S { T (16) }\nT { A (8) }", "length 16, but its fields add up to 8 bits"},
		{"S { A (8) }\nS { B (8) }", "x:2:1: structure \"S\" defined again"},
		{"just text\n", "x:2:1: no structure"},
		{"S { A (8) ] }", "x:1:11: want \",\" or \"}\""},
		{"S { A 8 }", "x:1:9: want a field, \"Name (length)\", got \"A 8\""},
		{"S { A (999999999999) }", "more than 134217728 bits"},
		{"S { A (-1) }", "want a number of bits"},
		{"S { A (200000000) }", "more than 134217728 bits"},
	} {
		_, err := notation.Parse("x", []byte(tc.src))
		var ne *notation.Error
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.As(err, &ne) {
			t.Errorf("Parse(%q) = %v, want an error with %q", tc.src, err, tc.want)
		}
	}
}

// TestExpansionBound: references that double at each level are refused once they pass the
// field limit, without building them all.
func TestExpansionBound(t *testing.T) {
	var b strings.Builder
	b.WriteString("S0 { S1 (..), S1 (..) }\n")
	for i := 1; i < 40; i++ {
		b.WriteString("S" + itoa(i) + " { S" + itoa(i+1) + " (..), S" + itoa(i+1) + " (..) }\n")
	}
	_, err := notation.Parse("x", []byte(b.String()+"S40 { A (8) }\n"))
	if err == nil || !strings.Contains(err.Error(), "more than 100000 fields") {
		t.Errorf("got %v", err)
	}
	// Empty structures at the end of the chain: the references alone are bounded.
	_, err = notation.Parse("x", []byte(b.String()+"S40 { }\n"))
	if err == nil || !strings.Contains(err.Error(), "more than 400000 fields and references") {
		t.Errorf("got %v", err)
	}
}

// TestPathBound: a chain of 300 structures with 100-letter names, each referring to the next,
// then 10 levels that double, is a 70 KB document whose 1,024 fields would have paths of 30 KB
// each (and 17 levels more ran out of memory past 1.3 GB): it is refused at the reference
// where the paths pass their bound, having allocated a bounded amount.
func TestPathBound(t *testing.T) {
	const chain, doubling = 300, 10
	name := func(i int) string { return "N" + itoa(i) + strings.Repeat("x", 100) }
	var b strings.Builder
	for i := 0; i < chain+doubling; i++ {
		b.WriteString(name(i) + " {\n  " + name(i+1) + " (..),\n")
		if i >= chain {
			b.WriteString("  " + name(i+1) + " (..),\n")
		}
		b.WriteString("}\n")
	}
	b.WriteString(name(chain+doubling) + " {\n  A (8),\n}\n")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := notation.Parse("deep.txt", []byte(b.String()))
	runtime.ReadMemStats(&after)
	var ne *notation.Error
	if !errors.As(err, &ne) || ne.Line < 1 || ne.Col < 1 || !strings.Contains(err.Error(), "paths pass 67108864 bytes") {
		t.Fatalf("%d bytes: got %v", b.Len(), err)
	}
	if grown := after.TotalAlloc - before.TotalAlloc; grown > 96<<20 {
		t.Errorf("%d KB allocated to refuse a %d KB document", grown>>10, b.Len()>>10)
	}
	// Real paths are short: RFC 9000's ACK frame, its ranges and ECN counts, reads as before.
	src, err := os.ReadFile(filepath.Join("testdata", "quic-ack-frame.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := notation.Parse("ack.txt", src); err != nil {
		t.Error(err)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestWriteSameStructure: a structure referred to twice (two runs of the same fields) is
// defined once, and reads back as the same fields.
func TestWriteSameStructure(t *testing.T) {
	src := "P {\n  R (..) ...,\n  X (8),\n  R (..) ...,\n}\n\nR {\n  Gap (i),\n  Len (8),\n}\n"
	s, err := notation.Parse("p.txt", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := notation.Write(&b, s.Name, s.Fields); err != nil || b.String() != src {
		t.Errorf("written as %v\n%s\nwant\n%s", err, b.String(), src)
	}
}

// TestWriteOther: fields from another source (groups that are not structures, gaps, names
// and values the notation cannot hold).
func TestWriteOther(t *testing.T) {
	fields := []bytegrid.Field{
		{Offset: 0, Bits: 16, Name: "Source Port", Group: "Ports", Path: "Source Port"},
		{Offset: 16, Bits: 16, Name: "Destination Port", Value: "53"},
		{Offset: 32, Bits: 8, Name: "Token Length"},
		{Offset: 40, Bits: 32, Name: "Token", Variable: true, Optional: true, Condition: "if the length is not 0"},
		{Offset: 72, Bits: 48, Name: "Setting", Repeated: true},
	}
	var b bytes.Buffer
	if err := notation.Write(&b, "Thing", fields); err != nil {
		t.Fatal(err)
	}
	want := "Thing {\n  Source Port (16),\n  Destination Port (16) = 53,\n  Token Length (8),\n  [Token (..)],\n  Setting (48) ...,\n}\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	for _, tc := range []struct {
		fields []bytegrid.Field
		want   string
	}{
		{[]bytegrid.Field{{Offset: 4, Bits: 4, Name: "A"}}, "bits 0 to 4 have no field"},
		{[]bytegrid.Field{{Offset: 0, Bits: 4}}, "has no name"},
		{[]bytegrid.Field{{Offset: 0, Bits: 4, Name: "Options (if any)"}}, "cannot hold"},
		{[]bytegrid.Field{{Offset: 0, Bits: 24, Name: "Options", Value: "NOP, NOP, EOL"}}, `the value "NOP, NOP, EOL" cannot be written`},
		// A group written as a structure has one definition: two runs of it that differ
		// were written as two references to the first run's fields.
		{[]bytegrid.Field{
			{Offset: 0, Bits: 8, Name: "a", Group: "G", Path: "G.a"},
			{Offset: 8, Bits: 8, Name: "b"},
			{Offset: 16, Bits: 16, Name: "c", Group: "G", Path: "G.c"},
		}, `field "c" at bit 16: its group "G" is written as a structure, defined by the fields at bit 0, and these fields differ`},
		// A field named as a structure written reads back as a reference to it.
		{[]bytegrid.Field{
			{Offset: 0, Bits: 8, Name: "G"},
			{Offset: 8, Bits: 8, Name: "a", Group: "G", Path: "G.a"},
		}, `field "G" at bit 0: its name is that of the structure its group "G" is written as`},
		{[]bytegrid.Field{{Offset: 0, Bits: 8, Name: "T"}}, `field "T" at bit 0: its name is the structure's`},
		{[]bytegrid.Field{{Offset: 0, Bits: 8, Name: "a", Group: "T", Path: "T.a"}}, `structure "T": a group of its fields has its name`},
	} {
		err := notation.Write(&b, "T", tc.fields)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Write(%+v) = %v, want %q", tc.fields, err, tc.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.txt")
	for _, file := range files {
		src, _ := os.ReadFile(file)
		f.Add(src)
	}
	f.Add([]byte("S { [A (8)] ..., B (i) = 7 ..., C (..16) }\nFigure 1: x\n"))
	f.Add([]byte("H { X (i) }\nS { T (8), H (..) ... }\nG { U (16), H (..) }\nFigure 7: S\n"))
	f.Add([]byte("See {{x}} {\n~~~\nA {\n  B (8),\n}\n~~~\n{: #a title=\"A Format\"}\n{: }\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		spec, err := notation.Parse("fuzz", src)
		if err != nil {
			var ne *notation.Error
			if !errors.As(err, &ne) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		if err := bytegrid.CheckFields(spec.Fields); err != nil {
			t.Fatalf("fields do not check: %v", err)
		}
		// What is written reads back as the same fields.
		var b bytes.Buffer
		if err := notation.Write(&b, spec.Name, spec.Fields); err != nil {
			return // a name the writer refuses ("Options (x)" cannot come from Parse, but "…" names may)
		}
		again, err := notation.Parse("again", b.Bytes())
		if err != nil {
			t.Fatalf("written text does not read: %v\n%s", err, b.String())
		}
		if len(again.Fields) != len(spec.Fields) {
			t.Fatalf("%d fields read again, %d first\n%s", len(again.Fields), len(spec.Fields), b.String())
		}
		// Every structure drawn (All): written, each keeps its fields.
		all, err := notation.ParseOptions("fuzz", src, notation.Options{All: true})
		if err != nil {
			// (a structure no other reaches may be wrong where the drawn one is not: one
			// referring to itself)
			var ne *notation.Error
			if !errors.As(err, &ne) {
				t.Fatalf("error with All of type %T: %v", err, err)
			}
			return
		}
		if err := bytegrid.CheckFields(all.Fields); err != nil {
			t.Fatalf("fields with All do not check: %v", err)
		}
		b.Reset()
		if err := notation.Write(&b, all.Name, all.Fields); err != nil {
			return
		}
		if again, err = notation.ParseOptions("again", b.Bytes(), notation.Options{All: true}); err != nil {
			t.Fatalf("written text (All) does not read: %v\n%s", err, b.String())
		}
		if len(again.Fields) != len(all.Fields) {
			t.Fatalf("All: %d fields read again, %d first\n%s", len(again.Fields), len(all.Fields), b.String())
		}
	})
}

// TestRFC9113Data: RFC 9113's DATA frame as the RFC prints it (blank lines between groups of
// fields, a field name used twice, an optional field, a maximum alone) reads, and what is
// written reads back as the same fields.
func TestRFC9113Data(t *testing.T) {
	const src = `
  DATA Frame {
    Length (24),
    Type (8) = 0x00,

    Unused Flags (4),
    PADDED Flag (1),
    Unused Flags (2),
    END_STREAM Flag (1),

    Reserved (1),
    Stream Identifier (31),

    [Pad Length (8)],
    Data (..),
    Padding (..2040),
  }

                         Figure 3: DATA Frame Format
`
	spec, err := notation.Parse("rfc9113", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range spec.Fields {
		got = append(got, fmt.Sprintf("%d+%d %s", f.Offset, f.Bits, f.Name))
	}
	want := "0+24 Length|24+8 Type|32+4 Unused Flags|36+1 PADDED Flag|37+2 Unused Flags|39+1 END_STREAM Flag|40+1 Reserved|41+31 Stream Identifier|72+8 Pad Length|80+16 Data|96+32 Padding"
	if strings.Join(got, "|") != want {
		t.Errorf("fields\n%s\nwant\n%s", strings.Join(got, "|"), want)
	}
	if f := spec.Fields[8]; !f.Optional || f.Variable {
		t.Errorf("Pad Length: %+v", f)
	}
	if f := spec.Fields[10]; !f.Variable || f.MinBits != 0 || f.MaxBits != 2040 {
		t.Errorf("Padding: %+v", f)
	}
	var b bytes.Buffer
	if err := notation.Write(&b, spec.Name, spec.Fields); err != nil {
		t.Fatal(err)
	}
	again, err := notation.Parse("again", b.Bytes())
	if err != nil || !reflect.DeepEqual(again.Fields, spec.Fields) {
		t.Errorf("written as\n%s\nread back: %v", b.String(), err)
	}
	if !strings.Contains(b.String(), "  Padding (0..2040),\n") || !strings.Contains(b.String(), "  Type (8) = 0x00,\n") {
		t.Errorf("written as\n%s", b.String())
	}
}

// FuzzWriteFields: fields read from a YAML spec (its values cleared, as "kafkagrid grid
// -format notation" does) are written as notation that reads back as the same fields (names,
// offsets, lengths), or Write refuses them; it never writes text that reads as others.
func FuzzWriteFields(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "examples", "protocols", "*.yaml"))
	for _, file := range files {
		if src, err := os.ReadFile(file); err == nil {
			f.Add(src)
		}
	}
	f.Add([]byte("name: T\nfields:\n  - {name: a, bits: 8, group: G, path: G.a}\n  - {name: b, bits: 8, group: G, path: G.b}\n  - {name: c, bits: 16}\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		s, err := gridyaml.Parse("f.yaml", src)
		if err != nil {
			return
		}
		fields := slices.Clone(s.Fields)
		for i := range fields {
			fields[i].Value = ""
		}
		var b bytes.Buffer
		if err := notation.Write(&b, "T", fields); err != nil {
			return
		}
		again, err := notation.Parse("again.txt", b.Bytes())
		if err != nil {
			t.Fatalf("written notation does not read: %v\n%s", err, b.String())
		}
		if len(again.Fields) != len(fields) {
			t.Fatalf("%d fields read back, want %d\n%s", len(again.Fields), len(fields), b.String())
		}
		for i, g := range again.Fields {
			w := fields[i]
			if g.Name != w.Name || g.Offset != w.Offset || g.Bits != w.Bits {
				t.Fatalf("field %d read back as %q at %d, %d bits; want %q at %d, %d bits\n%s", i, g.Name, g.Offset, g.Bits, w.Name, w.Offset, w.Bits, b.String())
			}
		}
	})
}

// TestParseAll: with All, the structures the root does not refer to are drawn after it, each
// from a row of its own and captioned with its name; Write writes them back as structures of
// their own, and the document reads back the same. Without All they are warned about.
func TestParseAll(t *testing.T) {
	src := "Setting {\n  Identifier (i),\n  Value (i),\n}\n\nSETTINGS Frame {\n  Type (i) = 0x04,\n  Length (i),\n  Setting (..) ...,\n}\n\nGOAWAY Frame {\n  Type (i) = 0x07,\n  Stream ID (i),\n}\n\nFigure 7: SETTINGS Frame\n"
	plain, err := notation.Parse("f.txt", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(plain.Warnings) != 1 || !strings.Contains(plain.Warnings[0], `"GOAWAY Frame"`) {
		t.Errorf("warnings %q: want one naming GOAWAY Frame", plain.Warnings)
	}
	all, err := notation.ParseOptions("f.txt", []byte(src), notation.Options{All: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Warnings) != 0 {
		t.Errorf("warnings %q: want none, every structure drawn", all.Warnings)
	}
	if len(all.Fields) != len(plain.Fields)+2 {
		t.Fatalf("%d fields, want the %d of the frame and GOAWAY's 2", len(all.Fields), len(plain.Fields))
	}
	g := all.Fields[len(plain.Fields)]
	if g.Caption != "GOAWAY Frame" || g.Group != "GOAWAY Frame" || g.Path != "GOAWAY Frame.Type" || g.Offset%32 != 0 {
		t.Errorf("GOAWAY's first field %+v: want it captioned, in its group, starting a row", g)
	}
	var b strings.Builder
	if err := notation.Write(&b, all.Name, all.Fields); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"SETTINGS Frame {", "\nSetting {", "\nGOAWAY Frame {\n  Type (i) = 0x07,\n  Stream ID (i),\n}"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("written:\n%s\nwant %q", b.String(), want)
		}
	}
	again, err := notation.ParseOptions("again.txt", []byte(b.String()), notation.Options{All: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Fields) != len(all.Fields) {
		t.Fatalf("read back: %d fields, want %d", len(again.Fields), len(all.Fields))
	}
	for i := range all.Fields {
		if a, b := all.Fields[i], again.Fields[i]; a.Name != b.Name || a.Offset != b.Offset || a.Bits != b.Bits || a.Caption != b.Caption || a.Path != b.Path {
			t.Errorf("field %d read back %+v, want %+v", i, b, a)
		}
	}
}

// TestKramdown reads a figure as the QUIC, HTTP/3 and MASQUE drafts' Markdown prints it: prose
// holding a reference ("{{iana-types}}") before it, "~~~" fences around it, and a kramdown
// attribute list under it whose title is the figure's caption.
func TestKramdown(t *testing.T) {
	src := "The capsule (see {{iana-types}} for its type) is:\n\n~~~\nADDRESS_ASSIGN Capsule {\n  Type (i) = ADDRESS_ASSIGN,\n  Length (i),\n  IP Version (8),\n}\n~~~\n{: #addr-assign-format title=\"ADDRESS_ASSIGN Capsule Format\"}\n"
	s, err := notation.Parse("f.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Fields) != 3 || s.Fields[2].Name != "IP Version" || s.Fields[2].Bits != 8 {
		t.Errorf("fields %+v: want Type, Length, IP Version (8)", s.Fields)
	}
	if s.Caption != "ADDRESS_ASSIGN Capsule Format" {
		t.Errorf("caption %q: want the attribute list's title", s.Caption)
	}
	if len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0], "f.md:1:1: text outside the structures") {
		t.Errorf("warnings %q: want one, for the prose line (the fences are delimiters)", s.Warnings)
	}
}
