package pcap

import (
	"encoding/binary"
	"net/netip"
)

// LinkType is a packet's link-layer header type, as pcap and pcapng files record it
// (tcpdump.org's LINKTYPE_ values).
type LinkType uint16

// The link types TCP reads.
const (
	LinkNull      LinkType = 0   // BSD loopback, the address family in host byte order
	LinkEthernet  LinkType = 1   // Ethernet II, with VLAN tags
	LinkRaw       LinkType = 101 // raw IPv4 or IPv6
	LinkRawBSD    LinkType = 12  // raw IP as some BSDs number it (DLT_RAW)
	LinkLoop      LinkType = 108 // OpenBSD loopback, the address family in network byte order
	LinkLinuxSLL  LinkType = 113 // Linux cooked capture ("any"), v1
	LinkIPv4      LinkType = 228 // raw IPv4
	LinkIPv6      LinkType = 229 // raw IPv6
	LinkLinuxSLL2 LinkType = 276 // Linux cooked capture, v2
)

// linkNames are the names said of a link type TCP does not read (String): those gopacket
// gave them, so that a note on a capture reads as it did.
var linkNames = map[LinkType]string{
	0: "Null", 1: "Ethernet", 9: "PPP", 10: "FDDI", 12: "Raw", 101: "Raw", 105: "802.11", 108: "Loop",
	113: "Linux SLL", 117: "PFLog", 119: "Prism", 127: "RadioTap", 220: "USB", 276: "Linux SLL2",
}

// String names the link type: "Ethernet", "FDDI", …, or "UnknownLinkType".
func (l LinkType) String() string {
	if n, ok := linkNames[l]; ok {
		return n
	}
	return "UnknownLinkType"
}

// Readable reports whether TCP reads packets of link type l.
func (l LinkType) Readable() bool {
	switch l {
	case LinkEthernet, LinkLinuxSLL, LinkLinuxSLL2, LinkNull, LinkLoop, LinkRaw, LinkRawBSD, LinkIPv4, LinkIPv6:
		return true
	}
	return false
}

// Segment is a packet's TCP segment: its addresses and ports, sequence number, flags, and
// the payload the packet holds (a slice of the packet's bytes).
type Segment struct {
	Src, Dst      netip.AddrPort
	Seq           uint32
	SYN, FIN, RST bool
	Payload       []byte // empty with RST: a reset carries no data to keep
}

// The EtherTypes of IPv4 and IPv6.
const (
	etherIPv4 = 0x0800
	etherIPv6 = 0x86dd
)

// TCP parses a packet of link type l down to its TCP segment; ok is false when the packet is
// not TCP over IPv4 or IPv6, is an IP fragment, or is cut short before the TCP header ends.
// An IPv4 packet whose total length is more than the packet holds (a snap length cut it) has
// the payload the packet holds.
func TCP(l LinkType, b []byte) (seg Segment, ok bool) {
	ethType, ip, ok := network(l, b)
	if !ok {
		return Segment{}, false
	}
	var src, dst netip.Addr
	var tcp []byte
	switch ethType {
	case etherIPv4:
		src, dst, tcp, ok = ipv4(ip)
	case etherIPv6:
		src, dst, tcp, ok = ipv6(ip)
	default:
		return Segment{}, false
	}
	if !ok {
		return Segment{}, false
	}
	return tcpHeader(src, dst, tcp)
}

// network strips the link-layer header of a packet: the EtherType of what follows and its bytes.
func network(l LinkType, b []byte) (ethType uint16, rest []byte, ok bool) {
	switch l {
	case LinkEthernet:
		if len(b) < 14 {
			return 0, nil, false
		}
		ethType, b = binary.BigEndian.Uint16(b[12:]), b[14:]
		for (ethType == 0x8100 || ethType == 0x88a8) && len(b) >= 4 {
			ethType, b = binary.BigEndian.Uint16(b[2:]), b[4:]
		}
		return ethType, b, true
	case LinkLinuxSLL:
		if len(b) < 16 {
			return 0, nil, false
		}
		return binary.BigEndian.Uint16(b[14:]), b[16:], true
	case LinkLinuxSLL2:
		if len(b) < 20 {
			return 0, nil, false
		}
		return binary.BigEndian.Uint16(b), b[20:], true
	case LinkNull, LinkLoop:
		if len(b) < 4 {
			return 0, nil, false
		}
		family := binary.LittleEndian.Uint32(b)
		if l == LinkLoop || family > 0xffff {
			family = binary.BigEndian.Uint32(b)
		}
		return familyType(family), b[4:], true
	case LinkRaw, LinkRawBSD, LinkIPv4, LinkIPv6:
		if len(b) == 0 {
			return 0, nil, false
		}
		return versionType(b[0] >> 4), b, true
	}
	return 0, nil, false
}

