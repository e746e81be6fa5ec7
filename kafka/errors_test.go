package kafka

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// errorDifferences are the codes kerr names otherwise than Kafka today, with the reason; the
// test fails if one turns out to agree.
var errorDifferences = map[int16]string{
	6: "Kafka 2.7 renamed NOT_LEADER_FOR_PARTITION to NOT_LEADER_OR_FOLLOWER (KIP-392); kerr keeps the old name",
}

// TestErrorCodes keeps the table of error codes against franz-go's kerr, in both directions:
// every code of the table is kerr's with the same name and retriability, and every code kerr
// knows is in the table.
func TestErrorCodes(t *testing.T) {
	codes := ErrorCodes()
	if codes[0].Code != -1 || codes[1] != (ErrorCode{0, "NONE", false}) {
		t.Fatalf("the table starts %v", codes[:2])
	}
	for i, e := range codes {
		if i > 0 && e.Code != codes[i-1].Code+1 {
			t.Errorf("code %d follows %d", e.Code, codes[i-1].Code)
		}
		if e.Code == 0 {
			continue
		}
		var ke *kerr.Error
		if err := kerr.ErrorForCode(e.Code); !errors.As(err, &ke) || ke.Code != e.Code {
			t.Errorf("%d %s: kerr does not know it (%v)", e.Code, e.Name, err)
			continue
		}
		why, listed := errorDifferences[e.Code]
		switch {
		case ke.Retriable != e.Retriable:
			t.Errorf("%d: ours retriable=%v, kerr retriable=%v", e.Code, e.Retriable, ke.Retriable)
		case ke.Message != e.Name && !listed:
			t.Errorf("%d: ours %s, kerr %s", e.Code, e.Name, ke.Message)
		case ke.Message == e.Name && listed:
			t.Errorf("%d: kerr agrees (%s), but the differences say: %s", e.Code, e.Name, why)
		}
	}
	for c := int16(-1); c < 1000; c++ {
		var ke *kerr.Error
		if c == 0 || !errors.As(kerr.ErrorForCode(c), &ke) || ke.Code != c {
			continue
		}
		if _, ok := LookupErrorCode(c); !ok {
			t.Errorf("kerr knows %d %s, the table does not", c, ke.Message)
		}
	}
	for _, tc := range []struct {
		code int16
		name string
		ok   bool
	}{{0, "NONE", true}, {3, "UNKNOWN_TOPIC_OR_PARTITION", true}, {-1, "UNKNOWN_SERVER_ERROR", true}, {-2, "", false}, {32767, "", false}} {
		e, ok := LookupErrorCode(tc.code)
		if ok != tc.ok || e.Name != tc.name || ErrorName(tc.code) != tc.name {
			t.Errorf("LookupErrorCode(%d) = %v, %v; want %s, %v", tc.code, e, ok, tc.name, tc.ok)
		}
	}
}

// enumDifferences are the values where kmsg v1.15.1 and Kafka name a value differently, with
// the reason; the test fails if one turns out to agree.
var enumDifferences = map[string]string{
	"ACL operation 15":        "TWO_PHASE_COMMIT came with KIP-939 (Kafka 4.0's AclOperation); kmsg v1.15.1 stops at 14",
	"config resource type 32": "Kafka's ConfigResource.Type calls it GROUP (KIP-848); kmsg says GROUP_CONFIG",
}

// TestEnums keeps the enumerations kmsg also names against it.
func TestEnums(t *testing.T) {
	for _, tc := range []struct {
		enum *Enum
		kmsg func(int64) string
	}{
		{&enumACLResourceType, func(v int64) string { return kmsg.ACLResourceType(v).String() }},
		{&enumPatternType, func(v int64) string { return kmsg.ACLResourcePatternType(v).String() }},
		{&enumACLOperation, func(v int64) string { return kmsg.ACLOperation(v).String() }},
		{&enumACLPermissionType, func(v int64) string { return kmsg.ACLPermissionType(v).String() }},
		{&enumConfigResourceType, func(v int64) string { return kmsg.ConfigResourceType(v).String() }},
		{&enumConfigSource, func(v int64) string { return kmsg.ConfigSource(v).String() }},
		{&enumConfigType, func(v int64) string { return kmsg.ConfigType(v).String() }},
		{&enumConfigOperation, func(v int64) string { return kmsg.IncrementalAlterConfigOp(v).String() }},
	} {
		for _, v := range tc.enum.Values() {
			ours, _ := tc.enum.ValueName(v)
			theirs := tc.kmsg(v)
			why, listed := enumDifferences[fmt.Sprintf("%s %d", tc.enum.Name(), v)]
			switch {
			case theirs != ours && !listed:
				t.Errorf("%s %d: ours %s, kmsg %s", tc.enum.Name(), v, ours, theirs)
			case theirs == ours && listed:
				t.Errorf("%s %d: kmsg agrees (%s), but the differences say: %s", tc.enum.Name(), v, ours, why)
			}
		}
	}
}

