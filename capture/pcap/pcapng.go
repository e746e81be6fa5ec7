package pcap

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"time"
)

// The pcapng block types read, and the section header's byte-order magic.
const (
	ngSHB   = 0x0a0d0d0a // section header
	ngIDB   = 1          // interface description
	ngPB    = 2          // packet (obsolete)
	ngSPB   = 3          // simple packet
	ngEPB   = 6          // enhanced packet
	ngMagic = 0x1a2b3c4d
)

// ngIface is an interface of a pcapng section: its link type and snap length, and how its
// timestamps turn into time (if_tsresol, if_tsoffset), as pcapgo and Wireshark read them.
type ngIface struct {
	link               LinkType
	snap               uint32
	perSecond          uint64 // timestamp units a second
	scaleUp, scaleDown uint64 // from a unit to nanoseconds
	offset             uint64 // seconds added (if_tsoffset)
}

// ngReader reads a pcapng file's blocks.
type ngReader struct {
	r      io.Reader
	order  binary.ByteOrder
	ifaces []ngIface // the current section's
	buf    []byte
	at     int64 // the file offset of the block being read
	off    int64 // the file offset of the next block
	blocks int   // blocks read, the current one included
}

// blockError is an error in the block being read, said with its number and offset.
func (g *ngReader) blockError(format string, args ...any) error {
	return fmt.Errorf("block %d (at byte %d): %s", g.blocks, g.at, fmt.Sprintf(format, args...))
}

// begin reads the first section header, whose first four bytes (its type) are read.
func (g *ngReader) begin(typ [4]byte) error {
	var h [8]byte
	copy(h[:], typ[:])
	if n, err := io.ReadFull(g.r, h[4:]); err != nil {
		g.blocks = 1
		return g.blockError("a section header cut short: %d of 12 bytes", 4+n)
	}
	g.blocks = 1
	return g.sectionRest(h)
}

// body reads the rest of a block of total bytes whose first 8+read bytes are read (its type,
// its length, and read more), and its trailing length: the bytes between. The block must be
// at least least bytes, a multiple of 4 and at most MaxBlock.
func (g *ngReader) body(total uint32, least, read int) ([]byte, error) {
	switch {
	case total < uint32(least):
		return nil, g.blockError("a block of %d bytes, less than the %d it needs", total, least)
	case total%4 != 0:
		return nil, g.blockError("a block of %d bytes, not a multiple of 4", total)
	case total > MaxBlock:
		return nil, g.blockError("a block of %d bytes, more than the %d read", total, MaxBlock)
	}
	n := int(total) - 8 - read // the body and the trailing length
	b, err := g.read(n)
	if err != nil {
		return nil, g.blockError("the block says it has %d bytes, and the file ends %d bytes short of its end", total, n-len(b))
	}
	if trail := g.order.Uint32(b[n-4:]); trail != total {
		return nil, g.blockError("its trailing length %d is not its length %d", trail, total)
	}
	g.off += int64(total)
	return b[:n-4], nil
}

// read reads n bytes into the reader's buffer; memory for more than 1 MiB is taken as the
// bytes arrive, so that a short file claiming a large block takes no more than it holds.
func (g *ngReader) read(n int) ([]byte, error) {
	if n <= cap(g.buf) || n <= 1<<20 {
		if cap(g.buf) < n {
			g.buf = make([]byte, n)
		}
		b := g.buf[:n]
		got, err := io.ReadFull(g.r, b)
		return b[:got], err
	}
	b, err := io.ReadAll(io.LimitReader(g.r, int64(n)))
	if err == nil && len(b) < n {
		err = io.ErrUnexpectedEOF
	}
	g.buf = b
	return b, err
}

// next reads blocks up to the next packet's.
func (g *ngReader) next() (Packet, error) {
	for {
		var h [8]byte
		n, err := io.ReadFull(g.r, h[:])
		switch {
		case n == 0 && errors.Is(err, io.EOF):
			return Packet{}, io.EOF
		case err != nil:
			g.blocks++
			g.at = g.off
			return Packet{}, g.blockError("a block header cut short: %d of 8 bytes", n)
		}
		g.blocks++
		g.at = g.off
		typ := g.order.Uint32(h[:])
		if typ == ngSHB {
			if err := g.sectionRest(h); err != nil {
				return Packet{}, err
			}
			continue
		}
		body, err := g.body(g.order.Uint32(h[4:]), 12, 0)
		if err != nil {
			return Packet{}, err
		}
		p, ok, err := g.block(typ, body)
		if err != nil || ok {
			return p, err
		}
	}
}

// sectionRest reads a section header block whose first 8 bytes h are read.
func (g *ngReader) sectionRest(h [8]byte) error {
	var bom [4]byte
	if n, err := io.ReadFull(g.r, bom[:]); err != nil {
		return g.blockError("a section header cut short: %d of 12 bytes", 8+n)
	}
	switch {
	case binary.LittleEndian.Uint32(bom[:]) == ngMagic:
		g.order = binary.LittleEndian
	case binary.BigEndian.Uint32(bom[:]) == ngMagic:
		g.order = binary.BigEndian
	default:
		return g.blockError("byte-order magic 0x%08x is not a section header's", binary.BigEndian.Uint32(bom[:]))
	}
	body, err := g.body(g.order.Uint32(h[4:]), 28, 4)
	if err != nil {
		return err
	}
	if major := g.order.Uint16(body); major != 1 {
		return g.blockError("pcapng version %d.%d, only 1.x is read", major, g.order.Uint16(body[2:]))
	}
	g.ifaces = g.ifaces[:0]
	return nil
}

