package schemas

import (
	"fmt"
	"math/rand"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
)

// The per-version comparison compareSpecs replaced: every version both specs have, every field
// at each. It is the oracle the tests hold compareSpecs to.

// states returns the fields of a spec present at v by path.
func statesSlow(s *Spec, v Version) map[string]fieldState {
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
func compareSpecsSlow(o, n *Spec) []FieldDiff {
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
		os, ns := statesSlow(o, v), statesSlow(n, v)
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
				if !parentNewSlow(p, os) {
					add(key{p, "added", "", b.typ}, v)
				}
			case !inNew:
				if !parentNewSlow(p, ns) {
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
	out = renamesSlow(out)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Versions.Lo < out[j].Versions.Lo })
	return out
}

// renames joins a field removed and a field added beside it (same struct, same type, same
// versions, in the same order) into one "renamed" difference: the wire did not change, the name
// did (VoteRequest's CandidateEpoch became ReplicaEpoch in 4.0).
func renamesSlow(in []FieldDiff) []FieldDiff {
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

// parentNew reports whether a path's parent field is missing from the other side too, so that a
// new struct is one difference, not one per field.
func parentNewSlow(path string, other map[string]fieldState) bool {
	i := strings.LastIndex(path, ".")
	if i < 0 {
		return false
	}
	parent := strings.TrimSuffix(path[:i], "[]")
	_, ok := other[parent]
	return !ok
}

// TestCompareSpecsOracle: compareSpecs, which looks at each field only where its ranges start or
// end, lists exactly what the per-version comparison lists, on every pair of releases here and
// on random specs with nested structs and overlapping ranges of every kind.
func TestCompareSpecsOracle(t *testing.T) {
	var rels []*Release
	for _, dir := range testenv.All(t) {
		r, err := Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		rels = append(rels, r)
	}
	pairs := 0
	for _, o := range rels {
		for _, n := range rels {
			for _, k := range apiKeys(o, n) {
				for _, side := range [][2]*Spec{{o.Request(k), n.Request(k)}, {o.Response(k), n.Response(k)}} {
					if side[0] == nil || side[1] == nil {
						continue
					}
					pairs++
					if got, want := compareSpecs(side[0], side[1]), compareSpecsSlow(side[0], side[1]); !reflect.DeepEqual(got, want) {
						t.Errorf("%s → %s %s:\n got %v\nwant %v", o.Name(), n.Name(), side[1].Name, got, want)
					}
				}
			}
		}
	}
	rng := rand.New(rand.NewSource(1))
	for i := range 3000 {
		o, n := randomSpec(rng), randomSpec(rng)
		if rng.Intn(3) == 0 {
			n = mutateSpec(rng, o)
		}
		if got, want := compareSpecs(o, n), compareSpecsSlow(o, n); !reflect.DeepEqual(got, want) {
			t.Fatalf("random pair %d:\n got %v\nwant %v", i, got, want)
		}
	}
	t.Logf("%d message pairs of %d releases and 3,000 random pairs agree", pairs, len(rels))
}

// manyVersionsSpec is a spec of 32,767 versions and 20,000 fields, field i added at version
// i+shift.
func manyVersionsSpec(shift int) *Spec {
	s := &Spec{Name: "BigRequest", ValidVersions: VersionRange{0, 32766, true}, FlexibleVersions: VersionRange{3, MaxVersion, true}}
	for i := range 20_000 {
		s.Fields = append(s.Fields, &Field{Name: fmt.Sprintf("F%d", i), Type: Type{Prim: Int32},
			Versions: VersionRange{Version((i + shift) % 30000), MaxVersion, true}})
	}
	return s
}

// TestCompareManyVersions: two specs of 32,767 versions and 20,000 fields each compare with
// work that follows the fields: a field is looked at only where one of its ranges starts or
// ends, a few times each (the per-version comparison looked 655 million times and took
// minutes). BenchmarkCompareManyVersions times it.
func TestCompareManyVersions(t *testing.T) {
	o, n := manyVersionsSpec(0), manyVersionsSpec(1)
	d, looks := compareSpecsCounted(o, n)
	if len(d) != 20_000 {
		t.Errorf("%d differences, want one for each field", len(d))
	}
	t.Logf("%d looks at a field at one version for %d fields", looks, len(o.Fields))
	if max := 8 * len(o.Fields); looks > max {
		t.Errorf("%d looks at a field at one version, want at most %d (8 a field)", looks, max)
	}
}

func BenchmarkCompareManyVersions(b *testing.B) {
	o, n := manyVersionsSpec(0), manyVersionsSpec(1)
	b.ReportAllocs()
	for b.Loop() {
		compareSpecs(o, n)
	}
}

func apiKeys(rs ...*Release) []int16 {
	seen := map[int16]bool{}
	var out []int16
	for _, r := range rs {
		for _, s := range r.Requests() {
			if !seen[s.APIKey] {
				seen[s.APIKey] = true
				out = append(out, s.APIKey)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func randomRange(rng *rand.Rand) VersionRange {
	switch rng.Intn(6) {
	case 0:
		return VersionRange{}
	case 1:
		return VersionRange{Lo: Version(rng.Intn(10)), Hi: MaxVersion, Set: true}
	}
	lo := Version(rng.Intn(10))
	return VersionRange{Lo: lo, Hi: lo + Version(rng.Intn(8)), Set: true}
}

func randomFields(rng *rand.Rand, depth int) []*Field {
	names := []string{"A", "B", "C", "D", "E"}
	var out []*Field
	for _, name := range names[:1+rng.Intn(len(names))] {
		f := &Field{Name: name, Type: Type{Prim: []Prim{Int8, Int32, String, Bool}[rng.Intn(4)], Array: rng.Intn(4) == 0},
			Versions: randomRange(rng), NullableVersions: randomRange(rng)}
		if rng.Intn(4) == 0 {
			f.HasTag, f.Tag, f.TaggedVersions = true, rng.Intn(3), randomRange(rng)
		}
		if rng.Intn(6) == 0 {
			r := randomRange(rng)
			f.FlexibleVersions = &r
		}
		if depth < 2 && rng.Intn(3) == 0 {
			f.Type.Prim = StructType
			f.Struct = &Struct{Name: name + "Struct", Fields: randomFields(rng, depth+1)}
		}
		out = append(out, f)
	}
	return out
}

func randomSpec(rng *rand.Rand) *Spec {
	lo := Version(rng.Intn(6))
	return &Spec{Name: "XRequest", ValidVersions: VersionRange{lo, lo + Version(rng.Intn(12)), true},
		FlexibleVersions: randomRange(rng), Fields: randomFields(rng, 0)}
}

// mutateSpec returns a copy of s with a few fields' ranges changed, so that the pair has the
// same paths (renames, nested changes) more often than two random specs.
func mutateSpec(rng *rand.Rand, s *Spec) *Spec {
	var cp func(fs []*Field) []*Field
	cp = func(fs []*Field) []*Field {
		var out []*Field
		for _, f := range fs {
			g := *f
			if rng.Intn(3) == 0 {
				g.Versions = randomRange(rng)
			}
			if rng.Intn(4) == 0 {
				g.NullableVersions = randomRange(rng)
			}
			if rng.Intn(8) == 0 {
				g.Name += "X"
			}
			if f.Struct != nil {
				st := *f.Struct
				st.Fields = cp(f.Struct.Fields)
				g.Struct = &st
			}
			out = append(out, &g)
		}
		return out
	}
	n := *s
	n.Fields = cp(s.Fields)
	if rng.Intn(3) == 0 {
		n.FlexibleVersions = randomRange(rng)
	}
	return &n
}

// FuzzCompareSpecs holds compareSpecs to the per-version comparison on random spec pairs drawn
// from a seed.
func FuzzCompareSpecs(f *testing.F) {
	for _, s := range []int64{1, 2, 3, 42} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, seed int64) {
		rng := rand.New(rand.NewSource(seed))
		o := randomSpec(rng)
		n := mutateSpec(rng, o)
		if rng.Intn(2) == 0 {
			n = randomSpec(rng)
		}
		if got, want := compareSpecs(o, n), compareSpecsSlow(o, n); !reflect.DeepEqual(got, want) {
			t.Fatalf("seed %d:\n got %v\nwant %v", seed, got, want)
		}
	})
}
