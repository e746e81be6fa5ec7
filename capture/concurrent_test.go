package capture

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/kafkagrid/kafkagrid/capture/capturetest"
	"github.com/kafkagrid/kafkagrid/kafka"
)

// streamText is what Stream gave, call by call (the exchange and both frames as text), or what
// Read kept, exchange by exchange: safe to call from any goroutine (no t.Fatal).
func streamText(cat *kafka.Catalog, data []byte, o Options, read bool) ([]string, error) {
	var calls []string
	add := func(c *Conn, e *Exchange) error {
		var b strings.Builder
		b.WriteString(exchangeText(c, e))
		for _, m := range []*Message{e.Request, e.Response} {
			if m != nil && m.Frame != nil {
				if err := kafka.WriteText(&b, m.Frame.Root); err != nil {
					return err
				}
			}
		}
		calls = append(calls, b.String())
		return nil
	}
	if read {
		r, err := Read(cat, data, o)
		if err != nil {
			return nil, err
		}
		for _, c := range r.Conns {
			for _, e := range c.Exchanges {
				if err := add(c, e); err != nil {
					return nil, err
				}
			}
		}
		return calls, nil
	}
	_, err := Stream(cat, bytes.NewReader(data), o, add)
	return calls, err
}

// TestConcurrentStream: Read and Stream are safe to call concurrently (the package's doc): a
// Read and two Streams with Recycle (the pools of tree blocks and gzip readers shared) at once,
// on the 4.0 examples of every API (gzip batches, secrets redacted), each give what they give
// alone. This is capture's test in the race pass (test.sh): nothing else in the package starts
// a goroutine.
func TestConcurrentStream(t *testing.T) {
	cat := testCatalog(t)
	data := pcapOf(t, []capturetest.Endpoints{{Client: client, Server: server}},
		examplePairs(t, kafka.VectorOptions{Compression: kafka.CodecGzip}), capturetest.Options{MSS: 700})
	runs := []struct {
		o    Options
		read bool
	}{{Options{}, true}, {Options{Recycle: true}, false}, {Options{Recycle: true}, false}}
	want := make([][]string, len(runs))
	for i, r := range runs {
		var err error
		if want[i], err = streamText(cat, data, r.o, r.read); err != nil {
			t.Fatal(err)
		}
	}
	if len(want[0]) < 50 || !slices.Equal(want[1], want[2]) {
		t.Fatalf("alone: %d exchanges read, %d and %d streamed", len(want[0]), len(want[1]), len(want[2]))
	}
	got := make([][]string, len(runs))
	errs := make([]error, len(runs))
	var wg sync.WaitGroup
	for i, r := range runs {
		wg.Go(func() { got[i], errs[i] = streamText(cat, data, r.o, r.read) })
	}
	wg.Wait()
	for i := range runs {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if !slices.Equal(got[i], want[i]) {
			t.Errorf("%s: together, %d exchanges differ from alone (%d)", fmt.Sprint(runs[i]), len(got[i]), len(want[i]))
		}
	}
}
