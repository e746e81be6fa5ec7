package kafka

import "testing"

// BenchmarkEncodeAll encodes and annotates the 168 example frames of 4.0 (values prepared
// beforehand: this measures the walker, not the example generation).
func BenchmarkEncodeAll(b *testing.B) {
	c := testCatalog(b, "4.0")
	var msgs []Message
	for _, f := range frames(testVectors(b, "4.0")) {
		msgs = append(msgs, Message{API: f.API, Response: f.Response, Version: f.Version, CorrelationID: f.CorrelationID,
			ClientID: exampleClientID, Body: f.Body})
	}
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
	fs := frames(testVectors(b, "4.0"))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, f := range fs {
			if _, err := c.Decode(f.Bytes, DecodeOptions{Response: f.Response, API: f.API, Version: f.Version}); err != nil {
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
