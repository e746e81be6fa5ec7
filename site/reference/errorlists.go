package reference

// kafkaErrorLists are the error codes Kafka's own response classes list as possible, for the
// APIs whose class has such a list: the "Possible error codes" javadoc of
// clients/src/main/java/org/apache/kafka/common/requests/<Name>Response.java in apache/kafka
// (read at commit 1eb7644349cb, 2024-10-25), in the order the class lists them, by the API's
// name in the schemas (OffsetsForLeaderEpochResponse.java is OffsetForLeaderEpoch's). Kafka's
// schemas name few errors; these lists are where Kafka's code says what a broker sends. 28
// of the APIs have one; errors.html says which list each name comes from.
var kafkaErrorLists = map[string][]string{
	"AddOffsetsToTxn":        {"NOT_COORDINATOR", "COORDINATOR_NOT_AVAILABLE", "COORDINATOR_LOAD_IN_PROGRESS", "INVALID_PRODUCER_ID_MAPPING", "INVALID_PRODUCER_EPOCH", "PRODUCER_FENCED", "INVALID_TXN_STATE", "GROUP_AUTHORIZATION_FAILED", "TRANSACTIONAL_ID_AUTHORIZATION_FAILED"},
	"AddPartitionsToTxn":     {"NOT_COORDINATOR", "COORDINATOR_NOT_AVAILABLE", "COORDINATOR_LOAD_IN_PROGRESS", "INVALID_TXN_STATE", "INVALID_PRODUCER_ID_MAPPING", "INVALID_PRODUCER_EPOCH", "PRODUCER_FENCED", "TOPIC_AUTHORIZATION_FAILED", "TRANSACTIONAL_ID_AUTHORIZATION_FAILED", "UNKNOWN_TOPIC_OR_PARTITION"},
	"AlterReplicaLogDirs":    {"LOG_DIR_NOT_FOUND", "KAFKA_STORAGE_ERROR", "REPLICA_NOT_AVAILABLE", "UNKNOWN_SERVER_ERROR"},
	"ApiVersions":            {"UNSUPPORTED_VERSION", "INVALID_REQUEST"},
	"BeginQuorumEpoch":       {"CLUSTER_AUTHORIZATION_FAILED", "BROKER_NOT_AVAILABLE", "FENCED_LEADER_EPOCH", "INVALID_REQUEST", "INCONSISTENT_VOTER_SET", "UNKNOWN_TOPIC_OR_PARTITION"},
	"ConsumerGroupDescribe":  {"GROUP_AUTHORIZATION_FAILED", "NOT_COORDINATOR", "COORDINATOR_NOT_AVAILABLE", "COORDINATOR_LOAD_IN_PROGRESS", "INVALID_REQUEST", "INVALID_GROUP_ID", "GROUP_ID_NOT_FOUND"},
	"ConsumerGroupHeartbeat": {"GROUP_AUTHORIZATION_FAILED", "NOT_COORDINATOR", "COORDINATOR_NOT_AVAILABLE", "COORDINATOR_LOAD_IN_PROGRESS", "INVALID_REQUEST", "UNKNOWN_MEMBER_ID", "FENCED_MEMBER_EPOCH", "UNSUPPORTED_ASSIGNOR", "UNRELEASED_INSTANCE_ID", "GROUP_MAX_SIZE_REACHED", "INVALID_REGULAR_EXPRESSION"},
	"DescribeQuorum":         {"CLUSTER_AUTHORIZATION_FAILED", "BROKER_NOT_AVAILABLE", "NOT_LEADER_OR_FOLLOWER", "UNKNOWN_TOPIC_OR_PARTITION"},
	"EndQuorumEpoch":         {"CLUSTER_AUTHORIZATION_FAILED", "BROKER_NOT_AVAILABLE", "FENCED_LEADER_EPOCH", "INVALID_REQUEST", "INCONSISTENT_VOTER_SET", "UNKNOWN_TOPIC_OR_PARTITION"},
	"EndTxn":                 {"NOT_COORDINATOR", "COORDINATOR_NOT_AVAILABLE", "COORDINATOR_LOAD_IN_PROGRESS", "INVALID_TXN_STATE", "INVALID_PRODUCER_ID_MAPPING", "INVALID_PRODUCER_EPOCH", "PRODUCER_FENCED", "TRANSACTIONAL_ID_AUTHORIZATION_FAILED"},
	"Fetch":                  {"OFFSET_OUT_OF_RANGE", "TOPIC_AUTHORIZATION_FAILED", "REPLICA_NOT_AVAILABLE", "NOT_LEADER_OR_FOLLOWER", "FENCED_LEADER_EPOCH", "UNKNOWN_LEADER_EPOCH", "UNKNOWN_TOPIC_OR_PARTITION", "KAFKA_STORAGE_ERROR", "UNSUPPORTED_COMPRESSION_TYPE", "CORRUPT_MESSAGE", "UNKNOWN_TOPIC_ID", "FETCH_SESSION_TOPIC_ID_ERROR", "INCONSISTENT_TOPIC_ID", "UNKNOWN_SERVER_ERROR"},
	"InitProducerId":         {"NOT_COORDINATOR", "COORDINATOR_NOT_AVAILABLE", "COORDINATOR_LOAD_IN_PROGRESS", "TRANSACTIONAL_ID_AUTHORIZATION_FAILED", "CLUSTER_AUTHORIZATION_FAILED", "INVALID_PRODUCER_EPOCH", "PRODUCER_FENCED"},
	"LeaveGroup":             {"COORDINATOR_LOAD_IN_PROGRESS", "COORDINATOR_NOT_AVAILABLE", "NOT_COORDINATOR", "GROUP_AUTHORIZATION_FAILED", "FENCED_INSTANCE_ID", "UNKNOWN_MEMBER_ID"},
	"ListOffsets":            {"UNSUPPORTED_FOR_MESSAGE_FORMAT", "TOPIC_AUTHORIZATION_FAILED", "REPLICA_NOT_AVAILABLE", "NOT_LEADER_OR_FOLLOWER", "FENCED_LEADER_EPOCH", "UNKNOWN_LEADER_EPOCH", "UNKNOWN_TOPIC_OR_PARTITION", "KAFKA_STORAGE_ERROR", "UNKNOWN_SERVER_ERROR", "LEADER_NOT_AVAILABLE", "OFFSET_NOT_AVAILABLE"},
	"OffsetCommit":           {"UNKNOWN_TOPIC_OR_PARTITION", "REQUEST_TIMED_OUT", "OFFSET_METADATA_TOO_LARGE", "COORDINATOR_LOAD_IN_PROGRESS", "COORDINATOR_NOT_AVAILABLE", "NOT_COORDINATOR", "ILLEGAL_GENERATION", "UNKNOWN_MEMBER_ID", "REBALANCE_IN_PROGRESS", "INVALID_COMMIT_OFFSET_SIZE", "TOPIC_AUTHORIZATION_FAILED", "GROUP_AUTHORIZATION_FAILED", "INVALID_PRODUCER_ID_MAPPING", "INVALID_TXN_STATE", "GROUP_ID_NOT_FOUND", "STALE_MEMBER_EPOCH"},
	"OffsetDelete":           {"GROUP_SUBSCRIBED_TO_TOPIC", "TOPIC_AUTHORIZATION_FAILED", "UNKNOWN_TOPIC_OR_PARTITION", "COORDINATOR_LOAD_IN_PROGRESS", "COORDINATOR_NOT_AVAILABLE", "NOT_COORDINATOR", "GROUP_AUTHORIZATION_FAILED", "INVALID_GROUP_ID", "GROUP_ID_NOT_FOUND", "NON_EMPTY_GROUP"},
	"OffsetFetch":            {"UNKNOWN_TOPIC_OR_PARTITION", "TOPIC_AUTHORIZATION_FAILED", "UNSTABLE_OFFSET_COMMIT", "COORDINATOR_LOAD_IN_PROGRESS", "COORDINATOR_NOT_AVAILABLE", "NOT_COORDINATOR", "GROUP_AUTHORIZATION_FAILED", "UNKNOWN_MEMBER_ID", "STALE_MEMBER_EPOCH"},
	"OffsetForLeaderEpoch":   {"TOPIC_AUTHORIZATION_FAILED", "REPLICA_NOT_AVAILABLE", "NOT_LEADER_OR_FOLLOWER", "FENCED_LEADER_EPOCH", "UNKNOWN_LEADER_EPOCH", "UNKNOWN_TOPIC_OR_PARTITION", "KAFKA_STORAGE_ERROR", "UNKNOWN_SERVER_ERROR"},
	"Produce":                {"CORRUPT_MESSAGE", "UNKNOWN_TOPIC_OR_PARTITION", "NOT_LEADER_OR_FOLLOWER", "MESSAGE_TOO_LARGE", "INVALID_TOPIC_EXCEPTION", "RECORD_LIST_TOO_LARGE", "NOT_ENOUGH_REPLICAS", "NOT_ENOUGH_REPLICAS_AFTER_APPEND", "INVALID_REQUIRED_ACKS", "TOPIC_AUTHORIZATION_FAILED", "UNSUPPORTED_FOR_MESSAGE_FORMAT", "INVALID_PRODUCER_EPOCH", "CLUSTER_AUTHORIZATION_FAILED", "TRANSACTIONAL_ID_AUTHORIZATION_FAILED", "INVALID_RECORD", "INVALID_TXN_STATE", "INVALID_PRODUCER_ID_MAPPING"},
	"ShareAcknowledge":       {"GROUP_AUTHORIZATION_FAILED", "TOPIC_AUTHORIZATION_FAILED", "UNKNOWN_TOPIC_OR_PARTITION", "NOT_LEADER_OR_FOLLOWER", "UNKNOWN_TOPIC_ID", "INVALID_RECORD_STATE", "KAFKA_STORAGE_ERROR", "INVALID_REQUEST", "UNKNOWN_SERVER_ERROR"},
	"ShareFetch":             {"GROUP_AUTHORIZATION_FAILED", "TOPIC_AUTHORIZATION_FAILED", "UNKNOWN_TOPIC_OR_PARTITION", "NOT_LEADER_OR_FOLLOWER", "UNKNOWN_TOPIC_ID", "INVALID_RECORD_STATE", "KAFKA_STORAGE_ERROR", "CORRUPT_MESSAGE", "INVALID_REQUEST", "UNKNOWN_SERVER_ERROR"},
	"ShareGroupDescribe":     {"GROUP_AUTHORIZATION_FAILED", "NOT_COORDINATOR", "COORDINATOR_NOT_AVAILABLE", "COORDINATOR_LOAD_IN_PROGRESS", "INVALID_REQUEST", "INVALID_GROUP_ID", "GROUP_ID_NOT_FOUND"},
	"ShareGroupHeartbeat":    {"GROUP_AUTHORIZATION_FAILED", "NOT_COORDINATOR", "COORDINATOR_NOT_AVAILABLE", "COORDINATOR_LOAD_IN_PROGRESS", "INVALID_REQUEST", "UNKNOWN_MEMBER_ID", "GROUP_MAX_SIZE_REACHED"},
	"StopReplica":            {"STALE_CONTROLLER_EPOCH", "STALE_BROKER_EPOCH", "FENCED_LEADER_EPOCH", "KAFKA_STORAGE_ERROR"},
	"TxnOffsetCommit":        {"INVALID_PRODUCER_EPOCH", "NOT_COORDINATOR", "COORDINATOR_NOT_AVAILABLE", "COORDINATOR_LOAD_IN_PROGRESS", "OFFSET_METADATA_TOO_LARGE", "GROUP_AUTHORIZATION_FAILED", "INVALID_COMMIT_OFFSET_SIZE", "TRANSACTIONAL_ID_AUTHORIZATION_FAILED", "UNSUPPORTED_FOR_MESSAGE_FORMAT", "REQUEST_TIMED_OUT", "UNKNOWN_MEMBER_ID", "FENCED_INSTANCE_ID", "ILLEGAL_GENERATION"},
	"UpdateFeatures":         {"CLUSTER_AUTHORIZATION_FAILED", "NOT_CONTROLLER", "INVALID_REQUEST", "FEATURE_UPDATE_FAILED"},
	"Vote":                   {"CLUSTER_AUTHORIZATION_FAILED", "BROKER_NOT_AVAILABLE", "FENCED_LEADER_EPOCH", "INVALID_REQUEST", "INCONSISTENT_VOTER_SET", "UNKNOWN_TOPIC_OR_PARTITION"},
	"WriteTxnMarkers":        {"CORRUPT_MESSAGE", "INVALID_PRODUCER_EPOCH", "UNKNOWN_TOPIC_OR_PARTITION", "NOT_LEADER_OR_FOLLOWER", "MESSAGE_TOO_LARGE", "RECORD_LIST_TOO_LARGE", "NOT_ENOUGH_REPLICAS", "NOT_ENOUGH_REPLICAS_AFTER_APPEND", "INVALID_REQUIRED_ACKS", "TRANSACTION_COORDINATOR_FENCED", "REQUEST_TIMED_OUT", "CLUSTER_AUTHORIZATION_FAILED"},
}

