package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDiff compares releases as a user would: 3.9 → 4.0 lists what KIP-896 removed, 4.0 → 4.1
// what 4.1 added; the exit status is 0 for the same protocol and 1 for differences, like diff(1).
func TestDiff(t *testing.T) {
	root := listSchemaRoot(t)
	rel := func(r string) string { return filepath.Join(root, r) }
	t.Setenv("KAFKA_SCHEMAS", "")
	for _, tc := range []struct {
		name string
		args []string
		code int
		want []string // in stdout
	}{
		{"KIP-896", []string{"diff", "-q", rel("3.9"), rel("4.0")}, 1, []string{
			"Kafka 3.9 → 4.0",
			"APIs removed:\n  4 LeaderAndIsr v0-7\n  5 StopReplica v0-4\n  6 UpdateMetadata v0-8\n  7 ControlledShutdown v0-3\n",
			"  0 Produce: v0-11 → v3-12 (removed v0-2, added v12)",
			"  1 Fetch: v0-17 → v4-17 (removed v0-3)",
			"  8 OffsetCommit: v0-9 → v2-9 (removed v0-1)",
			"VoteRequest v0-1: renames Topics[].Partitions[].CandidateEpoch to Topics[].Partitions[].ReplicaEpoch (same bytes)",
		}},
		{"4.1", []string{"diff", rel("4.0"), rel("4.1"), "-q"}, 1, []string{
			"APIs added:\n  88 StreamsGroupHeartbeat v0\n",
			"  78 ShareFetch: v0 → v1 (removed v0, added v1)",
			"ReadShareGroupStateSummaryResponse v0: adds Results[].Partitions[].LeaderEpoch (int32)",
			"  74 ListClientMetricsResources → ListConfigResources: v0 → v0-1 (added v1)",
		}},
		{"a renamed API", []string{"diff", "-q", rel("2.4"), rel("2.8")}, 1, []string{"  2 ListOffset → ListOffsets: v0-5 → v0-6 (added v6); flexible none → 6+"}},
		{"the same", []string{"diff", "-q", rel("4.0"), rel("4.0")}, 0, []string{"Kafka 4.0 → 4.0\nno differences\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code := runCmd(t, tc.args...)
			if code != tc.code || errs != "" {
				t.Errorf("exit %d (want %d), stderr %q", code, tc.code, errs)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("stdout lacks %q:\n%s", w, out)
				}
			}
		})
	}
	out, _, code := runCmd(t, "diff", "-q", "-format", "json", rel("3.9"), rel("4.0"))
	var doc releaseDiffDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 1 || doc.Same || doc.Old != "3.9" || doc.New != "4.0" {
		t.Fatalf("json: exit %d, %v, %+v", code, err, doc)
	}
	if a := doc.APIs[0]; a.Key != 0 || a.Change != "changed" || a.OldVersions != "0-11" || a.NewVersions != "3-12" || a.VersionsCut != "removed v0-2, added v12" {
		t.Errorf("json Produce %+v", a)
	}
	page := filepath.Join(t.TempDir(), "diff.html")
	if _, errs, code := runCmd(t, "diff", "-q", "-format", "html", "-o", page, rel("3.9"), rel("4.0")); code != 1 {
		t.Fatalf("html: exit %d, %s", code, errs)
	}
	html, _ := os.ReadFile(page)
	for _, w := range []string{"<title>Kafka 3.9 → 4.0: protocol changes</title>", "<td>LeaderAndIsr</td>", "v0-11 → v3-12 (removed v0-2, added v12)"} {
		if !strings.Contains(string(html), w) {
			t.Errorf("html lacks %q", w)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"diff", rel("4.0")}, "want OLD and NEW, have 1"},
		{[]string{"diff", rel("4.0"), rel("4.1"), "-format", "pdf"}, `-format "pdf"`},
		{[]string{"diff", rel("4.0"), filepath.Join(root, "nope")}, "nope"},
	} {
		if _, errs, code := runCmd(t, tc.args...); code != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, %s; want 2 and %q", tc.args, code, errs, tc.want)
		}
	}
}
