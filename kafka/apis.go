package kafka

import (
	"errors"
	"io/fs"
	"slices"
	"sort"
)

// The API keys Kafka assigns, named as the latest release kafkagrid knows names them (key 2
// was ListOffset before 2.5, 43 ElectPreferredLeaders before 2.4, 56 AlterIsr before 3.2, 74
// ListClientMetricsResources before 4.1). The code names keys by these constants, never by
// number; the schemas say which keys a release has.
const (
	KeyProduce                      int16 = 0
	KeyFetch                        int16 = 1
	KeyListOffsets                  int16 = 2
	KeyMetadata                     int16 = 3
	KeyLeaderAndIsr                 int16 = 4
	KeyStopReplica                  int16 = 5
	KeyUpdateMetadata               int16 = 6
	KeyControlledShutdown           int16 = 7
	KeyOffsetCommit                 int16 = 8
	KeyOffsetFetch                  int16 = 9
	KeyFindCoordinator              int16 = 10
	KeyJoinGroup                    int16 = 11
	KeyHeartbeat                    int16 = 12
	KeyLeaveGroup                   int16 = 13
	KeySyncGroup                    int16 = 14
	KeyDescribeGroups               int16 = 15
	KeyListGroups                   int16 = 16
	KeySaslHandshake                int16 = 17
	KeyApiVersions                  int16 = 18
	KeyCreateTopics                 int16 = 19
	KeyDeleteTopics                 int16 = 20
	KeyDeleteRecords                int16 = 21
	KeyInitProducerId               int16 = 22
	KeyOffsetForLeaderEpoch         int16 = 23
	KeyAddPartitionsToTxn           int16 = 24
	KeyAddOffsetsToTxn              int16 = 25
	KeyEndTxn                       int16 = 26
	KeyWriteTxnMarkers              int16 = 27
	KeyTxnOffsetCommit              int16 = 28
	KeyDescribeAcls                 int16 = 29
	KeyCreateAcls                   int16 = 30
	KeyDeleteAcls                   int16 = 31
	KeyDescribeConfigs              int16 = 32
	KeyAlterConfigs                 int16 = 33
	KeyAlterReplicaLogDirs          int16 = 34
	KeyDescribeLogDirs              int16 = 35
	KeySaslAuthenticate             int16 = 36
	KeyCreatePartitions             int16 = 37
	KeyCreateDelegationToken        int16 = 38
	KeyRenewDelegationToken         int16 = 39
	KeyExpireDelegationToken        int16 = 40
	KeyDescribeDelegationToken      int16 = 41
	KeyDeleteGroups                 int16 = 42
	KeyElectLeaders                 int16 = 43
	KeyIncrementalAlterConfigs      int16 = 44
	KeyAlterPartitionReassignments  int16 = 45
	KeyListPartitionReassignments   int16 = 46
	KeyOffsetDelete                 int16 = 47
	KeyDescribeClientQuotas         int16 = 48
	KeyAlterClientQuotas            int16 = 49
	KeyDescribeUserScramCredentials int16 = 50
	KeyAlterUserScramCredentials    int16 = 51
	KeyVote                         int16 = 52
	KeyBeginQuorumEpoch             int16 = 53
	KeyEndQuorumEpoch               int16 = 54
	KeyDescribeQuorum               int16 = 55
	KeyAlterPartition               int16 = 56
	KeyUpdateFeatures               int16 = 57
	KeyEnvelope                     int16 = 58
	KeyFetchSnapshot                int16 = 59
	KeyDescribeCluster              int16 = 60
	KeyDescribeProducers            int16 = 61
	KeyBrokerRegistration           int16 = 62
	KeyBrokerHeartbeat              int16 = 63
	KeyUnregisterBroker             int16 = 64
	KeyDescribeTransactions         int16 = 65
	KeyListTransactions             int16 = 66
	KeyAllocateProducerIds          int16 = 67
	KeyConsumerGroupHeartbeat       int16 = 68
	KeyConsumerGroupDescribe        int16 = 69
	KeyControllerRegistration       int16 = 70
	KeyGetTelemetrySubscriptions    int16 = 71
	KeyPushTelemetry                int16 = 72
	KeyAssignReplicasToDirs         int16 = 73
	KeyListConfigResources          int16 = 74
	KeyDescribeTopicPartitions      int16 = 75
	KeyShareGroupHeartbeat          int16 = 76
	KeyShareGroupDescribe           int16 = 77
	KeyShareFetch                   int16 = 78
	KeyShareAcknowledge             int16 = 79
	KeyAddRaftVoter                 int16 = 80
	KeyRemoveRaftVoter              int16 = 81
	KeyUpdateRaftVoter              int16 = 82
	KeyInitializeShareGroupState    int16 = 83
	KeyReadShareGroupState          int16 = 84
	KeyWriteShareGroupState         int16 = 85
	KeyDeleteShareGroupState        int16 = 86
	KeyReadShareGroupStateSummary   int16 = 87
	KeyStreamsGroupHeartbeat        int16 = 88
	KeyStreamsGroupDescribe         int16 = 89
	KeyDescribeShareGroupOffsets    int16 = 90
	KeyAlterShareGroupOffsets       int16 = 91
	KeyDeleteShareGroupOffsets      int16 = 92
)

