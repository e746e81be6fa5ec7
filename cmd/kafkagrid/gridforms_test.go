package main

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/canvas/rfcsvg"
	"github.com/kafkagrid/kafkagrid/canvas/svgcheck"
)

// notationSpec is one of the notation package's examples.
func notationSpec(name string) string {
	return filepath.Join("..", "..", "bytegrid", "notation", "testdata", name)
}

// withStdin runs f with standard input reading data.
func withStdin(t *testing.T, data string, f func()) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "stdin")
	if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	old := os.Stdin
	os.Stdin = in
	defer func() { os.Stdin = old }()
	f()
}

// TestGridForms: each form, told by its content and named by -from, draws its fields.
func TestGridForms(t *testing.T) {
	bf := gridSpec(t, "ipv4-bitfield.json")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{gridSpec(t, "udp.yaml")}, "|          Source Port          |       Destination Port        |"},
		{[]string{gridSpec(t, "udp.yaml"), "-from", "yaml"}, "Destination Port"},
		{[]string{notationSpec("http2-frame.txt")}, "Stream Identifier"},
		{[]string{notationSpec("http2-frame.txt"), "-from", "notation"}, "Frame Payload"},
		{[]string{bf, "-lanes", "6", "-hflip", "-vflip"}, "|Version|  IHL  |Type of Service|         Total Length          |"},
		{[]string{bf, "--lanes", "6", "--hflip", "--vflip", "-from", "bitfield"}, "|        Identification         |Flags|     Fragment Offset     |"},
	} {
		out, _, err := runGridCmd(t, tc.args...)
		if err != nil {
			t.Errorf("%v: %v", tc.args, err)
			continue
		}
		if !strings.Contains(out, tc.want) {
			t.Errorf("%v: no %q in\n%s", tc.args, tc.want, out)
		}
	}
}

// TestGridStdin: "-" reads standard input in any form, and errors name it.
func TestGridStdin(t *testing.T) {
	src, err := os.ReadFile(notationSpec("quic-long-header.txt"))
	if err != nil {
		t.Fatal(err)
	}
	withStdin(t, string(src), func() {
		out, _, err := runGridCmd(t, "-", "-format", "notation", "-o", "-")
		if err != nil || out != string(src) {
			t.Errorf("notation from stdin, written back: %v\n%s", err, out)
		}
	})
	ysrc, _ := os.ReadFile(gridSpec(t, "dns.yaml"))
	withStdin(t, string(ysrc), func() {
		out, _, err := runGridCmd(t, "-", "-format", "svg")
		if err != nil || svgcheck.Check([]byte(out)) != nil {
			t.Errorf("YAML from stdin as SVG: %v", err)
		}
	})
	// A bit-field document has no title: from stdin it is "bit-field", not "<stdin>".
	withStdin(t, `[{"bits": 8, "name": "x"}]`, func() {
		out, _, err := runGridCmd(t, "-", "-format", "yaml")
		if err != nil || !strings.HasPrefix(out, "name: bit-field\n") {
			t.Errorf("bit-field from stdin as YAML: %v\n%s", err, out)
		}
	})
	withStdin(t, "S {\n  A (8),\n  B (x),\n}\n", func() {
		_, _, err := runGridCmd(t, "-")
		if err == nil || !strings.Contains(err.Error(), "<stdin>:3:6: field \"B\"") {
			t.Errorf("error from stdin: %v", err)
		}
	})
}

// TestGridRFCSVG: every example, in every form, passes the SVG 1.2 RFC profile check as
// -format rfcsvg writes it, to stdout and to a .svg file.
func TestGridRFCSVG(t *testing.T) {
	var inputs [][]string
	yamls, _ := filepath.Glob(gridSpec(t, "*.yaml"))
	for _, y := range yamls {
		inputs = append(inputs, []string{y})
	}
	notes, _ := filepath.Glob(notationSpec("*.txt"))
	for _, n := range notes {
		inputs = append(inputs, []string{n})
	}
	inputs = append(inputs, []string{gridSpec(t, "ipv4-bitfield.json"), "-lanes", "6", "-hflip", "-vflip"})
	if len(inputs) < 10 {
		t.Fatalf("%d inputs", len(inputs))
	}
	dir := t.TempDir()
	for _, in := range inputs {
		out, _, err := runGridCmd(t, append(in, "-format", "rfcsvg")...)
		if err != nil {
			t.Errorf("%v: %v", in, err)
			continue
		}
		if err := rfcsvg.Check([]byte(out)); err != nil {
			t.Errorf("%v: not in the profile:\n%v", in, err)
		}
		file := filepath.Join(dir, filepath.Base(in[0])+".svg")
		if _, _, err := runGridCmd(t, append(in, "-format", "rfcsvg", "-o", file)...); err != nil {
			t.Errorf("%v -o %s: %v", in, file, err)
		} else if b, _ := os.ReadFile(file); string(b) != out {
			t.Errorf("%v: the file differs from stdout", in)
		}
	}
}

