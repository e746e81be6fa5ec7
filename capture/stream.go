package capture

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"time"

	"github.com/kafkagrid/kafkagrid/capture/pcap"
	"github.com/kafkagrid/kafkagrid/kafka"
)

// DefaultMaxWindow is the most bytes one direction of a connection holds ahead of the bytes
// in order when Options.MaxWindow is not set: 16 MiB of segments that arrived before a
// segment still missing, or of responses that wait for the request being reassembled. A
// window past it is a hole that will not fill: the direction is read up to it, with a note.
const DefaultMaxWindow = 16 << 20

// DefaultMaxInFlight is the most requests of one connection Stream holds while they wait for
// their response when Options.MaxInFlight is not set: 1,024 (Kafka's clients send 5 at most,
// max.in.flight.requests.per.connection). Past it the oldest is passed on unanswered, with a
// note, so that a capture of the client's side alone costs no more than a full one.
const DefaultMaxInFlight = 1024

// Stream decodes the frames of r as Read does, one exchange at a time: it calls each once per
// exchange in the order they complete (a request when its response arrives; a lone side when
// its connection ends, the other side is missing or will not come, as for a Produce with
// acks=0), with the exchange's connection, and then keeps neither: a Conn's Exchanges stay
// nil. It returns the summary: Kind, Packets, the connections (their ID, ends and notes), the
// notes of the whole input and the counts of what was left out. An error from each stops the
// reading and is returned as it is; so is the error of a done Options.Context.
//
// A pcap or pcapng capture is read packet by packet from r and never whole: memory is
// bounded by the largest frame (Options.MaxFrame, and its tree: Options.MaxNodes nodes, and
// Options.MaxDecompressed inflated bytes) and by the open connections' reassembly windows
// (Options.MaxWindow a direction, Options.MaxInFlight requests a connection waiting for
// their answer), not by the capture: any number of frames decodes with the defaults. The
// limits apply per frame: Options.MaxNodes bounds each frame's tree (0 or less:
// DefaultMaxNodes) and Options.MaxInflated and Options.MaxFrames, which bound what Read
// keeps, do not apply. Frames and text (hex dumps, byte lists) are read whole (a pasted text is
// small; the caller bounds it, as kafkagrid decode does at 256 MiB), decoded, and passed on
// in the order of the input.
//
// each may keep what it is given; the Messages' bytes are their own.
func Stream(cat *kafka.Catalog, r io.Reader, o Options, each func(c *Conn, e *Exchange) error) (*Result, error) {
	o = o.withDefaults()
	d := newDecoder(cat, o, false)
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(4)
	var res *Result
	if IsPcap(head) {
		var err error
		d.recycle = o.Recycle
		if res, err = d.pcap(br, each); err != nil {
			return nil, err
		}
	} else {
		data, err := io.ReadAll(br)
		if err != nil {
			return nil, fmt.Errorf("capture: %w", err)
		}
		if res = d.readWhole(data); res == nil {
			return nil, d.textErr
		}
		for _, c := range res.Conns {
			exs := c.Exchanges
			c.Exchanges = nil
			for _, e := range exs {
				if err := d.cancelled(); err != nil {
					return nil, err
				}
				if err := each(c, e); err != nil {
					return nil, err
				}
			}
		}
	}
	if err := d.cancelled(); err != nil {
		return nil, err
	}
	d.finish(res)
	return res, nil
}

// cancelled is the error of a done Options.Context, or nil.
func (d *decoder) cancelled() error {
	if d.o.Context == nil || d.o.Context.Err() == nil {
		return nil
	}
	return context.Cause(d.o.Context)
}

// tcpConn is one TCP connection of a capture as it is read.
type tcpConn struct {
	dirs   [2]*direction // dirs[0] is the direction of its first packet
	client int           // the index of the client's direction, or -1 while that is not known
	state  connState
	c      *Conn

	checked  bool                  // the client's first bytes read as a Kafka request
	pending  map[int32][]*Exchange // requests waiting for their response, by correlation id, oldest first
	waiting  int                   // how many (at most Options.MaxInFlight)
	held     []heldMsg             // the server's frames that answer no request yet, oldest first
	heldSize int                   // their bytes
	requests int                   // the client's frames so far
	// After a SaslHandshake v0 the client's frames are bare SASL tokens until one reads as a
	// Kafka request again; each waits for the server's token, in order.
	sasl   bool
	tokens []*Exchange
	left   bool // counted in pcapReader.gone: no longer needs ending
}

