package pcap

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"
)

// ngFile builds a pcapng file block by block, in a byte order, for the tests.
type ngFile struct {
	order order
	b     []byte
}

// order is a byte order that reads and appends.
type order interface {
	binary.ByteOrder
	binary.AppendByteOrder
}

// block appends a block of type typ with body (padded to 4 bytes).
func (f *ngFile) block(typ uint32, body []byte) *ngFile {
	for len(body)%4 != 0 {
		body = append(body, 0)
	}
	n := uint32(12 + len(body))
	f.b = f.order.AppendUint32(f.b, typ)
	f.b = f.order.AppendUint32(f.b, n)
	f.b = append(f.b, body...)
	f.b = f.order.AppendUint32(f.b, n)
	return f
}

func (f *ngFile) section() *ngFile {
	var body []byte
	body = f.order.AppendUint32(body, ngMagic)
	body = f.order.AppendUint16(body, 1)
	body = f.order.AppendUint16(body, 0)
	body = f.order.AppendUint64(body, ^uint64(0))
	return f.block(ngSHB, body)
}

// option is an option's bytes: code, length, value padded.
func (f *ngFile) option(code uint16, v []byte) []byte {
	b := f.order.AppendUint16(nil, code)
	b = f.order.AppendUint16(b, uint16(len(v)))
	b = append(b, v...)
	for len(b)%4 != 0 {
		b = append(b, 0)
	}
	return b
}

func (f *ngFile) iface(lt LinkType, snap uint32, opts ...[]byte) *ngFile {
	body := f.order.AppendUint16(nil, uint16(lt))
	body = f.order.AppendUint16(body, 0)
	body = f.order.AppendUint32(body, snap)
	for _, o := range opts {
		body = append(body, o...)
	}
	if len(opts) > 0 {
		body = append(body, 0, 0, 0, 0) // opt_endofopt
	}
	return f.block(ngIDB, body)
}

func (f *ngFile) epb(id uint32, ts uint64, data []byte, opts ...[]byte) *ngFile {
	body := f.order.AppendUint32(nil, id)
	body = f.order.AppendUint32(body, uint32(ts>>32))
	body = f.order.AppendUint32(body, uint32(ts))
	body = f.order.AppendUint32(body, uint32(len(data)))
	body = f.order.AppendUint32(body, uint32(len(data)+3))
	body = append(body, data...)
	for len(body)%4 != 0 {
		body = append(body, 0)
	}
	for _, o := range opts {
		body = append(body, o...)
	}
	return f.block(ngEPB, body)
}

func (f *ngFile) spb(orig uint32, data []byte) *ngFile {
	return f.block(ngSPB, append(f.order.AppendUint32(nil, orig), data...))
}

func (f *ngFile) pb(id uint16, ts uint64, data []byte) *ngFile {
	body := f.order.AppendUint16(nil, id)
	body = f.order.AppendUint16(body, 0)
	body = f.order.AppendUint32(body, uint32(ts>>32))
	body = f.order.AppendUint32(body, uint32(ts))
	body = f.order.AppendUint32(body, uint32(len(data)))
	body = f.order.AppendUint32(body, uint32(len(data)))
	return f.block(ngPB, append(body, data...))
}

// readAll reads every packet of data with this package's reader, copying each.
func readAll(data []byte) ([]Packet, error) {
	r, err := NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	var out []Packet
	for {
		p, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		p.Data = bytes.Clone(p.Data)
		out = append(out, p)
	}
}

// gopacketAll reads every packet of a pcapng file with gopacket's pcapgo, as capture read
// them before this package (every interface's link type).
func gopacketAll(data []byte) ([]Packet, error) {
	r, err := pcapgo.NewNgReader(bytes.NewReader(data), pcapgo.NgReaderOptions{WantMixedLinkType: true})
	if err != nil {
		return nil, err
	}
	var out []Packet
	for {
		b, ci, err := r.ReadPacketData()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, Packet{Data: b, Time: ci.Timestamp, Link: LinkType(ci.AncillaryData[0].(layers.LinkType))})
	}
}

func samePackets(t *testing.T, got, want []Packet) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d packets, gopacket reads %d", len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if !bytes.Equal(g.Data, w.Data) || !g.Time.Equal(w.Time) || g.Time.Location() != w.Time.Location() || g.Link != w.Link {
			t.Errorf("packet %d: %x at %v link %d; gopacket: %x at %v link %d", i+1, g.Data, g.Time, g.Link, w.Data, w.Time, w.Link)
		}
	}
}

