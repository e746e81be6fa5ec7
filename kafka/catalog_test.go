package kafka

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/internal/testenv"

	"github.com/kafkagrid/kafkagrid/schemas"
)

// catalogSchemaRoot returns the folder of releases: $KAFKA_SCHEMAS (a release folder's parent
// when it names one), else ../shared/kafka-schemas beside the module root; it skips the test
// when there is none.
func catalogSchemaRoot(t testing.TB) string {
	t.Helper()
	return testenv.Releases(t)
}

// want40 is the index of the 4.0 reference, as the task gives it: category, then
// "key Name vN" per API, in order.
var want40 = []struct {
	category string
	apis     string
}{
	{"Records", "0 Produce v12, 1 Fetch v17, 2 ListOffsets v10"},
	{"Consumer groups", "8 OffsetCommit v9, 9 OffsetFetch v9, 10 FindCoordinator v6, 11 JoinGroup v9, 12 Heartbeat v4, 13 LeaveGroup v5, 14 SyncGroup v5, 15 DescribeGroups v6, 16 ListGroups v5, 42 DeleteGroups v2, 47 OffsetDelete v0, 68 ConsumerGroupHeartbeat v1, 69 ConsumerGroupDescribe v1"},
	{"Share groups", "76 ShareGroupHeartbeat v0, 77 ShareGroupDescribe v0, 78 ShareFetch v0, 79 ShareAcknowledge v0, 83 InitializeShareGroupState v0, 84 ReadShareGroupState v0, 85 WriteShareGroupState v0, 86 DeleteShareGroupState v0, 87 ReadShareGroupStateSummary v0"},
	{"Transactions", "22 InitProducerId v5, 24 AddPartitionsToTxn v5, 25 AddOffsetsToTxn v4, 26 EndTxn v5, 27 WriteTxnMarkers v1, 28 TxnOffsetCommit v5, 61 DescribeProducers v0, 65 DescribeTransactions v0, 66 ListTransactions v1, 67 AllocateProducerIds v0"},
	{"Topics and partitions", "3 Metadata v13, 19 CreateTopics v7, 20 DeleteTopics v6, 21 DeleteRecords v2, 23 OffsetForLeaderEpoch v4, 34 AlterReplicaLogDirs v2, 35 DescribeLogDirs v4, 37 CreatePartitions v3, 43 ElectLeaders v2, 45 AlterPartitionReassignments v0, 46 ListPartitionReassignments v0, 56 AlterPartition v3, 73 AssignReplicasToDirs v0, 75 DescribeTopicPartitions v0"},
	{"Security and ACLs", "17 SaslHandshake v1, 29 DescribeAcls v3, 30 CreateAcls v3, 31 DeleteAcls v3, 36 SaslAuthenticate v2, 38 CreateDelegationToken v3, 39 RenewDelegationToken v2, 40 ExpireDelegationToken v2, 41 DescribeDelegationToken v3, 50 DescribeUserScramCredentials v0, 51 AlterUserScramCredentials v0"},
	{"Configuration and quotas", "32 DescribeConfigs v4, 33 AlterConfigs v2, 44 IncrementalAlterConfigs v1, 48 DescribeClientQuotas v1, 49 AlterClientQuotas v1"},
	{"Cluster and KRaft", "18 ApiVersions v4, 52 Vote v2, 53 BeginQuorumEpoch v1, 54 EndQuorumEpoch v1, 55 DescribeQuorum v2, 57 UpdateFeatures v2, 58 Envelope v0, 59 FetchSnapshot v1, 60 DescribeCluster v2, 62 BrokerRegistration v4, 63 BrokerHeartbeat v1, 64 UnregisterBroker v0, 70 ControllerRegistration v0, 71 GetTelemetrySubscriptions v0, 72 PushTelemetry v0, 74 ListClientMetricsResources v0, 80 AddRaftVoter v0, 81 RemoveRaftVoter v0, 82 UpdateRaftVoter v0"},
}

