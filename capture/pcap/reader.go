package pcap

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"time"
)

// Packet is one packet record of a capture: the bytes captured (Data, valid until the
// reader's next Next), when, and its link type (in pcapng, its interface's).
type Packet struct {
	Data []byte
	Time time.Time
	Link LinkType
}

// MaxPacket is the largest packet record read whatever a pcap file's snap length says:
// Wireshark's largest (WTAP_MAX_PACKET_SIZE_STANDARD). MaxBlock is the largest pcapng block
// read: a block that says it is larger is an error.
const (
	MaxPacket = 262144
	MaxBlock  = 16 << 20
)

// IsCapture reports whether data starts as a pcap or pcapng file.
func IsCapture(data []byte) bool {
	if len(data) < 4 {
		return false
	}
	switch binary.LittleEndian.Uint32(data) {
	case 0xa1b2c3d4, 0xd4c3b2a1, 0xa1b23c4d, 0x4d3cb2a1, ngSHB:
		return true
	}
	return false
}

// Reader reads the packets of a pcap or pcapng file, one at a time.
type Reader struct {
	next func() (Packet, error)
	pcap *pcapFile // nil for pcapng
}

// NewReader reads the file header of a pcap or pcapng file (told apart by its first four
// bytes) from r. Its errors start with the format's name: "pcap: …" or "pcapng: …".
func NewReader(r io.Reader) (*Reader, error) {
	var magic [4]byte
	if _, err := io.ReadFull(r, magic[:]); err != nil {
		return nil, fmt.Errorf("pcap: a file header of %d bytes: %w", 24, err)
	}
	if binary.LittleEndian.Uint32(magic[:]) == ngSHB {
		ng := &ngReader{r: r}
		if err := ng.begin(magic); err != nil {
			return nil, fmt.Errorf("pcapng: %w", err)
		}
		return &Reader{next: ng.next}, nil
	}
	p, err := newPcapFile(r, magic)
	if err != nil {
		return nil, fmt.Errorf("pcap: %w", err)
	}
	return &Reader{next: p.next, pcap: p}, nil
}

// Next returns the next packet, or io.EOF after the last. Any other error means the file
// ends early or is broken there; the packets before it stand.
func (r *Reader) Next() (Packet, error) { return r.next() }

// Note says how many records of a pcap file hold more bytes than their packet had
// (incl_len > orig_len; some tools count a header twice, and Wireshark reads them as held),
// or "" when none does or the file is pcapng.
func (r *Reader) Note() string {
	if r.pcap == nil || r.pcap.longer == 0 {
		return ""
	}
	return fmt.Sprintf("%d of %d packet records (the first: packet %d) hold more bytes than their packet had (incl_len > orig_len): read as held, as Wireshark reads them, the IP length marking where each packet ends",
		r.pcap.longer, r.pcap.n, r.pcap.firstBad)
}

// pcapFile reads a pcap file's records as Wireshark does (wiretap's libpcap reader): a
// record holds the bytes its incl_len says, even where that is more than the packet's
// orig_len; such records are counted for a note.
type pcapFile struct {
	r        io.Reader
	order    binary.ByteOrder
	nano     bool
	link     LinkType
	maxLen   uint32
	buf      []byte
	longer   int // records holding more bytes than their packet had
	firstBad int // the first such record, 1-based
	n        int // records read
}

// newPcapFile reads a pcap file's header, whose first four bytes are magic.
func newPcapFile(r io.Reader, magic [4]byte) (*pcapFile, error) {
	var h [24]byte
	copy(h[:], magic[:])
	if _, err := io.ReadFull(r, h[4:]); err != nil {
		return nil, fmt.Errorf("a file header of %d bytes: %w", 24, io.ErrUnexpectedEOF)
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
	p.maxLen = max(p.order.Uint32(h[16:]), MaxPacket)
	p.link = LinkType(p.order.Uint32(h[20:]) & 0xffff) // the high bits: FCS length
	return p, nil
}

func (p *pcapFile) next() (Packet, error) {
	var h [16]byte
	n, err := io.ReadFull(p.r, h[:])
	switch {
	case n == 0 && errors.Is(err, io.EOF):
		return Packet{}, io.EOF
	case err != nil:
		return Packet{}, fmt.Errorf("a record header cut short: %d of 16 bytes", n)
	}
	sec, frac := p.order.Uint32(h[0:]), p.order.Uint32(h[4:])
	incl, orig := p.order.Uint32(h[8:]), p.order.Uint32(h[12:])
	if incl > p.maxLen {
		return Packet{}, fmt.Errorf("a record of %d bytes, more than the %d a packet may hold", incl, p.maxLen)
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
			return Packet{}, fmt.Errorf("the last record header announces %d bytes, and none follow", incl)
		}
		return Packet{}, fmt.Errorf("the last record holds %d of the %d bytes its header announces", got, incl)
	}
	ns := int64(frac) * 1000
	if p.nano {
		ns = int64(frac)
	}
	return Packet{Data: b, Time: time.Unix(int64(sec), ns).UTC(), Link: p.link}, nil
}
