package diagram

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/schemas"
)

const (
	produce9 = "api: Produce\nversion: 9\nside: response\nrelease: 4.0\n"
	tinyGrid = "name: Tiny\nfields:\n  - {name: A, bits: 16}\n  - {name: B, bits: 16}\n"
)

var testCats struct {
	once sync.Once
	cats map[string]*kafka.Catalog
	err  error
}

// catalogs reads Kafka 3.9 and 4.0 once for the tests (skipping without them).
func catalogs(tb testing.TB) map[string]*kafka.Catalog {
	tb.Helper()
	dirs := map[string]string{"3.9": testenv.Release(tb, "3.9"), "4.0": testenv.Release(tb, "4.0")}
	testCats.once.Do(func() {
		testCats.cats = map[string]*kafka.Catalog{}
		for name, dir := range dirs {
			r, err := schemas.Open(dir)
			if err != nil {
				testCats.err = err
				return
			}
			c, err := kafka.NewCatalog(r)
			if err != nil {
				testCats.err = err
				return
			}
			testCats.cats[name] = c
		}
	})
	if testCats.err != nil {
		tb.Fatal(testCats.err)
	}
	return testCats.cats
}

func ipv4(tb testing.TB) []byte {
	b, err := os.ReadFile(filepath.Join("..", "examples", "protocols", "ipv4.yaml"))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

func fetchErr(base, path, body string) ([]byte, int, error) {
	var resp *http.Response
	var err error
	if body == "" {
		resp, err = http.Get(base + path)
	} else {
		resp, err = http.Post(base+path, "text/plain", strings.NewReader(body))
	}
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return b, resp.StatusCode, err
}

func get(t *testing.T, base, path, body string, code int) []byte {
	t.Helper()
	b, c, err := fetchErr(base, path, body)
	if err != nil || c != code {
		t.Fatalf("%s: %d %v %.300s; want %d", path, c, err, b, code)
	}
	return b
}

// TestHandlerConcurrent sends 200 requests at once, valid and invalid mixed: every valid one
// is answered 200 with the same bytes, every invalid one 400 with its message; the drawings
// under way never pass MaxInflight, and the heap after is what it was before.
func TestHandlerConcurrent(t *testing.T) {
	const inflight = 4
	d := &Drawer{Catalogs: catalogs(t), Default: "4.0"}
	var logs bytes.Buffer
	h := NewHandler(d, Limits{MaxInflight: inflight, ReadTimeout: time.Minute, WaitTimeout: time.Minute, WriteTimeout: time.Minute})
	h.ErrorLog = log.New(&logs, "", 0)
	srv := httptest.NewServer(h)
	defer srv.Close()
	spec := ipv4(t)
	kinds := []struct {
		path, body string
		code       int
		has        string
	}{
		{"/bytegrid/svg", string(spec), 200, "<svg"},
		{"/bytegrid/txt/" + Encode(spec), "", 200, "Version"},
		{"/kafka/svg", produce9, 200, "<svg"},
		{"/kafka/svg", "api: Fetch\nview: tree\n", 200, "<svg"},
		{"/bytegrid/svg", "name: x\nfields: [\n", 400, "gridyaml: diagram:"},
		{"/kafka/svg", "api: Nope\n", 400, `no API "Nope"`},
		{"/kafka/svg", "hex: 00 00 00 ff 00\n", 400, "diagram:1: hex:"},
		{"/bytegrid/svg/eNp*", "", 400, "not base64url"},
		// A figure after prose, read as YAML: the answer names the form and the option.
		{"/bytegrid/svg", "The header:\nname: [\n", 400, "(read as yaml, the form its content looked like; from=rfc"},
		{"/bytegrid/svg?from=tls", "struct { uint8 a; } S;", 200, "<svg"},
	}
	first := make([][]byte, len(kinds))
	for i, kd := range kinds {
		first[i] = get(t, srv.URL, kd.path, kd.body, kd.code)
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	const n = 200
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			kd := kinds[i%len(kinds)]
			b, code, err := fetchErr(srv.URL, kd.path, kd.body)
			switch {
			case err != nil:
				errs <- err
			case code != kd.code:
				errs <- fmt.Errorf("%s: %d, want %d: %.200s", kd.path, code, kd.code, b)
			case !bytes.Contains(b, []byte(kd.has)):
				errs <- fmt.Errorf("%s: %.200s; want %q in it", kd.path, b, kd.has)
			case !bytes.Equal(b, first[i%len(kinds)]):
				errs <- fmt.Errorf("%s: the answer differs from the first one", kd.path)
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	srv.CloseClientConnections()
	runtime.GC()
	runtime.ReadMemStats(&after)
	st := h.Stats()
	if st.PeakDrawing > inflight || st.PeakDrawing < 1 {
		t.Errorf("%d drawings at once; the bound is %d", st.PeakDrawing, inflight)
	}
	if st.Drawing != 0 || st.HeldBytes != 0 {
		t.Errorf("%d drawings, %d bytes still counted under way", st.Drawing, st.HeldBytes)
	}
	if grown := int64(after.HeapAlloc) - int64(before.HeapAlloc); grown > 8<<20 {
		t.Errorf("the heap grew by %d KB over 200 requests: something is kept per request", grown>>10)
	}
	if logs.Len() > 0 {
		t.Errorf("the server logged: %s", logs.String())
	}
}

// TestHandlerLimits: a body over MaxBody, a GET that inflates past it (a deflate bomb), a grid
// over MaxFields and an option of a megabyte are refused before they cost more, and the error
// quotes a bounded part of what it refuses.
func TestHandlerLimits(t *testing.T) {
	h := NewHandler(&Drawer{MaxFields: 10}, Limits{MaxBody: 4096, MaxInflight: 1})
	srv := httptest.NewServer(h)
	defer srv.Close()
	var many strings.Builder
	many.WriteString("name: many\nfields:\n")
	for i := 0; i < 11; i++ {
		fmt.Fprintf(&many, "  - {name: f%d, bits: 8}\n", i)
	}
	big := strings.Repeat("x", 1<<20)
	for _, tc := range []struct {
		name, path, body string
		code             int
		has              string
	}{
		{"body", "/bytegrid/svg", strings.Repeat("#", 5000), 413, "the diagram source is 5000 bytes, more than 4096"},
		{"bomb", "/bytegrid/svg/" + Encode(bytes.Repeat([]byte("a"), 1<<20)), "", 413, "inflates to more than 4096 bytes"},
		{"fields", "/bytegrid/svg", many.String(), 400, "diagram:1: 11 fields, more than a diagram may have here (10)"},
		{"no schemas", "/kafka/svg", produce9, 400, "kafka diagrams need Kafka's schemas"},
		{"big option", "/bytegrid/svg?rowbits=" + big, tinyGrid, 400, `option rowbits="xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…"`},
		{"big format", "/bytegrid/" + big[:100<<10], tinyGrid, 400, `unsupported output format "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…"`},
		{"big type", "/" + big[:100<<10] + "/svg", tinyGrid, 400, `unsupported diagram type "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, code, err := fetchErr(srv.URL, tc.path, tc.body)
			if err != nil || code != tc.code || !bytes.Contains(b, []byte(tc.has)) {
				t.Errorf("%d %v %.300s; want %d and %q", code, err, b, tc.code, tc.has)
			}
			if len(b) > 1024 {
				t.Errorf("an error of %d bytes: it echoes the input", len(b))
			}
		})
	}
}

func TestDecodeSource(t *testing.T) {
	h := NewHandler(&Drawer{}, Limits{})
	for _, tc := range []struct {
		enc, want, err string
	}{
		{"eNpLyUwvSizIUHBXqPZIzcnJ17ULzy_KSanlAgB1EAjQ", "digraph G {Hello->World}", ""},
		{"S0xKBgA=", "abc", ""},              // raw deflate of "abc", padded
		{"S0xKBgA", "abc", ""},               // and not
		{"eNp*", "", "character 3"},          // not base64url
		{"eNpLyUwv", "", "does not inflate"}, // cut short
	} {
		req := &request{}
		got, err := h.decodeSource(t.Context(), req, tc.enc)
		h.bytes.give(req.held)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: %v; want an error with %q", tc.enc, err, tc.err)
			}
			continue
		}
		if err != nil || string(got) != tc.want {
			t.Errorf("%s: %q, %v; want %q", tc.enc, got, err, tc.want)
		}
	}
	if h.bytes.held() != 0 {
		t.Errorf("%d chunks held after the requests", h.bytes.held())
	}
}

func FuzzDecodeSource(f *testing.F) {
	f.Add("eNpLyUwvSizIUHBXqPZIzcnJ17ULzy_KSanlAgB1EAjQ")
	f.Add(Encode([]byte(produce9)))
	f.Add("S0xKBgA=")
	h := NewHandler(&Drawer{}, Limits{MaxBody: 1 << 16})
	f.Fuzz(func(t *testing.T, enc string) {
		req := &request{}
		got, err := h.decodeSource(t.Context(), req, enc)
		h.bytes.give(req.held)
		if err == nil && len(got) > 1<<16 {
			t.Fatalf("%d bytes, over the limit", len(got))
		}
	})
}

func FuzzKafkaSpec(f *testing.F) {
	f.Add([]byte(produce9))
	f.Add([]byte("api: Metadata\nside: response\nhex:\n00000000: 0000 0010\n"))
	f.Add([]byte("# a comment\n\napi: 3\nview: tree\n"))
	f.Add([]byte("00 00 00 0a 00 12 00 04"))
	f.Fuzz(func(t *testing.T, src []byte) {
		s, err := parseKafkaSpec("f", src)
		if err != nil {
			var le *Error
			if !errors.As(err, &le) || le.Line < 1 || le.Line > bytes.Count(src, []byte("\n"))+1 {
				t.Fatalf("error without a line in the source: %v", err)
			}
			return
		}
		if s.Hex == nil && s.API == "" {
			t.Fatalf("no API and no hex, and no error")
		}
	})
}

// FuzzServe sends any source to both diagram types: the answer is a drawing or Kroki's 400
// (413 past the body limit), never a panic or a 500.
func FuzzServe(f *testing.F) {
	f.Add("kafka", []byte(produce9))
	f.Add("kafka", []byte("api: Metadata\nside: response\nversion: 12\nhex:\n00 00 00 08 00 00 00 01 00 00 00 00\n"))
	f.Add("kafka", []byte("00000000: 0000 0012 0012 0003 0000 0001 0001 6300  ..............c.\n00000010: 036b 6702 3100                           .kg.1.\n"))
	f.Add("bytegrid", []byte(tinyGrid))
	f.Add("bytegrid", []byte("name: x\nfields:\n  - {name: a, bits: 3}\n  - {name: b, bits: 70000}\n"))
	cats := catalogs(f)
	f.Fuzz(func(t *testing.T, typ string, src []byte) {
		if typ != Bytegrid {
			typ = Kafka
		}
		var logs bytes.Buffer
		h := NewHandler(&Drawer{Catalogs: cats, Default: "4.0", MaxFields: 2000}, Limits{MaxBody: 1 << 16, MaxInflight: 1})
		h.ErrorLog = log.New(&logs, "", 0)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/"+typ+"/svg", bytes.NewReader(src)))
		switch rec.Code {
		case 200, 400, 413:
		default:
			t.Fatalf("%d: %s %s", rec.Code, rec.Body, logs.String())
		}
		if logs.Len() > 0 {
			t.Fatalf("logged: %s", logs.String())
		}
	})
}

// TestHandlerFormats: a format a type does not draw is refused with the formats it does draw.
func TestHandlerFormats(t *testing.T) {
	srv := httptest.NewServer(NewHandler(&Drawer{MaxFields: 100}, Limits{MaxInflight: 1}))
	defer srv.Close()
	for _, tc := range []struct{ path, want string }{
		{"/bytegrid/png", `unsupported output format "png" for bytegrid (want svg, rfcsvg, txt, pdf, json)`},
		{"/bytegrid/yaml", `unsupported output format "yaml" for bytegrid (want svg, rfcsvg, txt, pdf, json)`},
		{"/kafka/rfcsvg", `unsupported output format "rfcsvg" for kafka (want svg, txt, pdf, json)`},
	} {
		b, code, err := fetchErr(srv.URL, tc.path, tinyGrid)
		if err != nil || code != 400 || !bytes.Contains(b, []byte(tc.want)) {
			t.Errorf("%s: %d %v %s; want 400 and %q", tc.path, code, err, b, tc.want)
		}
	}
	for _, f := range Formats(Bytegrid) {
		if b, code, err := fetchErr(srv.URL, "/bytegrid/"+f, tinyGrid); err != nil || code != 200 {
			t.Errorf("bytegrid %s: %d %v %.200s", f, code, err, b)
		}
	}
	reg := `[{"bits": 8, "name": "a"}, {"bits": 24, "name": "b"}]`
	if b, code, err := fetchErr(srv.URL, "/bytegrid/txt?rowbits=16", reg); err != nil || code != 400 || !bytes.Contains(b, []byte("option rowbits=16: a bit-field's rows are its lanes")) {
		t.Errorf("a bit-field with rowbits=16: %d %v %s; want 400", code, err, b)
	}
	if b, code, err := fetchErr(srv.URL, "/bytegrid/txt", reg); err != nil || code != 200 || !bytes.Contains(b, []byte("|                       b                       |       a       |")) {
		t.Errorf("a bit-field: %d %v %s", code, err, b)
	}
}

// waitFor waits until cond holds, with no deadline of its own (testenv.Poll: the test's
// -timeout is the guard; a loaded machine runs many times slower).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	testenv.Poll(t, what, cond)
}

// TestHandlerSlowBodies: 16 slow clients, each announcing a 1 MB body and sending 100 bytes,
// hold one 64 KiB chunk each of the sources' budget, not a reader's place: a request beside
// them is drawn at once (issue: every other request waited for the timeout). Clients that
// send whole bodies fill the budget, and the next request then gets its 503 (the wait
// counted in the budget, not in time).
func TestHandlerSlowBodies(t *testing.T) {
	h := NewHandler(&Drawer{MaxFields: 100}, Limits{MaxBody: 1 << 20, MaxInflight: 1, WaitTimeout: 200 * time.Millisecond, ReadTimeout: time.Minute})
	srv := httptest.NewServer(h)
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	send := func(n int) {
		c, err := net.Dial("tcp", host)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		fmt.Fprintf(c, "POST /bytegrid/txt HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n%s", 1_000_000, strings.Repeat("#", n))
	}
	const slow = 16
	for i := 0; i < slow; i++ {
		send(100)
	}
	waitFor(t, "the slow clients' bytes counted", func() bool { return h.Stats().HeldBytes == slow*chunk })
	if b, code, err := fetchErr(srv.URL, "/bytegrid/txt", tinyGrid); err != nil || code != 200 {
		t.Errorf("a request beside %d slow clients: %d %v %.300s; want 200", slow, code, err, b)
	}
	// The budget: 4 × MaxInflight × (MaxBody + 64 KiB), in chunks; clients that have sent
	// 960,000 bytes each hold 15 chunks: 3 of them and the 16 slow ones hold 61 of 68, and a
	// body of 500,000 bytes (8 chunks) has no room.
	total := h.Stats().MaxHeld / chunk
	if total != 4*17 {
		t.Fatalf("a budget of %d chunks; want %d", total, 4*17)
	}
	full := (total - slow) / 15
	for i := 0; i < full; i++ {
		send(960_000)
	}
	waitFor(t, "the big bodies' bytes counted", func() bool { return h.Stats().HeldBytes >= (slow+full*15)*chunk })
	b, code, err := fetchErr(srv.URL, "/bytegrid/txt", strings.Repeat("#", 500_000)+"\n"+tinyGrid)
	if err != nil || code != http.StatusServiceUnavailable || !bytes.Contains(b, []byte("busy: no room")) {
		t.Errorf("a request past the budget: %d %v %.300s; want 503 busy", code, err, b)
	}
	for _, c := range conns {
		c.Close()
	}
	conns = nil
	waitFor(t, "the budget given back", func() bool { return h.Stats().HeldBytes == 0 })
	if b, code, err := fetchErr(srv.URL, "/bytegrid/txt", tinyGrid); err != nil || code != 200 {
		t.Errorf("after the clients left: %d %v %.300s", code, err, b)
	}
}

// TestHandlerWaited503: every request that waited too long for a drawing slot is answered
// 503 (the write deadline runs from its answer, not from the request's start), even in a
// server whose own WriteTimeout has passed.
func TestHandlerWaited503(t *testing.T) {
	h := NewHandler(&Drawer{}, Limits{MaxInflight: 1, WaitTimeout: 50 * time.Millisecond, WriteTimeout: time.Minute})
	h.slots <- struct{}{} // the one slot held, as by a long drawing
	srv := httptest.NewUnstartedServer(h)
	srv.Config.WriteTimeout = 10 * time.Millisecond // passes while the requests wait
	srv.Start()
	defer srv.Close()
	const n = 8
	var wg sync.WaitGroup
	codes := make(chan int, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, code, err := fetchErr(srv.URL, "/bytegrid/txt", tinyGrid)
			if err != nil {
				t.Error(err)
			}
			codes <- code
		}()
	}
	wg.Wait()
	close(codes)
	got := 0
	for c := range codes {
		if c == http.StatusServiceUnavailable {
			got++
		}
	}
	if got != n {
		t.Errorf("%d of %d waiting requests got 503", got, n)
	}
	<-h.slots
}

// TestKafkaHexBound: a kafka source whose hexdump's "*" line repeats a frame to 4 MiB draws
// one frame's worth: the frames after the first are found and not decoded, and the
// request's allocations stay a small multiple of the expanded bytes.
func TestKafkaHexBound(t *testing.T) {
	cats := catalogs(t)
	// A 16-byte ApiVersions v0 request, repeated by "*" to 4 MiB.
	src := "hex:\n" +
		"00000000  00 00 00 0c 00 12 00 00  00 00 00 01 00 02 6b 67  |..............kg|\n" +
		"*\n" +
		fmt.Sprintf("%08x\n", 4<<20)
	d := &Drawer{Catalogs: cats, Default: "4.0"}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := d.Draw(Request{Type: Kafka, Format: "txt", Source: []byte(src)})
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "262144 frames; a diagram draws one") {
		t.Fatalf("%v; want the frames counted", err)
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d KB allocated for %d bytes of source expanding to 4 MiB", alloc>>10, len(src))
	if alloc > 48<<20 {
		t.Errorf("%d MB allocated: the frames after the first were decoded", alloc>>20)
	}
}

// TestHandlerBodyDeadline: a body not sent within ReadTimeout is answered 408, and its
// chunks given back.
func TestHandlerBodyDeadline(t *testing.T) {
	h := NewHandler(&Drawer{}, Limits{ReadTimeout: 50 * time.Millisecond})
	srv := httptest.NewServer(h)
	defer srv.Close()
	c, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /bytegrid/txt HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\nname: x\n")
	b, _ := io.ReadAll(c)
	if !bytes.HasPrefix(b, []byte("HTTP/1.1 408")) || !bytes.Contains(b, []byte("the body was not sent within 50ms")) {
		t.Errorf("%.300s; want 408", b)
	}
	waitFor(t, "the chunks given back", func() bool { return h.Stats().HeldBytes == 0 })
}
