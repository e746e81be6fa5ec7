package kafka

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/schemas"
)

// TestKnownFields checks knownfields.txt against every release found: every field of the
// releases it names must be in it with its type. A release it does not name yet (one added to
// the folder of releases) is logged with what it adds; -update rewrites the table from every
// release found.
func TestKnownFields(t *testing.T) {
	dirs := testenv.All(t)
	types := map[string]map[string]map[string]bool{} // "key side" → path → types
	apiNames := map[int16]map[string]bool{}
	apiReleases := map[int16][]string{}
	var names []string
	missing := 0
	k := loadKnownFields()
	named := map[string]bool{}
	for _, r := range strings.Fields(k.releases) {
		named[r] = true
	}
	for _, dir := range dirs {
		r, err := schemas.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, r.Name())
		var added []string
		for _, req := range r.Requests() {
			if !req.ValidVersions.Set {
				continue
			}
			if apiNames[req.APIKey] == nil {
				apiNames[req.APIKey] = map[string]bool{}
			}
			apiNames[req.APIKey][strings.TrimSuffix(req.Name, "Request")] = true
			apiReleases[req.APIKey] = append(apiReleases[req.APIKey], r.Name())
		}
		knownFieldLines(r, func(msg, path, typ string) {
			if types[msg] == nil {
				types[msg] = map[string]map[string]bool{}
			}
			if types[msg][path] == nil {
				types[msg][path] = map[string]bool{}
			}
			types[msg][path][typ] = true
			if got, ok := k.types[msg][path]; !ok || !strings.Contains("|"+got+"|", "|"+typ+"|") {
				added = append(added, msg+" "+path+" "+typ)
			}
		})
		switch {
		case len(added) == 0:
		case named[r.Name()] && !testenv.Update():
			missing += len(added)
			t.Errorf("release %s: %d fields not in knownfields.txt, first %s (go test ./kafka -run TestKnownFields -update)", r.Name(), len(added), added[0])
		default:
			t.Logf("release %s is new to knownfields.txt: it adds %d fields (go test ./kafka -run TestKnownFields -update)", r.Name(), len(added))
		}
	}
	if !testenv.Update() {
		return
	}
	var lines []string
	for msg, paths := range types {
		for path, ts := range paths {
			var l []string
			for typ := range ts {
				l = append(l, typ)
			}
			sort.Strings(l)
			lines = append(lines, msg+" "+path+" "+strings.Join(l, "|"))
		}
	}
	sort.Strings(lines)
	var keys []int
	for key := range apiNames {
		keys = append(keys, int(key))
	}
	sort.Ints(keys)
	var apis []string
	for _, key := range keys {
		var l []string
		for n := range apiNames[int16(key)] {
			l = append(l, n)
		}
		sort.Strings(l)
		apis = append(apis, fmt.Sprintf("# api %d %s releases %s", key, strings.Join(l, " "), strings.Join(apiReleases[int16(key)], " ")))
	}
	out := fmt.Sprintf("# Every field of every request and response of these Kafka releases: API key, side, path, type;\n"+
		"# and the names of each API key. Made by go test ./kafka -run TestKnownFields -update; read by the\n"+
		"# example merger.\n# releases: %s\n%s\n%s\n", strings.Join(names, " "), strings.Join(apis, "\n"), strings.Join(lines, "\n"))
	if err := os.WriteFile(filepath.Join("knownfields.txt"), []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestDotted(t *testing.T) {
	for in, want := range map[string]string{
		"Responses[0].PartitionResponses[12].Index": "Responses.PartitionResponses.Index",
		"Acks": "Acks",
		"":     "",
	} {
		if got := dotted(in); got != want {
			t.Errorf("dotted(%q) = %q, want %q", in, got, want)
		}
	}
}
