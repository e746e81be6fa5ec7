package capture

import (
	"encoding/binary"

	"github.com/gopacket/gopacket/layers"
)

// PacketsPcap returns a pcap of the blocks of a dump when every one is a whole Ethernet frame
// carrying TCP over IPv4 or IPv6, as tshark -x and Wireshark's "Copy as Hex Dump" of a packet
// print them: its length fields agree with the block's, so that a Kafka frame is not taken for
// a packet. The packets are a millisecond apart, from time 0; ok is false otherwise.
func PacketsPcap(blocks [][]byte) (pcap []byte, ok bool) {
	if len(blocks) == 0 {
		return nil, false
	}
	for _, b := range blocks {
		if !isPacket(b) {
			return nil, false
		}
	}
	out := make([]byte, 24, 24+len(blocks)*16)
	binary.LittleEndian.PutUint32(out[0:], 0xa1b2c3d4)
	binary.LittleEndian.PutUint16(out[4:], 2)
	binary.LittleEndian.PutUint16(out[6:], 4)
	binary.LittleEndian.PutUint32(out[16:], 262144)
	binary.LittleEndian.PutUint32(out[20:], uint32(layers.LinkTypeEthernet))
	for i, b := range blocks {
		var h [16]byte
		binary.LittleEndian.PutUint32(h[0:], uint32(i/1000))
		binary.LittleEndian.PutUint32(h[4:], uint32(i%1000*1000))
		binary.LittleEndian.PutUint32(h[8:], uint32(len(b)))
		binary.LittleEndian.PutUint32(h[12:], uint32(len(b)))
		out = append(append(out, h[:]...), b...)
	}
	return out, true
}

// isPacket reports whether b is an Ethernet frame of a TCP segment whose IP length is the
// frame's (Ethernet pads frames to 60 bytes).
func isPacket(b []byte) bool {
	if len(b) < 14+20+20 {
		return false
	}
	var ipLen int
	switch binary.BigEndian.Uint16(b[12:]) {
	case 0x0800:
		if b[14]>>4 != 4 || b[14+9] != 6 {
			return false
		}
		ipLen = int(binary.BigEndian.Uint16(b[16:]))
	case 0x86dd:
		if b[14]>>4 != 6 || len(b) < 14+40+20 {
			return false
		}
		ipLen = 40 + int(binary.BigEndian.Uint16(b[18:]))
	default:
		return false
	}
	if 14+ipLen != len(b) && !(len(b) == 60 && 14+ipLen < 60) {
		return false
	}
	_, _, ok := tcpSegment(layers.LinkTypeEthernet, b)
	return ok
}
