package pcap

import (
	"bytes"
	"encoding/binary"
	"net/netip"
	"testing"
)

// tcpBytes is a TCP header (20 bytes, or more with options) and payload.
func tcpBytes(src, dst uint16, seq uint32, flags byte, opts int, payload string) []byte {
	b := binary.BigEndian.AppendUint16(nil, src)
	b = binary.BigEndian.AppendUint16(b, dst)
	b = binary.BigEndian.AppendUint32(b, seq)
	b = binary.BigEndian.AppendUint32(b, 0)
	b = append(b, byte((20+opts)/4)<<4, flags, 0xff, 0xff, 0, 0, 0, 0)
	b = append(b, make([]byte, opts)...)
	return append(b, payload...)
}

func ipv4Bytes(tcp []byte, frag uint16, total int) []byte {
	b := []byte{0x45, 0, 0, 0, 0, 1, 0, 0, 64, 6, 0, 0, 10, 0, 0, 2, 10, 0, 0, 1}
	if total == 0 {
		total = 20 + len(tcp)
	}
	binary.BigEndian.PutUint16(b[2:], uint16(total))
	binary.BigEndian.PutUint16(b[6:], frag)
	return append(b, tcp...)
}

func ipv6Bytes(next byte, rest []byte) []byte {
	b := []byte{0x60, 0, 0, 0, 0, 0, next, 64}
	binary.BigEndian.PutUint16(b[4:], uint16(len(rest)))
	b = append(b, netip.MustParseAddr("fd00::2").AsSlice()...)
	b = append(b, netip.MustParseAddr("fd00::1").AsSlice()...)
	return append(b, rest...)
}

func eth(ethType uint16, tags int, ip []byte) []byte {
	b := make([]byte, 12)
	for range tags {
		b = append(b, 0x81, 0, 0, 7)
	}
	return append(binary.BigEndian.AppendUint16(b, ethType), ip...)
}

