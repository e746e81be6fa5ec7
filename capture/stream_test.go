package capture

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"
	"github.com/kafkagrid/kafkagrid/capture/capturetest"
	"github.com/kafkagrid/kafkagrid/kafka"
)

// streamed is what Stream passed on: each exchange with its connection's ID, as text.
func streamed(t testing.TB, data []byte, o Options) (got []string, r *Result) {
	t.Helper()
	r, err := Stream(testCatalog(t), bytes.NewReader(data), o, func(c *Conn, e *Exchange) error {
		if c.Exchanges != nil {
			t.Fatalf("connection %d keeps %d exchanges", c.ID, len(c.Exchanges))
		}
		got = append(got, exchangeText(c, e))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got, r
}

func exchangeText(c *Conn, e *Exchange) string {
	s := fmt.Sprintf("conn %d:", c.ID)
	for _, m := range []*Message{e.Request, e.Response} {
		switch {
		case m == nil:
			s += " -"
		case m.Frame != nil:
			s += fmt.Sprintf(" %s@%d/%d err=%v", m.Frame.BaseName(), m.Offset, m.Packet, m.Err)
		default:
			s += fmt.Sprintf(" %d bytes@%d/%d token=%v err=%v", len(m.Bytes), m.Offset, m.Packet, m.Token, m.Err)
		}
	}
	return s + " " + e.Note
}

// TestStreamAsRead: Stream passes on the exchanges Read keeps, each once, with the same
// connections and notes, on captures of real traffic cut small, retransmitted and out of
// order, and of the examples over ten connections; a response comes after its request.
func TestStreamAsRead(t *testing.T) {
	cat := testCatalog(t)
	rec := kfakeTraffic(t)
	inputs := map[string][]byte{"examples": benchCapture(t)}
	for _, o := range []capturetest.Options{{}, {NG: true, MSS: 100, Retransmit: 3, Reorder: 5, ISN: 0xffffff00}, {MSS: 7, Retransmit: 2, Reorder: 3}, {NoSYN: true, MSS: 50}} {
		inputs[fmt.Sprintf("kfake ng=%v mss=%d reorder=%d nosyn=%v", o.NG, o.MSS, o.Reorder, o.NoSYN)] = writeCapture(t, rec, o)
	}
	for name, data := range inputs {
		t.Run(name, func(t *testing.T) {
			whole, err := Read(cat, data, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, c := range whole.Conns {
				for _, e := range c.Exchanges {
					want = append(want, exchangeText(c, e))
				}
			}
			got, r := streamed(t, data, Options{})
			if len(got) != len(want) {
				t.Fatalf("%d exchanges streamed, Read has %d", len(got), len(want))
			}
			if !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))) {
				t.Errorf("the exchanges differ from Read's")
			}
			if r.Packets != whole.Packets || len(r.Conns) != len(whole.Conns) || !slices.Equal(r.Notes, whole.Notes) {
				t.Errorf("summary: %d packets, %d connections, notes %q; Read: %d, %d, %q", r.Packets, len(r.Conns), r.Notes, whole.Packets, len(whole.Conns), whole.Notes)
			}
			for i, c := range r.Conns {
				if w := whole.Conns[i]; c.ID != w.ID || c.Client != w.Client || !slices.Equal(c.Notes, w.Notes) {
					t.Errorf("connection %d: %v %q; Read: %d %v %q", c.ID, c.Client, c.Notes, w.ID, w.Client, w.Notes)
				}
			}
			if name == "examples" && len(got) != 5000 {
				t.Errorf("%d exchanges, want 5,000", len(got))
			}
		})
	}
}

