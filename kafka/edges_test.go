package kafka

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestEdgeCases verifies every edge-case frame of every release as the examples are: our strict
// round trip (decode, then encode the values again, gives the same bytes) and kmsg (it reads
// the body and writes it back byte for byte; a request frame whole). The tagged-fields case
// must show its unknown header tag as a node and re-encode without it.
func TestEdgeCases(t *testing.T) {
	for _, rel := range testReleases(t) {
		c := testCatalog(t, rel)
		cases, err := c.EdgeCases()
		if err != nil {
			t.Fatalf("Kafka %s: %v", rel, err)
		}
		names := map[string]bool{}
		for _, e := range cases {
			for _, f := range []*Frame{e.Request, e.Response} {
				if f == nil {
					continue
				}
				name := e.BaseName(f)
				names[name] = true
				if err := edgeRoundTrip(c, e, f); err != nil {
					t.Errorf("Kafka %s %s: %v", rel, name, err)
				}
				if err := kmsgBody(f); err != nil {
					t.Errorf("Kafka %s %s: %v", rel, name, err)
				}
			}
		}
		if rel == "4.1" {
			for _, want := range []string{
				"18-ApiVersions-v0-response-unsupported-version", "1-Fetch-v18-response-tagged-fields",
				"1-Fetch-v18-request-follower", "0-Produce-v13-response-not-leader", "0-Produce-v13-request-unknown-topic",
				"0-Produce-v13-response-unknown-topic", "3-Metadata-v13-response-unknown-topic", "3-Metadata-v13-request-all-topics",
				"3-Metadata-v13-request-no-topics", "11-JoinGroup-v9-request-null-and-empty-string", "19-CreateTopics-v7-response-config-error",
			} {
				if !names[want] {
					t.Errorf("Kafka 4.1: no edge case %s", want)
				}
			}
		}
		t.Logf("Kafka %s: %d edge cases, %d frames", rel, len(cases), len(names))
	}
}

// TestEdgeCaseBytes pins the bytes that make each case what it is, in Kafka 4.1.
func TestEdgeCaseBytes(t *testing.T) {
	c := testCatalog(t, "4.1")
	cases, err := c.EdgeCases()
	if err != nil {
		t.Fatal(err)
	}
	find := func(name string, resp bool) *Frame {
		for _, e := range cases {
			f := e.Request
			if resp {
				f = e.Response
			}
			if f != nil && e.Name == name {
				return f
			}
		}
		t.Fatalf("no edge case %s", name)
		return nil
	}
	// ApiVersions v0: size, correlation id (header v0: no tag section), error 35, one API key.
	av := find("unsupported-version", true)
	if want := []byte{0, 0, 0, 16, 0, 0, 0, 7, 0, 35, 0, 0, 0, 1, 0, 18, 0, 0, 0, 4}; !bytes.Equal(av.Bytes, want) {
		t.Errorf("ApiVersions fallback:\n got % x\nwant % x", av.Bytes, want)
	}
	if av.HeaderVersion != 0 || ErrorName(int16(av.Body["ErrorCode"].(int64))) != "UNSUPPORTED_VERSION" {
		t.Errorf("ApiVersions fallback: header v%d, %v", av.HeaderVersion, av.Body["ErrorCode"])
	}
	// Null and empty compact arrays and strings.
	if b := find("all-topics", false).Bytes; b[len(b)-4] != 0 {
		t.Errorf("all topics: Topics length byte %#x, want 0 (null)", b[len(b)-4])
	}
	if b := find("no-topics", false).Bytes; b[len(b)-4] != 1 {
		t.Errorf("no topics: Topics length byte %#x, want 1 (empty)", b[len(b)-4])
	}
	jg := find("null-and-empty-string", false)
	for path, want := range map[string]string{"GroupInstanceId": "null", "Reason": `""`} {
		n := jg.Root.Find(path)
		if n == nil || n.Value != want {
			t.Errorf("JoinGroup %s: %+v", path, n)
		}
	}
	// The unknown header tag shows as a node of the header.
	ft := find("tagged-fields", true)
	if !bytes.Equal(ft.Bytes[8:8+len(headerTag)], headerTag) {
		t.Errorf("tagged fields: header tags % x", ft.Bytes[8:8+len(headerTag)])
	}
	unknown := 0
	ft.Root.Walk(func(n *Node) bool {
		if n.Kind == KindTagKey && n.Offset == 9 {
			unknown++
		}
		return true
	})
	if unknown != 1 {
		t.Errorf("tagged fields: %d tag nodes at the header's offset 9", unknown)
	}
}

// edgeRoundTrip decodes a frame and encodes its values again: the same bytes, except that the
// unknown header tag (which values do not keep) is gone.
func edgeRoundTrip(c *Catalog, e EdgeCase, f *Frame) error {
	g, err := c.Decode(f.Bytes, DecodeOptions{Response: f.Response, API: f.API, Version: f.Version})
	if err != nil {
		return fmt.Errorf("decode: %w", err)
	}
	h, err := c.Encode(Message{API: f.API, Response: f.Response, Version: f.Version, CorrelationID: g.CorrelationID, ClientID: exampleClientID, Body: g.Body})
	if err != nil {
		return fmt.Errorf("encode: %w", err)
	}
	want := f.Bytes
	if f.Response && f.HeaderVersion == 1 && bytes.HasPrefix(f.Bytes[8:], headerTag) {
		want = append(append(append([]byte{}, f.Bytes[:8]...), 0), f.Bytes[8+len(headerTag):]...)
		want[3] -= byte(len(headerTag) - 1)
	}
	if !bytes.Equal(h.Bytes, want) {
		return fmt.Errorf("re-encoded differs at byte %d", firstDiff(h.Bytes, want))
	}
	return nil
}

// kmsgBody checks a frame's body against kmsg: read and written back, the same bytes.
func kmsgBody(f *Frame) error {
	if !f.Response {
		return kmsgFrame(f)
	}
	bodyNode := f.Root.Children[len(f.Root.Children)-1]
	body := f.Bytes[bodyNode.Offset:]
	resp := kmsg.ResponseForKey(f.API.Key)
	if resp == nil || resp.MaxVersion() < f.Version {
		return fmt.Errorf("kmsg does not know %s v%d", f.API.Name, f.Version)
	}
	resp.SetVersion(f.Version)
	if err := resp.ReadFrom(body); err != nil {
		return fmt.Errorf("kmsg read: %v", err)
	}
	if got := resp.AppendTo(nil); !bytes.Equal(got, body) {
		return fmt.Errorf("kmsg body differs at byte %d\n ours % x\n kmsg % x", firstDiff(got, body), body, got)
	}
	return nil
}
