// Package dissector writes a Wireshark dissector for the Kafka protocol, in Lua, from Kafka's
// own message schemas: every API and every version of one release, or of several releases
// together (the union of their versions).
//
// The file it writes is one Lua script: a table per API, generated from the schema model
// (package schemas, through the catalogue of package kafka), and a fixed runtime that walks
// those tables over the bytes as package kafka's decoder walks the schemas: size-prefixed
// frames over TCP (reassembled across segments, several to a segment), request headers v0 to
// v2, responses paired with their requests by correlation id per TCP stream and read at the
// request's API and version (ApiVersions responses always in header v0, and read at v0 when
// the version asked does not read, KIP-511), flexible versions (compact lengths, tagged fields
// by tag), nullable forms, UUIDs, record batches and legacy message sets with every record and
// header (gzip-compressed ones opened, other codecs marked), and error codes by name.
//
// # Field names
//
// The protocol is "kafkagrid", so that it sits beside Wireshark's own "kafka". Every field of
// a schema has one filter name: "kafkagrid." + the API's name in snake case + "." + the
// field's path from the message's top, each name in snake case, array indexes left out:
// ProduceRequest's TopicData[].PartitionData[].Index is kafkagrid.produce.topic_data.partition_data.index.
// Request and response fields of an API share the prefix; a path both sides have with the
// same type is one field (filter kafkagrid.response to tell them apart). Where two uses of
// one name disagree on the type (a side, a version or a release), the response's is named
// with ".response." after the API (kafkagrid.x.response.path), and a disagreement left after
// that is named with its type (path + "_" + type). The names depend only on the API's and
// fields' names, so they stay the same from release to release; Fields lists them.
//
// # Several releases
//
// Given several catalogues (oldest first), the dissector knows every version any of them has:
// each version of each API is read as the newest release that has it defines it. An API's
// name is its newest release's.
package dissector

import (
	"bufio"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/schemas"
)

//go:embed runtime.lua
var runtime string

// DefaultPort is the TCP port the dissector claims unless its preference says others.
const DefaultPort = 9092

// Options tunes the dissector. The zero value claims port 9092.
type Options struct {
	// Ports are the TCP ports the dissector claims by default (a preference in Wireshark
	// changes them); none means DefaultPort.
	Ports []uint16
}

// Field is one filter name of the dissector.
type Field struct {
	Abbrev string // "kafkagrid.produce.topic_data.name"
	Name   string // the schema field's name: "Name"
	Type   string // Wireshark's field type: "int32", "string", "bytes", "guid", "none", …
	About  string // the schema's about text (its newest)
}

// gen is one generation: the fields, by filter name, and the API tables.
type gen struct {
	fields map[string]*genField
	order  []string // filter names in the order first used
	apis   []*genAPI
	uses   map[string]map[string]bool // plain filter name → "type/side" of its uses
}

type genField struct {
	Field
	index  int
	errors bool        // an error code: shown with its name, and under kafkagrid.error_code too
	enum   *kafka.Enum // the enumeration whose names its values are shown with, or nil
}

// genAPI is one API key of the union.
type genAPI struct {
	key   int16
	name  string // the newest release's
	snake string
	req   []*variant
	resp  []*variant
	// hv is the header version per version of the union: requests, responses.
	reqHV, respHV map[int16]int16
	ver0Fallback  bool // ApiVersions: a response read again at v0 (KIP-511)
}

// variant is one spec serving some versions of one side of an API.
type variant struct {
	release  string
	versions []int16
	spec     *schemas.Spec
}

// Write writes the dissector of the catalogues' APIs, the catalogues oldest release first:
// each version of each API is read as the newest catalogue that has it defines it.
func Write(w io.Writer, cats []*kafka.Catalog, o Options) error {
	g, err := build(cats)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	g.write(bw, cats, o)
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("dissector: %w", err)
	}
	return nil
}

// Fields returns the dissector's schema field names (not the fixed ones of headers, records
// and the frame, which the package documentation lists), sorted.
func Fields(cats []*kafka.Catalog) ([]Field, error) {
	g, err := build(cats)
	if err != nil {
		return nil, err
	}
	out := make([]Field, 0, len(g.order))
	for _, a := range g.order {
		out = append(out, g.fields[a].Field)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Abbrev < out[j].Abbrev })
	return out, nil
}

