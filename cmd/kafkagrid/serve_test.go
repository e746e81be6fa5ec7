package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
)

// served is a "kafkagrid serve" process started by a test.
type served struct {
	cmd    *exec.Cmd
	base   string // http://127.0.0.1:PORT
	mu     sync.Mutex
	stderr bytes.Buffer
}

func (s *served) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stderr.Write(p)
}

func (s *served) errText() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stderr.String()
}

// startServe starts the command itself ("kafkagrid serve -listen 127.0.0.1:0 args…") as a child
// process, and returns it once it says where it listens. The test's end stops it.
func startServe(t *testing.T, args ...string) *served {
	t.Helper()
	s := &served{}
	s.cmd = exec.Command(os.Args[0], append([]string{"serve", "-listen", "127.0.0.1:0"}, args...)...)
	s.cmd.Env = append(os.Environ(), "KAFKAGRID_TEST_MAIN=1")
	// A pipe of the system's: its reader ends when the process does (the process holds the
	// only writer once started).
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	s.cmd.Stderr = pw
	err = s.cmd.Start()
	pw.Close()
	if err != nil {
		pr.Close()
		t.Fatal(err)
	}
	addr := make(chan string, 1) // closed when the output ends without saying where
	go func() {
		sc := bufio.NewScanner(pr)
		re := regexp.MustCompile(`on (http://127\.0\.0\.1:\d+)$`)
		said := false
		for sc.Scan() {
			s.Write(append(sc.Bytes(), '\n'))
			if m := re.FindStringSubmatch(sc.Text()); m != nil && !said {
				addr <- m[1]
				said = true
			}
		}
		io.Copy(s, pr)
		if !said {
			close(addr)
		}
	}()
	t.Cleanup(func() {
		if s.cmd.ProcessState == nil {
			s.cmd.Process.Kill()
			s.cmd.Wait()
		}
		pr.Close()
	})
	// Until it says where it listens, or ends without saying (no deadline: the test's -timeout
	// is the hang guard).
	base, ok := <-addr
	if !ok {
		t.Fatalf("serve ended without listening: %s", s.errText())
	}
	s.base = base
	return s
}

// want is what the command's own verbs write for the same diagram.
func verbOutput(t *testing.T, args ...string) []byte {
	t.Helper()
	out, errs, code := runCmd(t, args...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errs)
	}
	return []byte(out)
}

const produce9 = "api: Produce\nversion: 9\nside: response\nrelease: 4.0\n"

