package capture

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
)

// TestNewerFrameNotMasked: a request of a version the catalogue lacks (franz-go's Produce
// v13, Kafka 4.1's, read with 4.0) whose snappy record set holds what looks like a SASL PLAIN
// token (a NUL, printable bytes, a NUL, printable bytes: "\x00\xee\xec\x00\xee\xec") is read
// with the release that has it from the bytes as sent: whole, nothing masked, no redaction
// note. With no other release it stays refused by its header, and the error says so (not the
// "corrupt input" of a record set whose bytes the masking changed). The frame is one a
// franz-go producer sent to kfake (dissector's clientTraffic, -clientcapture).
func TestNewerFrameNotMasked(t *testing.T) {
	h, err := os.ReadFile(filepath.Join("testdata", "produce-v13-snappy.hex"))
	if err != nil {
		t.Fatal(err)
	}
	frame, err := ParseHex(h)
	if err != nil {
		t.Fatal(err)
	}
	if masked, _ := kafka.MaskAuth(frame); bytes.Equal(masked, frame) {
		t.Fatal("the fixture no longer looks like a SASL PLAIN token anywhere: it tests nothing")
	}
	c40, err := kafka.LoadCatalog(testenv.Release(t, "4.0"))
	if err != nil {
		t.Fatal(err)
	}
	only := func(r *Result) *Message {
		t.Helper()
		if len(r.Conns) != 1 || len(r.Conns[0].Exchanges) != 1 || r.Conns[0].Exchanges[0].Request == nil {
			t.Fatalf("want one request, got %+v", r)
		}
		return r.Conns[0].Exchanges[0].Request
	}
	r, err := Read(c40, frame, newerOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	m := only(r)
	if m.Err != nil || !bytes.Equal(m.Bytes, frame) {
		t.Errorf("with 4.1 at hand: err %v, bytes as sent %v", m.Err, bytes.Equal(m.Bytes, frame))
	}
	for _, n := range r.Notes {
		if strings.Contains(n, "masked") || strings.Contains(n, "redacted") {
			t.Errorf("note %q", n)
		}
	}
	r, err = Read(c40, frame, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m := only(r); m.Err == nil || !headerRefused(m.Err) {
		t.Errorf("with 4.0 alone: %v, want its header refused", m.Err)
	}
}