// TestGridYAMLOut: -format yaml prints any form as YAML that draws the same grid.
func TestGridYAMLOut(t *testing.T) {
	dir := t.TempDir()
	alpha := filepath.Join(dir, "alpha.json") // bit-field's own example: unnamed fields are gaps
	os.WriteFile(alpha, []byte(`[{"name":"IPO","bits":8,"attr":"RO"},{"bits":7},{"name":"BRK","bits":5,"attr":"RW","type":4},{"name":"CPK","bits":1},{"name":"Clear","bits":3},{"bits":8}]`), 0o644)
	for _, in := range [][]string{
		{alpha},
		{gridSpec(t, "tcp.yaml")},
		{gridSpec(t, "ipv4-bitfield.json"), "-lanes", "6", "-hflip", "-vflip"},
		{notationSpec("http2-frame.txt")}, // fixed fields only; the variable payload's keys need gridyaml's reader of them
	} {
		want, _, err := runGridCmd(t, in...)
		if err != nil {
			t.Fatal(err)
		}
		y, _, err := runGridCmd(t, append(in, "-format", "yaml")...)
		if err != nil {
			t.Fatalf("%v: %v", in, err)
		}
		if in[0] == notationSpec("http2-frame.txt") {
			if !strings.Contains(y, "{name: Frame Payload, bytes: 3, variable: true}") {
				t.Errorf("%v as YAML:\n%s", in, y)
			}
			continue
		}
		file := filepath.Join(dir, filepath.Base(in[0])+".yaml")
		if _, _, err := runGridCmd(t, append(in, "-o", file)...); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(file); string(b) != y {
			t.Errorf("%v: -o x.yaml differs from -format yaml", in)
		}
		got, _, err := runGridCmd(t, file)
		if err != nil {
			t.Fatalf("%v: the YAML printed does not read: %v\n%s", in, err, y)
		}
		if got != want {
			t.Errorf("%v: the YAML printed draws\n%s\nwant\n%s", in, got, want)
		}
	}
}

// TestGridNotationOut: -format notation writes the notation back as it was read, and a YAML
// spec as a structure (its name's parenthesised part dropped).
func TestGridNotationOut(t *testing.T) {
	notes, _ := filepath.Glob(notationSpec("*.txt"))
	for _, n := range notes {
		src, _ := os.ReadFile(n)
		out, _, err := runGridCmd(t, n, "-format", "notation")
		if err != nil || out != string(src) {
			t.Errorf("%s: %v\n%s", n, err, out)
		}
	}
	out, _, err := runGridCmd(t, gridSpec(t, "udp.yaml"), "-format", "notation")
	if err != nil || !strings.HasPrefix(out, "UDP header {\n  Source Port (16),\n  Destination Port (16),\n") {
		t.Errorf("udp.yaml as notation: %v\n%s", err, out)
	}
}

