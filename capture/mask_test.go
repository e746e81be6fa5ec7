package capture

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
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

// TestRefusedReadingsNotCounted: a request that no release's header takes is masked once,
// and its secrets counted once, however many releases read it first and left it.
func TestRefusedReadingsNotCounted(t *testing.T) {
	h, err := os.ReadFile(filepath.Join("testdata", "produce-v13-snappy.hex"))
	if err != nil {
		t.Fatal(err)
	}
	frame, err := ParseHex(h)
	if err != nil {
		t.Fatal(err)
	}
	c40, err := kafka.LoadCatalog(testenv.Release(t, "4.0"))
	if err != nil {
		t.Fatal(err)
	}
	alone, err := Read(c40, frame, Options{})
	if err != nil {
		t.Fatal(err)
	}
	refusing := func() []Release { return []Release{{Name: "a", Catalog: c40}, {Name: "b", Catalog: c40}} }
	tried, err := Read(c40, frame, Options{Releases: refusing})
	if err != nil {
		t.Fatal(err)
	}
	if len(alone.Notes) == 0 || !strings.HasPrefix(alone.Notes[len(alone.Notes)-1], RedactedNote) {
		t.Fatalf("the frame is no longer masked alone: %q", alone.Notes)
	}
	if !slices.Equal(tried.Notes, alone.Notes) {
		t.Errorf("after two releases refused its header:\n%q\nwant\n%q", tried.Notes, alone.Notes)
	}
}
