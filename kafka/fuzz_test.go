package kafka

import (
	"bytes"
	"errors"
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
	}
	f.Fuzz(func(t *testing.T, sel byte, response bool, data []byte) {
		o := DecodeOptions{Response: response}
		if response {
			api := c.APIs[int(sel)%len(c.APIs)]
			o.API, o.Version = api, api.Version
		}
		g, err := c.Decode(data, o)
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
