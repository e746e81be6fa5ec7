package kafka

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/kafkagrid/kafkagrid/schemas"
)

// The values of the generated examples come from the story (story.go, examples/kafka/
// cluster.yaml). Nothing is random: the same schema always gives the same example.

// exampleClientID is the client id of every example request header; TestStory checks that
// it is the story's.
const exampleClientID = "kafkagrid"

// topicID is the id of the story's topic.
func topicID(s *Story) UUID {
	t, _ := s.Topic(s.Log.Topic)
	return t.UUID()
}

// exampleUUID is a readable version-4 uuid ending in tag: 00000000-0000-4000-8000-0000000000<tag>.
func exampleUUID(tag byte) UUID {
	return UUID{6: 0x40, 8: 0x80, 15: tag}
}

// exampleBatch is the record batch of the story's producer as it sends it: one record with a
// key, a value and a header, in its transaction; base offset 0 and leader epoch -1, as a
// producer writes them (the broker assigns both).
func exampleBatch(s *Story) *RecordBatch {
	return &RecordBatch{
		BaseOffset:           0,
		PartitionLeaderEpoch: -1,
		Attributes:           attrTransactional,
		LastOffsetDelta:      0,
		BaseTimestamp:        s.Clock,
		MaxTimestamp:         s.Clock,
		ProducerID:           s.Producer.ID,
		ProducerEpoch:        s.Producer.Epoch,
		BaseSequence:         0,
		Records: []Record{{
			Key:     []byte("order-1"),
			Value:   []byte(`{"id":1,"total":9.5}`),
			Headers: []RecordHeader{{Key: "source", Value: []byte("web")}},
		}},
	}
}

// storedBatches are the batches a fetch from the story's batch offset returns: the producer's
// batch as the leader stored it (its base offset and the leader's epoch stamped), then the
// marker that committed the transaction (a control batch whose one record has key version 0,
// type 1 COMMIT, and value version 0, the coordinator epoch).
func storedBatches(s *Story) []*RecordBatch {
	data := exampleBatch(s)
	data.BaseOffset = s.Log.BatchOffset
	data.PartitionLeaderEpoch = s.Partition().LeaderEpoch
	marker := &RecordBatch{
		BaseOffset:           s.Log.BatchOffset + int64(data.LastOffsetDelta) + 1,
		PartitionLeaderEpoch: s.Partition().LeaderEpoch,
		Attributes:           attrTransactional | attrControl,
		BaseTimestamp:        s.Clock,
		MaxTimestamp:         s.Clock,
		ProducerID:           s.Producer.ID,
		ProducerEpoch:        s.Producer.Epoch,
		BaseSequence:         -1,
		Records: []Record{{
			Key:   []byte{0, 0, 0, 1},       // version 0, COMMIT
			Value: []byte{0, 0, 0, 0, 0, 0}, // version 0, coordinator epoch 0
		}},
	}
	return []*RecordBatch{data, marker}
}

// generate builds the example values of a struct's fields at version v from the schema.
// Tagged fields keep their defaults (they are not written) unless an override sets them.
func generate(fields []*schemas.Field, v int16) Values {
	out := make(Values, len(fields))
	for _, f := range fields {
		if !f.PresentIn(v) || f.TaggedIn(v) {
			continue
		}
		out[f.Name] = generateField(f, v)
	}
	// A fetch response (a partition with a high watermark, or a share fetch's) returns the
	// batches as the leader stored them.
	for _, f := range fields {
		if recordsPrim(f) == schemas.Records && f.PresentIn(v) && (out["HighWatermark"] != nil || strings.HasPrefix(f.Path, "Responses")) {
			out[f.Name] = storedBatches(story())
		}
	}
	return out
}

func generateField(f *schemas.Field, v int16) any {
	if f.Type.Array {
		if set, ok := replicaSet(f.Name); ok {
			return set
		}
		if f.Name == "AbortedTransactions" || f.Name == "Aborted" {
			return []any{} // the story's one transaction was committed
		}
		if f.Type.Prim == schemas.StructType {
			return []any{generate(f.Struct.Fields, v)}
		}
		return []any{generatePrim(f, f.Type.Prim, v)}
	}
	switch recordsPrim(f) {
	case schemas.StructType:
		return generate(f.Struct.Fields, v)
	case schemas.Records:
		return []*RecordBatch{exampleBatch(story())}
	}
	return generatePrim(f, f.Type.Prim, v)
}

