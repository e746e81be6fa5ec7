package diagram

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGridBytes: the bytes option draws real bytes through a spec, every field's value read
// from them, as grid -bytes does, in a drawing, a served diagram and a Markdown fence; bytes
// that are no bytes are the option's error.
func TestGridBytes(t *testing.T) {
	spec, err := os.ReadFile(filepath.Join("..", "examples", "protocols", "ipv4.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	// An IPv4 header of a TCP segment from 172.16.10.99 to 172.16.10.12, TTL 64.
	const hdr = "4500003c1c4640004006b1e6ac100a63ac100a0c"
	d := NewDrawer(nil, "")
	got, err := d.Draw(Request{Type: Bytegrid, Format: "txt", Source: spec, Name: "ipv4.yaml", Options: map[string]string{"bytes": hdr}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"172.16.10.99", "172.16.10.12", "64", "0xb1e6"} {
		if !strings.Contains(string(got.Data), want) {
			t.Errorf("the drawing of the bytes lacks %q:\n%s", want, got.Data)
		}
	}
	plain, err := d.Draw(Request{Type: Bytegrid, Format: "txt", Source: spec, Name: "ipv4.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(plain.Data), "172.16.10.99") {
		t.Error("the spec's own drawing shows the bytes' values")
	}
	// In Markdown: the option on the fence's info string.
	md := "# IPv4\n\n```bytegrid bytes=" + hdr + "\n" + string(spec) + "```\n"
	out, _, err := d.Markdown("doc.md", []byte(md), MarkdownOptions{Inline: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "172.16.10.99") {
		t.Error("a fence with bytes= does not draw their values")
	}
	if _, err := d.Draw(Request{Type: Bytegrid, Format: "txt", Source: spec, Name: "ipv4.yaml", Options: map[string]string{"bytes": "not bytes at all"}}); err == nil || !IsInput(err) || !strings.Contains(err.Error(), "option bytes=") {
		t.Errorf("bytes that are no bytes: %v", err)
	}
}
