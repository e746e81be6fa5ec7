package kafka

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io/fs"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/schemas"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// kmsgDifferences are the API versions where franz-go's kmsg (v1.15.1) and a release's schema
// disagree, with the reason, keyed "API vN". Each names the form of the schema that differs
// (in), not the releases that have it, so that a release the table has never seen with that
// form is covered too (3.5's early ConsumerGroupHeartbeat v0 is 3.6's); in nil is every
// release with the version. For them the test asserts the side both still agree on (agrees),
// and fails if such a version turns out to match, so the table stays true. Versions above the
// highest kmsg knows are not listed: the test finds and names them itself, and they rest on
// our strict round trip (TestFramesTileAndRoundTrip).
var kmsgDifferences = map[string]kmsgDiff{
	"ControlledShutdown v0": {
		reason: "kmsg's RequestFormatter writes ControlledShutdown v0 as a bare header (request header v0, no size, no body); the schema's body has BrokerId",
		agrees: "response",
	},
	"StopReplica v4": {reason: stopReplicaKRaft, agrees: "response",
		in: func(a *API) bool { return specHas(a.Request, "IsKRaftController", 4) }},
	"ConsumerGroupHeartbeat v0": {
		reason: "an unstable early-access v0 (3.5, 3.6; KIP-848: SubscribedTopicRegex, ClientAssignors, ShouldComputeAssignment); kmsg follows the released v0",
		in:     func(a *API) bool { return specHas(a.Request, "ClientAssignors", 0) }},
	"ReadShareGroupStateSummary v0": {reason: shareSummaryV0, agrees: "request",
		in: func(a *API) bool { return !specHas(a.Response, "LeaderEpoch", 0) }},
	"EndQuorumEpoch v0": {
		reason: "an early v0 (2.7, KIP-595) whose request has a top-level ReplicaId, gone in 2.8's v0; kmsg follows the later v0",
		agrees: "response",
		in:     func(a *API) bool { return specHas(a.Request, "ReplicaId", 0) }},
	"ConsumerGroupDescribe v0": {
		reason: "an unstable early v0 (3.7, KIP-848) whose response's Assignment has Error, MetadataVersion and MetadataBytes, gone in 3.8's v0; kmsg follows the later v0",
		agrees: "request",
		in:     func(a *API) bool { return specHas(a.Response, "MetadataBytes", 0) }},
}

// kmsgDiff is a listed difference with kmsg: why, the side both agree on ("request",
// "response", or "" for none), and which forms of the schema have it.
type kmsgDiff struct {
	reason, agrees string
	in             func(a *API) bool // nil: every release with the version
}

// specHas reports whether the spec has a field of the name (at any depth) at version v.
func specHas(s *schemas.Spec, name string, v int16) bool {
	found := false
	if s != nil {
		s.Walk(func(f *schemas.Field) bool {
			found = f.Name == name && f.PresentIn(v)
			return !found
		})
	}
	return found
}

// kmsgDifference returns the listed difference of an API version, when the release's schema
// has the form that differs, and the side both agree on.
func kmsgDifference(api *API, key string) (reason, agrees string, listed bool) {
	d, ok := kmsgDifferences[key]
	if !ok || d.in != nil && !d.in(api) {
		return "", "", false
	}
	return d.reason, d.agrees, true
}

const stopReplicaKRaft = "kmsg writes isKRaftController (v4+) after ControllerEpoch; the schema puts it before"

// kmsgCheck encodes api's example at version v and checks the request frame and response
// body byte for byte against kmsg's encoding of what kmsg decoded from them, and every record
// batch against kmsg.RecordBatch and kmsg.Record.
const shareSummaryV0 = "an unstable v0 (3.9, 4.0) without PartitionResult.LeaderEpoch; kmsg follows the later v0 that added LeaderEpoch to PartitionResult"

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
		if n.WireType == "message" && err == nil {
			err = kmsgMessage(f, n)
			return false
		}
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