type connState uint8

const (
	connUndecided connState = iota // on another port, no first bytes yet
	connKafka
	connOther   // not Kafka: its packets are passed over
	connSkipped // past Options.MaxConns
	connDone    // ended (FIN from both sides, RST, or not Kafka after all): late packets are passed over
)

// direction is one direction of a connection, reassembled as its packets come: bytes in
// order are cut into frames as soon as a frame is whole; segments ahead of a missing one wait,
// as many as Options.MaxWindow bytes.
type direction struct {
	key     flowKey
	started bool // the stream's start is known: its SYN, or its first byte
	haveSyn bool
	isn     uint32 // the sequence number of the stream's first byte
	next    int64  // the stream offset of the next byte in order
	buf     []byte // the bytes from base not yet cut into frames
	base    int64
	spans   []span  // the packets of buf's bytes, in stream order
	ahead   []piece // segments past next, by offset
	aheadN  int     // their bytes
	fin     bool
	finAt   int64 // the stream offset of the FIN
	dead    bool  // read up to a hole or a size that is no frame's: the rest is passed over
	first   int   // the direction's first packet

	retrans, differ, firstDiffer, before int
	otherSyn                             bool
}

// heldMsg is a response that came before its request: a segment of the request held back, or
// retransmitted, let the response be whole first. It waits for the client's next few frames.
type heldMsg struct {
	m  *Message
	at int // tcpConn.requests when it came
}

// heldFor is how many of the client's frames a response waits for its request.
const heldFor = 16

// piece is a segment that arrived ahead of the bytes in order.
type piece struct {
	at     int64
	data   []byte
	time   time.Time
	packet int
}

// span says which packet carried a stretch of a reassembled stream.
type span struct {
	at     int64 // stream offset of the stretch's first byte
	time   time.Time
	packet int
}

// at returns the time and packet of the stream byte at offset off.
func (dr *direction) at(off int64) (time.Time, int) {
	i, _ := slices.BinarySearchFunc(dr.spans, off+1, func(s span, t int64) int {
		if s.at < t {
			return -1
		}
		return 1
	})
	if i == 0 {
		return time.Time{}, 0
	}
	s := dr.spans[i-1]
	return s.time, s.packet
}

// pcapReader reads a capture packet by packet.
type pcapReader struct {
	d     *decoder
	each  func(*Conn, *Exchange) error
	err   error // each's
	res   *Result
	conns map[flowKey]*tcpConn // by both directions' keys
	open  []*tcpConn           // not done, in the order first seen
	gone  int                  // connections of open that left it since (done, not Kafka, skipped)
	// visited counts the connections compact looked at: what the tests count to check that
	// the work is linear in the connections.
	visited int
	kafka   int // Kafka connections read
	other   int // TCP connections that are not Kafka
	past    int // Kafka connections past Options.MaxConns

	// peakHeld is the most messages held at once (requests waiting, held responses, tokens),
	// and peakBuffered the most bytes buffered at once by all directions: what the tests
	// count to check that memory does not grow with the capture.
	held, peakHeld         int
	buffered, peakBuffered int
}

// pcap reads a capture from r, passing each exchange to each as it completes.
func (d *decoder) pcap(r io.Reader, each func(*Conn, *Exchange) error) (*Result, error) {
	p, err := d.newPcapReader(each)
	if err != nil {
		return nil, err
	}
	return p.read(r)
}

func (d *decoder) newPcapReader(each func(*Conn, *Exchange) error) (*pcapReader, error) {
	return &pcapReader{d: d, each: each, res: &Result{Kind: KindPcap}, conns: map[flowKey]*tcpConn{}}, nil
}