// replicaSet returns the replica set of the story's partition a field names, if it names one.
func replicaSet(name string) ([]any, bool) {
	p := story().Partition()
	var ids []int32
	switch name {
	case "Replicas", "ReplicaNodes":
		ids = p.Replicas
	case "Isr", "IsrNodes", "NewIsr":
		ids = p.ISR
	case "OfflineReplicas":
		ids = p.Offline
	default:
		return nil, false
	}
	out := make([]any, len(ids))
	for i, id := range ids {
		out[i] = int64(id)
	}
	return out, true
}

// generatePrim picks a value by the field's name, entity type and schema default, in that
// order, else the zero value of its type.
func generatePrim(f *schemas.Field, p schemas.Prim, v int16) any {
	if x, ok := byName(f, p, v); ok {
		if m, misfits := x.(misfit); misfits {
			m.value = ownValue(f, p, v)
			return m
		}
		return x
	}
	return ownValue(f, p, v)
}

// misfit stands, in generated values, for an int field whose name's rule gives a value its type
// cannot hold (a timestamp rule on an int32): value is what the field has without the rule.
// example resolves it to value once the overrides are merged, and reports it (Misfit) unless
// an override set the field.
type misfit struct {
	rule  int64
	wire  string // "int32"
	value any
}

// ownValue is a field's value without the rules that follow its name: its entity type's, its
// schema default, or its type's.
func ownValue(f *schemas.Field, p schemas.Prim, v int16) any {
	s := story()
	switch f.EntityType {
	case "topicName":
		return s.Log.Topic
	case "groupId":
		return s.Group.ID
	case "transactionalId":
		return s.Producer.TransactionalID
	case "brokerId":
		return int64(s.Partition().Leader)
	case "producerId":
		return s.Producer.ID
	}
	if f.HasDefault && !f.Type.Array {
		if f.Default == "null" {
			if f.NullableIn(v) && p != schemas.String && p != schemas.Bytes {
				return nil
			}
		} else if x, err := parseDefault(p, f.Default); err == nil {
			return x
		}
	}
	switch p {
	case schemas.String:
		return genericString(f)
	case schemas.Bytes:
		return []byte("kafkagrid")
	case schemas.UUID:
		return topicID(s)
	case schemas.Int64:
		return s.Log.BatchOffset
	}
	return zeroValue(p)
}

func genericString(f *schemas.Field) string {
	path := f.Path
	// Fields older schemas (2.4's) declare without the entity type later releases give them,
	// named by what they hold.
	switch f.Name {
	case "HostName", "Host", "V0Host":
		if b, ok := story().Broker(story().Partition().Leader); ok {
			return b.Host
		}
	case "TransactionalId":
		return story().Producer.TransactionalID
	case "TransactionalIdPattern":
		// A regular expression over transactional ids (KIP-1152) that the story's matches.
		return regexp.QuoteMeta(strings.TrimRightFunc(story().Producer.TransactionalID, unicode.IsDigit)) + ".*"
	case "ResourceName", "ResourceNameFilter":
		return story().Log.Topic
	case "Name", "Topic", "TopicName":
		// A topic's name, where older schemas (2.2's Fetch Forgotten, AddPartitionsToTxn
		// Results, 2.4's DescribeAcls Resources: an ACL's resource is the story's topic)
		// have no entity type to say so.
		parent := strings.TrimSuffix(path[:max(0, strings.LastIndexByte(path, '.'))], "[]")
		if i := strings.LastIndexByte(parent, '.'); i >= 0 {
			parent = parent[i+1:]
		}
		if strings.Contains(path, "Topic") || parent == "Forgotten" || parent == "Resources" || parent == "Results" {
			return story().Log.Topic
		}
	case "Groups", "GroupsNames", "GroupIds", "GroupId":
		// 2.2's DescribeGroups Groups and DeleteGroups GroupsNames: arrays of group ids.
		return story().Group.ID
	case "SubtopologyId":
		// Kafka Streams numbers a topology's subtopologies from 0 (KIP-1071).
		return "0"
	case "ProcessId":
		// A Kafka Streams client's process id: a UUID in its text form (KIP-1071).
		return "00000000-0000-4000-8000-00000000000a"
	case "StatusDetail":
		// The detail of status code 0, STALE_TOPOLOGY, the code the example carries.
		return "the topology epoch is stale"
	case "SourceTopicRegex":
		return regexp.QuoteMeta(story().Log.Topic) + ".*"
	}
	switch {
	case strings.Contains(path, "Assignor"):
		return story().Group.Protocol // a client-side assignor's name ("range")
	case strings.Contains(path, "Config"):
		return "retention.ms"
	case strings.Contains(path, "Protocol"):
		return "range"
	case strings.Contains(path, "Deletions"):
		return story().DepartingUser
	case strings.Contains(path, "Users"), strings.Contains(path, "Upsertions"):
		return story().User.Name
	case strings.Contains(path, "ClientMetrics"):
		return "producer-metrics"
	case strings.Contains(path, "Feature"):
		return "metadata.version"
	case strings.Contains(path, "Listener"), strings.Contains(path, "Endpoint"):
		return "PLAINTEXT"
	}
	return "example"
}

