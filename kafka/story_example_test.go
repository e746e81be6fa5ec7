package kafka_test

import (
	"fmt"
	"log"

	"github.com/kafkagrid/kafkagrid/kafka"
)

func ExampleBuiltinStory() {
	s, err := kafka.BuiltinStory()
	if err != nil {
		log.Fatal(err)
	}
	p := s.Partition()
	fmt.Printf("%s-%d: leader %d in epoch %d, replicas %v, ISR %v, offline %v\n",
		s.Log.Topic, p.Index, p.Leader, p.LeaderEpoch, p.Replicas, p.ISR, p.Offline)
	fmt.Printf("producer %d (%s) writes at offset %d; high watermark %d\n",
		s.Producer.ID, s.Producer.TransactionalID, s.Log.BatchOffset, s.Log.HighWatermark)
	fmt.Printf("token %s: expires %d, at most %d\n", s.Token.ID, s.Token.Expiry(), s.Token.Max())
	// Output:
	// orders-0: leader 1 in epoch 5, replicas [1 2 3], ISR [1 2], offline [3]
	// producer 4000 (txn-orders-1) writes at offset 42; high watermark 44
	// token token-1: expires 1767312600000, at most 1767831000000
}

func ExampleLookupErrorCode() {
	for _, code := range []int16{0, 3, 6, 35} {
		e, _ := kafka.LookupErrorCode(code)
		fmt.Printf("%d %s retriable=%v\n", e.Code, e.Name, e.Retriable)
	}
	// Output:
	// 0 NONE retriable=false
	// 3 UNKNOWN_TOPIC_OR_PARTITION retriable=true
	// 6 NOT_LEADER_OR_FOLLOWER retriable=true
	// 35 UNSUPPORTED_VERSION retriable=false
}

func ExampleValueName() {
	const fetch, describeACLs, describeConfigs = 1, 29, 32
	fmt.Println(kafka.ValueName(fetch, "IsolationLevel", 1))
	fmt.Println(kafka.ValueName(describeACLs, "ResourceTypeFilter", 2))
	fmt.Println(kafka.ValueName(describeConfigs, "ResourceType", 4))
	fmt.Println(kafka.ValueName(fetch, "ErrorCode", 1))
	fmt.Println(kafka.DescribeBatchAttributes(0x10))
	// Output:
	// READ_COMMITTED
	// TOPIC
	// BROKER
	// OFFSET_OUT_OF_RANGE
	// compression=none timestampType=CreateTime transactional
}

func ExampleCatalog_EdgeCases() {
	cat, err := kafka.LoadCatalog(schemas())
	if err != nil {
		log.Fatal(err)
	}
	cases, err := cat.EdgeCases()
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range cases {
		for _, f := range []*kafka.Frame{e.Request, e.Response} {
			if f != nil {
				fmt.Printf("%s (%d bytes)\n", e.BaseName(f), len(f.Bytes))
			}
		}
	}
	// Output:
	// 18-ApiVersions-v0-response-unsupported-version (20 bytes)
	// 1-Fetch-v17-response-tagged-fields (304 bytes)
	// 1-Fetch-v17-request-follower (139 bytes)
	// 0-Produce-v12-response-not-leader (96 bytes)
	// 0-Produce-v12-request-unknown-topic (167 bytes)
	// 0-Produce-v12-response-unknown-topic (58 bytes)
	// 3-Metadata-v13-request-unknown-topic (53 bytes)
	// 3-Metadata-v13-response-unknown-topic (153 bytes)
	// 3-Metadata-v13-request-all-topics (28 bytes)
	// 3-Metadata-v13-request-no-topics (28 bytes)
	// 11-JoinGroup-v9-request-null-and-empty-string (101 bytes)
	// 19-CreateTopics-v7-response-config-error (56 bytes)
}
