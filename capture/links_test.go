package capture

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gopacket/gopacket/layers"
	"github.com/kafkagrid/kafkagrid/capture/pcap"
	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
)

// newerOptions reads port 19092 with Kafka 4.0's catalogue and, for the versions franz-go
// sends that 4.0 lacks (ApiVersions v5, Fetch v18, Produce v13), Kafka 4.1's (Releases).
func newerOptions(t *testing.T) Options {
	c41, err := kafka.LoadCatalog(testenv.Release(t, "4.1"))
	if err != nil {
		t.Fatal(err)
	}
	return Options{Ports: []uint16{19092}, Releases: func() []Release { return []Release{{Name: "4.1", Catalog: c41, Flag: "-release 4.1"}} }}
}

// linkFrames is what a Result holds, as tshark's fields print it: a line a frame, the
// client's port and a request's api key, version and correlation id (from its header, as
// tshark reads it); the broker's port and a response's correlation id. Sorted: tshark lists
// frames by packet, Read by connection. Every frame must decode, but for a request of a
// version no release of ours has (franz-go's ApiVersions v5), and its answer.
func linkFrames(t *testing.T, r *Result) []string {
	t.Helper()
	var out []string
	for _, c := range r.Conns {
		for _, e := range c.Exchanges {
			refused := false
			if m := e.Request; m != nil {
				b := m.Bytes
				if m.Err != nil {
					if refused = headerRefused(m.Err) && strings.Contains(m.Err.Error(), "is not valid"); !refused {
						t.Errorf("connection %d: request at %d: %v", c.ID, m.Offset, m.Err)
					}
				}
				out = append(out, strconv.Itoa(int(c.Client.Port()))+" "+strconv.Itoa(int(binary.BigEndian.Uint16(b[4:])))+" "+
					strconv.Itoa(int(binary.BigEndian.Uint16(b[6:])))+" "+strconv.Itoa(int(int32(binary.BigEndian.Uint32(b[8:])))))
			}
			if m := e.Response; m != nil {
				if m.Err != nil && !refused {
					t.Errorf("connection %d: response at %d: %v", c.ID, m.Offset, m.Err)
				}
				corr, _ := m.CorrelationID(true)
				out = append(out, strconv.Itoa(int(c.Server.Port()))+"   "+strconv.Itoa(int(corr)))
			}
		}
	}
	slices.Sort(out)
	return out
}

// tsharkFrames reads a .tshark file (testdata/links/README.md), sorted.
func tsharkFrames(t *testing.T, file string) []string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	out := strings.Split(strings.TrimSpace(string(data)), "\n")
	slices.Sort(out)
	return out
}

