package kafka

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
)

func TestExampleYAMLErrors(t *testing.T) {
	c := testCatalog(t, "4.0")
	produce, _ := c.Lookup("Produce")
	tests := []struct {
		name, yaml, want string
	}{
		{"unknown field", "request:\n  Acks: 1\n  Akcs: 1\n", "kafka: Produce.yaml:3: Akcs: " + unknownIn40("ProduceRequest")},
		{"unknown nested field", "request:\n  TopicData:\n    - Name: orders\n      PartitionData:\n        - Idx: 0\n",
			"kafka: Produce.yaml:5: TopicData[0].PartitionData[0].Idx: " + unknownIn40("ProduceRequest")},
		{"absent at version", "response:\n  Responses:\n    - PartitionResponses:\n        - GlobalErrorCode: 0\n",
			"kafka: Produce.yaml:4: Responses[0].PartitionResponses[0].GlobalErrorCode: " + unknownIn40("ProduceResponse")},
		{"wrong type", "request:\n  Acks: all\n", `kafka: Produce.yaml:2: Acks: want an integer (int16), have "all"`},
		{"out of range", "request:\n  Acks: 40000\n", "kafka: Produce.yaml:2: Acks: 40000 does not fit int16"},
		{"string for int", "request:\n  TimeoutMs: \"30000\"\n", `kafka: Produce.yaml:2: TimeoutMs: want an integer (int32), have "30000"`},
		{"int for string", "request:\n  TransactionalId: 12\n", `kafka: Produce.yaml:2: TransactionalId: want a string, have "12" (quote it)`},
		{"null not allowed", "request:\n  TopicData:\n    - Name: null\n", "kafka: Produce.yaml:3: TopicData[0].Name: null for a field that is not nullable in version 12"},
		{"list for struct list", "request:\n  TopicData: orders\n", "kafka: Produce.yaml:2: TopicData: want a list, have a scalar"},
		{"map for element", "request:\n  TopicData:\n    - orders\n", "kafka: Produce.yaml:3: TopicData[0]: want a map of fields, have a scalar"},
		{"records", "request:\n  TopicData:\n    - PartitionData:\n        - Records: x\n",
			"kafka: Produce.yaml:4: TopicData[0].PartitionData[0].Records: records cannot be set in YAML (the example batch is generated)"},
		{"top key", "requests:\n  Acks: 1\n", `kafka: Produce.yaml:1: unknown key "requests" (want request or response)`},
		{"not a map", "- 1\n", "kafka: Produce.yaml:1: want a map with keys request and response"},
		{"bad yaml", "request: [\n", "kafka: Produce.yaml:1: did not find expected node content"},
		{"duplicate field", "request:\n  TimeoutMs: 30000\n  Acks: 1\n  TimeoutMs: 1\n", "kafka: Produce.yaml:4: TimeoutMs: key given twice (first on line 2)"},
		{"duplicate nested field", "request:\n  TopicData:\n    - Name: a\n      Name: b\n", "kafka: Produce.yaml:4: TopicData[0].Name: key given twice (first on line 3)"},
		{"duplicate side", "request:\n  Acks: 1\nrequest:\n  Acks: 0\n", "kafka: Produce.yaml:3: request: key given twice (first on line 1)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := strings.HasPrefix(tt.yaml, "response")
			_, _, err := Example(produce, resp, produce.Version, "Produce.yaml", []byte(tt.yaml))
			if err == nil || err.Error() != tt.want {
				t.Errorf("got  %v\nwant %s", err, tt.want)
			}
		})
	}
}

func unknownIn40(msg string) string {
	return "unknown field (no version of " + msg + " has it, in Kafka 4.0 or in the releases kafkagrid knows: " +
		loadKnownFields().releases + ")"
}

