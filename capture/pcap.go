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

// pcapFile reads a pcap file's records as Wireshark does (wiretap's libpcap reader): a
// record holds the bytes its incl_len says, even where that is more than the packet's
// orig_len (some tools count a header twice); such records are counted for a note.
type pcapFile struct {
	r        io.Reader
	order    binary.ByteOrder
	nano     bool
	link     layers.LinkType
	maxLen   uint32
	buf      []byte
	longer   int // records holding more bytes than their packet had
	firstBad int // the first such record, 1-based
	n        int // records read
}

// maxRecord is the largest packet record read whatever the file's snap length: Wireshark's
// largest (WTAP_MAX_PACKET_SIZE_STANDARD).
const maxRecord = 262144

// newPcapFile reads a pcap file's header.
func newPcapFile(r io.Reader) (*pcapFile, error) {
	var h [24]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return nil, fmt.Errorf("a file header of %d bytes: %w", 24, err)
	}
	p := &pcapFile{r: r}
	switch binary.LittleEndian.Uint32(h[:]) {
	case 0xa1b2c3d4:
		p.order = binary.LittleEndian
	case 0xa1b23c4d:
		p.order, p.nano = binary.LittleEndian, true
	case 0xd4c3b2a1:
		p.order = binary.BigEndian
	case 0x4d3cb2a1:
		p.order, p.nano = binary.BigEndian, true
	default:
		return nil, fmt.Errorf("magic 0x%08x is not a pcap file's", binary.LittleEndian.Uint32(h[:]))
	}
	if major := p.order.Uint16(h[4:]); major != 2 {
		return nil, fmt.Errorf("version %d.%d, only 2.x is read", major, p.order.Uint16(h[6:]))
	}
	p.maxLen = max(p.order.Uint32(h[16:]), maxRecord)
	p.link = layers.LinkType(p.order.Uint32(h[20:]) & 0xffff) // the high bits: FCS length
	return p, nil
}

func (p *pcapFile) ReadPacketData() ([]byte, captureInfo, error) {
	var h [16]byte
	n, err := io.ReadFull(p.r, h[:])
	switch {
	case n == 0 && errors.Is(err, io.EOF):
		return nil, captureInfo{}, io.EOF
	case err != nil:
		return nil, captureInfo{}, fmt.Errorf("a record header cut short: %d of 16 bytes", n)
	}
	sec, frac := p.order.Uint32(h[0:]), p.order.Uint32(h[4:])
	incl, orig := p.order.Uint32(h[8:]), p.order.Uint32(h[12:])
	if incl > p.maxLen {
		return nil, captureInfo{}, fmt.Errorf("a record of %d bytes, more than the %d a packet may hold", incl, p.maxLen)
	}
	p.n++
	if incl > orig {
		if p.longer == 0 {
			p.firstBad = p.n
		}
		p.longer++
	}
	if cap(p.buf) < int(incl) {
		p.buf = make([]byte, incl)
	}
	b := p.buf[:incl]
	got, err := io.ReadFull(p.r, b)
	if err != nil {
		if got == 0 {
			return nil, captureInfo{}, fmt.Errorf("the last record header announces %d bytes, and none follow", incl)
		}
		return nil, captureInfo{}, fmt.Errorf("the last record holds %d of the %d bytes its header announces", got, incl)
	}
	ns := int64(frac) * 1000
	if p.nano {
		ns = int64(frac)
	}
	return b, captureInfo{time.Unix(int64(sec), ns).UTC(), p.link}, nil
}

func (p *pcapFile) LinkType() layers.LinkType { return p.link }

// note says how many records hold more bytes than their packet had, or "".
func (p *pcapFile) note() string {
	if p.longer == 0 {
		return ""
	}
	return fmt.Sprintf("%d of %d packet records (the first: packet %d) hold more bytes than their packet had (incl_len > orig_len): read as held, as Wireshark reads them, the IP length marking where each packet ends",
		p.longer, p.n, p.firstBad)
}

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
