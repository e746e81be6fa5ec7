// Package capturetest writes pcap and pcapng captures of TCP conversations for tests: the
// bytes each side sent, cut into segments of a chosen size, with retransmissions and
// segments out of order when asked, and records the conversations of real clients through a
// net.Conn wrapper. It is what package capture and kafkagrid's tests make captures with; it
// needs no privileges and no network interface.
//
// Timestamps start at 2026-01-01T00:00:00Z and advance 1 ms per packet, so the same
// conversation always gives the same bytes.
package capturetest

import (
	"fmt"
	"io"
	"net"
	"net/netip"
	"sync"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"
)

// Chunk is what one side of connection Conn sent at once.
type Chunk struct {
	Conn       int // index into the Conns of Write
	FromClient bool
	Data       []byte
}

// Endpoints are a connection's two ends.
type Endpoints struct {
	Client, Server netip.AddrPort
}

// Options shape the captured packets. The zero value writes pcap, 1460-byte segments, no
// retransmission and nothing out of order.
type Options struct {
	NG         bool   // pcapng instead of pcap
	MSS        int    // the largest TCP payload of a packet (0: 1460)
	Retransmit int    // every Nth data segment is sent twice (0: never)
	Reorder    int    // every Nth data segment swaps places with the one after it (0: never)
	ISN        uint32 // the client's initial sequence number; the server's is ISN+1e9 (both wrap)
	NoSYN      bool   // leave out the handshake, as a capture started mid-connection
}

type side struct {
	seq uint32
}

// Write writes chunks, in order, as the packets of TCP connections between conns' ends: a
// handshake per connection (unless NoSYN), the data in segments, and a FIN from each side.
func Write(w io.Writer, conns []Endpoints, chunks []Chunk, o Options) error {
	if o.MSS <= 0 {
		o.MSS = 1460
	}
	p := &packetWriter{o: o, when: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	if o.NG {
		ng, err := pcapgo.NewNgWriter(w, layers.LinkTypeEthernet)
		if err != nil {
			return err
		}
		p.ng = ng
	} else {
		p.pw = pcapgo.NewWriter(w)
		if err := p.pw.WriteFileHeader(65535, layers.LinkTypeEthernet); err != nil {
			return err
		}
	}
	state := make([][2]side, len(conns)) // [client, server]
	for i := range conns {
		state[i][0].seq = o.ISN + uint32(i)*7919
		state[i][1].seq = o.ISN + 1e9 + uint32(i)*7919
		if !o.NoSYN {
			c, s := &state[i][0], &state[i][1]
			p.packet(conns[i], true, c.seq, s.seq, layers.TCP{SYN: true}, nil)
			c.seq++
			p.packet(conns[i], false, s.seq, c.seq, layers.TCP{SYN: true, ACK: true}, nil)
			s.seq++
			p.packet(conns[i], true, c.seq, s.seq, layers.TCP{ACK: true}, nil)
		}
	}
	var held *pending // a segment held back to be sent after the next one
	n := 0
	for _, ch := range chunks {
		if ch.Conn < 0 || ch.Conn >= len(conns) {
			return fmt.Errorf("capturetest: chunk of connection %d, have %d", ch.Conn, len(conns))
		}
		from, to := &state[ch.Conn][1], &state[ch.Conn][0]
		if ch.FromClient {
			from, to = to, from
		}
		for data := ch.Data; len(data) > 0; {
			seg := data[:min(len(data), o.MSS)]
			data = data[len(seg):]
			n++
			pk := &pending{conns[ch.Conn], ch.FromClient, from.seq, to.seq, seg}
			from.seq += uint32(len(seg))
			switch {
			case held != nil:
				p.send(pk)
				p.send(held)
				held = nil
			case o.Reorder > 0 && n%o.Reorder == 0:
				held = pk
			default:
				p.send(pk)
			}
			if o.Retransmit > 0 && n%o.Retransmit == 0 {
				p.send(pk)
			}
		}
	}
	if held != nil {
		p.send(held)
	}
	for i := range conns {
		c, s := &state[i][0], &state[i][1]
		p.packet(conns[i], true, c.seq, s.seq, layers.TCP{FIN: true, ACK: true}, nil)
		c.seq++
		p.packet(conns[i], false, s.seq, c.seq, layers.TCP{FIN: true, ACK: true}, nil)
	}
	if p.ng != nil && p.err == nil {
		p.err = p.ng.Flush()
	}
	return p.err
}

type pending struct {
	e          Endpoints
	fromClient bool
	seq, ack   uint32
	data       []byte
}

type packetWriter struct {
	o    Options
	pw   *pcapgo.Writer
	ng   *pcapgo.NgWriter
	when time.Time
	err  error
	buf  gopacket.SerializeBuffer
}

func (p *packetWriter) send(pk *pending) {
	p.packet(pk.e, pk.fromClient, pk.seq, pk.ack, layers.TCP{ACK: true, PSH: true}, pk.data)
}

// packet writes one Ethernet/IPv4/TCP (or IPv6) packet.
func (p *packetWriter) packet(e Endpoints, fromClient bool, seq, ack uint32, tcp layers.TCP, data []byte) {
	if p.err != nil {
		return
	}
	src, dst := e.Client, e.Server
	if !fromClient {
		src, dst = dst, src
	}
	tcp.SrcPort, tcp.DstPort = layers.TCPPort(src.Port()), layers.TCPPort(dst.Port())
	tcp.Seq, tcp.Ack, tcp.Window = seq, ack, 65535
	eth := &layers.Ethernet{SrcMAC: net.HardwareAddr{2, 0, 0, 0, 0, 1}, DstMAC: net.HardwareAddr{2, 0, 0, 0, 0, 2}}
	var ip gopacket.NetworkLayer
	if src.Addr().Is4() {
		eth.EthernetType = layers.EthernetTypeIPv4
		ip4 := &layers.IPv4{Version: 4, TTL: 64, Protocol: layers.IPProtocolTCP, SrcIP: src.Addr().AsSlice(), DstIP: dst.Addr().AsSlice()}
		ip = ip4
		tcp.SetNetworkLayerForChecksum(ip4)
	} else {
		eth.EthernetType = layers.EthernetTypeIPv6
		ip6 := &layers.IPv6{Version: 6, HopLimit: 64, NextHeader: layers.IPProtocolTCP, SrcIP: src.Addr().AsSlice(), DstIP: dst.Addr().AsSlice()}
		ip = ip6
		tcp.SetNetworkLayerForChecksum(ip6)
	}
	if p.buf == nil {
		p.buf = gopacket.NewSerializeBuffer()
	}
	opts := gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true}
	if err := gopacket.SerializeLayers(p.buf, opts, eth, ip.(gopacket.SerializableLayer), &tcp, gopacket.Payload(data)); err != nil {
		p.err = err
		return
	}
	b := p.buf.Bytes()
	ci := gopacket.CaptureInfo{Timestamp: p.when, CaptureLength: len(b), Length: len(b)}
	p.when = p.when.Add(time.Millisecond)
	if p.ng != nil {
		p.err = p.ng.WritePacket(ci, b)
	} else {
		p.err = p.pw.WritePacket(ci, b)
	}
}

