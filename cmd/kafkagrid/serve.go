package main

import (
	"bytes"
	"compress/flate"
	"compress/zlib"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"log"
	"net"
	"net/http"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/kafkagrid/kafkagrid/site"
)

// Kroki's API, as its clients (asciidoctor-kroki, the MkDocs and Hugo plugins, curl) speak it
// (https://docs.kroki.io/kroki/setup/usage/):
//
//	GET  /<type>/<format>/<encoded>   the source deflated (zlib) and base64url-encoded
//	POST /<type>/<format>             the source as the body, text/plain, or JSON
//	                                  {"diagram_source": …, "diagram_options": {…}}
//	POST /<type>                      the format from the Accept header
//	POST /                            JSON with "diagram_type" and "output_format" too
//
// Options come from the query, from Kroki-Diagram-Options-<name> headers and from
// "diagram_options". An error is Kroki's: its status, and by the Accept header a JSON
// {"error":{"code":…,"message":…}}, an HTML page, or the text "Error 400: …".

// serveLimits bound every request.
type serveLimits struct {
	maxBody     int           // bytes of a diagram's source (and of a request's body)
	maxFields   int           // fields of one drawing
	maxInflight int           // drawings under way at once; more requests wait for a slot
	timeout     time.Duration // to read a request, wait for a slot, and write the answer
}

// runServe implements "kafkagrid serve": a Kroki-compatible HTTP server of the bytegrid and
// kafka diagram types.
func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("serve", "[-listen ADDR] [-schemas PATH | -kafka REF] [-release RELEASE] [-max-body BYTES] [-max-fields N] [-max-inflight N] [-timeout D]", stdout, stderr)
	sf := addSchemaFlags(fs)
	listen := fs.String("listen", "127.0.0.1:8000", "listen on `ADDR` (host:port; port 0 picks a free one); the default is loopback only,\n"+
		"as a server of diagrams for your own documents needs")
	maxBody := fs.Int("max-body", 1<<20, "a diagram's source may have at most `BYTES` bytes (after inflating a GET's)")
	maxFields := fs.Int("max-fields", 20_000, "a drawing may have at most `N` fields (a grid's fields, a decoded frame's tree nodes)")
	maxInflight := fs.Int("max-inflight", 2*runtime.GOMAXPROCS(0), "draw at most `N` diagrams at once, and read at most 4N sources at once (memory is about\n"+
		"N × the largest drawing + 4N × -max-body); other requests wait for a place")
	timeout := fs.Duration("timeout", 10*time.Second, "a request must be read, given a slot and answered within `D`")
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
	d := &drawer{cats: cats, def: def, maxFields: *maxFields, date: date}
	lim := serveLimits{maxBody: *maxBody, maxFields: *maxFields, maxInflight: *maxInflight, timeout: *timeout}
	h := newKroki(d, lim, log.New(stderr, "kafkagrid: serve: ", 0))

	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: min(*timeout, 5*time.Second),
		ReadTimeout:       *timeout,
		WriteTimeout:      *timeout,
		IdleTimeout:       time.Minute,
		MaxHeaderBytes:    *maxBody*2 + 16<<10, // a GET's URL holds the deflated, base64 source
		ErrorLog:          h.log,
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	{ // said even with -q: where to point the clients (and, with -listen :0, which port)
		what := "bytegrid diagrams (no Kafka schemas given: no kafka diagrams)"
		if len(cats) > 0 {
			what = fmt.Sprintf("bytegrid and kafka diagrams (Kafka %s; default %s)", strings.Join(sortedKeys(cats), ", "), def)
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
	// Stop listening, let the requests under way finish (within main's stopWithin), then close.
	sctx, cancel := context.WithTimeout(context.Background(), stopWithin*8/10)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
	}
	return nil
}

// readersPerSlot is how many requests may read or hold a source (a body, a GET's inflated
// source) per drawing slot: enough that the next sources are read while drawings are under
// way, few enough that the sources in memory are bounded whatever the number of connections.
const readersPerSlot = 4

// kroki is the HTTP handler of Kroki's API.
type kroki struct {
	d       *drawer
	lim     serveLimits
	slots   chan struct{}
	readers chan struct{} // requests reading or holding a source (readersPerSlot × slots)
	log     *log.Logger   // errors that are not the client's
	// inflight and peak count the drawings under way, and the most there were at once (tests).
	inflight, peak atomic.Int64
}

