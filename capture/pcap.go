package capture

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"time"

	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"
)

// IsPcap reports whether data starts as a pcap or pcapng file.
func IsPcap(data []byte) bool {
	if len(data) < 4 {
		return false
	}
	switch binary.LittleEndian.Uint32(data) {
	case 0xa1b2c3d4, 0xd4c3b2a1, 0xa1b23c4d, 0x4d3cb2a1, 0x0a0d0d0a:
		return true
	}
	return false
}

// segment is the TCP payload of one packet.
type segment struct {
	seq     uint32
	syn     bool
	fin     bool
	payload []byte
	time    time.Time
	packet  int // 1-based packet number in the capture
	rst     bool
}

// flowKey names one direction of a TCP connection.
type flowKey struct {
	src, dst netip.AddrPort
}

// packetSource reads link-layer packets from a pcap or pcapng file.
type packetSource interface {
	ReadPacketData() ([]byte, captureInfo, error)
	LinkType() layers.LinkType
}

type captureInfo struct {
	time time.Time
	lt   layers.LinkType // the packet's link type (pcapng: its interface's)
}

type pcapSrc struct{ r *pcapgo.Reader }

func (s pcapSrc) ReadPacketData() ([]byte, captureInfo, error) {
	b, ci, err := s.r.ZeroCopyReadPacketData()
	if errors.Is(err, io.EOF) && ci.CaptureLength > 0 {
		// A record header and not one byte of its packet: cut short, not a clean end.
		err = fmt.Errorf("the last record header announces %d bytes, and none follow", ci.CaptureLength)
	}
	return b, captureInfo{ci.Timestamp, s.r.LinkType()}, err
}
func (s pcapSrc) LinkType() layers.LinkType { return s.r.LinkType() }

type ngSrc struct{ r *pcapgo.NgReader }

// ReadPacketData reads the next packet of any interface: pcapng allows a link type per
// interface, and each packet is read by its own (the reader is opened with WantMixedLinkType,
// else pcapgo drops the packets of an interface whose link type is not the first's).
func (s ngSrc) ReadPacketData() ([]byte, captureInfo, error) {
	b, ci, err := s.r.ZeroCopyReadPacketData()
	if err != nil {
		return nil, captureInfo{}, err
	}
	lt := s.r.LinkType()
	if len(ci.AncillaryData) > 0 {
		if l, ok := ci.AncillaryData[0].(layers.LinkType); ok {
			lt = l
		}
	}
	return b, captureInfo{ci.Timestamp, lt}, nil
}
func (s ngSrc) LinkType() layers.LinkType { return s.r.LinkType() }

// readableLink reports whether tcpSegment reads packets of link type lt.
func readableLink(lt layers.LinkType) bool {
	switch lt {
	case layers.LinkTypeEthernet, layers.LinkTypeLinuxSLL, layers.LinkType(276), layers.LinkTypeNull, layers.LinkTypeLoop,
		layers.LinkTypeRaw, layers.LinkType(12), layers.LinkTypeIPv4, layers.LinkTypeIPv6:
		return true
	}
	return false
}

// tcpSegment parses a packet down to its TCP segment: Ethernet (with VLAN tags), Linux
// cooked (SLL, SLL2), BSD loopback and raw IP links; IPv4 (unfragmented) and IPv6 (with
// extension headers).
func tcpSegment(lt layers.LinkType, b []byte) (flowKey, segment, bool) {
	var ethType uint16
	switch lt {
	case layers.LinkTypeEthernet:
		if len(b) < 14 {
			return flowKey{}, segment{}, false
		}
		ethType, b = binary.BigEndian.Uint16(b[12:]), b[14:]
		for (ethType == 0x8100 || ethType == 0x88a8) && len(b) >= 4 {
			ethType, b = binary.BigEndian.Uint16(b[2:]), b[4:]
		}
	case layers.LinkTypeLinuxSLL:
		if len(b) < 16 {
			return flowKey{}, segment{}, false
		}
		ethType, b = binary.BigEndian.Uint16(b[14:]), b[16:]
	case layers.LinkType(276): // LINUX_SLL2
		if len(b) < 20 {
			return flowKey{}, segment{}, false
		}
		ethType, b = binary.BigEndian.Uint16(b), b[20:]
	case layers.LinkTypeNull, layers.LinkTypeLoop:
		if len(b) < 4 {
			return flowKey{}, segment{}, false
		}
		family := binary.LittleEndian.Uint32(b)
		if lt == layers.LinkTypeLoop || family > 0xffff {
			family = binary.BigEndian.Uint32(b)
		}
		b = b[4:]
		switch family {
		case 2:
			ethType = 0x0800
		case 10, 24, 28, 30:
			ethType = 0x86dd
		}
	case layers.LinkTypeRaw, layers.LinkType(12), layers.LinkTypeIPv4, layers.LinkTypeIPv6:
		if len(b) == 0 {
			return flowKey{}, segment{}, false
		}
		switch b[0] >> 4 {
		case 4:
			ethType = 0x0800
		case 6:
			ethType = 0x86dd
		}
	default:
		return flowKey{}, segment{}, false
	}
	var src, dst netip.Addr
	switch ethType {
	case 0x0800:
		if len(b) < 20 || b[0]>>4 != 4 {
			return flowKey{}, segment{}, false
		}
		ihl := int(b[0]&0x0f) * 4
		total := int(binary.BigEndian.Uint16(b[2:]))
		if ihl < 20 || total < ihl || len(b) < ihl || b[9] != 6 {
			return flowKey{}, segment{}, false
		}
		if frag := binary.BigEndian.Uint16(b[6:]); frag&0x3fff != 0 {
			return flowKey{}, segment{}, false // a fragment (more fragments, or an offset)
		}
		if total > len(b) {
			total = len(b) // a snap length cut the packet: the payload is what is there
		}
		src = netip.AddrFrom4([4]byte(b[12:16]))
		dst = netip.AddrFrom4([4]byte(b[16:20]))
		b = b[ihl:total]
	case 0x86dd:
		if len(b) < 40 || b[0]>>4 != 6 {
			return flowKey{}, segment{}, false
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
					return flowKey{}, segment{}, false
				}
				n := (int(b[1]) + 1) * 8
				if len(b) < n {
					return flowKey{}, segment{}, false
				}
				next, b = b[0], b[n:]
			default:
				return flowKey{}, segment{}, false // a fragment, or not TCP
			}
		}
	default:
		return flowKey{}, segment{}, false
	}
	if len(b) < 20 {
		return flowKey{}, segment{}, false
	}
	off := int(b[12]>>4) * 4
	if off < 20 || off > len(b) {
		return flowKey{}, segment{}, false
	}
	flags := b[13]
	key := flowKey{
		src: netip.AddrPortFrom(src, binary.BigEndian.Uint16(b)),
		dst: netip.AddrPortFrom(dst, binary.BigEndian.Uint16(b[2:])),
	}
	if flags&0x04 != 0 { // RST: no data to keep
		return key, segment{seq: binary.BigEndian.Uint32(b[4:]), rst: true}, true
	}
	return key, segment{
		seq:     binary.BigEndian.Uint32(b[4:]),
		syn:     flags&0x02 != 0,
		fin:     flags&0x01 != 0,
		payload: b[off:],
	}, true
}
