package reference

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/schemas"
)

// History is the protocol over several releases, oldest first: for each API key, the
// versions each release accepts, which release first had each version and which removed it,
// the deprecated and flexible versions; for each field, since which version and release it
// is there, tagged and nullable, and where it went. It is read from the schemas alone.
type History struct {
	Releases []string
	Cats     []*kafka.Catalog
	APIs     []*APIHistory // by key
	// Diffs[i] is Compare(release i-1, release i); Diffs[0] is nil.
	Diffs  []*schemas.ReleaseDiff
	byKey  map[int16]*APIHistory
	fields map[fieldKey]*FieldHistory
	// renamed[i] maps a field's path in release i to its path in release i+1 where release
	// i+1 renamed it (Compare's "renamed", same bytes), nested fields included.
	renamed []map[fieldKey]string
	// pos[i] places each field of release i in its struct; at[i] finds a field by place.
	pos []map[fieldKey]fieldPos
	at  []map[fieldPos]string
}

// fieldPos is where a field sits: its parent's path, its index among the parent's fields,
// and its type (struct types by kind only: a renamed struct keeps its bytes).
type fieldPos struct {
	key      int16
	response bool
	parent   string
	index    int
	typ      string
}

// APIHistory is one API key over the releases.
type APIHistory struct {
	Key  int16
	Name string // the newest name (2.4's ListOffset is ListOffsets)
	// Names are every name the API had, oldest first ("ListOffset", "ListOffsets").
	Names []string
	// Rows has one entry per release of the History, in the same order.
	Rows []ReleaseRow
	// Versions runs from the lowest version any release accepts to the highest.
	Versions []VersionHistory
}

// ReleaseRow is what one release says of an API.
type ReleaseRow struct {
	Release    string
	API        *kafka.API // nil when the release lacks the API
	Valid      schemas.VersionRange
	Flexible   schemas.VersionRange
	Deprecated schemas.VersionRange
	Unstable   int16 // the highest version when marked latestVersionUnstable, else -1
}

// Has reports whether the release accepts version v of the API.
func (r ReleaseRow) Has(v int16) bool { return r.API != nil && r.Valid.Contains(v) }

// VersionHistory is one version of an API over the releases.
type VersionHistory struct {
	Version int16
	First   int // index of the first release that has it, -1 if none does
	// Removed is the index of the first release after one that had it that does not, -1 if
	// every later release has it. Reinstated says a later release has it again.
	Removed    int
	Reinstated bool
	Flexible   bool // flexible in the newest release that has it
}

// fieldKey names a field of one API's request or response by its path as the field tables
// write it ("Topics[].Partitions[].PartitionIndex").
type fieldKey struct {
	key      int16
	response bool
	path     string
}

// FieldHistory is one field over the releases.
type FieldHistory struct {
	API      *APIHistory
	Response bool
	Path     string   // in the newest release that has it
	Name     string   // likewise
	Names    []string // every name it had, oldest first (renames keep the bytes)
	// Since is the lowest version any release has the field in, SinceRel the first release
	// that accepts that version with the field.
	Since, SinceRel int
	// LastVersion is the highest version any release has it in; GoneAt the version after it
	// when a later version of the API lacks it (-1 otherwise), GoneRel the first release with
	// GoneAt.
	LastVersion    int
	GoneAt         int
	GoneRel        int
	DroppedRel     int // the first release after one with the field in which no version has it, -1
	Tagged         int // lowest tagged version, -1
	TaggedRel      int
	Nullable       int // lowest nullable version, -1
	NullableRel    int
	perRelease     []schemas.VersionRange // versions present, within the release's valid range
	taggedPerRel   []schemas.VersionRange
	nullablePerRel []schemas.VersionRange
}

