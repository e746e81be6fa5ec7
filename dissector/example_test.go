package dissector_test

import (
	"fmt"

	"github.com/kafkagrid/kafkagrid/dissector"
)

// Snake makes the filter names of schema fields: each name of the path in snake case.
func ExampleSnake() {
	for _, name := range []string{"Produce", "TopicData", "PartitionData", "ProducerId", "HTTPServer", "DescribeTopicPartitions"} {
		fmt.Println(dissector.Snake(name))
	}
	// Output:
	// produce
	// topic_data
	// partition_data
	// producer_id
	// http_server
	// describe_topic_partitions
}

// A Disagreement says which release's definition of a version the dissector reads.
func ExampleDisagreement() {
	d := dissector.Disagreement{Key: 87, API: "ReadShareGroupStateSummary", Response: true, Version: 0,
		Newest: "4.1", Others: []string{"3.9", "4.0"}}
	fmt.Println(d)
	// Output:
	// ReadShareGroupStateSummary v0 response: Kafka 3.9, 4.0 define it otherwise than 4.1, whose definition is read
}