// byName holds the rules that follow a field's name.
func byName(f *schemas.Field, p schemas.Prim, v int16) (any, bool) {
	n := f.Name
	switch p {
	case schemas.Int8, schemas.Int16, schemas.Uint16, schemas.Int32, schemas.Int64:
		// A rule chosen by name gives way to the field's own value where it does not fit the
		// field's type (a Timestamp rule on an int32, say); the misfit is reported.
		if x, ok := intByName(f, n); ok {
			if intFits(p, x) {
				return x, true
			}
			wire, _ := intWire(p)
			return misfit{rule: x, wire: wire}, true
		}
	case schemas.String:
		return stringByName(f, n, v)
	case schemas.Bytes:
		return bytesByName(n)
	case schemas.UUID:
		switch {
		case n == "TopicId":
			return topicID(story()), true
		case strings.Contains(n, "Directory") || n == "LogDirs" || n == "OfflineLogDirs" || (n == "Id" && strings.Contains(f.Path, "Director")):
			return exampleUUID(0xd1), true
		case n == "IncarnationId":
			return exampleUUID(0xe1), true
		case n == "ClientInstanceId":
			return exampleUUID(0xc1), true
		}
	case schemas.Bool:
		switch n {
		case "VoteGranted", "IsCaughtUp", "Committed", "AllowAutoTopicCreation", "TransactionResult":
			return true, true
		}
	case schemas.Float64:
		return float64(1048576), true // a byte-rate quota: 1 MiB/s
	}
	return nil, false
}

func intByName(f *schemas.Field, n string) (int64, bool) {
	s := story()
	switch n {
	case "ErrorCode", "PartitionErrorCode", "TopicConfigErrorCode", "AcknowledgeErrorCode", "ThrottleTimeMs":
		return 0, true
	case "SessionTimeoutMs":
		return 45000, true
	case "RebalanceTimeoutMs":
		return 300000, true
	case "TransactionTimeoutMs":
		return int64(s.Producer.TransactionTimeoutMs), true
	case "HeartbeatIntervalMs":
		return 5000, true
	case "PushIntervalMs":
		return 60000, true
	case "MaxWaitMs":
		return 500, true
	case "MinBytes":
		return 1, true
	case "PartitionMaxBytes":
		return 1048576, true
	case "Port":
		return 9092, true
	case "Acks":
		return -1, true
	case "NumPartitions", "ReplicationFactor":
		return 3, true
	case "Count", "DeliveryCount", "AcknowledgeTypes":
		return 1, true
	case "VoterId", "LeaderId", "CandidateId", "ReplicaId", "NodeId", "Leader":
		// NodeId and Leader are named here for the releases whose schemas give them no
		// entityType (2.2's FindCoordinator and UpdateMetadata).
		return int64(s.Partition().Leader), true
	case "ControllerId":
		return int64(s.Controller), true
	case "LeaderEpoch", "CurrentLeaderEpoch":
		return int64(s.Partition().LeaderEpoch), true
	case "MemberEpoch":
		return int64(s.ShareGroup.MemberEpoch), true
	case "IssueTimestampMs", "IssueTimestamp":
		return s.Token.Issued, true
	case "ExpiryTimestampMs", "ExpiryTimestamp":
		return s.Token.Expiry(), true
	case "MaxTimestampMs", "MaxTimestamp":
		return s.Token.Max(), true
	case "MaxLifetimeMs":
		return s.Token.MaxLifetimeMs, true
	case "RenewPeriodMs", "ExpiryTimePeriodMs":
		return s.Token.RenewPeriodMs, true
	case "Mechanism":
		return int64(s.User.Mechanism), true
	}
	return storyInt(f, n, s)
}

