package reference

import (
	"slices"
	"strings"
	"testing"
)

func TestWrapPath(t *testing.T) {
	for _, tt := range []struct {
		s    string
		cols int
		want []string
	}{
		{"Topics[].Name", 40, []string{"Topics[].Name"}},
		{"Topics[].Partitions[].OfflineReplicas", 24, []string{"Topics[].Partitions[].", "OfflineReplicas"}},
		{"[]MetadataResponseBroker", 23, []string{"[]", "MetadataResponseBroker"}},
		{"ABCDEFGHIJ", 4, []string{"ABCD", "EFGH", "IJ"}},
		{"", 4, []string{""}},
	} {
		got := wrapPath(tt.s, tt.cols)
		if !slices.Equal(got, tt.want) {
			t.Errorf("wrapPath(%q, %d) = %q, want %q", tt.s, tt.cols, got, tt.want)
		}
		if strings.Join(got, "") != tt.s {
			t.Errorf("wrapPath(%q, %d) loses text: %q", tt.s, tt.cols, got)
		}
		for _, l := range got {
			if len([]rune(l)) > tt.cols {
				t.Errorf("wrapPath(%q, %d): line %q too long", tt.s, tt.cols, l)
			}
		}
	}
}

// TestFieldRows checks the field table of ProduceRequest at v12 against its schema: every
// field once under its parent's path, versions with nullable and tag, absent fields marked.
func TestFieldRows(t *testing.T) {
	cat := catalog(t, "4.0")
	a, _ := cat.Lookup("Produce")
	rows := fieldRows(a.Request, 12)
	byPath := map[string]fieldRow{}
	for _, r := range rows {
		byPath[r.Parent+r.Name] = r
	}
	for _, tt := range []struct{ path, typ, versions string }{
		{"TransactionalId", "string", "3+; nullable 3+"},
		{"TopicData", "[]TopicProduceData", "0+"},
		{"TopicData[].PartitionData[].Records", "records", "0+; nullable 0+"},
	} {
		r, ok := byPath[tt.path]
		if !ok {
			t.Errorf("no row %s in %v", tt.path, rows)
			continue
		}
		if r.Type != tt.typ || r.Versions != tt.versions || r.About == "" || r.Absent {
			t.Errorf("%s: %+v, want type %s, versions %s, about, present", tt.path, r, tt.typ, tt.versions)
		}
	}
	m, _ := cat.Lookup("Metadata")
	for _, r := range fieldRows(m.Request, 13) {
		if r.Name == "IncludeClusterAuthorizedOperations" && !r.Absent {
			t.Errorf("Metadata v13 IncludeClusterAuthorizedOperations (8-10) not marked absent")
		}
	}
}
