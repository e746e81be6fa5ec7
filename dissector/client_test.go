package dissector

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"maps"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kversion"

	"github.com/kafkagrid/kafkagrid/capture/capturetest"
	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
)

// clientTraffic records franz-go clients against kfake: a producer per codec (none, gzip,
// snappy, lz4, zstd), each sending a few batches, and a consumer fetching them all back. The
// clients speak Kafka 4.1's versions at most: the newest release of the schemas.
func clientTraffic(t *testing.T) ([]capturetest.Endpoints, []capturetest.Chunk) {
	t.Helper()
	cluster, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, "orders"))
	if err != nil {
		t.Fatal(err)
	}
	defer cluster.Close()
	rec := capturetest.NewRecorder(9092)
	dial := func(ctx context.Context, network, host string) (net.Conn, error) {
		c, err := (&net.Dialer{}).DialContext(ctx, network, host)
		if err != nil {
			return nil, err
		}
		return rec.Wrap(c), nil
	}
	ctx := t.Context()
	codecs := []kgo.CompressionCodec{kgo.NoCompression(), kgo.GzipCompression(), kgo.SnappyCompression(), kgo.Lz4Compression(), kgo.ZstdCompression()}
	records := 0
	for i, codec := range codecs {
		cl, err := kgo.NewClient(kgo.SeedBrokers(cluster.ListenAddrs()...), kgo.Dialer(dial), kgo.MaxVersions(kversion.V4_1_0()),
			kgo.ProducerBatchCompression(codec), kgo.DefaultProduceTopic("orders"), kgo.ClientID("producer-"+strconv.Itoa(i)))
		if err != nil {
			t.Fatal(err)
		}
		for j := range 3 {
			var rs []*kgo.Record
			for k := range 4 {
				v := fmt.Sprintf(`{"codec":%d,"batch":%d,"record":%d,"text":%q}`, i, j, k, strings.Repeat("a compressible value ", 8))
				rs = append(rs, &kgo.Record{Key: []byte(fmt.Sprintf("key-%d-%d-%d", i, j, k)), Value: []byte(v),
					Headers: []kgo.RecordHeader{{Key: "codec", Value: []byte(strconv.Itoa(i))}}})
			}
			if err := cl.ProduceSync(ctx, rs...).FirstErr(); err != nil {
				t.Fatal(err)
			}
			records += len(rs)
		}
		cl.Close()
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(cluster.ListenAddrs()...), kgo.Dialer(dial), kgo.ClientID("consumer"), kgo.MaxVersions(kversion.V4_1_0()),
		kgo.ConsumeTopics("orders"), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.FetchMaxWait(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < records; {
		fs := cl.PollFetches(ctx)
		if err := fs.Err0(); err != nil {
			t.Fatal(err)
		}
		n += fs.NumRecords()
	}
	cl.Close()
	return rec.Capture()
}

// connFrames cuts each side of each connection into frames by their size prefixes.
func connFrames(conns []capturetest.Endpoints, chunks []capturetest.Chunk) [][2][][]byte {
	buf := make([][2][]byte, len(conns))
	for _, c := range chunks {
		side := 1
		if c.FromClient {
			side = 0
		}
		buf[c.Conn][side] = append(buf[c.Conn][side], c.Data...)
	}
	out := make([][2][][]byte, len(conns))
	for i := range buf {
		for side := range 2 {
			b := buf[i][side]
			for len(b) >= 4 {
				n := 4 + int(binary.BigEndian.Uint32(b))
				if n > len(b) {
					break
				}
				out[i][side] = append(out[i][side], b[:n])
				b = b[n:]
			}
		}
	}
	return out
}

// TestTsharkClient is the real client capture: franz-go clients of five codecs against kfake,
// every request cut across 200-byte segments, dissected by tshark with the dissector of every
// release. Every frame shows its api key, version and correlation id and every field as
// package kafka decodes it (the error codes of every response among them), gzip batches
// opened, the other codecs marked; no frame is malformed.
func TestTsharkClient(t *testing.T) {
	bin := tshark(t)
	var cats []*kafka.Catalog
	for _, d := range testenv.All(t) {
		c, err := kafka.LoadCatalog(d)
		if err != nil {
			t.Fatal(err)
		}
		cats = append(cats, c)
	}
	newest := cats[len(cats)-1]
	conns, chunks := clientTraffic(t)
	dir := t.TempDir()
	pcap := filepath.Join(dir, "client.pcapng")
	var buf bytes.Buffer
	if err := capturetest.Write(&buf, conns, chunks, capturetest.Options{NG: true, MSS: 200}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pcap, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	lua := filepath.Join(dir, "kafka.lua")
	var lb bytes.Buffer
	if err := Write(&lb, cats, Options{}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lua, lb.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := build(cats)
	if err != nil {
		t.Fatal(err)
	}
	// Expected: every frame decoded by package kafka, by connection, side and correlation id.
	type key struct {
		conn     int
		response bool
		corr     int32
	}
	want := map[key]*kafka.Frame{}
	for i, sides := range connFrames(conns, chunks) {
		reqs := map[int32]*kafka.Frame{}
		for _, b := range sides[0] {
			f, err := newest.Decode(b, kafka.DecodeOptions{})
			if err != nil {
				t.Fatalf("connection %d: request: %v", i, err)
			}
			reqs[f.CorrelationID] = f
			want[key{i, false, f.CorrelationID}] = f
		}
		for _, b := range sides[1] {
			corr := int32(binary.BigEndian.Uint32(b[4:]))
			f, err := newest.DecodeResponse(b, reqs[corr], kafka.DecodeOptions{})
			if err != nil {
				t.Fatalf("connection %d: response %d: %v", i, corr, err)
			}
			want[key{i, true, corr}] = f
		}
	}
	// One pass, as tshark reads by default, and two (-2), as Wireshark does: the second pass
	// pairs the responses as the first.
	for _, extra := range [][]string{nil, {"-2"}} {
		want := maps.Clone(want)
		root, err := parseJSON(runTshark(t, bin, lua, pcap, extra...))
		if err != nil {
			t.Fatal(err)
		}
		seen, errorCodes, bad := 0, 0, 0
		for _, pkt := range root.kids {
			layers := packetLayers(pkt)
			stream := -1
			for _, l := range layers {
				if l.key == "_ws.malformed" {
					t.Errorf("a malformed packet: %v", l)
				}
				if l.key == "tcp" {
					for _, c := range l.kids {
						if c.key == "tcp.stream" {
							stream, _ = strconv.Atoi(c.val)
						}
					}
				}
			}
			for _, l := range layers {
				if l.key != "kafkagrid" {
					continue
				}
				list := []*jnode{l}
				if !l.obj {
					list = l.kids
				}
				for _, p := range list {
					have := map[string][]string{}
					values(p, have)
					for _, k := range []string{"kafkagrid.api_key", "kafkagrid.api_version", "kafkagrid.correlation_id"} {
						if len(have[k]) != 1 {
							t.Errorf("stream %d: a frame with %d %s", stream, len(have[k]), k)
						}
					}
					corr, _ := strconv.Atoi(first(have["kafkagrid.correlation_id"]))
					_, response := have["kafkagrid.response"]
					f := want[key{stream, response, int32(corr)}]
					if f == nil {
						t.Errorf("stream %d: tshark shows a frame (response %t, corr %d) the capture does not have", stream, response, corr)
						continue
					}
					delete(want, key{stream, response, int32(corr)})
					seen++
					errorCodes += len(have["kafkagrid.error_code"])
					if diffs := g.diffFrame(f, have); len(diffs) > 0 {
						if bad++; bad <= 10 {
							t.Errorf("stream %d, %s v%d (corr %d, response %t):\n  %s", stream, f.API.Name, f.Version, corr, response, strings.Join(diffs, "\n  "))
						}
					}
					for k := range have {
						if k == "kafkagrid.unknown" || k == "kafkagrid.unpaired" {
							t.Errorf("stream %d, corr %d: expert info %s", stream, corr, k)
						}
					}
				}
			}
		}
		for k := range want {
			t.Errorf("tshark does not show the frame of connection %d, response %t, corr %d", k.conn, k.response, k.corr)
		}
		if bad > 0 {
			t.Errorf("%d of %d frames differ", bad, seen)
		}
		if capturetest.Frames(chunks) != seen {
			t.Errorf("tshark shows %d frames, the capture has %d", seen, capturetest.Frames(chunks))
		}
		t.Logf("tshark %v: %d frames of %d connections compared, %d error codes among them", extra, seen, len(conns), errorCodes)
	}
}

func first(v []string) string {
	if len(v) == 0 {
		return ""
	}
	return v[0]
}

// packetLayers returns the layers of one packet of tshark's JSON.
func packetLayers(pkt *jnode) []*jnode {
	for _, src := range pkt.kids {
		if src.key != "_source" {
			continue
		}
		for _, l := range src.kids {
			if l.key == "layers" {
				return l.kids
			}
		}
	}
	return nil
}