// read reads the packets of r and ends every connection still open at the end.
func (p *pcapReader) read(r io.Reader) (*Result, error) {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReaderSize(r, 64<<10)
	}
	src, err := pcap.NewReader(br)
	if err != nil {
		return nil, fmt.Errorf("capture: %w", err)
	}
	res := p.res
	skipped := 0
	otherLinks := map[pcap.LinkType]int{}
	for {
		if err := p.d.cancelled(); err != nil {
			return nil, err
		}
		pk, err := src.Next()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				res.Notes = append(res.Notes, fmt.Sprintf("the capture ends early after packet %d: %v", res.Packets, err))
			}
			break
		}
		res.Packets++
		if !pk.Link.Readable() {
			otherLinks[pk.Link]++
			continue
		}
		key, seg, ok := tcpSegment(pk.Link, pk.Data)
		if !ok {
			skipped++
			continue
		}
		seg.time, seg.packet = pk.Time, res.Packets
		p.packet(key, seg)
		if p.err != nil {
			return nil, p.err
		}
	}
	for _, tc := range p.open {
		if tc.state != connDone {
			p.end(tc)
		}
		if p.err != nil {
			return nil, p.err
		}
	}
	p.open = nil
	if err := p.d.cancelled(); err != nil {
		return nil, err
	}
	if note := src.Note(); note != "" {
		res.Notes = append(res.Notes, note)
	}
	if skipped > 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("%d of %d packets are not TCP over IPv4 or IPv6 (or are fragments) and were skipped", skipped, res.Packets))
	}
	for _, lt := range slices.Sorted(maps.Keys(otherLinks)) {
		res.Notes = append(res.Notes, fmt.Sprintf("%d of %d packets have link type %s (%d), which kafkagrid does not read, and were skipped", otherLinks[lt], res.Packets, lt, int(lt)))
	}
	if p.other > 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("%s on other ports %s not start with a Kafka request and %s skipped", plural(p.other, "TCP connection"), does(p.other), were(p.other)))
	}
	if p.past > 0 {
		res.SkippedConns = p.past
		res.Notes = append(res.Notes, fmt.Sprintf("%s past the limit of %d connections an input reads (Options.MaxConns) %s not read", plural(p.past, "Kafka connection"), p.d.o.MaxConns, were(p.past)))
	}
	if p.kafka == 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("no Kafka connection found (ports %v, or a connection starting with a Kafka request)", p.d.o.Ports))
	}
	return res, nil
}

// packet takes one TCP segment.
func (p *pcapReader) packet(key flowKey, seg segment) {
	rev := flowKey{src: key.dst, dst: key.src}
	tc := p.conns[key]
	if tc != nil && tc.state == connDone {
		// A packet after the connection ended: a late copy, passed over, unless a SYN opens
		// another connection on the same addresses and ports.
		if !seg.syn || (seg.syn && tc.dirOf(key).haveSyn && seg.seq+1 == tc.dirOf(key).isn) {
			return
		}
		tc = nil
	}
	if tc == nil {
		tc = &tcpConn{client: -1}
		tc.dirs[0] = &direction{key: key, first: seg.packet}
		tc.dirs[1] = &direction{key: rev}
		p.conns[key], p.conns[rev] = tc, tc
		p.open = append(p.open, tc)
		switch {
		case slices.Contains(p.d.o.Ports, key.dst.Port()):
			p.decide(tc, 0)
		case slices.Contains(p.d.o.Ports, key.src.Port()):
			p.decide(tc, 1)
		}
		p.compact()
	}
	switch tc.state {
	case connOther, connSkipped:
		return
	}
	i := 0
	if tc.dirs[1].key == key {
		i = 1
	}
	dr := tc.dirs[i]
	if dr.first == 0 {
		dr.first = seg.packet
	}
	if seg.rst {
		p.take(tc, i, seg)
		p.end(tc)
		return
	}
	if p.take(tc, i, seg) {
		p.cut(tc)
	}
	if tc.state == connKafka && tc.dirs[0].ended() && tc.dirs[1].ended() {
		p.end(tc)
	}
}

// compact drops the connections that ended (or need no ending: not Kafka, past
// Options.MaxConns) from the open list once they are half of it: a count kept as they leave,
// so that each new connection costs a constant amortized, not a look at every open one.
func (p *pcapReader) compact() {
	if len(p.open) < 64 || p.gone*2 < len(p.open) {
		return
	}
	p.visited += len(p.open)
	p.open = slices.DeleteFunc(p.open, func(tc *tcpConn) bool { return tc.left })
	p.gone = 0
}

