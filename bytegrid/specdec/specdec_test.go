package specdec_test

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/bytegrid/gridyaml"
	"github.com/kafkagrid/kafkagrid/bytegrid/notation"
	"github.com/kafkagrid/kafkagrid/bytegrid/specdec"
	"github.com/kafkagrid/kafkagrid/tree"
)

func parse(t testing.TB, src string) *gridyaml.Spec {
	t.Helper()
	s, err := gridyaml.Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func unhex(t testing.TB, h string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(h, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// values is "path=value" for every field read, items' fields too, and the problems.
func values(r *specdec.Result) string {
	var out []string
	var walk func(fs []*specdec.Field)
	walk = func(fs []*specdec.Field) {
		for _, f := range fs {
			if f.Items != nil {
				for _, it := range f.Items {
					walk(it)
				}
				continue
			}
			if f.Bits > 0 || f.Problem != "" {
				out = append(out, f.Path+"="+f.Value)
			}
		}
	}
	walk(r.Fields)
	for _, p := range r.Problems {
		s := "error: "
		if p.Warning {
			s = "warning: "
		}
		out = append(out, s+p.Error())
	}
	return strings.Join(out, "; ")
}

func TestDecode(t *testing.T) {
	for _, c := range []struct{ name, spec, data, want string }{
		{"integers", `name: x
fields:
  - {name: a, bits: 4}
  - {name: b, bits: 4, type: int4}
  - {name: c, bits: 16, endian: little}
  - {name: d, bits: 16, type: int16}
  - {name: e, bits: 8, show: binary}
  - {name: f, bits: 8, show: hex}`, "9f 3412 fffe 05 0a", "a=9; b=-1; c=4660; d=-2; e=0b00000101; f=0x0a"},
		{"byte order", "name: x\nbyte_order: little\nfields:\n  - {name: a, bits: 32}\n  - {name: b, bits: 16, endian: big}",
			"01000000 0001", "a=1; b=1"},
		{"flags and enums", `name: x
fields:
  - {name: F, bits: 3, flags: {DF: 0x2, MF: 0x1}}
  - {name: S, bits: 1, type: flag}
  - {name: P, bits: 4, enum: {1: ICMP, 6: TCP}}
  - {name: Q, bits: 8, enum: {1: ICMP, 6: TCP}}`, "36 fd", "F=0x1 (MF); S=1; P=6 (TCP); Q=253 (?); warning: Q: offset 1: value 253: no name in the enum"},
		{"addresses and text", `name: x
fields:
  - {name: v4, bits: 32, type: ipv4}
  - {name: v6, bytes: 16, type: ipv6}
  - {name: mac, bytes: 6, type: mac}
  - {name: s, bytes: 3, type: ascii}
  - {name: u, bytes: 2, type: utf8}
  - {name: h, bytes: 2, type: bytes}`, "7f000001 20010db8000000000000000000000001 0200 5e00 0001 6869 0a c3a9 dead",
			`v4=127.0.0.1; v6=2001:db8::1; mac=02:00:5e:00:00:01; s="hi\n"; u="é"; h=0xdead`},
		{"lengths", `name: x
fields:
  - {name: Len, bits: 8}
  - {name: Body, bits: 8, type: bytes, length: Len - 1}
  - {name: Opt, bits: 8, when: Len & 0x80}
  - {name: Tail, bits: 8, type: bytes, variable: true}`, "03 aabb ccdd", "Len=3; Body=0xaabb; Tail=0xccdd"},
		{"items until and count", `name: x
fields:
  - {name: N, bits: 8}
  - name: Opts
    bits: 8
    length: 6
    until: Kind == 0
    items:
      - {name: Kind, bits: 8}
      - {name: Len, bits: 8, when: Kind > 1}
      - {name: Val, bits: 8, type: bytes, when: Kind > 1, length: Len - 2}
  - {name: Pad, bits: 8, type: bytes, length: 6 - len(Opts)}
  - name: Pairs
    bits: 16
    count: N
    items: [{name: A, bits: 4}, {name: B, bits: 4}]`, "02 01 0203aa 00 00 12 34",
			"N=2; Opts[0].Kind=1; Opts[1].Kind=2; Opts[1].Len=3; Opts[1].Val=0xaa; Opts[2].Kind=0; Pad=0x00; Pairs[0].A=1; Pairs[0].B=2; Pairs[1].A=3; Pairs[1].B=4"},
		{"payload after the last field", "name: x\nfields:\n  - {name: a, bits: 8}", "01 0203", "a=1; (more bytes)=0x0203"},
		{"too few bytes", "name: x\nfields:\n  - {name: a, bits: 8}\n  - {name: b, bits: 32}\n  - {name: c, bits: 8}", "01 0203",
			"a=1; b=! 4 bytes, and 2 bytes are left; error: b: offset 1: 4 bytes, and 2 bytes are left"},
		{"a length past the end", "name: x\nfields:\n  - {name: n, bits: 8}\n  - {name: b, bits: 8, length: n}", "09 0102",
			"n=9; b=! length n is 9 bytes, and 2 are left; error: b: offset 1: length n is 9 bytes, and 2 are left"},
		{"a negative length", "name: x\nfields:\n  - {name: n, bits: 8}\n  - {name: b, bits: 8, length: n - 4}", "01 0102",
			"n=1; b=! length n - 4 is -3: negative; error: b: offset 1: length n - 4 is -3: negative"},
		{"division by zero", "name: x\nfields:\n  - {name: n, bits: 8}\n  - {name: b, bits: 8, length: 4 / n}", "00 0102",
			"b=! division by zero; n=0; error: b: offset 1: length 4 / n: division by zero"},
		{"no bytes", "name: x\nfields:\n  - {name: a, bits: 8}", "", "a=! 1 byte past the end of the bytes; error: a: offset 0: 1 byte past the end of the bytes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := specdec.Decode(parse(t, c.spec), unhex(t, c.data))
			if got := values(r); got != c.want && !sameSet(got, c.want) {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
			drawn(t, r)
		})
	}
}

func sameSet(a, b string) bool {
	x, y := strings.Split(a, "; "), strings.Split(b, "; ")
	if len(x) != len(y) {
		return false
	}
	m := map[string]int{}
	for _, s := range x {
		m[s]++
	}
	for _, s := range y {
		if m[s]--; m[s] < 0 {
			return false
		}
	}
	return true
}

// drawn lays out the result as a grid and a tree: whatever was read, it is drawn.
func drawn(t testing.TB, r *specdec.Result) {
	t.Helper()
	fields, opts := r.Grid()
	if len(fields) > 0 {
		if _, err := bytegrid.Layout(fields, opts); err != nil {
			t.Errorf("grid: %v", err)
		}
	}
	if _, err := tree.Layout(r.Tree(), tree.Options{}); err != nil {
		t.Errorf("tree: %v", err)
	}
}

// TestSpecErrors: a bad decode key is an error at its line.
func TestSpecErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"name: x\nfields:\n  - {name: a, bits: 8, length: b * 2}\n", `t.yaml:3: field "a": length: "b" names no field before this one`},
		{"name: x\nfields:\n  - {name: a, bits: 8}\n  - {name: b, bits: 8, length: a %% 2}\n", `t.yaml:4: field "b": length: expression "a %% 2": unexpected "%"`},
		{"name: x\nfields:\n  - {name: a, bits: 8, endian: middle}\n", `t.yaml:3: field "a": endian "middle": want big or little`},
		{"name: x\nfields:\n  - {name: a, bits: 8, enum: {x: y}}\n", `t.yaml:3: field "a": enum:`},
		{"name: x\nfields:\n  - {name: a, bits: 8, until: a == 0}\n", `t.yaml:3: field "a": until: "a" names no field of the item`},
		{"name: x\nfields:\n  - {name: a, bits: 8, when: (a}\n", `t.yaml:3: field "a": when:`},
		{"name: x\nbyte_order: pdp\nfields: []\n", `t.yaml:2: byte_order "pdp": want big or little`},
	} {
		_, err := gridyaml.Parse("t.yaml", []byte(c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %s", c.src, err, c.want)
		}
	}
}

// TestBounded: a spec of many items over many bytes reads at most MaxFields fields.
func TestBounded(t *testing.T) {
	s := parse(t, "name: x\nfields:\n  - {name: L, bits: 8, items: [{name: b, bits: 1}]}\n")
	r := specdec.Decode(s, make([]byte, 1<<16))
	n := 0
	for _, it := range r.Fields[0].Items {
		n += len(it)
	}
	if n > specdec.MaxFields || r.Err() == nil || !strings.Contains(r.Err().Error(), "more than") {
		t.Errorf("%d fields, %v", n, r.Err())
	}
}

// FuzzDecode reads any bytes with any spec: no panic, and what was read is drawn.
func FuzzDecode(f *testing.F) {
	dir := filepath.Join("..", "..", "examples", "protocols")
	for _, p := range []string{"ipv4", "tcp", "udp", "dns"} {
		src, err := os.ReadFile(filepath.Join(dir, p+".yaml"))
		if err != nil {
			f.Fatal(err)
		}
		s := parse(f, string(src))
		f.Add(src, s.Options.Data)
	}
	syn := unhex(f, "4500003c4c6340004006f0567f0000017f000001833e46a0af3681e200000000a002ffd7fe3000000204ffd70402080a324c562c000000000103030a")
	src, _ := os.ReadFile(filepath.Join(dir, "ipv4.yaml"))
	f.Add(src, syn)
	f.Add([]byte("name: x\nfields:\n  - {name: n, bits: 8}\n  - {name: L, bits: 8, count: n, items: [{name: k, bits: 3}, {name: v, bits: 8, when: k & 4, length: k / 2 - 1}]}\n"), []byte{3, 0xff, 0, 1, 2})
	f.Fuzz(func(t *testing.T, spec, data []byte) {
		s, err := gridyaml.Parse("f.yaml", spec)
		if err != nil || len(s.Fields) > 256 {
			return
		}
		r := specdec.Decode(s, data)
		drawn(t, r)
	})
}

// TestNotation: a spec in RFC 9000's notation decodes too: a "Token Length" gives Token's
// length, "(i)" is a variable-length integer, and the last "(..)" takes the bytes left.
func TestNotation(t *testing.T) {
	n, err := notation.Parse("n.txt", []byte("Thing {\n  Kind (8),\n  Token Length (i),\n  Token (..),\n  Port (16),\n  Payload (..),\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	r := specdec.Decode(&gridyaml.Spec{Name: n.Name, Fields: n.Fields, Options: n.Options}, unhex(t, "01 4003 aabbcc 0035 deadbeef"))
	if got, want := values(r), "Kind=1; Token Length=3; Token=0xaabbcc; Port=53; Payload=0xdeadbeef"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	drawn(t, r)
}

// TestExamples reads each example spec's own example bytes with it: IPv4's Record Route
// option is an item, and every field its drawing shows without bytes is read.
func TestExamples(t *testing.T) {
	want := map[string]string{
		"ipv4": "Version=4; IHL=6; Type of Service=0x00; Total Length=88; Identification=0x1c46; Flags=0x2 (DF); Fragment Offset=0; Time to Live=64; Protocol=1 (ICMP); Header Checksum=0x9043; Source Address=192.168.0.1; Destination Address=192.168.0.199; Options[0].Type=7 (RR); Options[0].Length=3; Options[0].Data=0x04; Options[1].Type=0 (EOL)",
		"udp":  "Source Port=53211; Destination Port=53; Length=37; Checksum=0x0000; data octets=0xa3c10100000100000000000007657861… (29 bytes)",
		"dns":  "ID=0xa3c1; QR=0; Opcode=0 (QUERY); AA=0; TC=0; RD=1; RA=0; Z=0; RCODE=0 (NoError); QDCOUNT=1; ANCOUNT=0; NSCOUNT=0; ARCOUNT=0",
		"tcp":  "Source Port=49152; Destination Port=80; Sequence Number=1009719808; Acknowledgment Number=12536865; Data Offset=6; Rsrvd=0; CWR=0; ECE=0; URG=0; ACK=1; PSH=1; RST=0; SYN=0; FIN=0; Window=502; Checksum=0x8b2e; Urgent Pointer=0; Options[0].Kind=1 (NOP); Options[1].Kind=1 (NOP); Options[2].Kind=0 (EOL); Padding=0x00; data=0x474554202f20485454502f312e310d0a… (37 bytes)",
	}
	for p, w := range want {
		src, err := os.ReadFile(filepath.Join("..", "..", "examples", "protocols", p+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		s := parse(t, string(src))
		r := specdec.Decode(s, s.Options.Data)
		if got := values(r); got != w {
			t.Errorf("%s:\ngot  %s\nwant %s", p, got, w)
		}
		drawn(t, r)
	}
}
