package dissector

import (
	"bytes"
	"regexp"
	"slices"
	"testing"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
)

func allCatalogs(t *testing.T) []*kafka.Catalog {
	t.Helper()
	var cats []*kafka.Catalog
	for _, d := range testenv.All(t) {
		c, err := kafka.LoadCatalog(d)
		if err != nil {
			t.Fatal(err)
		}
		cats = append(cats, c)
	}
	return cats
}

func TestSnake(t *testing.T) {
	for in, want := range map[string]string{
		"Produce": "produce", "TopicData": "topic_data", "ProducerId": "producer_id", "HTTPServer": "http_server",
		"ErrorCode": "error_code", "IsKRaftController": "is_k_raft_controller", "V2Field": "v2_field", "a": "a",
	} {
		if got := Snake(in); got != want {
			t.Errorf("Snake(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestWriteDeterministic: the same catalogues give the same bytes.
func TestWriteDeterministic(t *testing.T) {
	cats := allCatalogs(t)
	var a, b bytes.Buffer
	if err := Write(&a, cats, Options{}); err != nil {
		t.Fatal(err)
	}
	if err := Write(&b, cats, Options{}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two writes of the same catalogues differ")
	}
	if err := Write(&a, nil, Options{}); err == nil {
		t.Error("no catalogue: no error")
	}
}

var abbrevRE = regexp.MustCompile(`^kafkagrid\.[a-z0-9_]+(\.[a-z0-9_]+)+$`)

// TestFieldNames: the names follow the rule, are unique, and a release's names stay in the
// dissector of every release but where Kafka renamed a field.
func TestFieldNames(t *testing.T) {
	cats := allCatalogs(t)
	all, err := Fields(cats)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, f := range all {
		if !abbrevRE.MatchString(f.Abbrev) || seen[f.Abbrev] {
			t.Errorf("field %q: not of the rule, or twice", f.Abbrev)
		}
		seen[f.Abbrev] = true
	}
	for _, want := range []string{
		"kafkagrid.produce.topic_data.partition_data.records", "kafkagrid.produce.transactional_id",
		"kafkagrid.fetch.responses.partitions.error_code", "kafkagrid.metadata.topics.topic_id",
		"kafkagrid.api_versions.api_keys.max_version", "kafkagrid.describe_groups.response.groups",
		"kafkagrid.describe_groups.groups",
	} {
		if !seen[want] {
			t.Errorf("no field %s", want)
		}
	}
	// The newest release alone names its fields as the dissector of all does.
	newest, err := Fields(cats[len(cats)-1:])
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range newest {
		if !seen[f.Abbrev] {
			t.Errorf("%s of Kafka %s is not a field of the dissector of every release", f.Abbrev, cats[len(cats)-1].Release.Name())
		}
	}
	t.Logf("%d schema fields over %d releases, %d in Kafka %s", len(all), len(cats), len(newest), cats[len(cats)-1].Release.Name())
	if !slices.IsSortedFunc(all, func(a, b Field) int {
		if a.Abbrev < b.Abbrev {
			return -1
		}
		return 1
	}) {
		t.Error("Fields is not sorted")
	}
}
