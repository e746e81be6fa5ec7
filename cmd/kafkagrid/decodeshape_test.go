package main

import (
	"encoding/base64"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/kafka"
)

// TestDecodeShapes: frames without their size prefix, bodies alone, responses without their
// request or version, versions of another release, and text that is no form of bytes.
func TestDecodeShapes(t *testing.T) {
	dir, schemas, files := decodeVectors(t)
	root := listSchemaRoot(t)
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	req, _ := os.ReadFile(files["0-Produce-v12-request"])
	resp, _ := os.ReadFile(files["3-Metadata-v13-response"])
	c, err := kafka.LoadCatalog(schemas)
	if err != nil {
		t.Fatal(err)
	}
	meta, _ := c.Lookup("Metadata")
	f, err := c.Decode(resp, kafka.DecodeOptions{Response: true, API: meta, Version: 13})
	if err != nil {
		t.Fatal(err)
	}
	body := f.Root.Children[2].Offset
	nosize := write("produce-nosize.bin", req[4:])
	respBody := write("metadata-body.bin", resp[body:])
	respAlone := write("resp.bin", resp)
	b64 := write("produce.b64", []byte(base64.StdEncoding.EncodeToString(req)+"\n"))
	// issue 29's recipe: a "*" line claiming 128 MiB.
	star := write("star.hexdump", []byte("00000000  00 00 00 04 7f ff 00 00  00 00 00 04 7f ff 00 00  |................|\n*\n08000000\n"))
	junk := write("junk.txt", []byte("00 00 00 0a\n00 12 zz 04 "+strings.Repeat("0a ", 40)+"\n"))

	// A Fetch v3 request (Kafka 4.0 removed Fetch v0-v3, KIP-896) built with 3.9.
	out := t.TempDir()
	if _, errs, code := runCmd(t, "build", "-q", "-schemas", filepath.Join(root, "3.9"), "-out", out, "-format", "bin", "-apis", "Fetch", "-versions", "3"); code != 0 {
		t.Fatal(errs)
	}
	fetch3 := filepath.Join(out, "bin", "1-Fetch-v3-request.bin")
	// TrackingSoft/Kafka's Fetch v0 response with one bit of a message's CRC flipped.
	badCRC, _ := hex.DecodeString("0000006e000000000000000100076d79746f706963000000010000000000000000000000000002000000470000000000000000000000148dc795a20000ffffffff0000000648656c6c6f2100000000000000010000001b989feb390000ffffffff0000000d48656c6c6f2c20576f726c6421")
	badCRC[56] ^= 1
	crc := write("badcrc.bin", badCRC)

	// The release decode turns to for a version 4.0 lacks: the newest other that has it (3.9
	// of the shared releases).
	fetch3Rel, fetch0Rel := newestWith(t, root, "4.0", "Fetch", 3), newestWith(t, root, "4.0", "Fetch", 0)

	tests := []struct {
		name string
		args []string
		code int
		want []string // in stdout
		errs string   // in stderr
	}{
		{"no size, detected", []string{nosize}, 0, []string{
			"note: the only reading of these bytes (frame without its size prefix) that decodes them whole: Produce v12 request",
			"     0  162  frame                    frame = Produce v12 request",
			"     0   20  struct                     header = RequestHeader v2"}, ""},
		{"no size, asked", []string{"-no-size", nosize}, 0, []string{"frame = Produce v12 request"}, ""},
		{"body, asked", []string{"-body", "-api", "Metadata", "-version", "13", "-response", respBody}, 0, []string{
			"note: read as Metadata v13 response, body only (no size, no header), as asked",
			"     0  185  struct                     body = MetadataResponse v13"}, ""},
		{"body, detected", []string{respBody}, 0, []string{"body only (no size, no header)", "frame = Metadata v13 response"}, ""},
		{"response, no version", []string{"-response", "-api", "Metadata", respAlone}, 0, []string{
			"Metadata v13 response", "frame = Metadata v13 response"}, ""},
		{"no version fits", []string{"-response", "-api", "Produce", respAlone}, 1, []string{
			"note: no version of Produce (Kafka 4.0, ", ") reads these bytes (a whole response frame) whole; the closest is Produce"}, "kafka: Produce v"},
		{"base64 asked", []string{"-from", "base64", b64}, 0, []string{"note: read as base64", "frame = Produce v12 request"}, ""},
		{"base64 detected", []string{b64}, 0, []string{"note: read as base64"}, ""},
		{"form forced, wrong", []string{"-from", "list", b64}, 1, nil, "(read as list)"},
		{"bad form", []string{"-from", "yaml", b64}, 2, nil, `-from: no form "yaml"`},
		{"none of the forms", []string{junk}, 1, nil,
			"line 2, column 7: \"z\" is not a hex digit, in \"zz\" (read as hex, the form that read furthest; tried string, dump, list, hex, base64)\n  2 | 00 12 zz 04 0a 0a"},
		{"a star past the limit", []string{star}, 1, nil,
			`line 2, column 1: "*" repeats the line before up to offset 0x8000000: 134217712 more bytes, past the 4194304 (4 MiB, textbytes.MaxRepeat)`},
		{"another release", []string{"-schemas", root, fetch3}, 0, []string{
			"Fetch v3 is not in Kafka 4.0 (Kafka 4.0 removed the oldest versions, KIP-896) but is in Kafka " + fetch3Rel + ": decoded with its schemas (-release " + fetch3Rel + ")",
			"frame = Fetch v3 request"}, ""},
		{"closest: a CRC that differs", []string{"-schemas", root, crc}, 1, []string{
			"the closest is Fetch v0 response (Kafka " + fetch0Rel + ", -release " + fetch0Rel + "), which fails at offset 55"},
			"Records[0].CRC: offset 55: CRC 0x8dc695a2, the message's bytes give 0x8dc795a2"},
		{"api of another release", []string{"-schemas", root, "-response", "-api", "LeaderAndIsr", respAlone}, 1, nil, "LeaderAndIsr"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"decode", "-q"}, tt.args...)
			if !strings.Contains(strings.Join(tt.args, " "), "-schemas") {
				args = append(args, "-schemas", schemas)
			}
			out, errs, code := runCmd(t, args...)
			if code != tt.code || !strings.Contains(errs, tt.errs) {
				t.Fatalf("exit %d (want %d), stderr %q (want %q)\n%s", code, tt.code, errs, tt.errs, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("stdout lacks %q:\n%s", w, out)
				}
			}
			for _, l := range strings.Split(errs, "\n") {
				if strings.HasPrefix(l, "  ") && len([]rune(l)) > 80+10 {
					t.Errorf("a quoted line longer than 80 characters: %q", l)
				}
			}
		})
	}
}

