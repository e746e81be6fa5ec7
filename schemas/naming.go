package schemas

import (
	"bufio"
	_ "embed"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// knownReleasesText lists the Kafka releases kafkagrid has been tested on, one a line: the
// release's name, then each request's API key and valid versions ("4.0 0:3-12 1:4-17 …"). A
// folder whose requests have exactly one line's keys and versions is that release, whatever
// the folder is called. It is made from the schemas by
// "go test ./schemas -run TestKnownReleases -update".
//
//go:embed knownreleases.txt
var knownReleasesText string

// keyVersions is a request's API key and valid versions: what a release is known by.
type keyVersions struct {
	key   int16
	valid VersionRange
}

// requestVersions returns r's requests' keys and valid versions, by key.
func (r *Release) requestVersions() []keyVersions {
	var out []keyVersions
	for _, s := range r.Requests() {
		out = append(out, keyVersions{s.APIKey, s.ValidVersions})
	}
	return out
}

// fingerprint is what identifies a release among the known ones: each request's API key and
// valid versions, by key ("0:3-12 1:4-17 …").
func (r *Release) fingerprint() string { return fingerprint(r.requestVersions()) }

func fingerprint(reqs []keyVersions) string {
	reqs = slices.Clone(reqs)
	slices.SortStableFunc(reqs, func(a, b keyVersions) int { return int(a.key) - int(b.key) })
	var b strings.Builder
	for _, s := range reqs {
		if !s.valid.Set {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(int(s.key)) + ":" + strconv.Itoa(int(s.valid.Lo)) + "-" + strconv.Itoa(int(s.valid.Hi)))
	}
	return b.String()
}

// KnownRelease returns the name of the Kafka release ("4.0") whose requests have exactly r's
// API keys and valid versions, among the releases kafkagrid knows, or "" when none has.
func (r *Release) KnownRelease() string { return knownRelease(r.requestVersions()) }

func knownRelease(reqs []keyVersions) string {
	fp := fingerprint(reqs)
	if fp == "" {
		return ""
	}
	var found []string
	for _, line := range strings.Split(knownReleasesText, "\n") {
		name, rest, ok := strings.Cut(line, " ")
		if ok && !strings.HasPrefix(line, "#") && rest == fp {
			found = append(found, name)
		}
	}
	if len(found) != 1 {
		return "" // two releases of the same protocol: the contents do not say which
	}
	return found[0]
}

// checkoutMessageDir is where a Kafka checkout keeps the message specs, below its root.
var checkoutMessageDir = filepath.Join("clients", "src", "main", "resources", "common", "message")

// checkoutVersion returns the version= of the gradle.properties of the Kafka checkout whose
// message folder dir is ("4.1.0-SNAPSHOT"), or "" when dir is not one or says none.
func checkoutVersion(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil || !strings.HasSuffix(abs, string(filepath.Separator)+checkoutMessageDir) {
		return ""
	}
	f, err := os.Open(filepath.Join(strings.TrimSuffix(abs, checkoutMessageDir), "gradle.properties"))
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, 1<<20)) // Kafka's is under 2 KB
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), "=")
		if ok && strings.TrimSpace(k) == "version" {
			v = strings.TrimSpace(v)
			if v == "" || strings.ContainsAny(v, "/\\ \t") || len(v) > 64 {
				return ""
			}
			return v
		}
	}
	return ""
}

// folderName names a release read from the folder dir by its contents where they say: a Kafka
// checkout's gradle.properties version, else the known release its requests match; "" when
// neither does (Name then falls back to the folder's name).
func folderName(dir string, r *Release) string {
	if v := checkoutVersion(dir); v != "" {
		return v
	}
	return r.KnownRelease()
}

// SetName names the release, in place of the name Open found (a command's -name).
func (r *Release) SetName(name string) { r.name = name }

// KnownReleasesWith returns the releases kafkagrid knows whose request of apiKey has version
// v, oldest first: where to look for a version this release lacks.
func KnownReleasesWith(apiKey int16, v Version) []string {
	want := strconv.Itoa(int(apiKey)) + ":"
	var out []string
	for _, line := range strings.Split(knownReleasesText, "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		for _, f := range fields[min(1, len(fields)):] {
			rng, ok := strings.CutPrefix(f, want)
			if !ok {
				continue
			}
			lo, hi, _ := strings.Cut(rng, "-")
			l, errl := strconv.Atoi(lo)
			h, errh := strconv.Atoi(hi)
			if errl == nil && errh == nil && l <= int(v) && int(v) <= h {
				out = append(out, fields[0])
			}
			break
		}
	}
	return out
}

// knownReleaseLines returns knownreleases.txt for the releases rs, in the order of names
// (oldest first).
func knownReleaseLines(names []string, rs map[string]*Release) string {
	var b strings.Builder
	b.WriteString("# The Kafka releases kafkagrid knows by their contents, oldest first: name, then each request's apiKey:validVersions.\n")
	b.WriteString("# Made by go test ./schemas -run TestKnownReleases -update\n")
	for _, n := range names {
		b.WriteString(n + " " + rs[n].fingerprint() + "\n")
	}
	return b.String()
}