// TestPcapngAsGopacket reads pcapng files of both byte orders, several sections, interfaces
// of several link types, timestamp resolutions and offsets, and every packet block type, and
// wants what gopacket's reader read of them: the same bytes, times and link types.
func TestPcapngAsGopacket(t *testing.T) {
	for _, order := range []order{binary.LittleEndian, binary.BigEndian} {
		f := &ngFile{order: order}
		f.section().
			iface(LinkEthernet, 65535).
			iface(LinkRaw, 0, f.option(9, []byte{9}), f.option(2, []byte("eth0"))).
			iface(10, 128, f.option(9, []byte{0x80 | 20}), f.option(14, f.order.AppendUint64(nil, 1700000000)))
		f.epb(0, 1_700_000_000_123_456, []byte{1, 2, 3, 4, 5}).
			epb(1, 1_700_000_000_123_456_789, []byte{0x45, 0, 0, 20}, f.option(1, []byte("a comment")), f.option(2, []byte{1, 0, 0, 0})).
			block(5, []byte{0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8}). // statistics, passed over
			epb(2, 3<<20|12345, []byte{9}).
			spb(200, bytes.Repeat([]byte{7}, 200)).
			pb(1, 42, []byte{6, 6}).
			block(0x0bad, []byte("custom")).
			section().
			iface(LinkLinuxSLL2, 96).
			epb(0, 5, nil).
			spb(100, bytes.Repeat([]byte{8}, 100))
		got, err := readAll(f.b)
		if err != nil {
			t.Fatalf("%v: %v", order, err)
		}
		want, err := gopacketAll(f.b)
		if err != nil {
			t.Fatalf("%v: gopacket: %v", order, err)
		}
		samePackets(t, got, want)
		if len(got) != 7 || got[3].Link != LinkEthernet || len(got[3].Data) != 200 || len(got[6].Data) != 96 {
			t.Errorf("%v: %d packets: %+v", order, len(got), got)
		}
	}
}

// TestCapturesAsGopacket reads the captures of the repository (capture's test data) with this
// package and with gopacket: the same packets.
func TestCapturesAsGopacket(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "*", "*.pcap*"))
	if len(files) == 0 {
		t.Fatal("no captures in ../testdata")
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		got, err := readAll(data)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		var want []Packet
		if strings.HasSuffix(file, ".pcapng") {
			want, err = gopacketAll(data)
		} else {
			want, err = gopacketPcap(data)
		}
		if err != nil {
			t.Fatalf("%s: gopacket: %v", file, err)
		}
		samePackets(t, got, want)
		t.Logf("%s: %d packets", filepath.Base(file), len(got))
	}
}

func gopacketPcap(data []byte) ([]Packet, error) {
	r, err := pcapgo.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	var out []Packet
	for {
		b, ci, err := r.ReadPacketData()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, Packet{Data: b, Time: ci.Timestamp, Link: LinkType(r.LinkType())})
	}
}

// TestPcapFile reads pcap files of both byte orders and both timestamp precisions, a record
// longer than its packet (counted in the note), and the errors of a cut file.
func TestPcapFile(t *testing.T) {
	for _, tc := range []struct {
		name  string
		order order
		magic uint32
		nano  bool
	}{{"le-micro", binary.LittleEndian, 0xa1b2c3d4, false}, {"be-micro", binary.BigEndian, 0xa1b2c3d4, false},
		{"le-nano", binary.LittleEndian, 0xa1b23c4d, true}, {"be-nano", binary.BigEndian, 0xa1b23c4d, true}} {
		t.Run(tc.name, func(t *testing.T) {
			b := tc.order.AppendUint32(nil, tc.magic)
			b = tc.order.AppendUint16(b, 2)
			b = tc.order.AppendUint16(b, 4)
			b = append(b, make([]byte, 8)...)
			b = tc.order.AppendUint32(b, 65535)
			b = tc.order.AppendUint32(b, 1|0x10000000) // Ethernet, an FCS length in the high bits
			rec := func(sec, frac uint32, data []byte, orig int) {
				b = tc.order.AppendUint32(b, sec)
				b = tc.order.AppendUint32(b, frac)
				b = tc.order.AppendUint32(b, uint32(len(data)))
				b = tc.order.AppendUint32(b, uint32(orig))
				b = append(b, data...)
			}
			rec(100, 999999, []byte{1, 2, 3}, 3)
			rec(101, 5, []byte{4, 5, 6, 7}, 2)
			got, err := readAll(b)
			if err != nil {
				t.Fatal(err)
			}
			ns := int64(999999) * 1000
			if tc.nano {
				ns = 999999
			}
			if len(got) != 2 || got[0].Link != LinkEthernet || !got[0].Time.Equal(time.Unix(100, ns)) || !bytes.Equal(got[1].Data, []byte{4, 5, 6, 7}) {
				t.Errorf("%+v", got)
			}
			r, _ := NewReader(bytes.NewReader(b))
			for {
				if _, err := r.Next(); err != nil {
					break
				}
			}
			if note := r.Note(); !strings.HasPrefix(note, "1 of 2 packet records (the first: packet 2) hold more bytes") {
				t.Errorf("note %q", note)
			}
			for cut, want := range map[int]string{len(b) - 1: "the last record holds 3 of the 4 bytes", len(b) - 4: "announces 4 bytes, and none follow", len(b) - 10: "a record header cut short: 10 of 16 bytes", 10: "pcap: a file header of 24 bytes: unexpected EOF"} {
				_, err := readAll(b[:cut])
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("cut at %d: %v, want %q", cut, err, want)
				}
			}
		})
	}
}

