package kafka

import (
	"slices"
	"strconv"
	"strings"
	"time"
)

// Enum is a set of named values a schema field holds: the schemas say only "int8" or "int16",
// the names are in Kafka's Java code and KIPs. It is read-only.
type Enum struct {
	name   string           // "ACL resource type"
	values map[int64]string // 2 → "TOPIC"
}

// Name is the enumeration's name, "ACL resource type".
func (e *Enum) Name() string { return e.name }

// ValueName returns the name of a value, false for a value the enumeration does not name.
func (e *Enum) ValueName(v int64) (string, bool) {
	n, ok := e.values[v]
	return n, ok
}

// Values returns the values the enumeration names, in order.
func (e *Enum) Values() []int64 {
	out := make([]int64, 0, len(e.values))
	for v := range e.values {
		out = append(out, v)
	}
	slices.Sort(out)
	return out
}

// The enumerations that Kafka's schemas use with well-known values. The names are Kafka's
// (the enum constants of org.apache.kafka.common.*); TestEnums keeps those kmsg also knows
// against it.
var (
	// enumACLResourceType: org.apache.kafka.common.resource.ResourceType (KIP-140).
	enumACLResourceType = Enum{"ACL resource type", map[int64]string{
		0: "UNKNOWN", 1: "ANY", 2: "TOPIC", 3: "GROUP", 4: "CLUSTER", 5: "TRANSACTIONAL_ID",
		6: "DELEGATION_TOKEN", 7: "USER"}}
	// enumPatternType: org.apache.kafka.common.resource.PatternType (KIP-290).
	enumPatternType = Enum{"pattern type", map[int64]string{
		0: "UNKNOWN", 1: "ANY", 2: "MATCH", 3: "LITERAL", 4: "PREFIXED"}}
	// enumACLOperation: org.apache.kafka.common.acl.AclOperation.
	enumACLOperation = Enum{"ACL operation", map[int64]string{
		0: "UNKNOWN", 1: "ANY", 2: "ALL", 3: "READ", 4: "WRITE", 5: "CREATE", 6: "DELETE", 7: "ALTER",
		8: "DESCRIBE", 9: "CLUSTER_ACTION", 10: "DESCRIBE_CONFIGS", 11: "ALTER_CONFIGS",
		12: "IDEMPOTENT_WRITE", 13: "CREATE_TOKENS", 14: "DESCRIBE_TOKENS", 15: "TWO_PHASE_COMMIT"}}
	// enumACLPermissionType: org.apache.kafka.common.acl.AclPermissionType.
	enumACLPermissionType = Enum{"ACL permission type", map[int64]string{
		0: "UNKNOWN", 1: "ANY", 2: "DENY", 3: "ALLOW"}}
	// enumConfigResourceType: org.apache.kafka.common.config.ConfigResource.Type.
	enumConfigResourceType = Enum{"config resource type", map[int64]string{
		0: "UNKNOWN", 2: "TOPIC", 4: "BROKER", 8: "BROKER_LOGGER", 16: "CLIENT_METRICS", 32: "GROUP"}}
	// enumConfigSource: DescribeConfigsResponse.ConfigSource (KIP-226).
	enumConfigSource = Enum{"config source", map[int64]string{
		0: "UNKNOWN", 1: "DYNAMIC_TOPIC_CONFIG", 2: "DYNAMIC_BROKER_CONFIG",
		3: "DYNAMIC_DEFAULT_BROKER_CONFIG", 4: "STATIC_BROKER_CONFIG", 5: "DEFAULT_CONFIG",
		6: "DYNAMIC_BROKER_LOGGER_CONFIG", 7: "CLIENT_METRICS_CONFIG", 8: "GROUP_CONFIG"}}
	// enumConfigType: DescribeConfigsResponse.ConfigType (KIP-569).
	enumConfigType = Enum{"config type", map[int64]string{
		0: "UNKNOWN", 1: "BOOLEAN", 2: "STRING", 3: "INT", 4: "SHORT", 5: "LONG", 6: "DOUBLE",
		7: "LIST", 8: "CLASS", 9: "PASSWORD"}}
	// enumConfigOperation: IncrementalAlterConfigsRequest.ConfigOperation (KIP-339).
	enumConfigOperation = Enum{"config operation", map[int64]string{
		0: "SET", 1: "DELETE", 2: "APPEND", 3: "SUBTRACT"}}
	// enumCoordinatorType: FindCoordinatorRequest.KeyType (KIP-98, KIP-932).
	enumCoordinatorType = Enum{"coordinator type", map[int64]string{
		0: "GROUP", 1: "TRANSACTION", 2: "SHARE"}}
	// enumIsolationLevel: org.apache.kafka.common.IsolationLevel (KIP-98).
	enumIsolationLevel = Enum{"isolation level", map[int64]string{
		0: "READ_UNCOMMITTED", 1: "READ_COMMITTED"}}
	// enumScramMechanism: org.apache.kafka.clients.admin.ScramMechanism (KIP-554).
	enumScramMechanism = Enum{"SCRAM mechanism", map[int64]string{
		0: "UNKNOWN", 1: "SCRAM-SHA-256", 2: "SCRAM-SHA-512"}}
)

