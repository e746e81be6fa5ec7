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

// ValueText is the value the grid and a page's detail panel show of node n of frame f: the
// annotated frame's value, made readable where a number alone is not. A timestamp (an int64
// named …Timestamp or …TimestampMs holding a time from 2000 to 2100) gets its date in ISO
// 8601, UTC, to the minute (seconds and milliseconds where they are not zero): "1767225600000
// → 2026-01-01T00:00Z"; a ListOffsets request's special timestamp its meaning: "-1 → latest
// offset". Enumerations (error codes, acks, ACL types) are the kafka package's, already in the
// value. The tree shows TreeValueText.
func ValueText(f *kafka.Frame, n *kafka.Node) string {
	if date, ok := timestamp(f, n); ok {
		return n.Value + " → " + date
	}
	return n.Value
}

// TreeValueText is the value the tree shows of node n: ValueText's, but a timestamp as its date
// alone ("2026-01-01T00:00Z"), since the tree's name column is as wide as its widest label and
// value (the number is beside it in the grid, the detail panel and the hex dump).
func TreeValueText(f *kafka.Frame, n *kafka.Node) string {
	if date, ok := timestamp(f, n); ok && !strings.HasPrefix(n.Value, "-") {
		return date
	}
	return ValueText(f, n)
}

// timestamp returns the readable form of n's value when n is a timestamp: its ISO 8601 date,
// or the meaning of a ListOffsets special timestamp.
func timestamp(f *kafka.Frame, n *kafka.Node) (string, bool) {
	v := n.Value
	if n.Kind != kafka.KindField || v == "" || strings.Contains(v, "→") {
		return "", false
	}
	if n.WireType != "int64" || !strings.HasSuffix(n.Name, "Timestamp") && !strings.HasSuffix(n.Name, "TimestampMs") {
		return "", false
	}
	ms, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return "", false
	}
	if f != nil && f.API != nil && f.API.Key == listOffsetsKey && !f.Response && n.Name == "Timestamp" {
		if s, ok := listOffsetsSpecial[ms]; ok {
			return s, true
		}
	}
	if ms < minTimestamp || ms >= maxTimestamp {
		return "", false
	}
	layout := "2006-01-02T15:04Z"
	switch {
	case ms%1000 != 0:
		layout = "2006-01-02T15:04:05.000Z"
	case ms%60000 != 0:
		layout = "2006-01-02T15:04:05Z"
	}
	return time.UnixMilli(ms).UTC().Format(layout), true
}
