package schemas

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func readSpec(t testing.TB, release, file string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(schemaRoot(t), release, file))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestParseErrors corrupts ProduceRequest.json (4.0) in memory, one mistake at a time, and
// checks the whole message: file, line:column of the offending value, field path.
func TestParseErrors(t *testing.T) {
	good := string(readSpec(t, "4.0", "ProduceRequest.json"))
	for _, tc := range []struct {
		name, old, new, want string
	}{
		{"unknown type", `"type": "records"`, `"type": "recrods"`,
			`ProduceRequest.json:66:38: TopicData[].PartitionData[].Records: unknown type "recrods"`},
		{"array of unknown type", `"type": "[]PartitionProduceData"`, `"type": "[][]PartitionProduceData"`,
			`ProduceRequest.json:62:42: TopicData[].PartitionData: unknown type "[][]PartitionProduceData"`},
		{"bad JSON", `"versions": "0+",
          "about": "The partition index."`, `"versions": "0+"
          "about": "The partition index."`,
			`ProduceRequest.json:65:11: invalid JSON: invalid character '"' after object key:value pair`},
		{"unexpected end", "  ]\n}\n", "  ]\n", `ProduceRequest.json:71:1: invalid JSON: unexpected end of file`},
		{"bad validVersions", `"validVersions": "3-12"`, `"validVersions": "3-x"`,
			`ProduceRequest.json:49:20: validVersions: bad version range "3-x": want "none", "N", "N+" or "N-M"`},
		{"reversed range", `"validVersions": "3-12"`, `"validVersions": "12-3"`,
			`ProduceRequest.json:49:20: validVersions: bad version range "12-3": upper bound below lower bound`},
		{"bad field versions", `"nullableVersions": "0+"`, `"nullableVersions": "0-"`,
			`ProduceRequest.json:66:87: TopicData[].PartitionData[].Records: nullableVersions: bad version range "0-": want "none", "N", "N+" or "N-M"`},
		{"struct without definition", `"type": "int16"`, `"type": "Int16Thing"`,
			`ProduceRequest.json:54:31: Acks: struct type "Int16Thing" has no definition`},
		{"tag without taggedVersions", `"type": "int16",`, `"type": "int16", "tag": 0,`,
			`ProduceRequest.json:54:47: Acks: tag 0 without taggedVersions`},
		{"taggedVersions without tag", `"type": "int16",`, `"type": "int16", "taggedVersions": "9+",`,
			`ProduceRequest.json:54:58: Acks: taggedVersions without tag`},
		{"taggedVersions closed", `"type": "int16",`, `"type": "int16", "taggedVersions": "9-10", "tag": 0,`,
			`ProduceRequest.json:54:58: Acks: taggedVersions "9-10" is not open-ended (N+)`},
		{"tagged outside flexible", `"type": "int16",`, `"type": "int16", "taggedVersions": "3+", "tag": 0,`,
			`ProduceRequest.json:54:58: Acks: taggedVersions "3+" outside the message's flexibleVersions "9+"`},
		{"duplicate tag", `"name": "TimeoutMs", "type": "int32",`, `"name": "TimeoutMs", "type": "int32", "taggedVersions": "9+", "tag": 1,` +
			` "about": "x" }, { "name": "Extra", "type": "int8", "taggedVersions": "9+", "tag": 1,`,
			`ProduceRequest.json:56:161: Extra: duplicate tag 1 (also on TimeoutMs)`},
		{"duplicate tag, tag as string", `"name": "TimeoutMs", "type": "int32",`, `"name": "TimeoutMs", "type": "int32", "taggedVersions": "9+", "tag": "2",` +
			` "about": "x" }, { "name": "Extra", "type": "int8", "taggedVersions": "9+", "tag": 2,`,
			`ProduceRequest.json:56:163: Extra: duplicate tag 2 (also on TimeoutMs)`},
		{"bad tag", `"type": "int16",`, `"type": "int16", "taggedVersions": "9+", "tag": -1,`,
			`ProduceRequest.json:54:71: Acks: tag: "-1" is not a number from 0 to 2147483647`},
		{"nullable int16", `"type": "int16",`, `"type": "int16", "nullableVersions": "3+",`,
			`ProduceRequest.json:54:60: Acks: nullableVersions on type "int16", which cannot be null`},
		{"nullable uuid", `"type": "int16",`, `"type": "uuid", "nullableVersions": "3+",`,
			`ProduceRequest.json:54:59: Acks: nullableVersions on type "uuid", which cannot be null`},
		{"missing type", `"name": "Acks", "type": "int16",`, `"name": "Acks",`,
			`ProduceRequest.json:54:5: Acks: missing type`},
		{"missing versions", `"name": "Acks", "type": "int16", "versions": "0+",`, `"name": "Acks", "type": "int16",`,
			`ProduceRequest.json:54:5: Acks: missing versions`},
		{"missing name", `"name": "Acks", `, ``, `ProduceRequest.json:54:5: fields[1]: missing name`},
		{"fields on a primitive", `"name": "Index", "type": "int32",`, `"name": "Index", "type": "int32", "fields": [],`,
			`ProduceRequest.json:64:55: TopicData[].PartitionData[].Index: fields on type "int32", which is not a struct`},
		{"struct defined twice", `[]PartitionProduceData`, `[]TopicProduceData`,
			`ProduceRequest.json:62:42: TopicData[].PartitionData: struct TopicProduceData defined twice (also at 58:5)`},
		{"duplicate field", `"name": "TimeoutMs"`, `"name": "Acks"`,
			`ProduceRequest.json:56:5: Acks: duplicate field name (also at 54:5)`},
		{"bool as a word", `"mapKey": true`, `"mapKey": "yes"`,
			`ProduceRequest.json:60:98: TopicData[].Name: mapKey: want a boolean, got the string "yes"`},
		{"versions an array", `"name": "TimeoutMs", "type": "int32", "versions": "0+"`, `"name": "TimeoutMs", "type": "int32", "versions": [0]`,
			`ProduceRequest.json:56:57: TimeoutMs: versions: want a string, got an array`},
		{"versions null", `"name": "TimeoutMs", "type": "int32", "versions": "0+"`, `"name": "TimeoutMs", "type": "int32", "versions": null`,
			`ProduceRequest.json:56:5: TimeoutMs: missing versions`},
		{"missing apiKey", `"apiKey": 0,`, ``, `ProduceRequest.json:16:1: missing apiKey in a request`},
		{"apiKey too big", `"apiKey": 0,`, `"apiKey": 40000,`, `ProduceRequest.json:17:13: apiKey: 40000 is not a number from 0 to 32767`},
		{"unterminated block comment", `"apiKey": 0,`, `"apiKey": 0, /* no end`, `ProduceRequest.json:17:16: unterminated /* comment`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if strings.Count(good, tc.old) != 1 {
				t.Fatalf("%q occurs %d times", tc.old, strings.Count(good, tc.old))
			}
			bad := strings.Replace(good, tc.old, tc.new, 1)
			s, err := Parse("/some/where/ProduceRequest.json", []byte(bad))
			if err == nil {
				t.Fatalf("no error; spec %s", s.Name)
			}
			if err.Error() != tc.want {
				t.Errorf("got  %s\nwant %s", err, tc.want)
			}
			var pe *Error
			if !errors.As(err, &pe) || pe.File != "ProduceRequest.json" {
				t.Errorf("not an *Error for the file: %#v", err)
			}
		})
	}
}