// Facts is what kafkagrid knows of an API beyond its schemas: the one table of such facts
// (apiFacts), which every package reads instead of comparing keys or names itself.
type Facts struct {
	Key  int16
	Name string // the API's name, as its request spec names it without "Request"
	// Purpose says in one line what the API is for (the index and the book show it). Sources:
	// the Kafka protocol guide, https://kafka.apache.org/protocol, and the KIPs that added each.
	Purpose string
	// Category is the reference index's section (see Categories); APIs of one category are
	// listed by key.
	Category string
	// ReadOnly APIs change nothing on the broker: probe sends them without -write.
	ReadOnly bool
	// Records says that a message of the API has a records field (record batches, or a legacy
	// message set in Produce v0-v2 and Fetch v0-v3).
	Records bool
	// V0HeaderV0: the API's v0 request uses request header v0, which has no ClientId
	// (ControlledShutdown, as Kafka's generator says: ApiMessageTypeGenerator,
	// requestHeaderVersion). Every other request uses header v1, or v2 when flexible.
	V0HeaderV0 bool
	// ResponseHeaderV0: the API's responses always use response header v0, so that a client
	// can read one whatever version it asked for, and a broker answers a version it does not
	// speak in v0 with its own range (ApiVersions, KIP-511; see DecodeResponse).
	ResponseHeaderV0 bool
	// BareTokensAfterV0: after a v0 request of the API succeeds, the SASL tokens travel bare, a
	// size and the mechanism's bytes without a Kafka header (SaslHandshake v0, KIP-43); from v1
	// they travel in SaslAuthenticate.
	BareTokensAfterV0 bool
	// Envelope: the request's RequestData and the response's ResponseData carry a whole
	// request or response, without its size prefix (Envelope, KIP-590).
	Envelope bool
}

// The categories of the index, in the order it shows them.
const (
	catRecords   = "Records"
	catGroups    = "Consumer groups"
	catShare     = "Share groups"
	catStreams   = "Streams groups"
	catTxn       = "Transactions"
	catTopics    = "Topics and partitions"
	catSecurity  = "Security and ACLs"
	catConfig    = "Configuration and quotas"
	catCluster   = "Cluster and KRaft"
	catZooKeeper = "ZooKeeper-era inter-broker"
)

var categoryOrder = []string{catRecords, catGroups, catShare, catStreams, catTxn, catTopics, catSecurity, catConfig, catCluster, catZooKeeper}

