package schemas

import (
	"sort"
	"strconv"
	"strings"
)

// ReleaseDiff is what changed in the protocol between two releases (Compare): APIs added and
// removed, version ranges widened or cut, and the field changes of each message at the versions
// both releases have.
type ReleaseDiff struct {
	Old, New string    // the releases' names
	APIs     []APIDiff // the APIs with a difference, by key
}

// Empty reports whether the releases speak the same protocol.
func (d *ReleaseDiff) Empty() bool { return len(d.APIs) == 0 }

// APIDiff is one API's differences. An API only one release has has an empty range on the other
// side.
type APIDiff struct {
	Key                      int16
	OldName, NewName         string       // "ListOffset", "ListOffsets"; "" on the side that lacks it
	OldVersions, NewVersions VersionRange // the request's validVersions
	OldFlexible, NewFlexible VersionRange // the request's flexibleVersions
	Fields                   []FieldDiff  // at versions both have
}

// Added reports whether only the new release has the API; Removed, only the old one.
func (a APIDiff) Added() bool   { return !a.OldVersions.Set && a.NewVersions.Set }
func (a APIDiff) Removed() bool { return a.OldVersions.Set && !a.NewVersions.Set }

// FieldDiff is a difference in one field of a request or response, over a run of versions both
// releases have.
type FieldDiff struct {
	Message  string       // "ProduceRequest"
	Path     string       // "Topics[].Partitions[].Records"
	Kind     string       // "added", "removed", "type", "nullable", "tagged", "encoding"
	Old, New string       // the field's trait in each release ("int32", "nullable", "tag 3", "compact")
	Versions VersionRange // the versions this holds at
}

// Compare lists the differences between two releases. Messages are matched by API key and side,
// so a renamed API (2.4's ListOffset, 2.5's ListOffsets) is one API; fields by path.
func Compare(old, new *Release) *ReleaseDiff {
	d := &ReleaseDiff{Old: old.Name(), New: new.Name()}
	keys := map[int16]bool{}
	for _, r := range []*Release{old, new} {
		for _, s := range r.Requests() {
			keys[s.APIKey] = true
		}
	}
	sorted := make([]int16, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
	for _, k := range sorted {
		a := APIDiff{Key: k}
		oreq, nreq := old.Request(k), new.Request(k)
		if oreq != nil && oreq.ValidVersions.Set {
			a.OldName, a.OldVersions, a.OldFlexible = strings.TrimSuffix(oreq.Name, "Request"), oreq.ValidVersions, oreq.FlexibleVersions
		}
		if nreq != nil && nreq.ValidVersions.Set {
			a.NewName, a.NewVersions, a.NewFlexible = strings.TrimSuffix(nreq.Name, "Request"), nreq.ValidVersions, nreq.FlexibleVersions
		}
		if a.OldVersions.Set && a.NewVersions.Set {
			a.Fields = append(compareSpecs(oreq, nreq), compareSpecs(old.Response(k), new.Response(k))...)
		}
		if a.OldVersions != a.NewVersions || a.OldFlexible != a.NewFlexible || a.OldName != a.NewName || len(a.Fields) > 0 {
			d.APIs = append(d.APIs, a)
		}
	}
	return d
}

// fieldState is what a field is at one version, as far as the wire goes.
type fieldState struct {
	typ      string
	nullable bool
	tag      int // -1 untagged
	compact  bool
}

// states returns the fields of a spec present at v by path.
func states(s *Spec, v Version) map[string]fieldState {
	out := map[string]fieldState{}
	var walk func(fields []*Field, prefix string, depth int)
	walk = func(fields []*Field, prefix string, depth int) {
		for _, f := range fields {
			if !f.PresentIn(v) {
				continue
			}
			path := prefix + f.Name
			st := fieldState{typ: f.Type.Prim.String(), nullable: f.NullableIn(v), tag: -1, compact: s.CompactIn(f, v)}
			if f.Type.Array {
				st.typ = "[]" + st.typ
			}
			if f.TaggedIn(v) {
				st.tag = f.Tag
			}
			out[path] = st
			if f.Struct != nil && depth < 64 {
				sub := path + "."
				if f.Type.Array {
					sub = path + "[]."
				}
				walk(f.Struct.Fields, sub, depth+1)
			}
		}
	}
	walk(s.Fields, "", 0)
	return out
}

// compareSpecs lists the field differences of two versions of one message at every version both
// have, runs of versions with the same difference joined.
func compareSpecs(o, n *Spec) []FieldDiff {
	if o == nil || n == nil {
		return nil
	}
	common := o.ValidVersions.Intersect(n.ValidVersions)
	if !common.Set {
		return nil
	}
	type key struct{ path, kind, old, new string }
	runs := map[key][]Version{}
	var order []key
	add := func(k key, v Version) {
		if _, ok := runs[k]; !ok {
			order = append(order, k)
		}
		runs[k] = append(runs[k], v)
	}
	hi := common.Hi
	if oh, ok := o.Highest(); ok && oh < hi {
		hi = oh
	}
	for v := common.Lo; v <= hi && v >= common.Lo; v++ {
		os, ns := states(o, v), states(n, v)
		paths := make([]string, 0, len(os)+len(ns))
		for p := range os {
			paths = append(paths, p)
		}
		for p := range ns {
			if _, ok := os[p]; !ok {
				paths = append(paths, p)
			}
		}
		sort.Strings(paths)
		for _, p := range paths {
			a, inOld := os[p]
			b, inNew := ns[p]
			switch {
			case !inOld:
				if !parentNew(p, os) {
					add(key{p, "added", "", b.typ}, v)
				}
			case !inNew:
				if !parentNew(p, ns) {
					add(key{p, "removed", a.typ, ""}, v)
				}
			default:
				if a.typ != b.typ {
					add(key{p, "type", a.typ, b.typ}, v)
				}
				if a.nullable != b.nullable {
					add(key{p, "nullable", yesNo(a.nullable, "nullable"), yesNo(b.nullable, "nullable")}, v)
				}
				if a.tag != b.tag {
					add(key{p, "tagged", tagText(a.tag), tagText(b.tag)}, v)
				}
				if a.compact != b.compact {
					add(key{p, "encoding", yesNo(a.compact, "compact"), yesNo(b.compact, "compact")}, v)
				}
			}
		}
		if v == MaxVersion {
			break
		}
	}
	var out []FieldDiff
	for _, k := range order {
		vs := runs[k]
		start := vs[0]
		for i := 1; i <= len(vs); i++ {
			if i < len(vs) && vs[i] == vs[i-1]+1 {
				continue
			}
			out = append(out, FieldDiff{Message: n.Name, Path: k.path, Kind: k.kind, Old: k.old, New: k.new,
				Versions: VersionRange{Lo: start, Hi: vs[i-1], Set: true}})
			if i < len(vs) {
				start = vs[i]
			}
		}
	}
	out = renames(out)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Versions.Lo < out[j].Versions.Lo })
	return out
}

