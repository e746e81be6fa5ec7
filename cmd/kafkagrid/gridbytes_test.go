package main

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/canvas/svgcheck"
)

// specdecData is where the real captures and tshark's JSON of them are kept (made by
// capture.sh there).
var specdecData = filepath.Join("..", "..", "bytegrid", "specdec", "testdata")

// pcapPackets reads the packets of a classic pcap file (the test's own capture).
func pcapPackets(t *testing.T, b []byte) [][]byte {
	t.Helper()
	if len(b) < 24 {
		t.Fatal("pcap: short")
	}
	var bo binary.ByteOrder = binary.LittleEndian
	switch binary.LittleEndian.Uint32(b) {
	case 0xa1b2c3d4, 0xa1b23c4d:
	case 0xd4c3b2a1, 0x4d3cb2a1:
		bo = binary.BigEndian
	default:
		t.Fatal("pcap: no magic")
	}
	if lt := bo.Uint32(b[20:]); lt != 1 {
		t.Fatalf("pcap: link type %d, want Ethernet (1)", lt)
	}
	var out [][]byte
	for p := 24; p+16 <= len(b); {
		n := int(bo.Uint32(b[p+8:]))
		if p+16+n > len(b) {
			t.Fatal("pcap: truncated")
		}
		out = append(out, b[p+16:p+16+n])
		p += 16 + n
	}
	return out
}

// kv is one key and value of tshark's JSON, in the order tshark wrote them (keys repeat: two
// NOP options are two "tcp.option_kind").
type kv struct{ k, v string }

// tsharkLayers reads tshark -T json's packets into each packet's layers, each an ordered list
// of every scalar key and value in it, at any depth.
func tsharkLayers(t *testing.T, b []byte) []map[string][]kv {
	t.Helper()
	var pkts []struct {
		Source struct {
			Layers map[string]json.RawMessage `json:"layers"`
		} `json:"_source"`
	}
	if err := json.Unmarshal(b, &pkts); err != nil {
		t.Fatal(err)
	}
	var out []map[string][]kv
	for _, p := range pkts {
		m := map[string][]kv{}
		for layer, raw := range p.Source.Layers {
			dec := json.NewDecoder(bytes.NewReader(raw))
			var key string
			var list []kv
			for {
				tok, err := dec.Token()
				if err != nil {
					break
				}
				switch v := tok.(type) {
				case json.Delim:
					key = ""
				case string:
					if key == "" && dec.More() {
						key = v
						continue
					}
					list = append(list, kv{key, v})
					key = ""
				}
			}
			m[layer] = list
		}
		out = append(out, m)
	}
	return out
}

func (l layerKV) first(k string) (string, bool) {
	for _, x := range l {
		if x.k == k {
			return x.v, true
		}
	}
	return "", false
}

func (l layerKV) all(k string) []string {
	var out []string
	for _, x := range l {
		if x.k == k {
			out = append(out, x.v)
		}
	}
	return out
}

type layerKV []kv

// decodedField is a field of grid -bytes -format json.
type decodedField struct {
	Name   string           `json:"name"`
	Value  string           `json:"value"`
	Number json.Number      `json:"number"`
	Hex    string           `json:"hex"`
	Bits   int              `json:"bits"`
	Items  [][]decodedField `json:"items"`
}

