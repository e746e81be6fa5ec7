package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/kafkagrid/kafkagrid/capture"
	"github.com/kafkagrid/kafkagrid/capture/decode"
	"github.com/kafkagrid/kafkagrid/capture/probe"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site/report"
)

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
	if *mech, err = saslMechanism(*mech, *user); err != nil {
		return err
	}
	if *timeout <= 0 {
		return usagef("probe: -timeout %v: want a positive duration", *timeout)
	}
	if *mech == "PLAIN" && !*useTLS {
		fmt.Fprintf(stderr, "kafkagrid: probe: warning: SASL PLAIN without -tls sends the password in clear text to %s (it is not printed)\n", pos[0])
	}
	cat, src, err := sf.load(ctx, stderr)
	if err != nil {
		return fmt.Errorf("probe: %w", err)
	}
	others := siblingReleases(sf, src).Others
	apis, err := probeAPIs(cat, pos[1:], *write)
	if err != nil {
		return err
	}

	co := probe.Options{Timeout: *timeout}
	if *useTLS {
		if co.TLS, err = probeTLS(*tlsInsecure, *tlsServer, *tlsCA); err != nil {
			return err
		}
	}
	if *format == "txt" && *out == "" {
		// Each exchange as it completes: a later failure keeps what came before.
		co.OnExchange = func(e *capture.Exchange) error { return decode.WriteExchange(stdout, e) }
	}
	cl, err := probe.Dial(ctx, cat, pos[0], co)
	if err != nil {
		return fmt.Errorf("probe: %w", err)
	}
	defer cl.Close()
	pr := &probeRun{ctx: ctx, cl: cl, res: &capture.Result{Kind: "probe", Conns: []*capture.Conn{cl.Conn()}},
		json: *format == "json", live: co.OnExchange != nil, out: *out, addr: pos[0], stdout: stdout}
	return pr.finish(pr.session(cat, others, apis, *mech, *user, *pass))
}

// probeRun is one probe's connection and what it prints.
type probeRun struct {
	ctx        context.Context
	cl         *probe.Client
	res        *capture.Result
	match      []string // the release the broker's versions match best, and where they differ
	json, live bool     // -format json; each exchange printed as it completes
	out, addr  string   // -o; the broker
	stdout     io.Writer
}

// session asks ApiVersions first (its answer says which versions the broker speaks and which
// release they match best: cat's, or one of the others, loaded only then), authenticates with
// SASL when asked, then sends each API at the highest version both sides speak.
func (pr *probeRun) session(cat *kafka.Catalog, others func() []capture.Release, apis []*kafka.API, mech, user, pass string) error {
	conn := pr.cl.Conn()
	if pr.live && conn.Server.IsValid() {
		fmt.Fprintf(pr.stdout, "== connection %d: %s → %s\n", conn.ID, conn.Client, conn.Server)
	}
	versions, err := pr.cl.Versions()
	if err != nil {
		return err
	}
	rels := []capture.Release{{Name: cat.Release.Name(), Catalog: cat}}
	if others != nil {
		rels = append(rels, others()...)
	}
	if m, ok := capture.MatchRelease(versions, rels); ok {
		pr.match = m.Summary()
	}
	if mech != "" {
		if err := pr.cl.Authenticate(mech, user, pass); err != nil {
			return err
		}
	}
	for _, a := range apis {
		if a.Key == kafka.KeyApiVersions {
			continue // asked already: the first exchange
		}
		v, ok, err := pr.cl.Version(a)
		if err != nil {
			return err
		}
		if !ok {
			continue // the connection's notes say why
		}
		if _, err := pr.cl.Send(a, v, nil); err != nil {
			return err
		}
	}
	return nil
}

// finish prints what was decoded, whatever happened after the first exchange (err), and says
// probe's outcome.
func (pr *probeRun) finish(err error) error {
	conn, res := pr.cl.Conn(), pr.res
	if err != nil && len(conn.Exchanges) == 0 {
		return fmt.Errorf("probe: %w", err)
	}
	if pr.json {
		res.Notes = append(res.Notes, pr.match...)
	}
	if red := pr.cl.Redacted(); len(red) > 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("%s: %d (no output of kafkagrid shows a password, a SCRAM proof, a bearer token or a delegation token's HMAC; the bytes are '*', offsets unchanged): %s",
			capture.RedactedNote, len(red), strings.Join(red, "; ")))
	}
	if pr.live {
		for _, n := range append(slices.Clone(res.Notes), conn.Notes...) {
			fmt.Fprintf(pr.stdout, "note: %s\n", n)
		}
	} else if perr := decode.Write(pr.stdout, res, decode.Format{JSON: pr.json}); perr != nil && err == nil {
		err = perr
	}
	if !pr.json && len(pr.match) > 0 {
		fmt.Fprintf(pr.stdout, "\n== summary\n%s\n", strings.Join(pr.match, "\n"))
	}
	if pr.out != "" {
		if werr := writeReport(pr.ctx, pr.out, res, report.Options{Title: "kafkagrid probe " + pr.addr}); werr != nil && err == nil {
			err = werr
		}
	}
	if err != nil {
		return fmt.Errorf("probe: %w", err)
	}
	for _, m := range decode.Messages(res) {
		if m.Err != nil {
			return fmt.Errorf("probe: a frame did not decode: %w", m.Err)
		}
	}
	return nil
}

// saslMechanism checks -sasl-mechanism and -sasl-user: PLAIN when only a user is given, the
// mechanism's name in capitals.
func saslMechanism(mech, user string) (string, error) {
	if mech == "" && user != "" {
		mech = "PLAIN"
	}
	mech = strings.ToUpper(mech)
	if mech != "" && mech != "PLAIN" && mech != "SCRAM-SHA-256" && mech != "SCRAM-SHA-512" {
		return mech, usagef("probe: -sasl-mechanism %q: want PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512", mech)
	}
	if mech != "" && user == "" {
		return mech, usagef("probe: -sasl-mechanism needs -sasl-user")
	}
	return mech, nil
}

// probeAPIs looks up the APIs named (ApiVersions and Metadata when none are); one that
// changes the broker's state is sent only with -write.
func probeAPIs(cat *kafka.Catalog, names []string, write bool) ([]*kafka.API, error) {
	if len(names) == 0 {
		names = []string{"ApiVersions", "Metadata"}
	}
	var apis []*kafka.API
	for _, n := range names {
		a, ok := cat.Lookup(n)
		if !ok {
			return nil, usagef("probe: no API %q in Kafka %s", n, cat.Release.Name())
		}
		if !write && !a.Facts().ReadOnly {
			return nil, usagef("probe: %s changes the broker's state: add -write to send it", a.Name)
		}
		apis = append(apis, a)
	}
	return apis, nil
}

// probeTLS is -tls's configuration: the broker's certificate verified against server (default
// the host) and the certificates of the PEM file caFile (default the system's), unless
// insecure.
func probeTLS(insecure bool, server, caFile string) (*tls.Config, error) {
	c := &tls.Config{InsecureSkipVerify: insecure, ServerName: server}
	if caFile == "" {
		return c, nil
	}
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, fmt.Errorf("probe: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("probe: %s: no PEM certificate", caFile)
	}
	c.RootCAs = pool
	return c, nil
}
