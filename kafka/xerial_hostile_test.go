package kafka

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/klauspost/compress/snappy"
)

// TestXerialLimitText: a xerial stream whose second block passes the limit names the limit,
// not what the first block left of it ("limit (0 bytes)").
func TestXerialLimitText(t *testing.T) {
	blk := snappy.Encode(nil, bytes.Repeat([]byte{'a'}, 1000))
	src := append([]byte(nil), xerialMagic...)
	for len(src) < 16 {
		src = append(src, 0)
	}
	for range 2 {
		src = binary.BigEndian.AppendUint32(src, uint32(len(blk)))
		src = append(src, blk...)
	}
	_, _, _, err := decompress(CodecSnappy, src, 1000)
	if err == nil || !strings.Contains(err.Error(), "exceeds the limit (1000 bytes): the blocks before it inflate to 1000") {
		t.Errorf("err = %v", err)
	}
}
