package kafka

import (
	"slices"
	"strings"
)

// category is one section of the reference's index: a name and its APIs' keys, in the order
// the index shows them (the facts table, apis.go, says which API is in which).
type category struct {
	name string
	keys []int16
}

// OtherCategory holds the APIs that neither the table nor the naming rule places; it comes
// last, sorted by key.
const OtherCategory = "Other"

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
