package main

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"net"
	"net/netip"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/kafkagrid/kafkagrid/capture"
	kafkaexamples "github.com/kafkagrid/kafkagrid/examples/kafka"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site/report"
)

// readOnlyAPIs are the APIs probe sends without -write: they change nothing on the broker.
var readOnlyAPIs = []string{
	"ApiVersions", "Metadata", "DescribeCluster", "DescribeConfigs", "DescribeGroups", "ListGroups",
	"FindCoordinator", "ListOffsets", "Fetch", "OffsetFetch", "DescribeAcls", "DescribeLogDirs",
	"DescribeClientQuotas", "DescribeUserScramCredentials", "DescribeProducers", "DescribeTransactions",
	"ListTransactions", "DescribeTopicPartitions", "ConsumerGroupDescribe", "ShareGroupDescribe",
	"ListPartitionReassignments", "DescribeQuorum", "OffsetForLeaderEpoch", "ListConfigResources",
	"DescribeDelegationToken", "GetTelemetrySubscriptions", "StreamsGroupDescribe",
}

// runProbe implements "kafkagrid probe HOST:PORT [API ...]": connect to a broker, ask
// ApiVersions, send each named API's example request at the highest version both sides
// support (ApiVersions and Metadata by default; APIs that change something only with -write),
// and draw the broker's responses as decode does.
func runProbe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("probe", "[-schemas PATH | -kafka REF] [-release RELEASE] [-tls ...] [-sasl-user USER ...] [-write] [-o DIR] HOST:PORT [API ...]", stdout, stderr)
	sf := addSchemaFlags(fs)
	write := fs.Bool("write", false, "also send APIs that change something (Produce, CreateTopics, ...)")
	useTLS := fs.Bool("tls", false, "connect with TLS")
	tlsCA := fs.String("tls-ca", "", "`FILE` of PEM certificates to trust (default: the system's)")
	tlsInsecure := fs.Bool("tls-insecure", false, "with -tls: do not verify the broker's certificate")
	tlsServer := fs.String("tls-server-name", "", "with -tls: the `NAME` to verify the certificate against (default: HOST)")
	mech := fs.String("sasl-mechanism", "", "SASL `MECHANISM`: PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512 (default PLAIN when -sasl-user is set)")
	user := fs.String("sasl-user", "", "SASL `USER`")
	pass := fs.String("sasl-password", "", "SASL `PASSWORD` (default: $KAFKAGRID_SASL_PASSWORD)")
	timeout := fs.Duration("timeout", 10*time.Second, "`DURATION` for connecting and for each response")
	format := fs.String("format", "txt", "output `FORMAT`: txt or json")
	out := fs.String("o", "", "write the HTML report and each frame's files into `DIR`")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("probe: want HOST:PORT [API ...]")
	}
	if *format != "txt" && *format != "json" {
		return usagef("probe: -format %q: want txt or json", *format)
	}
	if _, _, err := net.SplitHostPort(pos[0]); err != nil {
		return usagef("probe: %q: want HOST:PORT", pos[0])
	}
	if *pass == "" {
		*pass = os.Getenv("KAFKAGRID_SASL_PASSWORD")
	}
	if *mech == "" && *user != "" {
		*mech = "PLAIN"
	}
	*mech = strings.ToUpper(*mech)
	if *mech != "" && *mech != "PLAIN" && *mech != "SCRAM-SHA-256" && *mech != "SCRAM-SHA-512" {
		return usagef("probe: -sasl-mechanism %q: want PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512", *mech)
	}
	if *mech != "" && *user == "" {
		return usagef("probe: -sasl-mechanism needs -sasl-user")
	}
	if *timeout <= 0 {
		return usagef("probe: -timeout %v: want a positive duration", *timeout)
	}
	if *mech == "PLAIN" && !*useTLS {
		fmt.Fprintf(stderr, "kafkagrid: probe: warning: SASL PLAIN without -tls sends the password in clear text to %s (it is not printed)\n", pos[0])
	}
	cat, _, err := sf.load(ctx, stderr)
	if err != nil {
		return fmt.Errorf("probe: %w", err)
	}
	names := pos[1:]
	if len(names) == 0 {
		names = []string{"ApiVersions", "Metadata"}
	}
	var apis []*kafka.API
	for _, n := range names {
		a, ok := cat.Lookup(n)
		if !ok {
			return usagef("probe: no API %q in Kafka %s", n, cat.Release.Name())
		}
		if !*write && !slices.Contains(readOnlyAPIs, a.Name) {
			return usagef("probe: %s changes the broker's state: add -write to send it", a.Name)
		}
		apis = append(apis, a)
	}

	dctx, cancel := context.WithTimeout(ctx, *timeout)
	conn, err := (&net.Dialer{}).DialContext(dctx, "tcp", pos[0])
	cancel()
	if err != nil {
		return fmt.Errorf("probe: %w", err)
	}
	defer conn.Close()
	if *useTLS {
		cfg := &tls.Config{InsecureSkipVerify: *tlsInsecure, ServerName: *tlsServer}
		if cfg.ServerName == "" {
			cfg.ServerName, _, _ = net.SplitHostPort(pos[0])
		}
		if *tlsCA != "" {
			pem, err := os.ReadFile(*tlsCA)
			if err != nil {
				return fmt.Errorf("probe: %w", err)
			}
			pool := x509.NewCertPool()
			if !pool.AppendCertsFromPEM(pem) {
				return fmt.Errorf("probe: %s: no PEM certificate", *tlsCA)
			}
			cfg.RootCAs = pool
		}
		tc := tls.Client(conn, cfg)
		conn.SetDeadline(time.Now().Add(*timeout))
		if err := tc.HandshakeContext(ctx); err != nil {
			return fmt.Errorf("probe: tls: %w", err)
		}
		conn = tc
	}
	p := &prober{cat: cat, conn: conn, timeout: *timeout, c: &capture.Conn{ID: 1}}
	if *format == "txt" && *out == "" {
		p.print = stdout // each exchange as it completes: a later failure keeps what came before
	}
	res := &capture.Result{Kind: "probe", Conns: []*capture.Conn{p.c}}
	// Whatever happens after the first exchange, what was decoded is printed.
	finish := func(err error) error {
		if err != nil && len(p.c.Exchanges) == 0 {
			return fmt.Errorf("probe: %w", err)
		}
		if len(p.redacted) > 0 {
			res.Notes = append(res.Notes, fmt.Sprintf("%s: %d (no output of kafkagrid shows a password, a SCRAM proof, a bearer token or a delegation token's HMAC; the bytes are '*', offsets unchanged): %s",
				capture.RedactedNote, len(p.redacted), strings.Join(p.redacted, "; ")))
		}
		if p.print != nil {
			for _, n := range append(slices.Clone(res.Notes), p.c.Notes...) {
				fmt.Fprintf(stdout, "note: %s\n", n)
			}
		} else if perr := printResult(stdout, res, messages(res), *format, false); perr != nil && err == nil {
			err = perr
		}
		if *out != "" {
			if werr := writeReport(ctx, *out, res, report.Options{Title: "kafkagrid probe " + pos[0], Decode: cat.Decode}); werr != nil && err == nil {
				err = werr
			}
		}
		if err != nil {
			return fmt.Errorf("probe: %w", err)
		}
		for _, m := range messages(res) {
			if m.Err != nil {
				return fmt.Errorf("probe: a frame did not decode: %w", m.Err)
			}
		}
		return nil
	}
	if ra, err := netipAddrPort(conn.RemoteAddr()); err == nil {
		p.c.Server = ra
	}
	if la, err := netipAddrPort(conn.LocalAddr()); err == nil {
		p.c.Client = la
	}

	// ApiVersions first: its answer says which versions the broker speaks.
	if p.print != nil && p.c.Server.IsValid() {
		fmt.Fprintf(stdout, "== connection %d: %s → %s\n", p.c.ID, p.c.Client, p.c.Server)
	}
	av, _ := cat.Lookup("ApiVersions")
	e, err := p.roundTrip(av, av.Version, nil)
	if err != nil {
		return finish(err)
	}
	ranges, err := brokerVersions(e)
	if err != nil {
		return finish(err)
	}
	if *mech != "" {
		if err := p.sasl(ranges, *mech, *user, *pass); err != nil {
			return finish(err)
		}
	}
	for _, a := range apis {
		if a.Name == "ApiVersions" {
			continue // asked already: the first exchange
		}
		r, ok := ranges[a.Key]
		if !ok {
			p.c.Notes = append(p.c.Notes, fmt.Sprintf("the broker does not offer %s (key %d)", a.Name, a.Key))
			continue
		}
		v := min(a.Version, r[1])
		if v < r[0] || !a.Request.ValidIn(v) {
			p.c.Notes = append(p.c.Notes, fmt.Sprintf("%s: the broker speaks v%d-v%d, this release v%s: no common version", a.Name, r[0], r[1], a.Request.ValidVersions))
			continue
		}
		body, err := exampleBody(a, v)
		if err != nil {
			return finish(err)
		}
		if _, err := p.roundTrip(a, v, body); err != nil {
			return finish(err)
		}
	}
	return finish(nil)
}

