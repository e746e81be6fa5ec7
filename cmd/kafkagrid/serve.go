package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"maps"
	"net"
	"net/http"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/kafkagrid/kafkagrid/diagram"
)

// runServe implements "kafkagrid serve": a Kroki-compatible HTTP server of the bytegrid and
// kafka diagram types (diagram.Handler).
func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("serve", "[-listen ADDR] [-schemas PATH | -kafka REF] [-release RELEASE] [-max-body BYTES] [-max-fields N] [-max-inflight N] [-timeout D]", stdout, stderr)
	sf := addSchemaFlags(fs)
	listen := fs.String("listen", "127.0.0.1:8000", "listen on `ADDR` (host:port; port 0 picks a free one); the default is loopback only,\n"+
		"as a server of diagrams for your own documents needs")
	maxBody := fs.Int("max-body", 1<<20, "a diagram's source may have at most `BYTES` bytes (after inflating a GET's)")
	maxFields := fs.Int("max-fields", 20_000, "a drawing may have at most `N` fields (a grid's fields, a decoded frame's tree nodes)")
	maxInflight := fs.Int("max-inflight", 2*runtime.GOMAXPROCS(0), "draw at most `N` diagrams at once, and hold at most 4N × -max-body bytes of sources, counted\n"+
		"as they arrive (memory is about N × the largest drawing + 4N × -max-body); other requests wait")
	timeout := fs.Duration("timeout", 10*time.Second, "each phase of a request has `D`: reading its body, waiting for room and a drawing slot\n"+
		"(503 after), writing the answer; on SIGTERM the requests under way have D to finish")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 0 {
		return usagef("serve: unexpected argument %q", rest[0])
	}
	if *maxBody < 1 || *maxFields < 1 || *maxInflight < 1 || *timeout <= 0 {
		return usagef("serve: -max-body, -max-fields, -max-inflight and -timeout must be positive")
	}
	date, err := sourceDate()
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	cats, def, err := loadCatalogs(ctx, sf, stderr, true)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	d := &diagram.Drawer{Catalogs: cats, Default: def, MaxFields: *maxFields, Date: date}
	h := diagram.NewHandler(d, diagram.Limits{MaxBody: *maxBody, MaxInflight: *maxInflight,
		ReadTimeout: *timeout, WaitTimeout: *timeout, WriteTimeout: *timeout})
	h.ErrorLog = log.New(stderr, "kafkagrid: serve: ", 0)
	if info, ok := debug.ReadBuildInfo(); ok {
		h.Version = versionLine(info)
	}

	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	srv := &http.Server{
		Handler: h,
		// The handler sets the deadlines of a request's body and answer itself, each from
		// the start of its phase; the server bounds the header only.
		ReadHeaderTimeout: min(*timeout, 5*time.Second),
		IdleTimeout:       time.Minute,
		MaxHeaderBytes:    *maxBody*2 + 16<<10, // a GET's URL holds the deflated, base64 source
		ErrorLog:          h.ErrorLog,
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	// On SIGTERM, main waits for the requests under way to finish, up to -timeout.
	if g := graceFrom(ctx); g != nil {
		g.Store(int64(*timeout))
	}
	{ // said even with -q: where to point the clients (and, with -listen :0, which port)
		what := "bytegrid diagrams (no Kafka schemas given: no kafka diagrams)"
		if len(cats) > 0 {
			what = fmt.Sprintf("bytegrid and kafka diagrams (Kafka %s; default %s)", strings.Join(slices.Sorted(maps.Keys(cats)), ", "), def)
		}
		fmt.Fprintf(stderr, "kafkagrid: serve: %s on http://%s\n", what, ln.Addr())
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	// Stop listening, let the requests under way finish within -timeout, then close.
	sctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
	}
	return nil
}
