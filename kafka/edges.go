package kafka

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
)

// An EdgeCase is a special frame beside an API's regular example: one of the frames client and
// proxy authors keep getting wrong (the ApiVersions fallback, tagged fields, null against
// empty, error responses), drawn from the same story as the examples and encoded by the same
// walker. Request or Response may be nil when the case is about one side only.
type EdgeCase struct {
	API      *API
	Name     string // a file-name suffix: "unsupported-version"
	Title    string // "ApiVersions fallback: a v0 response with UNSUPPORTED_VERSION"
	About    string // what the frame shows and why it matters
	Request  *Frame
	Response *Frame
}

// BaseName is the file base name of one side: "18-ApiVersions-v0-response-unsupported-version".
func (e EdgeCase) BaseName(f *Frame) string { return f.BaseName() + "-" + e.Name }

// edgeSpec describes an edge case: its API, version (-1: the highest), the YAML merged over the
// API's regular example (request and response keys, as in examples/kafka; {version} stands for
// the API's highest version, {unknownTopic} for the error code of an unknown topic at the
// version), and what must hold for the release to express it.
type edgeSpec struct {
	api, name, title, about string
	version                 int16
	flexible                bool   // only where the version is flexible
	field                   string // only where this response field exists at the version
	yaml                    string
	unknownHeaderTag        bool // add an unknown tag to the response header's tag section
}