// Key numbers of the APIs whose fields name an enumeration differently from the rest.
const (
	keyDescribeACLs = 29
	keyCreateACLs   = 30
	keyDeleteACLs   = 31
)

// EnumOf returns the enumeration a field of an API holds (by the API key and the field's
// name), if it holds one Kafka names. ResourceType is an ACL resource type in the ACL APIs
// and a config resource type elsewhere.
func EnumOf(apiKey int16, field string) (*Enum, bool) {
	switch field {
	case "ResourceType", "ResourceTypeFilter", "ResourceTypes":
		if apiKey == keyDescribeACLs || apiKey == keyCreateACLs || apiKey == keyDeleteACLs {
			return &enumACLResourceType, true
		}
		return &enumConfigResourceType, true
	case "Type": // (DescribeAcls v0-1's Resources[].Type, before it was ResourceType)
		if apiKey == keyDescribeACLs {
			return &enumACLResourceType, true
		}
	case "PatternType", "PatternTypeFilter", "ResourcePatternType":
		return &enumPatternType, true
	case "Operation":
		return &enumACLOperation, true
	case "PermissionType":
		return &enumACLPermissionType, true
	case "ConfigSource", "Source":
		return &enumConfigSource, true
	case "ConfigType":
		return &enumConfigType, true
	case "ConfigOperation":
		return &enumConfigOperation, true
	case "KeyType":
		return &enumCoordinatorType, true
	case "IsolationLevel":
		return &enumIsolationLevel, true
	case "Mechanism":
		if apiKey == KeyDescribeUserScramCredentials || apiKey == KeyAlterUserScramCredentials {
			return &enumScramMechanism, true
		}
	}
	return nil, false
}

// ValueName names an integer value of a field, for the annotated views: an error code's name
// (0 → "NONE", 3 → "UNKNOWN_TOPIC_OR_PARTITION") for a field whose name ends in ErrorCode, an
// enumeration's name for the fields EnumOf knows, what Produce's Acks asks for (-1 → "all
// in-sync replicas"), and a timestamp field's time in UTC (1767225600000 →
// "2026-01-01T00:00:00Z"). It returns "" when the value has no name.
func ValueName(apiKey int16, field string, v int64) string {
	if strings.HasSuffix(field, "ErrorCode") {
		if v < -32768 || v > 32767 {
			return ""
		}
		return ErrorName(int16(v))
	}
	if e, ok := EnumOf(apiKey, field); ok {
		n, _ := e.ValueName(v)
		return n
	}
	if apiKey == KeyProduce && field == "Acks" {
		// ProduceRequest.json: "The number of acknowledgments the producer requires the leader
		// to have received before considering a request complete."
		switch v {
		case -1:
			return "all in-sync replicas"
		case 0:
			return "no acknowledgement"
		case 1:
			return "the leader only"
		}
	}
	if isTimestampField(field) && v >= minTimestampMs && v < maxTimestampMs {
		return time.UnixMilli(v).UTC().Format("2006-01-02T15:04:05.999Z07:00")
	}
	return ""
}

// The milliseconds since the epoch a timestamp field's value is written as a date for: from
// 2000 to 2100, so that the special values (-1 latest, -2 earliest) and small counts stay
// numbers.
const (
	minTimestampMs = 946_684_800_000   // 2000-01-01T00:00:00Z
	maxTimestampMs = 4_102_444_800_000 // 2100-01-01T00:00:00Z
)

// isTimestampField reports whether a field's name says it holds a time in milliseconds since
// the epoch (Timestamp, CommitTimestamp, ExpiryTimestampMs, IssueTimestampMs).
func isTimestampField(name string) bool {
	return strings.HasSuffix(name, "Timestamp") || strings.HasSuffix(name, "TimestampMs")
}

// Record batch attributes (https://kafka.apache.org/documentation/#recordbatch): bits 0-2
// the compression codec, bit 3 the timestamp type, bit 4 transactional, bit 5 control, bit 6
// whether the batch has a delete horizon (KIP-534); the rest unused.
const (
	attrCompression    = 0x07
	attrLogAppendTime  = 0x08
	attrTransactional  = 0x10
	attrControl        = 0x20
	attrDeleteHorizon  = 0x40
	attrTimestampShift = 3
)