// TestPcapngErrors: a broken pcapng file is read up to the broken block, and the error says
// which block, where, and what; nothing panics, and a block that claims more than the file
// holds takes no more memory than the file.
func TestPcapngErrors(t *testing.T) {
	good := func() *ngFile {
		f := &ngFile{order: binary.LittleEndian}
		return f.section().iface(LinkEthernet, 0).epb(0, 1, []byte{1, 2, 3, 4})
	}
	base := good().b
	for _, tc := range []struct {
		name string
		data []byte
		n    int
		want string
	}{
		{"cut in a block", base[:len(base)-3], 0, "block 3 (at byte 48): the block says it has 36 bytes, and the file ends 3 bytes short"},
		{"cut in a header", append(bytes.Clone(base), 6, 0, 0), 1, "block 4 (at byte 84): a block header cut short: 3 of 8 bytes"},
		{"interface missing", good().epb(3, 1, []byte{1}).b, 1, "block 4 (at byte 84): a packet of interface 3, and the section has 1"},
		{"captured past the block", func() []byte {
			b := good().b
			binary.LittleEndian.PutUint32(b[48+20:], 400)
			return b
		}(), 0, "a packet of 400 bytes captured in a block that holds 4"},
		{"trailing length", func() []byte {
			b := good().b
			binary.LittleEndian.PutUint32(b[len(b)-4:], 40)
			return b
		}(), 0, "its trailing length 40 is not its length 36"},
		{"odd length", func() []byte {
			b := good().b
			binary.LittleEndian.PutUint32(b[48+4:], 37)
			return b
		}(), 0, "a block of 37 bytes, not a multiple of 4"},
		{"huge block", func() []byte {
			b := good().b
			binary.LittleEndian.PutUint32(b[48+4:], 0xfffffff0)
			return b
		}(), 0, "a block of 4294967280 bytes, more than the 16777216 read"},
		{"large block cut", func() []byte {
			b := good().b
			binary.LittleEndian.PutUint32(b[48+4:], 8<<20)
			return b
		}(), 0, "the block says it has 8388608 bytes"},
		{"tiny block", func() []byte {
			b := good().b
			binary.LittleEndian.PutUint32(b[48+4:], 8)
			return b
		}(), 0, "a block of 8 bytes, less than the 12 it needs"},
		{"short packet block", good().block(ngEPB, []byte{0, 0, 0, 0}).b, 1, "a packet block of 4 bytes, less than 20"},
		{"simple packet first", (&ngFile{order: binary.BigEndian}).section().spb(4, []byte{1, 2, 3, 4}).b, 0, "a simple packet, and the section has no interface"},
		{"bad byte order", func() []byte {
			b := good().b
			copy(b[8:], []byte{1, 2, 3, 4})
			return b
		}(), 0, "block 1 (at byte 0): byte-order magic 0x01020304"},
		{"version 2", func() []byte {
			b := good().b
			b[12] = 2
			return b
		}(), 0, "pcapng version 2.0, only 1.x is read"},
		{"fine resolution", good().iface(LinkRaw, 0, (&ngFile{order: binary.LittleEndian}).option(9, []byte{30})).b, 1, "interface 1: timestamp resolution 10^-30 is too fine"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readAll(tc.data)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
			if len(got) != tc.n {
				t.Errorf("%d packets before the error, want %d", len(got), tc.n)
			}
		})
	}
}

// TestIsCapture: the magic numbers of pcap (both byte orders, micro- and nanoseconds) and
// pcapng, and nothing shorter than four bytes.
func TestIsCapture(t *testing.T) {
	for _, m := range []uint32{0xa1b2c3d4, 0xd4c3b2a1, 0xa1b23c4d, 0x4d3cb2a1, ngSHB} {
		if !IsCapture(binary.LittleEndian.AppendUint32(nil, m)) {
			t.Errorf("%08x not a capture", m)
		}
	}
	for _, b := range [][]byte{nil, {0xd4, 0xc3, 0xb2}, []byte("0000"), {0, 0, 0, 0x2a}} {
		if IsCapture(b) {
			t.Errorf("%x taken for a capture", b)
		}
	}
}