// NewHistory reads the releases' catalogues, oldest first.
func NewHistory(cats []*kafka.Catalog) (*History, error) {
	if len(cats) == 0 {
		return nil, fmt.Errorf("reference: history: no release")
	}
	h := &History{Cats: cats, byKey: map[int16]*APIHistory{}, fields: map[fieldKey]*FieldHistory{}}
	seen := map[string]bool{}
	for _, c := range cats {
		name := c.Release.Name()
		if seen[name] {
			return nil, fmt.Errorf("reference: history: release %s given twice", name)
		}
		seen[name] = true
		h.Releases = append(h.Releases, name)
	}
	for ri, c := range cats {
		for _, a := range c.APIs {
			ah := h.byKey[a.Key]
			if ah == nil {
				ah = &APIHistory{Key: a.Key, Rows: make([]ReleaseRow, len(cats))}
				for i := range ah.Rows {
					ah.Rows[i] = ReleaseRow{Release: h.Releases[i], Unstable: -1}
				}
				h.byKey[a.Key] = ah
				h.APIs = append(h.APIs, ah)
			}
			if len(ah.Names) == 0 || ah.Names[len(ah.Names)-1] != a.Name {
				ah.Names = append(ah.Names, a.Name)
			}
			ah.Name = a.Name
			row := &ah.Rows[ri]
			row.API, row.Valid, row.Flexible, row.Deprecated = a, a.Request.ValidVersions, a.Request.FlexibleVersions, a.Request.DeprecatedVersions
			if a.Unstable {
				row.Unstable = a.Version
			}
		}
	}
	sort.Slice(h.APIs, func(i, j int) bool { return h.APIs[i].Key < h.APIs[j].Key })
	h.Diffs = make([]*schemas.ReleaseDiff, len(cats))
	h.renamed = make([]map[fieldKey]string, len(cats))
	h.pos, h.at = make([]map[fieldKey]fieldPos, len(cats)), make([]map[fieldPos]string, len(cats))
	for i, c := range cats {
		h.pos[i], h.at[i] = map[fieldKey]fieldPos{}, map[fieldPos]string{}
		for _, a := range c.APIs {
			for side, spec := range []*schemas.Spec{a.Request, a.Response} {
				index := map[string]int{}
				walkFields(spec, func(path string, f *schemas.Field) {
					parent := path[:len(path)-len(f.Name)]
					typ := f.Type.Prim.String()
					if f.Type.Array {
						typ = "[]" + typ
					}
					fp := fieldPos{a.Key, side == 1, parent, index[parent], typ}
					index[parent]++
					h.pos[i][fieldKey{a.Key, side == 1, path}] = fp
					h.at[i][fp] = path
				})
			}
		}
	}
	for i := 1; i < len(cats); i++ {
		h.Diffs[i] = schemas.Compare(cats[i-1].Release, cats[i].Release)
		m := map[fieldKey]string{}
		for _, a := range h.Diffs[i].APIs {
			for _, f := range a.Fields {
				if f.Kind == "renamed" {
					m[fieldKey{a.Key, strings.HasSuffix(f.Message, "Response"), f.Old}] = f.New
				}
			}
		}
		h.renamed[i-1] = m
	}
	for _, ah := range h.APIs {
		ah.versions()
		h.readFields(ah)
	}
	return h, nil
}

// API returns the history of an API key.
func (h *History) API(key int16) *APIHistory { return h.byKey[key] }

// versions fills in the versions of an API from its rows.
func (ah *APIHistory) versions() {
	lo, hi := int16(schemas.MaxVersion), int16(-1)
	for _, r := range ah.Rows {
		if r.API != nil {
			lo, hi = min(lo, r.Valid.Lo), max(hi, r.API.Version)
		}
	}
	for v := lo; v <= hi; v++ {
		vh := VersionHistory{Version: v, First: -1, Removed: -1}
		had := false
		for i, r := range ah.Rows {
			switch {
			case r.Has(v):
				if vh.First < 0 {
					vh.First = i
				}
				if vh.Removed >= 0 {
					vh.Reinstated = true
				}
				had = true
				vh.Flexible = r.Flexible.Contains(v)
			case had && vh.Removed < 0:
				vh.Removed = i
			}
		}
		ah.Versions = append(ah.Versions, vh)
	}
}

// walkFields calls fn for every field of a message schema with the path the field tables
// give it (fieldRows), depth first in file order.
func walkFields(spec *schemas.Spec, fn func(path string, f *schemas.Field)) {
	var walk func(fields []*schemas.Field, parent string, depth int)
	walk = func(fields []*schemas.Field, parent string, depth int) {
		for _, f := range fields {
			fn(parent+f.Name, f)
			if f.Struct != nil && depth < maxFieldDepth {
				p := parent + f.Name
				if f.Type.Array {
					p += "[]"
				}
				walk(f.Struct.Fields, p+".", depth+1)
			}
		}
	}
	walk(spec.Fields, "", 0)
}

