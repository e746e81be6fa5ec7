package main

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/textbytes"
)

// realFramesDirs are the folders of frames as their authors published them, each file a
// SOURCE: line, a WHAT: line, a blank line and the published text: the project's own
// (testdata/real-frames), ../shared/real-frames and ../shared/real-frames-hard when they are
// there; or the folders of $KAFKAGRID_REAL_FRAMES (a list, as PATH is written) alone.
func realFramesDirs(t *testing.T) []string {
	t.Helper()
	if d := os.Getenv("KAFKAGRID_REAL_FRAMES"); d != "" {
		return filepath.SplitList(d)
	}
	mod, err := testenv.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	dirs := []string{filepath.Join(mod, "testdata", "real-frames")}
	for _, name := range []string{"real-frames", "real-frames-hard"} {
		if shared := filepath.Join(mod, "..", "shared", name); dirExists(shared) {
			dirs = append(dirs, shared)
		}
	}
	return dirs
}

func dirExists(dir string) bool {
	st, err := os.Stat(dir)
	return err == nil && st.IsDir()
}

// realFramesDir is ../shared/real-frames (or $KAFKAGRID_REAL_FRAMES): the frames the browser
// tests read.
func realFramesDir(t *testing.T) string {
	t.Helper()
	if d := os.Getenv("KAFKAGRID_REAL_FRAMES"); d != "" {
		return d
	}
	mod, err := testenv.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(mod, "..", "shared", "real-frames")
	if _, err := os.Stat(dir); err != nil {
		testenv.Missing(t, err)
	}
	return dir
}

// what is what a frame's WHAT: line says it is.
type what struct {
	api      string
	version  int
	response bool
	corr     string   // "" when not said
	strs     []string // quoted values ('Hello!')
	fields   [][2]string
	badCRC   bool // the source says its CRC is wrong: decode names the mismatch (exit 1)
	// The WHAT line says the published bytes are not self-consistent (a size that disagrees
	// with what follows it): decode reads them as Kafka does and names the bytes left past
	// the frame's end (exit 1); a value expect: names that no reading reaches must lie there.
	inconsistent bool
	// What an "expect:" at the line's end says (../shared/real-frames-hard): the flags a user
	// would guess (the most the frame may need), the fields it must have, and for a capture
	// its file, exchanges and frames left undecoded.
	flags     []string
	keys      [][2]string
	capture   string
	exchanges int
	undecoded int
}

// expectField reads an "expect:" clause's name=value words ("flags" quoted).
var expectField = regexp.MustCompile(`(\w+)=("[^"]*"|\S+)`)

// parseExpect reads the "expect:" clause at the end of a WHAT: line, when there is one, into w;
// it returns the line before it.
func parseExpect(t *testing.T, line string, w *what) string {
	before, clause, ok := strings.Cut(line, "expect:")
	if !ok {
		return line
	}
	for _, m := range expectField.FindAllStringSubmatch(clause, -1) {
		v := strings.Trim(m[2], `"`)
		var err error
		switch m[1] {
		case "api":
			w.api = v
		case "version":
			w.version, err = strconv.Atoi(v)
		case "side":
			w.response = v == "response"
		case "flags":
			w.flags = strings.Fields(v)
		case "key":
			name, value, _ := strings.Cut(v, ":")
			w.keys = append(w.keys, [2]string{name, value})
		case "capture":
			w.capture = v
		case "exchanges":
			w.exchanges, err = strconv.Atoi(v)
		case "undecoded":
			w.undecoded, err = strconv.Atoi(v)
		}
		if err != nil {
			t.Fatalf("expect: %s=%s: %v", m[1], v, err)
		}
	}
	return before
}

var (
	whatVersions = []*regexp.Regexp{
		regexp.MustCompile(`\b[vV](\d+)\b`),                                              // "v3", "V3"
		regexp.MustCompile(`(?i)\b(?:(?:request_?)?api[ _]?)?version\s*[:=]?\s*(\d+)\b`), // "(Version: 3)", "version 3", "api_version=3"
	}
	whatCorr   = regexp.MustCompile(`(?i)\b(?:correlation|corr)(?:[ _-]?id)?\s*[:=]?\s*(0x[0-9a-f]+|-?\d+)\b`)
	whatQuoted = regexp.MustCompile(`'([^']*)'`)
)