func TestGridFormErrors(t *testing.T) {
	dir := t.TempDir()
	badJSON := filepath.Join(dir, "bad.json")
	os.WriteFile(badJSON, []byte("[\n  {\"name\": \"A\", \"bits\": 8},\n  {\"name\": \"B\", \"bitz\": 8}\n]\n"), 0o644)
	gap := filepath.Join(dir, "gap.yaml")
	os.WriteFile(gap, []byte("name: g\nfields:\n  - {name: a, bits: 8}\n  - {name: b, bits: 8, offset: 16}\n"), 0o644)
	art := filepath.Join(dir, "art.txt")
	os.WriteFile(art, []byte(" 0                   1\n 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5\n+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+\n|          Source Port          |\n+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+\n"), 0o644)
	gapBefore, _ := os.ReadFile(gap)
	defer func() {
		if after, _ := os.ReadFile(gap); string(after) != string(gapBefore) {
			t.Errorf("the spec was overwritten:\n%s", after)
		}
	}()
	for _, tc := range []struct {
		args  []string
		usage bool
		want  string
	}{
		{[]string{gridSpec(t, "udp.yaml"), "-from", "xml"}, true, `unknown input form "xml" (want yaml, rfc, notation, bitfield, tls)`},
		{[]string{gridSpec(t, "udp.yaml"), "-lanes", "2"}, true, "-lanes, -bits, -hflip and -vflip are for bit-field input"},
		{[]string{gridSpec(t, "ipv4-bitfield.json"), "-lanes", "6", "-rowbits", "16"}, true, "use -lanes"},
		{[]string{gridSpec(t, "ipv4-bitfield.json"), "-lanes", "-1"}, true, "must not be negative"},
		{[]string{gridSpec(t, "ipv4-bitfield.json")}, false, "lanes, of 192 bits here: -lanes and -bits change them"}, // one lane of 192 bits
		{[]string{badJSON}, false, `bad.json:3:17: field "B": unknown key "bitz"`},
		{[]string{gridSpec(t, "udp.yaml"), "-from", "notation"}, false, "udp.yaml:"},
		{[]string{gridSpec(t, "udp.yaml"), "-from", "bitfield"}, false, "udp.yaml:1:1"},
		{[]string{notationSpec("http2-frame.txt"), "-from", "yaml"}, false, "gridyaml"},
		{[]string{gap, "-format", "notation"}, false, "bits 8 to 16 have no field"},
		{[]string{gridSpec(t, "udp.yaml"), "-format", "rfcsvg", "-o", "x.pdf"}, true, "-format rfcsvg, but -o x.pdf"},
		{[]string{gap, "-format", "yaml", "-o", gap}, true, "is the spec itself"},
		{[]string{art, "-from", "notation"}, false, "art.txt:"},
	} {
		_, _, err := runGridCmd(t, tc.args...)
		var u usageError
		if err == nil || errors.As(err, &u) != tc.usage || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err = %v (usage %v), want %q (usage %v)", tc.args, err, errors.As(err, &u), tc.want, tc.usage)
		}
	}
}

// TestGridHelpForms: -h documents every input form and output format.
func TestGridHelpForms(t *testing.T) {
	out, _, _ := runGridCmd(t, "-h")
	for _, want := range []string{"SPEC|-", "yaml ", "notation ", "bitfield ", "rfcsvg ", "-from FORM", "-lanes N", "-hflip", "-vflip", "Frame Payload (..)", "RFC 7996"} {
		if !strings.Contains(out, want) {
			t.Errorf("grid -h lacks %q:\n%s", want, out)
		}
	}
}

// BenchmarkGridForms: the grid verb in-process on each example of each form, as SVG (the
// whole command but for process start-up and the file's rename).
//
//	go test ./cmd/kafkagrid -run XXX -bench GridForms -benchmem
func BenchmarkGridForms(b *testing.B) {
	inputs := map[string][]string{
		"ipv4.yaml":           {gridSpec(b, "ipv4.yaml")},
		"tcp.yaml":            {gridSpec(b, "tcp.yaml")},
		"udp.yaml":            {gridSpec(b, "udp.yaml")},
		"dns.yaml":            {gridSpec(b, "dns.yaml")},
		"ipv4-bitfield.json":  {gridSpec(b, "ipv4-bitfield.json"), "-lanes", "6", "-hflip", "-vflip"},
		"quic-long-header":    {notationSpec("quic-long-header.txt")},
		"quic-ack-frame":      {notationSpec("quic-ack-frame.txt")},
		"http2-frame":         {notationSpec("http2-frame.txt")},
		"ipv4.yaml rfcsvg":    {gridSpec(b, "ipv4.yaml"), "-format", "rfcsvg"},
		"quic-ack-frame yaml": {notationSpec("quic-ack-frame.txt"), "-format", "yaml"},
	}
	names := make([]string, 0, len(inputs))
	for n := range inputs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		args := append([]string{"grid"}, inputs[n]...)
		if !slices.Contains(args, "-format") {
			args = append(args, "-format", "svg")
		}
		b.Run(n, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := run(context.Background(), args, io.Discard, io.Discard); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
