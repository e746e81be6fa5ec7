package kafka

import "testing"

// TestValueNameReadable: Produce's Acks and the timestamp fields read as what they mean; the
// special timestamps (-1 latest, -2 earliest) and other APIs' Acks stay numbers.
func TestValueNameReadable(t *testing.T) {
	for _, c := range []struct {
		key   int16
		field string
		v     int64
		want  string
	}{
		{0, "Acks", -1, "all in-sync replicas"},
		{0, "Acks", 0, "no acknowledgement"},
		{0, "Acks", 1, "the leader only"},
		{0, "Acks", 2, ""},
		{1, "Acks", -1, ""},
		{2, "Timestamp", -1, ""},
		{2, "Timestamp", -2, ""},
		{2, "Timestamp", 1767225600000, "2026-01-01T00:00:00Z"},
		{60, "LastTimestamp", 1767225600123, "2026-01-01T00:00:00.123Z"},
		{38, "ExpiryTimestampMs", 1767312600000, "2026-01-02T00:10:00Z"},
		{38, "ExpiryTimestampMs", 5000, ""},
		{1, "MaxWaitMs", 1767225600000, ""},
	} {
		if got := ValueName(c.key, c.field, c.v); got != c.want {
			t.Errorf("ValueName(%d, %s, %d) = %q, want %q", c.key, c.field, c.v, got, c.want)
		}
	}
}
