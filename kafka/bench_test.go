package kafka

import (
	"bytes"
	"runtime"
	"testing"
)

// BenchmarkEncodeAll encodes and annotates the 168 example frames of 4.0 (values prepared
// beforehand: this measures the walker, not the example generation).
func BenchmarkEncodeAll(b *testing.B) {
	c := testCatalog(b, "4.0")
	var msgs []Message
	for _, f := range frames(testVectors(b, "4.0")) {
		msgs = append(msgs, Message{API: f.API, Response: f.Response, Version: f.Version, CorrelationID: f.CorrelationID,
			ClientID: exampleClientID, Body: f.Body})
	}
	runtime.GC()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		enc := c.NewEncoder()
		for _, m := range msgs {
			if _, err := enc.Encode(m); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkDecodeAll decodes the 168 example frames of 4.0 into annotated trees.
func BenchmarkDecodeAll(b *testing.B) {
	c := testCatalog(b, "4.0")
	// Keep only the inputs: holding the encoded trees too would make every GC cycle of the
	// benchmark mark them.
	type input struct {
		data []byte
		o    DecodeOptions
	}
	var in []input
	for _, f := range frames(testVectors(b, "4.0")) {
		in = append(in, input{bytes.Clone(f.Bytes), DecodeOptions{Response: f.Response, API: f.API, Version: f.Version}})
	}
	runtime.GC()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		dec := c.NewDecoder()
		for _, x := range in {
			if _, err := dec.Decode(x.data, x.o); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkVectors builds every example of 4.0 from scratch: generation, YAML, encoding.
func BenchmarkVectors(b *testing.B) {
	c := testCatalog(b, "4.0")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Vectors(VectorOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
