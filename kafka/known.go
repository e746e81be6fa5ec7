package kafka

import (
	_ "embed"
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/kafkagrid/kafkagrid/schemas"
)

// knownFieldsText lists every field of every request and response of the Kafka releases
// kafkagrid has been tested on, one "Key Side Path Type" a line ("0 response
// Responses.PartitionResponses []struct"), and the names each API key has had ("# api 2
// ListOffset ListOffsets"). The example merger uses it to tell an override for a field that
// this release lacks (skipped) from a field no release has (a mistake), and to find the override
// file of an API that a release names differently. It is made from the schemas by
// "go test ./kafka -run TestKnownFields -update".
//
//go:embed knownfields.txt
var knownFieldsText string

// knownFields is the table of knownfields.txt: type by API key, side and dotted path (no
// indexes), and the names of each API key.
type knownFields struct {
	releases string                       // the releases the table was made from, "2.4 2.8 …"
	types    map[string]map[string]string // "0 response" → path → type ("int32", "[]struct", "int32|int64")
	names    map[int16][]string           // API key → its names over the releases
	inRels   map[int16][]string           // API key → the releases that have it
}

// loadKnownFields parses the table. It runs only when an override misses this release's schema.
// sharedKnownFields is the table, read from its embedded text once a process, when first
// wanted: every example, edge case and check of an override file asks it.
var sharedKnownFields = sync.OnceValue(loadKnownFields)

func loadKnownFields() *knownFields {
	k := &knownFields{types: map[string]map[string]string{}, names: map[int16][]string{}, inRels: map[int16][]string{}}
	for _, line := range strings.Split(knownFieldsText, "\n") {
		if r, ok := strings.CutPrefix(line, "# releases: "); ok {
			k.releases = r
			continue
		}
		if r, ok := strings.CutPrefix(line, "# api "); ok {
			names, rels, _ := strings.Cut(r, " releases ")
			f := strings.Fields(names)
			if key, err := strconv.ParseInt(f[0], 10, 16); err == nil && len(f) > 1 {
				k.names[int16(key)] = f[1:]
				k.inRels[int16(key)] = strings.Fields(rels)
			}
			continue
		}
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 4 {
			continue
		}
		side := f[0] + " " + f[1]
		m := k.types[side]
		if m == nil {
			m = map[string]string{}
			k.types[side] = m
		}
		m[f[2]] = f[3]
	}
	return k
}

// lookup returns the type of the field at path of an API's request or response in some known
// release.
func (k *knownFields) lookup(key int16, response bool, path string) (string, bool) {
	t, ok := k.types[knownSide(key, response)][path]
	return t, ok
}

// knownSide is a table line's first two words: "0 request".
func knownSide(key int16, response bool) string {
	if response {
		return strconv.Itoa(int(key)) + " response"
	}
	return strconv.Itoa(int(key)) + " request"
}

// knownFieldLines lists a release's request and response fields as lines of the table, type by
// path; for building the table.
func knownFieldLines(r *schemas.Release, add func(side, path, typ string)) {
	for _, s := range r.Specs {
		if s.Type != "request" && s.Type != "response" || !s.HasAPIKey {
			continue
		}
		side := knownSide(s.APIKey, s.Type == "response")
		var walk func(prefix string, fields []*schemas.Field, depth int)
		walk = func(prefix string, fields []*schemas.Field, depth int) {
			for _, f := range fields {
				p := prefix + f.Name
				add(side, p, knownType(f.Type))
				if f.Struct != nil && depth < 32 {
					walk(p+".", f.Struct.Fields, depth+1)
				}
			}
		}
		walk("", s.Fields, 0)
	}
}

// knownType names a type for the table: struct names become "struct", as the table checks only
// the shape of an override.
func knownType(t schemas.Type) string {
	name := t.Prim.String()
	if t.Array {
		return "[]" + name
	}
	return name
}

// dotted turns a merger path ("Responses[0].PartitionResponses[1].Index") into the table's
// form ("Responses.PartitionResponses.Index").
func dotted(path string) string {
	if !strings.Contains(path, "[") {
		return path
	}
	var b strings.Builder
	skip := false
	for _, c := range path {
		switch {
		case c == '[':
			skip = true
		case c == ']':
			skip = false
		case !skip:
			b.WriteRune(c)
		}
	}
	return b.String()
}

// KnownAPI says what kafkagrid knows of an API from the releases it was tested on (2.2 … 4.1):
// its key, the names it has had, and the releases that have it with valid versions. nameOrKey
// is a name ("LeaderAndIsr", any case) or a key ("4"). It answers without reading any schema,
// for telling a user which release has an API their release lacks.
func KnownAPI(nameOrKey string) (key int16, names, releases []string, ok bool) {
	k := loadKnownFields()
	if n, err := strconv.ParseInt(nameOrKey, 10, 16); err == nil {
		key = int16(n)
		names, ok = k.names[key]
		return key, names, k.inRels[key], ok
	}
	q := strings.TrimSuffix(strings.TrimSuffix(strings.ToLower(nameOrKey), "request"), "response")
	for key, names := range k.names {
		for _, n := range names {
			if strings.ToLower(n) == q {
				return key, names, k.inRels[key], true
			}
		}
	}
	return 0, nil, nil, false
}

// OtherReleaseHint says, for a frame whose request header names an API key this release lacks,
// which releases have it ("; if it is a request, API key 4 (LeaderAndIsr) is not in Kafka 4.0
// but is in Kafka 2.4, …, 3.9: try -release 3.9"), and "" otherwise: decode and the diagram
// drawer add it to a frame that does not read.
func OtherReleaseHint(c *Catalog, frame []byte) string {
	if len(frame) < 8 {
		return ""
	}
	key := int16(binary.BigEndian.Uint16(frame[4:6]))
	if key < 0 || c.Release.Request(key) != nil && c.Release.Request(key).ValidVersions.Set {
		return ""
	}
	_, names, rels, ok := KnownAPI(strconv.Itoa(int(key)))
	if !ok || len(rels) == 0 {
		return ""
	}
	return fmt.Sprintf("; if it is a request, API key %d (%s) is not in Kafka %s but is in Kafka %s: try -release %s",
		key, strings.Join(names, ", "), c.Release.Name(), strings.Join(rels, ", "), rels[len(rels)-1])
}