// leave marks a connection that no longer needs ending at the end of the capture.
func (p *pcapReader) leave(tc *tcpConn, st connState) {
	tc.state = st
	if !tc.left {
		tc.left = true
		p.gone++
	}
}

func (tc *tcpConn) dirOf(key flowKey) *direction {
	if tc.dirs[1].key == key {
		return tc.dirs[1]
	}
	return tc.dirs[0]
}

// decide makes tc a Kafka connection whose client sends on dirs[client], or skips it past
// Options.MaxConns.
func (p *pcapReader) decide(tc *tcpConn, client int) {
	tc.client = client
	if p.kafka >= p.d.o.MaxConns {
		p.past++
		p.leave(tc, connSkipped)
		p.free(tc)
		return
	}
	p.kafka++
	tc.state = connKafka
	cs := tc.dirs[client]
	tc.c = &Conn{ID: p.kafka, Client: cs.key.src, Server: cs.key.dst}
	tc.pending = map[int32][]*Exchange{}
	p.res.Conns = append(p.res.Conns, tc.c)
}

// take adds a segment's bytes to its direction, and reports whether bytes in order came.
func (p *pcapReader) take(tc *tcpConn, i int, s segment) bool {
	dr := tc.dirs[i]
	if s.syn {
		switch {
		case !dr.started:
			dr.isn, dr.haveSyn, dr.started = s.seq+1, true, true
		case dr.haveSyn && s.seq+1 != dr.isn && !dr.otherSyn:
			dr.otherSyn = true
			p.note(tc, dr, fmt.Sprintf("another SYN at packet %d (sequence number %d, the first's %d): the addresses and ports were used again; only the first connection is read",
				s.packet, s.seq, dr.isn-1))
		}
	}
	seq := s.seq
	if s.syn {
		seq++
	}
	if s.fin {
		// The stream ends where the FIN is: the connection ends once the bytes before it came
		// (a FIN captured before a segment it follows does not cut that segment off).
		dr.fin, dr.finAt = true, 0
		if dr.started {
			dr.finAt = dr.offset(seq) + int64(len(s.payload))
		}
	}
	if len(s.payload) == 0 || dr.dead {
		return false
	}
	if !dr.started {
		dr.isn, dr.started = seq, true
		if s.fin {
			dr.finAt = int64(len(s.payload))
		}
	}
	at := dr.offset(seq)
	if at < 0 {
		dr.before++ // before the stream's start: a late copy, or another connection's
		return false
	}
	end := at + int64(len(s.payload))
	switch {
	case end <= dr.next:
		dr.retransmitted(at, s.payload, s.packet)
		return false
	case at > dr.next:
		if dr.aheadN+len(s.payload)+tc.heldSize > p.d.o.MaxWindow {
			p.hole(tc, dr, s.packet)
			return false
		}
		pc := piece{at: at, data: bytes.Clone(s.payload), time: s.time, packet: s.packet}
		// After the pieces at the same offset: the first copy of a retransmission stays first.
		j, _ := slices.BinarySearchFunc(dr.ahead, at+1, func(q piece, t int64) int {
			if q.at < t {
				return -1
			}
			return 1
		})
		dr.ahead = slices.Insert(dr.ahead, j, pc)
		dr.aheadN += len(pc.data)
		p.grow(len(pc.data))
		return false
	}
	p.append(dr, at, s.payload, s.time, s.packet)
	for len(dr.ahead) > 0 && dr.ahead[0].at <= dr.next {
		pc := dr.ahead[0]
		dr.ahead = dr.ahead[1:]
		dr.aheadN -= len(pc.data)
		p.grow(-len(pc.data))
		if pc.at+int64(len(pc.data)) <= dr.next {
			dr.retransmitted(pc.at, pc.data, pc.packet)
			continue
		}
		p.append(dr, pc.at, pc.data, pc.time, pc.packet)
	}
	if len(dr.ahead) == 0 {
		dr.ahead = nil
	}
	return true
}

