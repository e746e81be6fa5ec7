package kafka

import (
	"errors"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
)

// TestDecodeResponse: a response is read at its request's version; an ApiVersions response a
// broker wrote in v0 because it does not speak the version asked is read at v0 with a note
// (KIP-511), by Catalog and Decoder alike; no other API is read twice.
func TestDecodeResponse(t *testing.T) {
	c, err := LoadCatalog(testenv.Release(t, "4.0"))
	if err != nil {
		t.Fatal(err)
	}
	av, _ := c.Lookup("ApiVersions")
	md, _ := c.Lookup("Metadata")
	enc := func(a *API, resp bool, v int16, body Values) *Frame {
		t.Helper()
		f, err := c.Encode(Message{API: a, Response: resp, Version: v, CorrelationID: 5, ClientID: "t", Body: body})
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	v0 := enc(av, true, 0, Values{"ErrorCode": int64(35), "ApiKeys": []any{
		Values{"ApiKey": int64(KeyApiVersions), "MinVersion": int64(0), "MaxVersion": int64(2)}}})
	v3 := enc(av, true, 3, Values{"ApiKeys": []any{}})
	mdResp := enc(md, true, 0, Values{})
	for _, tc := range []struct {
		name     string
		req      *Frame
		data     []byte
		version  int16
		note     string // "" for none
		err      string // "" for none
		twoReads bool
	}{
		{"fallback", enc(av, false, 3, Values{}), v0.Bytes, 0, "the broker answers ApiVersions v3 in v0: it does not speak v3 (KIP-511)", "", true},
		{"asked", enc(av, false, 3, Values{}), v3.Bytes, 3, "", "", false},
		{"v0-asked", enc(av, false, 0, Values{}), v0.Bytes, 0, "", "", false},
		{"not-v0-either", enc(av, false, 3, Values{}), []byte{0, 0, 0, 6, 0, 0, 0, 5, 0, 0}, 3, "", "ApiVersions v3 response", true},
		{"other-api", enc(md, false, 4, Values{}), mdResp.Bytes, 4, "", "Metadata v4 response", false},
		{"no-request", nil, v0.Bytes, 0, "", "needs the request frame", false},
	} {
		for _, side := range []string{"catalog", "decoder"} {
			t.Run(tc.name+"/"+side, func(t *testing.T) {
				var f *Frame
				var err error
				if side == "catalog" {
					f, err = c.DecodeResponse(tc.data, tc.req, DecodeOptions{})
				} else {
					f, err = c.NewDecoder().DecodeResponse(tc.data, tc.req, DecodeOptions{})
				}
				if tc.err != "" {
					if err == nil || !strings.Contains(err.Error(), tc.err) {
						t.Fatalf("err %v, want one with %q", err, tc.err)
					}
					var ke *Error
					if !errors.As(err, &ke) {
						t.Errorf("err %T, want a *kafka.Error", err)
					}
				} else if err != nil {
					t.Fatal(err)
				}
				if f == nil {
					t.Fatal("no frame")
				}
				if tc.err == "" && (f.Version != tc.version || f.Note != tc.note || !f.Response) {
					t.Errorf("version %d note %q response %v, want %d %q", f.Version, f.Note, f.Response, tc.version, tc.note)
				}
				if tc.req == nil {
					return
				}
				// Nodes counts both readings when there were two.
				one, _ := c.Decode(tc.data, DecodeOptions{Response: true, API: tc.req.API, Version: tc.req.Version})
				if tc.twoReads != (f.Nodes > one.Nodes) {
					t.Errorf("nodes %d, one reading at v%d has %d: two readings %v", f.Nodes, tc.req.Version, one.Nodes, tc.twoReads)
				}
			})
		}
	}
}

// TestDecodeResponseBudget: the second reading gets what the first left of MaxNodes; none left,
// no second reading.
func TestDecodeResponseBudget(t *testing.T) {
	c, err := LoadCatalog(testenv.Release(t, "4.0"))
	if err != nil {
		t.Fatal(err)
	}
	av, _ := c.Lookup("ApiVersions")
	req, err := c.Encode(Message{API: av, Version: 3, CorrelationID: 5, Body: Values{}})
	if err != nil {
		t.Fatal(err)
	}
	keys := []any{}
	for k := range int64(3) {
		keys = append(keys, Values{"ApiKey": k, "MinVersion": int64(0), "MaxVersion": int64(1)})
	}
	resp, err := c.Encode(Message{API: av, Response: true, Version: 0, CorrelationID: 5, Body: Values{"ErrorCode": int64(35), "ApiKeys": keys}})
	if err != nil {
		t.Fatal(err)
	}
	first, _ := c.Decode(resp.Bytes, DecodeOptions{Response: true, API: av, Version: 3})
	second, err := c.Decode(resp.Bytes, DecodeOptions{Response: true, API: av, Version: 0})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		max  int
		ok   bool
		want int
	}{
		{0, true, first.Nodes + second.Nodes},
		{first.Nodes + second.Nodes, true, first.Nodes + second.Nodes},
		{first.Nodes + 2, false, 0},
		{first.Nodes, false, first.Nodes},
	} {
		f, err := c.DecodeResponse(resp.Bytes, req, DecodeOptions{MaxNodes: tc.max})
		if (err == nil) != tc.ok {
			t.Errorf("MaxNodes %d: err %v, want ok %v", tc.max, err, tc.ok)
		}
		if tc.want > 0 && f.Nodes != tc.want {
			t.Errorf("MaxNodes %d: nodes %d, want %d", tc.max, f.Nodes, tc.want)
		}
	}
}
