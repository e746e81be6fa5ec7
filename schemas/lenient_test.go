package schemas

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"
)

// TestLenient: what Kafka's generator accepts through Jackson's defaults is accepted, read the
// way Kafka reads it, and said once as a note with its position. One small file per rule.
func TestLenient(t *testing.T) {
	const head = `{"name": "XRequest", "type": "request", "apiKey": 90, "validVersions": "0-2", "flexibleVersions": "1+", `
	for _, tc := range []struct {
		name, src string
		notes     []string
		check     func(t *testing.T, s *Spec)
	}{
		{"boolean as a string", head + `"fields": [{"name": "A", "type": "int8", "versions": "0+", "ignorable": "true"}]}`,
			[]string{`x.json:1:«"true"»: note: A: ignorable: the string "true" read as the boolean true, as Kafka's generator does`},
			func(t *testing.T, s *Spec) { want(t, s.Fields[0].Ignorable, true) }},
		{"boolean as a capitalised string", head + `"fields": [{"name": "A", "type": "string", "versions": "0+", "mapKey": "False"}]}`,
			[]string{`x.json:1:«"False"»: note: A: mapKey: the string "False" read as the boolean false, as Kafka's generator does`},
			func(t *testing.T, s *Spec) { want(t, s.Fields[0].MapKey, false) }},
		{"boolean as a number", head + `"fields": [{"name": "A", "type": "bytes", "versions": "0+", "zeroCopy": 1}]}`,
			[]string{`x.json:1:«1}»: note: A: zeroCopy: the number 1 read as the boolean true, as Kafka's generator does`},
			func(t *testing.T, s *Spec) { want(t, s.Fields[0].ZeroCopy, true) }},
		{"versions as a number", head + `"fields": [{"name": "A", "type": "int8", "versions": 2}]}`,
			[]string{`x.json:1:«2}»: note: A: versions: a number 2 read as the string "2", as Kafka's generator does`},
			func(t *testing.T, s *Spec) { want(t, s.Fields[0].Versions, VersionRange{Lo: 2, Hi: 2, Set: true}) }},
		{"default as a number", head + `"fields": [{"name": "A", "type": "int32", "versions": "0+", "default": -1}]}`,
			nil, // the real files write numeric defaults both ways; no note
			func(t *testing.T, s *Spec) { want(t, s.Fields[0].Default, "-1") }},
		{"about as a number", head + `"fields": [{"name": "A", "type": "int8", "versions": "0+", "about": 7}]}`,
			[]string{`x.json:1:«7}»: note: A: about: a number 7 read as the string "7", as Kafka's generator does`},
			func(t *testing.T, s *Spec) { want(t, s.Fields[0].About, "7") }},
		{"tag as a string", head + `"fields": [{"name": "A", "type": "int8", "versions": "1+", "taggedVersions": "1+", "tag": "3"}]}`,
			[]string{`x.json:1:«"3"»: note: A: tag: the string "3" read as the number 3, as Kafka's generator does`},
			func(t *testing.T, s *Spec) { want(t, s.Fields[0].Tag, 3) }},
		{"apiKey as a string", `{"name": "XRequest", "type": "request", "apiKey": "90", "validVersions": "0", "fields": []}`,
			[]string{`x.json:1:«"90"»: note: apiKey: the string "90" read as the number 90, as Kafka's generator does`},
			func(t *testing.T, s *Spec) { want(t, s.APIKey, int16(90)) }},
		{"null is not given", head + `"fields": [{"name": "A", "type": "string", "versions": "0+", "nullableVersions": null, "about": "x"}]}`,
			[]string{`x.json:1:«null»: note: A: nullableVersions: null read as not given, as Kafka's generator does`},
			func(t *testing.T, s *Spec) { want(t, s.Fields[0].NullableVersions.Set, false) }},
		{"single value as an array", head + `"listeners": "broker", "fields": {"name": "A", "type": "int8", "versions": "0+"}}`,
			[]string{
				`x.json:1:«"broker"»: note: listeners: a single value read as an array of one, as Kafka's generator does`,
				`x.json:1:«{"name": "A"»: note: fields: a single value read as an array of one, as Kafka's generator does`,
			},
			func(t *testing.T, s *Spec) {
				want(t, strings.Join(s.Listeners, ","), "broker")
				want(t, len(s.Fields), 1)
			}},
		{"unknown keys kept", head + `"apiStability": "evolving", "fields": [{"name": "A", "type": "int8", "versions": "0+", "unit": ["ms", 1]}]}`,
			[]string{
				`x.json:1:«"apiStability"»: note: unknown key "apiStability" kept but not used`,
				`x.json:1:«"unit"»: note: A: unknown key "unit" kept but not used`,
			},
			func(t *testing.T, s *Spec) {
				want(t, s.Extra[0], Attr{Key: "apiStability", Value: `"evolving"`, Pos: Pos{Line: 1, Col: 105}})
				want(t, s.Fields[0].Extra[0].Value, `["ms",1]`)
			}},
		{"key repeated with the same value", head + `"fields": [{"name": "A", "type": "int8", "versions": "0+", "versions": "0+"}]}`,
			[]string{`x.json:1:«"versions"»: note: key "versions" repeated with the same value`},
			func(t *testing.T, s *Spec) { want(t, s.Fields[0].Versions.Lo, int16(0)) }},
		{"key repeated: the last wins", head + `"fields": [{"name": "A", "type": "int8", "versions": "0+", "versions": "1+"}]}`,
			[]string{`x.json:1:«"versions"»: note: key "versions" repeated with another value; the last one is used, as Kafka's generator does`},
			func(t *testing.T, s *Spec) { want(t, s.Fields[0].Versions.Lo, int16(1)) }},
		{"text after the top-level value", head + `"fields": []}` + "\n  ]\n",
			[]string{`x.json:2:3: note: text after the top-level value ignored (Kafka 2.8's generator ignored it too)`},
			func(t *testing.T, s *Spec) { want(t, s.Name, "XRequest") }},
		{"comments", "// c\n" + head + "/* b */ \"fields\": []}",
			nil, // part of the format
			func(t *testing.T, s *Spec) { want(t, s.Name, "XRequest") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Parse("/a/x.json", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			var got, wantNotes []string
			for _, n := range s.Notes {
				got = append(got, n.String())
			}
			for _, n := range tc.notes {
				wantNotes = append(wantNotes, at(tc.src, n))
			}
			if strings.Join(got, "\n") != strings.Join(wantNotes, "\n") {
				t.Errorf("notes:\ngot  %s\nwant %s", strings.Join(got, "\n     "), strings.Join(wantNotes, "\n     "))
			}
			tc.check(t, s)
		})
	}
}

// TestStrict: what Kafka's generator rejects stays an error, with its position.
func TestStrict(t *testing.T) {
	const head = `{"name": "XRequest", "type": "request", "apiKey": 90, "validVersions": "0-2", "flexibleVersions": "1+", `
	for _, tc := range []struct{ name, src, want string }{
		{"boolean as a word", head + `"fields": [{"name": "A", "type": "int8", "versions": "0+", "ignorable": "yes"}]}`,
			`x.json:1:«"yes"»: A: ignorable: want a boolean, got the string "yes"`},
		{"boolean as a fraction", head + `"fields": [{"name": "A", "type": "int8", "versions": "0+", "ignorable": 0.5}]}`,
			`x.json:1:«0.5»: A: ignorable: want a boolean, got a number`},
		{"unknown type", head + `"fields": [{"name": "A", "type": "int9", "versions": "0+"}]}`,
			`x.json:1:«"int9"»: A: unknown type "int9"`},
		{"null name", head + `"fields": [{"name": null, "type": "int8", "versions": "0+"}]}`,
			`x.json:1:«{"name": null»: fields[0]: missing name`},
		{"versions an object", head + `"fields": [{"name": "A", "type": "int8", "versions": {}}]}`,
			`x.json:1:«{}}»: A: versions: want a string, got an object`},
		{"duplicate field", head + `"fields": [{"name": "A", "type": "int8", "versions": "0+"}, {"name": "A", "type": "int8", "versions": "0+"}]}`,
			`x.json:1:«{"name": "A"»: A: duplicate field name (also at 1:116)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("x.json", []byte(tc.src))
			if w := at(tc.src, tc.want); err == nil || err.Error() != w {
				t.Errorf("got  %v\nwant %s", err, w)
			}
		})
	}
}

// at replaces «text» in a wanted message by the column where text last starts in src (every
// source here is one line), so that the table says where an error points, not a number.
func at(src, msg string) string {
	i := strings.Index(msg, "«")
	j := strings.Index(msg, "»")
	if i < 0 || j < i {
		return msg
	}
	mark := msg[i+len("«") : j]
	col := strings.LastIndex(src, mark)
	if col < 0 {
		return "marker " + mark + " not in the source"
	}
	return msg[:i] + strconv.Itoa(utf8.RuneCountInString(src[:col])+1) + msg[j+len("»"):]
}

func want[T comparable](t *testing.T, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestLimits: input past the parser's structural limits is refused while parsing, with its
// position, at a cost linear in its size.
func TestLimits(t *testing.T) {
	chain := func(n int) string {
		var b strings.Builder
		b.WriteString(`{"name": "X", "type": "data", "fields": [{"name": "S", "type": "S0", "versions": "0+"}], "commonStructs": [`)
		for i := range n {
			if i > 0 {
				b.WriteString(",\n")
			}
			fmt.Fprintf(&b, `{"name": "S%d", "versions": "0+", "fields": [`, i)
			if i < n-1 {
				fmt.Fprintf(&b, `{"name": "N", "type": "S%d", "versions": "0+"}`, i+1)
			}
			b.WriteString("]}")
		}
		b.WriteString("]}")
		return b.String()
	}
	if _, err := Parse("x.json", []byte(chain(MaxStructDepth))); err != nil {
		t.Errorf("%d deep: %v", MaxStructDepth, err)
	}
	_, err := Parse("x.json", []byte(chain(10000)))
	if err == nil || !strings.Contains(err.Error(), "structs nest more than 64 deep here") || !strings.HasPrefix(err.Error(), "x.json:") {
		t.Errorf("10000 deep: %v", err)
	}
	bad := []byte("{\"name\": \"X\",\n \"type\": \"data\", \"fields\": [], \"about\": \"caf\xe9\"}")
	if _, err := Parse("x.json", bad); err == nil || err.Error() != "x.json:2:45: invalid UTF-8 (byte 0xe9): spec files are UTF-8" {
		t.Errorf("invalid UTF-8: %v", err)
	}
	// Fields in one struct, on one line: linear, not quadratic. The work is counted, not
	// timed: the bytes counted over to find columns (a parser counting each position from the
	// start of its line counts 40,000 × the line), and the allocations (BenchmarkParseOneLine
	// times it).
	type work struct {
		scanned int
		allocs  float64
	}
	measure := func(n int) work {
		src := oneLineSpec(n)
		p := newParser("x.json", src)
		if _, err := p.parse(src); err != nil {
			t.Fatal(err)
		}
		w := work{scanned: p.pos.scanned}
		w.allocs = testing.AllocsPerRun(2, func() {
			if _, err := Parse("x.json", src); err != nil {
				t.Fatal(err)
			}
		})
		if w.scanned > len(src) {
			t.Errorf("%d fields on one line: %d bytes counted over for columns, want at most the line's %d", n, w.scanned, len(src))
		}
		return w
	}
	small, large := measure(10000), measure(40000)
	t.Logf("10,000 fields %+v, 40,000 fields %+v", small, large)
	if large.allocs > 4.5*small.allocs {
		t.Errorf("4× the fields made %.1f× the allocations (10,000: %.0f, 40,000: %.0f): not linear", large.allocs/small.allocs, small.allocs, large.allocs)
	}
}

// oneLineSpec is a spec of n fields in one struct, all on one line.
func oneLineSpec(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"name": "X", "type": "data", "fields": [`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name": "F%d", "type": "int8", "versions": "0+"}`, i)
	}
	b.WriteString("]}")
	return []byte(b.String())
}

func BenchmarkParseOneLine(b *testing.B) {
	for _, n := range []int{10000, 40000} {
		src := oneLineSpec(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Parse("x.json", src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestReleaseLimits: a release of more spec files, or more bytes in them, than a release may
// have is refused as it is read, with the limit named (each file alone passes).
func TestReleaseLimits(t *testing.T) {
	many := fstest.MapFS{}
	for i := range MaxReleaseFiles + 1 {
		many[fmt.Sprintf("F%d.json", i)] = &fstest.MapFile{Data: []byte("{}")}
	}
	if _, err := LoadFS(many, "many"); err == nil || !strings.Contains(err.Error(), "4097 spec files, more than a release may have (4096)") {
		t.Errorf("%d files: %v", len(many), err)
	}
	blob := make([]byte, MaxSpecSize) // each file at the largest a spec file may be
	big := fstest.MapFS{}
	for i := range MaxReleaseSize/MaxSpecSize + 1 {
		big[fmt.Sprintf("B%d.json", i)] = &fstest.MapFile{Data: blob}
	}
	if _, err := LoadFS(big, "big"); err == nil || !strings.Contains(err.Error(), "big: its spec files up to B8.json have more than the 67108864 bytes a release may have") {
		t.Errorf("%d files of %d bytes: %v", len(big), MaxSpecSize, err)
	}
}
