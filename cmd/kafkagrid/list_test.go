package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
)

// listSchemaRoot returns the folder of releases ($KAFKA_SCHEMAS or its parent when it names a
// release, else ../shared/kafka-schemas beside the module root), skipping when absent.
func listSchemaRoot(t *testing.T) string {
	t.Helper()
	return testenv.Releases(t)
}

func runCmd(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), args, &out, &errb)
	code = exitCode(err, &errb)
	return out.String(), errb.String(), code
}

func TestListReleases(t *testing.T) {
	root := listSchemaRoot(t)
	for _, tc := range []struct {
		release string
		rows    int
		first   string
	}{
		{"3.9", 88, "0    Produce  "},
		{"4.0", 84, "0    Produce  "},
		{"4.1", 89, "0    Produce  "},
	} {
		t.Run(tc.release, func(t *testing.T) {
			t.Setenv("KAFKA_SCHEMAS", "")
			out, errs, code := runCmd(t, "list", "-schemas", filepath.Join(root, tc.release))
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			if len(lines) != tc.rows+1 {
				t.Fatalf("%d lines, want header + %d", len(lines), tc.rows)
			}
			if !strings.HasPrefix(lines[0], "KEY  NAME") || !strings.HasPrefix(lines[1], tc.first) {
				t.Errorf("table starts\n%s\n%s", lines[0], lines[1])
			}
			// Aligned: every row's columns start where the header's do.
			col := strings.Index(lines[0], "CATEGORY")
			for _, l := range lines[1:] {
				if len(l) < col || l[col-1] != ' ' || l[col] == ' ' {
					t.Errorf("row not aligned under CATEGORY: %q", l)
				}
			}
		})
	}
}

func TestList40Rows(t *testing.T) {
	root := listSchemaRoot(t)
	t.Setenv("KAFKA_SCHEMAS", root) // a folder of releases: -release picks, default 4.0
	out, errs, code := runCmd(t, "list")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want := map[string]string{ // a sample of rows, fields split on runs of spaces
		"0":  "0 Produce 12 Records flexible",
		"47": "47 OffsetDelete 0 Consumer groups -",
		"17": "17 SaslHandshake 1 Security and ACLs -",
		"82": "82 UpdateRaftVoter 0 Cluster and KRaft flexible",
		"76": "76 ShareGroupHeartbeat 0 Share groups flexible,unstable",
	}
	got := map[string]string{}
	for _, l := range strings.Split(out, "\n")[1:] {
		f := strings.Fields(l)
		if len(f) > 0 {
			got[f[0]] = strings.Join(f, " ")
		}
	}
	if len(got) != 84 {
		t.Errorf("%d rows, want 84", len(got))
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("key %s: got %q, want %q", k, got[k], w)
		}
	}
	if _, ok := got["5"]; ok {
		t.Error("StopReplica (none in 4.0) is listed")
	}
}

func TestListJSON(t *testing.T) {
	root := listSchemaRoot(t)
	t.Setenv("KAFKA_SCHEMAS", root)
	out, errs, code := runCmd(t, "list", "-release", "4.1", "-format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc listJSON
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.APIs) != 89 || doc.Schemas != filepath.Join(root, "4.1") {
		t.Fatalf("%d APIs from %s", len(doc.APIs), doc.Schemas)
	}
	a := doc.APIs[0]
	if a.Key != 0 || a.Name != "Produce" || a.Version != 13 || !a.Flexible || a.Category != "Records" ||
		a.Request != "ProduceRequest.json" || a.Response != "ProduceResponse.json" || len(a.Listeners) != 1 {
		t.Errorf("first API %+v", a)
	}
	for _, a := range doc.APIs {
		if a.Category == "Other" {
			t.Errorf("4.1's %s is in Other: every API of 4.1 has a category", a.Name)
		}
	}
}

