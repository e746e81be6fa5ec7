package dissector

import (
	"bytes"
	"flag"
	"os"
	"testing"

	"github.com/kafkagrid/kafkagrid/capture/capturetest"
)

var clientOut = flag.String("clientcapture", "", "write the client capture TestTsharkClient reads (clientTraffic) to `FILE`, to decode or look at its report")

// TestWriteClientCapture writes the capture of clientTraffic (franz-go clients of five
// codecs against kfake, requests cut across 200-byte segments: about 160 frames) when
// -clientcapture names a file; the reader's measurements of a capture report use it
// (docs/site.md): go test ./dissector -run TestWriteClientCapture -clientcapture /tmp/client.pcapng
func TestWriteClientCapture(t *testing.T) {
	if *clientOut == "" {
		t.Skip("no -clientcapture FILE")
	}
	conns, chunks := clientTraffic(t)
	var buf bytes.Buffer
	if err := capturetest.Write(&buf, conns, chunks, capturetest.Options{NG: true, MSS: 200}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(*clientOut, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
