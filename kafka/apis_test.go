package kafka

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/schemas"
)

// TestFactsEveryRelease: every API of every release in the test folder has its own row in the
// facts table (its key and its name), with a one-line purpose, the category the catalogue
// placed it in, and a Records flag that says what its schemas say.
func TestFactsEveryRelease(t *testing.T) {
	for _, dir := range testenv.All(t) {
		c, err := LoadCatalog(dir)
		if err != nil {
			t.Fatal(err)
		}
		rel := filepath.Base(dir)
		for _, a := range c.APIs {
			i := slices.IndexFunc(apiFacts, func(f Facts) bool { return f.Key == a.Key && f.Name == a.Name })
			if i < 0 {
				t.Errorf("%s: %s (key %d) has no row in the facts table", rel, a.Name, a.Key)
				continue
			}
			f := a.Facts()
			if f != apiFacts[i] {
				t.Errorf("%s: %s: Facts() = %+v, the row is %+v", rel, a.Name, f, apiFacts[i])
			}
			if !strings.HasSuffix(f.Purpose, ".") || strings.Contains(f.Purpose, "\n") {
				t.Errorf("%s: %s: purpose %q: want one line ending with a full stop", rel, a.Name, f.Purpose)
			}
			if recs := hasRecords(a.Request.Fields) || hasRecords(a.Response.Fields); recs != f.Records {
				t.Errorf("%s: %s: Records %v, but the schemas have a records field: %v", rel, a.Name, f.Records, recs)
			}
		}
	}
}

func hasRecords(fs []*schemas.Field) bool {
	for _, f := range fs {
		// Before 2.5 the schemas type Produce's and Fetch's records as bytes named Records,
		// which the codec reads as records (legacy.go).
		if f.Type.Prim == schemas.Records || f.Type.Prim == schemas.Bytes && !f.Type.Array && f.Name == "Records" ||
			f.Struct != nil && hasRecords(f.Struct.Fields) {
			return true
		}
	}
	return false
}

// TestFactsTable checks the table's own shape: rows by key, a key's names once each, every
// category one of the index's.
func TestFactsTable(t *testing.T) {
	if !sort.SliceIsSorted(apiFacts, func(i, j int) bool { return apiFacts[i].Key < apiFacts[j].Key }) {
		t.Error("the rows are not in key order")
	}
	seen := map[Facts]bool{}
	for _, f := range apiFacts {
		id := Facts{Key: f.Key, Name: f.Name}
		if seen[id] {
			t.Errorf("key %d %s: two rows", f.Key, f.Name)
		}
		seen[id] = true
		if !slices.Contains(categoryOrder, f.Category) {
			t.Errorf("key %d %s: category %q is not one of the index's", f.Key, f.Name, f.Category)
		}
	}
	keys := KnownKeys()
	if len(keys) != 93 || keys[0] != 0 || keys[len(keys)-1] != 92 {
		t.Errorf("KnownKeys = %d keys %v…: want 0 to 92", len(keys), keys[:3])
	}
}

// TestFactsReadOnly: the read-only APIs are the ones probe sent without -write before the
// table (its list of names), under each name their key has had, and DescribeShareGroupOffsets,
// which only reads.
func TestFactsReadOnly(t *testing.T) {
	old := []string{
		"ApiVersions", "Metadata", "DescribeCluster", "DescribeConfigs", "DescribeGroups", "ListGroups",
		"FindCoordinator", "ListOffsets", "Fetch", "OffsetFetch", "DescribeAcls", "DescribeLogDirs",
		"DescribeClientQuotas", "DescribeUserScramCredentials", "DescribeProducers", "DescribeTransactions",
		"ListTransactions", "DescribeTopicPartitions", "ConsumerGroupDescribe", "ShareGroupDescribe",
		"ListPartitionReassignments", "DescribeQuorum", "OffsetForLeaderEpoch", "ListConfigResources",
		"DescribeDelegationToken", "GetTelemetrySubscriptions", "StreamsGroupDescribe",
	}
	want := append(slices.Clone(old), "ListOffset", "ListClientMetricsResources", "DescribeShareGroupOffsets")
	var got []string
	for _, f := range apiFacts {
		if f.ReadOnly {
			got = append(got, f.Name)
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("read-only APIs:\n got %v\nwant %v", got, want)
	}
	for _, n := range []string{"Produce", "CreateTopics", "SaslAuthenticate", "InitProducerId", "JoinGroup", "Envelope"} {
		if i := slices.IndexFunc(apiFacts, func(f Facts) bool { return f.Name == n }); i < 0 || apiFacts[i].ReadOnly {
			t.Errorf("%s: read-only, or no row", n)
		}
	}
}

// TestFactsQuirks: each quirk belongs to the one API the old code named by number.
func TestFactsQuirks(t *testing.T) {
	for _, tc := range []struct {
		name string
		key  int16
		is   func(Facts) bool
	}{
		{"V0HeaderV0", KeyControlledShutdown, func(f Facts) bool { return f.V0HeaderV0 }},
		{"ResponseHeaderV0", KeyApiVersions, func(f Facts) bool { return f.ResponseHeaderV0 }},
		{"BareTokensAfterV0", KeySaslHandshake, func(f Facts) bool { return f.BareTokensAfterV0 }},
		{"Envelope", KeyEnvelope, func(f Facts) bool { return f.Envelope }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var keys []int16
			for _, f := range apiFacts {
				if tc.is(f) {
					keys = append(keys, f.Key)
				}
			}
			if !slices.Equal(keys, []int16{tc.key}) {
				t.Errorf("keys %v, want [%d]", keys, tc.key)
			}
		})
	}
	for _, tc := range []struct {
		key  int16
		want int16
	}{{KeyProduce, 0}, {KeyFetch, 1}, {KeyListOffsets, 2}, {KeyControlledShutdown, 7}, {KeySaslHandshake, 17},
		{KeyApiVersions, 18}, {KeyCreateTopics, 19}, {KeyElectLeaders, 43}, {KeyAlterPartition, 56}, {KeyEnvelope, 58},
		{KeyListConfigResources, 74}, {KeyDeleteShareGroupOffsets, 92}} {
		if tc.key != tc.want {
			t.Errorf("constant %d, want %d", tc.key, tc.want)
		}
	}
}

