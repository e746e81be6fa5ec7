package forms_test

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/bytegrid/bitfield"
	"github.com/kafkagrid/kafkagrid/bytegrid/forms"
)

func TestDetect(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"name: x\nfields: []\n", "yaml"},
		{"# a comment\nname: x\n", "yaml"},
		{"", "yaml"},
		{"# only a comment {", "yaml"},
		{"\ufeff[{\"bits\": 8}]", "bitfield"},
		{"  \n{reg: [{bits: 8}]}", "bitfield"},
		{"// a register\n[{bits: 8}]", "bitfield"},
		{"/* x */ [{bits: 8}]", "bitfield"},
		{"/* a { */ [{bits: 8}]", "bitfield"},
		{"[a] {\n", "bitfield"},
		{"HTTP Frame {\n  Length (24),\n}", "notation"},
		{"\n   Long Header Packet {\n", "notation"},
		{"# a comment\nHTTP Frame {\n", "notation"},
		{"name: {x}\n", "yaml"},
		{"{ {\n", "yaml"},
		{"{name: x, fields: [{name: a, bits: 8}]}", "yaml"},
		{"{name: Aggregate, fields: [{name: a, bits: 8}]}", "yaml"},
		{"{name: x, fields: [{name: reg, bits: 8}]}", "yaml"},
		{"{\"config\": {\"lanes\": 2}, \"reg\": []}", "bitfield"},
		{"{\n  reg: [{bits: 8}],\n}", "bitfield"},
		{" 0                   1\n+-+-+-+-+-+-+-+-+\n", "rfc"},
		{"source: RFC 768\n+-+-+-+-+\n", "rfc"},
		{"+-+-+ {\n", "rfc"},
		{"|  A  |\n+=====+\n", "yaml"}, // a figure starts with a ruler or a rule
		{"name: x\ndescription: |\n  +-+-+\n", "yaml"},
		{"+ a +\n", "yaml"},
		// Told by content wherever the figure starts.
		{"SOURCE: RFC 1\n+-+-+\n|a|b|\n+-+-+\n", "rfc"},
		{"Source: RFC 1\n+-+-+\n|a|b|\n+-+-+\n", "rfc"},
		{"The header:\n\n  +-+-+\n  |a|b|\n  +-+-+\n", "rfc"},
		{"/*\n * +-+-+\n * |a|b|\n * +-+-+\n */\n", "rfc"},
		{"// +-+-+\n// |a|b|\n// +-+-+\n", "rfc"},
		{"   +0 (MSB)\n   +--+--+\n0: |  A  |\n   +--+--+\n", "rfc"},
		{"source: RFC 9114\n\nA {\n  B (8),\n}\n", "notation"},
		{"source: RFC 9000\n\n   1-RTT Packet {\n     Header Form (1) = 0,\n   }\n", "notation"}, // a name starting with a digit
		{"source: RFC 1\n\n   +-+-+\n   |a|b|\n   +-+-+\n   0 {\n", "rfc"},
		{"source: RFC 1\n\nname: x\nfields: []\n", "yaml"},
	} {
		if got := forms.Detect([]byte(tc.src)).Name; got != tc.want {
			t.Errorf("Detect(%q) = %s, want %s", tc.src, got, tc.want)
		}
	}
}

// TestSniffDisjoint: no source is claimed by two forms' sniff rules, so that the table's order
// does not decide.
func TestSniffDisjoint(t *testing.T) {
	srcs := []string{"[", "/* {", "{reg: []}", "a {", "+-+ {", "0 1 {", "source: x\n+-+", "# c\n+-+", "[x] {", "{ reg: 1 {"}
	for _, src := range srcs {
		var claims []string
		for _, f := range forms.All() {
			if f.Sniff != nil && f.Sniff([]byte(src)) {
				claims = append(claims, f.Name)
			}
		}
		if len(claims) > 1 {
			t.Errorf("%q claimed by %v", src, claims)
		}
	}
}