// kmsgErrorLists are, for the APIs whose response class in Kafka lists no possible codes, the
// codes franz-go's kmsg documents as returned in the response's field docs ("X is returned
// if …", github.com/twmb/franz-go/pkg/kmsg v1.15.1, generated.go), in the order documented,
// with the names Kafka has since given two codes (kmsg's NOT_LEADER_FOR_PARTITION is
// NOT_LEADER_OR_FOLLOWER, its KAFKA_STORAGE_EXCEPTION KAFKA_STORAGE_ERROR):
// 22 more APIs, said on errors.html as franz-go's. Names that are no error code are dropped
// where the lists are read (errorCodeRows), and TestKafkaErrorLists holds there are none.
var kmsgErrorLists = map[string][]string{
	"AlterConfigs":               {"CLUSTER_AUTHORIZATION_FAILED", "TOPIC_AUTHORIZATION_FAILED", "INVALID_TOPIC_EXCEPTION", "UNKNOWN_TOPIC_OR_PARTITION", "INVALID_REQUEST"},
	"CreatePartitions":           {"NOT_CONTROLLER", "TOPIC_AUTHORIZATION_FAILED", "INVALID_REQUEST", "INVALID_TOPIC_EXCEPTION", "REASSIGNMENT_IN_PROGRESS", "UNKNOWN_TOPIC_OR_PARTITION", "INVALID_PARTITIONS"},
	"CreateTopics":               {"NOT_CONTROLLER", "TOPIC_AUTHORIZATION_FAILED", "INVALID_REQUEST", "POLICY_VIOLATION", "TOPIC_ALREADY_EXISTS", "INVALID_PARTITIONS", "INVALID_REPLICATION_FACTOR", "INVALID_REPLICA_ASSIGNMENT", "INVALID_CONFIG"},
	"DeleteGroups":               {"GROUP_AUTHORIZATION_FAILED", "INVALID_GROUP_ID", "COORDINATOR_NOT_AVAILABLE", "GROUP_ID_NOT_FOUND", "NON_EMPTY_GROUP"},
	"DeleteRecords":              {"TOPIC_AUTHORIZATION_FAILED", "UNKNOWN_TOPIC_OR_PARTITION", "NOT_LEADER_OR_FOLLOWER", "OFFSET_OUT_OF_RANGE", "POLICY_VIOLATION", "KAFKA_STORAGE_ERROR"},
	"DeleteTopics":               {"TOPIC_AUTHORIZATION_FAILED", "UNKNOWN_TOPIC_OR_PARTITION", "NOT_CONTROLLER", "TOPIC_DELETION_DISABLED", "UNSUPPORTED_VERSION", "UNKNOWN_TOPIC_ID"},
	"DescribeConfigs":            {"INVALID_REQUEST", "CLUSTER_AUTHORIZATION_FAILED", "TOPIC_AUTHORIZATION_FAILED", "INVALID_TOPIC_EXCEPTION", "UNKNOWN_TOPIC_OR_PARTITION"},
	"DescribeGroups":             {"GROUP_AUTHORIZATION_FAILED", "INVALID_GROUP_ID", "COORDINATOR_NOT_AVAILABLE", "COORDINATOR_LOAD_IN_PROGRESS", "NOT_COORDINATOR", "GROUP_ID_NOT_FOUND"},
	"DescribeLogDirs":            {"KAFKA_STORAGE_ERROR"},
	"DescribeProducers":          {"NOT_LEADER_OR_FOLLOWER", "TOPIC_AUTHORIZATION_FAILED", "UNKNOWN_TOPIC_OR_PARTITION"},
	"DescribeTransactions":       {"NOT_COORDINATOR", "COORDINATOR_LOAD_IN_PROGRESS", "COORDINATOR_NOT_AVAILABLE", "TRANSACTIONAL_ID_NOT_FOUND", "TRANSACTIONAL_ID_AUTHORIZATION_FAILED"},
	"ElectLeaders":               {"CLUSTER_AUTHORIZATION_FAILED", "NOT_CONTROLLER", "UNKNOWN_TOPIC_OR_PARTITION", "PREFERRED_LEADER_NOT_AVAILABLE"},
	"Envelope":                   {"NOT_CONTROLLER", "CLUSTER_AUTHORIZATION_FAILED"},
	"FindCoordinator":            {"GROUP_AUTHORIZATION_FAILED", "TRANSACTIONAL_ID_AUTHORIZATION_FAILED", "INVALID_REQUEST", "COORDINATOR_NOT_AVAILABLE"},
	"Heartbeat":                  {"GROUP_AUTHORIZATION_FAILED", "INVALID_GROUP_ID", "COORDINATOR_NOT_AVAILABLE", "NOT_COORDINATOR", "UNKNOWN_MEMBER_ID", "ILLEGAL_GENERATION", "REBALANCE_IN_PROGRESS"},
	"IncrementalAlterConfigs":    {"CLUSTER_AUTHORIZATION_FAILED", "TOPIC_AUTHORIZATION_FAILED", "INVALID_TOPIC_EXCEPTION", "UNKNOWN_TOPIC_OR_PARTITION", "INVALID_REQUEST"},
	"JoinGroup":                  {"GROUP_AUTHORIZATION_FAILED", "INVALID_GROUP_ID", "COORDINATOR_NOT_AVAILABLE", "COORDINATOR_LOAD_IN_PROGRESS", "NOT_COORDINATOR", "INVALID_SESSION_TIMEOUT", "INCONSISTENT_GROUP_PROTOCOL", "UNKNOWN_MEMBER_ID", "MEMBER_ID_REQUIRED", "GROUP_MAX_SIZE_REACHED"},
	"ListGroups":                 {"COORDINATOR_NOT_AVAILABLE", "COORDINATOR_LOAD_IN_PROGRESS"},
	"ListPartitionReassignments": {"REQUEST_TIMED_OUT", "NOT_CONTROLLER", "CLUSTER_AUTHORIZATION_FAILED"},
	"ListTransactions":           {"COORDINATOR_LOAD_IN_PROGRESS", "COORDINATOR_NOT_AVAILABLE", "INVALID_REGULAR_EXPRESSION"},
	"Metadata":                   {"LEADER_NOT_AVAILABLE", "LISTENER_NOT_FOUND", "REPLICA_NOT_AVAILABLE", "UNKNOWN_TOPIC_ID", "TOPIC_AUTHORIZATION_FAILED", "UNKNOWN_TOPIC_OR_PARTITION"},
	"SyncGroup":                  {"GROUP_AUTHORIZATION_FAILED", "INVALID_GROUP_ID", "COORDINATOR_NOT_AVAILABLE", "NOT_COORDINATOR", "UNKNOWN_MEMBER_ID", "ILLEGAL_GENERATION", "REBALANCE_IN_PROGRESS", "UNKNOWN_SERVER_ERROR"},
}