// whatAPI finds the first API a WHAT: line names, as Kafka's schemas spell it ("ApiVersions"),
// with its side ("ApiVersionsRequest"), in snake case ("api_versions") or in words as Kafka's
// docs write them ("Api Versions", "Produce Request"); it returns the API's name.
func whatAPI(words []string) string {
	for i := range words {
		for n := 1; n <= 3 && i+n <= len(words); n++ {
			w := strings.ReplaceAll(strings.Join(words[i:i+n], ""), "_", "")
			if w == "" || n > 1 && !isUpper(words[i][0]) {
				continue // words joined only when they are capitalised: "Find Coordinator"
			}
			if _, names, _, ok := kafka.KnownAPI(w); ok && len(names) > 0 {
				return names[0]
			}
		}
	}
	return ""
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }

// parseWhat reads a WHAT: line: the first API any release knows (see whatAPI), its version
// ("v3", "Version: 3", "version 3", "api_version=3"), "request" or "response" (whichever comes
// first, in any case, "ApiVersionsRequest" too), the correlation id ("correlation id 7",
// "corr 7", "correlation_id=7", "CorrelationId: 7"), quoted strings, and "Field value" pairs
// ("ErrorCode 35", "error_code=35", "throttle time ms: 0").
func parseWhat(t *testing.T, line string) (w what) {
	_, _, hasExpect := strings.Cut(line, "expect:")
	line = parseExpect(t, line, &w)
	if w.capture != "" {
		return w
	}
	expected := w
	defer func() {
		// What expect: says stands over what the prose seems to say.
		if expected.api != "" {
			w.api, w.version, w.response = expected.api, expected.version, expected.response
		}
		w.flags, w.keys = expected.flags, expected.keys
		if hasExpect {
			// expect: names what a decoder must find; the prose's "word value" pairs
			// ("partial message", "size 24" of an entry cut short) are not fields then.
			w.fields = nil
		}
	}()
	words := strings.FieldsFunc(line, func(r rune) bool {
		return r == ' ' || r == ',' || r == '(' || r == ')' || r == ';' || r == ':' || r == '=' || r == '[' || r == ']' || r == '{' || r == '}'
	})
	w.api = whatAPI(words)
	version := ""
	for _, re := range whatVersions {
		if m := re.FindStringSubmatch(line); m != nil {
			version = m[1]
			break
		}
	}
	if w.api == "" || version == "" {
		t.Fatalf("WHAT names no API and version: %q", line)
	}
	w.version, _ = strconv.Atoi(version)
	low := strings.ToLower(line)
	req, resp := strings.Index(low, "request"), strings.Index(low, "response")
	switch {
	case resp >= 0 && (req < 0 || resp < req):
		w.response = true
	case req < 0:
		t.Fatalf("WHAT says neither request nor response: %q", line)
	}
	if m := whatCorr.FindStringSubmatch(line); m != nil {
		n, err := strconv.ParseInt(m[1], 0, 64)
		if err != nil {
			t.Fatalf("WHAT: correlation id %q", m[1])
		}
		w.corr = strconv.FormatInt(n, 10)
	}
	w.inconsistent = strings.Contains(low, "not self-consistent") || strings.Contains(low, "inconsistent")
	w.badCRC = strings.Contains(low, "crc") && (strings.Contains(low, "wrong") || strings.Contains(low, "mismatch") || strings.Contains(low, "incorrect") || strings.Contains(low, "bad"))
	for _, m := range whatQuoted.FindAllStringSubmatch(line, -1) {
		w.strs = append(w.strs, m[1])
	}
	for i := 0; i+1 < len(words); i++ {
		w.fields = append(w.fields, [2]string{words[i], words[i+1]})
		if c := snakeCamel(words[i]); c != words[i] {
			w.fields = append(w.fields, [2]string{c, words[i+1]}) // error_code 35, errorCode 35: ErrorCode
		}
		if i+2 < len(words) { // "high watermark 2": HighWatermark
			w.fields = append(w.fields, [2]string{camel(words[i]) + camel(words[i+1]), words[i+2]})
		}
		if i+3 < len(words) { // "throttle time ms 0": ThrottleTimeMs
			w.fields = append(w.fields, [2]string{camel(words[i]) + camel(words[i+1]) + camel(words[i+2]), words[i+3]})
		}
	}
	return w
}

