package capture_test

import (
	"bytes"
	"fmt"
	"log"
	"net/netip"
	"os"
	"path/filepath"

	"github.com/kafkagrid/kafkagrid/capture"
	"github.com/kafkagrid/kafkagrid/capture/capturetest"
	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site/report"
)

func ExampleParseHex() {
	b, err := capture.ParseHex([]byte("00000000: 0000 000a 0012 0004 0000 0007  ............\n"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("% x\n", b)
	// Output: 00 00 00 0a 00 12 00 04 00 00 00 07
}

// ExampleRead decodes a capture of the Metadata example request and response on port 9092:
// the response is paired with its request, so its API and version are known.
func ExampleRead() {
	dir, err := testenv.ReleaseDir("4.0")
	if err != nil {
		log.Fatal(err)
	}
	cat, err := kafka.LoadCatalog(dir)
	if err != nil {
		log.Fatal(err)
	}
	vs, err := cat.Vectors(kafka.VectorOptions{})
	if err != nil {
		log.Fatal(err)
	}
	var chunks []capturetest.Chunk
	for _, v := range vs {
		if v.API.Name == "Metadata" {
			chunks = append(chunks, capturetest.Chunk{FromClient: true, Data: v.Request.Bytes}, capturetest.Chunk{Data: v.Response.Bytes})
		}
	}
	var pcap bytes.Buffer
	ends := []capturetest.Endpoints{{Client: netip.MustParseAddrPort("10.0.0.2:50000"), Server: netip.MustParseAddrPort("10.0.0.1:9092")}}
	if err := capturetest.Write(&pcap, ends, chunks, capturetest.Options{MSS: 40}); err != nil {
		log.Fatal(err)
	}
	r, err := capture.Read(cat, pcap.Bytes(), capture.Options{})
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range r.Conns {
		for _, e := range c.Exchanges {
			fmt.Println(c.Client, "→", c.Server, e.Request.Frame.BaseName(), "packet", e.Request.Packet)
			fmt.Println(c.Server, "→", c.Client, e.Response.Frame.BaseName(), "packet", e.Response.Packet)
		}
	}
	out, err := os.MkdirTemp("", "report")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(out)
	if err := report.Write(out, r, report.Options{}); err != nil {
		log.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(out, "frames", "*"))
	fmt.Println(len(files), "frame files and index.html")
	// Output:
	// 10.0.0.2:50000 → 10.0.0.1:9092 3-Metadata-v13-request packet 5
	// 10.0.0.1:9092 → 10.0.0.2:50000 3-Metadata-v13-response packet 10
	// 8 frame files and index.html
}

// ExampleStream decodes a capture as it reads it, one exchange at a time: the tree of each
// frame is dropped once printed, so that memory does not grow with the capture.
func ExampleStream() {
	dir, err := testenv.ReleaseDir("4.0")
	if err != nil {
		log.Fatal(err)
	}
	cat, err := kafka.LoadCatalog(dir)
	if err != nil {
		log.Fatal(err)
	}
	vs, err := cat.Vectors(kafka.VectorOptions{})
	if err != nil {
		log.Fatal(err)
	}
	var chunks []capturetest.Chunk
	for _, v := range vs {
		if v.API.Name == "Metadata" || v.API.Name == "ApiVersions" {
			chunks = append(chunks, capturetest.Chunk{FromClient: true, Data: v.Request.Bytes}, capturetest.Chunk{Data: v.Response.Bytes})
		}
	}
	var pcap bytes.Buffer
	ends := []capturetest.Endpoints{{Client: netip.MustParseAddrPort("10.0.0.2:50000"), Server: netip.MustParseAddrPort("10.0.0.1:9092")}}
	if err := capturetest.Write(&pcap, ends, chunks, capturetest.Options{MSS: 40}); err != nil {
		log.Fatal(err)
	}
	r, err := capture.Stream(cat, &pcap, capture.Options{}, func(c *capture.Conn, e *capture.Exchange) error {
		fmt.Printf("connection %d: %s (packet %d), %s (packet %d)\n", c.ID,
			e.Request.Frame.BaseName(), e.Request.Packet, e.Response.Frame.BaseName(), e.Response.Packet)
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(r.Kind, r.Packets, "packets,", len(r.Conns), "connection")
	// Output:
	// connection 1: 3-Metadata-v13-request (packet 5), 3-Metadata-v13-response (packet 10)
	// connection 1: 18-ApiVersions-v4-request (packet 12), 18-ApiVersions-v4-response (packet 15)
	// pcap 17 packets, 1 connection
}