func netipAddrPort(a net.Addr) (netip.AddrPort, error) { return netip.ParseAddrPort(a.String()) }

// exampleBody is the API's example request at version v, with the project's examples.
func exampleBody(a *kafka.API, v int16) (kafka.Values, error) {
	file := a.Name + ".yaml"
	data, err := fs.ReadFile(kafkaexamples.FS, file)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	body, _, err := kafka.Example(a, false, v, file, data)
	return body, err
}

// prober sends requests on one connection and records the exchanges.
type prober struct {
	cat     *kafka.Catalog
	conn    net.Conn
	timeout time.Duration
	corr    int32
	c       *capture.Conn
	off     [2]int64  // stream offsets: requests, responses
	print   io.Writer // when set, each exchange is printed (as text) as it completes
	// redacted notes the secrets replaced in what is recorded (kafka.Redact).
	redacted []string
}

// maxProbeFrame bounds a response's size: Kafka's default socket.request.max.bytes.
const maxProbeFrame = capture.DefaultMaxFrame

// roundTrip sends one request and reads, decodes and records its response.
func (p *prober) roundTrip(a *kafka.API, v int16, body kafka.Values) (*capture.Exchange, error) {
	p.corr++
	if body == nil {
		var err error
		if body, err = exampleBody(a, v); err != nil {
			return nil, err
		}
	}
	if a.Name == "ApiVersions" {
		body["ClientSoftwareName"] = "kafkagrid"
		body["ClientSoftwareVersion"] = "probe"
	}
	f, err := p.cat.Encode(kafka.Message{API: a, Version: v, CorrelationID: p.corr, ClientID: "kafkagrid-probe", Body: body})
	if err != nil {
		return nil, err
	}
	p.conn.SetDeadline(time.Now().Add(p.timeout))
	if _, err := p.conn.Write(f.Bytes); err != nil {
		return nil, fmt.Errorf("%s v%d request: %w", a.Name, v, err)
	}
	// Sent: the secrets in it (a SASL password, a SCRAM proof) are replaced in what is kept.
	p.redacted = append(p.redacted, kafka.Redact(f)...)
	req := &capture.Message{Frame: f, Bytes: f.Bytes, Offset: p.off[0], Time: time.Now()}
	p.off[0] += int64(len(f.Bytes))
	var size [4]byte
	if _, err := io.ReadFull(p.conn, size[:]); err != nil {
		return nil, fmt.Errorf("%s v%d: reading the response: %w", a.Name, v, err)
	}
	n := int32(binary.BigEndian.Uint32(size[:]))
	if n < 4 || n > maxProbeFrame {
		return nil, fmt.Errorf("%s v%d: response size %d outside 4 to %d", a.Name, v, n, maxProbeFrame)
	}
	// The buffer grows with what arrives, not with what the size claims: a broker that
	// announces 100 MiB and sends little costs little.
	var rb bytes.Buffer
	rb.Write(size[:])
	if _, err := io.CopyN(&rb, p.conn, int64(n)); err != nil {
		return nil, fmt.Errorf("%s v%d: reading the %d-byte response: %w", a.Name, v, n, err)
	}
	buf := rb.Bytes()
	resp := &capture.Message{Bytes: buf, Offset: p.off[1], Time: time.Now()}
	p.off[1] += int64(len(buf))
	resp.Frame, resp.Err = p.cat.Decode(buf, kafka.DecodeOptions{Response: true, API: a, Version: v})
	if a.Name == "ApiVersions" && resp.Err != nil {
		// KIP-511: a broker that does not know the version answers in v0 with
		// UNSUPPORTED_VERSION and its own range.
		if f0, err0 := p.cat.Decode(buf, kafka.DecodeOptions{Response: true, API: a, Version: 0}); err0 == nil {
			resp.Frame, resp.Err = f0, nil
		}
	}
	if resp.Frame != nil {
		p.redacted = append(p.redacted, kafka.Redact(resp.Frame)...)
		resp.Bytes = resp.Frame.Bytes
	}
	e := &capture.Exchange{Request: req, Response: resp}
	p.c.Exchanges = append(p.c.Exchanges, e)
	if corr := int32(binary.BigEndian.Uint32(buf[4:])); corr != p.corr {
		// The broker answers another request than the one asked: what follows cannot be trusted.
		e.Note = fmt.Sprintf("the response's correlation id is %d, the request's %d", corr, p.corr)
		resp.Err = fmt.Errorf("%s v%d: the response's correlation id is %d, not the request's %d", a.Name, v, corr, p.corr)
	}
	if p.print != nil {
		if err := printExchange(p.print, e, false); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// brokerVersions reads the ApiKeys of an ApiVersions response: key → [min, max].
func brokerVersions(e *capture.Exchange) (map[int16][2]int16, error) {
	f := e.Response.Frame
	if e.Response.Err != nil || f == nil {
		return nil, fmt.Errorf("ApiVersions response: %w", e.Response.Err)
	}
	if code, _ := f.Body["ErrorCode"].(int64); code != 0 {
		return nil, fmt.Errorf("ApiVersions: the broker answers error code %d", code)
	}
	keys, _ := f.Body["ApiKeys"].([]any)
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
	return out, nil
}

// sasl authenticates: SaslHandshake with the mechanism, then SaslAuthenticate exchanges
// (one for PLAIN, two for SCRAM, RFC 5802).
func (p *prober) sasl(ranges map[int16][2]int16, mech, user, pass string) error {
	hs, _ := p.cat.Lookup("SaslHandshake")
	au, _ := p.cat.Lookup("SaslAuthenticate")
	if hs == nil || au == nil {
		return errors.New("sasl: the release has no SaslHandshake or SaslAuthenticate")
	}
	hv := min(hs.Version, ranges[hs.Key][1])
	e, err := p.roundTrip(hs, hv, kafka.Values{"Mechanism": mech})
	if err != nil {
		return err
	}
	if err := respError(e, "SaslHandshake"); err != nil {
		return err
	}
	av := min(au.Version, ranges[au.Key][1])
	auth := func(b []byte) ([]byte, error) {
		e, err := p.roundTrip(au, av, kafka.Values{"AuthBytes": b})
		if err != nil {
			return nil, err
		}
		if err := respError(e, "SaslAuthenticate"); err != nil {
			return nil, err
		}
		out, _ := e.Response.Frame.Body["AuthBytes"].([]byte)
		return out, nil
	}
	if mech == "PLAIN" {
		_, err := auth([]byte("\x00" + user + "\x00" + pass))
		return err
	}
	h := sha256.New
	if mech == "SCRAM-SHA-512" {
		h = sha512.New
	}
	return scram(h, user, pass, auth)
}

func respError(e *capture.Exchange, what string) error {
	f := e.Response.Frame
	if e.Response.Err != nil {
		return fmt.Errorf("%s response: %w", what, e.Response.Err)
	}
	if code, _ := f.Body["ErrorCode"].(int64); code != 0 {
		msg, _ := f.Body["ErrorMessage"].(string)
		return fmt.Errorf("%s: error code %d %s", what, code, msg)
	}
	return nil
}

// scram runs a SCRAM exchange (RFC 5802, section 3) through auth.
func scram(h func() hash.Hash, user, pass string, auth func([]byte) ([]byte, error)) error {
	var nb [18]byte
	if _, err := rand.Read(nb[:]); err != nil {
		return err
	}
	nonce := base64.RawStdEncoding.EncodeToString(nb[:])
	name := strings.NewReplacer("=", "=3D", ",", "=2C").Replace(user)
	first := "n=" + name + ",r=" + nonce
	srv, err := auth([]byte("n,," + first))
	if err != nil {
		return err
	}
	var rnonce, salt64 string
	iter := 0
	for _, kv := range strings.Split(string(srv), ",") {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "r":
			rnonce = v
		case "s":
			salt64 = v
		case "i":
			fmt.Sscan(v, &iter)
		}
	}
	salt, err := base64.StdEncoding.DecodeString(salt64)
	if err != nil || !strings.HasPrefix(rnonce, nonce) || iter < 1 || iter > 1<<20 {
		return fmt.Errorf("scram: bad server-first message %q", srv)
	}
	salted, err := pbkdf2.Key(h, pass, salt, iter, h().Size())
	if err != nil {
		return err
	}
	mac := func(key []byte, s string) []byte {
		m := hmac.New(h, key)
		m.Write([]byte(s))
		return m.Sum(nil)
	}
	clientKey := mac(salted, "Client Key")
	sh := h()
	sh.Write(clientKey)
	stored := sh.Sum(nil)
	final := "c=biws,r=" + rnonce
	authMsg := first + "," + string(srv) + "," + final
	sig := mac(stored, authMsg)
	proof := make([]byte, len(clientKey))
	for i := range proof {
		proof[i] = clientKey[i] ^ sig[i]
	}
	last, err := auth([]byte(final + ",p=" + base64.StdEncoding.EncodeToString(proof)))
	if err != nil {
		return err
	}
	want := "v=" + base64.StdEncoding.EncodeToString(mac(mac(salted, "Server Key"), authMsg))
	if string(last) != want {
		return fmt.Errorf("scram: the server's signature does not verify")
	}
	return nil
}