// snakeCamel writes error_code and errorCode as ErrorCode.
func snakeCamel(s string) string {
	var b strings.Builder
	for _, p := range strings.Split(s, "_") {
		b.WriteString(camel(p))
	}
	return b.String()
}

func camel(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

var frameLine = regexp.MustCompile(`(?m)^\s+0\s+\d+\s+frame\s+frame = (\w+) v(\d+) (request|response)$`)

// leafValues reads decode's text: each leaf's name and value (a leaf is a line the next line
// does not indent under).
func leafValues(out string) map[string][]string {
	vals := map[string][]string{}
	lines := strings.Split(out, "\n")
	indent := func(l string) int {
		if len(l) < 43 {
			return -1
		}
		return len(l[41:]) - len(strings.TrimLeft(l[41:], " "))
	}
	for i, l := range lines {
		name, value, ok := strings.Cut(strings.TrimSpace(safeSlice(l, 41)), " = ")
		if !ok || i+1 < len(lines) && indent(lines[i+1]) > indent(l) {
			continue
		}
		value, _, _ = strings.Cut(value, " → ")
		vals[name] = append(vals[name], strings.Trim(value, `"`))
	}
	return vals
}

// nodeValues reads decode's text: every node's name and value, leaves or not (a string's
// value stands on the node above its length and data).
func nodeValues(out string) map[string][]string {
	vals := map[string][]string{}
	for _, l := range strings.Split(out, "\n") {
		name, value, ok := strings.Cut(strings.TrimSpace(safeSlice(l, 41)), " = ")
		if !ok {
			continue
		}
		value, _, _ = strings.Cut(value, " → ")
		vals[name] = append(vals[name], strings.Trim(value, `"`))
	}
	return vals
}

func safeSlice(s string, from int) string {
	if len(s) < from {
		return ""
	}
	return s[from:]
}

// TestRealFrames decodes every frame of testdata/real-frames, ../shared/real-frames and
// ../shared/real-frames-hard as published (the whole file, and the published text alone),
// scripts included (none is skipped: a script whose bytes are not read fails), with no flags
// but -api and -version where the bytes alone cannot tell them (kafkagrid then lists several
// readings, or asks for -api), or those expect: says a user would guess, and checks the
// result against the file's WHAT: API, version, side, correlation id, quoted values and the
// fields it names with their values.
func TestRealFrames(t *testing.T) {
	dirs := realFramesDirs(t)
	root := testenv.Releases(t)
	var files []string
	for _, dir := range dirs {
		fs, err := filepath.Glob(filepath.Join(dir, "*"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, fs...)
	}
	n := 0
	for _, file := range files {
		if filepath.Base(file) == "README.md" || strings.HasSuffix(file, ".pcap") || strings.HasSuffix(file, ".pcapng") {
			continue // a capture is named by the text file that describes it
		}
		n++
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			head, published, ok := strings.Cut(string(data), "\n\n")
			if !ok {
				t.Fatal("no blank line after the SOURCE: and WHAT: lines")
			}
			var whatLine string
			for _, l := range strings.Split(head, "\n") {
				if s, ok := strings.CutPrefix(l, "WHAT: "); ok {
					whatLine = s
				}
			}
			w := parseWhat(t, whatLine)
			if w.capture != "" {
				checkRealCapture(t, root, filepath.Join(filepath.Dir(file), w.capture), w)
				return
			}
			alone := filepath.Join(t.TempDir(), filepath.Base(file))
			if err := os.WriteFile(alone, []byte(published), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, in := range []string{file, alone} {
				flags := checkRealFrame(t, root, in, w)
				t.Logf("%s: flags %q", in, flags)
			}
		})
	}
	if n == 0 {
		t.Fatalf("no frames in %s", strings.Join(dirs, ", "))
	}
}

// checkRealFrame decodes one file with as few flags as it needs and checks it against w; it
// returns the flags given.
func checkRealFrame(t *testing.T, root, file string, w what) []string {
	t.Helper()
	flagSets := [][]string{nil, {"-api", w.api}, {"-api", w.api, "-version", strconv.Itoa(w.version)}}
	if w.flags != nil {
		flagSets = append(flagSets, w.flags) // the most a user would guess
	}
	for i, flags := range flagSets {
		args := append([]string{"decode", "-schemas", root}, flags...)
		out, errs, code := runCmd(t, append(args, file)...)
		ambiguous := strings.Contains(out, " readings of these bytes") || strings.Contains(errs, "give -api") || strings.Contains(out, "give -api")
		if ambiguous && i+1 < len(flagSets) || code != 0 && !w.badCRC && w.flags != nil && i+1 < len(flagSets) {
			continue // more flags, up to those expect: says a user would guess
		}
		switch {
		case w.inconsistent && (code != 1 || !trailingError.MatchString(errs)):
			t.Fatalf("%v: bytes that are not self-consistent, WHAT says: exit %d: %s", flags, code, errs)
		case w.badCRC && (code != 1 || !strings.Contains(errs, "CRC")):
			t.Fatalf("%v: a wrong CRC, WHAT says: exit %d: %s", flags, code, errs)
		case !w.badCRC && !w.inconsistent && code != 0:
			t.Fatalf("%v: exit %d: %s\n%s", flags, code, errs, out)
		}
		m := frameLine.FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("%v: no frame line in\n%s", flags, out)
		}
		if m[1] != w.api || m[2] != strconv.Itoa(w.version) || (m[3] == "response") != w.response {
			t.Fatalf("%v: decoded as %s v%s %s, WHAT says %s v%d (response %v)\n%s", flags, m[1], m[2], m[3], w.api, w.version, w.response, out)
		}
		vals := leafValues(out)
		if w.corr != "" && !containsValue(vals["CorrelationId"], w.corr) {
			t.Errorf("%v: CorrelationId %v, WHAT says %s", flags, vals["CorrelationId"], w.corr)
		}
		all := nodeValues(out)
		for _, k := range w.keys {
			switch {
			case containsValue(all[k[0]], k[1]):
			case w.inconsistent && pastTheEnd(t, file, errs, k[1]):
				t.Logf("%v: %s = %s lies in the bytes past the frame's end: no reading of these bytes reaches it", flags, k[0], k[1])
			default:
				t.Errorf("%v: %s = %v, expect: says %s", flags, k[0], all[k[0]], k[1])
			}
		}
		for _, s := range w.strs {
			if !strings.Contains(out, strconv.Quote(s)) {
				t.Errorf("%v: no value %q in the output", flags, s)
			}
		}
		for _, f := range w.fields {
			if stopWords[strings.ToLower(f[1])] || w.badCRC && strings.EqualFold(f[0], "CRC") {
				continue // "CRC is wrong": prose, not a value; a wrong CRC is named by the error
			}
			if got, ok := vals[f[0]]; ok && !containsValue(got, f[1]) {
				t.Errorf("%v: %s = %v, WHAT says %s", flags, f[0], got, f[1])
			}
		}
		return flags
	}
	return nil
}