// familyType is the EtherType of a loopback header's address family: AF_INET, or AF_INET6 as
// Linux, FreeBSD, OpenBSD, NetBSD and macOS number it.
func familyType(family uint32) uint16 {
	switch family {
	case 2:
		return etherIPv4
	case 10, 24, 28, 30:
		return etherIPv6
	}
	return 0
}

// versionType is the EtherType of an IP version number.
func versionType(v byte) uint16 {
	switch v {
	case 4:
		return etherIPv4
	case 6:
		return etherIPv6
	}
	return 0
}

// ipv4 reads an IPv4 header carrying TCP, unfragmented: the addresses and the TCP bytes.
func ipv4(b []byte) (src, dst netip.Addr, tcp []byte, ok bool) {
	if len(b) < 20 || b[0]>>4 != 4 {
		return src, dst, nil, false
	}
	ihl := int(b[0]&0x0f) * 4
	total := int(binary.BigEndian.Uint16(b[2:]))
	if ihl < 20 || total < ihl || len(b) < ihl || b[9] != 6 {
		return src, dst, nil, false
	}
	if frag := binary.BigEndian.Uint16(b[6:]); frag&0x3fff != 0 {
		return src, dst, nil, false // a fragment (more fragments, or an offset)
	}
	total = min(total, len(b)) // a snap length cut the packet: the payload is what is there
	return netip.AddrFrom4([4]byte(b[12:16])), netip.AddrFrom4([4]byte(b[16:20])), b[ihl:total], true
}

// ipv6 reads an IPv6 header and its hop-by-hop, routing and destination options headers
// up to TCP: the addresses and the TCP bytes.
func ipv6(b []byte) (src, dst netip.Addr, tcp []byte, ok bool) {
	if len(b) < 40 || b[0]>>4 != 6 {
		return src, dst, nil, false
	}
	plen := int(binary.BigEndian.Uint16(b[4:]))
	next := b[6]
	src = netip.AddrFrom16([16]byte(b[8:24]))
	dst = netip.AddrFrom16([16]byte(b[24:40]))
	b = b[40:]
	if plen < len(b) {
		b = b[:plen]
	}
	for next != 6 {
		switch next {
		case 0, 43, 60: // hop-by-hop, routing, destination options
			if len(b) < 8 {
				return src, dst, nil, false
			}
			n := (int(b[1]) + 1) * 8
			if len(b) < n {
				return src, dst, nil, false
			}
			next, b = b[0], b[n:]
		default:
			return src, dst, nil, false // a fragment, or not TCP
		}
	}
	return src, dst, b, true
}

// tcpHeader reads a TCP header and its payload.
func tcpHeader(src, dst netip.Addr, b []byte) (Segment, bool) {
	if len(b) < 20 {
		return Segment{}, false
	}
	off := int(b[12]>>4) * 4
	if off < 20 || off > len(b) {
		return Segment{}, false
	}
	flags := b[13]
	seg := Segment{
		Src: netip.AddrPortFrom(src, binary.BigEndian.Uint16(b)),
		Dst: netip.AddrPortFrom(dst, binary.BigEndian.Uint16(b[2:])),
		Seq: binary.BigEndian.Uint32(b[4:]),
	}
	if flags&0x04 != 0 { // RST: no data to keep
		seg.RST = true
		return seg, true
	}
	seg.SYN, seg.FIN, seg.Payload = flags&0x02 != 0, flags&0x01 != 0, b[off:]
	return seg, true
}
