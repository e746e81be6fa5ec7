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

// TestShortRecordCount: a batch whose record count is short of its records says so, not that
// its CRC does not match.
func TestShortRecordCount(t *testing.T) {
	cat := testCatalog(t, "4.0")
	vs, err := cat.Vectors(VectorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		if v.API.Name != "Produce" {
			continue
		}
		var count *Node
		v.Request.Root.Walk(func(n *Node) bool {
			if count == nil && strings.HasSuffix(n.Path, "].Records#length") && n.Length == 4 {
				count = n
			}
			return true
		})
		if count == nil {
			t.Fatal("no record count")
		}
		b := bytes.Clone(v.Request.Bytes)
		c := binary.BigEndian.Uint32(b[count.Offset:])
		if c < 1 {
			t.Fatalf("record count %d", c)
		}
		binary.BigEndian.PutUint32(b[count.Offset:], c-1)
		_, err := cat.Decode(b, DecodeOptions{})
		if err == nil || !strings.Contains(err.Error(), "but") || !strings.Contains(err.Error(), "bytes of the batch follow its last record") || strings.Contains(err.Error(), "CRC") {
			t.Errorf("count %d of %d: %v", c-1, c, err)
		}
		return
	}
	t.Fatal("no Produce example")
}
