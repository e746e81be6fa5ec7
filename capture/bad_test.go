package capture

import (
	"bytes"
	"errors"
	"fmt"
	"net/netip"
	"runtime"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/capture/capturetest"
	"github.com/kafkagrid/kafkagrid/kafka"
)

var (
	client = netip.MustParseAddrPort("10.0.0.2:40000")
	server = netip.MustParseAddrPort("10.0.0.1:9092")
)

// examplePairs returns the 4.0 example requests and responses of a few APIs.
func examplePairs(t testing.TB, o kafka.VectorOptions) []capturetest.Chunk {
	t.Helper()
	vs, err := testCatalog(t).Vectors(o)
	if err != nil {
		t.Fatal(err)
	}
	var chunks []capturetest.Chunk
	for _, v := range vs {
		chunks = append(chunks, capturetest.Chunk{FromClient: true, Data: v.Request.Bytes}, capturetest.Chunk{Data: v.Response.Bytes})
	}
	return chunks
}

func pcapOf(t testing.TB, ends []capturetest.Endpoints, chunks []capturetest.Chunk, o capturetest.Options) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := capturetest.Write(&buf, ends, chunks, o); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func allNotes(r *Result) string {
	s := strings.Join(r.Notes, "\n")
	for _, c := range r.Conns {
		s += "\n" + strings.Join(c.Notes, "\n")
		for _, e := range c.Exchanges {
			s += "\n" + e.Note
		}
	}
	return s
}

