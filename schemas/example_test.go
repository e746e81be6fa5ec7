package schemas_test

import (
	"fmt"

	"github.com/kafkagrid/kafkagrid/schemas"
)

func ExampleParse() {
	src := `// A cut-down FetchSnapshot-like request.
{
  "apiKey": 59, "type": "request", "name": "SnapRequest",
  "validVersions": "0-1", "flexibleVersions": "0+",
  "fields": [
    { "name": "ClusterId", "type": "string", "versions": "0+", "nullableVersions": "0+",
      "default": "null", "taggedVersions": "0+", "tag": 0, "about": "The cluster ID." },
    { "name": "Topics", "type": "[]TopicSnapshot", "versions": "0+", "fields": [
      { "name": "Name", "type": "string", "versions": "0+", "about": "The topic name." },
      { "name": "Snapshot", "type": "SnapshotId", "versions": "1+", "about": "The snapshot." }
    ]}
  ],
  "commonStructs": [
    { "name": "SnapshotId", "versions": "0+", "fields": [
      { "name": "EndOffset", "type": "int64", "versions": "0+" },
      { "name": "Epoch", "type": "int32", "versions": "0+" }
    ]}
  ]
}`
	s, err := schemas.Parse("SnapRequest.json", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ := s.Highest()
	fmt.Println(s.Name, "key", s.APIKey, "versions", s.ValidVersions, "flexible in v1:", s.FlexibleIn(v))
	s.Walk(func(f *schemas.Field) bool {
		fmt.Printf("%-22s %-16s present v0:%-5v tagged v1:%v\n", f.Path, f.Type, f.PresentIn(0), f.TaggedIn(1))
		return true
	})

	_, err = schemas.Parse("Bad.json", []byte(`{"name": "Bad", "type": "data",
  "fields": [{ "name": "Count", "type": "int33", "versions": "0+" }]}`))
	fmt.Println(err)
	// Output:
	// SnapRequest key 59 versions 0-1 flexible in v1: true
	// ClusterId              string           present v0:true  tagged v1:true
	// Topics                 []TopicSnapshot  present v0:true  tagged v1:false
	// Topics[].Name          string           present v0:true  tagged v1:false
	// Topics[].Snapshot      SnapshotId       present v0:false tagged v1:false
	// SnapshotId.EndOffset   int64            present v0:true  tagged v1:false
	// SnapshotId.Epoch       int32            present v0:true  tagged v1:false
	// Bad.json:2:41: Count: unknown type "int33"
}

func ExampleParseVersions() {
	for _, s := range []string{"0-9", "3+", "none", "7", "9-3"} {
		r, err := schemas.ParseVersions(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		hi, ok := r.Highest()
		fmt.Printf("%-4s contains 5: %-5v highest: %d %v\n", r, r.Contains(5), hi, ok)
	}
	r, _ := schemas.ParseVersions("0-9")
	o, _ := schemas.ParseVersions("3+")
	fmt.Println("0-9 ∩ 3+ =", r.Intersect(o))
	// Output:
	// 0-9  contains 5: true  highest: 9 true
	// 3+   contains 5: true  highest: 32767 true
	// none contains 5: false highest: 0 false
	// 7    contains 5: false highest: 7 true
	// schemas: bad version range "9-3": upper bound below lower bound
	// 0-9 ∩ 3+ = 3-9
}

func ExampleKnownReleasesWith() {
	// Where to find Produce (API key 0) v1, which Kafka 4.0 removed, and v13, which 4.1 added.
	fmt.Println(schemas.KnownReleasesWith(0, 1))
	fmt.Println(schemas.KnownReleasesWith(0, 13))
	// Output:
	// [2.2 2.4 2.8 3.0 3.3 3.6 3.9]
	// [4.1]
}

func ExampleRelease_SetName() {
	s, err := schemas.Parse("HelloRequest.json", []byte(`{"apiKey": 99, "type": "request", "name": "HelloRequest",
  "validVersions": "0", "flexibleVersions": "none", "fields": []}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := schemas.NewRelease("work/message", []*schemas.Spec{s})
	if err != nil {
		fmt.Println(err)
		return
	}
	// No known release has exactly these APIs and versions, so the name is the folder's,
	// until one is given (kafkagrid's -name).
	fmt.Printf("known as %q, named %q\n", r.KnownRelease(), r.Name())
	r.SetName("hello-1")
	fmt.Println(r.Name())
	// Output:
	// known as "", named "message"
	// hello-1
}

// ScanHeader reads a spec's top level without parsing its fields.
func ExampleScanHeader() {
	h, ok := schemas.ScanHeader([]byte(`// a comment
{ "apiKey": 0, "type": "request", "name": "ProduceRequest", "validVersions": "3-12",
  "fields": [ { "name": "Acks", "type": "int16", "versions": "0+" } ] }`))
	fmt.Println(ok, h.Name, h.Type, h.APIKey, h.ValidVersions)
	// Output:
	// true ProduceRequest request 0 3-12
}
