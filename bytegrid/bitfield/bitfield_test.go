package bitfield_test

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/bytegrid/bitfield"
	"github.com/kafkagrid/kafkagrid/bytegrid/gridyaml"
)

// short lists fields as "offset+bits name".
func short(fs []bytegrid.Field) string {
	var b []string
	for _, f := range fs {
		b = append(b, fmt.Sprintf("%d+%d %s", f.Offset, f.Bits, f.Name))
	}
	return strings.Join(b, ", ")
}

// TestIPv4: examples/protocols/ipv4-bitfield.json, read with the flags the README gives
// bit-field (--lanes 6 --hflip --vflip), is RFC 791's header as ipv4.yaml describes it, field
// for field (the JSON has one Options + Padding field where the YAML has two).
func TestIPv4(t *testing.T) {
	src, err := os.ReadFile("../../examples/protocols/ipv4-bitfield.json")
	if err != nil {
		t.Fatal(err)
	}
	spec, err := bitfield.Parse("ipv4-bitfield.json", src, bitfield.Options{Lanes: 6, HFlip: true, VFlip: true})
	if err != nil {
		t.Fatal(err)
	}
	ysrc, err := os.ReadFile("../../examples/protocols/ipv4.yaml")
	if err != nil {
		t.Fatal(err)
	}
	y, err := gridyaml.Parse("ipv4.yaml", ysrc)
	if err != nil {
		t.Fatal(err)
	}
	want := y.Fields[:len(y.Fields)-2]
	got := spec.Fields[:len(spec.Fields)-1]
	if short(got) != short(want) {
		t.Errorf("fields\n%s\nwant\n%s", short(got), short(want))
	}
	if last := spec.Fields[len(spec.Fields)-1]; last.Offset != 160 || last.Bits != 32 || last.Name != "Options + Padding" {
		t.Errorf("last field %+v", last)
	}
	if spec.Options.RowBits != 32 || spec.Lanes != 6 {
		t.Errorf("rows of %d bits, %d lanes", spec.Options.RowBits, spec.Lanes)
	}
	if _, err := bytegrid.Layout(spec.Fields, spec.Options); err != nil {
		t.Error(err)
	}
	// Without the flags, as bit-field draws the same file: one lane of 192 bits, bit 0 at the
	// right, so Version is the last 4 bits of the row.
	plain, err := bitfield.Parse("ipv4-bitfield.json", src, bitfield.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if v := plain.Fields[len(plain.Fields)-1]; v.Name != "Version" || v.Offset != 188 || plain.Options.RowBits != 192 {
		t.Errorf("unflipped: last field %+v, rows of %d", v, plain.Options.RowBits)
	}
}

// TestPlace: where each field lands, in every orientation, a field crossing lanes included.
func TestPlace(t *testing.T) {
	// bit-field's own example (its README's alpha.json), one lane, bit 0 at the right.
	alpha := `[
    { "name": "IPO",   "bits": 8, "attr": "RO" },
    {                  "bits": 7 },
    { "name": "BRK",   "bits": 5, "attr": "RW", "type": 4 },
    { "name": "CPK",   "bits": 1 },
    { "name": "Clear", "bits": 3 },
    { "bits": 8 }
]`
	spec, err := bitfield.Parse("alpha.json", []byte(alpha), bitfield.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := short(spec.Fields), "0+8 , 8+3 Clear, 11+1 CPK, 12+5 BRK, 17+7 , 24+8 IPO"; got != want {
		t.Errorf("alpha: %s, want %s", got, want)
	}
	d, err := bytegrid.Layout(spec.Fields, spec.Options)
	if err != nil {
		t.Fatal(err)
	}
	var txt strings.Builder
	if err := d.WriteText(&txt); err != nil || !strings.Contains(txt.String(), "Clear") {
		t.Errorf("alpha as text: %v\n%s", err, txt.String())
	}
	brk := spec.Fields[3]
	if brk.Value != "RW" || brk.Group != "type 4" || spec.Options.GroupColors["type 4"] != 2 || spec.Fields[0].Kind != bytegrid.Padding {
		t.Errorf("alpha: %+v %+v %v", brk, spec.Fields[0], spec.Options.GroupColors)
	}

	const cross = `[{"name": "A", "bits": 12}, {"name": "B", "bits": 8}, {"bits": 12}]`
	for _, tc := range []struct {
		opt  bitfield.Options
		want string
	}{
		{bitfield.Options{Lanes: 2}, "0+12 , 12+4 B, 16+4 B, 20+12 A"},
		{bitfield.Options{Lanes: 2, HFlip: true}, "0+4 B, 4+12 A, 16+12 , 28+4 B"},
		{bitfield.Options{Lanes: 2, VFlip: true}, "0+4 B, 4+12 , 16+12 A, 28+4 B"},
		{bitfield.Options{Lanes: 2, HFlip: true, VFlip: true}, "0+12 A, 12+8 B, 20+12 "},
		{bitfield.Options{Lanes: 4, HFlip: true, VFlip: true}, "0+12 A, 12+8 B, 20+12 "},
	} {
		s, err := bitfield.Parse("cross.json", []byte(cross), tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		if got := short(s.Fields); got != tc.want {
			t.Errorf("%+v: %s, want %s", tc.opt, got, tc.want)
		}
		if _, err := bytegrid.Layout(s.Fields, s.Options); err != nil {
			t.Errorf("%+v: %v", tc.opt, err)
		}
	}
}

// TestWaveDrom: WaveDrom's object form in the JSON5 its editor writes, config and legend.
func TestWaveDrom(t *testing.T) {
	const src = `// a register
{reg: [
  {bits: 8, name: 'IPO', attr: ['RO', null, 5], type: 2},
  {bits: 4, name: 0xa, rotate: -90},
  {bits: 4, name: "<o>F</o>", type: 9,},
], config: {lanes: 1, hspace: 888, fontfamily: 'monospace', /* sizes */ legend: {'Read-only': 2}}}
`
	spec, err := bitfield.Parse("reg.json5", []byte(src), bitfield.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []bytegrid.Field{
		{Offset: 0, Bits: 4, Name: "F", Group: "type 9", Path: "F"},
		{Offset: 4, Bits: 4, Name: "1010", Path: "1010", Label: bytegrid.LabelVertical},
		{Offset: 8, Bits: 8, Name: "IPO", Value: "RO, 00000101", Group: "Read-only", Path: "IPO"},
	}
	if !reflect.DeepEqual(spec.Fields, want) {
		t.Errorf("fields\n%+v\nwant\n%+v", spec.Fields, want)
	}
	if !reflect.DeepEqual(spec.Options, bytegrid.Options{RowBits: 16, GroupColors: map[string]int{"Read-only": 0}, LSB0: true}) {
		t.Errorf("options %+v", spec.Options)
	}
}

// TestErrors: bad documents get errors at their line and column.
func TestErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{``, "x:1:1: unexpected end of input"},
		{`[{"name": "A"}]`, "x:1:2: field \"A\": no bits"},
		{`[{"name": "A", "bits": 0}]`, "x:1:24: field \"A\" bits: want a whole number from 1"},
		{`[{"name": "A", "bits": 2.5}]`, "want a whole number"},
		{"[\n {\"bits\": 8, \"colour\": 3}]", "x:2:14: field #1: unknown key \"colour\""},
		{`[{"bits": 8}, 7]`, "x:1:15: field #2: want an object, got a number"},
		{`{"reg": [], "conf": {}}`, "x:1:13: unknown key \"conf\""},
		{`{"config": {}}`, "no \"reg\""},
		{`{"reg": [{"bits": 8}], "config": {"lanes": "2"}}`, "config lanes: want a whole number"},
		{`{"reg": [{"bits": 8}], "config": {"colour": 1}}`, "config: unknown key \"colour\""},
		{`[{"bits": 8, "name": "A"}, {"bits": 8, "name": "B"}] x`, "x:1:54: unexpected 'x' after the document"},
		{`[{"bits": 8, "name": "A}]`, "x:1:22: string not closed"},
		{`[{"bits": 8, "bits": 4}]`, "x:1:14: key \"bits\" given twice"},
		{`[{"bits": 8} /* x`, "x:1:14: comment not closed"},
		{`[{"bits": 8,, }]`, "unexpected ','"},
		{`[{"bits": 0x}]`, "bad number"},
		{`[{"bits": Infinity}]`, "unexpected word \"Infinity\""},
		{`[]`, "no bits"},
		{strings.Repeat("[", 100) + strings.Repeat("]", 100), "nested more than 64 deep"},
	} {
		_, err := bitfield.Parse("x", []byte(tc.src), bitfield.Options{})
		var be *bitfield.Error
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.As(err, &be) {
			t.Errorf("Parse(%q) = %v, want an error with %q", tc.src, err, tc.want)
		}
	}
	// Past the lanes: bit-field would not draw it, so it is an error.
	_, err := bitfield.Parse("x", []byte(`[{"bits": 8}, {"name": "B", "bits": 8}]`), bitfield.Options{Bits: 8})
	if err == nil || !strings.Contains(err.Error(), "x:1:15: field \"B\": bits 8 to 15 lie past the 8 bits") {
		t.Errorf("got %v", err)
	}
}

func FuzzParse(f *testing.F) {
	src, _ := os.ReadFile("../../examples/protocols/ipv4-bitfield.json")
	f.Add(src, 6, true, true)
	f.Add([]byte(`{reg: [{bits: 8, name: 'IPO', attr: ['RO', 5], type: 2}, {bits: 3}], config: {lanes: 2, legend: {a: 2}}}`), 0, false, false)
	f.Add([]byte(`[{"name": "A", "bits": 12}, {"name": "B", "bits": 8}, {"bits": 12}]`), 2, false, true)
	f.Fuzz(func(t *testing.T, src []byte, lanes int, hflip, vflip bool) {
		lanes %= 64
		spec, err := bitfield.Parse("fuzz", src, bitfield.Options{Lanes: lanes, HFlip: hflip, VFlip: vflip})
		if err != nil {
			var be *bitfield.Error
			if !errors.As(err, &be) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		if err := bytegrid.CheckFields(spec.Fields); err != nil {
			t.Fatal(err)
		}
		for _, f := range spec.Fields {
			if f.Offset+f.Bits > spec.Lanes*spec.LaneBits {
				t.Fatalf("field %+v past %d lanes of %d", f, spec.Lanes, spec.LaneBits)
			}
		}
	})
}