// streamCounts reads a capture as Stream does and returns the most messages and bytes its
// reader held at once, and the exchanges passed on.
func streamCounts(t *testing.T, data []byte, o Options) (held, buffered, exchanges int) {
	t.Helper()
	d := newDecoder(testCatalog(t), o.withDefaults(), false)
	p, err := d.newPcapReader(func(c *Conn, e *Exchange) error {
		if e.Request == nil || e.Response == nil || e.Request.Err != nil || e.Response.Err != nil {
			t.Fatalf("conn %d: %s", c.ID, exchangeText(c, e))
		}
		exchanges++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.read(bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	if p.held != 0 || p.buffered != 0 {
		t.Errorf("at the end %d messages and %d bytes still held", p.held, p.buffered)
	}
	return p.peakHeld, p.peakBuffered, exchanges
}

// TestStreamMemoryFlat: what Stream holds while it reads does not grow with the capture: a
// capture of 2,000 frames and one of 20,000 (the examples over ten connections, segments out
// of order) hold at most one request a connection waiting for its answer, and bytes
// buffered within the largest frame and a segment a connection, the same at both sizes.
func TestStreamMemoryFlat(t *testing.T) {
	pairs := examplePairs(t, kafka.VectorOptions{Compression: kafka.CodecZstd})
	largest := 0
	for _, c := range pairs {
		largest = max(largest, len(c.Data))
	}
	const conns = 10
	var ends []capturetest.Endpoints
	for i := range conns {
		ends = append(ends, capturetest.Endpoints{Client: netipPort(client, uint16(40000+i)), Server: server})
	}
	capture := func(frames int) []byte {
		var chunks []capturetest.Chunk
		for i := 0; len(chunks) < frames; i++ {
			for _, c := range pairs[2*(i%(len(pairs)/2)) : 2*(i%(len(pairs)/2))+2] {
				c.Conn = i % conns
				chunks = append(chunks, c)
			}
		}
		return pcapOf(t, ends, chunks, capturetest.Options{MSS: 200, Reorder: 7})
	}
	var peaks [][2]int
	for _, frames := range []int{2000, 20000} {
		held, buffered, n := streamCounts(t, capture(frames), Options{})
		if n != frames/2 {
			t.Errorf("%d frames: %d exchanges", frames, n)
		}
		t.Logf("%d frames: at most %d messages and %d bytes held at once", frames, held, buffered)
		if held > conns {
			t.Errorf("%d frames: %d messages held at once, more than one a connection", frames, held)
		}
		if buffered > conns*(largest+2*200) {
			t.Errorf("%d frames: %d bytes buffered at once, more than a frame and two segments a connection", frames, buffered)
		}
		peaks = append(peaks, [2]int{held, buffered})
	}
	if peaks[1][0] > peaks[0][0] || peaks[1][1] > peaks[0][1] {
		t.Errorf("held %v at 2,000 frames, %v at 20,000: it grows with the capture", peaks[0], peaks[1])
	}
}

// TestStreamPerFrameLimits: Stream's field limit is each frame's, so any number of frames
// decodes: with a limit above the largest frame's tree, every frame of the capture decodes,
// where Read, keeping every tree, stops at the same limit for the whole input.
func TestStreamPerFrameLimits(t *testing.T) {
	data := benchCapture(t)
	r, err := Read(testCatalog(t), data, Options{})
	if err != nil {
		t.Fatal(err)
	}
	most, sum := 0, 0
	for _, c := range r.Conns {
		for _, e := range c.Exchanges {
			for _, m := range []*Message{e.Request, e.Response} {
				most, sum = max(most, m.Frame.Nodes), sum+m.Frame.Nodes
			}
		}
	}
	o := Options{MaxNodes: most}
	got, _ := streamed(t, data, o)
	for _, g := range got {
		if bytes.Contains([]byte(g), []byte("err=<nil> ")) && bytes.Count([]byte(g), []byte("err=<nil>")) == 2 {
			continue
		}
		t.Fatalf("not decoded with a limit of %d fields a frame: %s", most, g)
	}
	if len(got) != 5000 {
		t.Errorf("%d exchanges", len(got))
	}
	r, err = Read(testCatalog(t), data, o)
	if err != nil {
		t.Fatal(err)
	}
	if all, ok := r.Frames(); ok == all {
		t.Errorf("Read decoded all %d frames (%d fields) within %d fields", all, sum, most)
	}
}

// TestStreamEachError: an error from each stops the reading and comes back as it is.
func TestStreamEachError(t *testing.T) {
	stop := errors.New("enough")
	n := 0
	_, err := Stream(testCatalog(t), bytes.NewReader(benchCapture(t)), Options{}, func(*Conn, *Exchange) error {
		if n++; n == 3 {
			return stop
		}
		return nil
	})
	if err != stop || n != 3 {
		t.Errorf("err = %v after %d exchanges, want %v after 3", err, n, stop)
	}
}

// TestStreamServerSideOnly: a capture of the server's side alone holds at most
// Options.MaxInFlight responses waiting for a request, and passes every one on.
func TestStreamServerSideOnly(t *testing.T) {
	var chunks []capturetest.Chunk
	for _, c := range examplePairs(t, kafka.VectorOptions{}) {
		if !c.FromClient {
			chunks = append(chunks, c, c, c)
		}
	}
	data := pcapOf(t, []capturetest.Endpoints{{Client: client, Server: server}}, chunks, capturetest.Options{})
	d := newDecoder(testCatalog(t), Options{MaxInFlight: 10}.withDefaults(), false)
	n := 0
	p, _ := d.newPcapReader(func(c *Conn, e *Exchange) error {
		if e.Request != nil || e.Response == nil || e.Note != "unpaired response" {
			t.Fatalf("%s", exchangeText(c, e))
		}
		n++
		return nil
	})
	if _, err := p.read(bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	if n != len(chunks) || p.peakHeld > 11 {
		t.Errorf("%d of %d responses passed on, at most %d held", n, len(chunks), p.peakHeld)
	}
}

// TestStreamLateSegmentAfterFIN: a segment captured after both FINs (it came late) is still
// read: a connection ends once the bytes before each FIN came, and a response captured before
// its request waits for it.
func TestStreamLateSegmentAfterFIN(t *testing.T) {
	pairs := examplePairs(t, kafka.VectorOptions{})[:2]
	data := pcapOf(t, []capturetest.Endpoints{{Client: client, Server: server}}, pairs, capturetest.Options{})
	pr, err := pcapgo.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	type pkt struct {
		ci gopacket.CaptureInfo
		b  []byte
	}
	var pkts []pkt
	for {
		b, ci, err := pr.ReadPacketData()
		if err != nil {
			break
		}
		pkts = append(pkts, pkt{ci, b})
	}
	if len(pkts) != 7 { // handshake, request, response, two FINs
		t.Fatalf("%d packets", len(pkts))
	}
	order := []int{0, 1, 2, 4, 5, 6, 3} // the request last, after the response and both FINs
	var buf bytes.Buffer
	w := pcapgo.NewWriter(&buf)
	w.WriteFileHeader(65535, layers.LinkTypeEthernet)
	for _, i := range order {
		w.WritePacket(pkts[i].ci, pkts[i].b)
	}
	got, _ := streamed(t, buf.Bytes(), Options{})
	if len(got) != 1 || !strings.Contains(got[0], "-request@0/7 ") || strings.Count(got[0], "err=<nil>") != 2 {
		t.Errorf("exchanges %q, want the request paired with its response", got)
	}
}
