package schemas

import (
	"testing"
)

func TestParseVersions(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want VersionRange
		str  string
		err  string
	}{
		{"none", VersionRange{}, "none", ""},
		{"3", VersionRange{3, 3, true}, "3", ""},
		{"0+", VersionRange{0, MaxVersion, true}, "0+", ""},
		{"0-9", VersionRange{0, 9, true}, "0-9", ""},
		{" 3-12 ", VersionRange{3, 12, true}, "3-12", ""},
		{"5-5", VersionRange{5, 5, true}, "5", ""},
		{"32767", VersionRange{MaxVersion, MaxVersion, true}, "32767", ""},
		{"2-32767", VersionRange{2, MaxVersion, true}, "2+", ""},
		{"", VersionRange{}, "", `schemas: bad version range "": empty`},
		{"9-0", VersionRange{}, "", `schemas: bad version range "9-0": upper bound below lower bound`},
		{"-1", VersionRange{}, "", `schemas: bad version range "-1": want "none", "N", "N+" or "N-M"`},
		{"1-", VersionRange{}, "", `schemas: bad version range "1-": want "none", "N", "N+" or "N-M"`},
		{"+", VersionRange{}, "", `schemas: bad version range "+": want "none", "N", "N+" or "N-M"`},
		{"32768", VersionRange{}, "", `schemas: bad version range "32768": want "none", "N", "N+" or "N-M"`},
		{"1.5", VersionRange{}, "", `schemas: bad version range "1.5": want "none", "N", "N+" or "N-M"`},
		{"None", VersionRange{}, "", `schemas: bad version range "None": want "none", "N", "N+" or "N-M"`},
		{"1-2-3", VersionRange{}, "", `schemas: bad version range "1-2-3": want "none", "N", "N+" or "N-M"`},
		{"+3", VersionRange{}, "", `schemas: bad version range "+3": want "none", "N", "N+" or "N-M"`},
	} {
		r, err := ParseVersions(tc.in)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("ParseVersions(%q) error %v, want %s", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || r != tc.want || r.String() != tc.str {
			t.Errorf("ParseVersions(%q) = %+v (%q), %v; want %+v (%q)", tc.in, r, r, err, tc.want, tc.str)
		}
	}
}

func TestVersionRangeOps(t *testing.T) {
	mustParse := func(s string) VersionRange {
		r, err := ParseVersions(s)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, tc := range []struct{ a, b, want string }{
		{"0+", "3-12", "3-12"}, {"0-4", "3+", "3-4"}, {"0-2", "3+", "none"}, {"none", "0+", "none"},
		{"5", "5", "5"}, {"5", "0-4", "none"}, {"9+", "2+", "9+"},
	} {
		a, b := mustParse(tc.a), mustParse(tc.b)
		if got := a.Intersect(b).String(); got != tc.want {
			t.Errorf("%s ∩ %s = %s, want %s", tc.a, tc.b, got, tc.want)
		}
		if got := b.Intersect(a).String(); got != tc.want {
			t.Errorf("%s ∩ %s = %s, want %s (not symmetric)", tc.b, tc.a, got, tc.want)
		}
	}
	r := mustParse("3-12")
	for v, want := range map[Version]bool{2: false, 3: true, 12: true, 13: false, -1: false} {
		if r.Contains(v) != want {
			t.Errorf("3-12 contains %d: %v", v, !want)
		}
	}
	if h, ok := r.Highest(); !ok || h != 12 {
		t.Errorf("Highest 3-12 = %d %v", h, ok)
	}
	if h, ok := mustParse("4+").Highest(); !ok || h != MaxVersion {
		t.Errorf("Highest 4+ = %d %v", h, ok)
	}
	if _, ok := mustParse("none").Highest(); ok {
		t.Error("none has a highest version")
	}
	if l, ok := r.Lowest(); !ok || l != 3 || r.Open() || !mustParse("4+").Open() || !(VersionRange{}).Empty() {
		t.Error("Lowest/Open/Empty")
	}
	if (VersionRange{}).Contains(0) {
		t.Error("none contains 0")
	}
}

// FuzzParseVersions: whatever parses prints back to a string that parses to the same range.
func FuzzParseVersions(f *testing.F) {
	for _, s := range []string{"none", "0+", "3", "0-9", "32767", "1-", "9-0", " 2+"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseVersions(s)
		if err != nil {
			return
		}
		back, err := ParseVersions(r.String())
		if err != nil || back != r {
			t.Fatalf("%q -> %+v -> %q -> %+v, %v", s, r, r.String(), back, err)
		}
		if h, ok := r.Highest(); ok && !r.Contains(h) {
			t.Fatalf("%q: highest %d not contained", s, h)
		}
	})
}

func TestParseType(t *testing.T) {
	for _, tc := range []struct {
		in       string
		prim     Prim
		array    bool
		st       string
		nullable bool
		err      string
	}{
		{in: "int32", prim: Int32},
		{in: "uint16", prim: Uint16},
		{in: "float64", prim: Float64},
		{in: "uuid", prim: UUID},
		{in: "bool", prim: Bool},
		{in: "string", prim: String, nullable: true},
		{in: "bytes", prim: Bytes, nullable: true},
		{in: "records", prim: Records, nullable: true},
		{in: "[]int8", prim: Int8, array: true, nullable: true},
		{in: "[]uuid", prim: UUID, array: true, nullable: true},
		{in: "SnapshotId", prim: StructType, st: "SnapshotId", nullable: true},
		{in: "[]TopicProduceData", prim: StructType, array: true, st: "TopicProduceData", nullable: true},
		{in: "Int32", prim: StructType, st: "Int32", nullable: true},
		{in: "int33", err: `schemas: unknown type "int33"`},
		{in: "[][]int8", err: `schemas: unknown type "[][]int8"`},
		{in: "[]", err: `schemas: unknown type "[]"`},
		{in: "", err: `schemas: unknown type ""`},
		{in: "Snap-Id", err: `schemas: unknown type "Snap-Id"`},
		{in: " int32", err: `schemas: unknown type " int32"`},
	} {
		got, err := ParseType(tc.in)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("ParseType(%q) error %v, want %s", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || got.Prim != tc.prim || got.Array != tc.array || got.StructName != tc.st ||
			got.Nullable() != tc.nullable || got.String() != tc.in || got.IsStruct() != (tc.st != "") {
			t.Errorf("ParseType(%q) = %+v, %v", tc.in, got, err)
		}
	}
	if Int16.String() != "int16" || StructType.String() != "struct" || Prim(99).String() != "Prim(99)" {
		t.Error("Prim.String")
	}
}