// offset is the stream offset of sequence number seq: the one nearest the next byte expected,
// since sequence numbers wrap every 4 GiB.
func (dr *direction) offset(seq uint32) int64 {
	return dr.next + int64(int32(seq-dr.isn-uint32(dr.next)))
}

// ended reports whether the direction's FIN came and every byte before it.
func (dr *direction) ended() bool {
	return dr.dead || dr.fin && dr.next >= dr.finAt && len(dr.ahead) == 0
}

// append adds the bytes of a segment that starts at or before the next byte expected.
func (p *pcapReader) append(dr *direction, at int64, data []byte, t time.Time, packet int) {
	if at < dr.next {
		dr.retransmitted(at, data[:dr.next-at], packet)
		data = data[dr.next-at:]
	}
	dr.spans = append(dr.spans, span{at: dr.next, time: t, packet: packet})
	dr.buf = append(dr.buf, data...)
	dr.next += int64(len(data))
	p.grow(len(data))
}

// retransmitted counts bytes already taken, and whether they differ from the first copy's
// (while those are still buffered).
func (dr *direction) retransmitted(at int64, data []byte, packet int) {
	dr.retrans++
	lo, hi := max(at, dr.base), min(at+int64(len(data)), dr.base+int64(len(dr.buf)))
	if lo < hi && !bytes.Equal(dr.buf[lo-dr.base:hi-dr.base], data[lo-at:hi-at]) {
		if dr.differ++; dr.differ == 1 {
			dr.firstDiffer = packet
		}
	}
}

func (p *pcapReader) grow(n int) {
	p.buffered += n
	p.peakBuffered = max(p.peakBuffered, p.buffered)
}

func (p *pcapReader) hold(n int) {
	p.held += n
	p.peakHeld = max(p.peakHeld, p.held)
}

// hole ends a direction at bytes that will not come: segments past them fill its window.
func (p *pcapReader) hole(tc *tcpConn, dr *direction, packet int) {
	if len(dr.ahead) > 0 {
		packet = dr.ahead[0].packet
	}
	missing := int64(0)
	if len(dr.ahead) > 0 {
		missing = dr.ahead[0].at - dr.next
	}
	if missing > 0 {
		p.note(tc, dr, fmt.Sprintf("%d bytes missing at stream offset %d (packet %d follows the hole): the stream is read up to the hole", missing, dr.next, packet))
	} else {
		p.note(tc, dr, fmt.Sprintf("bytes missing at stream offset %d (packet %d follows the hole, and %d bytes after it: the window, Options.MaxWindow): the stream is read up to the hole",
			dr.next, packet, dr.aheadN))
	}
	p.stop(dr)
}

// stop passes over the rest of a direction, and frees what it buffered.
func (p *pcapReader) stop(dr *direction) {
	dr.dead = true
	p.grow(-len(dr.buf) - dr.aheadN)
	dr.buf, dr.spans, dr.ahead, dr.aheadN = nil, nil, nil, 0
}

func (p *pcapReader) free(tc *tcpConn) {
	for _, dr := range tc.dirs {
		p.stop(dr)
	}
}

// note adds a note about a direction to its connection.
func (p *pcapReader) note(tc *tcpConn, dr *direction, n string) {
	if tc.c == nil {
		return
	}
	tc.c.Notes = append(tc.c.Notes, fmt.Sprintf("%s → %s: %s", dr.key.src, dr.key.dst, n))
}

// cut decides what an undecided connection is, and cuts the whole frames of a Kafka
// connection's directions: the client's first, whose requests its server's responses answer.
func (p *pcapReader) cut(tc *tcpConn) {
	if tc.state == connUndecided {
		p.classify(tc, false)
		if tc.state != connKafka {
			return
		}
	}
	if tc.state != connKafka {
		return
	}
	cs, ss := tc.dirs[tc.client], tc.dirs[1-tc.client]
	if !tc.checked {
		if len(cs.buf) < 12 {
			if cs.next > 0 || len(cs.ahead) > 0 {
				return // the first request is on its way
			}
		} else if !p.checkClient(tc) {
			return
		}
	}
	p.frames(tc, cs, false, false)
	p.frames(tc, ss, true, false)
}