var edgeSpecs = []edgeSpec{{
	api: "ApiVersions", name: "unsupported-version", version: 0,
	title: "ApiVersions fallback: UNSUPPORTED_VERSION in a v0 response",
	about: "A client asked for ApiVersions at a version newer than the broker knows. The broker " +
		"answers with a v0 response (response header v0, as every ApiVersions response), error 35 " +
		"UNSUPPORTED_VERSION, and only its own ApiVersions range; the client retries at the highest " +
		"version listed (KIP-511).",
	yaml: "response:\n  ErrorCode: 35\n  ApiKeys:\n    - {ApiKey: 18, MinVersion: 0, MaxVersion: {version}}\n",
}, {
	api: "Fetch", name: "tagged-fields", version: -1, flexible: true, field: "NodeEndpoints", unknownHeaderTag: true,
	title: "Tagged fields in the header and the body",
	about: "The leader of orders-0 moved to broker 2 in epoch 6 while the consumer fetched from " +
		"broker 1. The answer, NOT_LEADER_OR_FOLLOWER, says where the leader went in tagged fields: " +
		"CurrentLeader in the partition and NodeEndpoints at the end of the body. The response " +
		"header's tag section carries a tag this schema does not know (tag 9, two bytes): a reader " +
		"must skip it by its size, as KIP-482 says, not fail.",
	yaml: `response:
  ErrorCode: 0
  SessionId: 0
  Responses:
    - Topic: orders
      TopicId: 00000000-0000-4000-8000-000000000001
      Partitions:
        - PartitionIndex: 0
          ErrorCode: 6
          HighWatermark: -1
          LastStableOffset: -1
          LogStartOffset: -1
          AbortedTransactions: null
          PreferredReadReplica: -1
          CurrentLeader: {LeaderId: 2, LeaderEpoch: 6}
  NodeEndpoints:
    - {NodeId: 2, Host: broker-2, Port: 9092, Rack: rack-b}
`,
}, {
	api: "Fetch", name: "follower", version: -1, flexible: true,
	title: "A follower's fetch",
	about: "Broker 2 replicates orders-0 from its leader, broker 1. A follower says who it is: in " +
		"ReplicaId before v15, in the tagged ReplicaState from v15 (KIP-903: its broker epoch too), " +
		"and the directory of its replica in the tagged ReplicaDirectoryId (KIP-858).",
	yaml: `request:
  ReplicaId: 2
  ReplicaState: {ReplicaId: 2, ReplicaEpoch: 5}
  IsolationLevel: 0
  Topics:
    - Topic: orders
      TopicId: 00000000-0000-4000-8000-000000000001
      Partitions:
        - Partition: 0
          CurrentLeaderEpoch: 5
          FetchOffset: 44
          LastFetchedEpoch: 5
          LogStartOffset: 0
          ReplicaDirectoryId: 00000000-0000-4000-8000-0000000000d2
  ForgottenTopicsData: []
  RackId: rack-b
`,
}, {
	api: "Produce", name: "not-leader", version: -1,
	title: "Produce to a partition whose leader moved",
	about: "Broker 1 no longer leads orders-0: NOT_LEADER_OR_FOLLOWER (6), no offset (-1). From v10 " +
		"the answer names the new leader, broker 2 in epoch 6, in the tagged CurrentLeader and " +
		"NodeEndpoints (KIP-951), so the producer need not ask Metadata first.",
	yaml: `response:
  Responses:
    - Name: orders
      TopicId: 00000000-0000-4000-8000-000000000001
      PartitionResponses:
        - Index: 0
          ErrorCode: 6
          BaseOffset: -1
          LogAppendTimeMs: -1
          LogStartOffset: -1
          RecordErrors: []
          ErrorMessage: null
          CurrentLeader: {LeaderId: 2, LeaderEpoch: 6}
  NodeEndpoints:
    - {NodeId: 2, Host: broker-2, Port: 9092, Rack: rack-b}
`,
}, {
	api: "Produce", name: "unknown-topic", version: -1,
	title: "Produce to a topic that does not exist",
	about: "The producer writes to refunds, which the cluster does not have: UNKNOWN_TOPIC_OR_PARTITION " +
		"(3) by name, or UNKNOWN_TOPIC_ID (100) from v13, where a producer names topics by id.",
	yaml: `request:
  TopicData:
    - Name: refunds
      TopicId: 00000000-0000-4000-8000-000000000099
response:
  Responses:
    - Name: refunds
      TopicId: 00000000-0000-4000-8000-000000000099
      PartitionResponses:
        - Index: 0
          ErrorCode: {unknownTopic}
          BaseOffset: -1
          LogAppendTimeMs: -1
          LogStartOffset: -1
          RecordErrors: []
          ErrorMessage: null
`,
}, {
	api: "Metadata", name: "unknown-topic", version: -1,
	title: "Metadata for a topic that does not exist",
	about: "The client asks for refunds, which the cluster does not have, and does not allow its " +
		"creation: the topic comes back with UNKNOWN_TOPIC_OR_PARTITION (3), the zero topic id and no " +
		"partitions; the brokers and the controller are listed all the same.",
	yaml: `request:
  Topics:
    - {TopicId: 00000000-0000-0000-0000-000000000000, Name: refunds}
  AllowAutoTopicCreation: false
response:
  Topics:
    - ErrorCode: 3
      Name: refunds
      TopicId: 00000000-0000-0000-0000-000000000000
      IsInternal: false
      Partitions: []
`,
}, {
	api: "Metadata", name: "all-topics", version: -1, flexible: true,
	title: "A null array: Metadata for all topics",
	about: "Topics null (compact array length 0) asks for every topic; an empty array (length 1, " +
		"the next case) asks for none. In a flexible version a compact length is N+1, and 0 means null.",
	yaml: "request:\n  Topics: null\n",
}, {
	api: "Metadata", name: "no-topics", version: -1, flexible: true,
	title: "An empty array: Metadata for no topic",
	about: "Topics empty (compact array length 1) asks for no topic: the brokers and the " +
		"controller only. Compare the null array of the case before.",
	yaml: "request:\n  Topics: []\n",
}, {
	api: "JoinGroup", name: "null-and-empty-string", version: -1, flexible: true,
	title: "A null and an empty string",
	about: "A dynamic member (GroupInstanceId null: compact string length 0) joins with an empty " +
		"Reason (length 1, no bytes). Null and empty differ on the wire and in meaning.",
	yaml: "request:\n  GroupInstanceId: null\n  Reason: \"\"\n",
}, {
	api: "CreateTopics", name: "config-error", version: -1, field: "Topics",
	title: "A topic created, its configs not returned",
	about: "shipments was created, but the caller may not describe its configs: Configs is null and " +
		"the tagged TopicConfigErrorCode (v5+) says why, TOPIC_AUTHORIZATION_FAILED (29).",
	yaml: `response:
  Topics:
    - Name: shipments
      TopicId: 00000000-0000-4000-8000-000000000002
      ErrorCode: 0
      ErrorMessage: null
      TopicConfigErrorCode: 29
      NumPartitions: 1
      ReplicationFactor: 3
      Configs: null
`,
}}

