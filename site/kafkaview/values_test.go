package kafkaview

import (
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/tree"
)

func TestValueText(t *testing.T) {
	listOffsets := &kafka.Frame{API: &kafka.API{Key: listOffsetsKey}}
	produce := &kafka.Frame{API: &kafka.API{Key: 0}}
	field := func(name, typ, value string) *kafka.Node {
		return &kafka.Node{Kind: kafka.KindField, Name: name, WireType: typ, Value: value}
	}
	for _, tt := range []struct {
		name string
		f    *kafka.Frame
		n    *kafka.Node
		want string
	}{
		{"batch timestamp", produce, field("BaseTimestamp", "int64", "1767225600000"), "1767225600000 → 2026-01-01T00:00Z"},
		{"with ms", produce, field("MaxTimestamp", "int64", "1767225600123"), "1767225600123 → 2026-01-01T00:00:00.123Z"},
		{"Ms suffix", produce, field("IssueTimestampMs", "int64", "1767226200000"), "1767226200000 → 2026-01-01T00:10Z"},
		{"seconds", produce, field("IssueTimestampMs", "int64", "1767226201000"), "1767226201000 → 2026-01-01T00:10:01Z"},
		{"no timestamp", produce, field("BaseTimestamp", "int64", "-1"), "-1"},
		{"a delta", produce, field("TimestampDelta", "varlong", "0"), "0"},
		{"not a time", produce, field("Timestamp", "int64", "42"), "42"},
		{"int32", produce, field("CreateTimestamp", "int32", "1767225600"), "1767225600"},
		{"latest", listOffsets, field("Timestamp", "int64", "-1"), "-1 → latest offset"},
		{"earliest", listOffsets, field("Timestamp", "int64", "-2"), "-2 → earliest offset"},
		{"unknown special", listOffsets, field("Timestamp", "int64", "-99"), "-99"},
		{"a response's time", &kafka.Frame{API: &kafka.API{Key: listOffsetsKey}, Response: true}, field("Timestamp", "int64", "-1"), "-1"},
		{"named already", produce, field("Timestamp", "int64", "-1 → none"), "-1 → none"},
		{"length", produce, &kafka.Node{Kind: kafka.KindLength, Name: "BaseTimestamp", WireType: "int64", Value: "1767225600000"}, "1767225600000"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := ValueText(tt.f, tt.n); got != tt.want {
				t.Errorf("ValueText = %q, want %q", got, tt.want)
			}
			// The tree: a time's date alone, anything else as the grid has it.
			want := tt.want
			if _, date, ok := strings.Cut(tt.want, " → "); ok && strings.HasPrefix(date, "20") {
				want = date
			}
			if got := TreeValueText(tt.f, tt.n); got != want {
				t.Errorf("TreeValueText = %q, want %q", got, want)
			}
		})
	}
}

// TestReadableValues: the grid and the tree of real example frames show a batch's timestamps
// with their dates, and a ListOffsets request's -1 as the latest offset.
func TestReadableValues(t *testing.T) {
	frames := framesByName(t, testCatalog(t, "4.0"))
	for _, tt := range []struct{ frame, name, want string }{
		{"0-Produce-v12-request", "BaseTimestamp", "2026-01-01T00:00Z"},
		{"2-ListOffsets-v10-request", "Timestamp", "-1 → latest offset"},
	} {
		f := frames[tt.frame]
		if f == nil {
			t.Fatalf("no frame %s", tt.frame)
		}
		v := New(f)
		found := false
		for _, fd := range v.Fields {
			if fd.Name == tt.name {
				found = true
				if !strings.Contains(fd.Value, tt.want) {
					t.Errorf("%s: grid box %s = %q, want it to hold %q", tt.frame, fd.Name, fd.Value, tt.want)
				}
			}
		}
		if !found {
			t.Errorf("%s: no box %s", tt.frame, tt.name)
		}
		if !treeHas(v, tt.name, tt.want) {
			t.Errorf("%s: no tree node %s holding %q", tt.frame, tt.name, tt.want)
		}
	}
}

// treeHas reports whether a node of v's tree is named name with a value holding want.
func treeHas(v *View, name, want string) bool {
	stack := []*tree.Node{v.Tree}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.Name == name && strings.Contains(n.Value, want) {
			return true
		}
		stack = append(stack, n.Children...)
	}
	return false
}