// block reads a block of type typ: an interface is added, a packet returned (ok), any other
// block passed over.
func (g *ngReader) block(typ uint32, body []byte) (p Packet, ok bool, err error) {
	switch typ {
	case ngIDB:
		return Packet{}, false, g.iface(body)
	case ngEPB, ngPB:
		return g.packet(typ, body)
	case ngSPB:
		return g.simple(body)
	}
	return Packet{}, false, nil
}

// iface reads an interface description block.
func (g *ngReader) iface(body []byte) error {
	if len(body) < 8 {
		return g.blockError("an interface description of %d bytes, less than 8", len(body))
	}
	in := ngIface{link: LinkType(g.order.Uint16(body)), snap: g.order.Uint32(body[4:])}
	res := byte(6) // microseconds, when the block does not say
	for code, v := range g.options(body[8:]) {
		switch {
		case code == 9 && len(v) >= 1: // if_tsresol
			res = v[0]
		case code == 14 && len(v) >= 8: // if_tsoffset
			in.offset = g.order.Uint64(v)
		}
	}
	if err := in.resolution(res); err != nil {
		return g.blockError("interface %d: %v", len(g.ifaces), err)
	}
	g.ifaces = append(g.ifaces, in)
	return nil
}

// resolution sets how the interface's timestamps count (if_tsresol: a negative power of 10,
// or of 2 with the high bit set).
func (in *ngIface) resolution(res byte) error {
	exp := uint64(res & 0x7f)
	in.perSecond = 1
	if res&0x80 != 0 {
		if exp > 63 {
			return fmt.Errorf("timestamp resolution 2^-%d is too fine", exp)
		}
		in.perSecond = 1 << exp
	} else {
		if exp > 19 {
			return fmt.Errorf("timestamp resolution 10^-%d is too fine", exp)
		}
		for range exp {
			in.perSecond *= 10
		}
	}
	in.scaleUp, in.scaleDown = 1, 1
	if in.perSecond < 1e9 {
		in.scaleUp = 1e9 / in.perSecond
	} else {
		in.scaleDown = in.perSecond / 1e9
	}
	return nil
}

// options yields a block's options (code, value) up to opt_endofopt or the end of the bytes;
// an option longer than what is left ends them.
func (g *ngReader) options(b []byte) func(func(uint16, []byte) bool) {
	return func(yield func(uint16, []byte) bool) {
		for len(b) >= 4 {
			code, n := g.order.Uint16(b), int(g.order.Uint16(b[2:]))
			if code == 0 || 4+n > len(b) {
				return
			}
			if !yield(code, b[4:4+n]) {
				return
			}
			b = b[min(len(b), 4+(n+3)&^3):]
		}
	}
}

// packet reads an enhanced (or obsolete) packet block.
func (g *ngReader) packet(typ uint32, body []byte) (Packet, bool, error) {
	if len(body) < 20 {
		return Packet{}, false, g.blockError("a packet block of %d bytes, less than 20 before its data", len(body))
	}
	id := int(g.order.Uint32(body))
	if typ == ngPB {
		id = int(g.order.Uint16(body))
	}
	if id >= len(g.ifaces) {
		return Packet{}, false, g.blockError("a packet of interface %d, and the section has %d", id, len(g.ifaces))
	}
	caplen := g.order.Uint32(body[12:])
	if uint64(caplen) > uint64(len(body)-20) {
		return Packet{}, false, g.blockError("a packet of %d bytes captured in a block that holds %d", caplen, len(body)-20)
	}
	in := &g.ifaces[id]
	ts := uint64(g.order.Uint32(body[4:]))<<32 | uint64(g.order.Uint32(body[8:]))
	when := time.Unix(int64(ts/in.perSecond+in.offset), int64(ts%in.perSecond*in.scaleUp/in.scaleDown)).UTC()
	return Packet{Data: body[20 : 20+caplen], Time: when, Link: in.link}, true, nil
}

// simple reads a simple packet block: a packet of the first interface, cut to its snap
// length, with no time.
func (g *ngReader) simple(body []byte) (Packet, bool, error) {
	if len(body) < 4 {
		return Packet{}, false, g.blockError("a simple packet block of %d bytes, less than 4 before its data", len(body))
	}
	if len(g.ifaces) == 0 {
		return Packet{}, false, g.blockError("a simple packet, and the section has no interface")
	}
	n := uint64(g.order.Uint32(body))
	if s := g.ifaces[0].snap; s != 0 {
		n = min(n, uint64(s))
	}
	n = min(n, uint64(len(body)-4))
	return Packet{Data: body[4 : 4+n], Link: g.ifaces[0].link}, true, nil
}
