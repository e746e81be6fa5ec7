package tlspres_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/bytegrid/tlspres"
)

// fieldsOf is "name:bits" for each field, "name:var" for a variable or repeated one.
func fieldsOf(fs []bytegrid.Field) string {
	var out []string
	for _, f := range fs {
		b := "var"
		if !f.Variable && !f.Repeated {
			b = itoa(f.Bits)
		}
		out = append(out, f.Name+":"+b)
	}
	return strings.Join(out, " ")
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}

// Each rule of the reader with its own small document.
func TestRules(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"integers", "struct { uint8 a; uint16 b; uint24 c; uint32 d; uint64 e; } S;", "a:8 b:16 c:24 d:32 e:64"},
		{"fixed array", "struct { opaque r[32]; uint8 two[2]; } S;", "r:256 two:16"},
		{"vector prefix from the ceiling", "struct { opaque a<0..255>; opaque b<1..2^16-1>; opaque c<0..2^24-1>; opaque d<0..2^8>; } S;",
			"a length:8 a:var b length:16 b:var c length:24 c:var d length:16 d:var"},
		{"enum width from its largest value", "enum { a(1), (255) } E; enum { b(1), (65535) } F; enum { c(0), d(256) } G; struct { E e; F f; G g; } S;", "e:8 f:16 g:16"},
		{"named types", "uint16 V; opaque R[32]; opaque D<1..2^16-1>; struct { V v; R r; D d; } S;", "v:16 r:256 d length:16 d:var"},
		{"struct member expanded", "struct { uint8 x; uint16 y; } In; struct { In a; uint8 z; } S;", "x:8 y:16 z:8"},
		{"vector of a struct: its fields repeated", "struct { uint8 x; } In; struct { In list<0..2^16-1>; } S;", "list length:16 x:var"},
		{"count from a field", "struct { uint16 length; opaque f[S.length]; } S;", "length:16 f:var"},
		{"select unnamed", "struct { uint8 t; select (S.t) { case a: A; case b: B; }; } S;", "t:8 select (S.t):var"},
		{"select in a vector of a struct", "struct { select (t) { case a: uint8; } ; } E; struct { E list<0..9>; } S;", "list length:8 select (t):var"},
		{"select named (TLS 1.2)", "struct { uint8 t; select (t) { case a: A; case b, c: opaque x<0..9>; } body; } S;", "t:8 body:var"},
		{"value", "struct { uint16 v = 0x0303; } S;", "v:16"},
		{"comments and prose", "The message:\n/* a comment */\nstruct {\n  uint8 a; /* note */\n} S;\nAfter it.\n", "a:8"},
		{"root: the one no other refers to", "struct { uint8 x; } Helper; struct { Helper h; } Main;", "x:8"},
		{"RFC 8446's types", "struct { ProtocolVersion v; Random r; } S;", "v:16 r:256"},
		{"unknown type: variable", "struct { Mystery m; uint8 a; } S;", "m:var a:8"},
	} {
		s, err := tlspres.Parse("t", []byte(c.src))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := fieldsOf(s.Fields); got != c.want {
			t.Errorf("%s: got %s, want %s", c.name, got, c.want)
		}
	}
}

func TestWarnings(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"Prose.\nstruct { uint8 a; } S;", "t:1:1: text outside the declarations"},
		{"struct { ProtocolVersion v; } S;", "t:1:10: type ProtocolVersion is not declared here: read as RFC 8446 declares it, 16 bits"},
		{"struct { Mystery m; } S;", "type Mystery is not declared here and its width is not known"},
		{"struct { uint8 a; } A; struct { uint8 b; } B;", "drawn: A; not drawn (no structure refers to them; grid -all draws them): B"},
	} {
		s, err := tlspres.Parse("t", []byte(c.src))
		if err != nil {
			t.Errorf("%q: %v", c.src, err)
			continue
		}
		if !strings.Contains(strings.Join(s.Warnings, "\n"), c.want) {
			t.Errorf("%q: warnings %q, want %q", c.src, s.Warnings, c.want)
		}
	}
}

func TestAllAndCaption(t *testing.T) {
	src := "struct { uint8 a; } A;\nstruct { uint8 b; } B;\n\n   Figure 3: B\n"
	s, err := tlspres.Parse("t", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "B" || fieldsOf(s.Fields) != "b:8" || s.Desc != "Figure 3: B" || s.Caption != "Figure 3: B" {
		t.Errorf("caption names B: got %s %s %q", s.Name, fieldsOf(s.Fields), s.Desc)
	}
	s, err = tlspres.ParseOptions("t", []byte(src), tlspres.Options{All: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := fieldsOf(s.Fields); got != "b:8 a:8" || s.Fields[1].Caption != "A" || s.Fields[1].Offset != 32 {
		t.Errorf("all: got %s, %+v", got, s.Fields)
	}
}

func TestErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"struct { uint8 a } S;", `tlspres: t:1:18: want ";", got "}"`},
		{"struct { uint8 a; S;", `tlspres: t:1:20: want a name after the type S, got ";"`},
		{"struct { opaque a<5..2>; } S;", "t:1:22: a vector's ceiling must be at least its floor"},
		{"struct { opaque a<0..2^99>; } S;", "t:1:24: want a power below 2^64, got 2^99"},
		{"struct { A a; } A;", `t:1:1: field "A": structure "A" contains itself`},
		{"enum { a(1) E;", `t:1:13: want "," or "}", got "E"`},
		{"/* open\nstruct { uint8 a; } S;", "a comment that is not closed"},
		{"just prose", "no declaration"},
		{"struct { uint8 a; } S; struct { uint8 b; } S;", `t:1:24: "S" declared again (first at line 1)`},
	} {
		_, err := tlspres.Parse("t", []byte(c.src))
		var se *tlspres.Error
		if err == nil || !errors.As(err, &se) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.src, err, c.want)
		}
	}
}

func TestSniff(t *testing.T) {
	for src, want := range map[string]bool{
		"Text.\n   struct {\n      uint8 a;\n   } S;\n": true,
		"enum { a(1), (255) } E;":                       true,
		"ACK Frame {\n  Type (i),\n}\n":                 false,
		"name: UDP\nfields: []\n":                       false,
		"} S;\nstruct {":                                false,
	} {
		if got := tlspres.Sniff([]byte(src)); got != want {
			t.Errorf("Sniff(%q) = %v", src, got)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"struct { uint16 x; opaque y<0..2^16-1>; Kind k; select (S.k) { case a: A; }; } S;",
		"enum { a(0), b(1..3), (255) } Kind; struct { Kind k; opaque r[32]; } T;",
		"uint16 V; struct { V v = 0x0303; uint8 z[V]; } S;",
		"/* c */ struct { struct_x y; } S;",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		s, err := tlspres.Parse("f", src)
		if err != nil {
			var se *tlspres.Error
			if !errors.As(err, &se) {
				t.Fatalf("error not a *tlspres.Error: %v", err)
			}
			return
		}
		if err := bytegrid.CheckFields(s.Fields); err != nil {
			t.Fatal(err)
		}
	})
}

func TestSelectDescAndPath(t *testing.T) {
	s, err := tlspres.Parse("t", []byte("struct { select (k) { case a, b: opaque x<0..9>; case c: C; case d: }; } E;\nstruct { E list<0..2^16-1>; } S;"))
	if err != nil {
		t.Fatal(err)
	}
	f := s.Fields[1]
	if f.Path != "list.select (k)" || f.Desc != "one of: a, b: opaque x; c: C; d: nothing" {
		t.Errorf("path %q desc %q", f.Path, f.Desc)
	}
}
