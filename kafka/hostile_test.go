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

// FuzzSASLSecret: SASLSecret never panics, and its bounds lie within the message; Redact of
// a SaslAuthenticate request carrying it keeps the frame's length and changes only those bytes.
func FuzzSASLSecret(f *testing.F) {
	for _, s := range []string{"\x00alice\x00s3cret", "authz\x00bob\x00pw", "c=biws,r=abc,p=cHJvb2Y=", "n,,n=alice,r=abc",
		"n,,\x01auth=Bearer tok\x01\x01", "", "\x00", "\x00\x00", "c=,p=", "\x01auth="} {
		f.Add([]byte(s))
	}
	cat := testCatalog(f, "4.0")
	api, _ := cat.Lookup("SaslAuthenticate")
	f.Fuzz(func(t *testing.T, b []byte) {
		lo, hi, what := SASLSecret(b)
		if what != "" && (lo < 0 || hi > len(b) || lo > hi) {
			t.Fatalf("bounds %d:%d of %d", lo, hi, len(b))
		}
		fr, err := cat.Encode(Message{API: api, Version: 2, CorrelationID: 1, Body: Values{"AuthBytes": b}})
		if err != nil {
			return
		}
		g, err := cat.Decode(fr.Bytes, DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		Redact(g)
		if len(g.Bytes) != len(fr.Bytes) {
			t.Fatalf("length %d, was %d", len(g.Bytes), len(fr.Bytes))
		}
		for i := range g.Bytes {
			if g.Bytes[i] != fr.Bytes[i] && g.Bytes[i] != '*' {
				t.Fatalf("byte %d changed to %#x", i, g.Bytes[i])
			}
		}
	})
}
