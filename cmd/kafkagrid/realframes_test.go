package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
)

// realFramesDir is ../shared/real-frames (or $KAFKAGRID_REAL_FRAMES): frames as their authors
// published them, each file a SOURCE: line, a WHAT: line, a blank line and the published text.
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
}

var (
	whatVersion = regexp.MustCompile(`\bv(\d+)\b`)
	whatCorr    = regexp.MustCompile(`(?i)\b(?:correlation id|corr)\s+(0x[0-9a-f]+|-?\d+)`)
	whatQuoted  = regexp.MustCompile(`'([^']*)'`)
)

// parseWhat reads a WHAT: line: the first API name any release knows, its "vN", "request" or
// "response", "correlation id N" (or "corr N"), quoted strings, and "Field value" pairs.
func parseWhat(t *testing.T, line string) what {
	var w what
	words := strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == ',' || r == '(' || r == ')' || r == ';' || r == ':' })
	for _, word := range words {
		if _, names, _, ok := kafka.KnownAPI(word); ok && len(names) > 0 && strings.EqualFold(names[0], word) {
			w.api = names[0]
			break
		}
	}
	m := whatVersion.FindStringSubmatch(line)
	if w.api == "" || m == nil {
		t.Fatalf("WHAT names no API and version: %q", line)
	}
	w.version, _ = strconv.Atoi(m[1])
	req, resp := strings.Index(line, "request"), strings.Index(line, "response")
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
	low := strings.ToLower(line)
	w.badCRC = strings.Contains(low, "crc") && (strings.Contains(low, "wrong") || strings.Contains(low, "mismatch") || strings.Contains(low, "incorrect") || strings.Contains(low, "bad"))
	for _, m := range whatQuoted.FindAllStringSubmatch(line, -1) {
		w.strs = append(w.strs, m[1])
	}
	for i := 0; i+1 < len(words); i++ {
		w.fields = append(w.fields, [2]string{words[i], words[i+1]})
		if i+2 < len(words) { // "high watermark 2": HighWatermark
			w.fields = append(w.fields, [2]string{camel(words[i]) + camel(words[i+1]), words[i+2]})
		}
	}
	return w
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

func safeSlice(s string, from int) string {
	if len(s) < from {
		return ""
	}
	return s[from:]
}

// TestRealFrames decodes every frame of ../shared/real-frames as published (the whole file,
// and the published text alone), with no flags but -api and -version where the bytes alone
// cannot tell them (kafkagrid then lists several readings, or asks for -api), and checks the
// result against the file's WHAT: API, version, side, correlation id, quoted values and the
// fields it names with their values.
func TestRealFrames(t *testing.T) {
	dir := realFramesDir(t)
	root := testenv.Releases(t)
	files, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, file := range files {
		if filepath.Base(file) == "README.md" {
			continue
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
		t.Fatalf("no frames in %s", dir)
	}
}

// checkRealFrame decodes one file with as few flags as it needs and checks it against w; it
// returns the flags given.
func checkRealFrame(t *testing.T, root, file string, w what) []string {
	t.Helper()
	flagSets := [][]string{nil, {"-api", w.api}, {"-api", w.api, "-version", strconv.Itoa(w.version)}}
	for i, flags := range flagSets {
		args := append([]string{"decode", "-schemas", root}, flags...)
		out, errs, code := runCmd(t, append(args, file)...)
		ambiguous := strings.Contains(out, " readings of these bytes") || strings.Contains(errs, "give -api") || strings.Contains(out, "give -api")
		if ambiguous && i+1 < len(flagSets) {
			continue
		}
		switch {
		case w.badCRC && (code != 1 || !strings.Contains(errs, "CRC")):
			t.Fatalf("%v: a wrong CRC, WHAT says: exit %d: %s", flags, code, errs)
		case !w.badCRC && code != 0:
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
		for _, s := range w.strs {
			if !strings.Contains(out, strconv.Quote(s)) {
				t.Errorf("%v: no value %q in the output", flags, s)
			}
		}
		for _, f := range w.fields {
			if stopWords[strings.ToLower(f[1])] {
				continue // "CRC is wrong": prose, not a value
			}
			if got, ok := vals[f[0]]; ok && !containsValue(got, f[1]) {
				t.Errorf("%v: %s = %v, WHAT says %s", flags, f[0], got, f[1])
			}
		}
		return flags
	}
	return nil
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
