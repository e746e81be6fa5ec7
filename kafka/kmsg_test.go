package kafka

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io/fs"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// kmsgDifferences are the APIs where franz-go's kmsg (v1.15.1) and a release's schema
// disagree, with the reason. For them the cross-check runs at the highest version both
// know; the test fails if an API listed here turns out to match, so the table stays true.
var kmsgDifferences = map[string]map[string]string{
	"3.6": {
		"ConsumerGroupHeartbeat": "an unstable early-access v0 in 3.6 (KIP-848: SubscribedTopicRegex, ClientAssignors, ShouldComputeAssignment); kmsg follows the released v0",
		"StopReplica":            stopReplicaKRaft,
	},
	"3.9": {
		"ReadShareGroupStateSummary": shareSummaryV0,
		"StopReplica":                stopReplicaKRaft,
	},
	"4.0": {
		"ReadShareGroupStateSummary": shareSummaryV0,
	},
	"4.1": {
		"InitProducerId": "kmsg v1.15.1 knows InitProducerId up to v5; 4.1 adds v6 (KIP-939)",
	},
}

// kmsgAgrees names, for an API in kmsgDifferences, the side that kmsg and the schema still
// agree on at the highest version ("request" or "response"); the test asserts it byte for byte.
var kmsgAgrees = map[string]map[string]string{
	"3.6": {"StopReplica": "response"},
	"3.9": {"ReadShareGroupStateSummary": "request", "StopReplica": "response"},
	"4.0": {"ReadShareGroupStateSummary": "request"},
}

// kmsgCheck encodes api's example at version v and checks the request frame and response
// body byte for byte against kmsg's encoding of what kmsg decoded from them, and every record
// batch against kmsg.RecordBatch and kmsg.Record.
const stopReplicaKRaft = "kmsg writes isKRaftController (v4+) after ControllerEpoch; the schema puts it before"

const shareSummaryV0 = "an unstable v0 in 3.9/4.0; kmsg follows the later v0 that added LeaderEpoch to PartitionResult"

func kmsgCheck(c *Catalog, api *API, v int16) error {
	req, resp := kmsgSides(c, api, v)
	if req != nil {
		return req
	}
	return resp
}

// kmsgSides checks the request and the response separately.
func kmsgSides(c *Catalog, api *API, v int16) (reqErr, respErr error) {
	errs := [2]error{}
	for i, resp := range []bool{false, true} {
		errs[i] = kmsgSide(c, api, v, resp)
	}
	return errs[0], errs[1]
}

func kmsgSide(c *Catalog, api *API, v int16, resp bool) error {
	{
		var data []byte
		if b, err := fsReadExample(api); err == nil {
			data = b
		}
		body, _, err := Example(api, resp, v, api.Name+".yaml", data)
		if err != nil {
			return err
		}
		f, err := c.Encode(Message{API: api, Response: resp, Version: v, CorrelationID: CorrelationID, ClientID: exampleClientID, Body: body})
		if err != nil {
			return err
		}
		if err := kmsgFrame(f); err != nil {
			return err
		}
		return kmsgBatches(f)
	}
}

func kmsgFrame(f *Frame) error {
	bodyNode := f.Root.Children[len(f.Root.Children)-1]
	if bodyNode.Kind != KindBody {
		return fmt.Errorf("%s: last child is %s", f.BaseName(), bodyNode.Kind)
	}
	body := f.Bytes[bodyNode.Offset:]
	if !f.Response {
		req := kmsg.RequestForKey(f.API.Key)
		if req == nil {
			return fmt.Errorf("kmsg has no request for key %d", f.API.Key)
		}
		if req.MaxVersion() < f.Version {
			return fmt.Errorf("kmsg knows %s up to v%d", f.API.Name, req.MaxVersion())
		}
		req.SetVersion(f.Version)
		if err := req.ReadFrom(body); err != nil {
			return fmt.Errorf("%s: kmsg read: %v", f.BaseName(), err)
		}
		got := kmsg.NewRequestFormatter(kmsg.FormatterClientID(exampleClientID)).AppendRequest(nil, req, f.CorrelationID)
		if !bytes.Equal(got, f.Bytes) {
			return fmt.Errorf("%s: kmsg frame differs at byte %d\n ours % x\n kmsg % x", f.BaseName(), firstDiff(got, f.Bytes), f.Bytes, got)
		}
		return nil
	}
	resp := kmsg.ResponseForKey(f.API.Key)
	if resp == nil {
		return fmt.Errorf("kmsg has no response for key %d", f.API.Key)
	}
	// Response header: correlation id, then (header v1) an empty tag section.
	hdr := binary.BigEndian.AppendUint32(nil, uint32(len(f.Bytes)-4))
	hdr = binary.BigEndian.AppendUint32(hdr, uint32(f.CorrelationID))
	if f.HeaderVersion == 1 {
		hdr = append(hdr, 0)
	}
	if !bytes.Equal(f.Bytes[:bodyNode.Offset], hdr) {
		return fmt.Errorf("%s: response header % x, want % x", f.BaseName(), f.Bytes[:bodyNode.Offset], hdr)
	}
	resp.SetVersion(f.Version)
	if err := resp.ReadFrom(body); err != nil {
		return fmt.Errorf("%s: kmsg read: %v", f.BaseName(), err)
	}
	got := resp.AppendTo(nil)
	if !bytes.Equal(got, body) {
		return fmt.Errorf("%s: kmsg body differs at byte %d\n ours % x\n kmsg % x", f.BaseName(), firstDiff(got, body), body, got)
	}
	return nil
}

