package kafka

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"testing"
)

// FuzzDecode decodes arbitrary bytes as a request, and as the response of the API the first
// byte picks. Decoding must not panic; a failure is an *Error with an offset inside the input;
// a success re-encodes to the same bytes.
func FuzzDecode(f *testing.F) {
	c := testCatalog(f, "4.0")
	for i, fr := range frames(testVectors(f, "4.0")) {
		sel := byte(0)
		if fr.Response {
			sel = byte(i / 2)
		}
		f.Add(sel, fr.Response, fr.Bytes)
		if fr.Response && (fr.API.Key == KeyEnvelope || fr.API.Key == KeyApiVersions) {
			f.Add(sel|128, true, fr.Bytes)
		}
	}
	// And the frames with compressed batches, of every codec.
	for codec := CodecGzip; codec <= CodecZstd; codec++ {
		vs, err := c.Vectors(VectorOptions{Compression: codec})
		if err != nil {
			f.Fatal(err)
		}
		for i, fr := range frames(vs) {
			if recordsCompressedPath(fr) != "" {
				f.Add(byte(i/2), fr.Response, fr.Bytes)
			}
		}
	}
	// And legacy message sets with a compressed wrapper.
	api, _ := c.Lookup("Produce")
	for _, codec := range []Codec{CodecGzip, CodecSnappy, CodecLZ4} {
		fr, err := c.Encode(Message{API: api, Version: api.Version, CorrelationID: 7, ClientID: exampleClientID, Body: legacyBody(codec)})
		if err != nil {
			f.Fatal(err)
		}
		f.Add(byte(0), false, fr.Bytes)
	}
	// And records fields of every format mixed, and cut short (TestRecordsEntryByEntry's).
	b0, m1, m0 := kmsgBatch(0, "alpha", "a"), kmsgV1(1, "beta", "b"), kmsgV0(2, "gamma", "c")
	fetch, _ := c.Lookup("Fetch")
	for _, rec := range [][]byte{cat(b0, m1, m0), cat(m1, m0[:20]), cat(b0, b0[:7])} {
		f.Add(byte(slices.Index(c.APIs, fetch)), true, fetchV4(rec))
	}
	// A response with sel's high bit set is read as the answer to its API's example request
	// (DecodeOptions.Request): the KIP-511 fallback and an Envelope's nested response.
	reqs := map[*API]*Frame{}
	for _, v := range testVectors(f, "4.0") {
		reqs[v.API] = v.Request
	}
	f.Fuzz(func(t *testing.T, sel byte, response bool, data []byte) {
		o := DecodeOptions{Response: response, MaxDecompressed: 1 << 20}
		if response {
			api := c.APIs[int(sel&127)%len(c.APIs)]
			o.API, o.Version = api, api.Version
			if sel&128 != 0 {
				o.API, o.Request = nil, reqs[api]
			}
		}
		g, err := c.Decode(data, o)
		// The JSON of whatever was decoded, whole or partial, is encoding/json's.
		if g != nil {
			m, merr := json.Marshal(oracleJSON(g))
			js, werr := g.MarshalJSON()
			if werr != nil || merr != nil || !bytes.Equal(js, m) {
				t.Fatalf("MarshalJSON differs from encoding/json's (%v, %v)", werr, merr)
			}
		}
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Offset < 0 || e.Offset > len(data) {
				t.Fatalf("error %v", err)
			}
			if g == nil || g.Root == nil {
				t.Fatal("no partial frame")
			}
			return
		}
		if err := checkTiling(g); err != nil {
			t.Fatal(err)
		}
		h, err := c.Encode(Message{API: g.API, Response: g.Response, Version: g.Version, CorrelationID: g.CorrelationID,
			ClientID: clientID(g), Body: g.Body})
		if err != nil {
			t.Fatalf("re-encode: %v", err)
		}
		if !bytes.Equal(h.Bytes, data) {
			// The bytes may differ where the frame says more than the values keep: a tag the
			// schema does not know, a tagged field written with its default value, a null
			// client id. The values must survive.
			g2, err := c.Decode(h.Bytes, o)
			if err != nil {
				t.Fatalf("decoding the re-encoded frame: %v", err)
			}
			if !equalValue(g.Body, g2.Body) {
				t.Fatalf("values differ after re-encoding:\n% x\n% x", data, h.Bytes)
			}
		}
	})
}

func clientID(f *Frame) string {
	s, _ := f.Header["ClientId"].(string)
	return s
}

// FuzzExampleYAML merges arbitrary YAML over the Produce and ApiVersions examples. It must not
// panic; when the YAML is accepted, the example must encode and decode back to itself.
func FuzzExampleYAML(f *testing.F) {
	c := testCatalog(f, "4.0")
	for _, name := range []string{"Produce", "ApiVersions", "Fetch", "Metadata", "JoinGroup", "FetchSnapshot"} {
		data, err := builtinExamples().Open(name + ".yaml")
		if err == nil {
			var b bytes.Buffer
			b.ReadFrom(data)
			data.Close()
			f.Add(name == "Produce", b.Bytes())
		}
	}
	f.Add(true, []byte("request:\n  Acks: 1\n  TopicData:\n    - Name: x\n      PartitionData: []\n"))
	f.Add(false, []byte("response:\n  SupportedFeatures: null\n  FinalizedFeaturesEpoch: 0x10\n"))
	produce, _ := c.Lookup("Produce")
	apiVersions, _ := c.Lookup("ApiVersions")
	f.Fuzz(func(t *testing.T, isProduce bool, data []byte) {
		api := apiVersions
		if isProduce {
			api = produce
		}
		for _, resp := range []bool{false, true} {
			body, _, err := Example(api, resp, api.Version, "fuzz.yaml", data)
			if err != nil {
				continue
			}
			fr, err := c.Encode(Message{API: api, Response: resp, Version: api.Version, Body: body})
			if err != nil {
				// Values the YAML accepts must encode.
				t.Fatalf("encode: %v", err)
			}
			g, err := c.Decode(fr.Bytes, DecodeOptions{Response: resp, API: api, Version: api.Version})
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if d := diffTrees(fr.Root, g.Root); d != "" {
				t.Fatalf("trees differ: %s", d)
			}
		}
	})
}
