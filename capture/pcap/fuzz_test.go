package pcap

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
)

// FuzzReader reads any bytes as a capture and parses every packet's TCP segment: no panic; a
// segment's payload lies within its packet; and a file that this package and gopacket both
// read whole gives the same packets. Seeded with the repository's captures and built pcapng
// files of every block type.
func FuzzReader(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "*", "*.pcap*"))
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil && len(b) < 64<<10 {
			f.Add(b)
		}
	}
	for _, order := range []order{binary.LittleEndian, binary.BigEndian} {
		g := &ngFile{order: order}
		seg := ipv4Bytes(tcpBytes(50000, 9092, 1, 0x18, 0, "abc"), 0, 0)
		g.section().iface(LinkRaw, 0, g.option(9, []byte{9})).epb(0, 1, seg).spb(uint32(len(seg)), seg).pb(0, 2, seg)
		f.Add(g.b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := readAll(data)
		for _, p := range got {
			s, ok := TCP(p.Link, p.Data)
			if ok && len(s.Payload) > 0 && !bytes.Contains(p.Data, s.Payload) {
				t.Fatalf("a payload not in its packet")
			}
		}
		if err != nil || len(data) < 4 || binary.LittleEndian.Uint32(data) != ngSHB {
			return
		}
		want, gerr := gopacketRecovered(data)
		if gerr == nil {
			samePackets(t, got, want)
		}
	})
}

// gopacketRecovered is gopacketAll, a panic of gopacket's taken as its error.
func gopacketRecovered(data []byte) (ps []Packet, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = os.ErrInvalid
		}
	}()
	return gopacketAll(data)
}
