package reference

import (
	"bytes"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/schemas"
)

func TestErrorNamesIn(t *testing.T) {
	for _, c := range []struct {
		src  string
		want []string
	}{
		{`"about": "The error code, or 0 if there was no error."`, nil},
		{`// UNKNOWN_TOPIC_OR_PARTITION if the topic does not exist; NOT_LEADER_OR_FOLLOWER, or UNKNOWN_TOPIC_OR_PARTITION again`, []string{"UNKNOWN_TOPIC_OR_PARTITION", "NOT_LEADER_OR_FOLLOWER"}},
		{`"name": "ErrorCode", "type": "int16"`, nil},
		{`(INVALID_REQUEST)`, []string{"INVALID_REQUEST"}},
		{`NONE`, nil},
	} {
		if got := errorNamesIn([]byte(c.src)); !slices.Equal(got, c.want) {
			t.Errorf("errorNamesIn(%q) = %q, want %q", c.src, got, c.want)
		}
	}
}

// TestErrorCodeRows: every code from -1 on, kerr's descriptions, and the APIs whose response
// schema names a code, by key, each once.
func TestErrorCodeRows(t *testing.T) {
	resp := func(raw string) *schemas.Spec { return &schemas.Spec{Raw: []byte(raw)} }
	apis := []*kafka.API{
		{Key: 3, Name: "Metadata", Response: resp(`// UNKNOWN_TOPIC_OR_PARTITION, UNKNOWN_TOPIC_OR_PARTITION`)},
		{Key: 1, Name: "Fetch", Response: resp(`// OFFSET_OUT_OF_RANGE or UNKNOWN_TOPIC_OR_PARTITION; NONE`)},
	}
	rows := errorCodeRows(apis, func(a *kafka.API) string { return a.Name + ".html" })
	if len(rows) != len(kafka.ErrorCodes()) || rows[0].Code != -1 || rows[1].Code != 0 {
		t.Fatalf("%d rows from %d, want every code from -1", len(rows), rows[0].Code)
	}
	for _, r := range rows {
		if r.Description == "" {
			t.Errorf("code %d %s: no description", r.Code, r.Name)
		}
		var names []string
		for _, a := range r.APIs {
			names = append(names, a.Name)
		}
		want := map[string][]string{"UNKNOWN_TOPIC_OR_PARTITION": {"Fetch", "Metadata"}, "OFFSET_OUT_OF_RANGE": {"Fetch"}}[r.Name]
		if !slices.Equal(names, want) {
			t.Errorf("%s named in %v, want %v", r.Name, names, want)
		}
	}
	if r := rows[3+1]; r.Name != "UNKNOWN_TOPIC_OR_PARTITION" || !r.Retriable {
		t.Errorf("code 3: %+v", r)
	}
	by := errorsByAPI(rows)
	if len(by) != 2 || by[0].API.Name != "Fetch" || len(by[0].Codes) != 2 || by[1].API.Name != "Metadata" || len(by[1].Codes) != 1 {
		t.Errorf("errorsByAPI = %+v", by)
	}
}

// FuzzErrorNamesIn: any text scans in one pass to distinct upper-case words of src, each with
// an underscore.
func FuzzErrorNamesIn(f *testing.F) {
	f.Add([]byte(`// UNKNOWN_TOPIC_OR_PARTITION if the topic does not exist; NOT_LEADER_OR_FOLLOWER`))
	f.Add([]byte(`{ "name": "ErrorCode", "type": "int16", "versions": "0+", "about": "The error code, or 0 (NONE)." }`))
	f.Add([]byte("A_\x00_B aB_C _ __"))
	f.Fuzz(func(t *testing.T, src []byte) {
		seen := map[string]bool{}
		for _, w := range errorNamesIn(src) {
			if seen[w] || !strings.Contains(w, "_") || !bytes.Contains(src, []byte(w)) {
				t.Fatalf("errorNamesIn(%q) gave %q", src, w)
			}
			seen[w] = true
		}
	})
}

// TestKafkaErrorLists: every name the lists of Kafka's response classes give is an error code
// Kafka defines, every list belongs to an API of a release read, and a code a
// schema does not name is shown as listed, once, with the class it comes from (Produce's
// UNKNOWN_TOPIC_OR_PARTITION, which its own edge case returns and its schema never names).
func TestKafkaErrorLists(t *testing.T) {
	known := map[string]bool{}
	for _, c := range kafka.ErrorCodes() {
		known[c.Name] = true
	}
	cats := catalogs(t)
	lists := maps.Clone(kafkaErrorLists)
	for api, l := range kafkaCodeErrorLists {
		if _, ok := lists[api]; ok || l.From == "" {
			t.Errorf("kafkaCodeErrorLists: %s has its response class's list too, or no source (%q)", api, l.From)
		}
		lists[api] = l.Codes
	}
	for api, names := range kmsgErrorLists {
		if _, ok := lists[api]; ok {
			t.Errorf("kmsgErrorLists: %s has Kafka's own list too", api)
		}
		lists[api] = names
	}
	for api, names := range lists {
		if !slices.ContainsFunc(cats, func(c *kafka.Catalog) bool { _, ok := c.Lookup(api); return ok }) {
			t.Errorf("kafkaErrorLists: %s is no API of any release read", api)
		}
		if len(names) == 0 {
			t.Errorf("kafkaErrorLists: %s lists nothing", api)
		}
		for _, n := range names {
			if !known[n] {
				t.Errorf("kafkaErrorLists: %s lists %s, no error code", api, n)
			}
		}
	}
	resp := func(raw string) *schemas.Spec { return &schemas.Spec{Raw: []byte(raw)} }
	apis := []*kafka.API{{Key: 0, Name: "Produce", Response: resp(`// NOT_LEADER_OR_FOLLOWER, CORRUPT_MESSAGE`)}}
	rows := errorCodeRows(apis, func(a *kafka.API) string { return a.Name + ".html" })
	for _, r := range rows {
		switch r.Name {
		case "CORRUPT_MESSAGE", "NOT_LEADER_OR_FOLLOWER": // named by the schema: not listed again
			if len(r.APIs) != 1 || len(r.Listed) != 0 {
				t.Errorf("%s: named in %v, listed in %v", r.Name, r.APIs, r.Listed)
			}
		case "UNKNOWN_TOPIC_OR_PARTITION":
			if len(r.APIs) != 0 || len(r.Listed) != 1 || r.Listed[0].Name != "Produce" {
				t.Errorf("%s: named in %v, listed in %v", r.Name, r.APIs, r.Listed)
			}
		}
	}
	by := errorsByAPI(rows)
	if len(by) != 1 || len(by[0].Codes) != 2 || len(by[0].Listed) != len(kafkaErrorLists["Produce"])-2 || by[0].Class != "Kafka's ProduceResponse.java" {
		t.Errorf("errorsByAPI = %+v", by)
	}
}

// TestListSource: the book marks each API's listed codes by where the list comes from: K for
// Kafka's code (a response class, Admin.java, a handler), F for franz-go's kmsg docs alone.
func TestListSource(t *testing.T) {
	for api := range kmsgErrorLists {
		_, inClass := kafkaErrorLists[api]
		_, inCode := kafkaCodeErrorLists[api]
		want := " (F)"
		if inClass || inCode {
			want = " (K)"
		}
		if got := listSource(api); got != want {
			t.Errorf("listSource(%q) = %q, want %q", api, got, want)
		}
	}
	for api := range kafkaErrorLists {
		if got := listSource(api); got != " (K)" {
			t.Errorf("listSource(%q) = %q, want (K)", api, got)
		}
	}
}