// TestServeCurl drives the server with curl, as a user tries it: POST text/plain and JSON,
// GET with Kroki's encoding, options, errors in Kroki's shape, /health.
func TestServeCurl(t *testing.T) {
	curl := needTool(t, "curl")
	root := testenv.Releases(t)
	s := startServe(t, "-q", "-schemas", root)
	ipv4 := filepath.Join("..", "..", "examples", "protocols", "ipv4.yaml")
	spec, err := os.ReadFile(ipv4)
	if err != nil {
		t.Fatal(err)
	}
	gridSVG := verbOutput(t, "grid", ipv4, "-format", "svg")
	gridTxt16 := verbOutput(t, "grid", ipv4, "-format", "txt", "-rowbits", "16")
	showSVG := verbOutput(t, "show", "Produce", "-version", "9", "-response", "-format", "svg", "-q", "-schemas", filepath.Join(root, "4.0"))
	showTxt := verbOutput(t, "show", "Metadata", "-version", "3", "-format", "txt", "-q", "-schemas", filepath.Join(root, "3.9"))
	tmp := t.TempDir()
	kafkaFile := filepath.Join(tmp, "produce.txt")
	os.WriteFile(kafkaFile, []byte(produce9), 0o644)

	type result struct {
		code  int
		ctype string
		body  []byte
	}
	do := func(args ...string) result {
		t.Helper()
		out := filepath.Join(tmp, "out")
		os.Remove(out)
		cmd := exec.Command(curl, append([]string{"-sS", "-o", out, "-w", "%{http_code} %{content_type}"}, args...)...)
		meta, err := cmd.Output()
		if err != nil {
			t.Fatalf("curl %v: %v", args, err)
		}
		body, _ := os.ReadFile(out)
		code, ctype, _ := strings.Cut(string(meta), " ")
		var n int
		fmt.Sscan(code, &n)
		return result{n, ctype, body}
	}
	enc := encodeSource(spec)
	for _, tc := range []struct {
		name  string
		args  []string
		code  int
		ctype string
		want  []byte // exact body, or nil
		has   string // a part of the body
	}{
		{"POST text/plain", []string{"--data-binary", "@" + ipv4, s.base + "/bytegrid/svg"}, 200, "image/svg+xml", gridSVG, ""},
		{"POST kafka", []string{"--data-binary", "@" + kafkaFile, s.base + "/kafka/svg"}, 200, "image/svg+xml", showSVG, ""},
		{"POST JSON with options", []string{"-H", "Content-Type: application/json", "--data-binary",
			`{"diagram_source":"api: Metadata\nrelease: 3.9","diagram_options":{"version":3}}`, s.base + "/kafka/txt"}, 200, "text/plain; charset=utf-8", showTxt, ""},
		{"POST / JSON", []string{"-H", "Content-Type: application/json", "--data-binary",
			mustJSON(map[string]any{"diagram_source": string(spec), "diagram_type": "bytegrid", "output_format": "svg"}), s.base + "/"}, 200, "image/svg+xml", gridSVG, ""},
		{"POST Accept", []string{"-H", "Accept: image/svg+xml", "--data-binary", "@" + ipv4, s.base + "/bytegrid"}, 200, "image/svg+xml", gridSVG, ""},
		{"GET encoded", []string{s.base + "/bytegrid/svg/" + enc}, 200, "image/svg+xml", gridSVG, ""},
		{"GET encoded, query option", []string{s.base + "/bytegrid/txt/" + enc + "?rowbits=16"}, 200, "text/plain; charset=utf-8", gridTxt16, ""},
		{"GET encoded, header option", []string{"-H", "Kroki-Diagram-Options-rowbits: 16", s.base + "/bytegrid/txt/" + enc}, 200, "text/plain; charset=utf-8", gridTxt16, ""},
		{"GET pdf", []string{s.base + "/bytegrid/pdf/" + enc}, 200, "application/pdf", nil, "%PDF-"},
		{"GET kafka encoded", []string{s.base + "/kafka/svg/" + encodeSource([]byte(produce9))}, 200, "image/svg+xml", showSVG, ""},
		{"GET kafka pdf", []string{s.base + "/kafka/pdf/" + encodeSource([]byte(produce9))}, 200, "application/pdf", nil, "%PDF-"},
		{"health", []string{s.base + "/health"}, 200, "application/json", nil, `"status":"pass"`},
		{"bad YAML, text", []string{"--data-binary", "name: x\nfields:\n  - name: a\n    bits: [\n", s.base + "/bytegrid/svg"}, 400, "text/plain; charset=utf-8", nil, "Error 400: gridyaml: diagram:4"},
		{"bad API, JSON error", []string{"-H", "Accept: application/json", "--data-binary", "api: Produc\n", s.base + "/kafka/svg"}, 400, "application/json", nil,
			`{"error":{"code":400,"message":"diagram:1: api: no API \"Produc\" in Kafka 4.0; did you mean Produce?"}}`},
		{"bad key", []string{"--data-binary", "api: Produce\nverison: 3\n", s.base + "/kafka/svg"}, 400, "text/plain; charset=utf-8", nil, `diagram:2:1: unknown key "verison"`},
		{"bad type", []string{"--data-binary", "x", s.base + "/mermaid/svg"}, 400, "text/plain; charset=utf-8", nil, `unsupported diagram type "mermaid"`},
		{"bad format", []string{"--data-binary", "@" + ipv4, s.base + "/bytegrid/png"}, 400, "text/plain; charset=utf-8", nil, `unsupported output format "png"`},
		{"bad encoding", []string{s.base + "/bytegrid/svg/eNp*"}, 400, "text/plain; charset=utf-8", nil, "not base64url at character 3"},
		{"bad JSON", []string{"-H", "Content-Type: application/json", "--data-binary", "{\n \"diagram_source\": 3}", s.base + "/bytegrid/svg"}, 400, "text/plain; charset=utf-8", nil, "line 2, column"},
		{"method", []string{"-X", "DELETE", s.base + "/bytegrid/svg"}, 405, "text/plain; charset=utf-8", nil, "Error 405"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := do(tc.args...)
			if r.code != tc.code || r.ctype != tc.ctype {
				t.Fatalf("status %d, %q; want %d, %q; body %.300s", r.code, r.ctype, tc.code, tc.ctype, r.body)
			}
			if tc.want != nil && !bytes.Equal(r.body, tc.want) {
				t.Errorf("body differs from the verb's output (%d bytes, want %d): %.200s", len(r.body), len(tc.want), r.body)
			}
			if !bytes.Contains(r.body, []byte(tc.has)) {
				t.Errorf("body %.300s; want it to contain %q", r.body, tc.has)
			}
		})
	}
	if t.Failed() {
		t.Logf("server's stderr: %s", s.errText())
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

var dataURI = regexp.MustCompile(`src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"`)
var imgSrc = regexp.MustCompile(`<img src="(http://[^"]+)"`)

// TestServeAsciidoctor converts an AsciiDoc file with a [bytegrid] and a [kafka] block with
// Debian's asciidoctor and asciidoctor-kroki pointed at the server: with kroki-fetch-diagram and
// data-uri the SVGs are fetched and embedded as data URIs, without them the page links the
// server's GET URLs. Either way the SVGs are those grid and show write.
func TestServeAsciidoctor(t *testing.T) {
	adoc := needTool(t, "asciidoctor")
	if exec.Command("ruby", "-e", "require 'asciidoctor-kroki'").Run() != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("ruby-asciidoctor-kroki is required in CI (apt-get install -y asciidoctor ruby-asciidoctor-kroki)")
		}
		t.Skip("ruby-asciidoctor-kroki not installed")
	}
	root := testenv.Releases(t)
	s := startServe(t, "-q", "-schemas", root)
	ipv4, _ := filepath.Abs(filepath.Join("..", "..", "examples", "protocols", "ipv4.yaml"))
	reg, _ := filepath.Abs(filepath.Join("..", "..", "docs", "asciidoctor-kafkagrid.rb"))
	gridSVG := verbOutput(t, "grid", ipv4, "-format", "svg")
	showSVG := verbOutput(t, "show", "Produce", "-version", "9", "-response", "-format", "svg", "-q", "-schemas", filepath.Join(root, "4.0"))
	treeSVG := verbOutput(t, "show", "Fetch", "-format", "svg", "-tree", "-q", "-schemas", filepath.Join(root, "4.0"))

	dir := t.TempDir()
	doc := "= Protocols\n\n== IPv4\n\n[bytegrid]\n....\ninclude::" + ipv4 + "[]\n....\n\n== Produce\n\n[kafka]\n----\n" + produce9 + "----\n\n" +
		"[kafka,view=tree]\n----\napi: Fetch\n----\n"
	os.WriteFile(filepath.Join(dir, "doc.adoc"), []byte(doc), 0o644)
	for _, tc := range []struct {
		name  string
		attrs []string
	}{
		{"data-uri", []string{"-a", "kroki-fetch-diagram", "-a", "data-uri"}},
		{"links", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, tc.name+".html")
			args := append([]string{"-r", "asciidoctor-kroki", "-r", reg, "-a", "kroki-server-url=" + s.base, "--failure-level", "WARN", "-o", out}, tc.attrs...)
			cmd := exec.Command(adoc, append(args, filepath.Join(dir, "doc.adoc"))...)
			cmd.Dir = dir
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("asciidoctor: %v: %s", err, b)
			}
			page, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			var got [][]byte
			if tc.attrs != nil {
				for _, m := range dataURI.FindAllSubmatch(page, -1) {
					b, err := base64.StdEncoding.DecodeString(string(m[1]))
					if err != nil {
						t.Fatal(err)
					}
					got = append(got, b)
				}
			} else {
				for _, m := range imgSrc.FindAllSubmatch(page, -1) {
					resp, err := http.Get(string(m[1]))
					if err != nil {
						t.Fatal(err)
					}
					b, _ := io.ReadAll(resp.Body)
					resp.Body.Close()
					if resp.StatusCode != 200 {
						t.Fatalf("GET %s: %d %s", m[1], resp.StatusCode, b)
					}
					got = append(got, b)
				}
			}
			want := [][]byte{gridSVG, showSVG, treeSVG}
			if len(got) != len(want) {
				t.Fatalf("%d SVGs in the page, want %d: %.2000s", len(got), len(want), page)
			}
			for i := range want {
				if !bytes.Equal(got[i], want[i]) {
					t.Errorf("SVG %d: %d bytes, not the %d the verb writes: %.200s", i+1, len(got[i]), len(want[i]), got[i])
				}
			}
		})
	}
}

