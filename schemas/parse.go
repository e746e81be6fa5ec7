package schemas

import (
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Error is a problem in a spec file, at a position and (when it concerns a field) a field path.
//
// Pos is the position of the offending JSON value: the value of the key at fault (the type
// string of a field with an unknown type, the version string that does not parse, the second
// of two equal tags), or the opening brace of the object when a required key is missing. JSON
// syntax errors point at the offending character. Lines and columns are 1-based; columns count
// characters, not bytes.
//
// Path is the field path, "TopicData[].PartitionData[].Records", with "[]" after array fields;
// fields of a common struct have paths rooted at the struct's name ("SnapshotId.Epoch"). Path is
// empty for errors outside fields (the spec's own keys, JSON syntax).
type Error struct {
	File string
	Pos  Pos
	Path string
	Msg  string
}

// Error returns "File:Line:Col: Path: Msg", or "File:Line:Col: Msg" when Path is empty.
func (e *Error) Error() string {
	if e.Path == "" {
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Pos.Line, e.Pos.Col, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s: %s", e.File, e.Pos.Line, e.Pos.Col, e.Path, e.Msg)
}

// primitives maps the spec format's primitive type names to their Prim.
var primitives = map[string]Prim{
	"bool": Bool, "int8": Int8, "int16": Int16, "uint16": Uint16, "int32": Int32,
	"int64": Int64, "float64": Float64, "string": String, "bytes": Bytes,
	"records": Records, "uuid": UUID,
}

var primNames = [...]string{
	Invalid: "invalid", Bool: "bool", Int8: "int8", Int16: "int16", Uint16: "uint16",
	Int32: "int32", Int64: "int64", Float64: "float64", String: "string", Bytes: "bytes",
	Records: "records", UUID: "uuid", StructType: "struct",
}

// String returns the type's name in the spec format ("int32"), or "struct".
func (p Prim) String() string {
	if p < 0 || int(p) >= len(primNames) {
		return "Prim(" + strconv.Itoa(int(p)) + ")"
	}
	return primNames[p]
}

// ParseType parses a field type as written in a spec: a primitive ("int32"), a struct name
// (starting with a capital letter: "SnapshotId"), or either prefixed with "[]" for an array.
func ParseType(s string) (Type, error) {
	t, ok := parseType(s)
	if !ok {
		return Type{}, fmt.Errorf("schemas: unknown type %q", s)
	}
	return t, nil
}

func parseType(s string) (Type, bool) {
	t := Type{Name: s}
	elem := s
	if rest, ok := strings.CutPrefix(s, "[]"); ok {
		t.Array, elem = true, rest
	}
	if p, ok := primitives[elem]; ok {
		t.Prim = p
		return t, true
	}
	if !isStructName(elem) {
		return Type{}, false
	}
	t.Prim, t.StructName = StructType, elem
	return t, true
}

// isStructName reports whether s is a struct type name: an ASCII letter, capitalised, then
// letters and digits (Kafka's generator calls any capitalised type a struct).
func isStructName(s string) bool {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// CanonicalName is a field's name with its first letter upper case, as Kafka's generator
// reads it: the case of the first letter does not tell two fields apart. Field.Name is always
// canonical; compare a name a user wrote through it.
func CanonicalName(s string) string {
	if s != "" && s[0] >= 'a' && s[0] <= 'z' {
		return string(s[0]-'a'+'A') + s[1:]
	}
	return s
}

// isIdent reports whether s is a field name: a letter, then letters, digits and '_'.
func isIdent(s string) bool {
	if s == "" || !(s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z') {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// Nullable reports whether the spec format allows a field of this type to be null: strings,
// bytes, records, arrays and structs; never numbers, booleans or UUIDs.
func (t Type) Nullable() bool {
	return t.Array || t.Prim == String || t.Prim == Bytes || t.Prim == Records || t.Prim == StructType
}

// IsStruct reports whether the type is a struct or an array of structs.
func (t Type) IsStruct() bool { return t.Prim == StructType }

// String returns the type as written.
func (t Type) String() string { return t.Name }

// Parse parses one spec file. file names the file in errors (its base name is kept in
// Spec.File); data is the file's text, kept verbatim in Spec.Raw. A malformed spec gives an
// *Error; Parse never panics.
func Parse(file string, data []byte) (*Spec, error) {
	return newParser(file, data).parse(data)
}

func newParser(file string, data []byte) *parser {
	return &parser{file: filepath.Base(file), pos: newPositions(data), typeOffs: map[*Field]int{}}
}

// parse is Parse with the parser made: its tests read the work it did.
func (p *parser) parse(data []byte) (*Spec, error) {
	if !utf8.Valid(data) {
		off := 0
		for off < len(data) {
			r, size := utf8.DecodeRune(data[off:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			off += size
		}
		return nil, p.errAt(off, "", fmt.Sprintf("invalid UTF-8 (byte 0x%02x): spec files are UTF-8", data[off]))
	}
	text, off, ok := stripComments(data)
	if !ok {
		return nil, p.errAt(off, "", "unterminated /* comment")
	}
	root, jnotes, serr := decodeJSON(text)
	if serr != nil {
		return nil, p.errAt(serr.off, "", "invalid JSON: "+strings.TrimPrefix(serr.msg, "json: "))
	}
	for _, n := range jnotes {
		p.note(n.off, "", n.msg)
	}
	s := &Spec{File: p.file, Raw: data, Structs: map[string]*Struct{}}
	if err := p.spec(s, root); err != nil {
		return nil, err
	}
	sort.SliceStable(p.notes, func(i, j int) bool {
		a, b := p.notes[i].Pos, p.notes[j].Pos
		return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
	})
	s.Notes = p.notes
	return s, nil
}

type parser struct {
	file     string
	pos      *positions
	typeOffs map[*Field]int // where each field's type value starts, for resolve's errors
	notes    []Note
}

// note records lenient input at a byte offset.
func (p *parser) note(off int, path, msg string) {
	p.notes = append(p.notes, Note{File: p.file, Pos: p.pos.pos(off), Path: path, Msg: msg})
}

// present reports whether an object member counts as given. Jackson passes a JSON null to
// Kafka's generator as "not given" (a null string, a false boolean), so a null is absent, with a
// note.
func (p *parser) present(m member, path string) bool {
	if m.val.kind != kNull {
		return true
	}
	p.note(m.val.off, path, fmt.Sprintf("%s: null read as not given, as Kafka's generator does", m.key))
	return false
}

// extra keeps a key the format does not define, with a note: a newer release may add
// attributes that this parser does not use yet (Kafka's own generator rejects unknown keys,
// but the generator of a later release knows them).
func (p *parser) extra(m member, path string) Attr {
	p.note(m.keyOff, path, fmt.Sprintf("unknown key %q kept but not used", m.key))
	return Attr{Key: m.key, Value: compact(m.val), Pos: p.pos.pos(m.keyOff)}
}

// elems returns an array's elements. With Jackson's ACCEPT_SINGLE_VALUE_AS_ARRAY, which Kafka's
// generator turns on, a single value stands for an array of one: accepted with a note.
func (p *parser) elems(n *node, path, key string) []*node {
	if n.kind == kArray {
		return n.elems
	}
	p.note(n.off, path, fmt.Sprintf("%s: a single value read as an array of one, as Kafka's generator does", key))
	return []*node{n}
}

func (p *parser) errAt(off int, path, msg string) *Error {
	return &Error{File: p.file, Pos: p.pos.pos(off), Path: path, Msg: msg}
}

func (p *parser) errf(n *node, path, format string, a ...any) *Error {
	return p.errAt(n.off, path, fmt.Sprintf(format, a...))
}

// want checks a value's kind.
func (p *parser) want(n *node, k kind, path, key string) *Error {
	if n.kind != k {
		return p.errf(n, path, "%s: want %s, got %s", key, k, n.kind)
	}
	return nil
}

func (p *parser) versions(n *node, path, key string) (VersionRange, *Error) {
	text, err := p.str(n, path, key)
	if err != nil {
		return VersionRange{}, err
	}
	r, msg := parseVersions(text)
	if msg != "" {
		return VersionRange{}, p.errf(n, path, "%s: %s", key, msg)
	}
	return r, nil
}

// boolean reads a boolean. Kafka's generator reads these with Jackson's scalar coercions, so
// the strings "true" and "false" (any case) and integers (0 false, others true) are booleans
// too, each with a note.
func (p *parser) boolean(n *node, path, key string) (bool, *Error) {
	switch n.kind {
	case kBool:
		return n.boolean, nil
	case kString:
		switch strings.ToLower(n.str) {
		case "true", "false":
			b := strings.EqualFold(n.str, "true")
			p.note(n.off, path, fmt.Sprintf("%s: the string %q read as the boolean %t, as Kafka's generator does", key, n.str, b))
			return b, nil
		}
	case kNumber:
		if i, err := strconv.ParseInt(n.str, 10, 64); err == nil {
			p.note(n.off, path, fmt.Sprintf("%s: the number %s read as the boolean %t, as Kafka's generator does", key, n.str, i != 0))
			return i != 0, nil
		}
	}
	return false, p.errf(n, path, "%s: want a boolean, got %s", key, describe(n))
}

// str reads a string. Jackson gives Kafka's generator a number or a boolean where it wants a
// string as its text: accepted, with a note.
func (p *parser) str(n *node, path, key string) (string, *Error) {
	switch n.kind {
	case kString:
		return n.str, nil
	case kNumber, kBool:
		lit := compact(n)
		p.note(n.off, path, fmt.Sprintf("%s: %s %s read as the string %q, as Kafka's generator does", key, n.kind, lit, lit))
		return lit, nil
	}
	return "", p.errf(n, path, "%s: want a string, got %s", key, n.kind)
}

// describe names a value's kind, quoting a string that is not what was wanted.
func describe(n *node) string {
	if n.kind == kString {
		return fmt.Sprintf("the string %q", n.str)
	}
	return n.kind.String()
}

// spec reads the top-level object.
func (p *parser) spec(s *Spec, root *node) error {
	if root.kind != kObject {
		return p.errf(root, "", "want an object at the top level, got %s", root.kind)
	}
	var fields, common *node
	var hasValid, hasName, hasType bool
	for _, m := range root.members {
		if !p.present(m, "") {
			continue
		}
		v := m.val
		var err *Error
		switch m.key {
		case "apiKey":
			s.APIKey, err = p.apiKey(v)
			s.HasAPIKey = err == nil
		case "type":
			s.Type, err = p.str(v, "", m.key)
			hasType = true
		case "name":
			s.Name, err = p.str(v, "", m.key)
			if err == nil && !isStructName(s.Name) {
				err = p.errf(v, "", "name: %q is not a capitalised name", s.Name)
			}
			hasName = true
		case "validVersions":
			s.ValidVersions, err = p.versions(v, "", m.key)
			hasValid = true
		case "flexibleVersions":
			s.FlexibleVersions, err = p.versions(v, "", m.key)
		case "deprecatedVersions":
			s.DeprecatedVersions, err = p.versions(v, "", m.key)
		case "latestVersionUnstable":
			s.LatestVersionUnstable, err = p.boolean(v, "", m.key)
		case "listeners":
			s.Listeners, err = p.listeners(v)
		case "fields":
			fields = v
		case "commonStructs":
			common = v
		default:
			s.Extra = append(s.Extra, p.extra(m, ""))
		}
		if err != nil {
			return err
		}
	}
	if err := p.required(s, root, hasName, hasType, hasValid); err != nil {
		return err
	}
	if common != nil {
		for _, e := range p.elems(common, "", "commonStructs") {
			st, err := p.commonStruct(s, e)
			if err != nil {
				return err
			}
			s.CommonStructs = append(s.CommonStructs, st)
		}
	}
	// A message removed from Kafka ("validVersions": "none") keeps no fields.
	if fields != nil {
		var err *Error
		if s.Fields, err = p.fields(s, fields, ""); err != nil {
			return err
		}
	}
	return p.resolve(s)
}

// required is the error for a key the spec lacks: a name and a type, and in a request or a
// response its apiKey and validVersions.
func (p *parser) required(s *Spec, root *node, hasName, hasType, hasValid bool) *Error {
	message := s.Type == "request" || s.Type == "response"
	switch {
	case !hasName:
		return p.errf(root, "", "missing name")
	case !hasType:
		return p.errf(root, "", "missing type")
	case s.Type == "":
		return p.errf(root, "", "empty type")
	case message && !s.HasAPIKey:
		return p.errf(root, "", "missing apiKey in a %s", s.Type)
	case message && !hasValid:
		return p.errf(root, "", "missing validVersions in a %s", s.Type)
	}
	return nil
}

func (p *parser) apiKey(n *node) (int16, *Error) {
	if n.kind != kNumber && n.kind != kString {
		return 0, p.errf(n, "", "apiKey: want a number, got %s", n.kind)
	}
	k, err := strconv.ParseInt(n.str, 10, 16)
	if err == nil && n.kind == kString && k >= 0 {
		p.note(n.off, "", fmt.Sprintf("apiKey: the string %q read as the number %d, as Kafka's generator does", n.str, k))
	}
	if err != nil || k < 0 {
		return 0, p.errf(n, "", "apiKey: %s is not a number from 0 to 32767", n.str)
	}
	return int16(k), nil
}

func (p *parser) listeners(n *node) ([]string, *Error) {
	elems := p.elems(n, "", "listeners")
	out := make([]string, 0, len(elems))
	for _, e := range elems {
		s, err := p.str(e, "", "listeners")
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// commonStruct reads one element of commonStructs.
func (p *parser) commonStruct(s *Spec, n *node) (*Struct, *Error) {
	if err := p.want(n, kObject, "", "commonStructs"); err != nil {
		return nil, err
	}
	st := &Struct{Pos: p.pos.pos(n.off)}
	var fields *node
	hasVersions := false
	for _, m := range n.members {
		if !p.present(m, st.Name) {
			continue
		}
		var err *Error
		switch m.key {
		case "name":
			st.Name, err = p.str(m.val, "", "name")
			if err == nil && !isStructName(st.Name) {
				err = p.errf(m.val, "", "commonStructs: %q is not a capitalised name", st.Name)
			}
		case "versions":
			st.Versions, err = p.versions(m.val, st.Name, "versions")
			hasVersions = true
		case "fields":
			fields = m.val
		default:
			st.Extra = append(st.Extra, p.extra(m, st.Name))
		}
		if err != nil {
			return nil, err
		}
	}
	switch {
	case st.Name == "":
		return nil, p.errf(n, "", "commonStructs: missing name")
	case fields == nil:
		return nil, p.errf(n, st.Name, "missing fields")
	case !hasVersions:
		st.Versions = VersionRange{Lo: 0, Hi: MaxVersion, Set: true}
	}
	if prev, ok := s.Structs[st.Name]; ok {
		return nil, p.errf(n, st.Name, "struct %s defined twice (also at %d:%d)", st.Name, prev.Pos.Line, prev.Pos.Col)
	}
	s.Structs[st.Name] = st
	var err *Error
	st.Fields, err = p.fields(s, fields, st.Name+".")
	return st, err
}

// fields reads an array of field objects; prefix is the parent path with its trailing "." .
func (p *parser) fields(s *Spec, n *node, prefix string) ([]*Field, *Error) {
	parent := strings.TrimSuffix(prefix, ".")
	elems := p.elems(n, parent, "fields")
	out := make([]*Field, 0, len(elems))
	tags := map[int]*Field{}
	names := make(map[string]*Field, len(elems))
	for i, e := range elems {
		f, err := p.field(s, e, prefix, i)
		if err != nil {
			return nil, err
		}
		if g, ok := names[f.Name]; ok {
			return nil, p.errAt(e.off, f.Path, fmt.Sprintf("duplicate field name (also at %d:%d)", g.Pos.Line, g.Pos.Col))
		}
		names[f.Name] = f
		if f.HasTag {
			if g, ok := tags[f.Tag]; ok {
				return nil, p.errAt(p.memberOff(e, "tag"), f.Path, fmt.Sprintf("duplicate tag %d (also on %s)", f.Tag, g.Name))
			}
			tags[f.Tag] = f
		}
		out = append(out, f)
	}
	return out, nil
}

// memberOff returns the offset of the value of key in object n, or of n itself.
func (p *parser) memberOff(n *node, key string) int {
	for _, m := range n.members {
		if m.key == key {
			return m.val.off
		}
	}
	return n.off
}

// field reads one field object.
func (p *parser) field(s *Spec, n *node, prefix string, index int) (*Field, *Error) {
	if err := p.want(n, kObject, strings.TrimSuffix(prefix, "."), "fields"); err != nil {
		return nil, err
	}
	f := &Field{Pos: p.pos.pos(n.off), Path: fmt.Sprintf("%sfields[%d]", prefix, index)}
	// The name first, so that every other error carries the field's path.
	for _, m := range n.members {
		if m.key == "name" && m.val.kind != kNull {
			name, err := p.str(m.val, f.Path, "name")
			if err != nil {
				return nil, err
			}
			if !isIdent(name) {
				return nil, p.errf(m.val, f.Path, "name: %q is not a name (letters, digits, _)", name)
			}
			// Kafka's generator names a field's Java members from its name with the first
			// letter's case folded (camelCaseName, capitalizedCamelCaseName), so
			// throttleTimeMs in a Jackson-era file (2.2) is the ThrottleTimeMs of later ones.
			name = CanonicalName(name)
			f.Name, f.Path = name, prefix+name
		}
	}
	if f.Name == "" {
		return nil, p.errf(n, f.Path, "missing name")
	}
	var typeNode, fieldsNode, tagNode, taggedNode, nullableNode *node
	hasVersions := false
	for _, m := range n.members {
		if !p.present(m, f.Path) {
			continue
		}
		v := m.val
		var err *Error
		switch m.key {
		case "name":
		case "type":
			typeNode = v
			p.typeOffs[f] = v.off
			var name string
			if name, err = p.str(v, f.Path, "type"); err == nil {
				var ok bool
				if f.Type, ok = parseType(name); !ok {
					err = p.errf(v, f.Path, "unknown type %q", name)
				}
			}
		case "versions":
			f.Versions, err = p.versions(v, f.Path, m.key)
			hasVersions = true
		case "nullableVersions":
			f.NullableVersions, err = p.versions(v, f.Path, m.key)
			nullableNode = v
		case "taggedVersions":
			f.TaggedVersions, err = p.versions(v, f.Path, m.key)
			taggedNode = v
		case "flexibleVersions":
			var r VersionRange
			if r, err = p.versions(v, f.Path, m.key); err == nil {
				f.FlexibleVersions = &r
			}
		case "tag":
			f.Tag, err = p.tag(v, f.Path)
			f.HasTag = err == nil
			tagNode = v
		case "ignorable":
			f.Ignorable, err = p.boolean(v, f.Path, m.key)
		case "default":
			f.Default, err = p.defaultValue(v, f.Path)
			f.HasDefault = err == nil
		case "entityType":
			f.EntityType, err = p.str(v, f.Path, m.key)
		case "mapKey":
			f.MapKey, err = p.boolean(v, f.Path, m.key)
		case "zeroCopy":
			f.ZeroCopy, err = p.boolean(v, f.Path, m.key)
		case "about":
			f.About, err = p.str(v, f.Path, m.key)
		case "fields":
			fieldsNode = v
		default:
			f.Extra = append(f.Extra, p.extra(m, f.Path))
		}
		if err != nil {
			return nil, err
		}
	}
	switch {
	case typeNode == nil:
		return nil, p.errf(n, f.Path, "missing type")
	case tagNode != nil && taggedNode == nil:
		return nil, p.errf(tagNode, f.Path, "tag %d without taggedVersions", f.Tag)
	case taggedNode != nil && tagNode == nil:
		return nil, p.errf(taggedNode, f.Path, "taggedVersions without tag")
	case taggedNode != nil && f.TaggedVersions.Set && !f.TaggedVersions.Open():
		return nil, p.errf(taggedNode, f.Path, "taggedVersions %q is not open-ended (N+)", f.TaggedVersions)
	case taggedNode != nil && f.TaggedVersions.Intersect(s.FlexibleVersions) != f.TaggedVersions:
		return nil, p.errf(taggedNode, f.Path, "taggedVersions %q outside the message's flexibleVersions %q", f.TaggedVersions, s.FlexibleVersions)
	case nullableNode != nil && f.NullableVersions.Set && !f.Type.Nullable():
		return nil, p.errf(nullableNode, f.Path, "nullableVersions on type %q, which cannot be null", f.Type.Name)
	case fieldsNode != nil && !f.Type.IsStruct():
		return nil, p.errf(fieldsNode, f.Path, "fields on type %q, which is not a struct", f.Type.Name)
	}
	if !hasVersions {
		// The format lets a tagged field omit versions: it exists in its tagged versions.
		if taggedNode == nil {
			return nil, p.errf(n, f.Path, "missing versions")
		}
		f.Versions = f.TaggedVersions
	}
	if fieldsNode != nil {
		child := f.Path + "."
		if f.Type.Array {
			child = f.Path + "[]."
		}
		st := &Struct{Name: f.Type.StructName, Versions: f.Versions, Pos: f.Pos}
		if prev, ok := s.Structs[st.Name]; ok {
			return nil, p.errf(typeNode, f.Path, "struct %s defined twice (also at %d:%d)", st.Name, prev.Pos.Line, prev.Pos.Col)
		}
		s.Structs[st.Name] = st
		var err *Error
		if st.Fields, err = p.fields(s, fieldsNode, child); err != nil {
			return nil, err
		}
		f.Struct = st
	}
	return f, nil
}

func (p *parser) tag(n *node, path string) (int, *Error) {
	var lit string
	switch n.kind {
	case kNumber, kString:
		lit = n.str
	default:
		return 0, p.errf(n, path, "tag: want a number, got %s", n.kind)
	}
	t, err := strconv.ParseInt(lit, 10, 32)
	if err != nil || t < 0 {
		return 0, p.errf(n, path, "tag: %q is not a number from 0 to 2147483647", lit)
	}
	if n.kind == kString {
		p.note(n.off, path, fmt.Sprintf("tag: the string %q read as the number %d, as Kafka's generator does", lit, t))
	}
	return int(t), nil
}

// defaultValue returns a default as written: a string's contents, a number's literal, or
// "true"/"false".
func (p *parser) defaultValue(n *node, path string) (string, *Error) {
	switch n.kind {
	case kString, kNumber:
		return n.str, nil
	case kBool:
		return strconv.FormatBool(n.boolean), nil
	}
	return "", p.errf(n, path, "default: want a string, number or boolean, got %s", n.kind)
}

// resolve links every struct-typed field without inline fields to its common struct, and
// rejects structs that contain themselves.
func (p *parser) resolve(s *Spec) error {
	var walk func(fields []*Field) *Error
	walk = func(fields []*Field) *Error {
		for _, f := range fields {
			if !f.Type.IsStruct() {
				continue
			}
			if f.Struct == nil {
				st, ok := s.Structs[f.Type.StructName]
				if !ok {
					return p.errAt(p.typeOffs[f], f.Path, fmt.Sprintf("struct type %q has no definition", f.Type.StructName))
				}
				f.Struct = st
				continue
			}
			if err := walk(f.Struct.Fields); err != nil {
				return err
			}
		}
		return nil
	}
	for _, st := range s.CommonStructs {
		if err := walk(st.Fields); err != nil {
			return err
		}
	}
	if err := walk(s.Fields); err != nil {
		return err
	}
	return p.checkCycles(s)
}

// checkCycles rejects a struct that contains itself, directly or through other structs: no
// message could be encoded.
func (p *parser) checkCycles(s *Spec) error {
	const (
		visiting = 1
		done     = 2
	)
	state := map[*Struct]int{}
	height := map[*Struct]int{} // how deep structs nest below a struct, once done
	var deep *Field
	var visit func(st *Struct) *Field
	visit = func(st *Struct) *Field {
		state[st] = visiting
		h := 0
		for _, f := range st.Fields {
			if f.Struct == nil {
				continue
			}
			switch state[f.Struct] {
			case visiting:
				return f
			case 0:
				if bad := visit(f.Struct); bad != nil {
					return bad
				}
			}
			if hf := height[f.Struct] + 1; hf > h {
				h = hf
				if h > MaxStructDepth && deep == nil {
					deep = f
				}
			}
		}
		height[st] = h
		state[st] = done
		return nil
	}
	top := &Struct{Name: s.Name, Fields: s.Fields}
	roots := append([]*Struct{top}, s.CommonStructs...)
	for _, st := range roots {
		if state[st] == 0 {
			if f := visit(st); f != nil {
				return p.errAt(p.typeOffs[f], f.Path, fmt.Sprintf("struct %s contains itself", f.Type.StructName))
			}
		}
		if deep != nil {
			return p.errAt(p.typeOffs[deep], deep.Path, fmt.Sprintf("structs nest more than %d deep here", MaxStructDepth))
		}
	}
	return nil
}

// MaxStructDepth bounds how deep structs nest in a message, through inline and common structs
// alike: the real files nest under 10 deep, and every walk of a message is bounded by it.
const MaxStructDepth = 64
