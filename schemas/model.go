// Package schemas parses Apache Kafka's JSON message specifications (the files in a Kafka
// checkout's clients/src/main/resources/common/message) into a model that answers every
// version question in one place: is a field present at version v, nullable, tagged, compact?
//
// The format is described in that folder's README.md in apache/kafka. The files are JSON with
// "//" comments. Parse reads one file; Load reads a release's folder. Errors carry the file,
// line:column and the field path (TopicData[].PartitionData[].Records).
//
// Input is untrusted: malformed files give errors, never panics. A Spec is immutable after
// parsing and safe for concurrent use.
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
	Versions         VersionRange
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
	Path             string  // TopicData[].PartitionData[].Records
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