// TestServeSIGTERM: the server stops on SIGTERM, as every verb does (exit 143), and stops
// listening.
func TestServeSIGTERM(t *testing.T) {
	s := startServe(t, "-q")
	resp, err := http.Get(s.base + "/health")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	s.cmd.Process.Signal(syscall.SIGTERM)
	err = s.cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 143 {
		t.Fatalf("after SIGTERM: %v; want exit 143; stderr %s", err, s.errText())
	}
	if c, err := net.Dial("tcp", strings.TrimPrefix(s.base, "http://")); err == nil {
		c.Close()
		t.Errorf("still listening after SIGTERM")
	}
}

// TestServeConcurrent sends 200 requests at once, valid and invalid mixed, to the handler: every
// valid one is answered 200 with the same bytes, every invalid one 400 with its message, nothing
// else; the drawings under way never pass -max-inflight, and the heap after is what it was
// before (nothing kept per request).
func TestServeConcurrent(t *testing.T) {
	root := testenv.Releases(t)
	var errb bytes.Buffer
	cats, def, err := loadCatalogs(context.Background(), schemaFlagsFor(root), &errb, false)
	if err != nil {
		t.Fatal(err)
	}
	const inflight = 4
	d := &drawer{cats: cats, def: def, maxFields: 20_000}
	var logs bytes.Buffer
	k := newKroki(d, serveLimits{maxBody: 1 << 20, maxFields: 20_000, maxInflight: inflight, timeout: time.Minute}, log.New(&logs, "", 0))
	srv := httptest.NewServer(k)
	defer srv.Close()
	spec, _ := os.ReadFile(filepath.Join("..", "..", "examples", "protocols", "ipv4.yaml"))
	type req struct {
		path, body string
		code       int
		has        string
	}
	kinds := []req{
		{"/bytegrid/svg", string(spec), 200, "<svg"},
		{"/bytegrid/txt/" + encodeSource(spec), "", 200, "Version"},
		{"/kafka/svg", produce9, 200, "<svg"},
		{"/kafka/svg", "api: Fetch\nview: tree\n", 200, "<svg"},
		{"/bytegrid/svg", "name: x\nfields: [\n", 400, "gridyaml: diagram:"},
		{"/kafka/svg", "api: Nope\n", 400, `no API "Nope"`},
		{"/kafka/svg", "hex: 00 00 00 ff 00\n", 400, "diagram:1: hex:"},
		{"/bytegrid/svg/eNp*", "", 400, "not base64url"},
	}
	// The first answer of each valid kind, to check that concurrent answers agree.
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
	if p := k.peak.Load(); p > inflight || p < 1 {
		t.Errorf("%d drawings at once; the bound is %d", p, inflight)
	}
	if k.inflight.Load() != 0 {
		t.Errorf("%d drawings still counted under way", k.inflight.Load())
	}
	grown := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("peak %d drawings at once; heap %d KB before, %d KB after 200 requests", k.peak.Load(), before.HeapAlloc>>10, after.HeapAlloc>>10)
	if grown > 8<<20 {
		t.Errorf("the heap grew by %d KB over 200 requests: something is kept per request", grown>>10)
	}
	if logs.Len() > 0 {
		t.Errorf("the server logged: %s", logs.String())
	}
}