// classify tells whether a connection on another port is Kafka: one direction starts with a
// Kafka request. At the end (or when its window is full) what is there decides.
func (p *pcapReader) classify(tc *tcpConn, final bool) {
	full := tc.dirs[0].aheadN+len(tc.dirs[0].buf)+tc.dirs[1].aheadN+len(tc.dirs[1].buf) > p.d.o.MaxWindow
	known := 0
	for i, dr := range tc.dirs {
		if len(dr.buf) >= 12 && dr.base == 0 {
			if p.d.looksLikeRequest(dr.buf) {
				p.decide(tc, i)
				if tc.state == connKafka {
					p.checkClient(tc)
				}
				return
			}
			known++
		}
	}
	if known == 2 || final || full {
		p.leave(tc, connOther)
		p.other++
		p.free(tc)
	}
}

// checkClient checks that the client's stream starts with a Kafka request, and ends the
// connection with a note if not.
func (p *pcapReader) checkClient(tc *tcpConn) bool {
	cs := tc.dirs[tc.client]
	tc.checked = true
	if p.d.looksLikeRequest(cs.buf) {
		return true
	}
	p.note(tc, cs, "the stream does not start with a Kafka request (not Kafka, TLS, or the capture began mid-connection): not decoded")
	p.free(tc)
	p.leave(tc, connDone)
	return false
}

// frames cuts the whole frames of dr and passes them on; last cuts a last frame cut short
// too, and says what is left.
func (p *pcapReader) frames(tc *tcpConn, dr *direction, server, last bool) {
	pos := 0
	for !dr.dead && p.err == nil {
		b := dr.buf[pos:]
		if len(b) < 4 {
			if last && len(b) > 0 {
				p.note(tc, dr, fmt.Sprintf("%d bytes at offset %d are too few for a frame size", len(b), dr.base+int64(pos)))
			}
			break
		}
		size := int32(binary.BigEndian.Uint32(b))
		n := 4 + int(size)
		switch {
		case size == 0 && server && len(tc.tokens) > 0: // an empty SASL token
			n = 4
		case size < minFrame || int(size) > p.d.o.MaxFrame:
			p.note(tc, dr, fmt.Sprintf("frame size %d at offset %d is outside %d to %d (the frame limit): the rest is not read",
				size, dr.base+int64(pos), minFrame, p.d.o.MaxFrame))
			p.stop(dr)
			return
		case len(b) < n:
			if !last {
				break
			}
			p.note(tc, dr, fmt.Sprintf("the last frame (offset %d) is cut short: %d of its %d bytes", dr.base+int64(pos), len(b), n))
			n = len(b)
		}
		if len(b) < n {
			break
		}
		off := dr.base + int64(pos)
		msg := &Message{Bytes: bytes.Clone(b[:n]), Offset: off}
		msg.Time, msg.Packet = dr.at(off + int64(n) - 1)
		pos += n
		if !p.d.list() {
			continue
		}
		if server {
			p.response(tc, msg)
		} else {
			p.request(tc, msg)
		}
	}
	if dr.dead || pos == 0 {
		return
	}
	// Drop what was cut: the rest (a frame on its way) moves to the front.
	rest := copy(dr.buf, dr.buf[pos:])
	dr.buf = dr.buf[:rest]
	dr.base += int64(pos)
	p.grow(-pos)
	if rest == 0 && cap(dr.buf) > 64<<10 {
		dr.buf = nil
	}
	i, _ := slices.BinarySearchFunc(dr.spans, dr.base+1, func(s span, t int64) int {
		if s.at < t {
			return -1
		}
		return 1
	})
	if i > 1 {
		dr.spans = slices.Delete(dr.spans, 0, i-1)
	}
}