func build(cats []*kafka.Catalog) (*gen, error) {
	if len(cats) == 0 {
		return nil, errors.New("dissector: no catalogue")
	}
	g := &gen{fields: map[string]*genField{}}
	byKey := map[int16]*genAPI{}
	// Newest first: a version goes to the first release that has it.
	for i := len(cats) - 1; i >= 0; i-- {
		c := cats[i]
		if c == nil {
			return nil, errors.New("dissector: nil catalogue")
		}
		rel := ""
		if c.Release != nil {
			rel = c.Release.Name()
		}
		for _, api := range c.APIs {
			a := byKey[api.Key]
			if a == nil {
				a = &genAPI{key: api.Key, name: api.Name, snake: Snake(api.Name), reqHV: map[int16]int16{}, respHV: map[int16]int16{},
					ver0Fallback: kafka.FactsOf(api.Key, api.Name).ResponseHeaderV0}
				byKey[api.Key] = a
			}
			var reqV, respV []int16
			for v := api.Lowest; v <= api.Version; v++ {
				if !api.Request.ValidIn(v) || !api.Response.ValidIn(v) {
					continue
				}
				if _, ok := a.reqHV[v]; ok {
					continue
				}
				a.reqHV[v] = kafka.HeaderVersion(api, false, v)
				a.respHV[v] = kafka.HeaderVersion(api, true, v)
				reqV = append(reqV, v)
				respV = append(respV, v)
			}
			if len(reqV) > 0 {
				a.req = append(a.req, &variant{release: rel, versions: reqV, spec: api.Request})
				a.resp = append(a.resp, &variant{release: rel, versions: respV, spec: api.Response})
			}
		}
	}
	keys := make([]int, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, int(k))
	}
	sort.Ints(keys)
	for _, k := range keys {
		g.apis = append(g.apis, byKey[int16(k)])
	}
	// Field names: first every use with its type, then the names settled.
	uses := map[string]map[string]bool{}
	g.uses = uses
	for _, a := range g.apis {
		for side, vs := range [][]*variant{a.req, a.resp} {
			for _, v := range vs {
				walkFields(v.spec.Fields, "", func(f *schemas.Field, path string) {
					name := "kafkagrid." + a.snake + "." + path
					if uses[name] == nil {
						uses[name] = map[string]bool{}
					}
					uses[name][ftype(f)+"/"+strconv.Itoa(side)] = true
				})
			}
		}
	}
	for _, a := range g.apis {
		for side, vs := range [][]*variant{a.req, a.resp} {
			for _, v := range vs {
				walkFields(v.spec.Fields, "", func(f *schemas.Field, path string) {
					g.field(a, side == 1, f, path, uses)
				})
			}
		}
	}
	return g, nil
}

// walkFields calls fn for every field of a struct and of the structs within, with its path
// (snake case, dots, no indexes).
func walkFields(fields []*schemas.Field, prefix string, fn func(*schemas.Field, string)) {
	for _, f := range fields {
		p := Snake(f.Name)
		if prefix != "" {
			p = prefix + "." + p
		}
		fn(f, p)
		if f.Struct != nil && recordsPrim(f) == schemas.StructType {
			walkFields(f.Struct.Fields, p, fn)
		}
	}
}