func schemaFlagsFor(root string) *schemaFlags {
	fs := newFlagSet("serve", "", io.Discard, io.Discard)
	sf := addSchemaFlags(fs)
	*sf.schemas, *sf.quiet = root, true
	return sf
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
		t.Fatalf("%s: %d, %v; want %d: %.300s", path, c, err, code, b)
	}
	return b
}

// TestServeLimits: a body over -max-body, a GET that inflates past it (a deflate bomb) and a
// grid over -max-fields are refused before they cost more.
func TestServeLimits(t *testing.T) {
	d := &drawer{maxFields: 10}
	var logs bytes.Buffer
	k := newKroki(d, serveLimits{maxBody: 4096, maxFields: 10, maxInflight: 1, timeout: time.Minute}, log.New(&logs, "", 0))
	srv := httptest.NewServer(k)
	defer srv.Close()
	var many strings.Builder
	many.WriteString("name: many\nfields:\n")
	for i := 0; i < 11; i++ {
		fmt.Fprintf(&many, "  - {name: f%d, bits: 8}\n", i)
	}
	for _, tc := range []struct {
		name, path, body string
		code             int
		has              string
	}{
		{"body", "/bytegrid/svg", strings.Repeat("#", 5000), 413, "the diagram source is 5000 bytes, more than 4096"},
		{"bomb", "/bytegrid/svg/" + encodeSource(bytes.Repeat([]byte("a"), 1<<20)), "", 413, "inflates to more than 4096 bytes"},
		{"fields", "/bytegrid/svg", many.String(), 400, "diagram:1: 11 fields, more than a diagram may have here (10)"},
		{"no schemas", "/kafka/svg", produce9, 400, "kafka diagrams need Kafka's schemas"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, code, err := fetchErr(srv.URL, tc.path, tc.body)
			if err != nil || code != tc.code || !bytes.Contains(b, []byte(tc.has)) {
				t.Errorf("%d %v %.300s; want %d and %q", code, err, b, tc.code, tc.has)
			}
		})
	}
}