// apiFacts holds a row for every name of every API key of Kafka 2.2 to 4.1, by key; a key
// renamed has a row for each name (its purpose may differ). An API it lacks (a newer
// release's) gets the defaults FactsOf gives.
var apiFacts = []Facts{
	{Key: KeyProduce, Name: "Produce", Category: catRecords, Records: true,
		Purpose: "Append record batches to partitions."},
	{Key: KeyFetch, Name: "Fetch", Category: catRecords, ReadOnly: true, Records: true,
		Purpose: "Read record batches from partitions (consumers and follower replicas)."},
	{Key: KeyListOffsets, Name: "ListOffset", Category: catRecords, ReadOnly: true,
		Purpose: "Find the offset of a partition for a timestamp, or its earliest or latest offset (ListOffsets since 2.5)."},
	{Key: KeyListOffsets, Name: "ListOffsets", Category: catRecords, ReadOnly: true,
		Purpose: "Find the offset of a partition for a timestamp, or its earliest or latest offset."},
	{Key: KeyMetadata, Name: "Metadata", Category: catTopics, ReadOnly: true,
		Purpose: "Learn the brokers, topics, partitions and their leaders."},
	{Key: KeyLeaderAndIsr, Name: "LeaderAndIsr", Category: catZooKeeper,
		Purpose: "Controller to broker: the leaders and in-sync replicas of partitions (ZooKeeper era)."},
	{Key: KeyStopReplica, Name: "StopReplica", Category: catZooKeeper,
		Purpose: "Controller to broker: stop replicating partitions (ZooKeeper era)."},
	{Key: KeyUpdateMetadata, Name: "UpdateMetadata", Category: catZooKeeper,
		Purpose: "Controller to broker: the cluster's metadata (ZooKeeper era)."},
	{Key: KeyControlledShutdown, Name: "ControlledShutdown", Category: catZooKeeper, V0HeaderV0: true,
		Purpose: "Broker to controller: ask to shut down cleanly (ZooKeeper era)."},
	{Key: KeyOffsetCommit, Name: "OffsetCommit", Category: catGroups,
		Purpose: "Commit a consumer group's offsets."},
	{Key: KeyOffsetFetch, Name: "OffsetFetch", Category: catGroups, ReadOnly: true,
		Purpose: "Read a consumer group's committed offsets."},
	{Key: KeyFindCoordinator, Name: "FindCoordinator", Category: catGroups, ReadOnly: true,
		Purpose: "Find the broker coordinating a group, a transaction or a share group."},
	{Key: KeyJoinGroup, Name: "JoinGroup", Category: catGroups,
		Purpose: "Join a classic consumer group and take part in its rebalance."},
	{Key: KeyHeartbeat, Name: "Heartbeat", Category: catGroups,
		Purpose: "Keep a classic group membership alive."},
	{Key: KeyLeaveGroup, Name: "LeaveGroup", Category: catGroups,
		Purpose: "Leave a classic consumer group."},
	{Key: KeySyncGroup, Name: "SyncGroup", Category: catGroups,
		Purpose: "Receive the partition assignment of a classic group rebalance."},
	{Key: KeyDescribeGroups, Name: "DescribeGroups", Category: catGroups, ReadOnly: true,
		Purpose: "Describe classic consumer groups and their members."},
	{Key: KeyListGroups, Name: "ListGroups", Category: catGroups, ReadOnly: true,
		Purpose: "List the groups a broker coordinates."},
	{Key: KeySaslHandshake, Name: "SaslHandshake", Category: catSecurity, BareTokensAfterV0: true,
		Purpose: "Choose a SASL mechanism before authenticating."},
	{Key: KeyApiVersions, Name: "ApiVersions", Category: catCluster, ReadOnly: true, ResponseHeaderV0: true,
		Purpose: "Learn the API versions and features a broker supports; the first request on a connection."},
	{Key: KeyCreateTopics, Name: "CreateTopics", Category: catTopics,
		Purpose: "Create topics."},
	{Key: KeyDeleteTopics, Name: "DeleteTopics", Category: catTopics,
		Purpose: "Delete topics."},
	{Key: KeyDeleteRecords, Name: "DeleteRecords", Category: catTopics,
		Purpose: "Delete the records of partitions before an offset."},
	{Key: KeyInitProducerId, Name: "InitProducerId", Category: catTxn,
		Purpose: "Get a producer id and epoch for idempotent or transactional producing."},
	{Key: KeyOffsetForLeaderEpoch, Name: "OffsetForLeaderEpoch", Category: catTopics, ReadOnly: true,
		Purpose: "Find the end offset of a leader epoch, to truncate a log after a leader change."},
	{Key: KeyAddPartitionsToTxn, Name: "AddPartitionsToTxn", Category: catTxn,
		Purpose: "Add partitions to a transaction."},
	{Key: KeyAddOffsetsToTxn, Name: "AddOffsetsToTxn", Category: catTxn,
		Purpose: "Add a consumer group's offsets to a transaction."},
	{Key: KeyEndTxn, Name: "EndTxn", Category: catTxn,
		Purpose: "Commit or abort a transaction."},
	{Key: KeyWriteTxnMarkers, Name: "WriteTxnMarkers", Category: catTxn,
		Purpose: "Coordinator to broker: write commit or abort markers."},
	{Key: KeyTxnOffsetCommit, Name: "TxnOffsetCommit", Category: catTxn,
		Purpose: "Commit a consumer group's offsets within a transaction."},
	{Key: KeyDescribeAcls, Name: "DescribeAcls", Category: catSecurity, ReadOnly: true,
		Purpose: "List the ACLs matching a filter."},
	{Key: KeyCreateAcls, Name: "CreateAcls", Category: catSecurity,
		Purpose: "Create ACLs."},
	{Key: KeyDeleteAcls, Name: "DeleteAcls", Category: catSecurity,
		Purpose: "Delete the ACLs matching filters."},
	{Key: KeyDescribeConfigs, Name: "DescribeConfigs", Category: catConfig, ReadOnly: true,
		Purpose: "Read the configuration of topics, brokers and other resources."},
	{Key: KeyAlterConfigs, Name: "AlterConfigs", Category: catConfig,
		Purpose: "Replace the configuration of resources (superseded by IncrementalAlterConfigs)."},
	{Key: KeyAlterReplicaLogDirs, Name: "AlterReplicaLogDirs", Category: catTopics,
		Purpose: "Move replicas between a broker's log directories."},
	{Key: KeyDescribeLogDirs, Name: "DescribeLogDirs", Category: catTopics, ReadOnly: true,
		Purpose: "Describe a broker's log directories and the replicas in them."},
	{Key: KeySaslAuthenticate, Name: "SaslAuthenticate", Category: catSecurity,
		Purpose: "Carry SASL authentication bytes."},
	{Key: KeyCreatePartitions, Name: "CreatePartitions", Category: catTopics,
		Purpose: "Add partitions to topics."},
	{Key: KeyCreateDelegationToken, Name: "CreateDelegationToken", Category: catSecurity,
		Purpose: "Create a delegation token."},
	{Key: KeyRenewDelegationToken, Name: "RenewDelegationToken", Category: catSecurity,
		Purpose: "Extend a delegation token's expiry."},
	{Key: KeyExpireDelegationToken, Name: "ExpireDelegationToken", Category: catSecurity,
		Purpose: "Expire a delegation token."},
	{Key: KeyDescribeDelegationToken, Name: "DescribeDelegationToken", Category: catSecurity, ReadOnly: true,
		Purpose: "Describe delegation tokens."},
	{Key: KeyDeleteGroups, Name: "DeleteGroups", Category: catGroups,
		Purpose: "Delete consumer groups."},
	{Key: KeyElectLeaders, Name: "ElectPreferredLeaders", Category: catTopics,
		Purpose: "Elect the preferred leaders of partitions (ElectLeaders since 2.4)."},
	{Key: KeyElectLeaders, Name: "ElectLeaders", Category: catTopics,
		Purpose: "Elect preferred or unclean leaders for partitions."},
	{Key: KeyIncrementalAlterConfigs, Name: "IncrementalAlterConfigs", Category: catConfig,
		Purpose: "Set, delete, append to or subtract from configuration entries."},
	{Key: KeyAlterPartitionReassignments, Name: "AlterPartitionReassignments", Category: catTopics,
		Purpose: "Start or cancel partition reassignments."},
	{Key: KeyListPartitionReassignments, Name: "ListPartitionReassignments", Category: catTopics, ReadOnly: true,
		Purpose: "List the partition reassignments in progress."},
	{Key: KeyOffsetDelete, Name: "OffsetDelete", Category: catGroups,
		Purpose: "Delete a consumer group's committed offsets for partitions."},
	{Key: KeyDescribeClientQuotas, Name: "DescribeClientQuotas", Category: catConfig, ReadOnly: true,
		Purpose: "Read client quotas."},
	{Key: KeyAlterClientQuotas, Name: "AlterClientQuotas", Category: catConfig,
		Purpose: "Set or remove client quotas."},
	{Key: KeyDescribeUserScramCredentials, Name: "DescribeUserScramCredentials", Category: catSecurity, ReadOnly: true,
		Purpose: "Describe users' SCRAM credentials."},
	{Key: KeyAlterUserScramCredentials, Name: "AlterUserScramCredentials", Category: catSecurity,
		Purpose: "Set or delete users' SCRAM credentials."},
	{Key: KeyVote, Name: "Vote", Category: catCluster,
		Purpose: "KRaft: ask for a vote in a controller quorum election."},
	{Key: KeyBeginQuorumEpoch, Name: "BeginQuorumEpoch", Category: catCluster,
		Purpose: "KRaft: a new leader announces its epoch to the voters."},
	{Key: KeyEndQuorumEpoch, Name: "EndQuorumEpoch", Category: catCluster,
		Purpose: "KRaft: a leader steps down."},
	{Key: KeyDescribeQuorum, Name: "DescribeQuorum", Category: catCluster, ReadOnly: true,
		Purpose: "KRaft: describe the controller quorum and its replication state."},
	{Key: KeyAlterPartition, Name: "AlterIsr", Category: catTopics,
		Purpose: "Leader to controller: change a partition's in-sync replicas (AlterPartition since 3.2)."},
	{Key: KeyAlterPartition, Name: "AlterPartition", Category: catTopics,
		Purpose: "Leader to controller: change a partition's in-sync replicas."},
	{Key: KeyUpdateFeatures, Name: "UpdateFeatures", Category: catCluster,
		Purpose: "Change the cluster's finalized feature levels."},
	{Key: KeyEnvelope, Name: "Envelope", Category: catCluster, Envelope: true,
		Purpose: "Broker to controller: forward a client's request, wrapped with its principal."},
	{Key: KeyFetchSnapshot, Name: "FetchSnapshot", Category: catCluster, Records: true,
		Purpose: "KRaft: fetch a snapshot of the metadata log."},
	{Key: KeyDescribeCluster, Name: "DescribeCluster", Category: catCluster, ReadOnly: true,
		Purpose: "Describe the cluster: its id, controller and brokers."},
	{Key: KeyDescribeProducers, Name: "DescribeProducers", Category: catTxn, ReadOnly: true,
		Purpose: "Describe the active producers of partitions."},
	{Key: KeyBrokerRegistration, Name: "BrokerRegistration", Category: catCluster,
		Purpose: "KRaft: a broker registers with the controller."},
	{Key: KeyBrokerHeartbeat, Name: "BrokerHeartbeat", Category: catCluster,
		Purpose: "KRaft: a broker's heartbeat to the controller."},
	{Key: KeyUnregisterBroker, Name: "UnregisterBroker", Category: catCluster,
		Purpose: "KRaft: remove a broker's registration."},
	{Key: KeyDescribeTransactions, Name: "DescribeTransactions", Category: catTxn, ReadOnly: true,
		Purpose: "Describe transactions by transactional id."},
	{Key: KeyListTransactions, Name: "ListTransactions", Category: catTxn, ReadOnly: true,
		Purpose: "List the transactions a broker coordinates."},
	{Key: KeyAllocateProducerIds, Name: "AllocateProducerIds", Category: catTxn,
		Purpose: "Broker to controller: get a block of producer ids."},
	{Key: KeyConsumerGroupHeartbeat, Name: "ConsumerGroupHeartbeat", Category: catGroups,
		Purpose: "Join, stay in and leave a consumer group of the new protocol (KIP-848)."},
	{Key: KeyConsumerGroupDescribe, Name: "ConsumerGroupDescribe", Category: catGroups, ReadOnly: true,
		Purpose: "Describe consumer groups of the new protocol (KIP-848)."},
	{Key: KeyControllerRegistration, Name: "ControllerRegistration", Category: catCluster,
		Purpose: "KRaft: a controller registers with the active controller."},
	{Key: KeyGetTelemetrySubscriptions, Name: "GetTelemetrySubscriptions", Category: catCluster, ReadOnly: true,
		Purpose: "Learn which client metrics the broker wants pushed (KIP-714)."},
	{Key: KeyPushTelemetry, Name: "PushTelemetry", Category: catCluster,
		Purpose: "Push client metrics to the broker (KIP-714)."},
	{Key: KeyAssignReplicasToDirs, Name: "AssignReplicasToDirs", Category: catTopics,
		Purpose: "Broker to controller: the log directories of replicas."},
	{Key: KeyListConfigResources, Name: "ListClientMetricsResources", Category: catCluster, ReadOnly: true,
		Purpose: "List the client metrics subscriptions."},
	{Key: KeyListConfigResources, Name: "ListConfigResources", Category: catCluster, ReadOnly: true,
		Purpose: "List the resources that have configurations (ListClientMetricsResources before 4.1)."},
	{Key: KeyDescribeTopicPartitions, Name: "DescribeTopicPartitions", Category: catTopics, ReadOnly: true,
		Purpose: "Describe topics and their partitions, page by page."},
	{Key: KeyShareGroupHeartbeat, Name: "ShareGroupHeartbeat", Category: catShare,
		Purpose: "Join, stay in and leave a share group (KIP-932)."},
	{Key: KeyShareGroupDescribe, Name: "ShareGroupDescribe", Category: catShare, ReadOnly: true,
		Purpose: "Describe share groups (KIP-932)."},
	{Key: KeyShareFetch, Name: "ShareFetch", Category: catShare, Records: true,
		Purpose: "Fetch records as a member of a share group (KIP-932)."},
	{Key: KeyShareAcknowledge, Name: "ShareAcknowledge", Category: catShare,
		Purpose: "Acknowledge records fetched from a share group (KIP-932)."},
	{Key: KeyAddRaftVoter, Name: "AddRaftVoter", Category: catCluster,
		Purpose: "KRaft: add a voter to the controller quorum."},
	{Key: KeyRemoveRaftVoter, Name: "RemoveRaftVoter", Category: catCluster,
		Purpose: "KRaft: remove a voter from the controller quorum."},
	{Key: KeyUpdateRaftVoter, Name: "UpdateRaftVoter", Category: catCluster,
		Purpose: "KRaft: update a voter's endpoints and supported versions."},
	{Key: KeyInitializeShareGroupState, Name: "InitializeShareGroupState", Category: catShare,
		Purpose: "Share coordinator: initialize the state of a share group's partitions."},
	{Key: KeyReadShareGroupState, Name: "ReadShareGroupState", Category: catShare,
		Purpose: "Share coordinator: read the state of a share group's partitions."},
	{Key: KeyWriteShareGroupState, Name: "WriteShareGroupState", Category: catShare,
		Purpose: "Share coordinator: write the state of a share group's partitions."},
	{Key: KeyDeleteShareGroupState, Name: "DeleteShareGroupState", Category: catShare,
		Purpose: "Share coordinator: delete the state of a share group's partitions."},
	{Key: KeyReadShareGroupStateSummary, Name: "ReadShareGroupStateSummary", Category: catShare,
		Purpose: "Share coordinator: read a summary of a share group's partition state."},
	{Key: KeyStreamsGroupHeartbeat, Name: "StreamsGroupHeartbeat", Category: catStreams,
		Purpose: "Join, stay in and leave a Streams group (KIP-1071)."},
	{Key: KeyStreamsGroupDescribe, Name: "StreamsGroupDescribe", Category: catStreams, ReadOnly: true,
		Purpose: "Describe Streams groups (KIP-1071)."},
	{Key: KeyDescribeShareGroupOffsets, Name: "DescribeShareGroupOffsets", Category: catShare, ReadOnly: true,
		Purpose: "Describe the start offsets of share groups."},
	{Key: KeyAlterShareGroupOffsets, Name: "AlterShareGroupOffsets", Category: catShare,
		Purpose: "Reset the start offsets of share groups."},
	{Key: KeyDeleteShareGroupOffsets, Name: "DeleteShareGroupOffsets", Category: catShare,
		Purpose: "Delete the offsets of share groups."},
}

