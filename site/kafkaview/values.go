package kafkaview

import (
	"strconv"
	"strings"
	"time"

	"github.com/kafkagrid/kafkagrid/kafka"
)

// Timestamps a value is read as: milliseconds since the epoch from 2000-01-01 to 2100-01-01.
// Outside it a "timestamp" field holds a sentinel (-1: none), a delta or a duration.
const (
	minTimestamp = 946684800000
	maxTimestamp = 4102444800000
)

// listOffsetsKey is ListOffsets' api key: its request's Timestamp of a partition is a time or
// one of the special values of KIP-79, KIP-734, KIP-1005 and KIP-1023.
const listOffsetsKey = 2

// listOffsetsSpecial names ListOffsets' special timestamps, as Kafka's ListOffsetsRequest
// constants do.
var listOffsetsSpecial = map[int64]string{
	-1: "latest offset",
	-2: "earliest offset",
	-3: "offset of the max timestamp",
	-4: "earliest local offset",
	-5: "latest tiered offset",
	-6: "earliest pending upload offset",
}

// ValueText is the value the grid, the tree and a page's detail panel show of node n of
// frame f: the annotated frame's value, made readable where a number alone is not. A
// timestamp (an int64 named …Timestamp or …TimestampMs holding a time from 2000 to 2100) gets
// its date in ISO 8601, UTC:
// "1767225600000 → 2026-01-01T00:00:00Z"; a ListOffsets request's special timestamp its
// meaning: "-1 → latest offset". Enumerations (error codes, acks, ACL types) are the kafka
// package's, already in the value.
func ValueText(f *kafka.Frame, n *kafka.Node) string {
	v := n.Value
	if n.Kind != kafka.KindField || v == "" || strings.Contains(v, "→") {
		return v
	}
	if n.WireType != "int64" || !strings.HasSuffix(n.Name, "Timestamp") && !strings.HasSuffix(n.Name, "TimestampMs") {
		return v
	}
	ms, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return v
	}
	if f != nil && f.API != nil && f.API.Key == listOffsetsKey && !f.Response && n.Name == "Timestamp" {
		if s, ok := listOffsetsSpecial[ms]; ok {
			return v + " → " + s
		}
	}
	if ms < minTimestamp || ms >= maxTimestamp {
		return v
	}
	t := time.UnixMilli(ms).UTC()
	layout := "2006-01-02T15:04:05Z"
	if ms%1000 != 0 {
		layout = "2006-01-02T15:04:05.000Z"
	}
	return v + " → " + t.Format(layout)
}