// TestDecodeOldClient: an old client's request, of a version Kafka 4.0 removed (KIP-896),
// gets one answer in every input: with the releases beside 4.0, decoded with 3.9's schemas and
// a note, as hex and in a capture alike, headed with its own correlation id; with 4.0 alone, a
// request still, headed so, with a note naming the releases that have it (not the closest of
// readings that all fail, nor a response).
func TestDecodeOldClient(t *testing.T) {
	root := listSchemaRoot(t)
	alone := filepath.Join(t.TempDir(), "only")
	if err := os.MkdirAll(alone, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "4.0"), filepath.Join(alone, "4.0")); err != nil {
		t.Fatal(err)
	}
	// Fetch v0 request, correlation id 5, client "c", no topics.
	frame, _ := hex.DecodeString("0000001b" + "00010000" + "00000005" + "000163" + "ffffffff" + "00000064" + "00000001" + "00000000")
	in := filepath.Join(t.TempDir(), "fetch-v0.hex")
	if err := os.WriteFile(in, []byte(hex.EncodeToString(frame)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		schemas []string
		want    []string
		code    int
	}{
		{[]string{root, "-release", "4.0"}, []string{"Fetch v0 is not in Kafka 4.0 (Kafka 4.0 removed the oldest versions, KIP-896) but is in Kafka 3.9: decoded with its schemas (-release 3.9)",
			"-- Fetch v0 request, correlation id 5,"}, 0},
		{[]string{filepath.Join(alone, "4.0")}, []string{"Fetch v0 is not in Kafka 4.0 (Kafka 4.0 removed the oldest versions, KIP-896) but is in Kafka 2.2, 2.4, 2.8, 3.0, 3.3, 3.6, 3.9: give -release 3.9 (or -kafka 3.9) to decode it",
			"-- Fetch v0 request, correlation id 5,", "error: kafka: Fetch v0 request: header.RequestApiVersion"}, 1},
	} {
		out, errs, code := runCmd(t, append(append([]string{"decode", "-schemas"}, tt.schemas...), in)...)
		if code != tt.code {
			t.Errorf("%s: exit %d: %s\n%s", tt.schemas, code, errs, out)
		}
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: output lacks %q:\n%s", tt.schemas, w, out)
			}
		}
		if strings.Contains(out, " response,") || strings.Contains(out, "unpaired") {
			t.Errorf("%s: a request read as a response:\n%s", tt.schemas, out)
		}
	}
}
