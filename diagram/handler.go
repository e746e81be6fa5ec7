package diagram

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
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
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
//	GET  /health                      {"status":"pass",…}
//
// Options come from the query, from Kroki-Diagram-Options-<name> headers and from
// "diagram_options". An error is Kroki's: its status, and by the Accept header a JSON
// {"error":{"code":…,"message":…}}, an HTML page, or the text "Error 400: …".

// Limits bound the work and memory of a Handler's requests. The zero value of a field means
// its default.
type Limits struct {
	// MaxBody bounds a diagram's source, in bytes (after inflating a GET's); default 1 MiB.
	MaxBody int
	// MaxInflight bounds the drawings under way at once; default 2 × GOMAXPROCS. The sources
	// being read or held are bounded by bytes: 4 × MaxInflight × MaxBody in all, counted in
	// chunks of 64 KiB as they arrive, so that a slow client holds only the chunks of the
	// bytes it has sent.
	MaxInflight int
	// ReadTimeout bounds reading a request's body; WaitTimeout the wait for room to hold its
	// source and then for a drawing slot (each); WriteTimeout writing the answer, from its
	// first byte. Each defaults to 10 s. A request that waited too long gets 503.
	ReadTimeout, WaitTimeout, WriteTimeout time.Duration
}

// readersPerSlot is how many sources of MaxBody bytes may be held per drawing slot.
const readersPerSlot = 4

// chunk is the unit in which the bytes of the sources being read are counted.
const chunk = 64 << 10

// jsonSlack is what a JSON body may hold beside its source.
const jsonSlack = 64 << 10

func (l Limits) withDefaults() Limits {
	if l.MaxBody <= 0 {
		l.MaxBody = 1 << 20
	}
	if l.MaxInflight <= 0 {
		l.MaxInflight = 2 * runtime.GOMAXPROCS(0)
	}
	for _, d := range []*time.Duration{&l.ReadTimeout, &l.WaitTimeout, &l.WriteTimeout} {
		if *d <= 0 {
			*d = 10 * time.Second
		}
	}
	return l
}

// Handler is an http.Handler speaking Kroki's API for the diagram types of a Drawer. Mount
// it at a ServeMux's root or under a prefix with http.StripPrefix.
type Handler struct {
	d     *Drawer
	lim   Limits
	slots chan struct{}
	bytes *budget // chunks of the sources being read or held
	// ErrorLog logs errors that are not the client's (a panic, a drawer's fault); nil: the
	// log package's standard logger.
	ErrorLog *log.Logger
	// Version is what /health says; "" means the module's build information.
	Version string

	drawing, peak atomic.Int64
	cache         *drawCache
}

// NewHandler returns a handler drawing with d within lim.
func NewHandler(d *Drawer, lim Limits) *Handler {
	lim = lim.withDefaults()
	perSource := (lim.MaxBody + jsonSlack + chunk - 1) / chunk
	return &Handler{d: d, lim: lim, slots: make(chan struct{}, lim.MaxInflight), bytes: newBudget(readersPerSlot * lim.MaxInflight * perSource), cache: newDrawCache()}
}

// Stats are a Handler's counters.
type Stats struct {
	Drawing     int // drawings under way
	PeakDrawing int // the most there were at once
	HeldBytes   int // bytes of sources being read or held, counted in 64 KiB chunks
	MaxHeld     int // the most HeldBytes may be
}

// Stats returns the handler's counters.
func (h *Handler) Stats() Stats {
	return Stats{int(h.drawing.Load()), int(h.peak.Load()), h.bytes.held() * chunk, h.bytes.total * chunk}
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
	held        int // chunks of the budget it holds
}

// krokiJSON is the JSON body of a POST.
type krokiJSON struct {
	Source  *string                    `json:"diagram_source"`
	Type    string                     `json:"diagram_type"`
	Format  string                     `json:"output_format"`
	Options map[string]json.RawMessage `json:"diagram_options"`
}

