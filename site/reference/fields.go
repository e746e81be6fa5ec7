package reference

import (
	"strconv"
	"strings"

	"github.com/kafkagrid/kafkagrid/schemas"
)

// fieldRow is one field of a message schema as the field tables show it: its path, its type,
// the versions it is in (and nullable or tagged in), and the schema's "about" text.
type fieldRow struct {
	Parent   string // the path above the field, with its dot: "Topics[].Partitions[]."; "" at the top
	Name     string
	Type     string // as the schema writes it: "[]TopicData", "int32"
	Versions string // "3+", "3+; nullable 5+; tag 0 in 12+"
	About    string
	Absent   bool   // not in the version the table is for
	Notes    string // in a site of releases: "since v13 (Kafka 3.1); tagged from …" (History)
}

// maxFieldDepth bounds the walk into structs: Kafka's messages nest a few levels; a schema that
// (wrongly) nests a struct in itself stops here instead of looping.
const maxFieldDepth = 16

// fieldRows lists every field of a message schema, depth first in file order, structs (inline
// or common) under the field that holds them; Absent marks the fields not in version v.
func fieldRows(spec *schemas.Spec, v int16) []fieldRow {
	var rows []fieldRow
	var walk func(fields []*schemas.Field, parent string, depth int, absent bool)
	walk = func(fields []*schemas.Field, parent string, depth int, absent bool) {
		for _, f := range fields {
			r := fieldRow{Parent: parent, Name: f.Name, Type: f.Type.Name, Versions: fieldVersions(f), About: strings.TrimSpace(f.About),
				Absent: absent || !f.PresentIn(v)}
			rows = append(rows, r)
			if f.Struct != nil && depth < maxFieldDepth {
				p := parent + f.Name
				if f.Type.Array {
					p += "[]"
				}
				walk(f.Struct.Fields, p+".", depth+1, r.Absent)
			}
		}
	}
	walk(spec.Fields, "", 0, false)
	return rows
}

// fieldVersions says in which versions a field is present, nullable and tagged.
func fieldVersions(f *schemas.Field) string {
	s := f.Versions.String()
	if !f.NullableVersions.Empty() {
		s += "; nullable " + f.NullableVersions.String()
	}
	if f.HasTag {
		s += "; tag " + strconv.Itoa(f.Tag)
		if !f.TaggedVersions.Empty() {
			s += " in " + f.TaggedVersions.String()
		}
	}
	return s
}

// fieldTableView is a message's field table on a page.
type fieldTableView struct {
	ID, Title, File string
	Rows            []fieldRow
	Absent          int // how many rows are not in the page's version
}

func fieldTables(req, resp *schemas.Spec, v int16) []fieldTableView {
	var out []fieldTableView
	for _, t := range []struct {
		id, title string
		spec      *schemas.Spec
	}{{"request-fields", "Request fields", req}, {"response-fields", "Response fields", resp}} {
		ft := fieldTableView{ID: t.id, Title: t.title, File: t.spec.File, Rows: fieldRows(t.spec, v)}
		for _, r := range ft.Rows {
			if r.Absent {
				ft.Absent++
			}
		}
		out = append(out, ft)
	}
	return out
}
