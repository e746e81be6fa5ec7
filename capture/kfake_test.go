package capture

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/kafkagrid/kafkagrid/capture/capturetest"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"
)

var codecs = []struct {
	name  string
	codec kgo.CompressionCodec
}{
	{"gzip", kgo.GzipCompression()},
	{"snappy", kgo.SnappyCompression()},
	{"lz4", kgo.Lz4Compression()},
	{"zstd", kgo.ZstdCompression()},
}

// kfakeTraffic runs franz-go's kfake broker on 127.0.0.1 and a franz-go client producing 5
// records per codec (one topic per codec) and consuming them back, all through a recorder:
// real traffic of code we did not write. The records are compressible (a client sends a batch
// uncompressed when compression does not pay), and the client speaks Kafka 4.0's versions,
// the catalogue's (franz-go would otherwise ask ApiVersions v5, which no release here has).
func kfakeTraffic(t testing.TB) *capturetest.Recorder {
	t.Helper()
	var topics []string
	for _, c := range codecs {
		topics = append(topics, "orders-"+c.name)
	}
	cluster, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, topics...))
	if err != nil {
		t.Fatal(err)
	}
	defer cluster.Close()
	rec := capturetest.NewRecorder(9092)
	dial := func(ctx context.Context, network, host string) (net.Conn, error) {
		c, err := (&net.Dialer{Timeout: 5 * time.Second}).DialContext(ctx, network, host)
		if err != nil {
			return nil, err
		}
		return rec.Wrap(c), nil
	}
	ctx := t.Context() // no deadline of its own: a hang is the test's -timeout
	for _, c := range codecs {
		cl, err := kgo.NewClient(kgo.SeedBrokers(cluster.ListenAddrs()...), kgo.Dialer(dial), kgo.MaxVersions(kversion.V4_0_0()),
			kgo.ProducerBatchCompression(c.codec), kgo.DefaultProduceTopic("orders-"+c.name), kgo.ClientID("kafkagrid-test"))
		if err != nil {
			t.Fatal(err)
		}
		var rs []*kgo.Record
		for i := range 5 {
			rs = append(rs, &kgo.Record{Key: []byte(fmt.Sprintf("k%d", i)), Value: []byte(fmt.Sprintf("%s-record-%d|%s", c.name, i, strings.Repeat("payload ", 20)))})
		}
		if err := cl.ProduceSync(ctx, rs...).FirstErr(); err != nil {
			t.Fatalf("%s: produce: %v", c.name, err)
		}
		cl.Close()
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(cluster.ListenAddrs()...), kgo.Dialer(dial), kgo.MaxVersions(kversion.V4_0_0()), kgo.ConsumeTopics(topics...),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.FetchMaxWait(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	got := 0
	for got < 5*len(codecs) {
		fs := cl.PollFetches(ctx)
		if err := fs.Err0(); err != nil {
			t.Fatalf("consume: %v", err)
		}
		got += fs.NumRecords()
	}
	cl.Close()
	return rec
}

func writeCapture(t testing.TB, rec *capturetest.Recorder, o capturetest.Options) []byte {
	t.Helper()
	conns, chunks := rec.Capture()
	var buf bytes.Buffer
	if err := capturetest.Write(&buf, conns, chunks, o); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestKfakeCapture: a capture of kfake and a franz-go client producing and fetching batches
// of each codec decodes completely, as pcap and pcapng, with small segments, retransmissions
// and segments out of order; every frame is paired, every record readable; kmsg reads each
// frame at the API and version we paired it with.
func TestKfakeCapture(t *testing.T) {
	cat := testCatalog(t)
	rec := kfakeTraffic(t)
	for _, o := range []capturetest.Options{
		{},
		{NG: true, MSS: 100, Retransmit: 3, Reorder: 5, ISN: 0xffffff00},
		{MSS: 7, Retransmit: 2, Reorder: 3},
	} {
		t.Run(fmt.Sprintf("ng=%v,mss=%d", o.NG, o.MSS), func(t *testing.T) {
			data := writeCapture(t, rec, o)
			r, err := Read(cat, data, Options{})
			if err != nil {
				t.Fatal(err)
			}
			all, ok := r.Frames()
			if all == 0 || all != ok {
				t.Fatalf("%d frames, %d decoded; notes %v", all, ok, r.Notes)
			}
			values := map[string]bool{}
			seen := map[string]bool{}
			for _, c := range r.Conns {
				for i, e := range c.Exchanges {
					if e.Response == nil && e.Request != nil && i == len(c.Exchanges)-1 {
						// The client closed with this request in flight (a fetch long-poll
						// when the consumer stops, on a loaded machine): its connection's last
						// request has no answer in the capture, as in any real capture.
						continue
					}
					if e.Request == nil || e.Response == nil {
						t.Errorf("conn %d: unpaired exchange: %s", c.ID, e.Note)
						continue
					}
					crossCheck(t, e)
					for _, m := range []*Message{e.Request, e.Response} {
						m.Frame.Root.Walk(func(n *kafka.Node) bool {
							if comp, ok := n.Raw.(*kafka.Compressed); ok {
								side := "produce"
								if m == e.Response {
									side = "fetch"
								}
								seen[side+"/"+comp.Codec.String()] = true
								comp.Root.Walk(func(x *kafka.Node) bool {
									if strings.HasSuffix(x.Path, ".Value") {
										v, _, _ := strings.Cut(strings.Trim(x.Value, `"`), "|")
										values[side+"/"+v] = true
									}
									return true
								})
							}
							return true
						})
					}
				}
				for _, n := range c.Notes {
					if !strings.Contains(n, "retransmitted") {
						t.Errorf("conn %d: %s", c.ID, n)
					}
				}
			}
			for _, c := range codecs {
				for _, side := range []string{"produce", "fetch"} {
					if !seen[side+"/"+c.name] {
						t.Errorf("no %s batch compressed with %s", side, c.name)
					}
					for i := range 5 {
						if v := fmt.Sprintf("%s/%s-record-%d", side, c.name, i); !values[v] {
							t.Errorf("record %s not decoded", v)
						}
					}
				}
			}
		})
	}
}

// crossCheck reads a paired exchange with kmsg, franz-go's independent model: the request at
// its own key and version, the response at the version we paired it with, both to the end.
func crossCheck(t *testing.T, e *Exchange) {
	t.Helper()
	f := e.Request.Frame
	req := kmsg.RequestForKey(f.API.Key)
	rsp := kmsg.ResponseForKey(f.API.Key)
	if req == nil || rsp == nil {
		return
	}
	req.SetVersion(f.Version)
	rsp.SetVersion(f.Version)
	body := e.Request.Bytes[f.Root.Find("body").Offset:]
	if err := req.ReadFrom(body); err != nil {
		t.Errorf("kmsg reads request %s: %v", f.BaseName(), err)
	}
	g := e.Response.Frame
	if g.CorrelationID != f.CorrelationID {
		t.Errorf("%s: paired with correlation id %d, request has %d", f.BaseName(), g.CorrelationID, f.CorrelationID)
	}
	if err := rsp.ReadFrom(e.Response.Bytes[g.Root.Find("body").Offset:]); err != nil {
		t.Errorf("kmsg reads response %s: %v", g.BaseName(), err)
	}
}