func (h *Handler) logf(format string, a ...any) {
	if h.ErrorLog != nil {
		h.ErrorLog.Printf(format, a...)
	} else {
		log.Printf(format, a...)
	}
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	defer func() {
		if p := recover(); p != nil {
			h.logf("%s %s: panic: %v\n%s", r.Method, r.URL.Path, p, debug.Stack())
			h.fail(w, r, errorf(http.StatusInternalServerError, "internal error drawing the diagram"))
		}
	}()
	// Any page may show the drawings and ask for them from its script (a live preview): no
	// cookie or credential is read, so every origin may.
	hd := w.Header()
	hd.Set("Access-Control-Allow-Origin", "*")
	hd.Set("Access-Control-Expose-Headers", "ETag")
	if r.Method == http.MethodOptions {
		hd.Set("Access-Control-Allow-Methods", "GET, HEAD, POST, OPTIONS")
		hd.Set("Access-Control-Allow-Headers", "*")
		hd.Set("Access-Control-Max-Age", "86400")
		hd.Set("Allow", "GET, HEAD, POST, OPTIONS")
		w.WriteHeader(http.StatusNoContent)
		return
	}
	path := strings.Trim(r.URL.Path, "/")
	if path == "health" || path == "v1/health" || path == "healthz" {
		h.health(w, r)
		return
	}
	// The body is read within ReadTimeout (the connection's deadline: a client that sends
	// nothing is cut then), whatever the server's own ReadTimeout.
	rc.SetReadDeadline(time.Now().Add(h.lim.ReadTimeout))
	req, err := h.parse(w, r, path)
	if req != nil {
		defer h.bytes.give(req.held)
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	dr := Request{Type: req.typ, Format: req.format, Source: req.source, Options: req.options}
	key := cacheKey(dr)
	if c, ok := h.cache.get(key); ok {
		h.answer(w, r, c)
		return
	}
	wait, cancel := context.WithTimeout(r.Context(), h.lim.WaitTimeout)
	defer cancel()
	select {
	case h.slots <- struct{}{}:
	case <-wait.Done():
		h.fail(w, r, errorf(http.StatusServiceUnavailable, "busy: no drawing slot within %s (%d drawings at once)", h.lim.WaitTimeout, h.lim.MaxInflight))
		return
	}
	n := h.drawing.Add(1)
	for p := h.peak.Load(); n > p && !h.peak.CompareAndSwap(p, n); p = h.peak.Load() {
	}
	out, err := h.d.Draw(dr)
	h.drawing.Add(-1)
	<-h.slots
	if err != nil {
		if IsInput(err) {
			err = errorf(http.StatusBadRequest, "%s", err)
		}
		h.fail(w, r, err)
		return
	}
	h.answer(w, r, h.cache.put(key, out))
}

// answer writes a drawing, with its entity tag: 304 and no body when the client holds it
// (If-None-Match), as browsers and Kroki's clients ask when they revalidate. A drawing is the
// same bytes for the same request for as long as the server runs, so clients may keep it a
// day (Cache-Control).
func (h *Handler) answer(w http.ResponseWriter, r *http.Request, c *cached) {
	http.NewResponseController(w).SetWriteDeadline(time.Now().Add(h.lim.WriteTimeout))
	hd := w.Header()
	hd.Set("ETag", c.etag)
	hd.Set("Cache-Control", "public, max-age=86400")
	if inm := r.Header.Get("If-None-Match"); inm != "" && etagMatch(inm, c.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	hd.Set("Content-Type", c.out.ContentType)
	hd.Set("Content-Length", strconv.Itoa(len(c.out.Data)))
	if r.Method != http.MethodHead {
		w.Write(c.out.Data)
	}
}

// etagMatch reports whether an If-None-Match header names etag (or is "*"), weak tags
// compared weakly, as RFC 9110 13.1.2 says.
func etagMatch(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == etag {
			return true
		}
	}
	return false
}

func (h *Handler) health(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h.fail(w, r, errorf(http.StatusMethodNotAllowed, "%s /health: want GET", r.Method))
		return
	}
	http.NewResponseController(w).SetWriteDeadline(time.Now().Add(h.lim.WriteTimeout))
	w.Header().Set("Content-Type", "application/json")
	version := h.Version
	if version == "" {
		version = "kafkagrid (no build information)"
		if info, ok := debug.ReadBuildInfo(); ok {
			version = info.Main.Path + " " + info.Main.Version
		}
	}
	b, _ := json.Marshal(map[string]any{"status": "pass", "version": version, "types": Types()})
	w.Write(append(b, '\n'))
}

// readSource reads at most limit bytes of r (and one more, to tell that there are more),
// taking the budget's chunks for the bytes as they arrive; req.held counts them. A client
// that sends slowly waits in Read holding only the chunks of what it sent.
func (h *Handler) readSource(ctx context.Context, req *request, r io.Reader, limit int) ([]byte, error) {
	var data []byte
	var scratch [4 << 10]byte
	for {
		n, err := r.Read(scratch[:min(len(scratch), limit+1-len(data))])
		if n > 0 {
			if need := (len(data) + n + chunk - 1) / chunk; need > req.held {
				wait, cancel := context.WithTimeout(ctx, h.lim.WaitTimeout)
				werr := h.bytes.take(wait, need-req.held)
				cancel()
				if werr != nil {
					return nil, errorf(http.StatusServiceUnavailable, "busy: no room within %s to read the source (%d MiB of sources are being read or drawn)", h.lim.WaitTimeout, h.bytes.total*chunk>>20)
				}
				req.held = need
			}
			data = append(data, scratch[:n]...)
		}
		if len(data) > limit {
			return data, errTooMuch
		}
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return data, err
		}
	}
}

