// Package probe is the client half of "kafkagrid probe": a Client speaks Kafka to a broker
// (Dial: clear text or TLS; SASL PLAIN or SCRAM, Authenticate), asks which versions it speaks
// (Versions, KIP-511's retry included) and sends requests (Send: an API's example by default),
// recording what it sends and reads as package capture records a captured connection (a
// capture.Conn of exchanges), secrets redacted. It lives apart from capture so that a program
// that only reads captures (the browser decoder) links no network or TLS code.
package probe

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"os"
	"time"

	"github.com/kafkagrid/kafkagrid/capture"
	"github.com/kafkagrid/kafkagrid/kafka"
)

// Client is the client half of kafkagrid's probe: one connection to a Kafka broker, on which
// it sends requests and reads, decodes and records their responses as capture.Read records a
// captured connection (Conn: exchanges, stream offsets, times). What it records has its
// secrets replaced (kafka.Redact) once they are sent; Redacted lists them.
//
// A Client is not safe for concurrent use. Its input, the broker's bytes, is not trusted: a
// response's size is checked against Options.MaxFrame and its buffer grows with the
// bytes that arrive, not with the size announced.
type Client struct {
	cat      *kafka.Catalog
	conn     net.Conn
	o        Options
	ctx      context.Context // Dial's: cancelling it interrupts a round trip
	stop     func() bool     // ends the watch of ctx
	corr     int32
	c        *capture.Conn
	off      [2]int64 // stream offsets: requests, responses
	redacted []string
	versions map[int16][2]int16
}

// Options tune a Client. The zero value connects in clear text, waits 10 seconds at
// most for the connection and for each response, and accepts frames up to capture.DefaultMaxFrame.
type Options struct {
	// TLS, when set, is the configuration of a TLS connection; an empty ServerName is the
	// host of the address dialled.
	TLS *tls.Config
	// Timeout bounds connecting (and the TLS handshake) and each round trip; 0 means 10s.
	Timeout time.Duration
	// ClientID is the request header's client id; "" means "kafkagrid-probe".
	ClientID string
	// MaxFrame bounds a response's size; 0 means capture.DefaultMaxFrame (Kafka's default
	// socket.request.max.bytes).
	MaxFrame int
	// OnExchange, when set, is called with each exchange as it completes (to print it while
	// the next one is under way); an error it returns ends the round trip with that error.
	OnExchange func(*capture.Exchange) error
}

func (o Options) timeout() time.Duration {
	if o.Timeout <= 0 {
		return 10 * time.Second
	}
	return o.Timeout
}

// Dial connects to the broker at addr (HOST:PORT), with TLS when o.TLS is set, for requests
// of the catalogue's APIs. Cancelling ctx interrupts the connection's reads and writes
// whenever it happens, until Close.
func Dial(ctx context.Context, cat *kafka.Catalog, addr string, o Options) (*Client, error) {
	if cat == nil {
		return nil, errors.New("capture: dial: no catalogue")
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("capture: dial: %w", err)
	}
	dctx, cancel := context.WithTimeout(ctx, o.timeout())
	defer cancel()
	conn, err := (&net.Dialer{}).DialContext(dctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("capture: %w", err)
	}
	if o.TLS != nil {
		cfg := o.TLS.Clone()
		if cfg.ServerName == "" {
			cfg.ServerName = host
		}
		tc := tls.Client(conn, cfg)
		if err := tc.HandshakeContext(dctx); err != nil {
			conn.Close()
			return nil, fmt.Errorf("capture: tls: %w", err)
		}
		conn = tc
	}
	c := NewClient(conn, cat, o)
	c.ctx = ctx
	c.stop = context.AfterFunc(ctx, func() { conn.SetDeadline(time.Unix(1, 0)) })
	return c, nil
}

// NewClient speaks Kafka on conn, a connection already open (Dial opens one); Close closes it.
func NewClient(conn net.Conn, cat *kafka.Catalog, o Options) *Client {
	c := &Client{cat: cat, conn: conn, o: o, c: &capture.Conn{ID: 1}}
	if ra, err := netip.ParseAddrPort(conn.RemoteAddr().String()); err == nil {
		c.c.Server = ra
	}
	if la, err := netip.ParseAddrPort(conn.LocalAddr().String()); err == nil {
		c.c.Client = la
	}
	return c
}

