package releasedir

import (
	"strings"
	"testing"
)

func TestPick(t *testing.T) {
	all := []string{"2.2", "3.9", "3.9-4.0-trunk", "4.0", "4.1"}
	for _, tc := range []struct {
		pick, want, err string
	}{
		{"", "2.2 3.9 3.9-4.0-trunk 4.0 4.1", ""},
		{" 4.0 , 2.2", "2.2 4.0", ""},
		{"3.9-4.0", "3.9 3.9-4.0-trunk 4.0", ""},
		{"3.9-4.0-trunk", "3.9-4.0-trunk", ""},
		{"3.9-4.0-trunk-4.1", "3.9-4.0-trunk 4.0 4.1", ""},
		{"4.1-2.2", "", "-releases 4.1-2.2: 4.1 comes after 2.2"},
		{"3.8", "", `-releases: no release "3.8" (the folder has 2.2, 3.9, 3.9-4.0-trunk, 4.0, 4.1)`},
		{"3.8-4.0", "", `-releases: no release "3.8"`},
		{"3.8-4-0", "", `-releases: no release "3.8-4-0", nor a range of two releases`},
		{"4.0,", "", `-releases "4.0,": an empty name`},
	} {
		got, err := Pick(all, tc.pick)
		switch {
		case tc.err != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.err)):
			t.Errorf("Pick(%q): %v, want the error %q", tc.pick, err, tc.err)
		case tc.err == "" && (err != nil || strings.Join(got, " ") != tc.want):
			t.Errorf("Pick(%q) = %q, %v; want %q", tc.pick, got, err, tc.want)
		}
	}
}