// EdgeCases builds the edge-case frames the catalogue's release can express (a release whose
// API lacks the version, or whose version is not flexible where the case needs it, has fewer),
// in the order of the list above; they carry the examples' correlation id.
func (c *Catalog) EdgeCases() ([]EdgeCase, error) {
	known := sharedKnownFields
	var out []EdgeCase
	for _, e := range edgeSpecs {
		api, ok := c.Lookup(e.api)
		if !ok {
			continue
		}
		v := e.version
		if v < 0 {
			v = api.Version
		}
		if !api.Request.ValidIn(v) || e.flexible && !api.Request.FlexibleIn(v) {
			continue
		}
		if e.field != "" && !hasField(api, v, e.field) {
			continue
		}
		ec := EdgeCase{API: api, Name: e.name, Title: e.title, About: e.about}
		unknownTopic := "3" // UNKNOWN_TOPIC_OR_PARTITION
		if hasRequestField(api, v, "TopicData", "TopicId") {
			unknownTopic = "100" // UNKNOWN_TOPIC_ID
		}
		data := []byte(strings.NewReplacer("{version}", strconv.Itoa(int(api.Version)), "{unknownTopic}", unknownTopic).Replace(e.yaml))
		file, base, err := exampleFile(builtinExamples(), api, known)
		if err != nil {
			return nil, err
		}
		for _, resp := range []bool{false, true} {
			side, err := yamlSide("edge case "+e.name, data, resp)
			if err != nil {
				return nil, err
			}
			if side == nil {
				continue
			}
			vals, _, _, err := example(api, resp, v, file, base, known)
			if err != nil {
				return nil, err
			}
			spec := api.Request
			if resp {
				spec = api.Response
			}
			m := &merger{file: "edge case " + e.name, v: v, key: api.Key, response: resp, message: spec.Name,
				release: "Kafka " + api.Release, known: known}
			if err := m.merge(spec.Fields, side, vals, ""); err != nil {
				return nil, err
			}
			f, err := c.Encode(Message{API: api, Response: resp, Version: v, CorrelationID: CorrelationID, ClientID: exampleClientID, Body: vals})
			if err != nil {
				return nil, fmt.Errorf("kafka: edge case %s: %w", e.name, err)
			}
			if resp && e.unknownHeaderTag {
				if f, err = c.withHeaderTag(f); err != nil {
					return nil, fmt.Errorf("kafka: edge case %s: %w", e.name, err)
				}
			}
			if resp {
				ec.Response = f
			} else {
				ec.Request = f
			}
		}
		out = append(out, ec)
	}
	return out, nil
}

// headerTag is the unknown tag the tagged-fields case puts in a response header: tag 9, two
// bytes of data.
var headerTag = []byte{1, 9, 2, 0xca, 0xfe}

// withHeaderTag re-frames a flexible response with an unknown tag in its header's tag section
// (which the encoder writes empty: the header declares no tagged fields), and decodes it.
func (c *Catalog) withHeaderTag(f *Frame) (*Frame, error) {
	if f.HeaderVersion != 1 {
		return nil, fmt.Errorf("response header v%d has no tag section", f.HeaderVersion)
	}
	const tagsAt = 8 // size, correlation id
	if f.Bytes[tagsAt] != 0 {
		return nil, fmt.Errorf("header tag section is not empty")
	}
	b := make([]byte, 0, len(f.Bytes)+len(headerTag)-1)
	b = append(b, f.Bytes[:tagsAt]...)
	b = append(b, headerTag...)
	b = append(b, f.Bytes[tagsAt+1:]...)
	binary.BigEndian.PutUint32(b, uint32(len(b)-4))
	return c.Decode(b, DecodeOptions{Response: true, API: f.API, Version: f.Version})
}

// hasField reports whether the API's response has a top-level field at version v.
func hasField(api *API, v int16, name string) bool {
	for _, f := range api.Response.Fields {
		if f.Name == name && f.PresentIn(v) {
			return true
		}
	}
	return false
}

// hasRequestField reports whether the request has the field path (array, then field) at v.
func hasRequestField(api *API, v int16, array, field string) bool {
	for _, f := range api.Request.Fields {
		if f.Name == array && f.PresentIn(v) && f.Struct != nil {
			for _, g := range f.Struct.Fields {
				if g.Name == field && g.PresentIn(v) {
					return true
				}
			}
		}
	}
	return false
}