// TestParseErrorsInline covers what ProduceRequest.json cannot show: common structs, cycles,
// and columns that count characters rather than bytes.
func TestParseErrorsInline(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"column counts runes", `{"name": "X", "type": "data", "fields": [{"about": "héllo wörld", "name": "F", "type": "intt", "versions": "0+"}]}`,
			`x.json:1:88: F: unknown type "intt"`},
		{"comment with multibyte text", "{\"name\": \"X\", /* ünïcödé */ \"type\": \"data\", \"listeners\": [{}], \"fields\": []}",
			`x.json:1:59: listeners: want a string, got an object`},
		{"common struct missing", `{"name": "X", "type": "data", "fields": [{"name": "S", "type": "[]Snap", "versions": "0+"}],
			"commonStructs": [{"name": "Snop", "versions": "0+", "fields": []}]}`,
			`x.json:1:64: S: struct type "Snap" has no definition`},
		{"error inside common struct", `{"name": "X", "type": "data", "fields": [],
"commonStructs": [{"name": "Snap", "versions": "0+", "fields": [{"name": "E", "type": "int32", "versions": "0+", "nullableVersions": "0+"}]}]}`,
			`x.json:2:134: Snap.E: nullableVersions on type "int32", which cannot be null`},
		{"struct contains itself", `{"name": "X", "type": "data", "fields": [{"name": "S", "type": "Loop", "versions": "0+"}],
"commonStructs": [{"name": "Loop", "versions": "0+", "fields": [{"name": "Again", "type": "[]Loop", "versions": "0+"}]}]}`,
			`x.json:2:91: Loop.Again: struct Loop contains itself`},
		{"common struct twice", `{"name": "X", "type": "data", "fields": [],
"commonStructs": [{"name": "A", "fields": []}, {"name": "A", "fields": []}]}`,
			`x.json:2:48: A: struct A defined twice (also at 2:19)`},
		{"top level not an object", "\n  [ {} ]", `x.json:2:3: want an object at the top level, got an array`},
		{"empty", ``, `x.json:1:1: invalid JSON: unexpected end of file`},
		{"comment only", "// nothing\n", `x.json:2:1: invalid JSON: unexpected end of file`},
		{"name missing", `{"type": "data", "fields": []}`, `x.json:1:1: missing name`},
		{"bad default", `{"name": "X", "type": "data", "fields": [{"name": "F", "type": "int8", "versions": "0+", "default": [1]}]}`,
			`x.json:1:101: F: default: want a string, number or boolean, got an array`},
		{"deep nesting", strings.Repeat("[", 300) + strings.Repeat("]", 300), `x.json:1:202: invalid JSON: nested deeper than 200 levels`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("x.json", []byte(tc.src))
			if err == nil || err.Error() != tc.want {
				t.Errorf("got  %v\nwant %s", err, tc.want)
			}
		})
	}
}

