package kafka

import (
	"slices"
	"strings"
)

// category is one section of the reference's index: a name and its APIs' keys, in the order
// the index shows them. This table is the project's own data; everything else in the
// catalogue comes from the schemas.
type category struct {
	name string
	keys []int16
}

// OtherCategory holds the APIs that neither the table nor the naming rule places; it comes
// last, sorted by key.
const OtherCategory = "Other"

// categories returns the index's categories in order. Every API of Kafka 2.4 to 4.1 is in the
// table; a category with no API in a release is left out of its index.
func categories() []category {
	return []category{
		{"Records", []int16{0, 1, 2}},
		{"Consumer groups", []int16{8, 9, 10, 11, 12, 13, 14, 15, 16, 42, 47, 68, 69}},
		{"Share groups", []int16{76, 77, 78, 79, 83, 84, 85, 86, 87, 90, 91, 92}},
		{"Streams groups", []int16{88, 89}},
		{"Transactions", []int16{22, 24, 25, 26, 27, 28, 61, 65, 66, 67}},
		{"Topics and partitions", []int16{3, 19, 20, 21, 23, 34, 35, 37, 43, 45, 46, 56, 73, 75}},
		{"Security and ACLs", []int16{17, 29, 30, 31, 36, 38, 39, 40, 41, 50, 51}},
		{"Configuration and quotas", []int16{32, 33, 44, 48, 49}},
		{"Cluster and KRaft", []int16{18, 52, 53, 54, 55, 57, 58, 59, 60, 62, 63, 64, 70, 71, 72, 74, 80, 81, 82}},
		{"ZooKeeper-era inter-broker", []int16{4, 5, 6, 7}},
	}
}

// nameRules place an API the table does not know (a release newer than the table) by the words
// of its name, first match wins; an API none matches goes by its listeners: served only by the
// controller, "Cluster and KRaft"; else OtherCategory.
var nameRules = []struct{ word, category string }{
	{"ShareGroup", "Share groups"},
	{"Share", "Share groups"},
	{"StreamsGroup", "Streams groups"},
	{"ConsumerGroup", "Consumer groups"},
	{"Txn", "Transactions"},
	{"Transaction", "Transactions"},
	{"Group", "Consumer groups"},
	{"Offset", "Consumer groups"},
	{"Acl", "Security and ACLs"},
	{"Sasl", "Security and ACLs"},
	{"Token", "Security and ACLs"},
	{"Scram", "Security and ACLs"},
	{"Credential", "Security and ACLs"},
	{"Config", "Configuration and quotas"},
	{"Quota", "Configuration and quotas"},
	{"ClientMetrics", "Configuration and quotas"},
	{"Telemetry", "Configuration and quotas"},
	{"Topic", "Topics and partitions"},
	{"Partition", "Topics and partitions"},
	{"Replica", "Topics and partitions"},
	{"Leader", "Topics and partitions"},
	{"LogDir", "Topics and partitions"},
	{"Record", "Topics and partitions"},
	{"Broker", "Cluster and KRaft"},
	{"Controller", "Cluster and KRaft"},
	{"Quorum", "Cluster and KRaft"},
	{"Raft", "Cluster and KRaft"},
	{"Feature", "Cluster and KRaft"},
	{"Voter", "Cluster and KRaft"},
}

// categoryByRule is the category of an API the table does not know: by name (nameRules), then
// by listeners, else OtherCategory.
func categoryByRule(name string, listeners []string) string {
	for _, r := range nameRules {
		if strings.Contains(name, r.word) {
			return r.category
		}
	}
	if len(listeners) > 0 && !slices.Contains(listeners, "broker") && slices.Contains(listeners, "controller") {
		return "Cluster and KRaft"
	}
	return OtherCategory
}
