// Package schemas parses Apache Kafka's JSON message specifications (the files in a Kafka
// checkout's clients/src/main/resources/common/message) into a model that answers every
// version question in one place: is a field present at version v, nullable, tagged, compact?
//
// The format is described in that folder's README.md in apache/kafka
// (https://github.com/apache/kafka/blob/trunk/clients/src/main/resources/common/message/README.md).
// The files are JSON with "//" comments ("/* */" is accepted too). Parse reads one file; Load
// reads a release's folder. Errors carry the file, line:column and the field path
// (TopicData[].PartitionData[].Records).
//
// # What is checked
//
// Everything the 3.9, 4.0 and 4.1 files use parses: every spec type (request, response, header,
// data, metadata, …), validVersions / flexibleVersions / deprecatedVersions /
// latestVersionUnstable / listeners, fields with versions, nullableVersions, taggedVersions and
// tag, flexibleVersions, ignorable, default, entityType, mapKey, zeroCopy and about, primitive
// types, arrays, inline structs and commonStructs (forward references included). The format is
// closed: an unknown key is an error. So are an unknown type, a bad version range, a struct type
// with no definition (or two), a struct that contains itself, a tag without taggedVersions (and
// the reverse), two fields of a struct with one tag, taggedVersions that are not open-ended or
// not within the message's flexibleVersions, and nullableVersions on a type that cannot be null
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
// Input is untrusted: malformed files give errors, never panics (a fuzz test checks). A Spec is
// immutable after parsing and safe for concurrent use; so is a Release.
package schemas

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
}
