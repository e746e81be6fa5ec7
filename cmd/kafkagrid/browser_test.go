package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/kafkagrid/kafkagrid/capture/capturetest"
	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site/outdir"
	"github.com/kafkagrid/kafkagrid/site/reference"
	"github.com/kafkagrid/kafkagrid/site/webdecoder"
)

// pageCase is one input given to the browser decoder and to "kafkagrid decode" alike.
type pageCase struct {
	name  string
	file  string // the input's file (given to the command; the page gets its bytes)
	drop  bool   // the page gets the file dropped (its name with it), else its text pasted
	flags []string
	q     webdecoder.Request // the same flags, as the page's controls set them
}

// pageCases are the inputs of the page tests: each frame of ../shared/real-frames as published,
// with the -api and -version the command needs for it (found as TestRealFrames finds them), a
// capture of example exchanges (pcapng, compressed batches in it), a response file named as
// build names it, and inputs that give errors: text of no form, a form forced that is not the
// text's, flags that do not go together, a version of a release the picked one lacks.
//
// The cases, and what the command gives for each (cliDecode, cliReport), are made once a test
// process (pageRuns): TestPageDecode and TestBrowserDecoder compare the page with the same.
func pageCases(t *testing.T, root string) []pageCase {
	t.Helper()
	pageRuns.mu.Lock()
	defer pageRuns.mu.Unlock()
	if pageRuns.cases == nil || pageRuns.root != root {
		tmp := t.TempDir()
		if built40.root != "" { // TestMain's folder, removed when the tests end
			tmp = filepath.Join(built40.root, "page-cases")
			if err := os.MkdirAll(tmp, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		pageRuns.cases, pageRuns.root = makePageCases(t, root, tmp), root
		pageRuns.decode, pageRuns.report = map[string]cliDecoded{}, map[string]map[string]string{}
	}
	return pageRuns.cases
}

// pageRuns holds the page cases of the folder of releases root and the command's output for
// each, by case name, made once a test process.
var pageRuns struct {
	mu     sync.Mutex
	root   string
	cases  []pageCase
	decode map[string]cliDecoded
	report map[string]map[string]string
}

// cliDecoded is what cliDecode returns.
type cliDecoded struct {
	text, json, stderr string
	code               int
}

// makePageCases makes the page cases, the files it writes in tmp.
func makePageCases(t *testing.T, root, tmp string) []pageCase {
	t.Helper()
	dir := realFramesDir(t)
	files, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []pageCase
	for _, file := range files {
		if filepath.Base(file) == "README.md" {
			continue
		}
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		head, _, _ := strings.Cut(string(data), "\n\n")
		var whatLine string
		for _, l := range strings.Split(head, "\n") {
			if s, ok := strings.CutPrefix(l, "WHAT: "); ok {
				whatLine = s
			}
		}
		w := parseWhat(t, whatLine)
		// The flags the command needs: as few as give one reading (checkRealFrame's order).
		var flags []string
		for _, fl := range [][]string{nil, {"-api", w.api}, {"-api", w.api, "-version", strconv.Itoa(w.version)}} {
			flags = fl
			out, errs, _ := runCmd(t, append(append([]string{"decode", "-schemas", root}, fl...), file)...)
			if !(strings.Contains(out, " readings of these bytes") || strings.Contains(errs, "give -api") || strings.Contains(out, "give -api")) {
				break
			}
		}
		c := pageCase{name: filepath.Base(file), file: file, flags: flags}
		for i := 0; i+1 < len(flags); i += 2 {
			switch flags[i] {
			case "-api":
				c.q.API = flags[i+1]
			case "-version":
				c.q.Version = flags[i+1]
			}
		}
		cases = append(cases, c)
	}
	if len(cases) == 0 {
		t.Fatalf("no frames in %s", dir)
	}
	put := func(name string, data []byte) string {
		p := filepath.Join(tmp, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// A capture of example exchanges, as capture's tests make them (capturetest), zstd batches.
	c, err := kafka.LoadCatalog(filepath.Join(root, "4.0"))
	if err != nil {
		t.Fatal(err)
	}
	vs, err := c.Vectors(kafka.VectorOptions{Compression: kafka.CodecZstd})
	if err != nil {
		t.Fatal(err)
	}
	var chunks []capturetest.Chunk
	var named []byte
	var namedAs string
	for _, v := range vs {
		switch v.API.Name {
		case "ApiVersions", "Metadata", "Produce", "Fetch":
			if v.Request.Version == v.API.Version {
				chunks = append(chunks, capturetest.Chunk{FromClient: true, Data: v.Request.Bytes}, capturetest.Chunk{Data: v.Response.Bytes})
			}
			if v.API.Name == "Metadata" && named == nil {
				named, namedAs = v.Response.Bytes, reference.BaseName(v.API, v.Response.Version, true)+".bin"
			}
		}
	}
	var buf bytes.Buffer
	ends := []capturetest.Endpoints{{Client: netip.MustParseAddrPort("10.0.0.2:50000"), Server: netip.MustParseAddrPort("10.0.0.1:9092")}}
	if err := capturetest.Write(&buf, ends, chunks, capturetest.Options{NG: true, MSS: 500, Reorder: 4}); err != nil {
		t.Fatal(err)
	}
	if named == nil {
		t.Fatal("no Metadata response in the vectors")
	}
	cases = append(cases,
		pageCase{name: "capture.pcapng", file: put("capture.pcapng", buf.Bytes()), drop: true},
		pageCase{name: "named response", file: put(namedAs, named), drop: true},
		pageCase{name: "no form", file: put("prose.txt", []byte("00 01 02 03\nthese are no bytes: 0xzz\n"))},
		pageCase{name: "form forced", file: put("list.txt", []byte("{0x00, 0x0g}\n")), flags: []string{"-from", "list"}, q: webdecoder.Request{From: "list"}},
		pageCase{name: "version removed", file: filepath.Join(dir, "06-perl-fetch-v0-response.txt"), flags: []string{"-api", "Fetch", "-version", "0"}, q: webdecoder.Request{API: "Fetch", Version: "0"}},
		pageCase{name: "flags clash", file: put("hex2.txt", []byte("0000000400000007\n")), flags: []string{"-body", "-no-size"}, q: webdecoder.Request{Body: true, NoSize: true}},
		pageCase{name: "body as response", file: put("body.txt", []byte("00 00 00 00 00 00\n")),
			flags: []string{"-body", "-api", "ApiVersions", "-version", "0", "-response"}, q: webdecoder.Request{Body: true, API: "ApiVersions", Version: "0", Response: true}},
		pageCase{name: "cut short", file: put("short.txt", []byte("00 00 00 30 00 12 00 03 00 00 00 07\n"))},
	)
	for i := range cases {
		cases[i].q.Release = "4.0"
		if cases[i].drop {
			cases[i].q.Name = filepath.Base(cases[i].file)
		} else {
			cases[i].q.Name = "-"
		}
	}
	return cases
}

// cliDecode runs "kafkagrid decode -schemas root -release 4.0 FLAGS FILE" with -format txt and
// -format json: what the page must show (once a process for each of pageCases' cases).
func cliDecode(t *testing.T, root string, c pageCase) (text, jsonOut, stderr string, code int) {
	t.Helper()
	pageRuns.mu.Lock()
	r, ok := pageRuns.decode[c.name]
	ok = ok && pageRuns.root == root
	pageRuns.mu.Unlock()
	if ok {
		return r.text, r.json, r.stderr, r.code
	}
	text, jsonOut, stderr, code = runCLIDecode(t, root, c)
	pageRuns.mu.Lock()
	if pageRuns.decode != nil && pageRuns.root == root {
		pageRuns.decode[c.name] = cliDecoded{text, jsonOut, stderr, code}
	}
	pageRuns.mu.Unlock()
	return text, jsonOut, stderr, code
}

// runCLIDecode runs the command for cliDecode.
func runCLIDecode(t *testing.T, root string, c pageCase) (text, jsonOut, stderr string, code int) {
	t.Helper()
	args := append([]string{"decode", "-schemas", root, "-release", "4.0"}, c.flags...)
	text, stderr, code = runCmd(t, append(args, c.file)...)
	jsonOut, _, _ = runCmd(t, append(append(args, "-format", "json", "-q"), c.file)...)
	// The page names pasted text "-" and a dropped file by its name.
	stderr = strings.ReplaceAll(stderr, c.file, c.q.Name)
	return text, jsonOut, stderr, code
}

// siteReleases reads back the release data a site ships to the page (decode/release-*.js),
// as the page hands them to the WebAssembly.
func siteReleases(t *testing.T, out string, names []string) webdecoder.Releases {
	t.Helper()
	cats := map[string]*kafka.Catalog{}
	return webdecoder.Releases{Names: names, Load: func(name string) (*kafka.Catalog, bool, error) {
		if c, ok := cats[name]; ok {
			return c, true, nil
		}
		script, err := os.ReadFile(filepath.Join(out, "decode", "release-"+name+".js"))
		if err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(`^kafkagrid\.data\("release","([^"]+)","([A-Za-z0-9+/=]+)"\);\n$`).FindSubmatch(script)
		if m == nil || string(m[1]) != name {
			t.Fatalf("decode/release-%s.js: not a data script of release %s", name, name)
		}
		gz, err := base64.StdEncoding.DecodeString(string(m[2]))
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(bytes.NewReader(gz))
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		c, err := webdecoder.Release(data)
		if err != nil {
			t.Fatal(err)
		}
		cats[name] = c
		return c, true, nil
	}}
}

// loadAll loads every release of root, oldest first.
func loadAll(t *testing.T, root string) []*kafka.Catalog {
	t.Helper()
	var cats []*kafka.Catalog
	for _, dir := range testenv.All(t) {
		c, err := kafka.LoadCatalog(dir)
		if err != nil {
			t.Fatal(err)
		}
		cats = append(cats, c)
	}
	return cats
}

// TestPageDecode checks what the page's decoder (package webdecoder, the Go the WebAssembly
// runs) gives against the command's output for every page case, with the schemas as the site
// ships them: the same text tree, errors and exit status at once; the same JSON when asked;
// a drawing of the first exchange (a grid and a tree of each frame decoded); and, when asked,
// the report, whose files are the command's -o files, byte for byte.
func TestPageDecode(t *testing.T) {
	root := listSchemaRoot(t)
	cats := loadAll(t, root)
	out := t.TempDir()
	fake := fstest.MapFS{reference.DecoderWASM: {Data: []byte{0x1f, 0x8b, 0, 0}}, reference.DecoderGlue: {Data: []byte("// glue\n")}}
	if err := reference.WriteDecoder(context.Background(), out, cats, fake, false); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range cats {
		names = append(names, c.Release.Name())
	}
	dec := webdecoder.New(siteReleases(t, out, names)) // one decoder for every case, as the page has
	for _, c := range pageCases(t, root) {
		t.Run(c.name, func(t *testing.T) {
			data, err := os.ReadFile(c.file)
			if err != nil {
				t.Fatal(err)
			}
			text, js, stderr, code := cliDecode(t, root, c)
			got := dec.Decode(context.Background(), c.q, data)
			if got.Need {
				t.Fatal("the page asked for releases it has")
			}
			if got.Text != text {
				t.Errorf("text differs from decode's\npage:\n%s\ncommand:\n%s", got.Text, text)
			}
			if got.Stderr != stderr || got.Status != code {
				t.Errorf("page: exit %d, %q; command: exit %d, %q", got.Status, got.Stderr, code, stderr)
			}
			if code != 2 {
				gotJS, _, _ := dec.JSON()
				if gotJS != js {
					t.Errorf("JSON differs from decode -format json's\npage:\n%.2000s\ncommand:\n%.2000s", gotJS, js)
				}
			}
			decoded := strings.Count(text, "frame = ")
			t.Logf("flags %q: exit %d, %d frames decoded, %d exchanges; %s", c.flags, code, decoded, got.Exchanges, strings.TrimSpace(stderr))
			if decoded > 0 {
				// The first exchange is drawn at once: a grid and a tree of its frames.
				fields, nodes := 0, 0
				for _, f := range got.Figures {
					fields += strings.Count(f.Grid, `class="field`)
					nodes += strings.Count(f.Tree, `class="node`)
				}
				if fields == 0 || nodes == 0 {
					t.Errorf("%d frames decoded, and the drawing has %d grid fields, %d tree nodes (%d figures)", decoded, fields, nodes, len(got.Figures))
				}
			}
			if code != 2 && decoded > 0 {
				// The page's report is decode -o's, byte for byte, every file: the command
				// given the input as the page names it (pasted text on standard input, a
				// dropped file by its name).
				want := cliReport(t, root, c)
				files, first, err := dec.Report()
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Contains(files, "index.html") || !slices.Contains(files, first) {
					t.Errorf("the page's report: %d files, first %q", len(files), first)
				}
				for _, rel := range files {
					body, err := dec.File(rel)
					w, ok := want[rel]
					switch {
					case err != nil:
						t.Errorf("%s: %v", rel, err)
					case !ok:
						t.Errorf("the page's report has %s, decode -o's has not", rel)
					case w != body:
						t.Errorf("%s differs from decode -o's (%d bytes, decode -o's %d)\n%s", rel, len(body), len(w), whereDiffers(body, w))
					}
				}
				for rel := range want {
					if !slices.Contains(files, rel) {
						t.Errorf("decode -o wrote %s, the page's report has not", rel)
					}
				}
			}
		})
	}
}

// cliReport runs "kafkagrid decode -o DIR" on c's input named as the page names it (pasted
// text "-" on standard input, a dropped file by its base name, from its folder), and returns
// the report's files by their paths in DIR, the output folder's own files (its manifest and
// lock) left out; once a process for each of pageCases' cases.
func cliReport(t *testing.T, root string, c pageCase) map[string]string {
	t.Helper()
	pageRuns.mu.Lock()
	files, ok := pageRuns.report[c.name]
	ok = ok && pageRuns.root == root
	pageRuns.mu.Unlock()
	if ok {
		return files
	}
	files = runCLIReport(t, root, c)
	pageRuns.mu.Lock()
	if pageRuns.report != nil && pageRuns.root == root {
		pageRuns.report[c.name] = files
	}
	pageRuns.mu.Unlock()
	return files
}

// runCLIReport runs the command for cliReport.
func runCLIReport(t *testing.T, root string, c pageCase) map[string]string {
	t.Helper()
	rep := filepath.Join(t.TempDir(), "report")
	arg := c.q.Name
	if arg == "-" {
		fh, err := os.Open(c.file)
		if err != nil {
			t.Fatal(err)
		}
		old := os.Stdin
		os.Stdin = fh
		defer func() { os.Stdin = old; fh.Close() }()
	} else {
		if arg != filepath.Base(c.file) {
			t.Fatalf("a dropped file named %q, not its base name", arg)
		}
		t.Chdir(filepath.Dir(c.file))
	}
	args := append(append([]string{"decode", "-q", "-schemas", root, "-release", "4.0"}, c.flags...), "-o", rep, arg)
	if _, errs, code := runCmd(t, args...); code == 2 {
		t.Fatalf("decode -o: exit %d: %s", code, errs)
	}
	files := map[string]string{}
	err := filepath.WalkDir(rep, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(rep, p)
		if err != nil {
			return err
		}
		if rel == outdir.ManifestName || rel == outdir.LockName {
			return nil
		}
		b, err := os.ReadFile(p)
		files[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// whereDiffers shows where a and b first differ, with some context.
func whereDiffers(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-80)
	return fmt.Sprintf("at byte %d:\n page: %q\n -o:   %q", i, a[from:min(len(a), i+80)], b[from:min(len(b), i+80)])
}

// TestPageDecodeNeedsReleases checks that a decode which looks in the other releases says so
// when the page has not loaded them yet, instead of answering without them.
func TestPageDecodeNeedsReleases(t *testing.T) {
	root := listSchemaRoot(t)
	c40, err := kafka.LoadCatalog(filepath.Join(root, "4.0"))
	if err != nil {
		t.Fatal(err)
	}
	rels := webdecoder.Releases{Names: []string{"3.9", "4.0"}, Load: func(name string) (*kafka.Catalog, bool, error) {
		if name == "4.0" {
			return c40, true, nil
		}
		return nil, false, nil
	}}
	frame, err := os.ReadFile(filepath.Join(realFramesDir(t), "06-perl-fetch-v0-response.txt"))
	if err != nil {
		t.Fatal(err)
	}
	dec := webdecoder.New(rels)
	got := dec.Decode(context.Background(), webdecoder.Request{Release: "4.0", API: "Fetch", Name: "-"}, frame)
	if !got.Need {
		t.Fatalf("a Fetch v0 response (not in 4.0) decoded without 3.9 loaded: exit %d %s\n%s", got.Status, got.Stderr, got.Text)
	}
	got = dec.Decode(context.Background(), webdecoder.Request{Release: "5.0", Name: "-"}, frame)
	if got.Status != 2 || !strings.Contains(got.Stderr, `-release "5.0"`) {
		t.Fatalf("a release the site lacks: exit %d %q", got.Status, got.Stderr)
	}
}

// buildWebDecoder compiles the browser decoder (../kafkagrid-decoder), as go generate does
// (gen_webdecoder.go), into a folder that WriteDecoder takes.
func buildWebDecoder(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go tool to compile the WebAssembly: %v", err)
	}
	dir := t.TempDir()
	wasm := filepath.Join(dir, "kafkagrid.wasm")
	cmd := exec.Command(goTool, "build", "-trimpath", "-ldflags=-s -w", "-o", wasm, "../kafkagrid-decoder")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build (GOOS=js GOARCH=wasm): %v\n%s", err, b)
	}
	root, err := exec.Command(goTool, "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	glue, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(root)), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(wasm)
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(raw)
	zw.Close()
	os.WriteFile(filepath.Join(dir, reference.DecoderWASM), gz.Bytes(), 0o644)
	os.WriteFile(filepath.Join(dir, reference.DecoderGlue), glue, 0o644)
	t.Logf("the WebAssembly: %d bytes, %d gzipped", len(raw), gz.Len())
	return dir
}

// TestBrowserDecoder opens the browser decoder of a site of every release in headless Chromium
// over file:// (one browser, one page). First with a frame in its address (#bytes=HEX), which
// it decodes as soon as it is ready: the time from the navigation to that frame on screen is
// logged. Then it pastes each shared real frame and the other page cases' text into it with the
// controls set as the flags the command needs, drops the capture and the named response file on
// it, and compares the page's text tree and error with "kafkagrid decode"'s for the same input;
// the drawing must hold a grid and a tree for what decoded, and the report decode -o's page,
// byte for byte, whose links open the report's other pages. The times the page measured are
// logged (every paste's, from the input to the frame painted), never asserted.
func TestBrowserDecoder(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the browser decoder's test compiles the WebAssembly and drives Chromium")
	}
	root := listSchemaRoot(t)
	cases := pageCases(t, root)
	bctx, _, art := browser(t, 1280, 900)
	assets := buildWebDecoder(t)
	out := t.TempDir()
	if err := reference.WriteDecoder(context.Background(), out, loadAll(t, root), os.DirFS(assets), false); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var problems []string
	msgs := chromedp.Console(bctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				mu.Lock()
				problems = append(problems, m.String())
				mu.Unlock()
			}
		}
	}()
	page := "file://" + filepath.ToSlash(filepath.Join(out, reference.DecoderPage))
	// The first frame, from the address, decoded once the decoder is ready.
	first, err := os.ReadFile(filepath.Join(realFramesDir(t), "11-codecrafters-apiversions-v4-request.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var firstHex strings.Builder // the hex column of the tester's table
	for _, m := range regexp.MustCompile(`\d{4} \| ([0-9a-f ]+?)\s*\|`).FindAllStringSubmatch(string(first), -1) {
		firstHex.WriteString(strings.ReplaceAll(m[1], " ", ""))
	}
	if err := chromedp.Do(bctx, chromedp.Navigate(page+"#release=4.0&bytes="+firstHex.String())); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(bctx, chromedp.Poll[bool](`(window.kafkagrid.results||0) > 0 || /not load/.test(document.getElementById("kg-status").textContent)`)); err != nil {
		t.Fatal(err)
	}
	if shown, err := chromedp.Run(bctx, chromedp.Evaluate[pageShown](shownJS)); err != nil || shown.Err != "" || !strings.Contains(shown.Text, "frame = ApiVersions v4 request") || !strings.Contains(shown.Text, "39 bytes at offset 0") || shown.Images == 0 {
		t.Errorf("the frame of the address (%d hex digits): %v, error %q, %d pictures, text:\n%.300s", firstHex.Len(), err, shown.Err, shown.Images, shown.Text)
	}
	logTiming(t, bctx, "first frame from the address")
	// The page's timing is the browser's too: a performance mark of each moment, a measure
	// of each decode (their values are logged, never asserted).
	marks, err := chromedp.Run(bctx, chromedp.Evaluate[[]string](`performance.getEntriesByType("mark").concat(performance.getEntriesByType("measure")).map(function(m){ return m.entryType + " " + m.name })`))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"mark kafkagrid:wasmLoaded", "mark kafkagrid:compiled", "mark kafkagrid:ready", "mark kafkagrid:prepared", "mark kafkagrid:firstShown", "measure kafkagrid:decode"} {
		if !slices.Contains(marks, want) {
			t.Errorf("the page recorded no %s (it has %q)", want, marks)
		}
	}
	keepShot(t, bctx, art, "decode-page-first.jpg", chromedp.FullScreenshot(80))
	for i, c := range cases {
		if c.q.NoSize && c.q.Body {
			continue // the page's controls cannot say both (TestPageDecode gives them to the decoder)
		}
		data, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		text, _, stderr, code := cliDecode(t, root, c)
		shown, err := pasteOrDrop(bctx, c, data)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if shown.Text != text {
			t.Errorf("%s: the page's text differs from decode's\npage:\n%s\ncommand:\n%s", c.name, shown.Text, text)
		}
		if shown.Err != stderr {
			t.Errorf("%s: the page's error %q, decode's %q (exit %d)", c.name, shown.Err, stderr, code)
		}
		n := strings.Count(text, "frame = ")
		if n > 0 && shown.Images == 0 {
			t.Errorf("%s: %d frames decoded, and the drawing shows no picture", c.name, n)
		}
		if shown.Broken > 0 {
			t.Errorf("%s: %d pictures of the drawing do not load", c.name, shown.Broken)
		}
		if n > 0 && code != 2 {
			checkPageReport(t, bctx, root, c, i == 0)
		}
		if i == 0 {
			keepShot(t, bctx, art, "decode-page.jpg", chromedp.FullScreenshot(80))
		}
		t.Logf("%s: %s", c.name, shown.Status)
	}
	// The page at a desktop's and a phone's width, light and dark, showing the first case's
	// drawing, then its report: every link of both reads at 4.5:1 or more against what is behind
	// it, and nothing is wider than the screen. Screenshots go to $ARTIFACTS when it is set.
	data, err := os.ReadFile(cases[0].file)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pasteOrDrop(bctx, cases[0], data); err != nil {
		t.Fatal(err)
	}
	for _, view := range []string{"draw", "report"} {
		// The drawing is the page's first tab; the report a page of its own, opened by its link.
		open := map[string]string{"draw": "kg-tab-draw", "report": "kg-open-report"}[view]
		if _, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`document.getElementById("`+open+`").click(), true`)); err != nil {
			t.Fatal(err)
		}
		if view == "report" {
			if _, err := chromedp.Run(bctx, chromedp.Poll[bool](loadedJS)); err != nil {
				t.Fatal(err)
			}
		}
		for _, screen := range []struct {
			name   string
			w, h   int64
			phone  bool
			scheme string
		}{{"1280-light", 1280, 900, false, "light"}, {"1280-dark", 1280, 900, false, "dark"}, {"390-light", 390, 844, true, "light"}, {"390-dark", 390, 844, true, "dark"}} {
			lookAt(t, bctx, art, view+"-"+screen.name, screen.w, screen.h, screen.phone, screen.scheme, view == "report")
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(problems) > 0 {
		t.Errorf("errors in the page's console: %v", problems)
	}
}

// pasteOrDrop sets the page's controls as c's flags, pastes its text or drops its file, waits
// for the decode on screen, and reads what the page shows.
func pasteOrDrop(bctx context.Context, c pageCase, data []byte) (pageShown, error) {
	q, _ := json.Marshal(c.q)
	var script string
	if c.drop {
		script = fmt.Sprintf(`(function(q, b64){
			setControls(q);
			var bin = atob(b64), b = new Uint8Array(bin.length);
			for (var i = 0; i < bin.length; i++) b[i] = bin.charCodeAt(i);
			var dt = new DataTransfer();
			dt.items.add(new File([b], q.name));
			document.dispatchEvent(new DragEvent("drop", {dataTransfer: dt, bubbles: true, cancelable: true}));
		})(%s, %q)`, q, base64.StdEncoding.EncodeToString(data))
	} else {
		script = fmt.Sprintf(`(function(q, text){
			setControls(q);
			var ta = document.getElementById("kg-input");
			ta.value = text;
			ta.dispatchEvent(new InputEvent("input", {bubbles: true, inputType: "insertFromPaste"}));
		})(%s, %q)`, q, string(data))
	}
	results, err := chromedp.Run(bctx, chromedp.Evaluate[int](`window.kafkagrid.results||0`))
	if err != nil {
		return pageShown{}, err
	}
	if err := chromedp.Do(bctx, chromedp.Evaluate[chromedp.Void](setControlsJS+script)); err != nil {
		return pageShown{}, err
	}
	if _, err := chromedp.Run(bctx, chromedp.Poll[bool](fmt.Sprintf(`(window.kafkagrid.results||0) > %d`, results))); err != nil {
		return pageShown{}, err
	}
	// The pictures of the drawing load from memory (blob: URLs), off the decode's path.
	if _, err := chromedp.Run(bctx, chromedp.Poll[bool](`Array.from(document.querySelectorAll("#kg-panel-draw img")).every(function(i){ return i.complete })`)); err != nil {
		return pageShown{}, err
	}
	return chromedp.Run(bctx, chromedp.Evaluate[pageShown](shownJS))
}

// checkPageReport opens the report after a decode of c (its link: the report takes the
// window, the decoder's page hidden), and wants decode -o's page there:
// the exchange's page when there is one, else the index, whose link opens an exchange's page
// (and, when back is set, the exchange page's link to the index, and the index's link back).
func checkPageReport(t *testing.T, bctx context.Context, root string, c pageCase, back bool) {
	t.Helper()
	var want map[string]string
	t.Run("report of "+c.name, func(t *testing.T) { want = cliReport(t, root, c) })
	pages := 0
	for rel := range want {
		if strings.HasPrefix(rel, "exchanges/") {
			pages++
		}
	}
	if _, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`document.getElementById("kg-open-report").click(), true`)); err != nil {
		t.Fatalf("%s: the link to the report: %v", c.name, err)
	}
	if _, err := chromedp.Run(bctx, chromedp.Poll[bool](loadedJS)); err != nil {
		t.Fatalf("%s: the report: %v", c.name, err)
	}
	page, err := chromedp.Run(bctx, chromedp.Evaluate[pageShown](shownJS))
	if err != nil {
		t.Fatal(err)
	}
	// The report is a page of its own: it takes the window, the decoder's page hidden.
	if alone, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`document.querySelector("main.kg-dec").hidden && !document.getElementById("kg-reportview").hidden && !document.getElementById("kg-tab-report")`)); err != nil || !alone {
		t.Errorf("%s: the report does not take the window, or the page still has a Report tab (%v)", c.name, err)
	}
	if first := map[bool]string{true: "exchanges/c1-1.html", false: "index.html"}[pages == 1]; page.File != first {
		t.Errorf("%s: the report shows %q first, want %q (%d exchange pages)", c.name, page.File, first, pages)
	}
	if w, ok := want[page.File]; !ok || w != page.Doc {
		t.Errorf("%s: the report's %s is not decode -o's (%d bytes, decode -o's %d, there %v)", c.name, page.File, len(page.Doc), len(w), ok)
	}
	if page.File == "index.html" {
		// Follow the index's link to the last exchange's response, as a reader does.
		page, err = follow(bctx, `d.querySelector('table.xch a[href$="#response"]:last-of-type') || Array.from(d.querySelectorAll('table.xch a[href^="exchanges/"]')).pop()`, `/^exchanges\//.test(f.getAttribute("data-file"))`)
		if err != nil {
			t.Fatalf("%s: following the index's link to an exchange: %v", c.name, err)
		}
		if w, ok := want[page.File]; !ok || w != page.Doc {
			t.Errorf("%s: the index's link opened %q, not decode -o's page of that name", c.name, page.File)
		}
	} else if back {
		p, err := follow(bctx, `d.querySelector('nav.top .mid a')`, `f.getAttribute("data-file") === "index.html"`)
		if err != nil || p.File != "index.html" || p.Doc != want["index.html"] {
			t.Errorf("%s: the exchange page's link to the index: %v, shows %q", c.name, err, p.File)
		}
		if page, err = follow(bctx, `d.querySelector('table.xch a[href^="exchanges/"]')`, `f.getAttribute("data-file") === "exchanges/c1-1.html"`); err != nil {
			t.Errorf("%s: the index's link back: %v", c.name, err)
		}
	}
	if page.Fields == 0 || page.Nodes == 0 {
		t.Errorf("%s: the report's page %s shows %d grid fields, %d tree nodes", c.name, page.File, page.Fields, page.Nodes)
	}
	for _, bad := range page.Unwired {
		t.Errorf("%s: %s: a link or image of the report that the panel does not open: %s", c.name, page.File, bad)
	}
	logTiming(t, bctx, c.name+" (report opened)")
	// "Back to the decode" (the browser's Back) shows the decoder's page again.
	if _, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`document.getElementById("kg-back").click(), true`)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(bctx, chromedp.Poll[bool](`!document.querySelector("main.kg-dec").hidden && document.getElementById("kg-reportview").hidden`)); err != nil {
		t.Errorf("%s: back to the decode: %v", c.name, err)
	}
}

