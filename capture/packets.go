package capture

import (
	"bytes"
	"encoding/binary"

	"github.com/kafkagrid/kafkagrid/capture/pcap"
)

// dumpLinks are the link layers a packet of a dump may start with, tried in this order: what
// tshark -x and Wireshark's "Copy as Hex Dump" print of a capture of an Ethernet interface, of
// "any" or a container's (Linux cooked, v1 and v2), of a loopback (BSD null) and of a raw IP
// link.
var dumpLinks = []struct {
	lt   pcap.LinkType
	name string
}{
	{pcap.LinkEthernet, "Ethernet"},
	{pcap.LinkLinuxSLL, "Linux cooked (SLL)"},
	{pcap.LinkLinuxSLL2, "Linux cooked v2 (SLL2)"},
	{pcap.LinkNull, "loopback (null)"},
	{pcap.LinkRaw, "raw IP"},
}

// PacketsPcap returns a pcap of the blocks of a dump when every one is a whole packet of one
// link layer carrying TCP over IPv4 or IPv6 (Ethernet, Linux cooked v1 or v2, BSD loopback or
// raw IP), as tshark -x and Wireshark's "Copy as Hex Dump" of a packet print them: its length
// fields agree with the block's, so that a Kafka frame is not taken for a packet. The packets
// are a millisecond apart, from time 0; link names the link layer; ok is false otherwise.
//
// tshark -x prints, after a packet that ends a PDU spread over several, the PDU's bytes
// ("Reassembled TCP (N bytes):"): a block that is no packet but whose bytes are the TCP
// payloads of the packets of its direction up to the one before it is such a block, and is
// left out (skipped counts them).
func PacketsPcap(blocks [][]byte) (pcap []byte, link string, ok bool) {
	pcap, link, _, ok = PacketsPcapSkipped(blocks)
	return pcap, link, ok
}

// PacketsPcapSkipped is PacketsPcap, and says how many blocks of reassembled data it left out.
func PacketsPcapSkipped(blocks [][]byte) (pcap []byte, link string, skipped int, ok bool) {
	if len(blocks) == 0 {
		return nil, "", 0, false
	}
	for _, l := range dumpLinks {
		if packets, ok := packetBlocks(l.lt, blocks); ok {
			return dumpPcap(l.lt, packets), l.name, len(blocks) - len(packets), true
		}
	}
	return nil, "", 0, false
}

// packetBlocks returns the blocks that are packets of link type lt, when every block is one
// or the reassembled data of those before it (tshark -x), the first a packet.
func packetBlocks(lt pcap.LinkType, blocks [][]byte) ([][]byte, bool) {
	flows := map[flowKey][]byte{} // each direction's TCP payloads so far
	var last flowKey
	var lastPayload []byte
	packets := blocks[:0:0]
	for i, b := range blocks {
		if isPacket(lt, b) {
			key, seg, _ := tcpSegment(lt, b)
			flows[key] = append(flows[key], seg.payload...)
			last, lastPayload = key, seg.payload
			packets = append(packets, b)
			continue
		}
		// Reassembled data ends within the last packet's payload.
		data := flows[last]
		tail := data[max(0, len(data)-len(b)-len(lastPayload)):]
		if i == 0 || len(b) == 0 || len(lastPayload) == 0 || !bytes.Contains(tail, b) {
			return nil, false
		}
	}
	return packets, true
}

// dumpPcap writes blocks as the packets of a pcap of link type lt.
func dumpPcap(lt pcap.LinkType, blocks [][]byte) []byte {
	out := make([]byte, 24, 24+len(blocks)*16)
	binary.LittleEndian.PutUint32(out[0:], 0xa1b2c3d4)
	binary.LittleEndian.PutUint16(out[4:], 2)
	binary.LittleEndian.PutUint16(out[6:], 4)
	binary.LittleEndian.PutUint32(out[16:], 262144)
	binary.LittleEndian.PutUint32(out[20:], uint32(lt))
	for i, b := range blocks {
		var h [16]byte
		binary.LittleEndian.PutUint32(h[0:], uint32(i/1000))
		binary.LittleEndian.PutUint32(h[4:], uint32(i%1000*1000))
		binary.LittleEndian.PutUint32(h[8:], uint32(len(b)))
		binary.LittleEndian.PutUint32(h[12:], uint32(len(b)))
		out = append(append(out, h[:]...), b...)
	}
	return out
}

// isPacket reports whether b is a packet of link type lt carrying a TCP segment whose IP
// length is the rest of the packet (Ethernet pads frames to 60 bytes), its link header's
// fields as they must be: an SLL packet type of 0-4 and hardware address length of at most
// 8, an SLL2 reserved field of zero, a loopback address family of IPv4 or IPv6.
func isPacket(lt pcap.LinkType, b []byte) bool {
	var ip []byte
	var ethType uint16
	switch lt {
	case pcap.LinkEthernet:
		if len(b) < 14 {
			return false
		}
		ethType, ip = binary.BigEndian.Uint16(b[12:]), b[14:]
	case pcap.LinkLinuxSLL:
		if len(b) < 16 || binary.BigEndian.Uint16(b) > 4 || binary.BigEndian.Uint16(b[4:]) > 8 {
			return false
		}
		ethType, ip = binary.BigEndian.Uint16(b[14:]), b[16:]
	case pcap.LinkLinuxSLL2:
		if len(b) < 20 || binary.BigEndian.Uint16(b[2:]) != 0 || b[10] > 4 || b[11] > 8 {
			return false
		}
		ethType, ip = binary.BigEndian.Uint16(b), b[20:]
	case pcap.LinkNull:
		if len(b) < 4 {
			return false
		}
		fam := binary.LittleEndian.Uint32(b)
		if fam > 0xffff {
			fam = binary.BigEndian.Uint32(b)
		}
		switch fam {
		case 2:
			ethType = 0x0800
		case 10, 24, 28, 30:
			ethType = 0x86dd
		default:
			return false
		}
		ip = b[4:]
	case pcap.LinkRaw:
		if len(b) == 0 {
			return false
		}
		ethType = map[byte]uint16{4: 0x0800, 6: 0x86dd}[b[0]>>4]
		ip = b
	default:
		return false
	}
	var ipLen int
	switch ethType {
	case 0x0800:
		if len(ip) < 40 || ip[0]>>4 != 4 || ip[9] != 6 {
			return false
		}
		ipLen = int(binary.BigEndian.Uint16(ip[2:]))
	case 0x86dd:
		if len(ip) < 60 || ip[0]>>4 != 6 {
			return false
		}
		ipLen = 40 + int(binary.BigEndian.Uint16(ip[4:]))
	default:
		return false
	}
	padded := lt == pcap.LinkEthernet && len(b) == 60 && len(b)-len(ip)+ipLen < 60
	if ipLen != len(ip) && !padded {
		return false
	}
	_, _, ok := tcpSegment(lt, b)
	return ok
}