// Recorder records the bytes that go through the connections it wraps, in the order they
// pass, for Write. It is safe for concurrent use.
type Recorder struct {
	mu     sync.Mutex
	conns  []Endpoints
	chunks []Chunk
	server uint16 // the port written as the server's (0: the real one)
}

// NewRecorder returns a Recorder; serverPort, when not 0, replaces the server's real port in
// the capture (to put a test broker on 9092).
func NewRecorder(serverPort uint16) *Recorder { return &Recorder{server: serverPort} }

// Wrap returns c, recording what is written to it (the client's bytes) and read from it (the
// server's).
func (r *Recorder) Wrap(c net.Conn) net.Conn {
	r.mu.Lock()
	defer r.mu.Unlock()
	la, _ := netip.ParseAddrPort(c.LocalAddr().String())
	ra, _ := netip.ParseAddrPort(c.RemoteAddr().String())
	if r.server != 0 {
		ra = netip.AddrPortFrom(ra.Addr(), r.server)
	}
	r.conns = append(r.conns, Endpoints{Client: la, Server: ra})
	return &recConn{Conn: c, r: r, id: len(r.conns) - 1}
}

// Capture returns the connections and chunks recorded so far.
func (r *Recorder) Capture() ([]Endpoints, []Chunk) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Endpoints(nil), r.conns...), append([]Chunk(nil), r.chunks...)
}

func (r *Recorder) add(id int, fromClient bool, b []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.chunks = append(r.chunks, Chunk{Conn: id, FromClient: fromClient, Data: append([]byte(nil), b...)})
}

type recConn struct {
	net.Conn
	r  *Recorder
	id int
}

func (c *recConn) Write(b []byte) (int, error) {
	// Record before writing: the server cannot answer before the request is recorded.
	c.r.add(c.id, true, b)
	return c.Conn.Write(b)
}

func (c *recConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	if n > 0 {
		c.r.add(c.id, false, b[:n])
	}
	return n, err
}