// TestExampleYAMLSkipped: an override for a field this version or this release lacks is left
// out of the frame and reported; its value is still checked against the field's type.
func TestExampleYAMLSkipped(t *testing.T) {
	c40 := testCatalog(t, "4.0")
	fetch, _ := c40.Lookup("Fetch")
	c24 := testCatalog(t, "2.4")
	join24, _ := c24.Lookup("JoinGroup")
	produce24, _ := c24.Lookup("Produce")
	for _, tc := range []struct {
		name string
		api  *API
		resp bool
		yaml string
		skip string // Skip.String(), or "" for none
		err  string
	}{
		{"absent at this version", fetch, false, "request:\n  ReplicaId: 1\n",
			"Fetch.yaml:2: ReplicaId: skipped: not in FetchRequest v17 (versions 0-14)", ""},
		{"absent at this version, wrong type", fetch, false, "request:\n  ReplicaId: one\n",
			"", `kafka: Fetch.yaml:2: ReplicaId: want an integer (int32), have "one"`},
		{"absent in this release", join24, false, "request:\n  Reason: rebalance\n",
			"JoinGroup.yaml:2: Reason: skipped: not in Kafka 2.4's JoinGroupRequest", ""},
		{"absent in this release, null", join24, false, "request:\n  Reason: null\n",
			"JoinGroup.yaml:2: Reason: skipped: not in Kafka 2.4's JoinGroupRequest", ""},
		{"absent in this release, wrong type", join24, false, "request:\n  Reason: [1]\n",
			"", "kafka: JoinGroup.yaml:2: Reason: want a scalar, have a list"},
		{"struct absent in this release", produce24, true,
			"response:\n  Responses:\n    - PartitionResponses:\n        - Index: 0\n          BaseOffset: 42\n",
			"Produce.yaml:3: Responses[0].PartitionResponses: skipped: not in Kafka 2.4's ProduceResponse", ""},
		{"struct absent in this release, typo inside", produce24, true,
			"response:\n  Responses:\n    - PartitionResponses:\n        - Indx: 0\n",
			"", "kafka: Produce.yaml:4: Responses[0].PartitionResponses[0].Indx: unknown field (no version of ProduceResponse has it, in Kafka 2.4 or in the releases kafkagrid knows: " + loadKnownFields().releases + ")"},
		{"struct absent in this release, wrong type inside", produce24, true,
			"response:\n  Responses:\n    - PartitionResponses:\n        - BaseOffset: soon\n",
			"", `kafka: Produce.yaml:4: Responses[0].PartitionResponses[0].BaseOffset: want an integer (int64), have "soon"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			side := "Fetch.yaml"
			if tc.api != fetch {
				side = tc.api.Name + ".yaml"
			}
			_, skips, err := Example(tc.api, tc.resp, tc.api.Version, side, []byte(tc.yaml))
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Errorf("got  %v\nwant %s", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(skips) != 1 || skips[0].String() != tc.skip {
				t.Errorf("skips %v, want %s", skips, tc.skip)
			}
		})
	}
}

// TestExampleYAMLTagged checks that an override setting a tagged field writes it, and that a
// tagged field set to its default is not written.
func TestExampleYAMLTagged(t *testing.T) {
	c := testCatalog(t, "4.0")
	api, _ := c.Lookup("FetchSnapshot")
	enc := func(y string) *Frame {
		body, _, err := Example(api, false, api.Version, "FetchSnapshot.yaml", []byte(y))
		if err != nil {
			t.Fatal(err)
		}
		f, err := c.Encode(Message{API: api, Version: api.Version, Body: body})
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	plain := enc("request:\n  ReplicaId: 2\n")
	tagged := enc("request:\n  ReplicaId: 2\n  ClusterId: abc\n")
	def := enc("request:\n  ReplicaId: 2\n  ClusterId: null\n")
	if !bytes.Equal(plain.Bytes, def.Bytes) {
		t.Error("a tagged field at its default was written")
	}
	// count 1, tag 0, size 4, compact string "abc": 7 bytes instead of the 00.
	if len(tagged.Bytes) != len(plain.Bytes)+6 || !bytes.HasSuffix(tagged.Bytes, []byte{1, 0, 4, 4, 'a', 'b', 'c'}) {
		t.Errorf("tagged ClusterId: % x", tagged.Bytes[len(tagged.Bytes)-8:])
	}
	if n := tagged.Root.Find("ClusterId"); n == nil || n.Value != `"abc"` {
		t.Errorf("ClusterId node %+v", n)
	}
	if n := tagged.Root.Find("ClusterId#tag"); n == nil || n.Kind != KindTagKey || n.Value != "0 → ClusterId" {
		t.Errorf("ClusterId#tag node %+v", n)
	}
}

// TestExampleFiles checks that every override file names an API: of a release here (the
// newest that has the name gives its key), or, for a folder of releases that are all older than
// the API, of a release kafkagrid knows (knownfields.txt); that the file is read for that
// API's key in every release here that has the key (whatever the API is called there), and
// not required in a release without it; and that the built-in examples are the examples/kafka
// folder.
func TestExampleFiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "examples", "kafka", "*.yaml"))
	if err != nil || len(files) < 6 {
		t.Fatalf("%d example files: %v", len(files), err)
	}
	rels := testReleases(t)
	known := sync.OnceValue(loadKnownFields)
	checked := 0
	for _, file := range files {
		if filepath.Base(file) == StoryFile {
			continue
		}
		name := strings.TrimSuffix(filepath.Base(file), ".yaml")
		disk, _ := os.ReadFile(file)
		built, err := fs.ReadFile(builtinExamples(), filepath.Base(file))
		if err != nil || !bytes.Equal(built, disk) {
			t.Errorf("%s is not built in as it is on disk (%v)", file, err)
		}
		key, from, ok := int16(0), "", false
		for i := len(rels) - 1; i >= 0 && !ok; i-- {
			if api, found := testCatalog(t, rels[i]).Lookup(name); found {
				key, from, ok = api.Key, rels[i], true
			}
		}
		if !ok {
			if k, found := knownKey(known(), name); found {
				t.Logf("%s: no release here has %s (API %d; Kafka %s have it)", file, name, k, strings.Join(known().inRels[k], ", "))
			} else {
				t.Errorf("%s: %s is not an API of any release here (%s), nor of a release kafkagrid knows", file, name, strings.Join(rels, ", "))
			}
			continue
		}
		for _, rel := range rels {
			a, ok := testCatalog(t, rel).Lookup(strconv.Itoa(int(key)))
			if !ok {
				t.Logf("%s: Kafka %s has no API %d", file, rel, key)
				continue
			}
			checked++
			if got, _, err := exampleFile(builtinExamples(), a, known); err != nil || got != filepath.Base(file) {
				t.Errorf("Kafka %s's %s (API %d of Kafka %s's %s) reads %q (%v), want %s", rel, a.Name, key, from, name, got, err, filepath.Base(file))
			}
		}
	}
	if checked == 0 {
		t.Errorf("no example file is the override of an API of a release here (%s)", strings.Join(rels, ", "))
	}
}

// knownKey returns the key of the API that has had the name in a release kafkagrid knows.
func knownKey(k *knownFields, name string) (int16, bool) {
	for key, names := range k.names {
		if slices.Contains(names, name) {
			return key, true
		}
	}
	return 0, false
}

func TestVectorsCustomExamples(t *testing.T) {
	c := testCatalog(t, "4.0")
	fsys := fstest.MapFS{"Heartbeat.yaml": {Data: []byte("request:\n  GenerationId: 99\n")}}
	vs, err := c.Vectors(VectorOptions{Examples: fsys})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		if v.API.Name == "Heartbeat" {
			if got := v.Request.Body["GenerationId"]; got != int64(99) {
				t.Errorf("GenerationId %v", got)
			}
		}
	}
	fsys["Produce.yaml"] = &fstest.MapFile{Data: []byte("request:\n  Nope: 1\n")}
	if _, err := c.Vectors(VectorOptions{Examples: fsys}); err == nil || !strings.Contains(err.Error(), "Produce.yaml:2: Nope: unknown field") {
		t.Errorf("error %v", err)
	}
}

func TestFrameJSON(t *testing.T) {
	vs := testVectors(t, "4.0")
	f := vs[0].Request
	a, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(testVectors(t, "4.0")[0].Request)
	if !bytes.Equal(a, b) {
		t.Error("JSON differs between two runs")
	}
	var got struct {
		API     string `json:"api"`
		Version int    `json:"version"`
		Size    int    `json:"size"`
		Root    struct {
			Kind     string `json:"kind"`
			Children []struct {
				Kind   string `json:"kind"`
				Path   string `json:"path"`
				Offset int    `json:"offset"`
				Length int    `json:"length"`
				Type   string `json:"type"`
				Value  string `json:"value"`
			} `json:"children"`
		} `json:"root"`
	}
	if err := json.Unmarshal(a, &got); err != nil {
		t.Fatal(err)
	}
	size := got.Root.Children[0]
	if got.API != "Produce" || got.Version != 12 || got.Size != len(f.Bytes) || got.Root.Kind != "frame" ||
		size.Kind != "size" || size.Path != "#size" || size.Length != 4 || size.Type != "int32" {
		t.Errorf("JSON: %s", a[:200])
	}
	for _, key := range []string{`"offset"`, `"length"`, `"path"`, `"type"`, `"value"`, `"children"`} {
		if !bytes.Contains(a, []byte(key)) {
			t.Errorf("JSON lacks %s", key)
		}
	}
}

// TestExampleYAMLErrorsHaveLines: every YAML error of an override file names its line, also
// those yaml.v3 gives without one.
func TestExampleYAMLErrorsHaveLines(t *testing.T) {
	c := testCatalog(t, "4.0")
	produce, _ := c.Lookup("Produce")
	for _, tc := range []struct{ yaml, want string }{
		{"request:\n  Acks: 1\n  TransactionalId: \xff\n", "kafka: Produce.yaml:3: invalid leading UTF-8 octet"},
		{"request:\n  TransactionalId: \"a\x01\"\n", "kafka: Produce.yaml:2: control characters are not allowed"},
		{"request:\n  Acks: 1\n  TimeoutMs: *t\n", "kafka: Produce.yaml:3: unknown anchor 't' referenced"},
		{"request:\n  TransactionalId: \"a\\qb\"\n", "kafka: Produce.yaml:2: found unknown escape character"},
		{"request:\n  Acks: a: b\n", "kafka: Produce.yaml:2: mapping values are not allowed in this context"},
	} {
		_, _, err := Example(produce, false, produce.Version, "Produce.yaml", []byte(tc.yaml))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q: got %v, want %s", tc.yaml, err, tc.want)
		}
	}
}

// TestVectorsOfSomeAPIs: VectorOptions.APIs builds those APIs' examples only, each frame
// byte-identical to the whole catalogue's (what one drawing of one API builds).
func TestVectorsOfSomeAPIs(t *testing.T) {
	cat := testCatalog(t, "4.0")
	all, err := cat.Vectors(VectorOptions{Versions: AllVersions()})
	if err != nil {
		t.Fatal(err)
	}
	produce, _ := cat.Lookup("Produce")
	envelope, _ := cat.Lookup("Envelope") // its example forwards CreateTopics, not built here
	some, err := cat.Vectors(VectorOptions{Versions: AllVersions(), APIs: []*API{produce, envelope}})
	if err != nil {
		t.Fatal(err)
	}
	var want []Vector
	for _, v := range all {
		if v.API == produce || v.API == envelope {
			want = append(want, v)
		}
	}
	if len(some) != len(want) || len(some) == 0 {
		t.Fatalf("%d vectors of Produce and Envelope, want %d", len(some), len(want))
	}
	for i := range some {
		if !bytes.Equal(some[i].Request.Bytes, want[i].Request.Bytes) || !bytes.Equal(some[i].Response.Bytes, want[i].Response.Bytes) {
			t.Errorf("%s: not the bytes the whole catalogue's vectors have", some[i].Request.BaseName())
		}
	}
}
