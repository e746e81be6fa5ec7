package kafka

import (
	"fmt"
	"testing"
)

func TestVersionSet(t *testing.T) {
	c := testCatalog(t, "4.0")
	produce, _ := c.Lookup("Produce") // v3-v12 in 4.0
	for _, tc := range []struct {
		in, str, of string
		err         bool
	}{
		{"", "highest", "[12]", false},
		{"highest", "highest", "[12]", false},
		{"all", "all", "[12 11 10 9 8 7 6 5 4 3]", false},
		{"0,3-5", "0,3-5", "[5 4 3]", false},
		{" 11+ , 0", "11+,0", "[12 11]", false},
		{"0-2", "0-2", "[]", false},
		{"0,highest", "0,highest", "[12]", false},
		{"4,highest", "4,highest", "[12 4]", false},
		{"3-x", "", "", true},
		{"1,,2", "", "", true},
		{"none", "", "", true},
	} {
		vs, err := ParseVersionSet(tc.in)
		if err == nil {
			if u := vs.Union(VersionSet{}); fmt.Sprint(u.Of(produce)) != fmt.Sprint(union(vs.Of(produce), 12)) {
				t.Errorf("%q ∪ highest = %v", tc.in, u.Of(produce))
			}
		}
		if tc.err {
			if err == nil {
				t.Errorf("%q: no error", tc.in)
			}
			continue
		}
		if err != nil || vs.String() != tc.str || fmt.Sprint(vs.Of(produce)) != tc.of {
			t.Errorf("%q: %v, %q, %v; want %q, %s", tc.in, err, vs, vs.Of(produce), tc.str, tc.of)
		}
	}
}

// union adds v to a highest-first list.
func union(vs []int16, v int16) []int16 {
	for _, x := range vs {
		if x == v {
			return vs
		}
	}
	return append([]int16{v}, vs...)
}
