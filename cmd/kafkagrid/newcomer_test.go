package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// copyRelease copies the spec files of a release folder into dir.
func copyRelease(t *testing.T, src, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestReleaseNameFromContents: a build from a Kafka checkout is titled by its
// gradle.properties version, a copy of a known release by that release, and -name names
// what neither says (the title, the book's file name and the manifest).
func TestReleaseNameFromContents(t *testing.T) {
	root := listSchemaRoot(t)
	t.Setenv("KAFKA_SCHEMAS", "")
	co := t.TempDir()
	msg := filepath.Join(co, "clients", "src", "main", "resources", "common", "message")
	copyRelease(t, filepath.Join(root, "4.0"), msg)
	if err := os.WriteFile(filepath.Join(co, "gradle.properties"), []byte("group=org.apache.kafka\nversion=4.0.1-SNAPSHOT\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(t.TempDir(), "message")
	copyRelease(t, filepath.Join(root, "4.0"), plain)
	edited := filepath.Join(t.TempDir(), "message")
	copyRelease(t, filepath.Join(root, "4.0"), edited)
	os.Remove(filepath.Join(edited, "FetchRequest.json"))
	os.Remove(filepath.Join(edited, "FetchResponse.json"))
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"a checkout", []string{"-schemas", msg}, "4.0.1-SNAPSHOT"},
		{"a copy of 4.0", []string{"-schemas", plain}, "4.0"},
		{"an edited release", []string{"-schemas", edited}, "message"},
		{"-name", []string{"-schemas", edited, "-name", "4.0-nofetch"}, "4.0-nofetch"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			_, errs, code := runCmd(t, append([]string{"build", "-out", out, "-format", "html,pdf", "-apis", "ApiVersions", "-versions", "highest"}, tc.args...)...)
			if code != 0 || !strings.Contains(errs, "of Kafka "+tc.want+" into") {
				t.Fatalf("exit %d, %q; want the release named %s", code, errs, tc.want)
			}
			// Named after its folder only when nothing else says: then the build says so.
			if noted := strings.Contains(errs, "named \""+tc.want+"\" after its folder"); noted != (tc.name == "an edited release") {
				t.Errorf("stderr %q: the note on a name taken from the folder, want it only for an edited release", errs)
			}
			if _, err := os.Stat(filepath.Join(out, "kafka-"+tc.want+"-protocol.pdf")); err != nil {
				t.Error(err)
			}
			idx, _ := os.ReadFile(filepath.Join(out, "index.html"))
			if !strings.Contains(string(idx), "Kafka "+tc.want) {
				t.Errorf("the index does not say Kafka %s", tc.want)
			}
			list, _, _ := runCmd(t, append([]string{"list", "-format", "json"}, tc.args...)...)
			var doc struct{ Release string }
			if err := json.Unmarshal([]byte(list), &doc); err != nil || doc.Release != tc.want {
				t.Errorf("list says release %q (%v), want %q", doc.Release, err, tc.want)
			}
		})
	}
	for _, bad := range []string{"a/b", "..", "two words", strings.Repeat("x", 65)} {
		if _, errs, code := runCmd(t, "list", "-schemas", plain, "-name", bad); code != 2 || !strings.Contains(errs, "-name") {
			t.Errorf("-name %q: exit %d, %s", bad, code, errs)
		}
	}
}

// TestPartialBuildOtherRelease: a partial build (-apis) of another release into a folder
// built from one is refused, naming both releases, and the folder's index keeps its rows;
// the same release (or -name of it) builds.
func TestPartialBuildOtherRelease(t *testing.T) {
	root := listSchemaRoot(t)
	t.Setenv("KAFKA_SCHEMAS", "")
	out := t.TempDir()
	rel40 := filepath.Join(root, "4.0")
	if _, errs, code := runCmd(t, "build", "-q", "-schemas", rel40, "-name", "4.0.0", "-out", out, "-format", "html", "-versions", "highest"); code != 0 {
		t.Fatal(errs)
	}
	index := func() string { b, _ := os.ReadFile(filepath.Join(out, "index.html")); return string(b) }
	before := index()
	_, errs, code := runCmd(t, "build", "-q", "-schemas", rel40, "-out", out, "-format", "html", "-apis", "Produce")
	if code != 1 || !strings.Contains(errs, "holds a build of release 4.0.0") || !strings.Contains(errs, "these schemas are release 4.0") || !strings.Contains(errs, "-name 4.0.0") {
		t.Errorf("exit %d, %s; want a refusal naming 4.0.0 and 4.0", code, errs)
	}
	if index() != before {
		t.Error("the refused build changed the index")
	}
	if _, errs, code := runCmd(t, "build", "-q", "-schemas", rel40, "-name", "4.0.0", "-out", out, "-format", "html", "-apis", "Produce"); code != 0 {
		t.Errorf("the same release named alike: exit %d, %s", code, errs)
	}
	if got, want := strings.Count(index(), `href="api/`), strings.Count(before, `href="api/`); got != want {
		t.Errorf("the index has %d API links after a partial build of the same release, %d before", got, want)
	}
}