func newKroki(d *drawer, lim serveLimits, l *log.Logger) *kroki {
	return &kroki{d: d, lim: lim, slots: make(chan struct{}, lim.maxInflight), readers: make(chan struct{}, readersPerSlot*lim.maxInflight), log: l}
}

// httpError is an answer other than a diagram.
type httpError struct {
	code int
	msg  string
}

func (e *httpError) Error() string { return e.msg }

func errorf(code int, format string, a ...any) error {
	return &httpError{code, fmt.Sprintf(format, a...)}
}

// request is one diagram asked for.
type request struct {
	typ, format string
	source      []byte
	options     map[string]string
}

// krokiJSON is the JSON body of a POST.
type krokiJSON struct {
	Source  *string                    `json:"diagram_source"`
	Type    string                     `json:"diagram_type"`
	Format  string                     `json:"output_format"`
	Options map[string]json.RawMessage `json:"diagram_options"`
}

func (k *kroki) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if p := recover(); p != nil {
			k.log.Printf("%s %s: panic: %v\n%s", r.Method, r.URL.Path, p, debug.Stack())
			k.fail(w, r, errorf(http.StatusInternalServerError, "internal error drawing the diagram"))
		}
	}()
	path := strings.Trim(r.URL.Path, "/")
	if path == "health" || path == "v1/health" || path == "healthz" {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			k.fail(w, r, errorf(http.StatusMethodNotAllowed, "%s /health: want GET", r.Method))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		version := "kafkagrid (no build information)"
		if info, ok := debug.ReadBuildInfo(); ok {
			version = versionLine(info)
		}
		b, _ := json.Marshal(map[string]any{"status": "pass", "version": version, "types": diagramTypes})
		w.Write(append(b, '\n'))
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), k.lim.timeout)
	defer cancel()
	// A place to read the source in and hold it until answered: the sources in memory are
	// bounded by the places, not by the connections (each may bring -max-body bytes).
	select {
	case k.readers <- struct{}{}:
		defer func() { <-k.readers }()
	case <-ctx.Done():
		k.fail(w, r, errorf(http.StatusServiceUnavailable, "busy: %d requests are being read or drawn; none finished within %s (serve -max-inflight %d)", cap(k.readers), k.lim.timeout, k.lim.maxInflight))
		return
	}
	req, err := k.parse(w, r, path)
	if err != nil {
		k.fail(w, r, err)
		return
	}
	select {
	case k.slots <- struct{}{}:
	case <-ctx.Done():
		k.fail(w, r, errorf(http.StatusServiceUnavailable, "busy: no drawing slot within %s (serve -max-inflight %d)", k.lim.timeout, k.lim.maxInflight))
		return
	}
	n := k.inflight.Add(1)
	for p := k.peak.Load(); n > p && !k.peak.CompareAndSwap(p, n); p = k.peak.Load() {
	}
	out, err := k.d.draw(req.typ, req.format, "diagram", req.source, req.options, drawOptions{})
	k.inflight.Add(-1)
	<-k.slots
	if err != nil {
		var ie inputError
		if errors.As(err, &ie) {
			err = errorf(http.StatusBadRequest, "%s", err)
		}
		k.fail(w, r, err)
		return
	}
	ct, _ := site.LookupFormat(req.format) // a format drawDiagram drew
	w.Header().Set("Content-Type", ct.ContentType)
	w.Header().Set("Content-Length", strconv.Itoa(len(out.Data)))
	if r.Method != http.MethodHead {
		w.Write(out.Data)
	}
}

