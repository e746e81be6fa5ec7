package capturetest

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kversion"
)

var (
	clientsOnce   sync.Once
	clientsEnds   []Endpoints
	clientsChunks []Chunk
	clientsErr    error
)

// ClientTraffic records franz-go clients against franz-go's kfake broker on 127.0.0.1,
// speaking Kafka 2.6's versions (the newest Wireshark 4.0 dissects, so that tshark reads the
// same frames whole): a producer sending 400 batches of 5 small records (gzip) one at a time,
// and a consumer fetching them back in small fetches; about 5,000 frames on three connections.
// It records once per process and returns the same conversation to every caller (who must not
// change it). Benchmarks and the tshark comparison of the README use it.
func ClientTraffic() ([]Endpoints, []Chunk, error) {
	clientsOnce.Do(func() { clientsEnds, clientsChunks, clientsErr = recordClients() })
	return clientsEnds, clientsChunks, clientsErr
}

func recordClients() ([]Endpoints, []Chunk, error) {
	cluster, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, "orders"))
	if err != nil {
		return nil, nil, err
	}
	defer cluster.Close()
	rec := NewRecorder(9092)
	dial := func(ctx context.Context, network, host string) (net.Conn, error) {
		c, err := (&net.Dialer{Timeout: 5 * time.Second}).DialContext(ctx, network, host)
		if err != nil {
			return nil, err
		}
		return rec.Wrap(c), nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cl, err := kgo.NewClient(kgo.SeedBrokers(cluster.ListenAddrs()...), kgo.Dialer(dial), kgo.MaxVersions(kversion.V2_6_0()),
		kgo.ProducerBatchCompression(kgo.GzipCompression()), kgo.DefaultProduceTopic("orders"), kgo.ClientID("bench-producer"))
	if err != nil {
		return nil, nil, err
	}
	for i := range 400 {
		var rs []*kgo.Record
		for j := range 5 {
			rs = append(rs, &kgo.Record{Key: []byte(fmt.Sprintf("order-%d", 5*i+j)), Value: []byte(fmt.Sprintf(`{"order":%d,"item":"widget","quantity":%d}`, 5*i+j, j+1))})
		}
		if err := cl.ProduceSync(ctx, rs...).FirstErr(); err != nil {
			cl.Close()
			return nil, nil, fmt.Errorf("capturetest: produce: %w", err)
		}
	}
	cl.Close()
	cl, err = kgo.NewClient(kgo.SeedBrokers(cluster.ListenAddrs()...), kgo.Dialer(dial), kgo.MaxVersions(kversion.V2_6_0()),
		kgo.ConsumeTopics("orders"), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.FetchMaxWait(50*time.Millisecond),
		kgo.FetchMaxPartitionBytes(4<<10), kgo.ClientID("bench-consumer"))
	if err != nil {
		return nil, nil, err
	}
	defer cl.Close()
	for got := 0; got < 2000; {
		fs := cl.PollFetches(ctx)
		if err := fs.Err0(); err != nil {
			return nil, nil, fmt.Errorf("capturetest: consume: %w", err)
		}
		got += fs.NumRecords()
	}
	cl.Close()
	ends, chunks := rec.Capture()
	return ends, chunks, nil
}

// ClientCapture is a pcap of ClientTraffic repeated on the same connections until it has about
// frames Kafka frames (whole rounds of the conversation, at least one: how many it records
// varies with the timing of the consumer's fetches), and how many it has.
func ClientCapture(frames int, o Options) ([]byte, int, error) {
	ends, chunks, err := ClientTraffic()
	if err != nil {
		return nil, 0, err
	}
	per := Frames(chunks)
	if per == 0 {
		return nil, 0, fmt.Errorf("capturetest: no frames recorded")
	}
	rounds := max(1, (frames+per/2)/per)
	data, err := Repeated(ends, chunks, rounds, o)
	return data, rounds * per, err
}

// Frames counts the Kafka frames of a conversation: each side's bytes cut by their int32 size
// prefixes (a last frame cut short counts too).
func Frames(chunks []Chunk) int {
	type side struct {
		conn   int
		client bool
	}
	left := map[side]int{} // the bytes of the frame under way
	n := 0
	for _, ch := range chunks {
		k := side{ch.Conn, ch.FromClient}
		b := ch.Data
		for len(b) > 0 {
			if left[k] > 0 {
				m := min(left[k], len(b))
				left[k] -= m
				b = b[m:]
				continue
			}
			if len(b) < 4 {
				break // a size cut across chunks: not in the traffic recorded here
			}
			size := int(int32(uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])))
			n++
			left[k] = max(size, 0)
			b = b[4:]
		}
	}
	return n
}

// Repeated is a pcap of the conversation repeated rounds times on the same connections (its
// correlation ids again: a reader pairs each response with the oldest request of its id).
func Repeated(ends []Endpoints, chunks []Chunk, rounds int, o Options) ([]byte, error) {
	all := make([]Chunk, 0, rounds*len(chunks))
	for range rounds {
		all = append(all, chunks...)
	}
	var buf bytes.Buffer
	if err := Write(&buf, ends, all, o); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