func (h *History) readFields(ah *APIHistory) {
	var order []*FieldHistory
	for ri, r := range ah.Rows {
		if r.API == nil {
			continue
		}
		for _, side := range []struct {
			spec     *schemas.Spec
			response bool
		}{{r.API.Request, false}, {r.API.Response, true}} {
			walkFields(side.spec, func(path string, f *schemas.Field) {
				k := fieldKey{ah.Key, side.response, h.newestPath(ri, ah.Key, side.response, path)}
				fh := h.fields[k]
				if fh == nil {
					fh = &FieldHistory{API: ah, Response: side.response, Path: k.path, Name: f.Name,
						perRelease:     make([]schemas.VersionRange, len(ah.Rows)),
						taggedPerRel:   make([]schemas.VersionRange, len(ah.Rows)),
						nullablePerRel: make([]schemas.VersionRange, len(ah.Rows))}
					h.fields[k] = fh
					order = append(order, fh)
				}
				if len(fh.Names) == 0 || fh.Names[len(fh.Names)-1] != f.Name {
					fh.Names = append(fh.Names, f.Name)
				}
				fh.Name = f.Name
				// A nested field is where its parent is, whatever its own range says.
				fh.perRelease[ri] = f.Versions.Intersect(r.Valid).Intersect(h.parentRange(k, ri))
				fh.taggedPerRel[ri] = f.TaggedVersions.Intersect(fh.perRelease[ri])
				fh.nullablePerRel[ri] = f.NullableVersions.Intersect(fh.perRelease[ri])
			})
		}
	}
	for _, fh := range order {
		fh.summarise()
	}
}

// newestPath follows a field's path in release ri through the renames of the releases after
// it: the path the field has in the newest release, which names it in the history.
func (h *History) newestPath(ri int, key int16, response bool, path string) string {
	for i := ri; i < len(h.renamed)-1; i++ {
		path = h.nextPath(i, key, response, path, 0)
	}
	return path
}

// nextPath is a field's path in release i+1, given its path in release i: renamed there
// (Compare), or moved with a renamed struct field above it and then found in the same place
// of that struct with the same type (Compare matches renames within one struct only).
func (h *History) nextPath(i int, key int16, response bool, path string, depth int) string {
	k := fieldKey{key, response, path}
	if n, ok := h.renamed[i][k]; ok {
		return n
	}
	if _, ok := h.pos[i+1][k]; ok || depth > maxFieldDepth {
		return path
	}
	fp, ok := h.pos[i][k]
	if !ok || fp.parent == "" {
		return path
	}
	parent := strings.TrimSuffix(strings.TrimSuffix(fp.parent, "."), "[]")
	suffix := fp.parent[len(parent):]
	np := h.nextPath(i, key, response, parent, depth+1)
	if np == parent {
		return path
	}
	moved := np + suffix + path[len(fp.parent):]
	if _, ok := h.pos[i+1][fieldKey{key, response, moved}]; ok {
		return moved
	}
	fp.parent = np + suffix
	if n, ok := h.at[i+1][fp]; ok {
		return n
	}
	return moved
}

// FieldAt returns the history of a field by its path in release ri.
func (h *History) FieldAt(ri int, key int16, response bool, path string) *FieldHistory {
	return h.fields[fieldKey{key, response, h.newestPath(ri, key, response, path)}]
}

// parentRange is the versions the struct field above k is present in at release ri: every
// version for a top-level field.
func (h *History) parentRange(k fieldKey, ri int) schemas.VersionRange {
	all := schemas.VersionRange{Lo: 0, Hi: schemas.MaxVersion, Set: true}
	i := strings.LastIndexByte(k.path, '.')
	if i < 0 {
		return all
	}
	p := strings.TrimSuffix(k.path[:i], "[]")
	if ph := h.fields[fieldKey{k.key, k.response, p}]; ph != nil {
		return ph.perRelease[ri]
	}
	return all
}

