package kafka

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"
)

// TestGunzipSize: gunzip's first buffer follows the trailer's declared size, bounded by what
// the input can inflate to and by the limit; a trailer that lies or a second member changes
// the buffer's size, never the data or the limit's error.
func TestGunzipSize(t *testing.T) {
	data := bytes.Repeat([]byte("record 0123456789 "), 1000)
	one, err := compress(nil, CodecGzip, data, false)
	if err != nil {
		t.Fatal(err)
	}
	two := append(append([]byte(nil), one...), one...)
	lying := append([]byte(nil), one...)
	binary.LittleEndian.PutUint32(lying[len(lying)-4:], 0xFFFFFFF0)
	for _, tc := range []struct {
		name     string
		src      []byte
		limit    int
		want     []byte
		wantSize int
		wantErr  error
	}{
		{"one member", one, DefaultMaxDecompressed, data, len(data) + 1, nil},
		{"two members", two, DefaultMaxDecompressed, append(append([]byte(nil), data...), data...), len(data) + 1, nil},
		{"past the limit", one, 100, nil, 101, ErrDecompressedTooLarge},
		{"lying trailer", lying, DefaultMaxDecompressed, nil, 1032*len(lying) + 1, nil},
		{"short", one[:10], DefaultMaxDecompressed, nil, 40, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := gzipSize(tc.src, tc.limit); got != tc.wantSize {
				t.Errorf("gzipSize = %d, want %d", got, tc.wantSize)
			}
			out, err := gunzip(tc.src, tc.limit)
			switch {
			case tc.wantErr != nil && !errors.Is(err, tc.wantErr):
				t.Errorf("gunzip: %v, want %v", err, tc.wantErr)
			case tc.want != nil && (err != nil || !bytes.Equal(out, tc.want)):
				t.Errorf("gunzip: %d bytes, %v; want %d bytes", len(out), err, len(tc.want))
			case tc.want == nil && tc.wantErr == nil && err == nil:
				t.Errorf("gunzip: %d bytes, no error; want one (a bad trailer or a cut member)", len(out))
			}
			if tc.name == "one member" && cap(out) != len(data)+1 {
				t.Errorf("gunzip: capacity %d for %d bytes declared, want one buffer of their size and a byte", cap(out), len(data))
			}
		})
	}
}
