package kafka

import (
	"strings"

	"github.com/kafkagrid/kafkagrid/schemas"
)

// The fixed values of the generated examples. Nothing is random: the same schema always gives
// the same example.
const (
	exampleTopic         = "orders"
	exampleGroup         = "payments"
	exampleTransactional = "txn-orders-1"
	exampleClientID      = "kafkagrid"
	exampleBrokerID      = 1
	exampleProducerID    = 4000
	exampleEpoch         = 5
	exampleOffset        = 42
	exampleTimestamp     = 1767225600000 // 2026-01-01T00:00:00Z in ms
	exampleClusterID     = "MkU3OEVBNTcwNTJENDM2Qk"
)

// exampleUUID is a readable version-4 uuid ending in tag: 00000000-0000-4000-8000-0000000000<tag>.
func exampleUUID(tag byte) UUID {
	return UUID{6: 0x40, 8: 0x80, 15: tag}
}

// exampleBatch is the record batch of the examples: one record with a key, a value and a
// header, from an idempotent producer.
func exampleBatch() *RecordBatch {
	return &RecordBatch{
		BaseOffset:           0,
		PartitionLeaderEpoch: -1,
		LastOffsetDelta:      0,
		BaseTimestamp:        exampleTimestamp,
		MaxTimestamp:         exampleTimestamp,
		ProducerID:           exampleProducerID,
		ProducerEpoch:        0,
		BaseSequence:         0,
		Records: []Record{{
			Key:     []byte("order-1"),
			Value:   []byte(`{"id":1,"total":9.5}`),
			Headers: []RecordHeader{{Key: "source", Value: []byte("web")}},
		}},
	}
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
	return out
}

func generateField(f *schemas.Field, v int16) any {
	if f.Type.Array {
		if f.Type.Prim == schemas.StructType {
			return []any{generate(f.Struct.Fields, v)}
		}
		return []any{generatePrim(f, f.Type.Prim, v)}
	}
	switch recordsPrim(f) {
	case schemas.StructType:
		return generate(f.Struct.Fields, v)
	case schemas.Records:
		return []*RecordBatch{exampleBatch()}
	}
	return generatePrim(f, f.Type.Prim, v)
}

// generatePrim picks a value by the field's name, entity type and schema default, in that
// order, else the zero value of its type.
func generatePrim(f *schemas.Field, p schemas.Prim, v int16) any {
	if x, ok := byName(f, p, v); ok {
		return x
	}
	switch f.EntityType {
	case "topicName":
		return exampleTopic
	case "groupId":
		return exampleGroup
	case "transactionalId":
		return exampleTransactional
	case "brokerId":
		return int64(exampleBrokerID)
	case "producerId":
		return int64(exampleProducerID)
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
		return exampleUUID(0x01)
	case schemas.Int64:
		return int64(exampleOffset)
	}
	return zeroValue(p)
}

