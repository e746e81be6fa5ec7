package kafka

import (
	"errors"

	"github.com/kafkagrid/kafkagrid/schemas"
	"testing"
)

func TestCRC32C(t *testing.T) {
	// The check value of CRC-32C (RFC 3720, appendix B.4).
	if got := CRC32C([]byte("123456789")); got != 0xe3069283 {
		t.Errorf("CRC32C = %#x", got)
	}
}

func TestUUID(t *testing.T) {
	tests := []struct {
		in, text, b64 string
		err           bool
	}{
		{"00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000001", "AAAAAAAAQACAAAAAAAAAAQ", false},
		{"AAAAAAAAQACAAAAAAAAAAQ", "00000000-0000-4000-8000-000000000001", "AAAAAAAAQACAAAAAAAAAAQ", false},
		{"00000000000040008000000000000001", "", "", true},
		{"0000000g-0000-4000-8000-000000000001", "", "", true},
		{"", "", "", true},
	}
	for _, tt := range tests {
		u, err := ParseUUID(tt.in)
		if (err != nil) != tt.err {
			t.Errorf("ParseUUID(%q) error %v", tt.in, err)
			continue
		}
		if err == nil && (u.String() != tt.text || u.Base64() != tt.b64) {
			t.Errorf("ParseUUID(%q) = %s %s", tt.in, u, u.Base64())
		}
	}
}

func TestReaderVarints(t *testing.T) {
	tests := []struct {
		in   []byte
		want uint64
		err  string
	}{
		{[]byte{0}, 0, ""},
		{[]byte{0x7f}, 127, ""},
		{[]byte{0x80, 0x01}, 128, ""},
		{[]byte{0x80, 0x00}, 0, "varint not in its shortest form"},
		{[]byte{0x80}, 0, "unexpected end of data: unterminated varint"},
		{[]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}, 0, "varint overflows 64 bits"},
	}
	for _, tt := range tests {
		r := &reader{buf: tt.in, end: len(tt.in)}
		got, err := r.uvarint(0)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("% x: error %v, want %s", tt.in, err, tt.err)
			}
			if tt.err[:10] == "unexpected" && !errors.Is(err, ErrTruncated) {
				t.Errorf("% x: %v is not ErrTruncated", tt.in, err)
			}
			continue
		}
		if err != nil || got != tt.want || r.off != len(tt.in) {
			t.Errorf("% x: %d, %v", tt.in, got, err)
		}
	}
	// Zigzag: -1 is 01, 1 is 02.
	for _, c := range []struct {
		b []byte
		v int64
	}{{[]byte{1}, -1}, {[]byte{2}, 1}, {[]byte{0x58}, 44}} {
		r := &reader{buf: c.b, end: len(c.b)}
		if v, err := r.varint(0); err != nil || v != c.v {
			t.Errorf("varint % x = %d, %v; want %d", c.b, v, err, c.v)
		}
		w := &writer{}
		w.varint(c.v)
		if string(w.buf) != string(c.b) {
			t.Errorf("varint %d written % x", c.v, w.buf)
		}
	}
}

func TestIsDefault(t *testing.T) {
	c := testCatalog(t, "4.0")
	api, _ := c.Lookup("Fetch")
	v := api.Version
	var check = func(name string, x any, want bool) {
		t.Helper()
		var found bool
		api.Response.Walk(func(f *schemas.Field) bool {
			if f.Name == name && f.TaggedIn(v) && !found {
				found = true
				if got := isDefault(f, v, x); got != want {
					t.Errorf("isDefault(%s, %v) = %v, want %v", name, x, got, want)
				}
			}
			return true
		})
		if !found {
			t.Errorf("no tagged field %s in %s", name, api.Response.Name)
		}
	}
	check("CurrentLeader", Values{}, true)
	check("CurrentLeader", Values{"LeaderId": int64(-1), "LeaderEpoch": int64(-1)}, true)
	check("CurrentLeader", Values{"LeaderId": int64(1), "LeaderEpoch": int64(5)}, false)
	check("NodeEndpoints", []any{}, true)
	check("NodeEndpoints", []any{Values{}}, false)
	check("DivergingEpoch", Values{"Epoch": int64(-1), "EndOffset": int64(-1)}, true)
}