func (fh *FieldHistory) summarise() {
	ah := fh.API
	fh.Since, fh.SinceRel, fh.LastVersion, fh.GoneAt, fh.GoneRel, fh.DroppedRel = -1, -1, -1, -1, -1, -1
	fh.Tagged, fh.TaggedRel, fh.Nullable, fh.NullableRel = -1, -1, -1, -1
	lowest := func(rs []schemas.VersionRange) (int, int) {
		lo := -1
		for _, r := range rs {
			if r.Set && (lo < 0 || int(r.Lo) < lo) {
				lo = int(r.Lo)
			}
		}
		if lo < 0 {
			return -1, -1
		}
		for i, r := range rs {
			if r.Contains(int16(lo)) {
				return lo, i
			}
		}
		return lo, -1
	}
	fh.Since, fh.SinceRel = lowest(fh.perRelease)
	fh.Tagged, fh.TaggedRel = lowest(fh.taggedPerRel)
	fh.Nullable, fh.NullableRel = lowest(fh.nullablePerRel)
	had := false
	for i, r := range fh.perRelease {
		if r.Set {
			had = true
			fh.LastVersion = max(fh.LastVersion, int(r.Hi))
		} else if had && fh.DroppedRel < 0 && ah.Rows[i].API != nil {
			fh.DroppedRel = i
		}
		if r.Set && fh.DroppedRel >= 0 {
			fh.DroppedRel = -1 // back again: not dropped
		}
	}
	if fh.LastVersion < 0 {
		return
	}
	// Gone at a version: a later version of the API, in any release, lacks it.
	next := int16(fh.LastVersion + 1)
	for i, r := range ah.Rows {
		if r.Has(next) {
			fh.GoneAt, fh.GoneRel = int(next), i
			break
		}
	}
}

// Field returns the history of a field of an API's request or response, by the path the
// field tables give it; nil when no release has it.
func (h *History) Field(key int16, response bool, path string) *FieldHistory {
	return h.fields[fieldKey{key, response, path}]
}

// relName is "Kafka 2.8", "Kafka 3.3; new after 3.0" where the releases between the one
// before and it are not in the history (3.1 and 3.2), so that it may have come in any of
// them, or "Kafka 2.2 or earlier" for what the oldest release already has.
func (h *History) relName(i int) string {
	if i < 0 {
		return ""
	}
	if i == 0 {
		return "Kafka " + h.Releases[0] + " or earlier"
	}
	if !follows(h.Releases[i-1], h.Releases[i]) {
		return "Kafka " + h.Releases[i] + "; new after " + h.Releases[i-1]
	}
	return "Kafka " + h.Releases[i]
}

// follows reports whether release b comes right after a: X.Y+1 after X.Y, or X+1.0 after
// any X.Y (a major release follows its line's last minor one). A snapshot or candidate named
// after its release ("4.0-trunk-2024-10", "4.1.0-rc1") is that release here: 4.0-trunk-2024-10
// follows 3.9, and 4.0 follows it. Names that are not versions follow anything.
func follows(a, b string) bool {
	am, an, ok1 := majorMinor(a)
	bm, bn, ok2 := majorMinor(b)
	if !ok1 || !ok2 {
		return true
	}
	return bm == am && (bn == an+1 || bn == an) || bm == am+1 && bn == 0
}

// majorMinor reads the leading "X.Y" of a release's name: "4.0-trunk-2024-10" and "4.0.1"
// give 4, 0.
func majorMinor(s string) (int, int, bool) {
	maj, rest, ok := strings.Cut(s, ".")
	if !ok {
		return 0, 0, false
	}
	n := 0
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	a, err1 := strconv.Atoi(maj)
	b, err2 := strconv.Atoi(rest[:n])
	return a, b, err1 == nil && err2 == nil
}

// Notes are what the field tables say of a field across releases: "since v13 (Kafka 3.1)",
// "tagged from v12 (Kafka 3.0)", "nullable since v2 (Kafka 2.2 or earlier)", "removed in v4
// (Kafka 2.8)", "gone in Kafka 4.0 (with v0–2, KIP-896)".
func (fh *FieldHistory) Notes(h *History) []string {
	var out []string
	if fh.Since >= 0 {
		out = append(out, fmt.Sprintf("since v%d (%s)", fh.Since, h.relName(fh.SinceRel)))
	}
	if fh.Tagged >= 0 {
		out = append(out, fmt.Sprintf("tagged from v%d (%s)", fh.Tagged, h.relName(fh.TaggedRel)))
	}
	if fh.Nullable >= 0 {
		out = append(out, fmt.Sprintf("nullable since v%d (%s)", fh.Nullable, h.relName(fh.NullableRel)))
	}
	if fh.GoneAt >= 0 {
		out = append(out, fmt.Sprintf("removed in v%d (%s)", fh.GoneAt, h.relName(fh.GoneRel)))
	} else if fh.DroppedRel >= 0 {
		prev := fh.perRelease[fh.DroppedRel-1]
		s := fmt.Sprintf("gone in Kafka %s with v%s", h.Releases[fh.DroppedRel], spanText(prev.Lo, prev.Hi))
		if kip896(h.Releases[fh.DroppedRel]) {
			s += " (KIP-896)"
		}
		out = append(out, s)
	}
	return out
}