func TestNotationName(t *testing.T) {
	for in, want := range map[string]string{
		"A [b] {c}, (d) e (f (g))": "A b c e",
		"UDP header (RFC 768)":     "UDP header",
		"(x)":                      "Header",
	} {
		if got := forms.NotationName(in); got != want {
			t.Errorf("NotationName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestReadErrors: every form's reader returns a *bytegrid.SpecError with the place.
func TestReadErrors(t *testing.T) {
	for _, tc := range []struct {
		form, src string
		line, col int
		want      string
	}{
		{"yaml", "name: x\nfields:\n  - {name: a, bitz: 8}\n", 3, 0, `gridyaml: f:3: field "a": unknown key "bitz"`},
		{"rfc", "+-+-+-+-+-+-+-+-+\n|      A        |\n+-+-+-+-+-+-+-+-+\n|  B       |    |\n+-+-+-+-+-+-+-+-+\n", 4, 12, "rfcart: f:4:12: an edge"},
		{"notation", "X {\n  A (8),\n  B (x),\n}\n", 3, 6, "notation: f:3:6: "},
		{"bitfield", "[\n  {\"name\": \"A\", \"bits\": 8},\n  {\"name\": \"B\", \"bitz\": 8}\n]\n", 3, 0, "bitfield: f:3:"},
	} {
		_, f, err := forms.Read("f", []byte(tc.src), forms.Options{})
		var se *bytegrid.SpecError
		if f.Name != tc.form || !errors.As(err, &se) {
			t.Errorf("%s: read as %s: %v (%T)", tc.form, f.Name, err, err)
			continue
		}
		if se.Line != tc.line || tc.col != 0 && se.Col != tc.col || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: %v (line %d col %d), want %q at %d:%d", tc.form, err, se.Line, se.Col, tc.want, tc.line, tc.col)
		}
		moved := se.Within("doc.md", 10, 4)
		if moved.Line != tc.line+9 || moved.File != "doc.md" || se.Col > 0 && moved.Col != se.Col+4 {
			t.Errorf("%s: Within: %v", tc.form, moved)
		}
	}
}

func TestReadOptions(t *testing.T) {
	if _, _, err := forms.Read("f", []byte("name: x\n"), forms.Options{Form: "png"}); !errors.Is(err, forms.ErrUnknownForm) {
		t.Errorf("unknown form: %v", err)
	}
	_, f, err := forms.Read("f", []byte("name: x\n"), forms.Options{Bitfield: bitfield.Options{Lanes: 2}})
	if !errors.Is(err, forms.ErrBitfieldOptions) || f.Name != "yaml" {
		t.Errorf("bit-field options on YAML: %v, %s", err, f.Name)
	}
	for name, want := range map[string]string{"regs/ipv4.json": "ipv4", "<stdin>": forms.BitfieldTitle, "": forms.BitfieldTitle} {
		s, _, err := forms.Read(name, []byte(`[{"name": "A", "bits": 8}]`), forms.Options{})
		if err != nil || s.Name != want {
			t.Errorf("bit-field read as %q: %v, named %q, want %q", name, err, s.Name, want)
		}
	}
}

func TestWriteFormats(t *testing.T) {
	s, f, err := forms.Read("udp", []byte("name: UDP (RFC 768)\nfields:\n  - {name: Source Port, bits: 16, value: \"53\"}\n"), forms.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range forms.Formats() {
		var b bytes.Buffer
		if err := forms.Write(&b, s, f.Name, format, forms.WriteOptions{}); err != nil || b.Len() == 0 {
			t.Errorf("%s: %v (%d bytes)", format, err, b.Len())
		}
	}
	var b bytes.Buffer
	if err := forms.Write(&b, s, f.Name, "notation", forms.WriteOptions{}); err != nil || b.String() != "UDP {\n  Source Port (16),\n}\n" {
		t.Errorf("notation: %v\n%s", err, b.String())
	}
	if err := forms.Write(&b, s, f.Name, "html", forms.WriteOptions{}); !errors.Is(err, forms.ErrUnknownFormat) {
		t.Errorf("html: %v", err)
	}
}

func TestOutputFormat(t *testing.T) {
	for _, tc := range []struct{ format, file, want, err string }{
		{"", "", "txt", ""},
		{"", "x.svg", "svg", ""},
		{"rfcsvg", "x.svg", "rfcsvg", ""},
		{"notation", "x.txt", "notation", ""},
		{"SVG", "-", "svg", ""},
		{"", "x.png", "", "cannot tell"},
		{"pdf", "x.svg", "", "-format pdf, but -o x.svg is named as svg"},
		{"html", "", "", "unknown format"},
	} {
		got, err := forms.OutputFormat(tc.format, tc.file)
		if got != tc.want || (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("OutputFormat(%q, %q) = %q, %v; want %q, %q", tc.format, tc.file, got, err, tc.want, tc.err)
		}
	}
}

// TestFormError: an error of a source whose form was told by its content names that form and
// how to ask for another; one read in a form the caller named does not.
func TestFormError(t *testing.T) {
	src := []byte("The header:\nname: [\n")
	_, _, err := forms.Read("x", src, forms.Options{})
	fe, ok := errors.AsType[*forms.FormError](err)
	if !ok || fe.Form != "yaml" || !strings.Contains(err.Error(), "(read as yaml, the form its content looked like; -from rfc, -from notation, -from bitfield, -from tls reads it as another)") {
		t.Errorf("told: %v", err)
	}
	_, _, err = forms.Read("x", src, forms.Options{AskForm: "from=%s"})
	if err == nil || !strings.Contains(err.Error(), "from=rfc, from=notation") {
		t.Errorf("asked as an option: %v", err)
	}
	_, _, err = forms.Read("x", src, forms.Options{Form: "yaml"})
	if _, ok := errors.AsType[*forms.FormError](err); ok || err == nil {
		t.Errorf("named: %v", err)
	}
}

// TestCaptionTitle: a notation figure's caption is its drawing's title; the spec keeps the
// structure's name.
func TestCaptionTitle(t *testing.T) {
	src := []byte("   Retry Packet {\n     Version (32),\n   }\n\n          Figure 18: Retry Packet\n")
	s, f, err := forms.Read("x", src, forms.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := forms.Write(&b, s, f.Name, "svg", forms.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if s.Name != "Retry Packet" || !strings.Contains(b.String(), ">Figure 18: Retry Packet</title>") {
		t.Errorf("name %q, svg title not the caption", s.Name)
	}
}

// TestArtCaption: an RFC figure's caption is its drawing's title and is kept by -format yaml;
// the title over the grid names the spec.
func TestArtCaption(t *testing.T) {
	src := []byte("   VXLAN Header:\n   +-+-+-+-+-+-+-+-+\n   |R|R|R|R|I|R|R|R|\n   +-+-+-+-+-+-+-+-+\n\n        Figure 1: VXLAN Frame Format\n")
	s, f, err := forms.Read("x", src, forms.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "VXLAN Header" || s.Caption != "Figure 1: VXLAN Frame Format" {
		t.Fatalf("name %q, caption %q", s.Name, s.Caption)
	}
	for _, format := range []string{"svg", "yaml"} {
		var b strings.Builder
		if err := forms.Write(&b, s, f.Name, format, forms.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "Figure 1: VXLAN Frame Format") {
			t.Errorf("%s: the caption is lost:\n%s", format, b.String())
		}
	}
}

// TestNotationSelect: a TLS select cannot be written in the notation unless it is named; the
// error says why and what to do.
func TestNotationSelect(t *testing.T) {
	src := "   struct {\n       uint8 msg_type;\n       select (H.msg_type) {\n           case a: A;\n           case b: B;\n       }%s;\n   } H;\n   struct { uint8 a; } A;\n   struct { uint8 b; } B;\n"
	for _, tc := range []struct{ name, want string }{
		{"", "is a TLS select, one of 2 structures (a: A; b: B): RFC 9000 notation has no choice"},
		{" body", "body (..)"},
	} {
		s, f, err := forms.Read("x", []byte(fmt.Sprintf(src, tc.name)), forms.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		err = forms.Write(&b, s, f.Name, "notation", forms.WriteOptions{})
		if !strings.Contains(b.String()+fmt.Sprint(err), tc.want) {
			t.Errorf("select named %q: got %v %q, want %q", tc.name, err, b.String(), tc.want)
		}
	}
}