// request takes a frame of the client's.
func (p *pcapReader) request(tc *tcpConn, msg *Message) {
	d := p.d
	relNote := ""
	if tc.sasl {
		d.decodeOnce(msg, kafka.DecodeOptions{}) // a bare token, unless it reads as a request
	} else {
		relNote = d.request(msg)
	}
	if tc.sasl && msg.Err != nil {
		msg.Frame, msg.Err, msg.Token = nil, nil, true
		d.redactToken(msg)
		d.maskAuth(msg, "SASL token") // what redactToken did not know (a garbled token)
		e := &Exchange{Request: msg, Note: tokenNote}
		tc.tokens = append(tc.tokens, e)
		p.hold(1)
		if len(tc.tokens) > d.o.MaxInFlight {
			e := tc.tokens[0]
			tc.tokens = tc.tokens[1:]
			p.hold(-1)
			e.Note = tokenNote + "; no answer in the capture before the next " + fmt.Sprint(d.o.MaxInFlight) + " tokens"
			p.emit(tc, e)
		}
		return
	}
	tc.sasl = msg.Err == nil && msg.Frame.API.Facts().BareTokensAfterV0 && msg.Frame.Version == 0
	e := &Exchange{Request: msg, Note: relNote}
	f := msg.Frame
	switch {
	case (f == nil || f.API == nil) && !(msg.Err == errSpent && d.looksLikeRequest(msg.Bytes)) || len(msg.Bytes) < 12:
		p.emit(tc, e) // nothing can answer it
	case f != nil && f.API.Key == kafka.KeyProduce && f.Body["Acks"] == int64(0):
		e.Note = joinNotes(e.Note, "acks=0: the broker does not answer")
		p.emit(tc, e)
	default:
		corr := int32(binary.BigEndian.Uint32(msg.Bytes[8:]))
		tc.pending[corr] = append(tc.pending[corr], e)
		tc.waiting++
		p.hold(1)
		if tc.waiting > d.o.MaxInFlight {
			p.expire(tc)
		}
	}
	// Responses that came before this request was whole may answer it; those that waited
	// for heldFor requests answer none.
	tc.requests++
	if len(tc.held) > 0 {
		held := tc.held
		tc.held, tc.heldSize = nil, 0
		p.hold(-len(held))
		for _, h := range held {
			if tc.requests-h.at > heldFor {
				p.emit(tc, p.d.lone(h.m))
				continue
			}
			p.pair(tc, h.m, h.at)
		}
	}
}

// expire passes on the oldest request still waiting when more than Options.MaxInFlight are.
// It looks at the first of each correlation id's queue: as many as are waiting at most, and
// only when a client sends that many requests unanswered (a capture of its side alone).
func (p *pcapReader) expire(tc *tcpConn) {
	var oldest *Exchange
	var corr int32
	for c, q := range tc.pending {
		if oldest == nil || q[0].Request.Offset < oldest.Request.Offset {
			oldest, corr = q[0], c
		}
	}
	p.unpend(tc, corr)
	p.hold(-1)
	oldest.Note = joinNotes(oldest.Note, fmt.Sprintf("no response in the capture before the next %d requests (Options.MaxInFlight)", p.d.o.MaxInFlight))
	p.emit(tc, oldest)
}

func (p *pcapReader) unpend(tc *tcpConn, corr int32) {
	tc.waiting--
	if q := tc.pending[corr]; len(q) > 1 {
		tc.pending[corr] = q[1:]
	} else {
		delete(tc.pending, corr)
	}
}

// response takes a frame of the server's: the response to a request waiting, a SASL token,
// a response held until the request being reassembled is whole, or a lone response.
func (p *pcapReader) response(tc *tcpConn, msg *Message) {
	p.pair(tc, msg, tc.requests)
}

// pair pairs a response with its request, or holds it (since the client's frame at).
func (p *pcapReader) pair(tc *tcpConn, msg *Message, at int) {
	var corr int32
	if len(msg.Bytes) >= 8 {
		corr = int32(binary.BigEndian.Uint32(msg.Bytes[4:]))
	}
	if q := tc.pending[corr]; len(q) > 0 && len(msg.Bytes) >= 8 {
		e := q[0]
		p.unpend(tc, corr)
		p.hold(-1)
		p.d.response(msg, e)
		p.emit(tc, e)
		return
	}
	if len(tc.tokens) > 0 {
		msg.Token = true
		e := tc.tokens[0]
		tc.tokens = tc.tokens[1:]
		p.hold(-1)
		e.Response = msg
		p.emit(tc, e)
		return
	}
	if tc.dirs[tc.client].dead {
		p.emit(tc, p.d.lone(msg))
		return
	}
	// Its request may be on its way: it waits, within the window.
	tc.held = append(tc.held, heldMsg{msg, at})
	tc.heldSize += len(msg.Bytes)
	p.hold(1)
	for len(tc.held) > 0 && (tc.heldSize > p.d.o.MaxWindow || len(tc.held) > p.d.o.MaxInFlight) {
		h := tc.held[0]
		tc.held = tc.held[1:]
		tc.heldSize -= len(h.m.Bytes)
		p.hold(-1)
		p.emit(tc, p.d.lone(h.m))
	}
}