// TestDecodeSource checks Kroki's encoding against the example of Kroki's documentation
// (docs.kroki.io, "Usage": Python's zlib.compress then urlsafe_b64encode), raw deflate, padding,
// and bad input.
func TestDecodeSource(t *testing.T) {
	for _, tc := range []struct {
		enc, want, err string
	}{
		{"eNpLyUwvSizIUHBXqPZIzcnJ17ULzy_KSanlAgB1EAjQ", "digraph G {Hello->World}", ""},
		{"S0xKBgA=", "abc", ""},              // raw deflate of "abc", padded
		{"S0xKBgA", "abc", ""},               // and not
		{"eNp*", "", "character 3"},          // not base64url
		{"eNpLyUwv", "", "does not inflate"}, // cut short
	} {
		got, err := decodeSource(tc.enc, 1<<20)
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
	src := []byte("name: x\nfields:\n  - {name: a, bits: 8}\n")
	if got, err := decodeSource(encodeSource(src), 1<<20); err != nil || !bytes.Equal(got, bytes.TrimSpace(src)) {
		t.Errorf("round trip: %q, %v", got, err)
	}
}

func FuzzDecodeSource(f *testing.F) {
	f.Add("eNpLyUwvSizIUHBXqPZIzcnJ17ULzy_KSanlAgB1EAjQ")
	f.Add(encodeSource([]byte(produce9)))
	f.Add("S0xKBgA=")
	f.Fuzz(func(t *testing.T, enc string) {
		got, err := decodeSource(enc, 1<<16)
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
			var le *lineError
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
	testenv.Release(f, "4.0") // skips without the schemas
	f.Add("kafka", []byte(produce9))
	f.Add("kafka", []byte("api: Metadata\nside: response\nversion: 12\nhex:\n00 00 00 08 00 00 00 01 00 00 00 00\n"))
	f.Add("kafka", []byte("00000000: 0000 0012 0012 0003 0000 0001 0001 6300  ..............c.\n00000010: 036b 6702 3100                           .kg.1.\n"))
	f.Add("bytegrid", []byte(tinyGrid))
	f.Add("bytegrid", []byte("name: x\nfields:\n  - {name: a, bits: 3}\n  - {name: b, bits: 70000}\n"))
	if b, err := os.ReadFile(filepath.Join("..", "..", "examples", "protocols", "ipv4.yaml")); err == nil {
		f.Add("bytegrid", b)
	}
	f.Fuzz(func(t *testing.T, typ string, src []byte) {
		if typ != typeGrid {
			typ = typeKafka
		}
		cats, def, _ := loadCatalogsOnce(t)
		d := &drawer{cats: cats, def: def, maxFields: 2000}
		var logs bytes.Buffer
		k := newKroki(d, serveLimits{maxBody: 1 << 16, maxFields: 2000, maxInflight: 1, timeout: time.Minute}, log.New(&logs, "", 0))
		rec := httptest.NewRecorder()
		k.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/"+typ+"/svg", bytes.NewReader(src)))
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

var fuzzCats struct {
	once sync.Once
	cats map[string]*kafka.Catalog
	def  string
	err  error
}

func loadCatalogsOnce(t *testing.T) (map[string]*kafka.Catalog, string, error) {
	fuzzCats.once.Do(func() {
		fuzzCats.cats, fuzzCats.def, fuzzCats.err = loadCatalogs(context.Background(), schemaFlagsFor(testenv.Release(t, "4.0")), io.Discard, false)
	})
	return fuzzCats.cats, fuzzCats.def, fuzzCats.err
}

// TestServeSlowBodies: clients that send a body slowly hold a place to read it, and when the
// places (4 a drawing slot) are all held, the next request waits and gets 503 within -timeout,
// instead of every connection buffering up to -max-body bytes at once. Once the slow clients
// are gone, requests are read again.
func TestServeSlowBodies(t *testing.T) {
	d := &drawer{maxFields: 100}
	var logs bytes.Buffer
	k := newKroki(d, serveLimits{maxBody: 1 << 20, maxFields: 100, maxInflight: 1, timeout: 300 * time.Millisecond}, log.New(&logs, "", 0))
	srv := httptest.NewServer(k)
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	var slow []net.Conn
	defer func() {
		for _, c := range slow {
			c.Close()
		}
	}()
	for i := 0; i < readersPerSlot; i++ {
		c, err := net.Dial("tcp", host)
		if err != nil {
			t.Fatal(err)
		}
		slow = append(slow, c)
		// A body of 1 MB announced, 100 bytes sent: the handler waits in the body's read.
		fmt.Fprintf(c, "POST /bytegrid/txt HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 1000000\r\n\r\n%s", strings.Repeat("#", 100))
	}
	// Wait until the four hold their places (the test's -timeout is the guard).
	testenv.Poll(t, fmt.Sprintf("%d slow requests to hold a place", readersPerSlot), func() bool { return len(k.readers) >= readersPerSlot })
	b, code, err := fetchErr(srv.URL, "/bytegrid/txt", tinyGrid)
	if err != nil || code != http.StatusServiceUnavailable || !bytes.Contains(b, []byte("busy: 4 requests are being read or drawn")) {
		t.Errorf("a request while 4 bodies are read: %d %v %.300s; want 503 busy", code, err, b)
	}
	for _, c := range slow {
		c.Close()
	}
	slow = nil
	testenv.Poll(t, "the places held to be freed after the slow clients left", func() bool { return len(k.readers) == 0 })
	if b, code, err := fetchErr(srv.URL, "/bytegrid/txt", tinyGrid); err != nil || code != 200 {
		t.Errorf("after the slow clients left: %d %v %.300s", code, err, b)
	}
}

// TestServeFormats: a format a type does not draw is refused with the formats it does draw.
func TestServeFormats(t *testing.T) {
	d := &drawer{maxFields: 100}
	k := newKroki(d, serveLimits{maxBody: 1 << 16, maxFields: 100, maxInflight: 1, timeout: time.Minute}, log.New(io.Discard, "", 0))
	srv := httptest.NewServer(k)
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
	for _, f := range typeFormats[typeGrid] {
		if b, code, err := fetchErr(srv.URL, "/bytegrid/"+f, tinyGrid); err != nil || code != 200 {
			t.Errorf("bytegrid %s: %d %v %.200s", f, code, err, b)
		}
	}
	// A bit-field register's rows are its lanes: rowbits would move its fields from where
	// bit-field draws them (a at bits 0-7 of a 16-bit row's right half), so it is refused, as
	// grid refuses -rowbits for it.
	reg := `[{"bits": 8, "name": "a"}, {"bits": 24, "name": "b"}]`
	if b, code, err := fetchErr(srv.URL, "/bytegrid/txt?rowbits=16", reg); err != nil || code != 400 || !bytes.Contains(b, []byte("option rowbits=16: a bit-field's rows are its lanes")) {
		t.Errorf("a bit-field with rowbits=16: %d %v %s; want 400", code, err, b)
	}
	if b, code, err := fetchErr(srv.URL, "/bytegrid/txt", reg); err != nil || code != 200 || !bytes.Contains(b, []byte("|                       b                       |       a       |")) {
		t.Errorf("a bit-field: %d %v %s", code, err, b)
	}
}