// storyInt is intByName's value of the other fields named, then intBySuffix's.
func storyInt(f *schemas.Field, n string, s *Story) (int64, bool) {
	switch n {
	case "ConfigSource", "Source":
		return 1, true // DYNAMIC_TOPIC_CONFIG
	case "ConfigType":
		return 5, true // LONG
	case "Iterations":
		return int64(s.User.Iterations), true
	case "ProducerEpoch", "V3AndBelowProducerEpoch":
		return int64(s.Producer.Epoch), true
	case "ProducerIdLen":
		return 1000, true
	case "GenerationId", "GenerationIdOrMemberEpoch":
		return int64(s.Group.Generation), true
	case "SessionId", "SessionEpoch", "ShareSessionEpoch", "PartitionIndex", "Partition", "PartitionId", "Index",
		"Partitions", "PartitionIndexes", "BatchIndex":
		return 0, true
	case "MaxVersion", "MaxSupportedVersion", "MaxVersionLevel":
		return 1, true
	case "MinVersion", "MinSupportedVersion", "MinVersionLevel":
		return 0, true
	case "ResourceType", "ResourceTypeFilter":
		return 2, true // TOPIC
	case "Type":
		if f.Path == "Resources[].Type" { // 2.4's DescribeAcls names its ResourceType so
			return 2, true // TOPIC
		}
	case "Operation":
		return 3, true // READ
	case "PermissionType":
		return 3, true // ALLOW
	case "PatternType", "PatternTypeFilter", "ResourcePatternType":
		return 3, true // LITERAL
	case "LogStartOffset":
		return s.Log.LogStartOffset, true
	case "HighWatermark", "LastStableOffset", "LogEndOffset", "EndOffset", "CommittedOffset":
		return s.Log.HighWatermark, true
	case "RetentionTimeMs":
		return 86400000, true
	case "PartitionSize":
		return 1048576, true
	case "OffsetLag":
		return 0, true
	case "TotalBytes":
		return 107374182400, true // 100 GiB
	case "UsableBytes":
		return 53687091200, true // 50 GiB
	case "TelemetryMaxBytes":
		return 1048576, true
	case "ResponsePartitionLimit":
		return 2000, true
	case "AuthorizedOperations", "TopicAuthorizedOperations", "ClusterAuthorizedOperations":
		return -2147483648, true // not requested
	}
	return intBySuffix(f, n, s)
}

// intBySuffix is the value of an integer field told by its name's ending: timeouts, epochs,
// timestamps, offsets.
func intBySuffix(f *schemas.Field, n string, s *Story) (int64, bool) {
	switch {
	case strings.HasSuffix(n, "TimeoutMs") || n == "timeoutMs":
		return 30000, true
	case strings.HasSuffix(n, "Epoch"):
		return int64(s.Partition().LeaderEpoch), true
	case strings.Contains(n, "Timestamp") || strings.HasSuffix(n, "TimeMs"):
		return s.Clock, true
	case strings.Contains(n, "Offset") && f.Type.Prim == schemas.Int64:
		return s.Log.BatchOffset, true
	}
	return 0, false
}