// checkRealCapture decodes a capture with no flags (or those expect: gives, when they are
// needed) and checks its exchanges, all decoded, and the frames' own correlation ids in their
// headings.
func checkRealCapture(t *testing.T, root, file string, w what) {
	t.Helper()
	for i, flags := range [][]string{nil, w.flags} {
		out, errs, code := runCmd(t, append(append([]string{"decode", "-schemas", root}, flags...), file)...)
		if code != 0 && w.undecoded == 0 && i == 0 && w.flags != nil {
			continue
		}
		undecoded := strings.Count(out, "\nerror: ")
		if undecoded != w.undecoded || (code != 0) != (w.undecoded > 0) {
			t.Fatalf("%v: %d frames undecoded (exit %d), expect: says %d\n%s\n%s", flags, undecoded, code, w.undecoded, errs, out)
		}
		if got := strings.Count(out, " request, correlation id "); got != w.exchanges {
			t.Errorf("%v: %d requests, expect: says %d exchanges\n%s", flags, got, w.exchanges, out)
		}
		if strings.Contains(out, "correlation id 0,") && !strings.Contains(out, "CorrelationId = 0\n") {
			t.Errorf("%v: a frame headed with correlation id 0 that its bytes do not hold\n%s", flags, out)
		}
		t.Logf("%s: flags %q", file, flags)
		return
	}
}

