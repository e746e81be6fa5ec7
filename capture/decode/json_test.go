package decode

import (
	"bytes"
	"encoding/json"
	"net/netip"
	"path/filepath"
	"testing"

	"github.com/kafkagrid/kafkagrid/capture"
	"github.com/kafkagrid/kafkagrid/capture/capturetest"
	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
)

// TestDecodeJSONStreamed: the JSON of several frames, each exchange's line written once with
// its frames node by node, is byte for byte what json.Marshal writes of it (and, -indent,
// json.MarshalIndent), and the summary last; text from the input stays text.
func TestDecodeJSONStreamed(t *testing.T) {
	cat, err := kafka.LoadCatalog(filepath.Join(testenv.Releases(t), "4.0"))
	if err != nil {
		t.Fatal(err)
	}
	vs, err := cat.Vectors(kafka.VectorOptions{Compression: kafka.CodecZstd})
	if err != nil {
		t.Fatal(err)
	}
	var data []byte
	for _, v := range vs[:12] {
		data = append(append(data, v.Request.Bytes...), v.Response.Bytes...)
	}
	data = append(data, vs[20].Request.Bytes[:30]...) // one cut short
	r, err := capture.Read(cat, data, capture.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r.Notes = append(r.Notes, "x\n      \"request\": \"\x00frame 0\"", "<b>&</b>")
	r.Conns[0].Exchanges[0].Note = "a note \u2028 with \"quotes\""
	for _, indent := range []bool{false, true} {
		var want bytes.Buffer
		for _, c := range r.Conns {
			for _, e := range c.Exchanges {
				v := jsonExchangeOf(c, e, func(f *kafka.Frame) any {
					for _, m := range []*capture.Message{e.Request, e.Response} {
						if m != nil && m.Frame == f && m.Err != nil {
							return frameWithError{f, m.Err}
						}
					}
					return f
				})
				var b []byte
				if indent {
					b, err = json.MarshalIndent(v, "", "  ")
				} else {
					b, err = json.Marshal(v)
				}
				if err != nil {
					t.Fatal(err)
				}
				want.Write(append(b, '\n'))
			}
		}
		var got bytes.Buffer
		if err := Write(&got, r, Format{JSON: true, Indent: indent}); err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(got.Bytes(), want.Bytes()) {
			i := 0
			for i < min(got.Len(), want.Len()) && got.Bytes()[i] == want.Bytes()[i] {
				i++
			}
			t.Fatalf("indent %v: differs at byte %d:\n got …%q\nwant …%q", indent, i, got.Bytes()[max(0, i-60):min(got.Len(), i+60)], want.Bytes()[max(0, i-60):min(want.Len(), i+60)])
		}
		var sum jsonSummary
		if err := json.Unmarshal(got.Bytes()[want.Len():], &sum); err != nil {
			t.Fatalf("indent %v: summary: %v", indent, err)
		}
		if sum.Kind != "frames" || sum.Frames != 25 || sum.Decoded != 24 || len(sum.Notes) != len(r.Notes) || sum.Notes[len(sum.Notes)-1] != "<b>&</b>" {
			t.Errorf("indent %v: summary %+v", indent, sum)
		}
		if n := bytes.Count(got.Bytes(), []byte("\n")); !indent && n != 13+1 {
			t.Errorf("%d lines, want 13 exchanges and the summary", n)
		}
	}
}

// TestDecodeJSONStreamedConns: the JSON of a capture of several connections (one with no
// Kafka in it), written exchange by exchange, is byte for byte what json.Encoder writes of the
// whole.
func TestDecodeJSONStreamedConns(t *testing.T) {
	cat, err := kafka.LoadCatalog(filepath.Join(testenv.Releases(t), "4.0"))
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
		all, ok := res.Frames()
		for _, c := range res.Conns {
			for _, e := range c.Exchanges {
				b, err := json.Marshal(jsonExchangeOf(c, e, func(f *kafka.Frame) any { return f }))
				if err != nil {
					t.Fatal(err)
				}
				want.Write(append(b, '\n'))
			}
		}
		if err := writeJSONSummary(&want, res, all, ok, false); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := Write(&got, res, Format{JSON: true}); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			i := 0
			for i < min(got.Len(), want.Len()) && got.Bytes()[i] == want.Bytes()[i] {
				i++
			}
			t.Fatalf("differs at byte %d:\n got …%q\nwant …%q", i, got.Bytes()[max(0, i-60):min(got.Len(), i+60)], want.Bytes()[max(0, i-60):min(want.Len(), i+60)])
		}
		for _, l := range bytes.Split(bytes.TrimSuffix(got.Bytes(), []byte("\n")), []byte("\n")) {
			if !json.Valid(l) {
				t.Fatalf("not a JSON line: %.200s", l)
			}
		}
	}
}

// frameWithError marshals a frame that failed as WriteJSONError writes it.
type frameWithError struct {
	f   *kafka.Frame
	err error
}

func (fe frameWithError) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	err := fe.f.WriteJSONError(&b, "", "", fe.err)
	return b.Bytes(), err
}