// lookAt shows the page at a screen's size and scheme: its links (and the report's, when
// report is set) read at 4.5:1 or more, nothing is wider than the screen; a screenshot goes
// to $ARTIFACTS, when it is set, as decode-page-NAME.jpg.
func lookAt(t *testing.T, bctx context.Context, art, name string, w, h int64, phone bool, scheme string, report bool) {
	t.Helper()
	opts := []chromedp.EmulateViewportOption{}
	if phone {
		opts = append(opts, chromedp.EmulateMobile)
	}
	if err := chromedp.Do(bctx, chromedp.EmulateViewport(w, h, opts...)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(bctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}}); err != nil {
		t.Fatal(err)
	}
	type look struct {
		Dark    bool
		Low     []string
		Wide    int
		Checked int
	}
	l, err := chromedp.Run(bctx, chromedp.Evaluate[look](linkContrastJS))
	if err != nil {
		t.Fatal(err)
	}
	if report && l.Dark != (scheme == "dark") {
		t.Errorf("%s: the report panel's page is dark: %v", name, l.Dark)
	}
	if l.Checked == 0 {
		t.Errorf("%s: no link checked", name)
	}
	for _, low := range l.Low {
		t.Errorf("%s: a link below 4.5:1: %s", name, low)
	}
	if l.Wide > int(w) {
		t.Errorf("%s: the page is %d px wide", name, l.Wide)
	}
	keepShot(t, bctx, art, "decode-page-"+name+".jpg", chromedp.FullScreenshot(80))
}