func TestListErrors(t *testing.T) {
	root := listSchemaRoot(t)
	empty := t.TempDir()
	bad := t.TempDir()
	for _, n := range []string{"A.json", "B.json", "C.json"} {
		if err := os.WriteFile(filepath.Join(bad, n), []byte(`{"name": "X", "type": "data", "fields": [{"name": "F", "type": "in32", "versions": "0+"}]}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name string
		env  string
		args []string
		code int
		want string // in stderr
	}{
		{"no schemas", "", []string{"list"}, 2, "kafkagrid: list: no Kafka schemas. Give them in one of these ways, tried in this order:\n  -schemas PATH "},
		{"bad format", root, []string{"list", "-format", "yaml"}, 2, `-format "yaml": want text (or txt) or json`},
		{"extra arg", root, []string{"list", "Produce"}, 2, `unexpected argument "Produce"`},
		{"unknown flag", root, []string{"list", "-x"}, 2, "flag provided but not defined: -x"},
		{"no release", root, []string{"list", "-release", "9.9"}, 1, `has no release "9.9" (it has ` + strings.Join(releaseNames(t), ", ") + `); choose one with -release`},
		{"release path", root, []string{"list", "-release", "../x"}, 2, `-release "../x": want a release folder name`},
		{"missing dir", "", []string{"list", "-schemas", filepath.Join(empty, "nope")}, 1, "-schemas: stat "},
		{"empty dir", "", []string{"list", "-schemas", empty}, 1, "holds no *.json message specs"},
		{"env empty dir", empty, []string{"list"}, 1, "KAFKA_SCHEMAS: " + empty + " holds no"},
		{"bad specs", "", []string{"list", "-schemas", bad}, 1, "A.json:1:64: F: unknown type \"in32\"\nB.json:1:64: F: unknown type \"in32\"\nC.json:1:64: F: unknown type \"in32\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("KAFKA_SCHEMAS", tc.env)
			t.Setenv(cacheDirEnv, empty)
			out, errs, code := runCmd(t, tc.args...)
			if code != tc.code || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit %d and %q", code, errs, tc.code, tc.want)
			}
			if out != "" {
				t.Errorf("stdout %q on failure", out)
			}
		})
	}
}

func TestListHelpNamesEveryFlag(t *testing.T) {
	errs, _, code := runCmd(t, "list", "-h") // help asked for goes to stdout
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, f := range []string{"-schemas PATH", "-release RELEASE", "-kafka REF", "kafka-clients-*.jar", "-format FORMAT", "KAFKA_SCHEMAS", "default \"4.0\""} {
		if !strings.Contains(errs, f) {
			t.Errorf("list -h lacks %q:\n%s", f, errs)
		}
	}
}

// resolveSchemas finds the schemas as a verb would with -schemas flag and -release release.
func resolveSchemas(flag, release string) (string, error) {
	empty, quiet := "", true
	src, err := (&schemaFlags{schemas: &flag, release: &release, ref: &empty, quiet: &quiet}).find(context.Background(), io.Discard)
	return src.path, err
}

// releaseNames names the release folders of the test environment.
func releaseNames(t *testing.T) []string { return releaseNamesTB(t) }

func releaseNamesTB(tb testing.TB) []string {
	var out []string
	for _, d := range testenv.All(tb) {
		out = append(out, filepath.Base(d))
	}
	return out
}

func listSchemaRootTB(tb testing.TB) string { return testenv.Releases(tb) }

func TestResolveSchemas(t *testing.T) {
	root := listSchemaRoot(t)
	rel40 := filepath.Join(root, "4.0")
	for _, tc := range []struct {
		name, env, flag, release, want string
	}{
		{"flag release dir", "", rel40, "", rel40},
		{"flag releases dir", "", root, "3.9", filepath.Join(root, "3.9")},
		{"flag wins over env", filepath.Join(root, "4.1"), rel40, "", rel40},
		{"env release dir", rel40, "", "", rel40},
		{"env release dir, same release", rel40, "", "4.0", rel40},
		{"env releases dir default", root, "", "", rel40},
		{"env releases dir picked", root, "", "4.1", filepath.Join(root, "4.1")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("KAFKA_SCHEMAS", tc.env)
			got, err := resolveSchemas(tc.flag, tc.release)
			if err != nil || got != tc.want {
				t.Errorf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func TestTopHelpExplainsSchemas(t *testing.T) {
	errs, _, code := runCmd(t, "-h") // help asked for goes to stdout
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, f := range []string{"list", "-schemas PATH", "KAFKA_SCHEMAS", "-release", "-kafka REF"} {
		if !strings.Contains(errs, f) {
			t.Errorf("kafkagrid -h lacks %q:\n%s", f, errs)
		}
	}
}

// TestReleaseAgainstReleaseFolder checks that -release is not silently ignored when -schemas
// names one release's folder.
func TestReleaseAgainstReleaseFolder(t *testing.T) {
	root := listSchemaRoot(t)
	dir := filepath.Join(root, "4.0")
	if _, err := resolveSchemas(dir, "4.0"); err != nil {
		t.Errorf("-release matching the folder: %v", err)
	}
	if _, err := resolveSchemas(dir, ""); err != nil {
		t.Errorf("no -release: %v", err)
	}
	_, err := resolveSchemas(dir, "3.9")
	if err == nil || !strings.Contains(err.Error(), "-release 3.9 does not apply") {
		t.Errorf("-release 3.9 with the 4.0 folder: %v", err)
	}
	var u usageError
	if !errors.As(err, &u) {
		t.Errorf("want a usage error (exit 2), got %T", err)
	}
}

// newestWith returns the newest release of the folder of releases root, besides except, whose
// request of the API (by name) has version v: the release decode turns to when except, the
// release it was given, lacks that version. What a test expects of that search is decided from
// the releases present, not named, so that it holds for any folder of releases.
func newestWith(t *testing.T, root, except, api string, v int16) string {
	t.Helper()
	dirs := testenv.All(t)
	if filepath.Clean(filepath.Dir(dirs[0])) != filepath.Clean(root) {
		t.Fatalf("the releases %v are not in %s", dirs, root)
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		rel := filepath.Base(dirs[i])
		if rel == except {
			continue
		}
		c, err := kafka.LoadCatalog(dirs[i])
		if err != nil {
			t.Fatal(err)
		}
		if a, ok := c.Lookup(api); ok && a.Request.ValidIn(v) {
			return rel
		}
	}
	t.Fatalf("no release in %s but %s has %s v%d", root, except, api, v)
	return ""
}