func genericString(f *schemas.Field) string {
	path := f.Path
	switch {
	case strings.Contains(path, "Config"):
		return "retention.ms"
	case strings.Contains(path, "Protocol"):
		return "range"
	case strings.Contains(path, "Users"), strings.Contains(path, "Deletions"), strings.Contains(path, "Upsertions"):
		return "alice"
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
		if x, ok := intByName(f, n); ok {
			return int64(x), true
		}
	case schemas.String:
		return stringByName(f, n, v)
	case schemas.Bytes:
		return bytesByName(n)
	case schemas.UUID:
		switch {
		case n == "TopicId":
			return exampleUUID(0x01), true
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
	switch n {
	case "ErrorCode", "PartitionErrorCode", "TopicConfigErrorCode", "AcknowledgeErrorCode", "ThrottleTimeMs":
		return 0, true
	case "SessionTimeoutMs":
		return 45000, true
	case "RebalanceTimeoutMs":
		return 300000, true
	case "TransactionTimeoutMs":
		return 60000, true
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
	case "VoterId", "LeaderId", "ControllerId", "CandidateId", "ReplicaId":
		return exampleBrokerID, true
	case "Mechanism":
		return 1, true // SCRAM-SHA-256
	case "ConfigSource", "Source":
		return 1, true // DYNAMIC_TOPIC_CONFIG
	case "ConfigType":
		return 5, true // LONG
	case "Iterations":
		return 4096, true
	case "ProducerEpoch", "V3AndBelowProducerEpoch":
		return 0, true
	case "ProducerIdLen":
		return 1000, true
	case "GenerationId", "GenerationIdOrMemberEpoch":
		return 3, true
	case "SessionId", "SessionEpoch", "ShareSessionEpoch", "PartitionIndex", "Partition", "PartitionId", "Index",
		"Partitions", "PartitionIndexes", "BatchIndex":
		return 0, true
	case "MaxVersion", "MaxSupportedVersion", "MaxVersionLevel":
		return 1, true
	case "MinVersion", "MinSupportedVersion", "MinVersionLevel":
		return 0, true
	case "ResourceType", "ResourceTypeFilter":
		return 2, true // TOPIC
	case "Operation":
		return 3, true // READ
	case "PermissionType":
		return 3, true // ALLOW
	case "PatternType", "PatternTypeFilter", "ResourcePatternType":
		return 3, true // LITERAL
	case "LogStartOffset":
		return 0, true
	case "HighWatermark", "LastStableOffset", "LogEndOffset", "EndOffset":
		return exampleOffset + 1, true
	case "ExpiryTimePeriodMs", "MaxLifetimeMs", "RenewPeriodMs", "RetentionTimeMs":
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
	switch {
	case strings.HasSuffix(n, "TimeoutMs") || n == "timeoutMs":
		return 30000, true
	case strings.HasSuffix(n, "Epoch"):
		return exampleEpoch, true
	case strings.Contains(n, "Timestamp") || strings.HasSuffix(n, "TimeMs"):
		return exampleTimestamp, true
	case strings.Contains(n, "Offset") && f.Type.Prim == schemas.Int64:
		return exampleOffset, true
	}
	return 0, false
}

func stringByName(f *schemas.Field, n string, v int16) (any, bool) {
	switch n {
	case "ErrorMessage", "AcknowledgeErrorMessage", "BatchIndexErrorMessage", "SubscribedTopicRegex":
		// With error code 0 the message is null: that is the point.
		if f.NullableIn(v) {
			return nil, true
		}
		return "", true
	case "ClientId", "ClientSoftwareName", "EntityName", "Match":
		return exampleClientID, true
	case "GroupId":
		return exampleGroup, true
	case "StateFilters":
		return "Ongoing", true
	case "ClientSoftwareVersion":
		return "1.0.0", true
	case "ClientHost":
		return "/192.0.2.10", true
	case "Host":
		if strings.Contains(f.Path, "Acl") || strings.Contains(f.Path, "Filter") {
			return "*", true
		}
		return "broker-1", true
	case "HostFilter":
		return "*", true
	case "Rack", "RackId":
		return "rack-a", true
	case "ClusterId":
		return exampleClusterID, true
	case "MemberId":
		return "consumer-kafkagrid-1", true
	case "GroupInstanceId", "InstanceId":
		return "payments-worker-1", true
	case "ProtocolType", "GroupType":
		return "consumer", true
	case "ProtocolName":
		return "range", true
	case "AssignorName", "ServerAssignor":
		return "uniform", true
	case "Principal", "PrincipalFilter":
		return "User:alice", true
	case "PrincipalName", "User", "OwnerPrincipalName", "TokenRequesterPrincipalName":
		return "alice", true
	case "PrincipalType", "OwnerPrincipalType", "TokenRequesterPrincipalType":
		return "User", true
	case "Mechanism", "Mechanisms":
		return "PLAIN", true
	case "TokenId":
		return "token-1", true
	case "ResourceName", "ResourceNameFilter":
		return exampleTopic, true
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
			return exampleGroup, true
		}
		if strings.Contains(f.Path, "Values") || strings.Contains(f.Path, "Ops") {
			return "producer_byte_rate", true
		}
		return "retention.ms", true
	case "Value":
		return "604800000", true
	case "CoordinatorKeys":
		return exampleGroup, true
	case "RequestedMetrics":
		return "org.apache.kafka.producer.", true
	case "Feature":
		return "metadata.version", true
	case "Documentation":
		return "How long to keep a log segment before deleting it.", true
	case "ProtocolData":
		return "range", true
	case "CommittedMetadata", "Metadata":
		return "", true
	case "Leader":
		return "broker-1", true
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