// gridJSON runs grid SPEC -bytes (b as hex in a file) -format json and returns the fields by
// name.
func gridJSON(t *testing.T, spec string, b []byte) map[string]decodedField {
	t.Helper()
	f := filepath.Join(t.TempDir(), "bytes.txt")
	if err := os.WriteFile(f, []byte(hex.EncodeToString(b)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, err := runGridCmd(t, gridSpec(t, spec), "-bytes", f, "-format", "json")
	if err != nil || stderr != "" {
		t.Fatalf("%s -bytes %x: %v\n%s", spec, b, err, stderr)
	}
	var res struct {
		Fields   []decodedField `json:"fields"`
		Problems []any          `json:"problems"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Problems) > 0 {
		t.Errorf("%s -bytes %x: problems %v", spec, b, res.Problems)
	}
	m := map[string]decodedField{}
	for _, f := range res.Fields {
		if _, ok := m[f.Name]; !ok {
			m[f.Name] = f
		}
	}
	return m
}

// compare checks that each field named in want (spec name: tshark key, or "key/4" for a
// value tshark gives in bytes and the spec in 32-bit words) has tshark's value.
func compare(t *testing.T, what string, got map[string]decodedField, l layerKV, want [][2]string) int {
	t.Helper()
	n := 0
	for _, w := range want {
		key, div := w[1], uint64(1)
		if k, d, ok := strings.Cut(key, "/"); ok {
			key = k
			div, _ = strconv.ParseUint(d, 10, 64)
		}
		tv, ok := l.first(key)
		if !ok {
			continue // a field tshark shows only sometimes (a response's flags)
		}
		f, ok := got[w[0]]
		if !ok {
			t.Errorf("%s: no field %q (tshark %s = %s)", what, w[0], key, tv)
			continue
		}
		n++
		if f.Number == "" {
			if f.Value != tv {
				t.Errorf("%s: %s = %q, tshark %s = %q", what, w[0], f.Value, key, tv)
			}
			continue
		}
		tn, err := strconv.ParseUint(tv, 0, 64)
		if err != nil {
			t.Errorf("%s: tshark %s = %q: %v", what, key, tv, err)
			continue
		}
		if gn, _ := strconv.ParseUint(string(f.Number), 10, 64); gn != tn/div {
			t.Errorf("%s: %s = %s (%s), tshark %s = %s", what, w[0], f.Number, f.Value, key, tv)
		}
	}
	return n
}

// TestGridBytesTshark draws every IPv4, TCP, UDP and DNS header of packets the Linux kernel
// wrote on the loopback interface (an HTTP exchange and DNS over UDP, capture.sh) with the
// example specs, through "grid SPEC -bytes FILE -format json", and checks each field against
// tshark's decoding of the same packets.
func TestGridBytesTshark(t *testing.T) {
	pb, err := os.ReadFile(filepath.Join(specdecData, "lo.pcap"))
	if err != nil {
		t.Fatal(err)
	}
	jb, err := os.ReadFile(filepath.Join(specdecData, "lo.json"))
	if err != nil {
		t.Fatal(err)
	}
	pkts, layers := pcapPackets(t, pb), tsharkLayers(t, jb)
	if len(pkts) != len(layers) || len(pkts) < 20 {
		t.Fatalf("%d packets, %d in tshark's JSON", len(pkts), len(layers))
	}
	ipv4 := [][2]string{{"Version", "ip.version"}, {"IHL", "ip.hdr_len/4"}, {"Type of Service", "ip.dsfield"},
		{"Total Length", "ip.len"}, {"Identification", "ip.id"}, {"Flags", "ip.flags"}, {"Fragment Offset", "ip.frag_offset"},
		{"Time to Live", "ip.ttl"}, {"Protocol", "ip.proto"}, {"Header Checksum", "ip.checksum"},
		{"Source Address", "ip.src"}, {"Destination Address", "ip.dst"}}
	tcp := [][2]string{{"Source Port", "tcp.srcport"}, {"Destination Port", "tcp.dstport"},
		{"Sequence Number", "tcp.seq_raw"}, {"Acknowledgment Number", "tcp.ack_raw"}, {"Data Offset", "tcp.hdr_len/4"},
		{"CWR", "tcp.flags.cwr"}, {"ECE", "tcp.flags.ece"}, {"URG", "tcp.flags.urg"}, {"ACK", "tcp.flags.ack"},
		{"PSH", "tcp.flags.push"}, {"RST", "tcp.flags.reset"}, {"SYN", "tcp.flags.syn"}, {"FIN", "tcp.flags.fin"},
		{"Window", "tcp.window_size_value"}, {"Checksum", "tcp.checksum"}, {"Urgent Pointer", "tcp.urgent_pointer"}}
	udp := [][2]string{{"Source Port", "udp.srcport"}, {"Destination Port", "udp.dstport"}, {"Length", "udp.length"}, {"Checksum", "udp.checksum"}}
	dns := [][2]string{{"ID", "dns.id"}, {"QR", "dns.flags.response"}, {"Opcode", "dns.flags.opcode"},
		{"AA", "dns.flags.authoritative"}, {"TC", "dns.flags.truncated"}, {"RD", "dns.flags.recdesired"},
		{"RA", "dns.flags.recavail"}, {"Z", "dns.flags.z"}, {"RCODE", "dns.flags.rcode"},
		{"QDCOUNT", "dns.count.queries"}, {"ANCOUNT", "dns.count.answers"}, {"NSCOUNT", "dns.count.auth_rr"}, {"ARCOUNT", "dns.count.add_rr"}}
	var checked, syn20, data12, dnsMsgs int
	for i, p := range pkts {
		what := fmt.Sprintf("packet %d", i+1)
		ip := p[14:]
		checked += compare(t, what+" IPv4", gridJSON(t, "ipv4.yaml", ip), layers[i]["ip"], ipv4)
		body := ip[int(ip[0]&0xf)*4:]
		switch ip[9] {
		case 6:
			got := gridJSON(t, "tcp.yaml", body)
			l := layerKV(layers[i]["tcp"])
			checked += compare(t, what+" TCP", got, l, tcp)
			// The options: their bytes, and each option's kind in order.
			opts, _ := l.first("tcp.options")
			if h := got["Options"].Hex + got["Padding"].Hex; h != strings.ReplaceAll(opts, ":", "") {
				t.Errorf("%s: options %s, tshark %s", what, h, opts)
			}
			var kinds []string
			for _, it := range got["Options"].Items {
				kinds = append(kinds, string(it[0].Number))
			}
			if k, w := strings.Join(kinds, " "), strings.Join(l.all("tcp.option_kind"), " "); k != w {
				t.Errorf("%s: option kinds %s, tshark %s", what, k, w)
			}
			if n, _ := l.first("tcp.len"); strconv.Itoa(got["data"].Bits/8) != n {
				t.Errorf("%s: %d bytes of data, tshark %s", what, got["data"].Bits/8, n)
			}
			switch d := got["Data Offset"].Number; {
			case d == "10" && got["SYN"].Number == "1":
				syn20++
			case d == "8" && got["data"].Bits > 0:
				data12++
			}
		case 17:
			checked += compare(t, what+" UDP", gridJSON(t, "udp.yaml", body), layers[i]["udp"], udp)
			checked += compare(t, what+" DNS", gridJSON(t, "dns.yaml", body[8:]), layers[i]["dns"], dns)
			dnsMsgs++
		default:
			t.Errorf("%s: protocol %d", what, ip[9])
		}
	}
	if syn20 < 2 || data12 < 2 || dnsMsgs < 4 {
		t.Errorf("%d SYNs with 20 bytes of options, %d data segments with 12, %d DNS messages: want 2, 2 and 4", syn20, data12, dnsMsgs)
	}
	t.Logf("%d packets, %d values compared with tshark's", len(pkts), checked)
}

// TestGridBytesFormats draws a real TCP SYN in every format grid writes, the grid and the
// tree, and a truncated one: the fields it fills are drawn, the one it cuts is marked, and
// grid says where.
func TestGridBytesFormats(t *testing.T) {
	syn := "833e46a0af3681e200000000a002ffd7fe300000" + "0204ffd7" + "0402" + "080a324c562c00000000" + "01" + "03030a"
	dir := t.TempDir()
	in := filepath.Join(dir, "syn.txt")
	os.WriteFile(in, []byte(syn+"\n"), 0o644)
	for _, view := range []string{"grid", "tree"} {
		for _, f := range []string{"svg", "rfcsvg", "txt", "pdf", "json"} {
			out := filepath.Join(dir, view+"."+f)
			if f == "rfcsvg" {
				out = filepath.Join(dir, view+".rfc.svg")
			}
			if _, stderr, err := runGridCmd(t, gridSpec(t, "tcp.yaml"), "-bytes", in, "-view", view, "-format", f, "-o", out); err != nil || stderr != "" {
				t.Fatalf("%s %s: %v %s", view, f, err, stderr)
			}
			b, _ := os.ReadFile(out)
			switch f {
			case "svg", "rfcsvg":
				if err := svgcheck.Check(b); err != nil {
					t.Errorf("%s %s: %v", view, f, err)
				}
			case "txt":
				if view == "grid" && !bytes.Contains(b, []byte("2 (MSS)")) || view == "tree" && !bytes.Contains(b, []byte("65495")) {
					t.Errorf("%s %s: no values:\n%s", view, f, b)
				}
			}
			if len(b) == 0 {
				t.Errorf("%s %s: empty", view, f)
			}
		}
	}
	// Cut in the options: the SYN's first 30 bytes.
	os.WriteFile(in, []byte(syn[:60]+"\n"), 0o644)
	out, _, err := runGridCmd(t, gridSpec(t, "tcp.yaml"), "-bytes", in)
	if err == nil || !strings.Contains(err.Error(), "Options[2].Value: offset 28: 8 bytes, and 2 bytes are left") {
		t.Errorf("truncated: error %v", err)
	}
	if !strings.Contains(out, "Value                 = ! 8 bytes, and 2 bytes are left") || !strings.Contains(out, "Kind                  = 8 (TS)") {
		t.Errorf("truncated: no marked field in\n%s", out)
	}
}

// TestGridBytesExample keeps examples/protocols/tcp-get.svg, a real HTTP request segment
// (tcp-get.txt, tshark's dump of a frame of the loopback capture) drawn with tcp.yaml, as
// grid writes it, and tcp-get-narrow.svg, the README's picture of it for a phone's column
// (-rowbits 16 -bitwidth 15); refresh them with the commands below, without -check.
func TestGridBytesExample(t *testing.T) {
	_, stderr, err := runGridCmd(t, gridSpec(t, "tcp.yaml"), "-bytes", gridSpec(t, "tcp-get.txt"), "-offset", "34", "-o", gridSpec(t, "tcp-get.svg"), "-check")
	if err != nil || stderr != "" {
		t.Fatalf("%v %s", err, stderr)
	}
	_, stderr, err = runGridCmd(t, gridSpec(t, "tcp.yaml"), "-bytes", gridSpec(t, "tcp-get.txt"), "-offset", "34", "-rowbits", "16", "-bitwidth", "15", "-o", gridSpec(t, "tcp-get-narrow.svg"), "-check")
	if err != nil || stderr != "" {
		t.Fatalf("narrow: %v %s", err, stderr)
	}
	b, err := os.ReadFile(gridSpec(t, "tcp-get.svg"))
	if err != nil {
		t.Fatal(err)
	}
	if err := svgcheck.Check(b); err != nil {
		t.Error(err)
	}
	for _, v := range []string{"38168", "8 (TS)", "0xfe77", "3142649597"} {
		if !bytes.Contains(b, []byte(v)) {
			t.Errorf("no %q in the drawing", v)
		}
	}
}

// TestGridBytesDNSQuestions reads the DNS messages of the capture with a spec that goes on
// past the header (bytegrid/specdec/testdata/dns-message.yaml): QDCOUNT questions, each
// name a list of labels to the empty one; the names, types and classes are tshark's.
func TestGridBytesDNSQuestions(t *testing.T) {
	pb, err := os.ReadFile(filepath.Join(specdecData, "lo.pcap"))
	if err != nil {
		t.Fatal(err)
	}
	jb, err := os.ReadFile(filepath.Join(specdecData, "lo.json"))
	if err != nil {
		t.Fatal(err)
	}
	pkts, layers := pcapPackets(t, pb), tsharkLayers(t, jb)
	n := 0
	for i, p := range pkts {
		if p[14+9] != 17 {
			continue
		}
		msg := p[14+int(p[14]&0xf)*4+8:]
		f := filepath.Join(t.TempDir(), "dns.bin")
		os.WriteFile(f, msg, 0o644)
		out, stderr, err := runGridCmd(t, filepath.Join(specdecData, "dns-message.yaml"), "-bytes", f, "-format", "json")
		if err != nil || stderr != "" {
			t.Fatalf("packet %d: %v %s", i+1, err, stderr)
		}
		var res struct{ Fields []decodedField }
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		l := layerKV(layers[i]["dns"])
		var q decodedField
		for _, f := range res.Fields {
			if f.Name == "Question" {
				q = f
			}
		}
		names, types, classes := l.all("dns.qry.name"), l.all("dns.qry.type"), l.all("dns.qry.class")
		if len(q.Items) != len(names) || len(names) == 0 {
			t.Fatalf("packet %d: %d questions, tshark %d", i+1, len(q.Items), len(names))
		}
		for k, it := range q.Items {
			var labels []string
			for _, lab := range it[0].Items {
				if len(lab) == 2 && lab[1].Bits > 0 {
					s, _ := strconv.Unquote(lab[1].Value)
					labels = append(labels, s)
				}
			}
			if got := strings.Join(labels, "."); got != names[k] {
				t.Errorf("packet %d: question %d: name %q, tshark %q", i+1, k, got, names[k])
			}
			tt, _ := strconv.ParseUint(types[k], 0, 64)
			tc, _ := strconv.ParseUint(classes[k], 0, 64)
			if it[1].Number != json.Number(strconv.FormatUint(tt, 10)) || it[2].Number != json.Number(strconv.FormatUint(tc, 10)) {
				t.Errorf("packet %d: question %d: type %s class %s, tshark %s %s", i+1, k, it[1].Value, it[2].Value, types[k], classes[k])
			}
			n++
		}
	}
	if n < 4 {
		t.Errorf("%d questions", n)
	}
}