// trailingError is decode's error for bytes left past a frame's end: where the frame ends.
var trailingError = regexp.MustCompile(`offset (\d+): (\d+) bytes after the end of the frame`)

// pastTheEnd reports whether value (a number, as a big-endian int16, int32 or int64, or text)
// stands in the bytes of file past the offset where decode's error says the frame ends.
func pastTheEnd(t *testing.T, file, errs, value string) bool {
	t.Helper()
	m := trailingError.FindStringSubmatch(errs)
	if m == nil {
		return false
	}
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	read, err := textbytes.Parse(text, textbytes.Auto)
	if err != nil {
		t.Fatal(err)
	}
	end, _ := strconv.Atoi(m[1])
	if end > len(read.Bytes) {
		return false
	}
	rest := read.Bytes[end:]
	if n, err := strconv.ParseInt(value, 0, 64); err == nil {
		for _, size := range []int{2, 4, 8} {
			b := binary.BigEndian.AppendUint64(nil, uint64(n))[8-size:]
			if bytes.Contains(rest, b) {
				return true
			}
		}
		return false
	}
	return bytes.Contains(rest, []byte(value))
}

var stopWords = map[string]bool{"is": true, "are": true, "was": true, "the": true, "a": true, "an": true, "of": true,
	"in": true, "on": true, "at": true, "to": true, "and": true, "or": true, "with": true, "without": true, "wrong": true,
	"bad": true, "as": true, "only": true, "for": true, "from": true, "by": true, "it": true, "its": true}

func containsValue(vals []string, want string) bool {
	wn, werr := strconv.ParseInt(want, 0, 64)
	for _, v := range vals {
		if n, err := strconv.ParseInt(v, 0, 64); v == want || err == nil && werr == nil && n == wn {
			return true
		}
	}
	return false
}

// TestParseWhat reads WHAT: lines as authors write them: API names as Kafka's schemas and docs
// spell them, versions and correlation ids in several ways.
func TestParseWhat(t *testing.T) {
	tests := []struct {
		line     string
		api      string
		version  int
		response bool
		corr     string
	}{
		{line: "Produce Request (Version: 3) => transactional_id acks timeout_ms", api: "Produce", version: 3},
		{line: "ApiVersionsRequest v2, correlation_id=7", api: "ApiVersions", version: 2, corr: "7"},
		{line: "ApiVersionsResponse version 0, response body", api: "ApiVersions", response: true},
		{line: "Find Coordinator response, api_version=1, CorrelationId: 42", api: "FindCoordinator", version: 1, response: true, corr: "42"},
		{line: "find_coordinator request v0 (corr 0x10)", api: "FindCoordinator", corr: "16"},
		{line: "Fetch v4 response body only (no size, no correlation id)", api: "Fetch", version: 4, response: true},
		{line: "ApiVersions v4 request, correlation id 177586623, ClientSoftwareVersion 0.1", api: "ApiVersions", version: 4, corr: "177586623"},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			w := parseWhat(t, tt.line)
			if w.api != tt.api || w.version != tt.version || w.response != tt.response || w.corr != tt.corr {
				t.Errorf("got %s v%d response %v corr %q, want %s v%d response %v corr %q", w.api, w.version, w.response, w.corr, tt.api, tt.version, tt.response, tt.corr)
			}
		})
	}
	w := parseWhat(t, "ApiVersions v0 response: error_code=35, throttle time ms 0")
	for _, f := range [][2]string{{"ErrorCode", "35"}, {"ThrottleTimeMs", "0"}} {
		if !slices.Contains(w.fields, f) {
			t.Errorf("no field %v in %v", f, w.fields)
		}
	}
}