// TestDiffFolderOfReleases: diff of a folder of releases needs -release before it (it used
// to take 4.0 from it and say "no differences"); with one per side, each side is its release.
func TestDiffFolderOfReleases(t *testing.T) {
	root := listSchemaRoot(t)
	t.Setenv("KAFKA_SCHEMAS", "")
	rel40 := filepath.Join(root, "4.0")
	_, errs, code := runCmd(t, "diff", root, rel40)
	if code != 2 || !strings.Contains(errs, root+" is a folder of releases (") || !strings.Contains(errs, "-release") {
		t.Errorf("diff of a folder of releases: exit %d, %s", code, errs)
	}
	out, errs, code := runCmd(t, "diff", "-release", "3.9", root, "-release=4.0", root)
	if code != 1 || !strings.Contains(out, "Kafka 3.9 → 4.0") || !strings.Contains(out, "APIs removed:") {
		t.Errorf("diff -release 3.9 DIR -release 4.0 DIR: exit %d, %s%s", code, out, errs)
	}
	out, errs, code = runCmd(t, "diff", "-release", "4.0", root, rel40)
	if code != 0 || !strings.Contains(out, "no differences") {
		t.Errorf("the same release two ways: exit %d, %s%s", code, out, errs)
	}
	if _, errs, code := runCmd(t, "diff", rel40, root, "-release", "4.1"); code != 2 || !strings.Contains(errs, "stands just before the folder") {
		t.Errorf("a trailing -release: exit %d, %s", code, errs)
	}
	if _, errs, code := runCmd(t, "diff", "-release", "9.9", root, rel40); code != 2 || !strings.Contains(errs, `no release "9.9"`) {
		t.Errorf("-release of a release the folder lacks: exit %d, %s", code, errs)
	}
}

// TestSchemaNotesOnlyVerbose: the notes on Kafka's own files read leniently (4.0's
// BrokerHeartbeatRequest.json gives a tag as a string) are for -v, not every command.
func TestSchemaNotesOnlyVerbose(t *testing.T) {
	rel40 := filepath.Join(listSchemaRoot(t), "4.0")
	t.Setenv("KAFKA_SCHEMAS", "")
	const note = "BrokerHeartbeatRequest.json:34:101: note: OfflineLogDirs: tag: the string \"0\" read as the number 0"
	for _, args := range [][]string{
		{"show", "Produce"}, {"list"}, {"diff", rel40, rel40},
		{"build", "-out", t.TempDir(), "-apis", "ApiVersions", "-format", "bin"},
	} {
		withSchemas := append(args, "-schemas", rel40)
		if args[0] == "diff" {
			withSchemas = args
		}
		if _, errs, code := runCmd(t, withSchemas...); code != 0 || strings.Contains(errs, "note:") {
			t.Errorf("%v: exit %d, stderr %q; want no note", args, code, errs)
		}
		want := 1
		if args[0] == "diff" {
			want = 2 // once for each side
		}
		if _, errs, _ := runCmd(t, append(withSchemas, "-v")...); strings.Count(errs, note) != want {
			t.Errorf("%v -v: stderr %q; want the note %d times", args, errs, want)
		}
	}
}

// TestShowVersions: -versions shows several versions, lowest first (text one after the
// other, JSON an array); a version the release lacks names the releases that have it.
func TestShowVersions(t *testing.T) {
	root := listSchemaRoot(t)
	rel40 := filepath.Join(root, "4.0")
	t.Setenv("KAFKA_SCHEMAS", "")
	out, errs, code := runCmd(t, "show", "Produce", "-versions", "3,5-6", "-schemas", rel40)
	var heads []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "Version ") {
			heads = append(heads, strings.SplitN(l, ":", 2)[0])
		}
	}
	if code != 0 || strings.Join(heads, ",") != "Version 3,Version 5,Version 6" {
		t.Errorf("-versions 3,5-6: exit %d, %v, %s", code, heads, errs)
	}
	out, errs, code = runCmd(t, "show", "Produce", "-versions", "11+", "-format", "json", "-response", "-schemas", rel40)
	var frames []map[string]any
	if err := json.Unmarshal([]byte(out), &frames); code != 0 || err != nil || len(frames) != 2 {
		t.Errorf("-versions 11+ -format json: exit %d, %v, %d frames, %s", code, err, len(frames), errs)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		// The releases named are those of the folder, whichever it holds ("…" stands for them).
		{[]string{"-version", "1"}, "Produce v1 is not in Kafka 4.0 (it has v3-12); Kafka 2.…, 3.9 have it: try -release 3.9"},
		{[]string{"-version", "13"}, "Produce v13 is not in Kafka 4.0 (it has v3-12); Kafka 4.1"},
		{[]string{"-version", "40"}, "Produce v40 is not in Kafka 4.0 (it has v3-12); no Kafka release kafkagrid knows has it"},
		{[]string{"-versions", "0,3-5"}, "Produce v0 is not in Kafka 4.0"},
		{[]string{"-versions", "3,4", "-format", "svg"}, "-format svg draws one version"},
		{[]string{"-versions", "3", "-version", "4"}, "not both"},
		{[]string{"-versions", "x"}, "-versions"},
	} {
		_, errs, code := runCmd(t, append([]string{"show", "Produce", "-schemas", rel40}, tc.args...)...)
		if code != 2 || !containsInOrder(errs, strings.Split(tc.want, "…")) {
			t.Errorf("show Produce %v: exit %d, %q; want 2 and %q", tc.args, code, errs, tc.want)
		}
	}
}

// containsInOrder reports whether s holds each part, one after another.
func containsInOrder(s string, parts []string) bool {
	for _, p := range parts {
		i := strings.Index(s, p)
		if i < 0 {
			return false
		}
		s = s[i+len(p):]
	}
	return true
}