// renames joins a field removed and a field added beside it (same struct, same type, same
// versions, in the same order) into one "renamed" difference: the wire did not change, the name
// did (VoteRequest's CandidateEpoch became ReplicaEpoch in 4.0).
func renames(in []FieldDiff) []FieldDiff {
	used := make([]bool, len(in))
	var out []FieldDiff
	for i, r := range in {
		if used[i] || r.Kind != "removed" {
			continue
		}
		for j, a := range in {
			if used[j] || a.Kind != "added" || a.Message != r.Message || a.New != r.Old || a.Versions != r.Versions ||
				parentPath(a.Path) != parentPath(r.Path) {
				continue
			}
			used[i], used[j] = true, true
			out = append(out, FieldDiff{Message: r.Message, Path: r.Path, Kind: "renamed", Old: r.Path, New: a.Path, Versions: r.Versions})
			break
		}
	}
	for i, d := range in {
		if !used[i] {
			out = append(out, d)
		}
	}
	return out
}

func parentPath(p string) string {
	if i := strings.LastIndex(p, "."); i >= 0 {
		return p[:i]
	}
	return ""
}

// parentNew reports whether a path's parent field is missing from the other side too, so that a
// new struct is one difference, not one per field.
func parentNew(path string, other map[string]fieldState) bool {
	i := strings.LastIndex(path, ".")
	if i < 0 {
		return false
	}
	parent := strings.TrimSuffix(path[:i], "[]")
	_, ok := other[parent]
	return !ok
}

func yesNo(b bool, word string) string {
	if b {
		return word
	}
	return "not " + word
}

func tagText(t int) string {
	if t < 0 {
		return "in line"
	}
	return "tag " + strconv.Itoa(t)
}