// logTiming logs what the page measured: its timing marks and the last decode's times.
func logTiming(t *testing.T, bctx context.Context, what string) {
	t.Helper()
	timing, err := chromedp.Run(bctx, chromedp.Evaluate[map[string]float64](`Object.assign({}, window.kafkagrid.timing, window.kafkagrid.last || {})`))
	if err != nil {
		t.Fatal(err)
	}
	keys := slices.Sorted(maps.Keys(timing))
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, " %s %.1f ms", k, timing[k])
	}
	t.Logf("page timing, %s:%s", what, b.String())
}

// loadedJS is true when the report panel's file is shown and wired.
const loadedJS = `(function(){var f=document.getElementById("kg-report"); return !!f.getAttribute("data-file") && f.getAttribute("data-loaded") === f.getAttribute("data-file")})()`

// pageShown is what the page shows after a decode: the text and error panels, the status,
// the pictures of the drawing (and how many do not load); and the report panel's file (its
// path in decode -o's folder, its text), the grid fields and tree nodes drawn in it, and the
// links and images of it that point into the report and are neither opened in the panel nor
// given the file's bytes.
type pageShown struct {
	Text, Err, Status string
	Images, Broken    int
	File, Doc         string
	Fields, Nodes     int
	Unwired           []string
}

// shownJS reads a pageShown from the page.
const shownJS = `(function(){
	var f = document.getElementById("kg-report"), d = f.contentDocument;
	var unwired = [];
	if (d && f.srcdoc) {
		d.querySelectorAll("a[href]").forEach(function(a){
			var h = a.getAttribute("href");
			if (h.charAt(0) !== "#" && !/^blob:/.test(h) && !/\.html(#|$)/.test(h) && a.target !== "_blank") unwired.push(h);
			if (h === "#" && !a.download) unwired.push(h);
		});
		d.querySelectorAll("img[src]").forEach(function(i){ if (!/^blob:/.test(i.getAttribute("src"))) unwired.push(i.getAttribute("src")); });
	}
	var imgs = Array.from(document.querySelectorAll("#kg-panel-draw img"));
	return {Text: document.getElementById("kg-text").textContent,
		Err: document.getElementById("kg-err").hidden ? "" : document.getElementById("kg-err").textContent,
		Status: document.getElementById("kg-status").textContent,
		Images: imgs.length, Broken: imgs.filter(function(i){ return i.complete && !i.naturalWidth }).length,
		File: f.getAttribute("data-file") || "", Doc: f.srcdoc,
		Fields: d ? d.querySelectorAll("g.field").length : 0, Nodes: d ? d.querySelectorAll("g.node").length : 0,
		Unwired: unwired};
})()`