// FactsOf returns the facts of the API of key key named name: the table's row for that name,
// else the key's latest row with name put in, else (an API newer than the table) the
// defaults: no purpose, a category by the words of its name (see Catalog), not read-only, no
// quirk.
func FactsOf(key int16, name string) Facts {
	i := sort.Search(len(apiFacts), func(i int) bool { return apiFacts[i].Key >= key })
	last := -1
	for ; i < len(apiFacts) && apiFacts[i].Key == key; i++ {
		if apiFacts[i].Name == name {
			return apiFacts[i]
		}
		last = i
	}
	if last >= 0 {
		f := apiFacts[last]
		f.Name = name
		return f
	}
	return Facts{Key: key, Name: name}
}

// APIName is the newest name of an API key Kafka 2.2 to 4.1 define ("Produce" for 0,
// "ListOffsets" for 2), "" for a key none of them does.
func APIName(key int16) string {
	name := ""
	for _, f := range apiFacts {
		if f.Key == key {
			name = f.Name
		}
	}
	return name
}

// Facts returns the API's facts (FactsOf its key and name); Category is the one the catalogue
// placed it in.
func (a *API) Facts() Facts {
	f := FactsOf(a.Key, a.Name)
	f.Category = a.Category
	return f
}

// KnownKeys returns every API key the table has a row for, in order.
func KnownKeys() []int16 {
	var out []int16
	for _, f := range apiFacts {
		if len(out) == 0 || out[len(out)-1] != f.Key {
			out = append(out, f.Key)
		}
	}
	return out
}

