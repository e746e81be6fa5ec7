package gridyaml_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/bytegrid/gridyaml"
)

// TestWriteRoundTrip: every protocol example, written and read again, is the same spec; and
// writing is stable (the written text written again is the same).
func TestWriteRoundTrip(t *testing.T) {
	files, _ := filepath.Glob("../../examples/protocols/*.yaml")
	if len(files) < 4 {
		t.Fatalf("%d examples", len(files))
	}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		spec, err := gridyaml.Parse(file, src)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := gridyaml.Write(&b, spec); err != nil {
			t.Fatal(err)
		}
		again, err := gridyaml.Parse("written", b.Bytes())
		if err != nil {
			t.Fatalf("%s: written spec does not read: %v\n%s", file, err, b.String())
		}
		if !reflect.DeepEqual(again, spec) {
			t.Errorf("%s: read again as\n%+v\nwant\n%+v\n%s", file, again, spec, b.String())
		}
		var c bytes.Buffer
		if err := gridyaml.Write(&c, again); err != nil || c.String() != b.String() {
			t.Errorf("%s: written twice differs (%v)", file, err)
		}
		if n := strings.Count(b.String(), "\n  - {name:"); n != len(spec.Fields) {
			t.Errorf("%s: %d one-line fields, want %d", file, n, len(spec.Fields))
		}
	}
}

// TestWriteKeys: what is written for options and field properties that differ from the
// defaults, gaps and values that look like numbers included.
func TestWriteKeys(t *testing.T) {
	s := &gridyaml.Spec{
		Name: "T: a test", Desc: "x", Caption: "Figure 2: T",
		Options: bytegrid.Options{RowBits: 16, DecimalOffsets: true, ElideRows: -1, NoHex: true, Data: []byte{1, 2, 3}, GroupColors: map[string]int{"Z": 3, "A": 1}},
		Fields: []bytegrid.Field{
			{Offset: 0, Bits: 4, Name: "V", Value: "4", Group: "Z", Kind: bytegrid.Header, Path: "v"},
			{Offset: 8, Bits: 8, Name: "Len", Value: "true", Group: "A", Item: "[0]", Short: "L", Type: "uint8", Desc: "d"},
			{Offset: 16, Bits: 8, Name: "Opts", Variable: true, MinBits: 8, MaxBits: 320, LengthFrom: "Len", Optional: true, Condition: "if Len > 0", Label: bytegrid.LabelStacked, Repeated: true},
		},
	}
	var b bytes.Buffer
	if err := gridyaml.Write(&b, s); err != nil {
		t.Fatal(err)
	}
	want := `name: 'T: a test'
description: x
caption: 'Figure 2: T'
row_bits: 16
offsets: decimal
elide_rows: -1
hex: false
data: 01 02 03
groups: {Z: 3, A: 1}
fields:
  - {name: V, bits: 4, value: "4", group: Z, kind: header, path: v}
  - {name: Len, bytes: 1, offset: 8, value: "true", group: A, type: uint8, desc: d, item: '[0]', short: L}
  - {name: Opts, bytes: 1, variable: true, min_bits: 8, max_bits: 320, length_from: Len, optional: true, condition: if Len > 0, label: stacked, repeated: true}
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	if back, err := gridyaml.Parse("keys", b.Bytes()); err != nil || back.Fields[1].Item != "[0]" || back.Fields[1].Short != "L" || back.Caption != s.Caption {
		t.Errorf("item, short and caption read back: %v, %+v", err, back)
	}
	if err := gridyaml.Write(&b, &gridyaml.Spec{}); err == nil {
		t.Error("a spec without a name written")
	}
	// An unnamed field (bit-field's gaps) is an unlabelled box, read back as it was written.
	b.Reset()
	unnamed := &gridyaml.Spec{Name: "x", Fields: []bytegrid.Field{{Bits: 3, Kind: bytegrid.Padding}, {Offset: 3, Bits: 5, Name: "a", Path: "a"}, {Offset: 8, Bits: 8}}}
	if err := gridyaml.Write(&b, unnamed); err != nil || b.String() != "name: x\nfields:\n  - {name: \"\", bits: 3, kind: reserved}\n  - {name: a, bits: 5}\n  - {name: \"\", bytes: 1}\n" {
		t.Errorf("unnamed fields: %v\n%s", err, b.String())
	}
	back, err := gridyaml.Parse("x", b.Bytes())
	if err != nil || !reflect.DeepEqual(back.Fields, unnamed.Fields) {
		t.Errorf("unnamed fields read back: %v\n%+v", err, back)
	}
	if _, err := gridyaml.Parse("x", []byte("name: x\nfields:\n  - {bits: 3}\n")); err == nil || !strings.Contains(err.Error(), "missing name") {
		t.Errorf("a field with no name key: %v", err)
	}
}

// A spec read from another form (here built in Go) printed as YAML for editing.
func ExampleWrite() {
	s := &gridyaml.Spec{Name: "HTTP Frame", Options: bytegrid.Options{RowBits: 32}, Fields: []bytegrid.Field{
		{Offset: 0, Bits: 24, Name: "Length"},
		{Offset: 24, Bits: 8, Name: "Type"},
		{Offset: 32, Bits: 8, Name: "Flags"},
		{Offset: 40, Bits: 1, Name: "Reserved"},
		{Offset: 41, Bits: 31, Name: "Stream Identifier"},
	}}
	if err := gridyaml.Write(os.Stdout, s); err != nil {
		fmt.Println(err)
	}
	// Output:
	// name: HTTP Frame
	// row_bits: 32
	// fields:
	//   - {name: Length, bytes: 3}
	//   - {name: Type, bytes: 1}
	//   - {name: Flags, bytes: 1}
	//   - {name: Reserved, bits: 1}
	//   - {name: Stream Identifier, bits: 31}
}

// FuzzWrite: whatever Parse reads, Write writes as a spec Parse reads back the same.
func FuzzWrite(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "examples", "protocols", "*.yaml"))
	for _, file := range files {
		if src, err := os.ReadFile(file); err == nil {
			f.Add(src)
		}
	}
	f.Add([]byte("name: \"x: y\"\ndata: 00 ff\nfields:\n  - {name: '- a', bits: 3, value: 'null', group: '&b'}\n  - {name: b, bits: 5, offset: 8, kind: padding}\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		s, err := gridyaml.Parse("f.yaml", src)
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := gridyaml.Write(&b, s); err != nil {
			t.Fatal(err) // (Parse makes no unnamed field)
		}
		again, err := gridyaml.Parse("again.yaml", b.Bytes())
		if err != nil {
			t.Fatalf("written spec does not read: %v\n%s", err, b.String())
		}
		if !reflect.DeepEqual(again, s) {
			t.Fatalf("read again as\n%+v\nwant\n%+v\n%s", again, s, b.String())
		}
	})
}