// follow clicks the link that the expression link finds in the report panel's document d,
// waits until the panel's iframe f satisfies until and has loaded, and reads the page.
func follow(bctx context.Context, link, until string) (pageShown, error) {
	if err := chromedp.Do(bctx, chromedp.Evaluate[chromedp.Void](`(function(){
		var f = document.getElementById("kg-report"), d = f.contentDocument, a = `+link+`;
		if (!a) throw new Error("no such link in " + f.getAttribute("data-file"));
		a.click();
	})()`)); err != nil {
		return pageShown{}, err
	}
	if _, err := chromedp.Run(bctx, chromedp.Poll[bool](`(function(){var f = document.getElementById("kg-report"); return (`+until+`) && f.getAttribute("data-loaded") === f.getAttribute("data-file")})()`)); err != nil {
		return pageShown{}, err
	}
	return chromedp.Run(bctx, chromedp.Evaluate[pageShown](shownJS))
}

// linkContrastJS checks the links of the page and of the report page in its panel: the
// contrast of each one's colour with the first opaque background behind it (WCAG 2), those
// under 4.5:1 listed; whether the panel's page is dark; and the page's width.
const linkContrastJS = `(function(){
	function rgb(s){ var m = s.match(/[\d.]+/g) || [0,0,0,0]; return {r:+m[0], g:+m[1], b:+m[2], a: m.length > 3 ? +m[3] : 1}; }
	function lum(c){ return [c.r,c.g,c.b].map(function(v){ v /= 255; return v <= 0.03928 ? v/12.92 : Math.pow((v+0.055)/1.055, 2.4); }).reduce(function(s, v, i){ return s + v*[0.2126,0.7152,0.0722][i]; }, 0); }
	function bg(el){
		for (; el && el.nodeType === 1; el = el.parentElement) {
			var c = rgb(el.ownerDocument.defaultView.getComputedStyle(el).backgroundColor);
			if (c.a > 0.5) return c;
		}
		return null;
	}
	var out = {Dark: false, Low: [], Wide: document.documentElement.scrollWidth, Checked: 0};
	var f = document.getElementById("kg-report"), d = f.contentDocument;
	var pageBg = bg(document.body);
	[document, d].forEach(function(doc){
		if (!doc) return;
		doc.querySelectorAll("a[href]").forEach(function(a){
			if (!a.getClientRects().length) return;
			var s = a.ownerDocument.defaultView.getComputedStyle(a);
			var b = bg(a) || (doc === d ? bg(d.documentElement) : null) || pageBg;
			if (!b) return;
			var x = lum(rgb(s.color)), y = lum(b), r = (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
			out.Checked++;
			if (r < 4.5) out.Low.push((doc === d ? "report " : "page ") + JSON.stringify(a.textContent.trim().slice(0, 40)) + " " + s.color + " on rgb(" + [b.r,b.g,b.b] + "): " + r.toFixed(2) + ":1");
		});
	});
	if (d && d.body) { out.Dark = lum(bg(d.body) || {r:255,g:255,b:255}) < 0.2; }
	return out;
})()`