// TestFactsOf: a renamed key's old name has its own row, a name the table does not know takes
// its key's latest row, a key it does not know the defaults.
func TestFactsOf(t *testing.T) {
	for _, tc := range []struct {
		key            int16
		name           string
		purpose, categ string
		readOnly       bool
	}{
		{KeyListOffsets, "ListOffset", "(ListOffsets since 2.5)", catRecords, true},
		{KeyListOffsets, "ListOffsets", "earliest or latest offset.", catRecords, true},
		{KeyListConfigResources, "ListClientMetricsResources", "client metrics subscriptions.", catCluster, true},
		{KeyProduce, "ProduceRenamed", "Append record batches", catRecords, false},
		{200, "FutureThing", "", "", false},
	} {
		f := FactsOf(tc.key, tc.name)
		if f.Key != tc.key || f.Name != tc.name || !strings.Contains(f.Purpose, tc.purpose) || f.Category != tc.categ || f.ReadOnly != tc.readOnly {
			t.Errorf("FactsOf(%d, %s) = %+v", tc.key, tc.name, f)
		}
	}
}

// TestExampleBody: the example show and probe send is the body of the frame Vectors encodes,
// with the release's rules: 2.4's ListOffset reads ListOffsets.yaml, an Envelope carries a
// CreateTopics request.
func TestExampleBody(t *testing.T) {
	for _, tc := range []struct{ release, api string }{
		{"2.4", "ListOffset"}, {"4.0", "Envelope"}, {"4.0", "Produce"}, {"4.1", "ApiVersions"},
	} {
		t.Run(tc.release+"/"+tc.api, func(t *testing.T) {
			c, err := LoadCatalog(testenv.Release(t, tc.release))
			if err != nil {
				t.Fatal(err)
			}
			a, ok := c.Lookup(tc.api)
			if !ok {
				t.Fatalf("no %s", tc.api)
			}
			vs, err := c.Vectors(VectorOptions{})
			if err != nil {
				t.Fatal(err)
			}
			i := slices.IndexFunc(vs, func(v Vector) bool { return v.API == a })
			for _, resp := range []bool{false, true} {
				body, err := c.ExampleBody(a, resp, a.Version, nil)
				if err != nil {
					t.Fatal(err)
				}
				f, err := c.Encode(Message{API: a, Response: resp, Version: a.Version, CorrelationID: CorrelationID, ClientID: exampleClientID, Body: body})
				if err != nil {
					t.Fatal(err)
				}
				want := vs[i].Request
				if resp {
					want = vs[i].Response
				}
				if string(f.Bytes) != string(want.Bytes) {
					t.Errorf("response %v: ExampleBody encodes to %d bytes, Vectors' frame has %d", resp, len(f.Bytes), len(want.Bytes))
				}
			}
		})
	}
	t.Run("plain-Example-differs", func(t *testing.T) {
		// What probe read before: Example with <Name>.yaml only, no rules. For 2.4's ListOffset
		// that is the generated values without the story's overrides.
		c, err := LoadCatalog(testenv.Release(t, "2.4"))
		if err != nil {
			t.Fatal(err)
		}
		a, _ := c.Lookup("ListOffset")
		plain, _, err := Example(a, false, a.Version, "ListOffset.yaml", nil)
		if err != nil {
			t.Fatal(err)
		}
		body, err := c.ExampleBody(a, false, a.Version, nil)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(plain) == fmt.Sprint(body) {
			t.Errorf("ExampleBody is the plain example: %v", body)
		}
	})
}