// TestSyntaxErrorPositions: a JSON syntax error points at the offending character, whatever
// position encoding/json reports (before the culprit in Go 1.26, after it in Go 1.27). The
// message after the position is encoding/json's own, worded differently by Go releases: only
// the position is ours, so only it is compared.
func TestSyntaxErrorPositions(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`{"a": 1 "b": 2}`, `p:1:9`},    // '"' after object key:value pair
		{`{"a": tru}`, `p:1:10`},        // '}' in literal true
		{"{\n  \"a\": x}", `p:2:8`},     // 'x' looking for beginning of value
		{`{"a" 1}`, `p:1:6`},            // '1' after object key
		{`{"a": 1,}`, `p:1:9`},          // '}' looking for beginning of object key string
		{"{\"a\": \"x\x01\"}", `p:1:9`}, // '\x01' in string literal
		{`{"a": 1e}`, `p:1:9`},          // '}' in exponent of numeric literal
		{`{"a": [1,]}`, `p:1:10`},       // ']' looking for beginning of value
		{`{"a": '}`, `p:1:7`},           // '\'' looking for beginning of value
		{`{"ä": "\q"}`, `p:1:9`},        // 'q' in string escape code
	} {
		_, err := Parse("p", []byte(tc.src))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want+": invalid JSON: ") {
			t.Errorf("%q: got  %v\nwant %s: invalid JSON: …", tc.src, err, tc.want)
		}
	}
}

// TestLoadBadDirectory: three bad files are three errors, sorted by file; good files in
// between do not hide them.
func TestLoadBadDirectory(t *testing.T) {
	good := readSpec(t, "4.0", "ProduceRequest.json")
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("ProduceRequest.json", string(good))
	write("CBad.json", strings.Replace(string(good), `"type": "records"`, `"type": "recrods"`, 1))
	write("ABad.json", strings.Replace(string(good), `"validVersions": "3-12"`, `"validVersions": "3-"`, 1))
	write("ZBad.json", "{ // unterminated\n")
	write("notes.txt", "not a spec")
	_, err := Load(dir)
	if err == nil {
		t.Fatal("no error")
	}
	want := `ABad.json:49:20: validVersions: bad version range "3-": want "none", "N", "N+" or "N-M"
CBad.json:66:38: TopicData[].PartitionData[].Records: unknown type "recrods"
ZBad.json:2:1: invalid JSON: unexpected end of file`
	if err.Error() != want {
		t.Errorf("got\n%s\nwant\n%s", err, want)
	}
	var joined interface{ Unwrap() []error }
	if !errors.As(err, &joined) || len(joined.Unwrap()) != 3 {
		t.Errorf("want 3 joined errors, got %#v", err)
	}
}