// parse reads the request: its type, format, source and options.
func (k *kroki) parse(w http.ResponseWriter, r *http.Request, path string) (*request, error) {
	parts := strings.Split(path, "/")
	if path == "" {
		parts = nil
	}
	req := &request{options: map[string]string{}}
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		if len(parts) == 0 {
			return nil, errorf(http.StatusNotFound, "kafkagrid serve speaks Kroki's API: GET /<type>/<format>/<encoded> or POST /<type>/<format>; types %s; formats %s; GET /health", strings.Join(diagramTypes, ", "), strings.Join(typeFormats[typeGrid], ", "))
		}
		if len(parts) != 3 {
			return nil, errorf(http.StatusBadRequest, "GET %s: want /<type>/<format>/<encoded source>", r.URL.Path)
		}
		req.typ, req.format = parts[0], parts[1]
		src, err := decodeSource(parts[2], k.lim.maxBody)
		if err != nil {
			return nil, err
		}
		req.source = src
	case http.MethodPost:
		if len(parts) > 2 {
			return nil, errorf(http.StatusBadRequest, "POST %s: want /<type>/<format>, /<type> or /", r.URL.Path)
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, int64(k.lim.maxBody)+64<<10))
		if err != nil {
			var mb *http.MaxBytesError
			if errors.As(err, &mb) {
				return nil, errorf(http.StatusRequestEntityTooLarge, "the body is more than %d bytes (serve -max-body %d)", mb.Limit, k.lim.maxBody)
			}
			return nil, errorf(http.StatusBadRequest, "reading the body: %v", err)
		}
		if len(parts) > 0 {
			req.typ = parts[0]
		}
		if len(parts) > 1 {
			req.format = parts[1]
		}
		if isJSON(r.Header.Get("Content-Type")) {
			var j krokiJSON
			dec := json.NewDecoder(bytes.NewReader(body))
			if err := dec.Decode(&j); err != nil {
				return nil, errorf(http.StatusBadRequest, "JSON body: %s", jsonErrorText(body, err))
			}
			if j.Source == nil {
				return nil, errorf(http.StatusBadRequest, `JSON body: no "diagram_source"`)
			}
			req.source = []byte(*j.Source)
			if j.Type != "" && req.typ == "" {
				req.typ = j.Type
			}
			if j.Format != "" && req.format == "" {
				req.format = j.Format
			}
			for name, raw := range j.Options {
				v, err := optionValue(raw)
				if err != nil {
					return nil, errorf(http.StatusBadRequest, "JSON body: diagram_options.%s: %v", name, err)
				}
				req.options[strings.ToLower(name)] = v
			}
		} else {
			req.source = body
		}
		if req.format == "" {
			req.format = formatFromAccept(r.Header.Get("Accept"))
		}
		if req.typ == "" {
			return nil, errorf(http.StatusBadRequest, `POST /: no diagram type (POST /<type>/<format>, or "diagram_type" in the JSON)`)
		}
		if req.format == "" {
			return nil, errorf(http.StatusBadRequest, "POST %s: no output format (POST /<type>/<format>, an Accept header, or \"output_format\")", r.URL.Path)
		}
	default:
		w.Header().Set("Allow", "GET, HEAD, POST")
		return nil, errorf(http.StatusMethodNotAllowed, "method %s: want GET or POST", r.Method)
	}
	if len(req.source) > k.lim.maxBody {
		return nil, errorf(http.StatusRequestEntityTooLarge, "the diagram source is %d bytes, more than %d (serve -max-body)", len(req.source), k.lim.maxBody)
	}
	for name, vs := range r.Header {
		if n, ok := cutPrefixFold(name, "Kroki-Diagram-Options-"); ok && len(vs) > 0 {
			req.options[strings.ToLower(n)] = vs[0]
		}
	}
	for name, vs := range r.URL.Query() {
		if len(vs) > 0 {
			req.options[strings.ToLower(name)] = vs[0]
		}
	}
	req.typ, req.format = strings.ToLower(req.typ), outputFormat(req.format)
	return req, nil
}

