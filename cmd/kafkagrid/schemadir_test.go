package main

import (
	"archive/zip"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/site/reference"
)

// writeClientsJar packs a release folder as kafka-clients packages it: the specs under
// common/message/ of a jar.
func writeClientsJar(t *testing.T, jar, dir string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(jar), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(jar)
	if err != nil {
		t.Fatal(err)
	}
	z := zip.NewWriter(f)
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		w, err := z.Create("common/message/" + filepath.Base(file))
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// TestSchemasFromJarAndInstallation: every verb reads a kafka-clients jar and a Kafka
// installation folder given to -schemas or $KAFKA_SCHEMAS, as a user who has Kafka installed
// would.
func TestSchemasFromJarAndInstallation(t *testing.T) {
	root := listSchemaRoot(t)
	tmp := t.TempDir()
	install := filepath.Join(tmp, "kafka_2.13-3.9.1")
	jar := filepath.Join(install, "libs", "kafka-clients-3.9.1.jar")
	writeClientsJar(t, jar, filepath.Join(root, "3.9"))
	t.Setenv(cacheDirEnv, t.TempDir())
	frame := filepath.Join(t.TempDir(), "p.bin")
	for _, tc := range []struct {
		name string
		env  string
		args []string
		want string // in stdout
	}{
		{"show from a jar", "", []string{"show", "Produce", "-schemas", jar}, "Produce v11 request"},
		{"show from an installation", "", []string{"show", "LeaderAndIsr", "-schemas", install}, "LeaderAndIsr v7 request"},
		{"list from a jar in the environment", jar, []string{"list"}, "LeaderAndIsr"},
		{"list json names the jar", "", []string{"list", "-schemas", jar, "-format", "json"}, `"release": "3.9.1"`},
		{"build from an installation", "", []string{"build", "-q", "-schemas", install, "-format", "bin", "-apis", "Produce", "-out", filepath.Join(tmp, "out")}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("KAFKA_SCHEMAS", tc.env)
			out, errs, code := runCmd(t, tc.args...)
			if code != 0 || !strings.Contains(out, tc.want) {
				t.Errorf("exit %d, stderr %s\nstdout lacks %q:\n%.600s", code, errs, tc.want, out)
			}
		})
	}
	data, err := os.ReadFile(filepath.Join(tmp, "out", "bin", "0-Produce-v11-request.bin"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(frame, data, 0o644)
	t.Setenv("KAFKA_SCHEMAS", "")
	if out, errs, code := runCmd(t, "decode", "-schemas", jar, frame); code != 0 || !strings.Contains(out, "Acks") {
		t.Errorf("decode with a jar: exit %d, %s\n%s", code, errs, out)
	}
	if _, errs, code := runCmd(t, "list", "-schemas", jar, "-release", "4.0"); code != 2 || !strings.Contains(errs, "-release 4.0 does not apply") {
		t.Errorf("-release with a jar: exit %d, %s", code, errs)
	}
}

// TestSchemasFromCache: after one -kafka download, every verb finds that release again with
// -kafka or -release, without the network; with nothing to find, the error names every way.
func TestSchemasFromCache(t *testing.T) {
	root := listSchemaRoot(t)
	arch := schemaArchive(t, filepath.Join(root, "4.1"), "kafka-4.1")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/refs/heads/4.1" {
			http.NotFound(w, r)
			return
		}
		w.Write(arch)
	}))
	cache := t.TempDir()
	t.Setenv(cacheDirEnv, cache)
	t.Setenv(archiveURLEnv, srv.URL)
	t.Setenv("KAFKA_SCHEMAS", "")
	if _, errs, code := runCmd(t, "list", "-kafka", "4.1"); code != 0 || !strings.Contains(errs, "downloading") {
		t.Fatalf("first -kafka: exit %d, %s", code, errs)
	}
	srv.Close() // offline from here on
	for _, args := range [][]string{
		{"list", "-kafka", "4.1"},
		{"show", "ShareFetch", "-kafka", "4.1"},
		{"list", "-release", "4.1"},
		{"show", "-release", "4.1", "Produce"},
	} {
		out, errs, code := runCmd(t, args...)
		if code != 0 || out == "" || strings.Contains(errs, "downloading") {
			t.Errorf("%v offline: exit %d, %s", args, code, errs)
		}
	}
	_, errs, code := runCmd(t, "show", "Produce")
	for _, want := range []string{"no Kafka schemas", "-schemas PATH", "kafka-clients-*.jar", "-kafka REF", "KAFKA_SCHEMAS=PATH",
		"-release RELEASE", "none is 4.0 in " + cache + " (it has 4.1)"} {
		if code != 2 || !strings.Contains(errs, want) {
			t.Errorf("no schemas: exit %d, stderr lacks %q:\n%s", code, want, errs)
		}
	}
	// The order is the order tried.
	if i, j, k := strings.Index(errs, "-schemas PATH"), strings.Index(errs, "-kafka REF"), strings.Index(errs, "KAFKA_SCHEMAS=PATH"); !(i < j && j < k) {
		t.Errorf("ways not in the order tried:\n%s", errs)
	}
}

