//go:build !race

package kafka

import "testing"

// TestAllocsPerFrame guards the allocation counts of BenchmarkEncodeAll and
// BenchmarkDecodeAll: an Encoder makes a frame in a handful of allocations (its Frame, its
// header Values), and a Decoder adds only what the values it returns need (a map per struct,
// a slice per array, boxed strings and large integers). Paths and display values come from
// the arena, nodes from slabs. (Not under the race detector, which allocates on its own.)
func TestAllocsPerFrame(t *testing.T) {
	c := testCatalog(t, "4.0")
	fs := frames(testVectors(t, "4.0"))
	msgs := make([]Message, len(fs))
	for i, f := range fs {
		msgs[i] = Message{API: f.API, Response: f.Response, Version: f.Version, CorrelationID: f.CorrelationID,
			ClientID: exampleClientID, Body: f.Body}
	}
	enc := testing.AllocsPerRun(5, func() {
		e := c.NewEncoder()
		for _, m := range msgs {
			if _, err := e.Encode(m); err != nil {
				t.Fatal(err)
			}
		}
	}) / float64(len(fs))
	dec := testing.AllocsPerRun(5, func() {
		d := c.NewDecoder()
		for _, f := range fs {
			if _, err := d.Decode(f.Bytes, DecodeOptions{Response: f.Response, API: f.API, Version: f.Version}); err != nil {
				t.Fatal(err)
			}
		}
	}) / float64(len(fs))
	t.Logf("%d frames: %.1f allocations per frame encoding, %.1f decoding", len(fs), enc, dec)
	if enc > 6 {
		t.Errorf("encoding: %.1f allocations per frame, want at most 6", enc)
	}
	if dec > 16 {
		t.Errorf("decoding: %.1f allocations per frame, want at most 16", dec)
	}
}
