package capture

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/netip"
	"runtime"
	"strings"
	"testing"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"
	"github.com/kafkagrid/kafkagrid/capture/capturetest"
	"github.com/kafkagrid/kafkagrid/kafka"
)

// allocated is what f allocates, in bytes (runtime.MemStats.TotalAlloc: counted, not timed).
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// tinyFrames is n frames of 8 bytes: a size of 4 and a correlation id, each an unpaired
// response (a Message, an Exchange and an error each, and no tree node).
func tinyFrames(n int) []byte {
	return bytes.Repeat([]byte{0, 0, 0, 4, 0x7f, 0xff, 0, 0}, n)
}

// TestFrameBudgetMemory: the frames an input lists count against Options.MaxFrames, so that
// a stream of tiny frames that have no tree node costs memory bounded by the limit, not by the
// number of frames: 200,000 frames with room for 1,000 keep 1,000 and count the rest, and
// allocate about 1.2 KB a frame listed, plus the input's size (the frames' count is one pass
// that allocates nothing).
func TestFrameBudgetMemory(t *testing.T) {
	cat := testCatalog(t)
	const n, limit = 200_000, 1000
	data := tinyFrames(n)
	var r *Result
	var err error
	got := allocated(func() { r, err = Read(cat, data, Options{MaxFrames: limit}) })
	if err != nil {
		t.Fatal(err)
	}
	if all, _ := r.Frames(); all != limit || r.Unlisted != n-limit {
		t.Errorf("%d frames listed, %d unlisted; want %d and %d", all, r.Unlisted, limit, n-limit)
	}
	if !strings.Contains(allNotes(r), fmt.Sprintf("%d frames past the limit of %d frames an input lists (Options.MaxFrames) were found and not decoded", n-limit, limit)) {
		t.Errorf("no note of the frames left out: %s", allNotes(r))
	}
	if max := uint64(limit*1200 + 256<<10); got > max {
		t.Errorf("%d frames listed of %d: %d bytes allocated, more than %d", limit, n, got, max)
	}
	// What one listed frame costs, the figure DefaultMaxFrames is chosen by.
	got = allocated(func() { r, err = Read(cat, tinyFrames(limit), Options{}) })
	if per := got / limit; per > 1200 {
		t.Errorf("%d bytes a frame listed, more than 1,200", per)
	}
}

// TestConnBudgetMemory: the connections of a capture count against Options.MaxConns: a
// capture of 3,000 connections that only shake hands, with room for 100, reads 100, says how
// many it did not, and allocates what the packets take (a multiple of the capture) and not a
// Conn and two streams for every connection.
func TestConnBudgetMemory(t *testing.T) {
	cat := testCatalog(t)
	const n, limit = 3000, 100
	var ends []capturetest.Endpoints
	for i := range n {
		ends = append(ends, capturetest.Endpoints{
			Client: netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 0, byte(i >> 8), byte(i)}), 40000),
			Server: netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 1, 0, 1}), 9092)})
	}
	data := pcapOf(t, ends, nil, capturetest.Options{})
	var r *Result
	var err error
	few := allocated(func() { r, err = Read(cat, data, Options{MaxConns: limit}) })
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Conns) != limit || r.SkippedConns != n-limit {
		t.Fatalf("%d connections read, %d skipped; want %d and %d", len(r.Conns), r.SkippedConns, limit, n-limit)
	}
	if !strings.Contains(allNotes(r), fmt.Sprintf("%d Kafka connections past the limit of %d connections an input reads (Options.MaxConns) were not read", n-limit, limit)) {
		t.Errorf("no note of the connections left out: %s", allNotes(r))
	}
	all := allocated(func() { r, err = Read(cat, data, Options{}) })
	if len(r.Conns) != n {
		t.Fatalf("%d connections read with the default limit", len(r.Conns))
	}
	// The connections left out cost what their packets cost to read, and no more: the
	// difference is the Conns and streams of the 2,900 not kept.
	per := (all - few) / (n - limit)
	t.Logf("capture %d bytes; %d bytes allocated with %d connections kept, %d with all; %d bytes a connection", len(data), few, limit, all, per)
	if per > 1200 {
		t.Errorf("%d bytes a connection, more than 1,200", per)
	}
	if few > uint64(10*len(data)) {
		t.Errorf("%d connections kept of %d: %d bytes allocated, more than 10 times the capture (%d bytes)", limit, n, few, len(data))
	}
}