// sourcedList is a list of the codes an API's response can carry and where in Kafka's code it
// was read.
type sourcedList struct {
	From  string // "Kafka's Admin.java (what alterClientQuotas anticipates)"
	Codes []string
}

// kafkaCodeErrorLists are, for the 28 APIs whose response class lists no possible codes and
// that kmsgErrorLists do not cover, the codes Kafka's own code gives for the API, read in apache/kafka at the same commit
// (1eb7644349cb), in the order the source has them: the exceptions the Admin client's javadoc
// says "can be anticipated" from the API's method (clients/…/admin/Admin.java; its
// TimeoutException left out, the client's own deadline, and each exception named by the code
// Errors.java maps it to: UnsupportedByAuthenticationException is
// DELEGATION_TOKEN_REQUEST_NOT_ALLOWED), else the codes (Errors.X) and the exceptions that the
// broker's or controller's handler of the API sends or throws, the method named. errors.html
// says which source each list comes from. A handler reached through other code can send more.
var kafkaCodeErrorLists = map[string]sourcedList{
	"AddRaftVoter":                 {"Kafka's AddVoterHandler.java (the codes it sends)", []string{"REQUEST_TIMED_OUT", "UNSUPPORTED_VERSION", "DUPLICATE_VOTER", "UNKNOWN_SERVER_ERROR", "INVALID_REQUEST"}},
	"AllocateProducerIds":          {"Kafka's ProducerIdControlManager.java (generateNextProducerId)", []string{"STALE_BROKER_EPOCH", "UNKNOWN_SERVER_ERROR"}},
	"AlterClientQuotas":            {"Kafka's Admin.java (what alterClientQuotas anticipates)", []string{"CLUSTER_AUTHORIZATION_FAILED", "INVALID_REQUEST"}},
	"AlterPartitionReassignments":  {"Kafka's Admin.java (what alterPartitionReassignments anticipates)", []string{"CLUSTER_AUTHORIZATION_FAILED", "UNKNOWN_TOPIC_OR_PARTITION", "INVALID_REPLICA_ASSIGNMENT", "NO_REASSIGNMENT_IN_PROGRESS"}},
	"AlterUserScramCredentials":    {"Kafka's Admin.java (what alterUserScramCredentials anticipates)", []string{"NOT_CONTROLLER", "CLUSTER_AUTHORIZATION_FAILED", "DELEGATION_TOKEN_REQUEST_NOT_ALLOWED", "UNSUPPORTED_SASL_MECHANISM", "UNACCEPTABLE_CREDENTIAL"}},
	"AssignReplicasToDirs":         {"Kafka's ReplicationControlManager.java (handleAssignReplicasToDirs)", []string{"UNSUPPORTED_VERSION", "BROKER_ID_NOT_REGISTERED", "UNKNOWN_TOPIC_ID", "UNKNOWN_TOPIC_OR_PARTITION", "NOT_LEADER_OR_FOLLOWER"}},
	"BrokerHeartbeat":              {"Kafka's QuorumController.java (processBrokerHeartbeat)", []string{"STALE_BROKER_EPOCH"}},
	"BrokerRegistration":           {"Kafka's ClusterControlManager.java (registerBroker)", []string{"INCONSISTENT_CLUSTER_ID", "DUPLICATE_BROKER_REGISTRATION", "BROKER_ID_NOT_REGISTERED", "INVALID_REGISTRATION"}},
	"ControllerRegistration":       {"Kafka's ClusterControlManager.java (registerController)", []string{"UNSUPPORTED_VERSION"}},
	"CreateAcls":                   {"Kafka's AclApis.scala (handleCreateAcls)", []string{"SECURITY_DISABLED", "INVALID_REQUEST"}},
	"CreateDelegationToken":        {"Kafka's Admin.java (what createDelegationToken anticipates)", []string{"DELEGATION_TOKEN_REQUEST_NOT_ALLOWED", "INVALID_PRINCIPAL_TYPE", "DELEGATION_TOKEN_AUTH_DISABLED"}},
	"DeleteAcls":                   {"Kafka's AclApis.scala (handleDeleteAcls)", []string{"SECURITY_DISABLED"}},
	"DescribeAcls":                 {"Kafka's AclApis.scala (handleDescribeAcls)", []string{"SECURITY_DISABLED"}},
	"DescribeClientQuotas":         {"Kafka's Admin.java (what describeClientQuotas anticipates)", []string{"CLUSTER_AUTHORIZATION_FAILED", "INVALID_REQUEST"}},
	"DescribeDelegationToken":      {"Kafka's Admin.java (what describeDelegationToken anticipates)", []string{"DELEGATION_TOKEN_REQUEST_NOT_ALLOWED", "DELEGATION_TOKEN_AUTH_DISABLED"}},
	"DescribeTopicPartitions":      {"Kafka's DescribeTopicPartitionsRequestHandler.java and KafkaApis.scala", []string{"INVALID_REQUEST", "TOPIC_AUTHORIZATION_FAILED", "UNSUPPORTED_VERSION"}},
	"DescribeUserScramCredentials": {"Kafka's Admin.java (what describeUserScramCredentials anticipates)", []string{"CLUSTER_AUTHORIZATION_FAILED", "RESOURCE_NOT_FOUND", "DUPLICATE_RESOURCE"}},
	"ExpireDelegationToken":        {"Kafka's Admin.java (what expireDelegationToken anticipates)", []string{"DELEGATION_TOKEN_REQUEST_NOT_ALLOWED", "DELEGATION_TOKEN_AUTH_DISABLED", "DELEGATION_TOKEN_NOT_FOUND", "DELEGATION_TOKEN_OWNER_MISMATCH", "DELEGATION_TOKEN_EXPIRED"}},
	"FetchSnapshot":                {"Kafka's KafkaRaftClient.java (handleFetchSnapshotRequest)", []string{"INCONSISTENT_CLUSTER_ID", "INVALID_REQUEST", "UNKNOWN_TOPIC_OR_PARTITION", "SNAPSHOT_NOT_FOUND", "POSITION_OUT_OF_RANGE"}},
	"GetTelemetrySubscriptions":    {"Kafka's KafkaApis.scala and ClientMetricsManager.java", []string{"INVALID_REQUEST", "UNSUPPORTED_VERSION", "THROTTLING_QUOTA_EXCEEDED"}},
	"ListClientMetricsResources":   {"Kafka's KafkaApis.scala (handleListClientMetricsResources)", []string{"CLUSTER_AUTHORIZATION_FAILED", "UNSUPPORTED_VERSION"}},
	"PushTelemetry":                {"Kafka's KafkaApis.scala and ClientMetricsManager.java", []string{"INVALID_REQUEST", "UNSUPPORTED_VERSION", "THROTTLING_QUOTA_EXCEEDED", "UNKNOWN_SUBSCRIPTION_ID", "UNSUPPORTED_COMPRESSION_TYPE", "TELEMETRY_TOO_LARGE", "INVALID_RECORD"}},
	"RemoveRaftVoter":              {"Kafka's RemoveVoterHandler.java (the codes it sends)", []string{"REQUEST_TIMED_OUT", "UNSUPPORTED_VERSION", "VOTER_NOT_FOUND", "UNKNOWN_SERVER_ERROR"}},
	"RenewDelegationToken":         {"Kafka's Admin.java (what renewDelegationToken anticipates)", []string{"DELEGATION_TOKEN_REQUEST_NOT_ALLOWED", "DELEGATION_TOKEN_AUTH_DISABLED", "DELEGATION_TOKEN_NOT_FOUND", "DELEGATION_TOKEN_OWNER_MISMATCH", "DELEGATION_TOKEN_EXPIRED"}},
	"SaslAuthenticate":             {"Kafka's SaslServerAuthenticator.java and KafkaApis.scala", []string{"SASL_AUTHENTICATION_FAILED", "ILLEGAL_SASL_STATE"}},
	"SaslHandshake":                {"Kafka's SaslServerAuthenticator.java and KafkaApis.scala", []string{"UNSUPPORTED_SASL_MECHANISM", "ILLEGAL_SASL_STATE"}},
	"UnregisterBroker":             {"Kafka's Admin.java (what unregisterBroker anticipates)", []string{"UNSUPPORTED_VERSION"}},
	"UpdateRaftVoter":              {"Kafka's UpdateVoterHandler.java (the codes it sends)", []string{"REQUEST_TIMED_OUT", "UNSUPPORTED_VERSION", "INVALID_REQUEST", "VOTER_NOT_FOUND"}},
}

// errorList returns the codes an API's response is documented to carry beyond its schema's
// comments, and where they come from: Kafka's own response class, else Kafka's Admin client
// or the API's handler (kafkaCodeErrorLists), else franz-go's kmsg.
func errorList(api string) ([]string, string) {
	if l, ok := kafkaErrorLists[api]; ok {
		return l, "Kafka's " + api + "Response.java"
	}
	if l, ok := kafkaCodeErrorLists[api]; ok {
		return l.Codes, l.From
	}
	if l, ok := kmsgErrorLists[api]; ok {
		return l, "franz-go's kmsg docs"
	}
	return nil, ""
}
