// Package schemas parses Apache Kafka's JSON message specifications (the files in a Kafka
// checkout's clients/src/main/resources/common/message) into a model that answers every
// version question in one place: is a field present at version v, nullable, tagged, compact?
//
// The format is described in that folder's README.md in apache/kafka
// (https://github.com/apache/kafka/blob/trunk/clients/src/main/resources/common/message/README.md).
// The files are JSON with "//" comments ("/* */" is accepted too). Parse reads one file; Load
// reads a release's folder, Open a folder, a kafka-clients jar or a Kafka installation. Errors
// carry the file, line:column and the field path (TopicData[].PartitionData[].Records).
// ScanHeader reads only a spec's top-level name, type, apiKey and validVersions, and
// ScanFolder a folder's, for a caller that parses a few of a release's specs (one API's).
//
// # What is read
//
// Everything every release since 2.4 uses parses: every spec type (request, response, header,
// data, metadata, …), validVersions / flexibleVersions / deprecatedVersions /
// latestVersionUnstable / listeners, fields with versions, nullableVersions, taggedVersions and
// tag, flexibleVersions, ignorable, default, entityType, mapKey, zeroCopy and about, primitive
// types, arrays, inline structs and commonStructs (forward references included).
//
// # As lenient as Kafka's generator, and no more
//
// Kafka builds its Java classes from these files with Jackson (generator/src/main/java/org/
// apache/kafka/message: MessageSpec, FieldSpec, StructSpec), configured to allow comments and
// to accept a single value as an array, with Jackson's scalar coercions on. The parser accepts
// what that accepts and reads it the same way: a boolean written as "true" or 1, a string
// written as a number (versions: 3), a number written as a string (tag, apiKey), a single value
// for an array (listeners, fields), null for "not given", a key repeated in one object (the last
// value wins), and text after the top-level value (which Kafka 2.8's generator ignored: its
// DescribeProducersRequest.json ends in a stray "]"). A key the format does not define is kept
// (Spec.Extra, Field.Extra) rather than refused, so that a release newer than this parser still
// loads. Each of these gives a Note with its position (Spec.Notes); none changes a meaning in
// silence.
//
// What Kafka's generator rejects stays an error: an unknown type, a bad version range, a
// boolean that is neither true, false nor an integer, a struct type with no definition (or
// two), a struct that contains itself, a tag without taggedVersions (and the reverse), two
// fields of a struct with one name or one tag, taggedVersions that are not open-ended or not
// within the message's flexibleVersions, and nullableVersions on a type that cannot be null
// (only strings, bytes, records, arrays and structs can).
//
// # Positions and paths
//
// An *Error names the file, a 1-based line:column (columns count characters) and the field
// path. The position is that of the offending JSON token (the type string, the version string,
// the second of two equal tags, an unknown or repeated key), or of the object's opening brace
// when a required key is missing; a JSON syntax error points at the offending character.
// Paths are like "TopicData[].PartitionData[].Records": "[]" after an array field. A common
// struct is shared by every field that uses it, so its fields have paths rooted at the
// struct's name ("SnapshotId.Epoch"); callers that need a path per use (an encoder) build it
// while walking.
//
// # Trust and concurrency
//
// Input is untrusted: malformed files give errors, never panics (a fuzz test checks). Reading an
// object, and checking a struct's field names, costs time linear in its size; a file larger
// than MaxSpecSize, or one that is not a regular file, is refused before it is read. A Spec is
// immutable after parsing and safe for concurrent use; so is a Release.
package schemas

import "fmt"

// Version is a message version number.
type Version = int16

// VersionRange is a range of versions as written in a spec: "none", "N", "N+" or "N-M".
// The zero value is "none" (the empty range).
type VersionRange struct {
	Lo, Hi Version // inclusive bounds; Hi is MaxVersion for an open range ("N+")
	Set    bool    // false for "none"
}

// MaxVersion is the upper bound of an open range.
const MaxVersion Version = 32767

// Pos is a position in a spec file (1-based line and column).
type Pos struct {
	Line, Col int
}

// Prim is a primitive type, or Struct for a struct type.
type Prim int

// The primitive types of the spec format.
const (
	Invalid Prim = iota
	Bool
	Int8
	Int16
	Uint16
	Int32
	Int64
	Float64
	String
	Bytes
	Records
	UUID
	StructType // a named struct (inline or from commonStructs)
)

// Type is a field's type: a primitive or a struct, or an array of one of those.
type Type struct {
	Name       string // as written: "[]TopicProduceData", "int32", "SnapshotId"
	Prim       Prim   // the type, or the element type of an array
	Array      bool
	StructName string // for Prim == StructType: the struct's name
}

// Field is one field of a struct or of a message.
type Field struct {
	Name             string
	Type             Type
	Versions         VersionRange // taggedVersions when the spec gives only those
	NullableVersions VersionRange
	TaggedVersions   VersionRange
	FlexibleVersions *VersionRange // a field-level override ("none" on RequestHeader.ClientId); nil if absent
	Tag              int           // valid when HasTag
	HasTag           bool
	Ignorable        bool
	Default          string // as written; "" when HasDefault is false
	HasDefault       bool
	EntityType       string
	MapKey           bool
	ZeroCopy         bool
	About            string
	Extra            []Attr  // keys the format does not define, kept as written
	Struct           *Struct // for struct and array-of-struct types: the resolved struct
	Path             string  // TopicData[].PartitionData[].Records; "SnapshotId.Epoch" in a common struct
	Pos              Pos     // where the field's object starts
}

// Struct is a named group of fields: a message's top level, an inline struct or a common struct.
type Struct struct {
	Name     string
	Versions VersionRange // the versions the struct exists in (common structs may say)
	Fields   []*Field
	Pos      Pos
	Extra    []Attr // keys of a common struct's object that the format does not define
}

// Spec is one message specification file.
type Spec struct {
	File                  string // base name, e.g. ProduceRequest.json
	Raw                   []byte // the file's text, as read
	Type                  string // request, response, header, data, metadata, …
	Name                  string // ProduceRequest
	APIKey                int16  // valid when HasAPIKey
	HasAPIKey             bool
	ValidVersions         VersionRange
	FlexibleVersions      VersionRange
	DeprecatedVersions    VersionRange
	LatestVersionUnstable bool
	Listeners             []string
	Fields                []*Field           // the message's top-level fields
	CommonStructs         []*Struct          // in file order
	Structs               map[string]*Struct // every named struct (inline and common) by name
	Extra                 []Attr             // top-level keys the format does not define, kept as written
	Notes                 []Note             // lenient input accepted while parsing, in file order
}

// Attr is a key the spec format does not define (a newer release's attribute, say), kept with
// its value as compact JSON text ("true", "\"x\"", "[1,2]").
type Attr struct {
	Key   string
	Value string
	Pos   Pos // where the key starts
}

// Note is something a spec file says that Kafka's generator accepts although the format does not
// define it: a boolean written as a string, text after the top-level value, an unknown key, … .
// Parsing goes on as Kafka's generator would; the note says what was read and how, so that a
// caller can show it (kafkagrid prints notes on stderr unless -q).
type Note struct {
	File string
	Pos  Pos
	Path string // field path, as in Error; empty outside fields
	Msg  string
}

// String returns "File:Line:Col: note: Path: Msg" (without "Path: " when Path is empty).
func (n Note) String() string {
	if n.Path == "" {
		return fmt.Sprintf("%s:%d:%d: note: %s", n.File, n.Pos.Line, n.Pos.Col, n.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: note: %s: %s", n.File, n.Pos.Line, n.Pos.Col, n.Path, n.Msg)
}