// Close closes the connection.
func (c *Client) Close() error {
	if c.stop != nil {
		c.stop()
	}
	return c.conn.Close()
}

// capture.Conn is the connection as recorded so far: its addresses, its exchanges in order, and its
// notes (an API the broker does not offer, ...). The Client keeps adding to it.
func (c *Client) Conn() *capture.Conn { return c.c }

// Redacted returns the notes of the secrets replaced in what is recorded (kafka.Redact), in
// order.
func (c *Client) Redacted() []string { return c.redacted }

// Versions asks the broker which versions it speaks, once: later calls return the first
// answer. It sends ApiVersions at the catalogue's highest version; a broker that does not speak
// it answers in v0 with UNSUPPORTED_VERSION and its own range (KIP-511), and is asked again at
// the highest version of that range, as Kafka's clients do. The result maps each API key the broker offers to its [min, max].
func (c *Client) Versions() (map[int16][2]int16, error) {
	if c.versions != nil {
		return c.versions, nil
	}
	av, ok := c.cat.Lookup(fmt.Sprint(kafka.KeyApiVersions))
	if !ok {
		return nil, errors.New("capture: the release has no ApiVersions")
	}
	e, err := c.Send(av, av.Version, nil)
	if err != nil {
		return nil, err
	}
	f := e.Response.Frame
	if e.Response.Err != nil || f == nil {
		return nil, fmt.Errorf("capture: ApiVersions response: %w", e.Response.Err)
	}
	code, _ := f.Body["ErrorCode"].(int64)
	ranges := apiRanges(f.Body)
	if r, ok := ranges[kafka.KeyApiVersions]; ok && code == unsupportedVersion && r[1] < e.Request.Frame.Version && av.Request.ValidIn(r[1]) {
		// KIP-511: the broker speaks an older ApiVersions and says which; ask again in it,
		// as Kafka's clients do.
		if e, err = c.Send(av, r[1], nil); err != nil {
			return nil, err
		}
		if f = e.Response.Frame; e.Response.Err != nil || f == nil {
			return nil, fmt.Errorf("capture: ApiVersions v%d response: %w", r[1], e.Response.Err)
		}
		code, _ = f.Body["ErrorCode"].(int64)
		ranges = apiRanges(f.Body)
	}
	if code != 0 {
		return nil, fmt.Errorf("capture: ApiVersions: the broker answers error code %d %s", code, kafka.ErrorName(int16(code)))
	}
	c.versions = ranges
	return ranges, nil
}

// unsupportedVersion is Kafka's UNSUPPORTED_VERSION error code.
const unsupportedVersion = 35

// apiRanges reads the ApiKeys of an ApiVersions response body: key → [min, max].
func apiRanges(body kafka.Values) map[int16][2]int16 {
	keys, _ := body["ApiKeys"].([]any)
	out := map[int16][2]int16{}
	for _, k := range keys {
		kv, ok := k.(kafka.Values)
		if !ok {
			continue
		}
		key, _ := kv["ApiKey"].(int64)
		lo, _ := kv["MinVersion"].(int64)
		hi, _ := kv["MaxVersion"].(int64)
		out[int16(key)] = [2]int16{int16(lo), int16(hi)}
	}
	return out
}

// Version returns the highest version of a that both the broker (Versions) and the
// catalogue speak; ok is false, with a note on the connection saying why, when there is none.
func (c *Client) Version(a *kafka.API) (v int16, ok bool, err error) {
	ranges, err := c.Versions()
	if err != nil {
		return 0, false, err
	}
	r, offered := ranges[a.Key]
	if !offered {
		c.c.Notes = append(c.c.Notes, fmt.Sprintf("the broker does not offer %s (key %d)", a.Name, a.Key))
		return 0, false, nil
	}
	v = min(a.Version, r[1])
	if v < r[0] || !a.Request.ValidIn(v) {
		c.c.Notes = append(c.c.Notes, fmt.Sprintf("%s: the broker speaks v%d-v%d, this release v%s: no common version", a.Name, r[0], r[1], a.Request.ValidVersions))
		return 0, false, nil
	}
	return v, true, nil
}

