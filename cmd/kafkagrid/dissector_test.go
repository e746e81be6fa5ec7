package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
)

// TestDissectorVerb runs "kafkagrid dissector" as a user does: one release, a folder of
// releases (one dissector of them all, the versions they define otherwise named on stderr
// with -v and in the file),
// standard output, and the mistakes (no -o, a bad port, missing schemas) with their exit
// codes and no file left behind. tshark, when installed, loads the file written.
func TestDissectorVerb(t *testing.T) {
	root := testenv.Releases(t)
	dir := t.TempDir()
	one := filepath.Join(dir, "one.lua")
	_, errs, code := runCmd(t, "dissector", "-schemas", filepath.Join(root, "4.0"), "-o", one)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	data, err := os.ReadFile(one)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `local KG_RELEASES = "4.0"`) || !strings.Contains(errs, "dissector of Kafka 4.0") {
		t.Errorf("one release: the file or stderr does not name Kafka 4.0:\n%s", errs)
	}
	all := filepath.Join(dir, "all.lua")
	_, errs, code = runCmd(t, "dissector", "-schemas", root, "-releases", "4.0,4.1", "-o", all, "-v")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	data, err = os.ReadFile(all)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `local KG_RELEASES = "4.0, 4.1"`) ||
		!strings.Contains(string(data), "--   ReadShareGroupStateSummary v0 response: Kafka 4.0 defines it otherwise than 4.1") {
		t.Errorf("a folder of releases: the file does not name them, or the version they define otherwise")
	}
	if !strings.Contains(errs, "note: ReadShareGroupStateSummary v0 response: Kafka 4.0 defines it otherwise than 4.1") {
		t.Errorf("a folder of releases: no note of the version they define otherwise:\n%s", errs)
	}
	out, _, code := runCmd(t, "dissector", "-schemas", filepath.Join(root, "4.0"), "-o", "-", "-ports", "9092,19092", "-q")
	if code != 0 || !strings.HasPrefix(out, "-- Kafka protocol dissector") || !strings.Contains(out, `local KG_PORTS = "9092,19092"`) {
		t.Errorf("-o -: exit %d, %.80q", code, out)
	}
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"dissector", "-schemas", filepath.Join(root, "4.0")}, 2, "-o FILE is required"},
		{[]string{"dissector", "-schemas", filepath.Join(root, "4.0"), "-o", filepath.Join(dir, "bad.lua"), "-ports", "99999"}, 2, "-ports"},
		{[]string{"dissector", "-schemas", filepath.Join(dir, "none"), "-o", filepath.Join(dir, "bad.lua")}, 1, "no such file"},
		{[]string{"dissector", "-schemas", filepath.Join(root, "4.0"), "-o", filepath.Join(dir, "bad.lua"), "extra"}, 2, "unexpected argument"},
	} {
		_, errs, code := runCmd(t, tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tc.args[1:], code, errs, tc.code, tc.msg)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "bad.lua")); err == nil {
		t.Error("a failed run left a file")
	}
	if bin, err := exec.LookPath("tshark"); err == nil {
		cmd := exec.Command(bin, "-G", "fields", "-X", "lua_script:"+all) // -G comes first
		cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
		fields, err := cmd.Output()
		if err != nil {
			t.Fatalf("tshark -G fields: %v", err)
		}
		for _, f := range []string{"kafkagrid.api_key", "kafkagrid.api_version", "kafkagrid.correlation_id", "kafkagrid.client_id",
			"kafkagrid.error_code", "kafkagrid.produce.topic_data.partition_data.records", "kafkagrid.fetch.responses.partitions.error_code"} {
			if !strings.Contains(string(fields), "\t"+f+"\t") {
				t.Errorf("tshark does not know the field %s", f)
			}
		}
	}
}