func TestLoadDirectoryErrors(t *testing.T) {
	empty := t.TempDir()
	if _, err := Load(empty); err == nil || !strings.HasPrefix(err.Error(), "schemas: no *.json spec files in ") {
		t.Errorf("empty dir: %v", err)
	}
	if _, err := Load(filepath.Join(empty, "missing")); err == nil || !strings.HasPrefix(err.Error(), "schemas: stat ") {
		t.Errorf("missing dir: %v", err)
	}
	dup := t.TempDir()
	for _, n := range []string{"A.json", "B.json"} {
		src := `{"apiKey": 1, "type": "request", "name": "` + strings.TrimSuffix(n, ".json") + `Request", "validVersions": "0", "fields": []}`
		if err := os.WriteFile(filepath.Join(dup, n), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Load(dup); err == nil || err.Error() != "B.json:1:1: request apiKey 1 also in A.json" {
		t.Errorf("duplicate key: %v", err)
	}
}

// TestRealSpecs checks the model against facts of the real files, in every release.
func TestRealSpecs(t *testing.T) {
	root := schemaRoot(t)
	for _, rel := range []string{"3.9", "4.0", "4.1"} {
		t.Run(rel, func(t *testing.T) {
			r, err := Load(filepath.Join(root, rel))
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range r.Specs {
				raw, err := os.ReadFile(filepath.Join(root, rel, s.File))
				if err != nil {
					t.Fatal(err)
				}
				if string(raw) != string(s.Raw) {
					t.Errorf("%s: Raw is not the file's text", s.File)
				}
				if s.Name+".json" != s.File {
					t.Errorf("%s: name %s", s.File, s.Name)
				}
				s.Walk(func(f *Field) bool {
					if f.Type.IsStruct() && (f.Struct == nil || f.Struct.Name != f.Type.StructName) {
						t.Errorf("%s: %s: struct %q not resolved", s.File, f.Path, f.Type.StructName)
					}
					if f.Pos.Line < 16 || f.Name == "" || !strings.HasSuffix(f.Path, f.Name) {
						t.Errorf("%s: field %q at %v path %q", s.File, f.Name, f.Pos, f.Path)
					}
					return true
				})
			}
			h := r.Header("RequestHeader")
			if h == nil || r.Header("ResponseHeader") == nil || r.Header("ProduceRequest") != nil {
				t.Fatal("headers not found")
			}
			var clientID *Field
			for _, f := range h.Fields {
				if f.Name == "ClientId" {
					clientID = f
				}
			}
			if clientID == nil || h.CompactIn(clientID, 2) || !h.FlexibleIn(2) || !clientID.NullableIn(1) || !clientID.PresentIn(2) || clientID.PresentIn(0) {
				t.Errorf("RequestHeader.ClientId: %+v", clientID)
			}
			if r.Request(0).Name != "ProduceRequest" || r.Response(18).Name != "ApiVersionsResponse" || r.Spec("FetchRequest").APIKey != 1 {
				t.Error("lookups by key and name")
			}
		})
	}
}

func TestProduceModel(t *testing.T) {
	s, err := Parse("ProduceRequest.json", readSpec(t, "4.0", "ProduceRequest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if s.Type != "request" || !s.HasAPIKey || s.APIKey != 0 || s.ValidVersions.String() != "3-12" ||
		s.FlexibleVersions.String() != "9+" || fmt.Sprint(s.Listeners) != "[broker]" || len(s.Fields) != 4 {
		t.Fatalf("spec %+v", s)
	}
	td := s.Fields[3]
	if td.Path != "TopicData" || !td.Type.Array || td.Struct == nil || td.Struct.Name != "TopicProduceData" || s.Structs["TopicProduceData"] != td.Struct {
		t.Fatalf("TopicData %+v", td)
	}
	rec := td.Struct.Fields[1].Struct.Fields[1]
	if rec.Path != "TopicData[].PartitionData[].Records" || rec.Type.Prim != Records || !rec.NullableIn(12) || rec.TaggedIn(12) ||
		rec.Pos != (Pos{66, 9}) || rec.About != "The record data to be produced." {
		t.Errorf("Records %+v", rec)
	}
	tid := s.Fields[0]
	if !tid.HasDefault || tid.Default != "null" || tid.EntityType != "transactionalId" || !tid.NullableIn(3) || tid.PresentIn(2) {
		t.Errorf("TransactionalId %+v", tid)
	}
	if !s.CompactIn(tid, 9) || s.CompactIn(tid, 8) || !s.ValidIn(3) || s.ValidIn(2) || s.ValidIn(13) || s.UnstableIn(12) {
		t.Error("spec version queries")
	}
	if name := td.Struct.Fields[0]; !name.MapKey || name.Type.Prim != String {
		t.Errorf("Name %+v", name)
	}
}

func TestTaggedAndDefaults(t *testing.T) {
	src := `{
  "name": "T", "type": "data", "flexibleVersions": "2+", "validVersions": "0-4", "latestVersionUnstable": true,
  "fields": [
    { "name": "A", "type": "int32", "versions": "0+", "taggedVersions": "3+", "tag": 0, "default": -1, "ignorable": true },
    { "name": "B", "type": "bool", "taggedVersions": "2+", "tag": "1", "default": false },
    { "name": "C", "type": "[]Snap", "versions": "1-3", "nullableVersions": "2+" },
    { "name": "D", "type": "string", "versions": "0+", "flexibleVersions": "none", "zeroCopy": false }
  ],
  "commonStructs": [ { "name": "Snap", "versions": "0+", "fields": [
    { "name": "E", "type": "float64", "versions": "0+", "default": "0.5" } ] } ]
}`
	s, err := Parse("t.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	a, b, c, d := s.Fields[0], s.Fields[1], s.Fields[2], s.Fields[3]
	for _, tc := range []struct {
		what string
		got  bool
		want bool
	}{
		{"A tagged v2", a.TaggedIn(2), false}, {"A tagged v3", a.TaggedIn(3), true}, {"A present v0", a.PresentIn(0), true},
		{"B present v1", b.PresentIn(1), false}, {"B tagged v2", b.TaggedIn(2), true},
		{"C present v4", c.PresentIn(4), false}, {"C nullable v2", c.NullableIn(2), true}, {"C nullable v4 (absent)", c.NullableIn(4), false},
		{"C nullable v1", c.NullableIn(1), false}, {"D compact v3", s.CompactIn(d, 3), false}, {"C compact v3", s.CompactIn(c, 3), true},
		{"unstable v4", s.UnstableIn(4), true}, {"unstable v3", s.UnstableIn(3), false}, {"A ignorable", a.Ignorable, true},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %v", tc.what, tc.got)
		}
	}
	if a.Default != "-1" || b.Default != "false" || b.Tag != 1 || c.Struct != s.CommonStructs[0] || c.Struct.Fields[0].Path != "Snap.E" ||
		c.Struct.Fields[0].Default != "0.5" || b.Versions.String() != "2+" {
		t.Errorf("A %+v\nB %+v\nC %+v", a, b, c)
	}
	var paths []string
	s.Walk(func(f *Field) bool { paths = append(paths, f.Path); return true })
	if got := strings.Join(paths, " "); got != "A B C D Snap.E" {
		t.Errorf("Walk: %s", got)
	}
}

func TestCommentsInStrings(t *testing.T) {
	src := "// head\n{ \"name\": \"X\", \"type\": \"data\", // tail \"quoted\"\n  \"fields\": [ { \"name\": \"U\", \"type\": \"string\", \"versions\": \"0+\", \"about\": \"see http://x/*y*/ and \\\"//\\\" here\" } ] }\n"
	s, err := Parse("x.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Fields[0].About; got != `see http://x/*y*/ and "//" here` {
		t.Errorf("about %q", got)
	}
	if s.Fields[0].Pos != (Pos{3, 15}) {
		t.Errorf("pos %v", s.Fields[0].Pos)
	}
}

func BenchmarkLoad40(b *testing.B) {
	dir := filepath.Join(schemaRoot(b), "4.0")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(dir); err != nil {
			b.Fatal(err)
		}
	}
}
