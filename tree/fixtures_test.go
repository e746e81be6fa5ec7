package tree_test

import (
	"strings"

	"github.com/kafkagrid/kafkagrid/tree"
)

// b builds trees for tests: leaves carry their length, structs add up their children, and
// offsets and paths are filled in by finish.
func leaf(label, typ string, length int, value string, kind tree.Kind) *tree.Node {
	return &tree.Node{Name: label, Type: typ, Length: length, Value: value, Kind: kind,
		Desc: "The " + strings.ToLower(label) + " field."}
}

func group(label, typ, group string, children ...*tree.Node) *tree.Node {
	return &tree.Node{Name: label, Type: typ, Group: group, Children: children}
}

// finish assigns offsets, lengths and paths in pre-order, recursively (test trees are shallow).
func finish(n *tree.Node, off int, path string) int {
	n.Offset = off
	n.Path = path
	if len(n.Children) == 0 {
		return off + n.Length
	}
	end := off
	for _, c := range n.Children {
		seg := c.Name
		if i := strings.IndexByte(seg, ' '); i > 0 {
			seg = seg[:i]
		}
		p := seg
		if path != "" {
			if strings.HasPrefix(seg, "[") {
				p = path + seg
			} else {
				p = path + "." + seg
			}
		}
		end = finish(c, end, p)
	}
	n.Length = end - off
	return end
}

// fetchLike returns a tree shaped like a Fetch v17 response: about 70 nodes, five levels of
// nesting down to a record, framing nodes for lengths and tag sections.
func fetchLike() *tree.Node {
	record := func(i int) *tree.Node {
		return group(tree.IndexLabel(i), "Record", "",
			leaf("Length", "varint", 1, "40", tree.Length),
			leaf("Attributes", "int8", 1, "0", tree.Plain),
			leaf("TimestampDelta", "varlong", 1, "0", tree.Varint),
			leaf("OffsetDelta", "varint", 1, "0", tree.Varint),
			leaf("KeyLength", "varint", 1, "-1", tree.Length),
			leaf("ValueLength", "varint", 1, "30", tree.Length),
			leaf("Value", "bytes", 30, `"hello, kafka: a record value that is long"`, tree.Plain),
			leaf("Headers [0]", "varint", 1, "", tree.Length),
		)
	}
	batch := group("RecordBatch", "RecordBatch", "",
		leaf("BaseOffset", "int64", 8, "0", tree.Plain),
		leaf("BatchLength", "int32", 4, "79", tree.Length),
		leaf("PartitionLeaderEpoch", "int32", 4, "0", tree.Plain),
		leaf("Magic", "int8", 1, "2", tree.Plain),
		leaf("CRC", "uint32", 4, "0x8c1d3e8f", tree.Plain),
		leaf("Attributes", "int16", 2, "0", tree.Plain),
		leaf("LastOffsetDelta", "int32", 4, "0", tree.Plain),
		leaf("BaseTimestamp", "int64", 8, "1700000000000", tree.Plain),
		leaf("MaxTimestamp", "int64", 8, "1700000000000", tree.Plain),
		leaf("ProducerId", "int64", 8, "-1", tree.Plain),
		leaf("ProducerEpoch", "int16", 2, "-1", tree.Plain),
		leaf("BaseSequence", "int32", 4, "-1", tree.Plain),
		group("Records [2]", "[]Record", "", leaf("Count", "int32", 4, "2", tree.Length), record(0), record(1)),
	)
	partition := group(tree.IndexLabel(0), "PartitionData", "",
		leaf("PartitionIndex", "int32", 4, "0", tree.Plain),
		leaf("ErrorCode", "int16", 2, "0", tree.Plain),
		leaf("HighWatermark", "int64", 8, "1", tree.Plain),
		leaf("LastStableOffset", "int64", 8, "1", tree.Plain),
		leaf("LogStartOffset", "int64", 8, "0", tree.Plain),
		leaf("AbortedTransactions null", "compact_array", 1, "", tree.Length),
		leaf("PreferredReadReplica", "int32", 4, "-1", tree.Plain),
		group("Records", "compact_records", "",
			leaf("Length", "uvarint", 1, "80", tree.Length), batch),
		leaf("TaggedFields", "tagged_fields", 1, "0", tree.Tags),
	)
	topic := group(tree.IndexLabel(0), "FetchableTopicResponse", "Responses",
		leaf("TopicId", "uuid", 16, "b1c2d3e4-0000-4000-8000-00000000abcd", tree.Plain),
		group(tree.ArrayLabel("Partitions", 1), "[]PartitionData", "",
			leaf("Length", "uvarint", 1, "2", tree.Length), partition),
		leaf("TaggedFields", "tagged_fields", 1, "0", tree.Tags),
	)
	root := group("FetchResponse v17", "", "",
		leaf("Size", "int32", 4, "226", tree.Size),
		group("Header", "ResponseHeader v1", "Header",
			leaf("CorrelationId", "int32", 4, "7", tree.Header),
			leaf("TaggedFields", "tagged_fields", 1, "0", tree.Tags)),
		group("Body", "FetchResponse", "Body",
			leaf("ThrottleTimeMs", "int32", 4, "0", tree.Plain),
			leaf("ErrorCode", "int16", 2, "0", tree.Plain),
			leaf("SessionId", "int32", 4, "0", tree.Plain),
			group(tree.ArrayLabel("Responses", 1), "[]FetchableTopicResponse", "Responses",
				leaf("Length", "uvarint", 1, "2", tree.Length), topic),
			tagSection(group("TaggedFields", "tagged_fields", "Tagged",
				leaf("Count", "uvarint", 1, "1", tree.Tags),
				leaf("Tag", "uvarint", 1, "0", tree.Tag),
				leaf("Size", "uvarint", 1, "9", tree.Tag),
				group(tree.ArrayLabel("NodeEndpoints", 1), "[]NodeEndpoint", "",
					leaf("Length", "uvarint", 1, "2", tree.Length),
					group(tree.IndexLabel(0), "NodeEndpoint", "",
						leaf("NodeId", "int32", 4, "1", tree.Plain),
						leaf("Host", "compact_string", 10, `"localhost"`, tree.Plain),
						leaf("Port", "int32", 4, "9092", tree.Plain),
						leaf("Rack", "compact_nullable_string", 1, "null", tree.Plain),
						leaf("TaggedFields", "tagged_fields", 1, "0", tree.Tags)))))),
	)
	finish(root, 0, "")
	root.Path = "FetchResponse"
	return root
}

func tagSection(n *tree.Node) *tree.Node {
	n.Kind = tree.Tags
	return n
}

// countNodes counts the nodes of a tree.
func countNodes(n *tree.Node) int {
	c := 1
	for _, ch := range n.Children {
		c += countNodes(ch)
	}
	return c
}

// largeTree returns a tree of about 300 nodes: four Fetch-like responses under one root.
func largeTree() *tree.Node {
	root := &tree.Node{Name: "Responses [4]", Path: "Responses"}
	off := 0
	for i := 0; i < 4; i++ {
		f := fetchLike()
		f.Name = tree.IndexLabel(i)
		finish(f, off, "Responses"+tree.IndexLabel(i))
		off += f.Length
		root.Children = append(root.Children, f)
	}
	root.Length = off
	return root
}