// TestLinkLayers reads real captures of a Kafka client and broker on Linux's cooked links (v1
// and v2, as tcpdump -i any writes them) and on Ethernet, as pcap files and as tshark -x dumps
// of their packets, and finds the frames tshark finds: every request's api key, version and
// correlation id, every response's correlation id, all decoded. The Ethernet capture's
// packets are also written as BSD loopback and raw IP packets, which must read the same.
func TestLinkLayers(t *testing.T) {
	cat := testCatalog(t)
	o := newerOptions(t)
	dir := filepath.Join("testdata", "links")
	for _, link := range []string{"sll2", "sll", "eth"} {
		t.Run(link, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, "kfake-"+link+".pcap"))
			if err != nil {
				t.Fatal(err)
			}
			r, err := Read(cat, data, o)
			if err != nil {
				t.Fatal(err)
			}
			want := tsharkFrames(t, filepath.Join(dir, "kfake-"+link+".tshark"))
			if got := linkFrames(t, r); !slices.Equal(got, want) {
				t.Errorf("frames\n%q\ntshark finds\n%q", got, want)
			}
		})
	}
	for _, link := range []string{"sll2", "sll"} {
		t.Run(link+"-tshark-x", func(t *testing.T) {
			text, err := os.ReadFile(filepath.Join(dir, "kfake-"+link+"-30.tshark-x.txt"))
			if err != nil {
				t.Fatal(err)
			}
			tx, err := ParseText(text, FormAuto)
			if err != nil {
				t.Fatal(err)
			}
			pcap, name, ok := PacketsPcap(tx.Blocks)
			if !ok || !strings.HasPrefix(name, "Linux cooked") {
				t.Fatalf("%d blocks not read as Linux cooked packets (%q, %v)", len(tx.Blocks), name, ok)
			}
			r, err := Read(cat, pcap, o)
			if err != nil {
				t.Fatal(err)
			}
			want := tsharkFrames(t, filepath.Join(dir, "kfake-"+link+"-30.tshark"))
			if got := linkFrames(t, r); !slices.Equal(got, want) {
				t.Errorf("frames\n%q\ntshark finds\n%q", got, want)
			}
		})
	}
	// The Ethernet packets as loopback (null, both byte orders of the family) and raw IP.
	data, err := os.ReadFile(filepath.Join(dir, "kfake-eth.pcap"))
	if err != nil {
		t.Fatal(err)
	}
	want := tsharkFrames(t, filepath.Join(dir, "kfake-eth.tshark"))
	for _, tt := range []struct {
		name string
		lt   layers.LinkType
		head []byte
	}{
		{"null", layers.LinkTypeNull, []byte{2, 0, 0, 0}},
		{"null-big-endian", layers.LinkTypeNull, []byte{0, 0, 0, 2}},
		{"raw", layers.LinkTypeRaw, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var blocks [][]byte
			p, err := pcap.NewReader(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			for {
				pk, err := p.Next()
				if err != nil {
					break
				}
				blocks = append(blocks, append(slices.Clip(tt.head), pk.Data[14:]...))
			}
			file, _, ok := PacketsPcap(blocks)
			if !ok || layers.LinkType(binary.LittleEndian.Uint32(file[20:])) != tt.lt {
				t.Fatalf("not read as %s packets", tt.lt)
			}
			r, err := Read(cat, file, o)
			if err != nil {
				t.Fatal(err)
			}
			if got := linkFrames(t, r); !slices.Equal(got, want) {
				t.Errorf("frames\n%q\ntshark finds in the Ethernet capture\n%q", got, want)
			}
		})
	}
}

// TestPcapRecordLonger: a pcap whose records each hold more bytes than their packet had
// (incl_len > orig_len, as a tool counting a header twice writes them) reads as Wireshark
// reads it: every packet whole, the IP length marking its end, and a note.
func TestPcapRecordLonger(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "links", "kfake-sll.pcap"))
	if err != nil {
		t.Fatal(err)
	}
	// Each record padded with 16 bytes that its incl_len counts and its orig_len does not.
	longer := slices.Clone(data[:24])
	n := 0
	for off := 24; off+16 <= len(data); n++ {
		incl := int(binary.LittleEndian.Uint32(data[off+8:]))
		h := slices.Clone(data[off : off+16])
		binary.LittleEndian.PutUint32(h[8:], uint32(incl+16))
		longer = append(append(append(longer, h...), data[off+16:off+16+incl]...), make([]byte, 16)...)
		off += 16 + incl
	}
	cat := testCatalog(t)
	o := newerOptions(t)
	r, err := Read(cat, longer, o)
	if err != nil {
		t.Fatal(err)
	}
	want := tsharkFrames(t, filepath.Join("testdata", "links", "kfake-sll.tshark"))
	if got := linkFrames(t, r); !slices.Equal(got, want) {
		t.Errorf("frames\n%q\ntshark finds\n%q", got, want)
	}
	note := strconv.Itoa(n) + " of " + strconv.Itoa(n) + " packet records (the first: packet 1) hold more bytes than their packet had"
	if !strings.Contains(strings.Join(r.Notes, "\n"), note) {
		t.Errorf("notes %q lack %q", r.Notes, note)
	}
	// A record longer than any packet is an error where it stands, not a read of it.
	huge := slices.Clone(longer)
	binary.LittleEndian.PutUint32(huge[24+8:], 1<<30)
	r, err = Read(cat, huge, o)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(r.Notes, "\n"), "a record of 1073741824 bytes, more than the 262144 a packet may hold") {
		t.Errorf("notes %q", r.Notes)
	}
}