// categories returns the index's categories in order, with the keys the table places in each,
// by key.
func categories() []category {
	out := make([]category, len(categoryOrder))
	for i, name := range categoryOrder {
		out[i].name = name
	}
	for _, f := range apiFacts {
		i := slices.Index(categoryOrder, f.Category)
		if n := len(out[i].keys); n == 0 || out[i].keys[n-1] != f.Key {
			out[i].keys = append(out[i].keys, f.Key)
		}
	}
	return out
}

// ExampleBody returns the example body of api's request (or response) at version v, as the
// reference, show and probe use it: the values Example gives, from the override file of the
// API in examples (nil: the project's examples/kafka, built in), read under the API's name or
// any other name its key has had (2.4's ListOffset reads ListOffsets.yaml), and the release's
// rules applied (an Envelope carries the CreateTopics example, KIP-590). It is the body of the
// frames Vectors encodes.
func (c *Catalog) ExampleBody(api *API, response bool, v int16, examples fs.FS) (Values, error) {
	if api == nil {
		return nil, errors.New("kafka: examples: no API")
	}
	if examples == nil {
		examples = builtinExamples()
	}
	known := sharedKnownFields
	file, data, err := exampleFile(examples, api, known)
	if err != nil {
		return nil, err
	}
	body, _, _, err := example(api, response, v, file, data, known)
	if err != nil {
		return nil, err
	}
	if err := c.exampleRules(api, response, body, examples, known); err != nil {
		return nil, err
	}
	return body, nil
}

// exampleRules applies the facts table's rules to an example body: an Envelope's data is a
// real forwarded message.
func (c *Catalog) exampleRules(api *API, response bool, body Values, examples fs.FS, known func() *knownFields) error {
	if FactsOf(api.Key, api.Name).Envelope {
		return c.envelop(body, response, examples, known)
	}
	return nil
}