func TestCatalog40MatchesTable(t *testing.T) {
	c, err := LoadCatalog(filepath.Join(catalogSchemaRoot(t), "4.0"))
	if err != nil {
		t.Fatal(err)
	}
	var want, got []string
	for _, w := range want40 {
		for _, a := range strings.Split(w.apis, ", ") {
			want = append(want, w.category+": "+a)
		}
	}
	for _, a := range c.APIs {
		got = append(got, fmt.Sprintf("%s: %d %s v%d", a.Category, a.Key, a.Name, a.Version))
	}
	if len(got) != 84 || len(want) != 84 {
		t.Errorf("got %d APIs, table has %d; want 84", len(got), len(want))
	}
	for i := range max(len(got), len(want)) {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			t.Errorf("row %d: got %q, want %q", i, g, w)
		}
	}
	if len(c.Categories) != len(want40) {
		t.Fatalf("got %d categories, want %d", len(c.Categories), len(want40))
	}
	for i, cat := range c.Categories {
		if cat.Name != want40[i].category || len(cat.APIs) != len(strings.Split(want40[i].apis, ", ")) {
			t.Errorf("category %d: got %s with %d APIs, want %s", i, cat.Name, len(cat.APIs), want40[i].category)
		}
	}
}

// TestCatalogReleases checks every release's catalogue against its schemas directly: each
// request with valid versions appears once, with the spec's highest version and flags.
func TestCatalogReleases(t *testing.T) {
	for _, dir := range testenv.All(t) {
		rel := filepath.Base(dir)
		t.Run(rel, func(t *testing.T) {
			c, err := LoadCatalog(dir)
			if err != nil {
				t.Fatal(err)
			}
			seen := map[int16]bool{}
			for _, a := range c.APIs {
				if seen[a.Key] {
					t.Errorf("key %d listed twice", a.Key)
				}
				seen[a.Key] = true
				req := c.Release.Request(a.Key)
				if req != a.Request || c.Release.Response(a.Key) != a.Response {
					t.Errorf("%s: request/response specs not the release's", a.Name)
				}
				if req.Name != a.Name+"Request" || a.Response.Name != a.Name+"Response" {
					t.Errorf("%s: specs %s, %s", a.Name, req.Name, a.Response.Name)
				}
				if hv := req.ValidVersions.Hi; hv != a.Version || !req.ValidVersions.Set {
					t.Errorf("%s: version %d, schema says %s", a.Name, a.Version, req.ValidVersions)
				}
				if f := req.FlexibleVersions.Set && a.Version >= req.FlexibleVersions.Lo; f != a.Flexible {
					t.Errorf("%s v%d: flexible %v, schema flexibleVersions %s", a.Name, a.Version, a.Flexible, req.FlexibleVersions)
				}
				if a.Unstable != req.LatestVersionUnstable {
					t.Errorf("%s: unstable %v, schema %v", a.Name, a.Unstable, req.LatestVersionUnstable)
				}
				if a.Category == "" || a.Category == OtherCategory {
					t.Errorf("%s (key %d): category %q", a.Name, a.Key, a.Category)
				}
				if !slices.ContainsFunc(categories(), func(cat category) bool { return slices.Contains(cat.keys, a.Key) }) {
					t.Logf("%s (key %d) is not in the category table; placed by its name in %s", a.Name, a.Key, a.Category)
				}
				if strings.Join(a.Listeners, ",") != strings.Join(req.Listeners, ",") {
					t.Errorf("%s: listeners %v, schema %v", a.Name, a.Listeners, req.Listeners)
				}
			}
			for _, s := range c.Release.Specs {
				if s.Type == "request" && s.ValidVersions.Set && !seen[s.APIKey] {
					t.Errorf("%s (key %d) has valid versions but is not listed", s.Name, s.APIKey)
				}
			}
			// Categories partition APIs, in the same order; Other comes last, by key.
			var flat []*API
			for i, cat := range c.Categories {
				if cat.Name == OtherCategory && i != len(c.Categories)-1 {
					t.Errorf("Other is category %d of %d", i, len(c.Categories))
				}
				for j, a := range cat.APIs {
					if a.Category != cat.Name {
						t.Errorf("%s in %s says %s", a.Name, cat.Name, a.Category)
					}
					if cat.Name == OtherCategory && j > 0 && cat.APIs[j-1].Key >= a.Key {
						t.Errorf("Other not sorted by key at %s", a.Name)
					}
				}
				flat = append(flat, cat.APIs...)
			}
			if len(flat) != len(c.APIs) {
				t.Fatalf("categories hold %d APIs, catalogue %d", len(flat), len(c.APIs))
			}
			for i := range flat {
				if flat[i] != c.APIs[i] {
					t.Errorf("APIs[%d] = %s, categories say %s", i, c.APIs[i].Name, flat[i].Name)
				}
			}
			t.Logf("%d APIs, %d categories", len(c.APIs), len(c.Categories))
		})
	}
}