// abbrev is the filter name of a field, as the package documentation says.
func (g *gen) abbrev(a *genAPI, response bool, f *schemas.Field, path string, uses map[string]map[string]bool) string {
	name := "kafkagrid." + a.snake + "." + path
	types := map[string]bool{}
	for t := range uses[name] {
		types[strings.SplitN(t, "/", 2)[0]] = true
	}
	if len(types) <= 1 {
		return name
	}
	side := "request"
	if response {
		side = "response"
	}
	// The types of this side alone.
	own := map[string]bool{}
	for t := range uses[name] {
		if strings.HasSuffix(t, "/"+strconv.Itoa(boolInt(response))) {
			own[strings.SplitN(t, "/", 2)[0]] = true
		}
	}
	if response {
		name = "kafkagrid." + a.snake + "." + side + "." + path
	}
	if len(own) > 1 || !response {
		// The request keeps the plain name unless its own uses disagree.
		if len(own) > 1 {
			name += "_" + ftype(f)
		}
	}
	return name
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// field registers a schema field's filter name and returns it.
func (g *gen) field(a *genAPI, response bool, f *schemas.Field, path string, uses map[string]map[string]bool) *genField {
	name := g.abbrev(a, response, f, path, uses)
	if gf, ok := g.fields[name]; ok {
		return gf
	}
	gf := &genField{Field: Field{Abbrev: name, Name: f.Name, Type: ftype(f), About: f.About}, index: len(g.order) + 1,
		errors: isErrorCode(f)}
	switch f.Type.Prim {
	case schemas.Int8, schemas.Int16, schemas.Int32: // Wireshark names 32-bit values at most
		if e, ok := kafka.EnumOf(a.key, f.Name); ok && !gf.errors {
			gf.enum = e
		}
	}
	g.fields[name] = gf
	g.order = append(g.order, name)
	return gf
}

func isErrorCode(f *schemas.Field) bool {
	return strings.HasSuffix(f.Name, "ErrorCode") && f.Type.Prim == schemas.Int16 && !f.Type.Array
}

// recordsPrim is the type a field is read as: a bytes field named Records holds records in
// the releases that wrote them so, as package kafka reads them.
func recordsPrim(f *schemas.Field) schemas.Prim {
	if f.Type.Prim == schemas.Bytes && !f.Type.Array && f.Name == "Records" {
		return schemas.Records
	}
	return f.Type.Prim
}

// ftype is the Wireshark field type of a field's filter name: the value's for a primitive
// and for the elements of an array of primitives, "none" for structs, arrays of structs and
// records.
func ftype(f *schemas.Field) string {
	switch recordsPrim(f) {
	case schemas.Bool:
		return "bool"
	case schemas.Int8:
		return "int8"
	case schemas.Int16:
		return "int16"
	case schemas.Uint16:
		return "uint16"
	case schemas.Int32:
		return "int32"
	case schemas.Int64:
		return "int64"
	case schemas.Float64:
		return "double"
	case schemas.String:
		return "string"
	case schemas.Bytes:
		return "bytes"
	case schemas.UUID:
		return "guid"
	}
	return "none"
}

// Snake writes a schema name in snake case: "TopicData" → "topic_data", "ProducerId" →
// "producer_id", "HTTPServer" → "http_server".
func Snake(s string) string {
	r := []rune(s)
	var b strings.Builder
	for i, c := range r {
		if unicode.IsUpper(c) {
			prevLower := i > 0 && (unicode.IsLower(r[i-1]) || unicode.IsDigit(r[i-1]))
			nextLower := i > 0 && i+1 < len(r) && unicode.IsUpper(r[i-1]) && unicode.IsLower(r[i+1])
			if prevLower || nextLower {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(c))
			continue
		}
		if c == '.' || c == '-' || c == ' ' {
			b.WriteByte('_')
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}

// A Disagreement is a version of a message that two releases define with different fields on
// the wire (an unstable latest version that a later release changed, say; a field renamed is
// no disagreement). The dissector reads it as Newest defines it.
type Disagreement struct {
	Key      int16
	API      string // "Produce": the newest release's name
	Response bool
	Version  int16
	Newest   string   // the release whose definition the dissector reads
	Others   []string // the older releases that define the version otherwise, oldest first
}

func (d Disagreement) String() string {
	side := "request"
	if d.Response {
		side = "response"
	}
	verb := "defines"
	if len(d.Others) > 1 {
		verb = "define"
	}
	return fmt.Sprintf("%s v%d %s: Kafka %s %s it otherwise than %s, whose definition is read",
		d.API, d.Version, side, strings.Join(d.Others, ", "), verb, d.Newest)
}

// Disagreements lists the versions the catalogues (oldest first) define differently on the
// wire, by API key, version and side.
func Disagreements(cats []*kafka.Catalog) []Disagreement {
	var out []Disagreement
	type id struct {
		key      int16
		response bool
		v        int16
	}
	newest := map[id]string{} // the layout of the newest release with the version
	newestRel := map[id]string{}
	names := map[int16]string{}
	for i := len(cats) - 1; i >= 0; i-- {
		c := cats[i]
		for _, api := range c.APIs {
			if _, ok := names[api.Key]; !ok {
				names[api.Key] = api.Name
			}
			for v := api.Lowest; v <= api.Version; v++ {
				for _, resp := range []bool{false, true} {
					spec := api.Request
					if resp {
						spec = api.Response
					}
					if !spec.ValidIn(v) {
						continue
					}
					k := id{api.Key, resp, v}
					l := layout(spec, spec.Fields, v)
					if _, ok := newest[k]; !ok {
						newest[k], newestRel[k] = l, c.Release.Name()
						continue
					}
					if newest[k] != l {
						found := false
						for j := range out {
							d := &out[j]
							if d.API == names[k.key] && d.Response == k.response && d.Version == k.v {
								d.Others = append([]string{c.Release.Name()}, d.Others...)
								found = true
							}
						}
						if !found {
							out = append(out, Disagreement{Key: k.key, API: names[k.key], Response: k.response, Version: k.v,
								Newest: newestRel[k], Others: []string{c.Release.Name()}})
						}
					}
				}
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].API != out[j].API {
			return out[i].API < out[j].API
		}
		if out[i].Version != out[j].Version {
			return out[i].Version < out[j].Version
		}
		return !out[i].Response && out[j].Response
	})
	return out
}

// layout writes what a struct's fields put on the wire at version v: types, nullable,
// compact and tagged forms, nested structs (not the names: a field renamed reads the same);
// two versions with one layout read the same bytes alike.
func layout(spec *schemas.Spec, fields []*schemas.Field, v int16) string {
	var b strings.Builder
	if spec.FlexibleIn(v) {
		b.WriteString("flexible;")
	}
	for _, f := range fields {
		if !f.PresentIn(v) {
			continue
		}
		fmt.Fprintf(&b, "%s:%t:%t:%t", typeCode(f), f.Type.Array, f.NullableIn(v), spec.CompactIn(f, v))
		if f.TaggedIn(v) {
			fmt.Fprintf(&b, ":tag%d", f.Tag)
		}
		if f.Struct != nil && recordsPrim(f) == schemas.StructType {
			b.WriteString("{")
			b.WriteString(layout(spec, f.Struct.Fields, v))
			b.WriteString("}")
		}
		b.WriteString(";")
	}
	return b.String()
}