// emit passes an exchange on.
func (p *pcapReader) emit(tc *tcpConn, e *Exchange) {
	if p.err != nil {
		return
	}
	if err := p.each(tc.c, e); err != nil {
		p.err = err
	}
	if p.d.recycle {
		e.release()
	}
}

// end ends a connection: a last frame cut short, the responses held, the requests and tokens
// never answered are passed on, oldest first, and what reassembly left out is said.
func (p *pcapReader) end(tc *tcpConn) {
	if tc.state == connUndecided {
		p.classify(tc, true)
	}
	if tc.state != connKafka {
		p.free(tc)
		p.leave(tc, connDone)
		return
	}
	cs, ss := tc.dirs[tc.client], tc.dirs[1-tc.client]
	if !tc.checked && len(cs.buf) > 0 && !p.checkClient(tc) {
		p.notes(tc)
		return
	}
	for _, dr := range []*direction{cs, ss} {
		if len(dr.ahead) > 0 && !dr.dead {
			p.frames(tc, dr, dr == ss, false)
			p.hole(tc, dr, dr.ahead[0].packet)
		}
	}
	p.frames(tc, cs, false, true)
	if len(tc.held) > 0 {
		held := tc.held
		tc.held, tc.heldSize = nil, 0
		p.hold(-len(held))
		for _, h := range held {
			p.emit(tc, p.d.lone(h.m))
		}
	}
	p.frames(tc, ss, true, true)
	var left []*Exchange
	for _, e := range tc.tokens {
		e.Note = tokenNote + "; no answer in the capture"
		left = append(left, e)
	}
	for _, e := range slices.Concat(slices.Collect(maps.Values(tc.pending))...) {
		if f := e.Request.Frame; f != nil && f.API.Key == kafka.KeyProduce && f.Body["Acks"] == int64(0) {
			e.Note = joinNotes(e.Note, "acks=0: the broker does not answer")
		} else {
			e.Note = joinNotes(e.Note, "no response in the capture")
		}
		left = append(left, e)
	}
	p.hold(-len(left))
	slices.SortStableFunc(left, func(a, b *Exchange) int { return cmpInt64(a.Request.Offset, b.Request.Offset) })
	tc.tokens, tc.pending, tc.waiting = nil, nil, 0
	for _, e := range left {
		p.emit(tc, e)
	}
	p.notes(tc)
	p.free(tc)
	p.leave(tc, connDone)
}

func cmpInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// notes says what the reassembly of a connection left out.
func (p *pcapReader) notes(tc *tcpConn) {
	for _, i := range []int{tc.client, 1 - tc.client} {
		dr := tc.dirs[i]
		if dr.retrans > 0 {
			p.note(tc, dr, fmt.Sprintf("%d retransmitted or overlapping segments taken once", dr.retrans))
		}
		if dr.differ > 0 {
			p.note(tc, dr, fmt.Sprintf("%d retransmitted segments carry other bytes than the first copy (the first at packet %d): the first copy is read", dr.differ, dr.firstDiffer))
		}
		if dr.before > 0 {
			p.note(tc, dr, fmt.Sprintf("%s %s before the stream's start (late copies, or another connection on the same addresses and ports) and %s not read", plural(dr.before, "segment"), lies(dr.before), were(dr.before)))
		}
		if dr.started && !dr.haveSyn {
			p.note(tc, dr, "no SYN in the capture: the stream is read from its first captured byte")
		}
	}
}
