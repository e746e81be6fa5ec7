package dissector

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/capture/capturetest"
	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
)

// mutations returns hostile versions of a frame, each with a size prefix that says its
// length: cut short, bytes flipped, an int32 made huge, a run of 0xff (endless varints).
func mutations(b []byte, r *rand.Rand) [][]byte {
	var out [][]byte
	reframe := func(body []byte) []byte {
		f := binary.BigEndian.AppendUint32(nil, uint32(len(body)))
		return append(f, body...)
	}
	body := b[4:]
	if len(body) > 8 {
		out = append(out, reframe(bytes.Clone(body[:8+r.IntN(len(body)-8)])))
	}
	flip := bytes.Clone(body)
	for range 3 {
		flip[r.IntN(len(flip))] ^= byte(1 + r.IntN(255))
	}
	out = append(out, reframe(flip))
	if len(body) > 12 {
		huge := bytes.Clone(body)
		at := 8 + r.IntN(len(body)-12)
		binary.BigEndian.PutUint32(huge[at:], 0x7fffffff)
		out = append(out, reframe(huge))
		ff := bytes.Clone(body)
		for i := at; i < min(at+12, len(ff)); i++ {
			ff[i] = 0xff
		}
		out = append(out, reframe(ff))
	}
	return out
}

// TestTsharkHostile: frames cut short, flipped, with huge counts and endless varints, garbage
// and huge or negative sizes, dissected by tshark: it exits 0, no Lua error is raised (the
// dissector's own checks catch everything: no "dissector error" message), every malformed
// frame is marked, and the valid frame after each on the same connection is dissected.
func TestTsharkHostile(t *testing.T) {
	bin := tshark(t)
	dirs := testenv.All(t)
	c, err := kafka.LoadCatalog(dirs[len(dirs)-1])
	if err != nil {
		t.Fatal(err)
	}
	versions := kafka.AllVersions()
	if testing.Short() {
		versions = kafka.VersionSet{} // the highest of each API
	}
	vecs, err := c.Vectors(kafka.VectorOptions{Versions: versions, Compression: kafka.CodecGzip})
	if err != nil {
		t.Fatal(err)
	}
	probe, err := c.Vectors(kafka.VectorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var marker []byte // a valid ApiVersions request, correlation id 999999
	for _, v := range probe {
		if v.API.Key == kafka.KeyApiVersions {
			marker = setCorr(v.Request.Bytes, false, 999999)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	var conns []capturetest.Endpoints
	var chunks []capturetest.Chunk
	conn := func(client, server []byte) {
		i := len(conns)
		conns = append(conns, capturetest.Endpoints{
			Client: netip.AddrPortFrom(netip.MustParseAddr("10.0.1.1"), uint16(20000+i)),
			Server: netip.MustParseAddrPort("10.0.2.2:9092"),
		})
		if client != nil {
			chunks = append(chunks, capturetest.Chunk{Conn: i, FromClient: true, Data: client})
		}
		if server != nil {
			chunks = append(chunks, capturetest.Chunk{Conn: i, Data: server})
		}
	}
	intact := 0 // connections whose hostile frame has a true size: the marker after it is read
	for _, v := range vecs {
		for _, m := range mutations(v.Request.Bytes, r) {
			conn(append(m, marker...), nil)
			intact++
		}
		for _, m := range mutations(v.Response.Bytes, r) {
			// The request is valid; its response is not.
			conn(v.Request.Bytes, m)
		}
	}
	garbage := make([]byte, 3000)
	for i := range garbage {
		garbage[i] = byte(r.IntN(256))
	}
	conn(garbage, garbage)
	conn([]byte{0x7f, 0xff, 0xff, 0xff, 0, 18, 0, 0}, []byte{0xff, 0xff, 0xff, 0xfe, 1, 2, 3})
	conn([]byte{0, 0, 0, 2, 0}, []byte{0, 0})
	conn([]byte{0, 0, 0, 0}, nil)
	conn(bytes.Repeat([]byte{0, 0, 0, 4, 0xff, 0xff, 0xff, 0xff}, 50), nil)
	dir := t.TempDir()
	if keep := os.Getenv("KAFKAGRID_DISSECTOR_KEEP"); keep != "" {
		dir = keep // to look at with tshark
	}
	pcap := filepath.Join(dir, "hostile.pcap")
	var buf bytes.Buffer
	if err := capturetest.Write(&buf, conns, chunks, capturetest.Options{MSS: 700}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pcap, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	lua := filepath.Join(dir, "kafka.lua")
	var lb bytes.Buffer
	if err := Write(&lb, []*kafka.Catalog{c}, Options{}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lua, lb.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out := runTshark(t, bin, lua, pcap) // fails on a non-zero exit or Lua on stderr
	root, err := parseJSON(out)
	if err != nil {
		t.Fatal(err)
	}
	markers, malformed, frames, crcs := 0, 0, 0, 0
	var walk func(n *jnode)
	walk = func(n *jnode) {
		switch {
		case strings.HasPrefix(n.key, "_ws.lua") && n.key != "_ws.lua.fake": // fake: the placeholder of dissect_tcp_pdus
			t.Errorf("a Lua error: %s %q", n.key, n.val)
		case n.key == "_ws.expert.message" && strings.Contains(n.val, "dissector error"):
			t.Errorf("an error the dissector did not foresee: %s", n.val)
		case n.key == "kafkagrid.malformed":
			malformed++
		case n.key == "_ws.expert.message" && strings.Contains(n.val, " CRC 0x"):
			crcs++ // a batch or message whose bytes were flipped
		case n.key == "kafkagrid.correlation_id" && n.val == "999999":
			markers++
		}
		for _, c := range n.kids {
			walk(c)
		}
	}
	walk(root)
	frames = len(pdus(root))
	if markers < intact {
		t.Errorf("the valid frame after a hostile one is dissected on %d of %d connections", markers, intact)
	}
	if malformed == 0 || crcs == 0 {
		t.Errorf("%d frames marked malformed, %d of them by their CRC", malformed, crcs)
	}
	t.Logf("%d connections, %d frames dissected, %d marked malformed (%d by a CRC), %d valid frames after hostile ones",
		len(conns), frames, malformed, crcs, markers)
}
