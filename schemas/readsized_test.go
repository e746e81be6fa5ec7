package schemas

import (
	"bytes"
	"strings"
	"testing"
	"testing/iotest"
)

// TestReadAllSized reads what io.ReadAll of io.LimitReader(r, limit+1) reads, whatever size
// the file was said to have: exact, too small (it grew), too large, or past the limit.
func TestReadAllSized(t *testing.T) {
	text := strings.Repeat("0123456789", 100) // 1,000 bytes
	for _, c := range []struct {
		size, limit int64
		want        int
	}{
		{1000, 5000, 1000}, {0, 5000, 1000}, {10, 5000, 1000}, {999, 5000, 1000}, {1001, 5000, 1000},
		{100000, 5000, 1000}, {1000, 1000, 1000}, {1000, 999, 1000}, {0, 10, 11}, {5, 10, 11}, {-1, 10, 11},
	} {
		for _, r := range []func() *bytes.Reader{func() *bytes.Reader { return bytes.NewReader([]byte(text)) }} {
			for name, rd := range map[string]interface{ Read([]byte) (int, error) }{"whole": r(), "one byte": iotest.OneByteReader(r()), "data+EOF": iotest.DataErrReader(r())} {
				got, err := readAllSized(rd, c.size, c.limit)
				if err != nil {
					t.Fatalf("%s, size %d, limit %d: %v", name, c.size, c.limit, err)
				}
				if len(got) != c.want || string(got) != text[:c.want] {
					t.Errorf("%s, size %d, limit %d: read %d bytes, want %d", name, c.size, c.limit, len(got), c.want)
				}
			}
		}
	}
}