// TestCatalogOther builds a release with an API the table does not know, and one it knows but
// has removed: the unknown one lands in Other, last; the removed one is absent.
func TestCatalogOther(t *testing.T) {
	spec := func(name, typ string, key int, valid string) *schemas.Spec {
		src := fmt.Sprintf(`{"apiKey": %d, "type": %q, "name": %q, "validVersions": %q, "flexibleVersions": "1+", "fields": []}`, key, typ, name, valid)
		s, err := schemas.Parse(name+".json", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	r, err := schemas.NewRelease("x", []*schemas.Spec{
		spec("ZetaRequest", "request", 999, "0-1"), spec("ZetaResponse", "response", 999, "0-1"),
		spec("AlphaRequest", "request", 500, "0"), spec("AlphaResponse", "response", 500, "0"),
		spec("ProduceRequest", "request", 0, "3-12"), spec("ProduceResponse", "response", 0, "3-12"),
		spec("StopReplicaRequest", "request", 5, "none"), spec("StopReplicaResponse", "response", 5, "none"),
	})
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCatalog(r)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range c.APIs {
		got = append(got, fmt.Sprintf("%s/%s/v%d/flex=%v", a.Category, a.Name, a.Version, a.Flexible))
	}
	want := "Records/Produce/v12/flex=true Other/Alpha/v0/flex=false Other/Zeta/v1/flex=true"
	if g := strings.Join(got, " "); g != want {
		t.Errorf("got  %s\nwant %s", g, want)
	}
}

func TestCatalogErrors(t *testing.T) {
	parse := func(name, typ, valid string) *schemas.Spec {
		s, err := schemas.Parse(name+".json", []byte(fmt.Sprintf(`{"apiKey": 7, "type": %q, "name": %q, "validVersions": %q, "fields": []}`, typ, name, valid)))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	for _, tc := range []struct {
		name  string
		specs []*schemas.Spec
		want  string
	}{
		{"no response", []*schemas.Spec{parse("XRequest", "request", "0-2")}, "kafka: catalog: XRequest (key 7) has no response spec"},
		{"versions differ", []*schemas.Spec{parse("XRequest", "request", "0-2"), parse("XResponse", "response", "0-1")}, "kafka: catalog: XRequest: highest version 2, but XResponse has 0-1"},
		{"open range", []*schemas.Spec{parse("XRequest", "request", "0+"), parse("XResponse", "response", "0+")}, `kafka: catalog: XRequest: validVersions "0+" has no highest version`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := schemas.NewRelease("x", tc.specs)
			if err != nil {
				t.Fatal(err)
			}
			_, err = NewCatalog(r)
			if err == nil || err.Error() != tc.want {
				t.Errorf("got %v, want %s", err, tc.want)
			}
		})
	}
}

func TestLookup(t *testing.T) {
	c, err := LoadCatalog(filepath.Join(catalogSchemaRoot(t), "4.0"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		q    string
		want string
	}{
		{"Produce", "Produce"}, {"produce", "Produce"}, {"ProduceRequest", "Produce"},
		{"fetchresponse", "Fetch"}, {"0", "Produce"}, {"18", "ApiVersions"}, {" 3 ", "Metadata"},
		{"5", ""}, {"StopReplica", ""}, {"Nope", ""}, {"", ""}, {"-1", ""},
	} {
		a, ok := c.Lookup(tc.q)
		got := ""
		if ok {
			got = a.Name
		}
		if got != tc.want {
			t.Errorf("Lookup(%q) = %q, want %q", tc.q, got, tc.want)
		}
	}
}

func ExampleCatalog_Lookup() {
	var specs []*schemas.Spec
	for _, src := range []string{
		`{"apiKey": 0, "type": "request", "listeners": ["broker"], "name": "ProduceRequest",
		  "validVersions": "3-12", "flexibleVersions": "9+", "fields": []}`,
		`{"apiKey": 0, "type": "response", "name": "ProduceResponse",
		  "validVersions": "3-12", "flexibleVersions": "9+", "fields": []}`,
	} {
		s, err := schemas.Parse("inline.json", []byte(src))
		if err != nil {
			fmt.Println(err)
			return
		}
		specs = append(specs, s)
	}
	r, err := schemas.NewRelease("inline", specs)
	if err != nil {
		fmt.Println(err)
		return
	}
	c, err := NewCatalog(r)
	if err != nil {
		fmt.Println(err)
		return
	}
	a, _ := c.Lookup("produce")
	fmt.Println(a.Key, a.Name, a.Version, a.Flexible, a.Category, a.Listeners)
	// Output: 0 Produce 12 true Records [broker]
}

// TestCategoryRule places APIs the table does not know by their name, then their listeners.
func TestCategoryRule(t *testing.T) {
	for _, tc := range []struct {
		name      string
		listeners []string
		want      string
	}{
		{"DescribeShareGroupOffsets", nil, "Share groups"},
		{"StreamsGroupHeartbeat", nil, "Streams groups"},
		{"ConsumerGroupDescribe", nil, "Consumer groups"},
		{"ListGroups", nil, "Consumer groups"},
		{"AddPartitionsToTxn", nil, "Transactions"},
		{"DescribeAcls", nil, "Security and ACLs"},
		{"AlterUserScramCredentials", nil, "Security and ACLs"},
		{"DescribeClientQuotas", nil, "Configuration and quotas"},
		{"ElectLeaders", nil, "Topics and partitions"},
		{"UnregisterBroker", nil, "Cluster and KRaft"},
		{"SnapshotSync", []string{"controller"}, "Cluster and KRaft"},
		{"Frobnicate", []string{"broker", "controller"}, OtherCategory},
		{"Frobnicate", nil, OtherCategory},
	} {
		if got := categoryByRule(tc.name, tc.listeners); got != tc.want {
			t.Errorf("categoryByRule(%s, %v) = %s, want %s", tc.name, tc.listeners, got, tc.want)
		}
	}
}

// TestCatalogUnknownAPIs: APIs of a future release go after the table's APIs of the category
// their name gives, a category the release lacks otherwise is added in table order, and Other
// comes last.
func TestCatalogUnknownAPIs(t *testing.T) {
	spec := func(key int, name, typ string) *schemas.Spec {
		src := fmt.Sprintf(`{"apiKey": %d, "type": %q, "name": "%s%s", "validVersions": "0", "flexibleVersions": "0+", "fields": []}`,
			key, typ, name, strings.ToUpper(typ[:1])+typ[1:])
		s, err := schemas.Parse(name+".json", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	var specs []*schemas.Spec
	for _, a := range []struct {
		key  int
		name string
	}{{0, "Produce"}, {1, "Fetch"}, {200, "Frobnicate"}, {201, "StreamsGroupRebalance"}, {202, "FetchRecordsAgain"}, {203, "ListGroupsAgain"}, {18, "ApiVersions"}} {
		specs = append(specs, spec(a.key, a.name, "request"), spec(a.key, a.name, "response"))
	}
	r, err := schemas.NewRelease("future", specs)
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCatalog(r)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, sec := range c.Categories {
		var names []string
		for _, a := range sec.APIs {
			names = append(names, a.Name)
		}
		got = append(got, sec.Name+": "+strings.Join(names, " "))
	}
	want := []string{
		"Records: Produce Fetch",
		"Consumer groups: ListGroupsAgain",
		"Streams groups: StreamsGroupRebalance",
		"Topics and partitions: FetchRecordsAgain",
		"Cluster and KRaft: ApiVersions",
		"Other: Frobnicate",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var flat []string
	for _, a := range c.APIs {
		flat = append(flat, a.Name)
	}
	if strings.Join(flat, " ") != "Produce Fetch ListGroupsAgain StreamsGroupRebalance FetchRecordsAgain ApiVersions Frobnicate" {
		t.Errorf("APIs in order %v", flat)
	}
}
