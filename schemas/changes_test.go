package schemas

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestChangesAt(t *testing.T) {
	r, err := Load(filepath.Join(schemaRoot(t), "4.0"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		spec string
		v    Version
		want []string // Kind Path, in order
	}{
		{"ProduceRequest", 3, []string{"first "}},
		{"ProduceRequest", 4, nil},
		{"ProduceRequest", 9, []string{"flexible "}},
		{"ProduceResponse", 8, []string{"added Responses[].PartitionResponses[].RecordErrors", "added Responses[].PartitionResponses[].ErrorMessage"}},
		{"ProduceRequest", 13, nil}, // not valid in 4.0
		{"FetchRequest", 12, []string{"flexible ", "added ClusterId", "added Topics[].Partitions[].LastFetchedEpoch"}},
		{"MetadataResponse", 10, []string{"added Topics[].TopicId"}},
	} {
		s := r.Spec(tc.spec)
		var got []string
		for _, c := range s.ChangesAt(tc.v) {
			got = append(got, string(c.Kind)+" "+c.Path)
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%s v%d: got %q, want %q", tc.spec, tc.v, got, tc.want)
		}
	}
	if c := r.Spec("FetchRequest").ChangesAt(12)[1]; c.Text != "adds ClusterId (tagged field 0, string, nullable, ignorable)" {
		t.Errorf("FetchRequest v12 ClusterId: %q", c.Text)
	}
}

func TestCommentsAbout(t *testing.T) {
	r, err := Load(filepath.Join(schemaRoot(t), "4.0"))
	if err != nil {
		t.Fatal(err)
	}
	s := r.Spec("ProduceRequest")
	for _, tc := range []struct {
		v    Version
		want []string // the comments' starts
	}{
		{2, []string{"Versions 0-2 were removed", "Version 1 and 2 are the same as version 0."}},
		{3, []string{"Version 3 adds the transactional ID"}},
		{4, []string{"Version 4 is the same as version 3"}},
		{6, []string{"Version 5 and 6 are the same as version 3."}},
		{7, []string{"Starting in version 7, records can be produced using ZStandard"}},
		{9, []string{"Version 9 enables flexible versions."}},
	} {
		cs := s.CommentsAbout(tc.v)
		var got []string
		for _, c := range cs {
			got = append(got, c.Text)
		}
		ok := len(cs) >= len(tc.want)
		for i := 0; ok && i < len(tc.want); i++ {
			ok = strings.HasPrefix(cs[i].Text, tc.want[i]) || strings.Contains(strings.Join(got, "\n"), tc.want[i])
		}
		if !ok {
			t.Errorf("v%d: got %q, want %q", tc.v, got, tc.want)
		}
		for _, c := range cs {
			if c.File != "ProduceRequest.json" || c.Line < 17 {
				t.Errorf("v%d: comment at %s:%d", tc.v, c.File, c.Line)
			}
		}
	}
}

func TestCommentVersions(t *testing.T) {
	for in, want := range map[string]string{
		"Version 3 adds the transactional ID.":                  "3",
		"Version 1 and 2 are the same as version 0.":            "1 2",
		"Versions 0-2 were removed in Apache Kafka 4.0.":        "0 1 2",
		"Starting in version 7, records can be produced.":       "7",
		"Starting in Version 8, response has RecordErrors.":     "8",
		"Version 5 and 6 are the same as version 3.":            "5 6",
		"Versions 3 through 5 add things, version 9 too.":       "3 4 5",
		"The ID of the producer, as of version 3, is the same.": "",
	} {
		got := commentVersions(in)
		var l []string
		for v := Version(0); v < 20; v++ {
			if got[v] {
				l = append(l, itoa(v))
			}
		}
		if strings.Join(l, " ") != want {
			t.Errorf("%q: got %v, want %s", in, l, want)
		}
	}
}

func itoa(v Version) string { return VersionRange{Lo: v, Hi: v, Set: true}.String() }