// decodeSource reads a GET's source: base64url (padded or not, as Java's URL decoder takes
// it) of the zlib-deflated text (or raw deflate, as some clients send), at most limit bytes
// once inflated.
func decodeSource(enc string, limit int) ([]byte, error) {
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(enc, "="))
	if err != nil {
		var ce base64.CorruptInputError
		if errors.As(err, &ce) {
			return nil, errorf(http.StatusBadRequest, "the encoded source is not base64url at character %d (Kroki's encoding: deflate, then base64url)", int64(ce))
		}
		return nil, errorf(http.StatusBadRequest, "the encoded source: %v", err)
	}
	var zr io.ReadCloser
	if len(raw) >= 2 && raw[0]&0x0f == 8 && (uint16(raw[0])<<8|uint16(raw[1]))%31 == 0 {
		if zr, err = zlib.NewReader(bytes.NewReader(raw)); err != nil {
			return nil, errorf(http.StatusBadRequest, "the encoded source: %v", err)
		}
	} else {
		zr = flate.NewReader(bytes.NewReader(raw))
	}
	defer zr.Close()
	src, err := io.ReadAll(io.LimitReader(zr, int64(limit)+1))
	if err != nil {
		return nil, errorf(http.StatusBadRequest, "the encoded source does not inflate: %v (Kroki's encoding: deflate, then base64url)", err)
	}
	if len(src) > limit {
		return nil, errorf(http.StatusRequestEntityTooLarge, "the diagram source inflates to more than %d bytes (serve -max-body)", limit)
	}
	return bytes.TrimSpace(src), nil // as Kroki does
}

// encodeSource is Kroki's encoding of a source for a GET: zlib deflate, then base64url.
func encodeSource(src []byte) string {
	var buf bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&buf, zlib.BestCompression)
	zw.Write(src)
	zw.Close()
	return base64.URLEncoding.EncodeToString(buf.Bytes())
}

func isJSON(contentType string) bool {
	mt, _, _ := strings.Cut(contentType, ";")
	mt = strings.ToLower(strings.TrimSpace(mt))
	return mt == "application/json" || strings.HasSuffix(mt, "+json")
}

// formatFromAccept is the format an Accept header asks for, "" if none it names: the first
// media type of site.Formats' svg, txt or pdf (a client that names JSON names what it sends,
// and asks for the default format, as before).
func formatFromAccept(accept string) string {
	for _, part := range strings.Split(accept, ",") {
		if f, ok := site.FormatOfType(strings.TrimSpace(part)); ok && contains(acceptFormats, f.Name) {
			return f.Name
		}
	}
	return ""
}

// acceptFormats are the formats an Accept header chooses.
var acceptFormats = []string{"svg", "txt", "pdf"}

// optionValue is a diagram option's JSON value as text: a string, number or boolean.
func optionValue(raw json.RawMessage) (string, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return "", err
	}
	switch v := v.(type) {
	case string:
		return v, nil
	case bool:
		return strconv.FormatBool(v), nil
	case float64:
		return strings.TrimSpace(string(raw)), nil
	}
	return "", errors.New("want a string, number or boolean")
}

// jsonErrorText says where a JSON body is wrong: "line 2, column 5 (offset 17): …".
func jsonErrorText(body []byte, err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	off := int64(-1)
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	if off < 0 {
		return err.Error()
	}
	off = min(off, int64(len(body)))
	line := 1 + bytes.Count(body[:off], []byte("\n"))
	col := int(off) - bytes.LastIndexByte(body[:off], '\n')
	return fmt.Sprintf("line %d, column %d (offset %d): %v", line, col, off, err)
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) > len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return "", false
}

// fail answers err in Kroki's error shape: its status (500 for an error that is not the
// client's), and the message as JSON, HTML or text, by the Accept header.
func (k *kroki) fail(w http.ResponseWriter, r *http.Request, err error) {
	code, msg := http.StatusInternalServerError, err.Error()
	var he *httpError
	if errors.As(err, &he) {
		code = he.code
	} else {
		k.log.Printf("%s %s: %v", r.Method, r.URL.Path, err)
	}
	h := w.Header()
	h.Del("Content-Length")
	accept := strings.ToLower(r.Header.Get("Accept"))
	switch {
	case strings.Contains(accept, "application/json"):
		b, _ := json.Marshal(struct {
			Error struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}{Error: struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		}{code, msg}})
		h.Set("Content-Type", "application/json")
		w.WriteHeader(code)
		w.Write(append(b, '\n'))
	case strings.Contains(accept, "text/html"):
		h.Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(code)
		fmt.Fprintf(w, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Error %d</title></head><body><h1>Error %d</h1><pre>%s</pre></body></html>\n",
			code, code, html.EscapeString(msg))
	default:
		h.Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(code)
		fmt.Fprintf(w, "Error %d: %s\n", code, msg)
	}
}