func kmsgBatches(f *Frame) error {
	var err error
	f.Root.Walk(func(n *Node) bool {
		if n.WireType != "record_batch" || err != nil {
			return true
		}
		raw := f.Bytes[n.Offset : n.Offset+n.Length]
		var b kmsg.RecordBatch
		if e := b.ReadFrom(raw); e != nil {
			err = fmt.Errorf("%s: %s: kmsg.RecordBatch: %v", f.BaseName(), n.Path, e)
			return false
		}
		if got := b.AppendTo(nil); !bytes.Equal(got, raw) {
			err = fmt.Errorf("%s: %s: kmsg batch re-encodes differently", f.BaseName(), n.Path)
			return false
		}
		if int(b.NumRecords) != 1 || b.Magic != 2 || uint32(b.CRC) != CRC32C(raw[21:]) {
			err = fmt.Errorf("%s: %s: kmsg batch: %d records, magic %d, crc %x", f.BaseName(), n.Path, b.NumRecords, b.Magic, b.CRC)
			return false
		}
		var r kmsg.Record
		if e := r.ReadFrom(b.Records); e != nil {
			err = fmt.Errorf("%s: %s: kmsg.Record: %v", f.BaseName(), n.Path, e)
			return false
		}
		want := exampleBatch(story()).Records[0]
		if b.Attributes&attrControl != 0 {
			want = storedBatches(story())[1].Records[0]
		}
		if string(r.Key) != string(want.Key) || string(r.Value) != string(want.Value) || len(r.Headers) != len(want.Headers) ||
			(len(want.Headers) == 1 && (r.Headers[0].Key != want.Headers[0].Key || string(r.Headers[0].Value) != string(want.Headers[0].Value))) ||
			int(r.Length) != len(b.Records)-1 {
			err = fmt.Errorf("%s: %s: kmsg record %+v", f.BaseName(), n.Path, r)
		}
		return false
	})
	return err
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func fsReadExample(api *API) ([]byte, error) {
	return fs.ReadFile(builtinExamples(), api.Name+".yaml")
}

// TestKmsgCrossCheck checks every example frame against kmsg, the independent model of the
// protocol in franz-go: kmsg decodes our body and re-encodes it to the same bytes (for
// requests, the whole frame with its header), and it parses our record batches.
func TestKmsgCrossCheck(t *testing.T) {
	for _, rel := range testReleases(t) {
		t.Run(rel, func(t *testing.T) {
			c := testCatalog(t, rel)
			known := kmsgDifferences[rel]
			checked := 0
			for _, api := range c.APIs {
				err := kmsgCheck(c, api, api.Version)
				reason, listed := known[api.Name]
				switch {
				case err == nil && listed:
					t.Errorf("%s v%d matches kmsg, but the table of differences says: %s", api.Name, api.Version, reason)
				case err == nil:
					checked++
				case !listed:
					t.Errorf("%s v%d: %v", api.Name, api.Version, err)
				default:
					t.Logf("%s v%d differs from kmsg (%s): %v", api.Name, api.Version, reason, err)
					reqErr, respErr := kmsgSides(c, api, api.Version)
					switch kmsgAgrees[rel][api.Name] {
					case "request":
						if reqErr != nil {
							t.Errorf("%s v%d: the requests should agree: %v", api.Name, api.Version, reqErr)
						}
					case "response":
						if respErr != nil {
							t.Errorf("%s v%d: the responses should agree: %v", api.Name, api.Version, respErr)
						}
					}
					// Check what both agree on: the highest version kmsg knows, when valid here.
					req := kmsg.RequestForKey(api.Key)
					if req == nil {
						t.Logf("%s: kmsg lacks the API: nothing to compare", api.Name)
						continue
					}
					v := min(req.MaxVersion(), api.Version)
					if v == api.Version || !api.Request.ValidIn(v) {
						t.Logf("%s: no common version to compare", api.Name)
						continue
					}
					if err := kmsgCheck(c, api, v); err != nil {
						t.Errorf("%s v%d (the highest kmsg knows): %v", api.Name, v, err)
					} else {
						t.Logf("%s v%d (the highest kmsg knows) matches kmsg", api.Name, v)
					}
				}
			}
			t.Logf("%s: %d of %d APIs match kmsg byte for byte at their highest version", rel, checked, len(c.APIs))
		})
	}
}
