package probe

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kafkagrid/kafkagrid/capture"
	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/twmb/franz-go/pkg/kfake"
)

// TestClient runs the client against franz-go's kfake broker, a Kafka-protocol server we did
// not write: ApiVersions, SASL (none, PLAIN, SCRAM-SHA-256 and -512), then the Metadata
// example; every response decodes, the exchanges pair by correlation id, and the secrets sent
// are redacted in what is recorded.
var (
	catOnce sync.Mutex
	cat40   *kafka.Catalog
)

// testCatalog is Kafka 4.0's catalogue, loaded once.
func testCatalog(t testing.TB) *kafka.Catalog {
	t.Helper()
	catOnce.Lock()
	defer catOnce.Unlock()
	if cat40 == nil {
		c, err := kafka.LoadCatalog(testenv.Release(t, "4.0"))
		if err != nil {
			t.Fatal(err)
		}
		cat40 = c
	}
	return cat40
}

func TestClient(t *testing.T) {
	cat := testCatalog(t)
	for _, tc := range []struct {
		name string
		mech string
		opts []kfake.Opt
	}{
		{"plain", "", nil},
		{"sasl-plain", "PLAIN", []kfake.Opt{kfake.EnableSASL(), kfake.Superuser("PLAIN", "admin", "s3cret")}},
		{"scram-256", "scram-sha-256", []kfake.Opt{kfake.EnableSASL(), kfake.Superuser("SCRAM-SHA-256", "admin", "s3cret")}},
		{"scram-512", "SCRAM-SHA-512", []kfake.Opt{kfake.EnableSASL(), kfake.Superuser("SCRAM-SHA-512", "admin", "s3cret")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kc, err := kfake.NewCluster(append([]kfake.Opt{kfake.NumBrokers(1), kfake.SeedTopics(1, "orders")}, tc.opts...)...)
			if err != nil {
				t.Fatal(err)
			}
			defer kc.Close()
			var seen []*capture.Exchange
			cl, err := Dial(t.Context(), cat, kc.ListenAddrs()[0], Options{OnExchange: func(e *capture.Exchange) error {
				seen = append(seen, e)
				return nil
			}})
			if err != nil {
				t.Fatal(err)
			}
			defer cl.Close()
			ranges, err := cl.Versions()
			if err != nil {
				t.Fatal(err)
			}
			if r, ok := ranges[kafka.KeyMetadata]; !ok || r[1] < 1 {
				t.Fatalf("Metadata range %v", r)
			}
			if tc.mech != "" {
				if err := cl.Authenticate(tc.mech, "admin", "s3cret"); err != nil {
					t.Fatal(err)
				}
				if len(cl.Redacted()) == 0 {
					t.Error("nothing redacted after SASL")
				}
			}
			md, _ := cat.Lookup("Metadata")
			v, ok, err := cl.Version(md)
			if err != nil || !ok {
				t.Fatalf("Metadata: version %d %v %v", v, ok, err)
			}
			e, err := cl.Send(md, v, nil)
			if err != nil {
				t.Fatal(err)
			}
			topics, _ := e.Response.Frame.Body["Topics"].([]any)
			if len(topics) != 1 || topics[0].(kafka.Values)["Name"] != "orders" {
				t.Errorf("Metadata topics %v", topics)
			}
			conn := cl.Conn()
			if !conn.Server.IsValid() || !conn.Client.IsValid() {
				t.Errorf("addresses %v → %v", conn.Client, conn.Server)
			}
			if len(seen) != len(conn.Exchanges) || len(seen) < 2 {
				t.Errorf("OnExchange saw %d exchanges, the connection has %d", len(seen), len(conn.Exchanges))
			}
			var off int64
			for i, e := range conn.Exchanges {
				if e.Response.Err != nil || e.Response.Frame.CorrelationID != int32(i+1) || e.Request.Frame.CorrelationID != int32(i+1) {
					t.Errorf("exchange %d: err %v, correlation ids %d %d", i, e.Response.Err, e.Request.Frame.CorrelationID, e.Response.Frame.CorrelationID)
				}
				if e.Request.Offset != off {
					t.Errorf("exchange %d: request at stream offset %d, want %d", i, e.Request.Offset, off)
				}
				off += int64(len(e.Request.Bytes))
				if strings.Contains(string(e.Request.Bytes), "s3cret") {
					t.Errorf("exchange %d: the password is in the recorded request", i)
				}
			}
		})
	}
	// A wrong password: the broker refuses, and the error names the API.
	kc, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.EnableSASL(), kfake.Superuser("SCRAM-SHA-256", "admin", "s3cret"))
	if err != nil {
		t.Fatal(err)
	}
	defer kc.Close()
	cl, err := Dial(t.Context(), cat, kc.ListenAddrs()[0], Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	if err := cl.Authenticate("SCRAM-SHA-256", "admin", "wrong"); err == nil || !strings.Contains(err.Error(), "SaslAuthenticate") {
		t.Errorf("wrong password: %v", err)
	}
	if err := cl.Authenticate("GSSAPI", "admin", "x"); err == nil || !strings.Contains(err.Error(), `mechanism "GSSAPI"`) {
		t.Errorf("GSSAPI: %v", err)
	}
}

// fakeBroker serves one connection on 127.0.0.1: for each request it reads, answer returns
// the response frame to write (nil: write nothing more, close); once closes the connection
// after the first answer.
func fakeBroker(t *testing.T, once bool, answer func(req *kafka.Frame) []byte) string {
	t.Helper()
	cat := testCatalog(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		for {
			var size [4]byte
			if _, err := io.ReadFull(c, size[:]); err != nil {
				return
			}
			buf := make([]byte, 4+binary.BigEndian.Uint32(size[:]))
			copy(buf, size[:])
			if _, err := io.ReadFull(c, buf[4:]); err != nil {
				return
			}
			req, err := cat.Decode(buf, kafka.DecodeOptions{})
			if err != nil {
				return
			}
			out := answer(req)
			if out == nil {
				return
			}
			c.Write(out)
			if once {
				return
			}
		}
	}()
	return ln.Addr().String()
}

