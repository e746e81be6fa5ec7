package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/kafkagrid/kafkagrid/diagram"
	"github.com/kafkagrid/kafkagrid/internal/testenv"
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
	enc := diagram.Encode(spec)
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
		{"GET kafka encoded", []string{s.base + "/kafka/svg/" + diagram.Encode([]byte(produce9))}, 200, "image/svg+xml", showSVG, ""},
		{"GET kafka pdf", []string{s.base + "/kafka/pdf/" + diagram.Encode([]byte(produce9))}, 200, "application/pdf", nil, "%PDF-"},
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

// TestServeSIGTERMInFlight: on SIGTERM the server stops listening, and a request under way
// (its body half sent) still finishes, within -timeout, before the process exits 143.
func TestServeSIGTERMInFlight(t *testing.T) {
	s := startServe(t, "-q", "-timeout", "60s")
	host := strings.TrimPrefix(s.base, "http://")
	c, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	body := tinyGrid
	fmt.Fprintf(c, "POST /bytegrid/txt HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nConnection: close\r\nExpect: 100-continue\r\nContent-Length: %d\r\n\r\n", len(body))
	// The request is under way once its handler reads the body: the server then answers
	// "100 Continue" (an event, not a wait: a health check on another connection did not
	// say that this one had been read, and SIGTERM could come first).
	br := bufio.NewReader(c)
	if line, err := br.ReadString('\n'); err != nil || !strings.Contains(line, "100 Continue") {
		t.Fatalf("no 100 Continue: %q, %v", line, err)
	}
	if _, err := br.ReadString('\n'); err != nil { // the blank line after it
		t.Fatal(err)
	}
	io.WriteString(c, body[:10])
	s.cmd.Process.Signal(syscall.SIGTERM)
	testenv.Poll(t, "serve to stop listening after SIGTERM", func() bool {
		d, err := net.Dial("tcp", host)
		if err != nil {
			return true
		}
		d.Close()
		return false
	})
	io.WriteString(c, body[10:])
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("the request under way was cut: %v; stderr %s", err, s.errText())
	}
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !bytes.Contains(b, []byte("|               A               |")) {
		t.Errorf("%d %s; want the drawing", resp.StatusCode, b)
	}
	err = s.cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 143 {
		t.Errorf("after SIGTERM: %v; want exit 143", err)
	}
}