var errTooMuch = errors.New("too much")

// parse reads the request: its type, format, source and options. The request it returns
// (even with an error) holds chunks of the budget.
func (h *Handler) parse(w http.ResponseWriter, r *http.Request, path string) (*request, error) {
	parts := strings.Split(path, "/")
	if path == "" {
		parts = nil
	}
	req := &request{options: map[string]string{}}
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		if len(parts) == 0 {
			return req, errorf(http.StatusNotFound, "kafkagrid serve speaks Kroki's API: GET /<type>/<format>/<encoded> or POST /<type>/<format>; types %s; formats %s; GET /health", strings.Join(Types(), ", "), strings.Join(Formats(Bytegrid), ", "))
		}
		if len(parts) != 3 {
			return req, errorf(http.StatusBadRequest, "GET %s: want /<type>/<format>/<encoded source>", clip(r.URL.Path))
		}
		req.typ, req.format = parts[0], parts[1]
		src, err := h.decodeSource(r.Context(), req, parts[2])
		if err != nil {
			return req, err
		}
		req.source = src
	case http.MethodPost:
		if err := h.parsePost(r, parts, req); err != nil {
			return req, err
		}
	default:
		w.Header().Set("Allow", "GET, HEAD, POST")
		return req, errorf(http.StatusMethodNotAllowed, "method %s: want GET or POST", clip(r.Method))
	}
	if len(req.source) > h.lim.MaxBody {
		return req, errorf(http.StatusRequestEntityTooLarge, "the diagram source is %d bytes, more than %d (serve -max-body)", len(req.source), h.lim.MaxBody)
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

// parsePost reads a POST request's type, format, source and options into req: the path's
// parts, the body (the source, or Kroki's JSON), the Accept header.
func (h *Handler) parsePost(r *http.Request, parts []string, req *request) error {
	if len(parts) > 2 {
		return errorf(http.StatusBadRequest, "POST %s: want /<type>/<format>, /<type> or /", clip(r.URL.Path))
	}
	body, err := h.readSource(r.Context(), req, r.Body, h.lim.MaxBody+jsonSlack)
	if errors.Is(err, errTooMuch) {
		return errorf(http.StatusRequestEntityTooLarge, "the body is more than %d bytes (serve -max-body %d)", h.lim.MaxBody+jsonSlack, h.lim.MaxBody)
	}
	if err != nil {
		var he *httpError
		if errors.As(err, &he) {
			return err
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return errorf(http.StatusRequestTimeout, "the body was not sent within %s (serve -timeout)", h.lim.ReadTimeout)
		}
		return errorf(http.StatusBadRequest, "reading the body: %v", err)
	}
	if len(parts) > 0 {
		req.typ = parts[0]
	}
	if len(parts) > 1 {
		req.format = parts[1]
	}
	if isJSON(r.Header.Get("Content-Type")) {
		if err := req.readJSON(body); err != nil {
			return err
		}
	} else {
		req.source = body
	}
	if req.format == "" {
		req.format = formatFromAccept(r.Header.Get("Accept"))
	}
	if req.typ == "" {
		return errorf(http.StatusBadRequest, `POST /: no diagram type (POST /<type>/<format>, or "diagram_type" in the JSON)`)
	}
	if req.format == "" {
		return errorf(http.StatusBadRequest, "POST %s: no output format (POST /<type>/<format>, an Accept header, or \"output_format\")", clip(r.URL.Path))
	}
	return nil
}

// readJSON reads Kroki's JSON body into req: the source, and the type, format and options
// where the path did not give them.
func (req *request) readJSON(body []byte) error {
	var j krokiJSON
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&j); err != nil {
		return errorf(http.StatusBadRequest, "JSON body: %s", jsonErrorText(body, err))
	}
	if j.Source == nil {
		return errorf(http.StatusBadRequest, `JSON body: no "diagram_source"`)
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
			return errorf(http.StatusBadRequest, "JSON body: diagram_options.%s: %v", clip(name), err)
		}
		req.options[strings.ToLower(name)] = v
	}
	return nil
}

// outputFormat names a format: "text" and "txt" are the same, as everywhere.
func outputFormat(s string) string {
	if f, ok := site.LookupFormat(s); ok {
		return f.Name
	}
	return strings.ToLower(s)
}