// kip896 reports whether a release is the one that removed the old protocol versions
// (KIP-896, Kafka 4.0).
func kip896(rel string) bool { return rel == "4.0" }

func spanText(lo, hi int16) string {
	if lo == hi {
		return strconv.Itoa(int(lo))
	}
	return strconv.Itoa(int(lo)) + "–" + strconv.Itoa(int(hi))
}

// StableRange is the versions of an API a broker of the release accepts by default: the
// valid versions without an unstable highest one (latestVersionUnstable); false when none.
func (r ReleaseRow) StableRange() (lo, hi int16, ok bool) {
	if r.API == nil {
		return 0, 0, false
	}
	lo, hi = r.Valid.Lo, r.API.Version
	if r.Unstable == hi {
		hi--
	}
	return lo, hi, hi >= lo
}

// ReleasesJSON is releases.json: one object per release, oldest first, from the release's
// name to an object of API key → [min, max], the versions its brokers accept by default
// (StableRange), keys in numeric order. It is what franz-go's kversion tables hold, for a
// client to pick versions by release.
func (h *History) ReleasesJSON() []byte {
	var b bytes.Buffer
	b.WriteString("{\n")
	for ri, rel := range h.Releases {
		fmt.Fprintf(&b, "  %q: {", rel)
		n := 0
		for _, ah := range h.APIs {
			lo, hi, ok := ah.Rows[ri].StableRange()
			if !ok {
				continue
			}
			switch {
			case n%8 == 0:
				if n > 0 {
					b.WriteString(",")
				}
				b.WriteString("\n    ")
			default:
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "\"%d\": [%d, %d]", ah.Key, lo, hi)
			n++
		}
		b.WriteString("\n  }")
		if ri+1 < len(h.Releases) {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("}\n")
	return b.Bytes()
}

// MatrixJSON is the matrix of every API as "kafkagrid list -format json" prints it over a
// folder of releases.
type MatrixJSON struct {
	Releases []string        `json:"releases"`
	APIs     []APIMatrixJSON `json:"apis"`
}

// APIMatrixJSON is one API's row of releases and column of versions.
type APIMatrixJSON struct {
	Key      int16               `json:"key"`
	Name     string              `json:"name"`
	Names    []string            `json:"names"`
	Releases []ReleaseMatrixJSON `json:"releases"`
	Versions []VersionMatrixJSON `json:"versions"`
}

// ReleaseMatrixJSON is what one release accepts of an API; Valid is "none" when it lacks it.
type ReleaseMatrixJSON struct {
	Release    string `json:"release"`
	Name       string `json:"name,omitempty"`
	Valid      string `json:"valid"`
	Flexible   string `json:"flexible"`
	Deprecated string `json:"deprecated"`
	Unstable   *int16 `json:"unstable,omitempty"`
}

// VersionMatrixJSON is one version: the release that first had it and the one that removed
// it ("" for none).
type VersionMatrixJSON struct {
	Version    int16  `json:"version"`
	First      string `json:"first"`
	Removed    string `json:"removed,omitempty"`
	Reinstated bool   `json:"reinstated,omitempty"`
	Flexible   bool   `json:"flexible"`
}

// Matrix returns the matrix of every API.
func (h *History) Matrix() MatrixJSON {
	m := MatrixJSON{Releases: h.Releases, APIs: []APIMatrixJSON{}}
	rel := func(i int) string {
		if i < 0 {
			return ""
		}
		return h.Releases[i]
	}
	for _, ah := range h.APIs {
		am := APIMatrixJSON{Key: ah.Key, Name: ah.Name, Names: ah.Names}
		for _, r := range ah.Rows {
			rm := ReleaseMatrixJSON{Release: r.Release, Valid: "none", Flexible: "none", Deprecated: "none"}
			if r.API != nil {
				rm.Name, rm.Valid, rm.Flexible, rm.Deprecated = r.API.Name, r.Valid.String(), r.Flexible.String(), r.Deprecated.String()
				if r.Unstable >= 0 {
					u := r.Unstable
					rm.Unstable = &u
				}
			}
			am.Releases = append(am.Releases, rm)
		}
		for _, v := range ah.Versions {
			am.Versions = append(am.Versions, VersionMatrixJSON{Version: v.Version, First: rel(v.First), Removed: rel(v.Removed),
				Reinstated: v.Reinstated, Flexible: v.Flexible})
		}
		m.APIs = append(m.APIs, am)
	}
	return m
}
