package main

import (
	"bytes"
	"encoding/json"
	"net/netip"
	"path/filepath"
	"testing"

	"github.com/kafkagrid/kafkagrid/capture"
	"github.com/kafkagrid/kafkagrid/capture/capturetest"
	"github.com/kafkagrid/kafkagrid/kafka"
)

// TestDecodeJSONStreamedConns: the JSON of a capture of several connections (one with no
// Kafka in it), written exchange by exchange, is byte for byte what json.Encoder writes of the
// whole.
func TestDecodeJSONStreamedConns(t *testing.T) {
	cat, err := kafka.LoadCatalog(filepath.Join(listSchemaRoot(t), "4.0"))
	if err != nil {
		t.Fatal(err)
	}
	vs, err := cat.Vectors(kafka.VectorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ends := []capturetest.Endpoints{
		{Client: netip.MustParseAddrPort("10.0.0.1:40000"), Server: netip.MustParseAddrPort("10.0.0.9:9092")},
		{Client: netip.MustParseAddrPort("10.0.0.2:40000"), Server: netip.MustParseAddrPort("10.0.0.9:9092")},
		{Client: netip.MustParseAddrPort("10.0.0.3:40000"), Server: netip.MustParseAddrPort("10.0.0.9:9092")},
	}
	var chunks []capturetest.Chunk
	for i, v := range vs[:6] {
		chunks = append(chunks, capturetest.Chunk{Conn: i % 2, FromClient: true, Data: v.Request.Bytes},
			capturetest.Chunk{Conn: i % 2, Data: v.Response.Bytes})
	}
	chunks = append(chunks, capturetest.Chunk{Conn: 2, FromClient: true, Data: []byte("GET / HTTP/1.1\r\n\r\n")})
	var pc bytes.Buffer
	if err := capturetest.Write(&pc, ends, chunks, capturetest.Options{}); err != nil {
		t.Fatal(err)
	}
	r, err := capture.Read(cat, pc.Bytes(), capture.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Conns) != 3 {
		t.Fatalf("%d connections", len(r.Conns))
	}
	for _, res := range []*capture.Result{r, {Kind: capture.KindPcap}} {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetIndent("", "  ")
		if err := enc.Encode(jsonResult(res, func(f *kafka.Frame) any { return f })); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := writeJSONResult(&got, res); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			i := 0
			for i < min(got.Len(), want.Len()) && got.Bytes()[i] == want.Bytes()[i] {
				i++
			}
			t.Fatalf("differs at byte %d:\n got …%q\nwant …%q", i, got.Bytes()[max(0, i-60):min(got.Len(), i+60)], want.Bytes()[max(0, i-60):min(want.Len(), i+60)])
		}
	}
}