// setControlsJS sets the page's controls to a pageRequest, as a user would, without sending
// change events (the input's own event starts the decode).
const setControlsJS = `function setControls(q){
	var $ = function(id){ return document.getElementById(id); };
	$("kg-release").value = q.release;
	$("kg-from").value = q.from || "";
	$("kg-api").value = q.api || "";
	$("kg-version").value = q.version || "";
	$("kg-shape").value = q.body ? "body" : q.noSize ? "nosize" : "";
	$("kg-port").value = q.port || "9092";
	var side = q.request ? "request" : q.response ? "response" : "";
	document.querySelector('input[name=kg-side][value="' + side + '"]').checked = true;
}
`

// FuzzPageDecode gives the page's decoder (webdecoder) and the command the same bytes and flags, and wants
// the same text, error and exit status: the page is the command, whatever the input. Seeded
// with the shared real frames and the forms of capture's table test.
func FuzzPageDecode(f *testing.F) {
	root := testenv.Releases(f)
	for _, pattern := range []string{filepath.Join(realFramesDirTB(f), "*"), filepath.Join("..", "..", "capture", "testdata", "forms", "*")} {
		files, _ := filepath.Glob(pattern)
		for _, file := range files {
			if b, err := os.ReadFile(file); err == nil && len(b) < 16<<10 {
				f.Add(b, uint8(0))
			}
		}
	}
	f.Add([]byte("00 00 00 04 00 00 00 07"), uint8(1))
	var cats []*kafka.Catalog
	for _, dir := range testenv.All(f) {
		c, err := kafka.LoadCatalog(dir)
		if err != nil {
			f.Fatal(err)
		}
		cats = append(cats, c)
	}
	var names []string
	byName := map[string]*kafka.Catalog{}
	for _, c := range cats {
		names = append(names, c.Release.Name())
		byName[c.Release.Name()] = c
	}
	dec := webdecoder.New(webdecoder.Releases{Names: names, Load: func(n string) (*kafka.Catalog, bool, error) { return byName[n], true, nil }})
	f.Fuzz(func(t *testing.T, data []byte, fl uint8) {
		if len(data) > 4<<10 {
			return // the shape search tries every API: keep each run short
		}
		q := webdecoder.Request{Release: "4.0", Name: "-"}
		var flags []string
		if fl&1 != 0 {
			q.NoSize, flags = true, append(flags, "-no-size")
		}
		if fl&2 != 0 {
			q.API, flags = "ApiVersions", append(flags, "-api", "ApiVersions")
		}
		if fl&4 != 0 {
			q.Response, flags = true, append(flags, "-response")
		}
		if fl&8 != 0 {
			q.From, flags = "bin", append(flags, "-from", "bin")
		}
		file := filepath.Join(t.TempDir(), "in")
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		text, stderr, code := runCmd(t, append(append([]string{"decode", "-schemas", root, "-release", "4.0"}, flags...), file)...)
		got := dec.Decode(context.Background(), q, data)
		if got.Text != text || got.Stderr != strings.ReplaceAll(stderr, file, "-") || got.Status != code {
			t.Fatalf("flags %q: page exit %d %q\n%s\ncommand exit %d %q\n%s", flags, got.Status, got.Stderr, got.Text, code, stderr, text)
		}
	})
}

// realFramesDirTB is realFramesDir for a fuzz target's seeds: "" when the folder is missing.
func realFramesDirTB(tb testing.TB) string {
	if d := os.Getenv("KAFKAGRID_REAL_FRAMES"); d != "" {
		return d
	}
	mod, err := testenv.ModuleRoot()
	if err != nil {
		tb.Fatal(err)
	}
	return filepath.Join(mod, "..", "shared", "real-frames")
}

// memCreate is a report's Create that keeps each file in files, by its path in the folder.
func memCreate(files map[string]string) func(string, func(io.Writer) error) error {
	return func(rel string, fill func(io.Writer) error) error {
		var b bytes.Buffer
		if err := fill(&b); err != nil {
			return err
		}
		files[rel] = b.String()
		return nil
	}
}
