package capture

import (
	"net/netip"
	"time"

	"github.com/kafkagrid/kafkagrid/capture/pcap"
)

// IsPcap reports whether data starts as a pcap or pcapng file.
func IsPcap(data []byte) bool {
	return pcap.IsCapture(data)
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

// tcpSegment parses a packet down to its TCP segment (pcap.TCP).
func tcpSegment(lt pcap.LinkType, b []byte) (flowKey, segment, bool) {
	s, ok := pcap.TCP(lt, b)
	if !ok {
		return flowKey{}, segment{}, false
	}
	return flowKey{src: s.Src, dst: s.Dst}, segment{seq: s.Seq, syn: s.SYN, fin: s.FIN, rst: s.RST, payload: s.Payload}, true
}