// kmsgMessage checks a legacy message against kmsg.MessageV0 or MessageV1: kmsg reads it,
// re-encodes it to the same bytes, and finds the example's key and value and our CRC.
func kmsgMessage(f *Frame, n *Node) error {
	raw := f.Bytes[n.Offset : n.Offset+n.Length]
	if len(raw) <= magicOffset {
		return fmt.Errorf("%s: %s: %d bytes", f.BaseName(), n.Path, len(raw))
	}
	want := exampleBatch(story()).Records[0]
	var key, value []byte
	var crc int32
	var again []byte
	switch raw[magicOffset] {
	case 0:
		var m kmsg.MessageV0
		if e := m.ReadFrom(raw); e != nil {
			return fmt.Errorf("%s: %s: kmsg.MessageV0: %v", f.BaseName(), n.Path, e)
		}
		key, value, crc, again = m.Key, m.Value, m.CRC, m.AppendTo(nil)
	case 1:
		var m kmsg.MessageV1
		if e := m.ReadFrom(raw); e != nil {
			return fmt.Errorf("%s: %s: kmsg.MessageV1: %v", f.BaseName(), n.Path, e)
		}
		if m.Timestamp != story().Clock {
			return fmt.Errorf("%s: %s: kmsg timestamp %d", f.BaseName(), n.Path, m.Timestamp)
		}
		key, value, crc, again = m.Key, m.Value, m.CRC, m.AppendTo(nil)
	default:
		return fmt.Errorf("%s: %s: magic %d", f.BaseName(), n.Path, raw[magicOffset])
	}
	if !bytes.Equal(again, raw) {
		return fmt.Errorf("%s: %s: kmsg message re-encodes differently", f.BaseName(), n.Path)
	}
	if string(key) != string(want.Key) || string(value) != string(want.Value) || uint32(crc) != crc32.ChecksumIEEE(raw[magicOffset:]) {
		return fmt.Errorf("%s: %s: kmsg message key %q value %q crc %x", f.BaseName(), n.Path, key, value, uint32(crc))
	}
	return nil
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

// kmsgMax is the highest version kmsg knows of an API, or -1 when it lacks the API.
func kmsgMax(key int16) int16 {
	req := kmsg.RequestForKey(key)
	if req == nil {
		return -1
	}
	return req.MaxVersion()
}

// TestKmsgCrossCheck checks every example frame of every version of every API of every release
// against kmsg, the independent model of the protocol in franz-go: kmsg decodes our body and
// re-encodes it to the same bytes (for requests, the whole frame with its header), and it parses
// our record batches. Versions kmsg does not know are named, as are the listed differences.
func TestKmsgCrossCheck(t *testing.T) {
	for _, rel := range dataReleases(t) {
		t.Run(rel, func(t *testing.T) {
			c := testCatalog(t, rel)
			checked, versions := 0, 0
			var beyond []string
			for _, api := range c.APIs {
				for v := api.Lowest; v <= api.Version; v++ {
					if !api.Request.ValidIn(v) {
						continue
					}
					versions++
					key := fmt.Sprintf("%s v%d", api.Name, v)
					if m := kmsgMax(api.Key); v > m {
						beyond = append(beyond, key)
						continue
					}
					err := kmsgCheck(c, api, v)
					reason, agrees, listed := kmsgDifference(api, key)
					switch {
					case err == nil && listed:
						t.Errorf("%s matches kmsg, but the table of differences says: %s", key, reason)
					case err == nil:
						checked++
					case !listed:
						t.Errorf("%s: %v", key, err)
					default:
						t.Logf("%s differs from kmsg (%s): %.300v", key, reason, err)
						reqErr, respErr := kmsgSides(c, api, v)
						switch agrees {
						case "request":
							if reqErr != nil {
								t.Errorf("%s: the requests should agree: %v", key, reqErr)
							}
						case "response":
							if respErr != nil {
								t.Errorf("%s: the responses should agree: %v", key, respErr)
							}
						}
					}
				}
			}
			if len(beyond) > 0 {
				t.Logf("Kafka %s: kmsg v1.15.1 does not know %d versions (checked by our strict round trip only): %s", rel, len(beyond), strings.Join(beyond, ", "))
			}
			t.Logf("Kafka %s: %d of %d versions of %d APIs match kmsg byte for byte", rel, checked, versions, len(c.APIs))
		})
	}
}
