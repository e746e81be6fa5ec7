package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kafkagrid/kafkagrid/capture"
	"github.com/kafkagrid/kafkagrid/capture/capturetest"
	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site/report"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kversion"
)

// kfakeCapture records franz-go producing one batch of every codec through kfake and fetching
// them back, and returns the capture as pcapng (with retransmissions, reordering and a small
// MSS), and the number of codecs.
func kfakeCapture(t *testing.T) ([]byte, int) {
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
	ctx := t.Context() // no deadline of its own: a hang is the test's -timeout
	codecs := []kgo.CompressionCodec{kgo.GzipCompression(), kgo.SnappyCompression(), kgo.Lz4Compression(), kgo.ZstdCompression()}
	for i, codec := range codecs {
		cl, err := kgo.NewClient(kgo.SeedBrokers(cluster.ListenAddrs()...), kgo.Dialer(dial), kgo.MaxVersions(kversion.V4_0_0()),
			kgo.ProducerBatchCompression(codec), kgo.DefaultProduceTopic("orders"))
		if err != nil {
			t.Fatal(err)
		}
		v := fmt.Sprintf("codec-%d|%s", i, strings.Repeat("a compressible value ", 10))
		if err := cl.ProduceSync(ctx, &kgo.Record{Value: []byte(v)}).FirstErr(); err != nil {
			t.Fatal(err)
		}
		cl.Close()
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(cluster.ListenAddrs()...), kgo.Dialer(dial), kgo.MaxVersions(kversion.V4_0_0()),
		kgo.ConsumeTopics("orders"), kgo.FetchMaxWait(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < len(codecs); {
		fs := cl.PollFetches(ctx)
		if err := fs.Err0(); err != nil {
			t.Fatal(err)
		}
		n += fs.NumRecords()
	}
	cl.Close()
	conns, chunks := rec.Capture()
	var buf bytes.Buffer
	if err := capturetest.Write(&buf, conns, chunks, capturetest.Options{NG: true, MSS: 536, Retransmit: 9, Reorder: 4}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), len(codecs)
}

// TestDecodeKfakeCapture is the acceptance, as a user runs it: a capture of franz-go
// producing and fetching batches of every codec through kfake (recorded, written with pcapgo)
// decodes completely, and "kafkagrid decode capture.pcapng -o report/" writes the report.
func TestDecodeKfakeCapture(t *testing.T) {
	schemas := testenv.Release(t, "4.0")
	data, codecs := kfakeCapture(t)
	dir := t.TempDir()
	pcap := filepath.Join(dir, "capture.pcapng")
	os.WriteFile(pcap, data, 0o644)
	rep := filepath.Join(dir, "report")
	_, errs, code := runCmd(t, "decode", "-schemas", schemas, "-o", rep, pcap)
	m := regexp.MustCompile(`(\d+) frames \((\d+) decoded\)`).FindStringSubmatch(errs)
	if code != 0 || m == nil || m[1] != m[2] {
		t.Fatalf("exit %d: %s", code, errs)
	}
	html := reportHTML(t, rep)
	for _, want := range []string{"Produce v12 request", "Fetch v17 response", "decompressed with gzip", "decompressed with snappy",
		"decompressed with lz4", "decompressed with zstd", "all decoded"} {
		if !strings.Contains(string(html), want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if strings.Contains(string(html), "no response") {
		t.Error("an unpaired request in the report")
	}
	// decode -o streams the capture into the report (capture.Stream, report.Writer): its files
	// are those report.Write makes of the whole Result capture.Read keeps, but for each page's
	// "previous" link, which follows the order the exchanges completed in as they streamed
	// (a connection's exchanges interleave with the others'), not connection by connection.
	cat, err := kafka.LoadCatalog(schemas)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := capture.Read(cat, data, capture.Options{Name: pcap})
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	if err := report.Write("", whole, report.Options{Title: "kafkagrid decode " + pcap, Create: memCreate(files)}); err != nil {
		t.Fatal(err)
	}
	prev := regexp.MustCompile(`<a href="[^"]*" rel="prev">[^<]*</a>`)
	for rel, want := range files {
		got, err := os.ReadFile(filepath.Join(rep, filepath.FromSlash(rel)))
		if err != nil || prev.ReplaceAllString(string(got), "") != prev.ReplaceAllString(want, "") {
			t.Errorf("%s: the streamed report's differs from report.Write's of capture.Read (%v)", rel, err)
		}
	}
	if n := len(files); n < 3 {
		t.Errorf("report.Write made %d files", n)
	}
	// And the text: every value readable.
	out, _, code := runCmd(t, "decode", "-schemas", schemas, pcap)
	for i := range codecs {
		if c := strings.Count(out, fmt.Sprintf(`"codec-%d|`, i)); code != 0 || c < 2 {
			t.Errorf("codec-%d: %d values in the text (want the produced and the fetched)", i, c)
		}
	}
}

// reportHTML returns the pages of the report in dir: index.html, then every exchange's page.
func reportHTML(t *testing.T, dir string) string {
	t.Helper()
	pages, _ := filepath.Glob(filepath.Join(dir, "exchanges", "*.html"))
	var sb strings.Builder
	for _, p := range append([]string{filepath.Join(dir, "index.html")}, pages...) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		sb.Write(b)
	}
	return sb.String()
}