func stringByName(f *schemas.Field, n string, v int16) (any, bool) {
	s := story()
	leader, _ := s.Broker(s.Partition().Leader)
	switch n {
	case "ErrorMessage", "AcknowledgeErrorMessage", "BatchIndexErrorMessage", "SubscribedTopicRegex":
		// With error code 0 the message is null: that is the point.
		if f.NullableIn(v) {
			return nil, true
		}
		return "", true
	case "ClientId", "ClientSoftwareName", "EntityName", "Match":
		return s.ClientID, true
	case "GroupId":
		return s.Group.ID, true
	case "StateFilters":
		return "Ongoing", true
	case "ClientSoftwareVersion":
		return "1.0.0", true
	case "ClientHost":
		return s.Group.Members[0].Host, true
	case "Host":
		if strings.Contains(f.Path, "Acl") || strings.Contains(f.Path, "Filter") {
			return "*", true
		}
		return leader.Host, true
	case "HostFilter":
		return "*", true
	case "Rack", "RackId":
		return leader.Rack, true
	case "ClusterId":
		return s.ClusterID, true
	case "MemberId", "Leader":
		return s.Group.Members[0].ID, true
	case "GroupInstanceId", "InstanceId":
		return s.Group.Members[0].Instance, true
	case "ProtocolType", "GroupType":
		return s.Group.ProtocolType, true
	case "ProtocolName", "ProtocolData":
		return s.Group.Protocol, true
	case "AssignorName", "ServerAssignor":
		return "uniform", true
	}
	return storyString(f, n, s)
}

// storyString is stringByName's value of the fields named for principals, resources, states,
// configurations and features.
func storyString(f *schemas.Field, n string, s *Story) (any, bool) {
	switch n {
	case "Principal", "PrincipalFilter":
		return "User:" + s.User.Name, true
	case "PrincipalName", "User", "OwnerPrincipalName", "TokenRequesterPrincipalName":
		return s.User.Name, true
	case "PrincipalType", "OwnerPrincipalType", "TokenRequesterPrincipalType":
		return "User", true
	case "Mechanism", "Mechanisms":
		return "PLAIN", true
	case "TokenId":
		return s.Token.ID, true
	case "ResourceName", "ResourceNameFilter":
		return s.Log.Topic, true
	case "GroupState", "StatesFilter":
		return "Stable", true
	case "TransactionState":
		return "Ongoing", true
	case "TypesFilter":
		return "consumer", true
	case "LogDir", "Path":
		return "/var/lib/kafka/data", true
	case "Reason":
		return "the consumer is shutting down", true
	case "EntityType":
		return "client-id", true
	case "Key", "ConfigurationKeys":
		if strings.Contains(f.Path, "Coordinator") {
			return s.Group.ID, true
		}
		if strings.Contains(f.Path, "Values") || strings.Contains(f.Path, "Ops") {
			return "producer_byte_rate", true
		}
		return "retention.ms", true
	case "Value":
		return "604800000", true
	case "CoordinatorKeys":
		return s.Group.ID, true
	case "RequestedMetrics":
		return "org.apache.kafka.producer.", true
	case "Feature":
		return "metadata.version", true
	case "Documentation":
		return "How long to keep a log segment before deleting it.", true
	case "CommittedMetadata", "Metadata":
		return "", true
	case "UnknownStateFilters":
		return "Unknown", true
	}
	return nil, false
}

func bytesByName(n string) (any, bool) {
	switch n {
	case "AuthBytes":
		return []byte("\x00alice\x00alice-secret"), true // SASL/PLAIN: authzid, authcid, password
	case "Hmac", "SaltedPassword":
		return []byte{0x8f, 0x3a, 0x51, 0x0c, 0xd2, 0x47, 0x6e, 0x19}, true
	case "Salt":
		return []byte("kafkagrid-salt"), true
	case "ClientHostAddress":
		return []byte{192, 0, 2, 10}, true
	case "MemberMetadata", "Metadata":
		return consumerSubscription(), true
	case "Assignment", "MemberAssignment":
		return consumerAssignment(), true
	case "RequestPrincipal":
		return []byte("User:alice"), true
	}
	return nil, false
}

// consumerSubscription is a ConsumerProtocolSubscription v0 naming the topic orders.
func consumerSubscription() []byte {
	return []byte{
		0, 0, // version 0
		0, 0, 0, 1, 0, 6, 'o', 'r', 'd', 'e', 'r', 's', // topics: ["orders"]
		0xff, 0xff, 0xff, 0xff, // user data: null
	}
}

// consumerAssignment is a ConsumerProtocolAssignment v0 giving partition 0 of orders.
func consumerAssignment() []byte {
	return []byte{
		0, 0, // version 0
		0, 0, 0, 1, 0, 6, 'o', 'r', 'd', 'e', 'r', 's', // one topic: orders
		0, 0, 0, 1, 0, 0, 0, 0, // partitions: [0]
		0xff, 0xff, 0xff, 0xff, // user data: null
	}
}
