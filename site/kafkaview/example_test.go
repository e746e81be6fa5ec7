package kafkaview_test

import (
	"fmt"

	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site/kafkaview"
)

// A record batch's timestamp is shown with its date; a number that is no time stays as it is.
func ExampleValueText() {
	f := &kafka.Frame{API: &kafka.API{Name: "Produce", Key: 0}}
	for _, n := range []*kafka.Node{
		{Kind: kafka.KindField, Name: "BaseTimestamp", WireType: "int64", Value: "1767225600000"},
		{Kind: kafka.KindField, Name: "MaxTimestamp", WireType: "int64", Value: "-1"},
		{Kind: kafka.KindField, Name: "TimeoutMs", WireType: "int32", Value: "30000"},
	} {
		fmt.Println(n.Name, "=", kafkaview.ValueText(f, n))
	}
	// Output:
	// BaseTimestamp = 1767225600000 → 2026-01-01T00:00Z
	// MaxTimestamp = -1
	// TimeoutMs = 30000
}