// TestSchemaNotes: with -v, lenient input in a release's files is said once on stderr with
// its position; without, nothing (a user cannot act on notes about Kafka's own files).
func TestSchemaNotes(t *testing.T) {
	root := listSchemaRoot(t)
	dir := filepath.Join(root, "2.8")
	if !isReleaseDir(dir) {
		t.Skip("no 2.8")
	}
	t.Setenv("KAFKA_SCHEMAS", "")
	out, errs, code := runCmd(t, "list", "-v", "-schemas", dir)
	if code != 0 || out == "" {
		t.Fatalf("exit %d, %s", code, errs)
	}
	for _, want := range []string{
		`DeleteTopicsResponse.json:43:74: note: Responses[].TopicId: ignorable: the string "true" read as the boolean true`,
		`DescribeProducersRequest.json:31:3: note: text after the top-level value ignored`,
	} {
		if strings.Count(errs, want) != 1 {
			t.Errorf("stderr should say once %q:\n%s", want, errs)
		}
	}
	for _, args := range [][]string{{"list", "-schemas", dir}, {"list", "-q", "-schemas", dir}} {
		if _, errs, _ := runCmd(t, args...); errs != "" {
			t.Errorf("%v: stderr %q", args, errs)
		}
	}
}

// TestLinkedReleases: a folder of releases whose entries are symbolic links to release folders
// kept elsewhere is read as the folders they point to, by every verb that lists it (list's
// matrix of every release, -release, decode's search of the other releases); a link that
// dangles or loops is an error naming it.
func TestLinkedReleases(t *testing.T) {
	root := listSchemaRoot(t)
	dir := t.TempDir()
	for _, rel := range []string{"3.9", "4.0"} {
		if err := os.Symlink(filepath.Join(root, rel), filepath.Join(dir, rel)); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("KAFKA_SCHEMAS", "")
	out, errs, code := runCmd(t, "list", "-q", "-schemas", dir, "-format", "json")
	var m reference.MatrixJSON
	if err := json.Unmarshal([]byte(out), &m); code != 0 || err != nil || strings.Join(m.Releases, " ") != "3.9 4.0" {
		t.Errorf("list -format json of linked releases: exit %d, %s, %v: releases %v", code, errs, err, m.Releases)
	}
	if out, errs, code := runCmd(t, "list", "-q", "-schemas", dir, "-release", "3.9"); code != 0 || !strings.Contains(out, "LeaderAndIsr") {
		t.Errorf("list -release 3.9 of linked releases: exit %d, %s", code, errs)
	}
	// A Fetch v3 request (not in 4.0) is decoded with the linked 3.9.
	bins := t.TempDir()
	if _, errs, code := runCmd(t, "build", "-q", "-schemas", filepath.Join(dir, "3.9"), "-out", bins, "-format", "bin", "-apis", "Fetch", "-versions", "3"); code != 0 {
		t.Fatal(errs)
	}
	if out, errs, code := runCmd(t, "decode", "-q", "-schemas", dir, filepath.Join(bins, "bin", "1-Fetch-v3-request.bin")); code != 0 || !strings.Contains(out, "is in Kafka 3.9: decoded with its schemas (-release 3.9)") {
		t.Errorf("decode with the linked 3.9: exit %d, %s\n%.300s", code, errs, out)
	}

	if err := os.Symlink(filepath.Join(dir, "gone"), filepath.Join(dir, "4.1")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("4.3", filepath.Join(dir, "4.2")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("4.2", filepath.Join(dir, "4.3")); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"list", "-q", "-schemas", dir, "-format", "json"},
		{"list", "-q", "-schemas", dir, "-release", "4.1"},
	} {
		_, errs, code := runCmd(t, args...)
		for _, want := range []string{
			filepath.Join(dir, "4.1") + ": a dangling symbolic link: its target " + filepath.Join(dir, "gone") + " does not exist",
			filepath.Join(dir, "4.2") + ": a loop of symbolic links",
		} {
			if code != 1 || !strings.Contains(errs, want) {
				t.Errorf("%v: exit %d, %s; want 1 and %q", args, code, errs, want)
			}
		}
	}
}
