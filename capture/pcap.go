package capture

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/netip"
	"slices"
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
	packet  int   // 1-based packet number in the capture
	flow    int32 // the direction's index in flows.keys
}

// flows are the TCP directions of a capture, numbered in the order they first appear, each
// with its segments in capture order. A direction costs its key once in a map and a slice; a
// segment is one struct, and its payload is copied into shared blocks: reading a capture
// allocates about twice its size plus some 200 bytes a direction, whatever the mix of
// packets and connections.
type flows struct {
	ids  map[flowKey]int32
	keys []flowKey
	segs [][]segment // by direction
}

// id is the index of a direction, or -1.
func (f *flows) id(k flowKey) int32 {
	if i, ok := f.ids[k]; ok {
		return i
	}
	return -1
}

// of is the segments of a direction (none for -1).
func (f *flows) of(id int32) []segment {
	if id < 0 {
		return nil
	}
	return f.segs[id]
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

// readPackets reads every TCP segment of a pcap or pcapng capture, by direction, in capture
// order. A capture cut short ends the reading with a note, not an error.
func readPackets(data []byte) (fl *flows, packets int, notes []string, err error) {
	var src packetSource
	if binary.LittleEndian.Uint32(data) == 0x0a0d0d0a {
		r, err := pcapgo.NewNgReader(bytes.NewReader(data), pcapgo.NgReaderOptions{WantMixedLinkType: true})
		if err != nil {
			return nil, 0, nil, fmt.Errorf("capture: pcapng: %w", err)
		}
		src = ngSrc{r}
	} else {
		r, err := pcapgo.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, 0, nil, fmt.Errorf("capture: pcap: %w", err)
		}
		src = pcapSrc{r}
	}
	fl = &flows{ids: map[flowKey]int32{}}
	var all []segment
	var block []byte // payloads are copied here (the reader reuses its buffer)
	skipped := 0
	otherLinks := map[layers.LinkType]int{}
	for {
		b, ci, err := src.ReadPacketData()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				notes = append(notes, fmt.Sprintf("the capture ends early after packet %d: %v", packets, err))
			}
			break
		}
		packets++
		if !readableLink(ci.lt) {
			otherLinks[ci.lt]++
			continue
		}
		key, seg, ok := tcpSegment(ci.lt, b)
		if !ok {
			skipped++
			continue
		}
		seg.time, seg.packet = ci.time, packets
		if n := len(seg.payload); n > 0 {
			if cap(block)-len(block) < n {
				block = make([]byte, 0, max(n, 1<<20))
			}
			at := len(block)
			block = append(block, seg.payload...)
			seg.payload = block[at:len(block):len(block)]
		} else {
			seg.payload = nil
		}
		id, seen := fl.ids[key]
		if !seen {
			id = int32(len(fl.keys))
			fl.ids[key] = id
			fl.keys = append(fl.keys, key)
		}
		seg.flow = id
		all = append(all, seg)
	}
	if skipped > 0 {
		notes = append(notes, fmt.Sprintf("%d of %d packets are not TCP over IPv4 or IPv6 (or are fragments) and were skipped", skipped, packets))
	}
	for _, lt := range slices.Sorted(maps.Keys(otherLinks)) {
		notes = append(notes, fmt.Sprintf("%d of %d packets have link type %s (%d), which kafkagrid does not read, and were skipped", otherLinks[lt], packets, lt, int(lt)))
	}
	// Grouped by direction, capture order kept: a counting sort.
	start := make([]int, len(fl.keys)+1)
	for _, sg := range all {
		start[sg.flow+1]++
	}
	for i := 1; i < len(start); i++ {
		start[i] += start[i-1]
	}
	grouped := make([]segment, len(all))
	next := slices.Clone(start[:len(fl.keys)])
	for _, sg := range all {
		grouped[next[sg.flow]] = sg
		next[sg.flow]++
	}
	fl.segs = make([][]segment, len(fl.keys))
	for i := range fl.keys {
		fl.segs[i] = grouped[start[i]:start[i+1]:start[i+1]]
	}
	return fl, packets, notes, nil
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
		return key, segment{seq: binary.BigEndian.Uint32(b[4:])}, true
	}
	return key, segment{
		seq:     binary.BigEndian.Uint32(b[4:]),
		syn:     flags&0x02 != 0,
		fin:     flags&0x01 != 0,
		payload: b[off:],
	}, true
}

// span says which packet carried a stretch of a reassembled stream.
type span struct {
	at     int64 // stream offset of the stretch's first byte
	time   time.Time
	packet int
}