func TestValueName(t *testing.T) {
	for _, tc := range []struct {
		key   int16
		field string
		v     int64
		want  string
	}{
		{3, "ErrorCode", 0, "NONE"},
		{0, "PartitionErrorCode", 3, "UNKNOWN_TOPIC_OR_PARTITION"},
		{29, "ResourceTypeFilter", 2, "TOPIC"},
		{32, "ResourceType", 2, "TOPIC"},
		{32, "ResourceType", 4, "BROKER"},
		{30, "ResourceType", 4, "CLUSTER"},
		{30, "ResourcePatternType", 3, "LITERAL"},
		{1, "IsolationLevel", 1, "READ_COMMITTED"},
		{10, "KeyType", 1, "TRANSACTION"},
		{51, "Mechanism", 2, "SCRAM-SHA-512"},
		{17, "Mechanism", 1, ""},
		{1, "MaxWaitMs", 500, ""},
		{3, "ErrorCode", 99999, ""},
	} {
		if got := ValueName(tc.key, tc.field, tc.v); got != tc.want {
			t.Errorf("ValueName(%d, %s, %d) = %q, want %q", tc.key, tc.field, tc.v, got, tc.want)
		}
	}
	if got := DescribeBatchAttributes(attrTransactional | attrControl); got != "compression=none timestampType=CreateTime transactional control" {
		t.Errorf("attributes: %s", got)
	}
	if got := DescribeBatchAttributes(4 | attrLogAppendTime); got != "compression=zstd timestampType=LogAppendTime" {
		t.Errorf("attributes: %s", got)
	}
	var tx texts
	for a, want := range map[int16]string{0: "0", 16: "16 → transactional", 48: "48 → transactional control",
		1 | attrLogAppendTime: "9 → gzip LogAppendTime", 7: "7 → codec7", 64: "64 → deleteHorizon"} {
		if got := tx.attributesText(a); got != want {
			t.Errorf("attributesText(%d) = %q, want %q", a, got, want)
		}
	}
}

// TestAttributeBits checks the sub-byte fields of batch and legacy message attributes: they
// tile the attributes' bits, and each value and meaning comes out of the right bits.
func TestAttributeBits(t *testing.T) {
	for _, tc := range []struct {
		name  string
		bits  []AttributeBit
		width int
		a     int64
		want  []string // "name value meaning" per field
	}{
		{"batch/none", BatchAttributeBits(), 16, 0, []string{"compression 0 none", "timestampType 0 CreateTime",
			"isTransactional 0 false", "isControlBatch 0 false", "hasDeleteHorizonMs 0 false", "unused 0 "}},
		{"batch/transactional-control", BatchAttributeBits(), 16, attrTransactional | attrControl, []string{"compression 0 none",
			"timestampType 0 CreateTime", "isTransactional 1 true", "isControlBatch 1 true", "hasDeleteHorizonMs 0 false", "unused 0 "}},
		{"batch/zstd-logappend-horizon", BatchAttributeBits(), 16, 4 | attrLogAppendTime | attrDeleteHorizon | 0x100, []string{"compression 4 zstd",
			"timestampType 1 LogAppendTime", "isTransactional 0 false", "isControlBatch 0 false", "hasDeleteHorizonMs 1 true", "unused 2 "}},
		{"batch/codec7", BatchAttributeBits(), 16, 7, []string{"compression 7 ", "timestampType 0 CreateTime",
			"isTransactional 0 false", "isControlBatch 0 false", "hasDeleteHorizonMs 0 false", "unused 0 "}},
		{"magic0/gzip", LegacyAttributeBits(0), 8, 1, []string{"compression 1 gzip", "unused 0 "}},
		{"magic1/snappy-logappend", LegacyAttributeBits(1), 8, 2 | 8, []string{"compression 2 snappy", "timestampType 1 LogAppendTime", "unused 0 "}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			next := 0
			var got []string
			for _, b := range tc.bits {
				if b.Shift != next {
					t.Errorf("%s starts at bit %d, want %d", b.Name, b.Shift, next)
				}
				next = b.Shift + b.Width
				v := b.Of(tc.a)
				got = append(got, fmt.Sprintf("%s %d %s", b.Name, v, b.Meaning(v)))
			}
			if next != tc.width {
				t.Errorf("fields end at bit %d, want %d", next, tc.width)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %q\nwant %q", got, tc.want)
			}
		})
	}
}
