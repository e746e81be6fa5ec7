package schemas

import (
	"slices"
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

// pathField is a spec's field found by its path: the field and its ancestors, outermost first.
type pathField struct {
	spec  *Spec
	f     *Field
	chain []*Field
	typ   string
}

// fieldsByPath returns the fields of a spec by path, at any version.
func fieldsByPath(s *Spec) map[string]*pathField {
	out := map[string]*pathField{}
	var walk func(fields []*Field, prefix string, chain []*Field, depth int)
	walk = func(fields []*Field, prefix string, chain []*Field, depth int) {
		for _, f := range fields {
			path := prefix + f.Name
			typ := f.Type.Prim.String()
			if f.Type.Array {
				typ = "[]" + typ
			}
			if _, dup := out[path]; !dup {
				out[path] = &pathField{spec: s, f: f, chain: chain, typ: typ}
			}
			if f.Struct != nil && depth < 64 {
				sub := path + "."
				if f.Type.Array {
					sub = path + "[]."
				}
				walk(f.Struct.Fields, sub, append(chain[:len(chain):len(chain)], f), depth+1)
			}
		}
	}
	walk(s.Fields, "", nil, 0)
	return out
}

// at returns the field's state at v, and whether it is present then (it and every ancestor).
func (p *pathField) at(v Version) (fieldState, bool) {
	if p == nil || !p.f.PresentIn(v) {
		return fieldState{}, false
	}
	for _, a := range p.chain {
		if !a.PresentIn(v) {
			return fieldState{}, false
		}
	}
	st := fieldState{typ: p.typ, nullable: p.f.NullableIn(v), tag: -1, compact: p.spec.CompactIn(p.f, v)}
	if p.f.TaggedIn(v) {
		st.tag = p.f.Tag
	}
	return st, true
}

// breaks adds to bs the versions at which the field's presence or state may change: where each
// of its ranges and its ancestors' starts and ends (traits too, unless presence only).
func (p *pathField) breaks(bs []int, presenceOnly bool) []int {
	if p == nil {
		return bs
	}
	add := func(r VersionRange) {
		if r.Set {
			bs = append(bs, int(r.Lo), int(r.Hi)+1)
		}
	}
	for _, a := range p.chain {
		add(a.Versions)
	}
	add(p.f.Versions)
	if !presenceOnly {
		add(p.f.NullableVersions)
		add(p.f.TaggedVersions)
		if p.f.FlexibleVersions != nil {
			add(*p.f.FlexibleVersions)
		} else {
			add(p.spec.FlexibleVersions)
		}
	}
	return bs
}

// compareSpecs lists the field differences of two versions of one message at every version both
// have, runs of versions with the same difference joined. It looks at each field only where
// one of its version ranges (or an ancestor's) starts or ends, so its cost follows the fields,
// not the fields times the versions (a schema may declare 32,767 versions).
func compareSpecs(o, n *Spec) []FieldDiff {
	d, _ := compareSpecsCounted(o, n)
	return d
}

// compareSpecsCounted is compareSpecs, and how many times it looked at a field at one
// version: the work its tests bound.
func compareSpecsCounted(o, n *Spec) (_ []FieldDiff, looks int) {
	if o == nil || n == nil {
		return nil, 0
	}
	common := o.ValidVersions.Intersect(n.ValidVersions)
	if !common.Set {
		return nil, 0
	}
	lo, hi := int(common.Lo), int(common.Hi)
	if oh, ok := o.Highest(); ok && int(oh) < hi {
		hi = int(oh)
	}
	if hi < lo {
		return nil, 0
	}
	runs := diffRuns{}
	olds, news := fieldsByPath(o), fieldsByPath(n)
	paths := make([]string, 0, len(olds)+len(news))
	for p := range olds {
		paths = append(paths, p)
	}
	for p := range news {
		if _, ok := olds[p]; !ok {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	var bs []int
	for _, p := range paths {
		of, nf := olds[p], news[p]
		var op, np *pathField // the parent's, on each side: a field of a new struct is not a difference of its own
		if i := strings.LastIndex(p, "."); i >= 0 {
			parent := strings.TrimSuffix(p[:i], "[]")
			op, np = olds[parent], news[parent]
		}
		bs = append(bs[:0], lo, hi+1)
		bs = of.breaks(bs, false)
		bs = nf.breaks(bs, false)
		bs = op.breaks(bs, true)
		bs = np.breaks(bs, true)
		slices.Sort(bs)
		bs = slices.Compact(bs)
		for i, from := range bs {
			if from < lo || from > hi {
				continue
			}
			to := hi
			if i+1 < len(bs) && bs[i+1]-1 < to {
				to = bs[i+1] - 1
			}
			looks++
			runs.compareAt(p, of, nf, op, np, from, to)
		}
	}
	out := runs.diffs(n.Name)
	out = renames(out)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Versions.Lo < out[j].Versions.Lo })
	return out, looks
}

// diffKey is one difference of a field: its path, what differs and how.
type diffKey struct{ path, kind, old, new string }

// diffRun is the versions at which one difference holds.
type diffRun struct {
	key   diffKey
	first int // the first version it holds at: the order of the list
	kind  int // the order of the checks at one version
	segs  []VersionRange
}

// diffRuns are the differences found, each with its versions.
type diffRuns map[diffKey]*diffRun

// add records that k (the kind-th check) holds from version from to to.
func (runs diffRuns) add(k diffKey, kind int, from, to int) {
	r := runs[k]
	if r == nil {
		r = &diffRun{key: k, first: from, kind: kind}
		runs[k] = r
	}
	if last := len(r.segs) - 1; last >= 0 && int(r.segs[last].Hi)+1 == from {
		r.segs[last].Hi = Version(to)
		return
	}
	r.segs = append(r.segs, VersionRange{Lo: Version(from), Hi: Version(to), Set: true})
}

// compareAt compares the field at path p, old (of) and new (nf), with their parents (op, np),
// at the versions from to to, where none of them changes.
func (runs diffRuns) compareAt(p string, of, nf, op, np *pathField, from, to int) {
	v := Version(from)
	a, inOld := of.at(v)
	b, inNew := nf.at(v)
	hasParent := strings.Contains(p, ".")
	switch {
	case !inOld && !inNew:
	case !inOld:
		if _, parentOld := op.at(v); !hasParent || parentOld {
			runs.add(diffKey{p, "added", "", b.typ}, 0, from, to)
		}
	case !inNew:
		if _, parentNew := np.at(v); !hasParent || parentNew {
			runs.add(diffKey{p, "removed", a.typ, ""}, 0, from, to)
		}
	default:
		if a.typ != b.typ {
			runs.add(diffKey{p, "type", a.typ, b.typ}, 1, from, to)
		}
		if a.nullable != b.nullable {
			runs.add(diffKey{p, "nullable", yesNo(a.nullable, "nullable"), yesNo(b.nullable, "nullable")}, 2, from, to)
		}
		if a.tag != b.tag {
			runs.add(diffKey{p, "tagged", tagText(a.tag), tagText(b.tag)}, 3, from, to)
		}
		if a.compact != b.compact {
			runs.add(diffKey{p, "encoding", yesNo(a.compact, "compact"), yesNo(b.compact, "compact")}, 4, from, to)
		}
	}
}

// diffs lists the differences of the message named message, in the order of their first
// version, path and check, each range of versions a difference.
func (runs diffRuns) diffs(message string) []FieldDiff {
	order := make([]*diffRun, 0, len(runs))
	for _, r := range runs {
		order = append(order, r)
	}
	sort.Slice(order, func(i, j int) bool {
		a, b := order[i], order[j]
		if a.first != b.first {
			return a.first < b.first
		}
		if a.key.path != b.key.path {
			return a.key.path < b.key.path
		}
		return a.kind < b.kind
	})
	var out []FieldDiff
	for _, r := range order {
		for _, sg := range r.segs {
			out = append(out, FieldDiff{Message: message, Path: r.key.path, Kind: r.key.kind, Old: r.key.old, New: r.key.new, Versions: sg})
		}
	}
	return out
}

// renames joins a field removed and a field added beside it (same struct, same type, same
// versions, in the same order) into one "renamed" difference: the wire did not change, the name
// did (VoteRequest's CandidateEpoch became ReplicaEpoch in 4.0).
func renames(in []FieldDiff) []FieldDiff {
	type match struct {
		message, parent, typ string
		versions             VersionRange
	}
	added := map[match][]int{} // the added fields that may be a removed one renamed, in order
	for j, a := range in {
		if a.Kind == "added" {
			k := match{a.Message, parentPath(a.Path), a.New, a.Versions}
			added[k] = append(added[k], j)
		}
	}
	used := make([]bool, len(in))
	var out []FieldDiff
	for i, r := range in {
		if r.Kind != "removed" {
			continue
		}
		k := match{r.Message, parentPath(r.Path), r.Old, r.Versions}
		js := added[k]
		if len(js) == 0 {
			continue
		}
		j := js[0]
		added[k] = js[1:]
		used[i], used[j] = true, true
		out = append(out, FieldDiff{Message: r.Message, Path: r.Path, Kind: "renamed", Old: r.Path, New: in[j].Path, Versions: r.Versions})
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