// AttributeBit is a sub-byte field of a record batch's attributes (an int16): its name, its
// lowest bit and its width in bits, counted from the least significant bit.
type AttributeBit struct {
	Name  string
	Shift int
	Width int
}

// BatchAttributeBits are the fields of a record batch's attributes, lowest bit first.
func BatchAttributeBits() []AttributeBit {
	return []AttributeBit{
		{"compression", 0, 3}, {"timestampType", 3, 1}, {"isTransactional", 4, 1},
		{"isControlBatch", 5, 1}, {"hasDeleteHorizonMs", 6, 1}, {"unused", 7, 9},
	}
}

// LegacyAttributeBits are the fields of a legacy message's attributes (an int8; magic 0 and 1,
// https://kafka.apache.org/documentation/#messageset), lowest bit first: bits 0-2 the
// compression codec, bit 3 the timestamp type from magic 1 on, the rest unused.
func LegacyAttributeBits(magic int8) []AttributeBit {
	if magic == 0 {
		return []AttributeBit{{"compression", 0, 3}, {"unused", 3, 5}}
	}
	return []AttributeBit{{"compression", 0, 3}, {"timestampType", 3, 1}, {"unused", 4, 4}}
}

// Of returns the field's value in attributes a.
func (b AttributeBit) Of(a int64) int64 { return a >> b.Shift & (1<<b.Width - 1) }

// Meaning names value v of the field: the codec of compression ("none", "gzip", "snappy",
// "lz4", "zstd"), the timestamp type ("CreateTime", "LogAppendTime"), "true" or "false" for a
// flag. It returns "" for unused bits and for a codec Kafka does not define.
func (b AttributeBit) Meaning(v int64) string {
	switch {
	case b.Name == "compression":
		if v >= 0 && v < int64(len(compressionNames)) {
			return compressionNames[v]
		}
		return ""
	case b.Name == "timestampType":
		if v != 0 {
			return "LogAppendTime"
		}
		return "CreateTime"
	case b.Name == "unused":
		return ""
	case b.Width == 1:
		return strconv.FormatBool(v != 0)
	}
	return ""
}

// compressionNames are the codecs of the attributes' low bits.
var compressionNames = [...]string{"none", "gzip", "snappy", "lz4", "zstd"}

// DescribeBatchAttributes names the bits set in a record batch's attributes:
// "compression=none timestampType=CreateTime transactional".
func DescribeBatchAttributes(a int16) string {
	return string(appendBatchAttributes(nil, a))
}

// appendBatchAttributes appends DescribeBatchAttributes(a) to dst.
func appendBatchAttributes(dst []byte, a int16) []byte {
	dst = append(dst, "compression="...)
	if c := int(a & attrCompression); c < len(compressionNames) {
		dst = append(dst, compressionNames[c]...)
	} else {
		dst = append(dst, "unknown"...)
	}
	if a&attrLogAppendTime != 0 {
		dst = append(dst, " timestampType=LogAppendTime"...)
	} else {
		dst = append(dst, " timestampType=CreateTime"...)
	}
	if a&attrTransactional != 0 {
		dst = append(dst, " transactional"...)
	}
	if a&attrControl != 0 {
		dst = append(dst, " control"...)
	}
	if a&attrDeleteHorizon != 0 {
		dst = append(dst, " deleteHorizon"...)
	}
	return dst
}

// attributesText is the display value of a batch's attributes, the value and the bits that
// differ from the defaults (no compression, CreateTime): "16 → transactional", "48 →
// transactional control", "1 → gzip", "0" — written into the text arena.
func (t *texts) attributesText(a int16) string {
	t.Reserve(60)
	start := t.Len()
	b := strconv.AppendInt(t.Buf(), int64(a), 10)
	sep := " → "
	add := func(name string) {
		b = append(append(b, sep...), name...)
		sep = " "
	}
	if c := int(a & attrCompression); c > 0 && c < len(compressionNames) {
		add(compressionNames[c])
	} else if c > 0 {
		add("codec" + strconv.Itoa(c))
	}
	if a&attrLogAppendTime != 0 {
		add("LogAppendTime")
	}
	if a&attrTransactional != 0 {
		add("transactional")
	}
	if a&attrControl != 0 {
		add("control")
	}
	if a&attrDeleteHorizon != 0 {
		add("deleteHorizon")
	}
	t.Set(b)
	return t.Since(start)
}