// Send sends one request of a at version v with body (nil: the API's example,
// kafka.Catalog.ExampleBody), then reads, decodes and records its response as the answer to
// that request (kafka.DecodeResponse). A response that does not decode, or that answers
// another correlation id, is recorded with its error (capture.Exchange.Response.Err) and is not an
// error of Send; a connection that fails is.
func (c *Client) Send(a *kafka.API, v int16, body kafka.Values) (*capture.Exchange, error) {
	c.corr++
	if body == nil {
		var err error
		if body, err = c.cat.ExampleBody(a, false, v, nil); err != nil {
			return nil, err
		}
	}
	if a.Key == kafka.KeyApiVersions {
		body["ClientSoftwareName"] = "kafkagrid"
		body["ClientSoftwareVersion"] = "probe"
	}
	id := c.o.ClientID
	if id == "" {
		id = "kafkagrid-probe"
	}
	f, err := c.cat.Encode(kafka.Message{API: a, Version: v, CorrelationID: c.corr, ClientID: id, Body: body})
	if err != nil {
		return nil, err
	}
	c.conn.SetDeadline(time.Now().Add(c.o.timeout()))
	if c.ctx != nil && c.ctx.Err() != nil {
		// Cancelled before the deadline above was set, which undid the interruption.
		return nil, fmt.Errorf("capture: %s v%d request: %w", a.Name, v, c.ctx.Err())
	}
	if _, err := c.conn.Write(f.Bytes); err != nil {
		return nil, fmt.Errorf("capture: %s v%d request: %w", a.Name, v, c.cause(err))
	}
	// Sent: the secrets in it (a SASL password, a SCRAM proof) are replaced in what is kept.
	c.redacted = append(c.redacted, kafka.Redact(f)...)
	req := &capture.Message{Frame: f, Bytes: f.Bytes, Offset: c.off[0], Time: time.Now()}
	c.off[0] += int64(len(f.Bytes))
	var size [4]byte
	if _, err := io.ReadFull(c.conn, size[:]); err != nil {
		return nil, fmt.Errorf("capture: %s v%d: reading the response: %w", a.Name, v, c.cause(err))
	}
	maxFrame := c.o.MaxFrame
	if maxFrame <= 0 {
		maxFrame = capture.DefaultMaxFrame
	}
	n := int32(binary.BigEndian.Uint32(size[:]))
	if n < 4 || int(n) > maxFrame {
		return nil, fmt.Errorf("capture: %s v%d: response size %d outside 4 to %d", a.Name, v, n, maxFrame)
	}
	// The buffer grows with what arrives, not with what the size claims: a broker that
	// announces 100 MiB and sends little costs little.
	var rb bytes.Buffer
	rb.Write(size[:])
	if _, err := io.CopyN(&rb, c.conn, int64(n)); err != nil {
		return nil, fmt.Errorf("capture: %s v%d: reading the %d-byte response: %w", a.Name, v, n, c.cause(err))
	}
	buf := rb.Bytes()
	resp := &capture.Message{Bytes: buf, Offset: c.off[1], Time: time.Now()}
	c.off[1] += int64(len(buf))
	resp.Frame, resp.Err = c.cat.DecodeResponse(buf, f, kafka.DecodeOptions{})
	e := &capture.Exchange{Request: req, Response: resp}
	if resp.Frame != nil {
		c.redacted = append(c.redacted, kafka.Redact(resp.Frame)...)
		resp.Bytes = resp.Frame.Bytes
		e.Note = resp.Frame.Note
	}
	c.c.Exchanges = append(c.c.Exchanges, e)
	if corr := int32(binary.BigEndian.Uint32(buf[4:])); corr != c.corr {
		// The broker answers another request than the one asked: what follows cannot be trusted.
		e.Note = fmt.Sprintf("the response's correlation id is %d, the request's %d", corr, c.corr)
		resp.Err = fmt.Errorf("capture: %s v%d: the response's correlation id is %d, not the request's %d", a.Name, v, corr, c.corr)
	}
	if c.o.OnExchange != nil {
		if err := c.o.OnExchange(e); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// cause is err, or the context's error when the context's cancellation caused it.
func (c *Client) cause(err error) error {
	if c.ctx != nil && c.ctx.Err() != nil && errors.Is(err, os.ErrDeadlineExceeded) {
		return c.ctx.Err()
	}
	return err
}