// TestTCP parses a segment over every link type, both IP versions, VLAN tags and IPv6
// extension headers; and refuses what is not TCP, a fragment, or cut short.
func TestTCP(t *testing.T) {
	seg := tcpBytes(50000, 9092, 7, 0x18, 0, "kafka")
	v4 := ipv4Bytes(seg, 0x4000, 0) // don't fragment
	v6 := ipv6Bytes(6, seg)
	hop := ipv6Bytes(0, append([]byte{43, 0, 0, 0, 0, 0, 0, 0}, append([]byte{6, 1}, append(make([]byte, 14), seg...)...)...))
	sll := append([]byte{0, 0, 0, 1, 0, 6, 1, 2, 3, 4, 5, 6, 0, 0, 0x86, 0xdd}, v6...)
	sll2 := append([]byte{0x08, 0, 0, 0, 0, 0, 0, 2, 0, 1, 0, 6, 1, 2, 3, 4, 5, 6, 0, 0}, v4...)
	v4seg := Segment{Src: netip.MustParseAddrPort("10.0.0.2:50000"), Dst: netip.MustParseAddrPort("10.0.0.1:9092"), Seq: 7, Payload: []byte("kafka")}
	v6seg := Segment{Src: netip.MustParseAddrPort("[fd00::2]:50000"), Dst: netip.MustParseAddrPort("[fd00::1]:9092"), Seq: 7, Payload: []byte("kafka")}
	for _, tc := range []struct {
		name string
		link LinkType
		b    []byte
		want *Segment
	}{
		{"ethernet v4", LinkEthernet, eth(0x0800, 0, v4), &v4seg},
		{"ethernet v6", LinkEthernet, eth(0x86dd, 0, v6), &v6seg},
		{"802.1Q and 802.1ad", LinkEthernet, eth(0x0800, 2, v4), &v4seg},
		{"v6 hop-by-hop and routing", LinkEthernet, eth(0x86dd, 0, hop), &v6seg},
		{"sll", LinkLinuxSLL, sll, &v6seg},
		{"sll2", LinkLinuxSLL2, sll2, &v4seg},
		{"null little-endian", LinkNull, append([]byte{2, 0, 0, 0}, v4...), &v4seg},
		{"null big-endian", LinkNull, append([]byte{0, 0, 0, 30}, v6...), &v6seg},
		{"loop", LinkLoop, append([]byte{0, 0, 0, 24}, v6...), &v6seg},
		{"raw v4", LinkRaw, v4, &v4seg},
		{"raw v6", LinkIPv6, v6, &v6seg},
		{"raw BSD", LinkRawBSD, v4, &v4seg},
		{"ethernet padding", LinkEthernet, append(eth(0x0800, 0, v4), 0, 0, 0, 0), &v4seg},
		{"snap length cut", LinkRaw, ipv4Bytes(seg[:22], 0, 45), &Segment{Src: v4seg.Src, Dst: v4seg.Dst, Seq: 7, Payload: []byte("ka")}},
		{"tcp options", LinkRaw, ipv4Bytes(tcpBytes(50000, 9092, 7, 0x18, 12, "kafka"), 0, 0), &v4seg},
		{"syn fin", LinkRaw, ipv4Bytes(tcpBytes(50000, 9092, 7, 0x03, 0, ""), 0, 0), &Segment{Src: v4seg.Src, Dst: v4seg.Dst, Seq: 7, SYN: true, FIN: true, Payload: []byte{}}},
		{"rst", LinkRaw, ipv4Bytes(tcpBytes(50000, 9092, 7, 0x04, 0, "junk"), 0, 0), &Segment{Src: v4seg.Src, Dst: v4seg.Dst, Seq: 7, RST: true}},
		{"fragment", LinkRaw, ipv4Bytes(seg, 0x2000, 0), nil},
		{"fragment offset", LinkRaw, ipv4Bytes(seg, 0x0010, 0), nil},
		{"v6 fragment header", LinkRaw, ipv6Bytes(44, append([]byte{6, 0, 0, 0, 0, 0, 0, 0}, seg...)), nil},
		{"udp", LinkRaw, func() []byte { b := ipv4Bytes(seg, 0, 0); b[9] = 17; return b }(), nil},
		{"arp", LinkEthernet, eth(0x0806, 0, v4), nil},
		{"unknown family", LinkNull, append([]byte{7, 0, 0, 0}, v4...), nil},
		{"not IP", LinkRaw, append([]byte{0x50}, v4[1:]...), nil},
		{"tcp cut", LinkRaw, ipv4Bytes(seg[:19], 0, 0), nil},
		{"data offset past the end", LinkRaw, ipv4Bytes(tcpBytes(1, 2, 3, 0, 40, "")[:24], 0, 0), nil},
		{"short ethernet", LinkEthernet, make([]byte, 13), nil},
		{"short sll", LinkLinuxSLL, make([]byte, 15), nil},
		{"short sll2", LinkLinuxSLL2, make([]byte, 19), nil},
		{"empty raw", LinkRaw, nil, nil},
		{"FDDI", 10, eth(0x0800, 0, v4), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := TCP(tc.link, tc.b)
			if tc.want == nil {
				if ok {
					t.Errorf("read as %+v", got)
				}
				return
			}
			w := *tc.want
			if !ok || got.Src != w.Src || got.Dst != w.Dst || got.Seq != w.Seq || got.SYN != w.SYN || got.FIN != w.FIN || got.RST != w.RST || !bytes.Equal(got.Payload, w.Payload) {
				t.Errorf("got %+v %v, want %+v", got, ok, w)
			}
		})
	}
}

// TestLinkNames: the names a note gives link types kafkagrid does not read.
func TestLinkNames(t *testing.T) {
	for l, want := range map[LinkType]string{10: "FDDI", 105: "802.11", 127: "RadioTap", 200: "UnknownLinkType", LinkLinuxSLL2: "Linux SLL2"} {
		if got := l.String(); got != want {
			t.Errorf("%d: %q, want %q", l, got, want)
		}
	}
	if LinkType(10).Readable() || !LinkRawBSD.Readable() {
		t.Error("Readable")
	}
}