// TestBadInput: inputs that are broken or not Kafka give notes and errors, never a panic, and
// the rest still decodes.
func TestBadInput(t *testing.T) {
	cat := testCatalog(t)
	one := []capturetest.Endpoints{{Client: client, Server: server}}
	pairs := examplePairs(t, kafka.VectorOptions{})
	full := pcapOf(t, one, pairs, capturetest.Options{MSS: 200})
	httpChunks := []capturetest.Chunk{{FromClient: true, Data: []byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n")}, {Data: []byte("HTTP/1.1 200 OK\r\n\r\n")}}
	huge := append([]byte{0x7f, 0xff, 0xff, 0xff, 0, 3, 0, 12, 0, 0, 0, 1}, make([]byte, 100)...)

	tests := []struct {
		name      string
		data      []byte
		frames    int // at least this many decoded
		failed    int // exactly this many with Err (-1: any)
		wantNotes []string
	}{
		{"truncated capture", full[:len(full)*2/3], 50, -1, []string{"the capture ends early"}},
		{"http on 9092", pcapOf(t, one, httpChunks, capturetest.Options{}), 0, 0, []string{"does not start with a Kafka request"}},
		{"http elsewhere", pcapOf(t, []capturetest.Endpoints{{Client: client, Server: netip.MustParseAddrPort("10.0.0.1:80")}}, httpChunks, capturetest.Options{}), 0, 0,
			[]string{"1 TCP connection on other ports does not start with a Kafka request and was skipped", "no Kafka connection found"}},
		{"2 GiB frame in a capture", pcapOf(t, one, []capturetest.Chunk{{FromClient: true, Data: huge}}, capturetest.Options{}), 0, 0,
			[]string{"does not start with a Kafka request"}},
		{"2 GiB frame after good ones", append(append([]byte{}, pairs[0].Data...), huge...), 1, 0, []string{"frame size 2147483647 at offset"}},
		{"cut frame", pairs[0].Data[:30], 0, 1, []string{"cut short"}},
		{"no SYN", pcapOf(t, one, pairs, capturetest.Options{NoSYN: true}), 160, 0, []string{"no SYN"}},
		{"hole", dropPacket(t, pcapOf(t, one, pairs, capturetest.Options{MSS: 100}), 40), 1, -1, []string{"bytes missing at stream offset"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Read(cat, tt.data, Options{})
			if err != nil {
				t.Fatal(err)
			}
			all, ok := r.Frames()
			notes := allNotes(r)
			if ok < tt.frames || (tt.failed >= 0 && all-ok != tt.failed) {
				t.Errorf("%d frames, %d decoded; notes:\n%s", all, ok, notes)
			}
			for _, w := range tt.wantNotes {
				if !strings.Contains(notes, w) {
					t.Errorf("notes lack %q:\n%s", w, notes)
				}
			}
		})
	}
	if _, err := Read(cat, []byte("zz top"), Options{}); err == nil || !strings.Contains(err.Error(), "is not a hex digit") {
		t.Errorf("garbage hex: %v", err)
	}
	if _, err := Read(cat, []byte{0xd4, 0xc3, 0xb2, 0xa1, 1}, Options{}); err == nil {
		t.Errorf("a pcap header cut short: no error")
	}
}

// dropPacket removes packet n (1-based) of a pcap written by capturetest (16-byte records).
func dropPacket(t testing.TB, pcap []byte, n int) []byte {
	t.Helper()
	off := 24
	for i := 1; off+16 <= len(pcap); i++ {
		l := int(uint32(pcap[off+8]) | uint32(pcap[off+9])<<8 | uint32(pcap[off+10])<<16 | uint32(pcap[off+11])<<24)
		end := off + 16 + l
		if i == n {
			return append(append([]byte{}, pcap[:off]...), pcap[end:]...)
		}
		off = end
	}
	t.Fatalf("no packet %d", n)
	return nil
}

// TestBombInCapture: a 1-record batch whose value inflates to 80 MiB, zstd-compressed to a few
// KiB, inside a Produce request between good frames: that frame's error names the limit, the
// others decode, and decoding allocates about the limit, not the bomb.
func TestBombInCapture(t *testing.T) {
	cat := testCatalog(t)
	api, _ := cat.Lookup("Produce")
	vs, err := cat.Vectors(kafka.VectorOptions{Compression: kafka.CodecZstd})
	if err != nil {
		t.Fatal(err)
	}
	var prod kafka.Vector
	for _, v := range vs {
		if v.API == api {
			prod = v
		}
	}
	body := prod.Request.Body
	batch := body["TopicData"].([]any)[0].(kafka.Values)["PartitionData"].([]any)[0].(kafka.Values)["Records"].([]*kafka.RecordBatch)[0]
	saved := batch.Records[0].Value
	batch.Records[0].Value = make([]byte, 80<<20)
	bomb, err := cat.Encode(kafka.Message{API: api, Version: prod.Request.Version, CorrelationID: 99, ClientID: "bomb", Body: body})
	batch.Records[0].Value = saved
	if err != nil {
		t.Fatal(err)
	}
	if len(bomb.Bytes) > 16<<10 {
		t.Fatalf("the bomb is %d bytes", len(bomb.Bytes))
	}
	data := append(append(append([]byte{}, prod.Request.Bytes...), bomb.Bytes...), prod.Response.Bytes...)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r, err := Read(cat, data, Options{})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	all, ok := r.Frames()
	if all != 3 || ok != 2 {
		t.Fatalf("%d frames, %d decoded", all, ok)
	}
	var bad *Message
	for _, e := range r.Conns[0].Exchanges {
		if e.Request != nil && e.Request.Err != nil {
			bad = e.Request
		}
	}
	if bad == nil || !errors.Is(bad.Err, kafka.ErrDecompressedTooLarge) || !strings.Contains(bad.Err.Error(), "Records#compressed") {
		t.Fatalf("the bomb's error: %v", bad)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 3*kafka.DefaultMaxDecompressed {
		t.Errorf("decoding allocated %d MiB for a 64 MiB limit", alloc>>20)
	}
}

func netipPort(a netip.AddrPort, port uint16) netip.AddrPort {
	return netip.AddrPortFrom(a.Addr(), port)
}

// TestPorts: a connection on another port is found by its first bytes (a Kafka request), or
// named with Ports; IPv6 and pcapng read the same.
func TestPorts(t *testing.T) {
	cat := testCatalog(t)
	pairs := examplePairs(t, kafka.VectorOptions{})[:20]
	for _, tc := range []struct {
		name   string
		ends   capturetest.Endpoints
		ports  []uint16
		ng     bool
		frames int
	}{
		{"detected", capturetest.Endpoints{Client: client, Server: netip.MustParseAddrPort("10.0.0.1:19092")}, nil, false, 20},
		{"named", capturetest.Endpoints{Client: client, Server: netip.MustParseAddrPort("10.0.0.1:19092")}, []uint16{19092}, false, 20},
		{"ipv6 pcapng", capturetest.Endpoints{Client: netip.MustParseAddrPort("[2001:db8::2]:40000"), Server: netip.MustParseAddrPort("[2001:db8::1]:9092")}, nil, true, 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := pcapOf(t, []capturetest.Endpoints{tc.ends}, pairs, capturetest.Options{NG: tc.ng, MSS: 300})
			r, err := Read(cat, data, Options{Ports: tc.ports})
			if err != nil {
				t.Fatal(err)
			}
			all, ok := r.Frames()
			if all != tc.frames || ok != all || len(r.Conns) != 1 || r.Conns[0].Server != tc.ends.Server {
				t.Errorf("%d frames, %d decoded, %d connections; notes %s", all, ok, len(r.Conns), allNotes(r))
			}
		})
	}
}

// TestApiVersionsFallback: an ApiVersions request at a version the broker does not know gets
// a v0 answer with UNSUPPORTED_VERSION (KIP-511); it pairs and decodes as v0.
func TestApiVersionsFallback(t *testing.T) {
	cat := testCatalog(t)
	api, _ := cat.Lookup("ApiVersions")
	body, _, err := kafka.Example(api, false, api.Version, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	req, err := cat.Encode(kafka.Message{API: api, Version: api.Version, CorrelationID: 1, ClientID: "c", Body: body})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := cat.Encode(kafka.Message{API: api, Response: true, Version: 0, CorrelationID: 1,
		Body: kafka.Values{"ErrorCode": int64(35), "ApiKeys": []any{kafka.Values{"ApiKey": int64(18), "MinVersion": int64(0), "MaxVersion": int64(2)}}}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Read(cat, append(append([]byte{}, req.Bytes...), resp.Bytes...), Options{})
	if err != nil {
		t.Fatal(err)
	}
	e := r.Conns[0].Exchanges[0]
	if e.Response == nil || e.Response.Err != nil || e.Response.Frame.Version != 0 || !strings.Contains(e.Note, "KIP-511") {
		t.Fatalf("%+v %q", e.Response, e.Note)
	}
}

// TestRequestLikeCorrelation: with no direction known, a request whose api key and version
// read as the correlation id of a request before it (Produce v7 as 7) is still a request.
func TestRequestLikeCorrelation(t *testing.T) {
	cat := testCatalog(t)
	var frames []byte
	for _, n := range []struct {
		api string
		v   int16
	}{{"Metadata", 12}, {"Produce", 7}} {
		api, _ := cat.Lookup(n.api)
		body, _, err := kafka.Example(api, false, n.v, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		f, err := cat.Encode(kafka.Message{API: api, Version: n.v, CorrelationID: 7, ClientID: "c", Body: body})
		if err != nil {
			t.Fatal(err)
		}
		frames = append(frames, f.Bytes...)
	}
	r, err := Read(cat, frames, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ex := r.Conns[0].Exchanges
	if len(ex) != 2 || ex[0].Response != nil || ex[1].Request == nil || ex[1].Request.Err != nil || ex[1].Request.Frame.API.Name != "Produce" {
		t.Fatalf("%d exchanges: %+v", len(ex), ex)
	}
}

// TestNodeBudget: the trees of one input have at most Options.MaxNodes nodes together: a
// capture of the example pairs with room for half of their trees decodes the first frames,
// stops one with kafka.ErrTooManyFields, lists the rest as not decoded, and says so.
func TestNodeBudget(t *testing.T) {
	cat := testCatalog(t)
	one := []capturetest.Endpoints{{Client: client, Server: server}}
	data := pcapOf(t, one, examplePairs(t, kafka.VectorOptions{}), capturetest.Options{})
	whole, err := Read(cat, data, Options{})
	if err != nil {
		t.Fatal(err)
	}
	nodes, frames := 0, 0
	for _, c := range whole.Conns {
		for _, e := range c.Exchanges {
			for _, m := range []*Message{e.Request, e.Response} {
				if m.Err != nil {
					t.Fatalf("%v", m.Err)
				}
				nodes += m.Frame.Nodes
				frames++
			}
		}
	}
	half, err := Read(cat, data, Options{MaxNodes: nodes / 2})
	if err != nil {
		t.Fatal(err)
	}
	decoded, stopped, spent, sum := 0, 0, 0, 0
	for _, c := range half.Conns {
		for _, e := range c.Exchanges {
			for _, m := range []*Message{e.Request, e.Response} {
				switch {
				case m == nil:
					t.Fatal("a message went missing")
				case m.Err == nil:
					decoded++
					sum += m.Frame.Nodes
				case errors.Is(m.Err, kafka.ErrTooManyFields):
					stopped++
					sum += m.Frame.Nodes
				case errors.Is(m.Err, errSpent):
					spent++
				default:
					t.Errorf("%v", m.Err)
				}
			}
		}
	}
	if decoded == 0 || stopped != 1 || spent == 0 || decoded+stopped+spent != frames {
		t.Errorf("%d frames: %d decoded, %d stopped, %d not decoded", frames, decoded, stopped, spent)
	}
	if sum < nodes/2 || sum > nodes/2+64 {
		t.Errorf("%d nodes decoded with a limit of %d", sum, nodes/2)
	}
	if notes := allNotes(half); !strings.Contains(notes, fmt.Sprintf("decoding stopped at the limit of %d fields (tree nodes) for the whole input (kafkagrid decode -max-fields); %d frames after it not decoded", nodes/2, spent)) {
		t.Errorf("no note of the frames not decoded: %s", notes)
	}
}

// TestDecompressedBudget: the compressed batches of one input inflate to at most
// Options.MaxInflated together, not only per frame: a run of small frames, each inflating to
// less than the frame's limit, stops inflating when the input's is reached, with a note.
func TestDecompressedBudget(t *testing.T) {
	cat := testCatalog(t)
	vs, err := cat.Vectors(kafka.VectorOptions{Compression: kafka.CodecZstd})
	if err != nil {
		t.Fatal(err)
	}
	var produce *kafka.Frame
	for _, v := range vs {
		if v.API.Name == "Produce" {
			produce = v.Request
		}
	}
	// The example Produce request, its record's value 4 MiB of zeros: a frame of a few hundred
	// bytes that inflates to 4 MiB.
	body := produce.Body
	batch := body["TopicData"].([]any)[0].(kafka.Values)["PartitionData"].([]any)[0].(kafka.Values)["Records"].([]*kafka.RecordBatch)[0]
	batch.Records[0].Value = make([]byte, 4<<20)
	f, err := cat.Encode(kafka.Message{API: produce.API, Version: produce.Version, CorrelationID: 1, ClientID: "c", Body: body})
	if err != nil {
		t.Fatal(err)
	}
	var data []byte
	for range 10 {
		data = append(data, f.Bytes...)
	}
	t.Logf("10 frames of %d bytes, each inflating to 4 MiB", len(f.Bytes))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r, err := Read(cat, data, Options{MaxInflated: 10 << 20})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	ok, bomb := 0, 0
	for _, e := range r.Conns[0].Exchanges {
		switch m := e.Request; {
		case m.Err == nil:
			ok++
		case errors.Is(m.Err, kafka.ErrDecompressedTooLarge):
			bomb++
		default:
			t.Errorf("%v", m.Err)
		}
	}
	if ok != 2 || bomb != 8 {
		t.Errorf("%d frames inflated, %d stopped; want 2 and 8", ok, bomb)
	}
	if !strings.Contains(allNotes(r), "compressed batches inflated 83886") || !strings.Contains(allNotes(r), "bytes, as many as the input may (10485760, Options.MaxInflated)") {
		t.Errorf("no note of the limit: %s", allNotes(r))
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 40<<20 {
		t.Errorf("reading allocated %d MiB", got>>20)
	}
	// A frame of two such batches is over a 6 MiB frame limit while the input's 11 MiB still
	// has room for all of it: an error, but no note blaming the input's limit, though what is
	// left of it after the frame (5 MiB: the failed inflation counts) is below the frame's.
	pd := body["TopicData"].([]any)[0].(kafka.Values)["PartitionData"].([]any)[0].(kafka.Values)
	pd["Records"] = []*kafka.RecordBatch{batch, batch}
	two, err := cat.Encode(kafka.Message{API: produce.API, Version: produce.Version, CorrelationID: 1, ClientID: "c", Body: body})
	if err != nil {
		t.Fatal(err)
	}
	r, err = Read(cat, append(bytes.Clone(two.Bytes), f.Bytes...), Options{MaxDecompressed: 6 << 20, MaxInflated: 11 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if m := r.Conns[0].Exchanges[0].Request; m == nil || !errors.Is(m.Err, kafka.ErrDecompressedTooLarge) || strings.Contains(allNotes(r), "MaxInflated") {
		t.Errorf("frame over its own limit: %v; notes %s", m.Err, allNotes(r))
	}

	// Bombs that fail count against the input's budget as those that inflate: ten gzip frames
	// of 4 MiB each (gzip declares no size: each inflates up to the limit before it fails)
	// under a frame limit of 1 MiB and an input's of 3 MiB inflate 3 MiB in all, not ten
	// times 1 MiB.
	gz, err := cat.Vectors(kafka.VectorOptions{Compression: kafka.CodecGzip})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range gz {
		if v.API.Name == "Produce" {
			produce = v.Request
		}
	}
	body = produce.Body
	body["TopicData"].([]any)[0].(kafka.Values)["PartitionData"].([]any)[0].(kafka.Values)["Records"].([]*kafka.RecordBatch)[0].Records[0].Value = make([]byte, 4<<20)
	if f, err = cat.Encode(kafka.Message{API: produce.API, Version: produce.Version, CorrelationID: 1, ClientID: "c", Body: body}); err != nil {
		t.Fatal(err)
	}
	data = nil
	for range 10 {
		data = append(data, f.Bytes...)
	}
	runtime.GC()
	runtime.ReadMemStats(&before)
	r, err = Read(cat, data, Options{MaxDecompressed: 1 << 20, MaxInflated: 3 << 20})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range r.Conns[0].Exchanges {
		if !errors.Is(e.Request.Err, kafka.ErrDecompressedTooLarge) {
			t.Errorf("a bomb: %v", e.Request.Err)
		}
	}
	if !strings.Contains(allNotes(r), "bytes, as many as the input may (3145728, Options.MaxInflated)") {
		t.Errorf("no note that the input's budget was spent by failed inflations: %s", allNotes(r))
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 10<<20 {
		t.Errorf("ten failing bombs allocated %d MiB under an input's budget of 3 MiB", got>>20)
	}
}