// TestClientOldBroker: a broker that speaks ApiVersions v0-v2 answers the v4 request in v0
// with UNSUPPORTED_VERSION (KIP-511): the client reads it so, with a note, and asks again in v2.
func TestClientOldBroker(t *testing.T) {
	cat := testCatalog(t)
	av, _ := cat.Lookup("ApiVersions")
	var asked []int16
	addr := fakeBroker(t, false, func(req *kafka.Frame) []byte {
		asked = append(asked, req.Version)
		keys := []any{kafka.Values{"ApiKey": int64(kafka.KeyApiVersions), "MinVersion": int64(0), "MaxVersion": int64(2)},
			kafka.Values{"ApiKey": int64(kafka.KeyMetadata), "MinVersion": int64(0), "MaxVersion": int64(9)}}
		m := kafka.Message{API: av, Response: true, Version: req.Version, CorrelationID: req.CorrelationID,
			Body: kafka.Values{"ApiKeys": keys}}
		if req.Version > 2 {
			m.Version = 0
			m.Body["ErrorCode"] = int64(35)
		}
		f, err := cat.Encode(m)
		if err != nil {
			return nil
		}
		return f.Bytes
	})
	cl, err := Dial(t.Context(), cat, addr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ranges, err := cl.Versions()
	if err != nil {
		t.Fatal(err)
	}
	if ranges[kafka.KeyMetadata] != [2]int16{0, 9} {
		t.Errorf("ranges %v", ranges)
	}
	ex := cl.Conn().Exchanges
	if len(ex) != 2 || len(asked) != 2 || asked[0] != av.Version || asked[1] != 2 {
		t.Fatalf("%d exchanges, versions asked %v: want %d then 2", len(ex), asked, av.Version)
	}
	if f := ex[0].Response.Frame; f.Version != 0 || !strings.Contains(ex[0].Note, "KIP-511") {
		t.Errorf("first answer read at v%d, note %q", f.Version, ex[0].Note)
	}
	if f := ex[1].Response.Frame; f.Version != 2 || ex[1].Note != "" {
		t.Errorf("second answer read at v%d, note %q", f.Version, ex[1].Note)
	}
	md, _ := cat.Lookup("Metadata")
	if v, ok, err := cl.Version(md); v != 9 || !ok || err != nil {
		t.Errorf("Metadata: v%d %v %v, want v9", v, ok, err)
	}
	fc, _ := cat.Lookup("FindCoordinator")
	if _, ok, err := cl.Version(fc); ok || err != nil || !strings.Contains(strings.Join(cl.Conn().Notes, "\n"), "does not offer FindCoordinator") {
		t.Errorf("FindCoordinator: %v %v, notes %v", ok, err, cl.Conn().Notes)
	}
}

// TestClientBadBroker: a response size outside 4 to MaxFrame, a response that answers another
// correlation id, a broker that closes: errors (or a recorded error) that say what.
func TestClientBadBroker(t *testing.T) {
	cat := testCatalog(t)
	av, _ := cat.Lookup("ApiVersions")
	for _, tc := range []struct {
		name   string
		answer func(req *kafka.Frame) []byte
		err    string // of Send
		resp   string // of the recorded response
	}{
		{"size-0", func(*kafka.Frame) []byte { return []byte{0, 0, 0, 0} }, "response size 0 outside 4 to 4096", ""},
		{"too-large", func(*kafka.Frame) []byte { return []byte{0, 0, 0x10, 0x01} }, "response size 4097 outside 4 to 4096", ""},
		{"short", func(*kafka.Frame) []byte { return []byte{0, 0, 0, 100, 1, 2} }, "reading the 100-byte response", ""},
		{"closed", func(*kafka.Frame) []byte { return nil }, "reading the response", ""},
		{"other-correlation-id", func(req *kafka.Frame) []byte {
			f, _ := cat.Encode(kafka.Message{API: av, Response: true, Version: req.Version, CorrelationID: req.CorrelationID + 5, Body: kafka.Values{}})
			return f.Bytes
		}, "", "correlation id is 6, not the request's 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cl, err := Dial(t.Context(), cat, fakeBroker(t, true, tc.answer), Options{MaxFrame: 4096})
			if err != nil {
				t.Fatal(err)
			}
			defer cl.Close()
			e, err := cl.Send(av, av.Version, nil)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.HasPrefix(err.Error(), "capture: ") {
					t.Errorf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if e.Response.Err == nil || !strings.Contains(e.Response.Err.Error(), tc.resp) {
				t.Errorf("response err %v, want %q", e.Response.Err, tc.resp)
			}
		})
	}
}

// TestClientCancel: cancelling Dial's context interrupts a round trip waiting for a broker
// that never answers (the timeout is an hour: only the cancellation can end it).
func TestClientCancel(t *testing.T) {
	cat := testCatalog(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err == nil {
			defer c.Close()
			io.Copy(io.Discard, c)
		}
	}()
	ctx, cancel := context.WithCancel(t.Context())
	cl, err := Dial(ctx, cat, ln.Addr().String(), Options{Timeout: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	av, _ := cat.Lookup("ApiVersions")
	done := make(chan error)
	go func() {
		_, err := cl.Send(av, av.Version, nil)
		done <- err
	}()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("err %v", err)
	}
}