// stream is one direction of a connection, reassembled.
type stream struct {
	key   flowKey
	data  []byte
	spans []span // in stream order
	notes []string
	gap   int64 // the stream offset of the first gap (bytes missing), or -1
	first int   // the first packet of the direction
}

// reassemble orders a direction's segments by sequence number and joins their payloads:
// retransmitted bytes are taken once (the first copy seen), segments that arrived out of
// order are put in place, and a hole (bytes never captured) ends the stream there with a
// note. Sequence numbers wrap; the stream starts after the SYN, or at the lowest sequence
// number seen when the capture began mid-connection.
func reassemble(key flowKey, segs []segment) *stream {
	st := &stream{key: key, gap: -1}
	if len(segs) == 0 {
		return st
	}
	st.first = segs[0].packet
	isn, haveSyn := segs[0].seq, false
	for _, s := range segs {
		switch {
		case s.syn && !haveSyn:
			isn, haveSyn = s.seq+1, true
		case s.syn && s.seq+1 != isn:
			// The same addresses and ports again, for another connection (or a forged SYN).
			st.notes = append(st.notes, fmt.Sprintf("another SYN at packet %d (sequence number %d, the first's %d): the addresses and ports were used again; only the first connection is read",
				s.packet, s.seq, isn-1))
			haveSyn = true
		}
		if haveSyn && len(st.notes) > 0 {
			break
		}
	}
	if !haveSyn {
		// The lowest sequence number, within a window of the first.
		for _, s := range segs {
			if d := int32(s.seq - isn); d < 0 {
				isn = s.seq
			}
		}
	}
	type piece struct {
		at  int64
		seg *segment
	}
	pieces := make([]piece, 0, len(segs))
	before := 0
	for i := range segs {
		s := &segs[i]
		if len(s.payload) == 0 {
			continue
		}
		d := s.seq - isn
		if s.syn {
			d++
		}
		if int32(d) < 0 {
			before++ // before the stream's start: a late copy, or another connection's
			continue
		}
		pieces = append(pieces, piece{at: int64(d), seg: s})
	}
	// A stable sort keeps the first copy of a retransmission first.
	slices.SortStableFunc(pieces, func(a, b piece) int { return cmp.Compare(a.at, b.at) })
	var next int64
	retrans, differ, firstDiffer := 0, 0, 0
	// differs reports whether a copy's bytes that were taken already are other bytes.
	differs := func(p piece, end int64) bool {
		lo, hi := p.at, min(end, next)
		return lo >= 0 && hi <= int64(len(st.data)) && lo < hi && !bytes.Equal(st.data[lo:hi], p.seg.payload[:hi-lo])
	}
	for _, p := range pieces {
		end := p.at + int64(len(p.seg.payload))
		if end <= next {
			retrans++
			if differs(p, end) {
				if differ++; differ == 1 {
					firstDiffer = p.seg.packet
				}
			}
			continue
		}
		if p.at > next {
			st.gap = next
			st.notes = append(st.notes, fmt.Sprintf("%d bytes missing at stream offset %d (packet %d follows the hole): the stream is read up to the hole",
				p.at-next, next, p.seg.packet))
			break
		}
		if p.at < next {
			retrans++
			if differs(p, end) {
				if differ++; differ == 1 {
					firstDiffer = p.seg.packet
				}
			}
		}
		st.spans = append(st.spans, span{at: next, time: p.seg.time, packet: p.seg.packet})
		st.data = append(st.data, p.seg.payload[next-p.at:]...)
		next = end
	}
	if retrans > 0 {
		st.notes = append(st.notes, fmt.Sprintf("%d retransmitted or overlapping segments taken once", retrans))
	}
	if differ > 0 {
		st.notes = append(st.notes, fmt.Sprintf("%d retransmitted segments carry other bytes than the first copy (the first at packet %d): the first copy is read", differ, firstDiffer))
	}
	if before > 0 {
		st.notes = append(st.notes, fmt.Sprintf("%d segments lie before the stream's start (late copies, or another connection on the same addresses and ports) and were not read", before))
	}
	if !haveSyn {
		st.notes = append(st.notes, "no SYN in the capture: the stream is read from its first captured byte")
	}
	return st
}

// at returns the time and packet of the stream byte at offset off.
func (st *stream) at(off int64) (time.Time, int) {
	lo, hi := 0, len(st.spans)
	for lo < hi {
		m := (lo + hi) / 2
		if st.spans[m].at <= off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == 0 {
		return time.Time{}, 0
	}
	s := st.spans[lo-1]
	return s.time, s.packet
}