// TestPcapngMixedLinks: a pcapng capture whose interfaces have different link types (Ethernet
// and raw IP) is read whole, each packet by its own interface's link type (pcapgo alone drops
// the second interface's packets), and a link type kafkagrid does not read is counted in a note.
func TestPcapngMixedLinks(t *testing.T) {
	cat := testCatalog(t)
	one := []capturetest.Endpoints{{Client: client, Server: server}}
	eth := pcapOf(t, one, examplePairs(t, kafka.VectorOptions{})[:8], capturetest.Options{})
	want, err := Read(cat, eth, Options{})
	if err != nil {
		t.Fatal(err)
	}
	wantAll, _ := want.Frames()
	pr, err := pcapgo.NewReader(bytes.NewReader(eth))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w, err := pcapgo.NewNgWriterInterface(&buf, pcapgo.NgInterface{LinkType: layers.LinkTypeEthernet, SnapLength: 65535}, pcapgo.DefaultNgWriterOptions)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := w.AddInterface(pcapgo.NgInterface{LinkType: layers.LinkTypeRaw, SnapLength: 65535})
	odd, _ := w.AddInterface(pcapgo.NgInterface{LinkType: layers.LinkTypeFDDI, SnapLength: 65535})
	for i := 0; ; i++ {
		b, ci, err := pr.ReadPacketData()
		if err != nil {
			break
		}
		if i%2 == 1 { // every other packet on the raw-IP interface, without its Ethernet header
			b, ci.InterfaceIndex = b[14:], raw
		}
		ci.CaptureLength, ci.Length = len(b), len(b)
		if err := w.WritePacket(ci, b); err != nil {
			t.Fatal(err)
		}
	}
	w.WritePacket(gopacket.CaptureInfo{InterfaceIndex: odd, CaptureLength: 3, Length: 3}, []byte{1, 2, 3})
	w.Flush()
	r, err := Read(cat, buf.Bytes(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if all, ok := r.Frames(); all != wantAll || ok != wantAll {
		t.Errorf("%d frames, %d decoded; want %d as from the Ethernet capture; notes %s", all, ok, wantAll, allNotes(r))
	}
	if !strings.Contains(allNotes(r), "packets have link type FDDI (10), which kafkagrid does not read, and were skipped") {
		t.Errorf("no note of the packet of another link type: %s", allNotes(r))
	}
}

// TestReassembleNotes: what reassembly leaves out is said: a retransmission whose bytes differ
// from the first copy, and the addresses and ports used again by a connection with a lower
// initial sequence number (its SYN and its bytes, before the stream's start).
func TestReassembleNotes(t *testing.T) {
	key := flowKey{src: client, dst: server}
	segs := []segment{
		{seq: 1000, syn: true, packet: 1},
		{seq: 1001, payload: []byte("abcdef"), packet: 2},
		{seq: 1004, payload: []byte("XYZ"), packet: 3}, // "def" again, other bytes
		{seq: 1007, payload: []byte("gh"), packet: 4},
		{seq: 500, syn: true, packet: 5}, // the same ports again
		{seq: 501, payload: []byte("other"), packet: 6},
	}
	p := &pcapReader{d: newDecoder(testCatalog(t), Options{}.withDefaults(), false), res: &Result{}}
	tc := &tcpConn{client: 0, c: &Conn{}}
	tc.dirs[0], tc.dirs[1] = &direction{key: key}, &direction{key: flowKey{src: server, dst: client}}
	for _, s := range segs {
		p.take(tc, 0, s)
	}
	if string(tc.dirs[0].buf) != "abcdefgh" {
		t.Errorf("stream %q", tc.dirs[0].buf)
	}
	p.notes(tc)
	notes := strings.Join(tc.c.Notes, "\n")
	for _, want := range []string{
		"1 retransmitted segments carry other bytes than the first copy (the first at packet 3): the first copy is read",
		"another SYN at packet 5 (sequence number 500, the first's 1000): the addresses and ports were used again",
		"1 segment lies before the stream's start",
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("no note %q in\n%s", want, notes)
		}
	}
}

// TestPcapLastHeaderAlone: a pcap whose last record header has no data is cut short, and
// says so.
func TestPcapLastHeaderAlone(t *testing.T) {
	cat := testCatalog(t)
	data := pcapOf(t, []capturetest.Endpoints{{Client: client, Server: server}}, examplePairs(t, kafka.VectorOptions{})[:2], capturetest.Options{})
	data = append(data, 0, 0, 0, 0, 0, 0, 0, 0, 60, 0, 0, 0, 60, 0, 0, 0) // a header of 60 bytes, no data
	r, err := Read(cat, data, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(allNotes(r), "the last record header announces 60 bytes, and none follow") {
		t.Errorf("no note of the header alone: %s", allNotes(r))
	}
}

// TestReadCancelled: a Read whose Options.Context is done lists no more frames and returns
// the context's error.
func TestReadCancelled(t *testing.T) {
	cat := testCatalog(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var err error
	data := tinyFrames(100_000)
	got := allocated(func() { _, err = Read(cat, data, Options{Context: ctx}) })
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if got > 64<<10 {
		t.Errorf("a cancelled Read allocated %d bytes", got)
	}
}