// decodeSource reads a GET's source: base64url (padded or not, as Java's URL decoder takes
// it) of the zlib-deflated text (or raw deflate, as some clients send), at most MaxBody bytes
// once inflated, counted in the budget as it inflates.
func (h *Handler) decodeSource(ctx context.Context, req *request, enc string) ([]byte, error) {
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
	src, err := h.readSource(ctx, req, zr, h.lim.MaxBody)
	if errors.Is(err, errTooMuch) {
		return nil, errorf(http.StatusRequestEntityTooLarge, "the diagram source inflates to more than %d bytes (serve -max-body)", h.lim.MaxBody)
	}
	if err != nil {
		var he *httpError
		if errors.As(err, &he) {
			return nil, err
		}
		return nil, errorf(http.StatusBadRequest, "the encoded source does not inflate: %v (Kroki's encoding: deflate, then base64url)", err)
	}
	return bytes.TrimSpace(src), nil // as Kroki does
}

// Encode is Kroki's encoding of a source for a GET: zlib deflate, then base64url.
func Encode(src []byte) string {
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

// formatFromAccept is the format an Accept header asks for, "" if none it names.
func formatFromAccept(accept string) string {
	for _, part := range strings.Split(accept, ",") {
		if f, ok := site.FormatOfType(strings.TrimSpace(part)); ok && slices.Contains(acceptFormats, f.Name) {
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

// jsonErrorText says where a JSON text is wrong: "line 2, column 5 (offset 17): …".
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
// client's), and the message as JSON, HTML or text, by the Accept header. Its write deadline
// runs from now, so that a request that waited is still answered.
func (h *Handler) fail(w http.ResponseWriter, r *http.Request, err error) {
	http.NewResponseController(w).SetWriteDeadline(time.Now().Add(h.lim.WriteTimeout))
	code, msg := http.StatusInternalServerError, err.Error()
	var he *httpError
	if errors.As(err, &he) {
		code = he.code
	} else {
		h.logf("%s %s: %v", r.Method, clip(r.URL.Path), err)
	}
	hd := w.Header()
	hd.Del("Content-Length")
	accept := strings.ToLower(r.Header.Get("Accept"))
	switch {
	case strings.Contains(accept, "image/") && !strings.Contains(accept, "text/html") && !strings.Contains(accept, "application/json"):
		// An <img> asked: an image that says what is wrong, as Kroki answers, not a broken
		// image.
		hd.Set("Content-Type", "image/svg+xml")
		w.WriteHeader(code)
		w.Write(errorSVG(code, msg))
	case strings.Contains(accept, "application/json"):
		type body struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		}
		b, _ := json.Marshal(struct {
			Error body `json:"error"`
		}{body{code, msg}})
		hd.Set("Content-Type", "application/json")
		w.WriteHeader(code)
		w.Write(append(b, '\n'))
	case strings.Contains(accept, "text/html"):
		hd.Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(code)
		fmt.Fprintf(w, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Error %d</title></head><body><h1>Error %d</h1><pre>%s</pre></body></html>\n",
			code, code, html.EscapeString(msg))
	default:
		hd.Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(code)
		fmt.Fprintf(w, "Error %d: %s\n", code, msg)
	}
}

// errorSVG draws an error's status and message as a small SVG image: the lines of the message
// cut at 90 characters, at most 20 of them, escaped.
func errorSVG(code int, msg string) []byte {
	var lines []string
	for _, l := range strings.Split(msg, "\n") {
		for len([]rune(l)) > 90 {
			r := []rune(l)
			lines = append(lines, string(r[:90]))
			l = string(r[90:])
		}
		lines = append(lines, l)
	}
	if len(lines) > 20 {
		lines = append(lines[:19], "…")
	}
	const lead = 18
	h := 40 + lead*len(lines)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" role="img" width="760" height="%d" viewBox="0 0 760 %d">`, h, h)
	fmt.Fprintf(&b, `<title>Error %d</title><rect width="760" height="%d" fill="#fff4f0" stroke="#d9481c"/>`, code, h)
	fmt.Fprintf(&b, `<text x="12" y="24" font-family="monospace" font-size="14" font-weight="bold" fill="#9a2a0a">Error %d</text>`, code)
	for i, l := range lines {
		fmt.Fprintf(&b, `<text x="12" y="%d" font-family="monospace" font-size="12" fill="#1f2328" xml:space="preserve">%s</text>`, 44+lead*i, html.EscapeString(l))
	}
	b.WriteString("</svg>\n")
	return []byte(b.String())
}
