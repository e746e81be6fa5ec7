package kafka

import (
	"encoding/hex"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/kafkagrid/kafkagrid/schemas"
)

// jacksonRelease is a small release written as Kafka 2.2 wrote its schemas: no
// flexibleVersions, a RequestHeader valid at version 0 only with ClientId "0+", and field
// names in lower camel case.
func jacksonRelease(t *testing.T) *Catalog {
	t.Helper()
	files := map[string]string{
		"RequestHeader.json": `{"type": "header", "name": "RequestHeader", "validVersions": "0", "fields": [
			{"name": "RequestApiKey", "type": "int16", "versions": "0+"},
			{"name": "RequestApiVersion", "type": "int16", "versions": "0+"},
			{"name": "CorrelationId", "type": "int32", "versions": "0+"},
			{"name": "ClientId", "type": "string", "versions": "0+"}]}`,
		"ResponseHeader.json": `{"type": "header", "name": "ResponseHeader", "validVersions": "0", "fields": [
			{"name": "CorrelationId", "type": "int32", "versions": "0+"}]}`,
		"ControlledShutdownRequest.json": `{"apiKey": 7, "type": "request", "name": "ControlledShutdownRequest", "validVersions": "0-1", "fields": [
			{"name": "brokerId", "type": "int32", "versions": "0+", "entityType": "brokerId"}]}`,
		"ControlledShutdownResponse.json": `{"apiKey": 7, "type": "response", "name": "ControlledShutdownResponse", "validVersions": "0-1", "fields": [
			{"name": "errorCode", "type": "int16", "versions": "0+"}]}`,
		"DeleteTopicsRequest.json": `{"apiKey": 20, "type": "request", "name": "DeleteTopicsRequest", "validVersions": "0-3", "fields": [
			{"name": "topicNames", "type": "[]string", "versions": "0+", "entityType": "topicName"},
			{"name": "timeoutMs", "type": "int32", "versions": "0+"}]}`,
		"DeleteTopicsResponse.json": `{"apiKey": 20, "type": "response", "name": "DeleteTopicsResponse", "validVersions": "0-3", "fields": [
			{"name": "throttleTimeMs", "type": "int32", "versions": "1+"},
			{"name": "Responses", "type": "[]DeletableTopicResult", "versions": "0+", "fields": [
				{"name": "name", "type": "string", "versions": "0+", "entityType": "topicName"},
				{"name": "errorCode", "type": "int16", "versions": "0+"}]}]}`,
	}
	return catalogOf(t, "2.2-style", files)
}

// catalogOf is the catalogue of a release made of the given schema files.
func catalogOf(t *testing.T, release string, files map[string]string) *Catalog {
	t.Helper()
	var specs []*schemas.Spec
	for name, text := range files {
		s, err := schemas.Parse(name, []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		specs = append(specs, s)
	}
	r, err := schemas.NewRelease(release, specs)
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCatalog(r)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestJacksonEraNames: a field's name is matched whatever the case of its first letter, as
// Kafka's generator matches it, so the example rules that follow names apply to 2.2's
// throttleTimeMs (an int32: before, the name's timestamp rule made it 1767225600000).
func TestJacksonEraNames(t *testing.T) {
	c := jacksonRelease(t)
	vecs, err := c.Vectors(VectorOptions{Versions: AllVersions()})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, v := range vecs {
		got[v.Request.BaseName()] = hex.EncodeToString(v.Request.Bytes)
		got[v.Response.BaseName()] = hex.EncodeToString(v.Response.Bytes)
	}
	for _, tc := range []struct{ name, want string }{
		// size, correlation id 7, throttle time 0, one topic (the story deletes "shipments")
		// with error 0.
		{"20-DeleteTopics-v3-response", "00000019" + "00000007" + "00000000" + "00000001" + "0009736869706d656e7473" + "0000"},
		// header v0: key 7, version 0, correlation id 7, no client id; broker id 1.
		{"7-ControlledShutdown-v0-request", "0000000c" + "0007" + "0000" + "00000007" + "00000001"},
		// header v1: the client id follows the correlation id.
		{"7-ControlledShutdown-v1-request", "00000017" + "0007" + "0001" + "00000007" + "00096b61666b6167726964" + "00000001"},
	} {
		if got[tc.name] != tc.want {
			t.Errorf("%s:\n got  %s\n want %s", tc.name, got[tc.name], tc.want)
		}
	}
	// The names are Kafka's generator's: the first letter upper case.
	a, _ := c.Lookup("DeleteTopics")
	if n := a.Response.Fields[0].Name; n != "ThrottleTimeMs" {
		t.Errorf("field name %q, want ThrottleTimeMs", n)
	}
	// A decoded ControlledShutdown v0 request reads its header v0.
	f, err := c.Decode(mustHex(t, got["7-ControlledShutdown-v0-request"]), DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if f.HeaderVersion != 0 || f.Header["ClientId"] != nil {
		t.Errorf("decoded header v%d %v, want v0 without a client id", f.HeaderVersion, f.Header)
	}
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestMisfits: a value a name's rule chooses that the field's type cannot hold (the timestamp
// rule on an int32 of a made-up API) gives way to the field's own value and is reported with
// the API, version, path and the override that sets it; that override, written, replaces it.
func TestMisfits(t *testing.T) {
	files := map[string]string{
		"RequestHeader.json": `{"type": "header", "name": "RequestHeader", "validVersions": "0-1", "fields": [
			{"name": "RequestApiKey", "type": "int16", "versions": "0+"},
			{"name": "RequestApiVersion", "type": "int16", "versions": "0+"},
			{"name": "CorrelationId", "type": "int32", "versions": "0+"},
			{"name": "ClientId", "type": "string", "versions": "1+"}]}`,
		"ResponseHeader.json": `{"type": "header", "name": "ResponseHeader", "validVersions": "0", "fields": [
			{"name": "CorrelationId", "type": "int32", "versions": "0+"}]}`,
		"DeleteTopicsRequest.json": `{"apiKey": 20, "type": "request", "name": "DeleteTopicsRequest", "validVersions": "0-1", "fields": [
			{"name": "topicNames", "type": "[]string", "versions": "0+", "entityType": "topicName"},
			{"name": "timeoutMs", "type": "int32", "versions": "0+"}]}`,
		"DeleteTopicsResponse.json": `{"apiKey": 20, "type": "response", "name": "DeleteTopicsResponse", "validVersions": "0-1", "fields": [
			{"name": "Responses", "type": "[]DeletableTopicResult", "versions": "0+", "fields": [
				{"name": "name", "type": "string", "versions": "0+", "entityType": "topicName"},
				{"name": "deletedTimestamp", "type": "int32", "versions": "1+"}]}]}`,
	}
	c := catalogOf(t, "misfit", files)
	vecs, err := c.Vectors(VectorOptions{Versions: AllVersions()})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range vecs {
		for _, m := range v.Misfits {
			got = append(got, m.String())
		}
		if v.Response.Version == 1 {
			if x := v.Response.Body["Responses"].([]any)[0].(Values)["DeletedTimestamp"]; x != int64(0) {
				t.Errorf("DeletedTimestamp = %v, want the type's own 0", x)
			}
		}
	}
	want := "DeleteTopics v1 response: Responses[0].DeletedTimestamp: the value its name suggests, 1767225600000, does not fit int32; " +
		"0 written instead (to choose one, write in DeleteTopics.yaml: response: {Responses: [{DeletedTimestamp: 0}]})"
	if len(got) != 1 || got[0] != want {
		t.Errorf("misfits:\n got  %q\n want %q", got, want)
	}
	// The override the note names, written in the file it names, sets the field: no misfit.
	m := vecs[0].Misfits
	for _, v := range vecs {
		if len(v.Misfits) > 0 {
			m = v.Misfits
		}
	}
	override := strings.Replace(m[0].Override, ": 0}", ": 1767225}", 1)
	fsys := fstest.MapFS{m[0].File: {Data: []byte(override + "\n")}}
	vecs, err = c.Vectors(VectorOptions{Versions: AllVersions(), Examples: fsys})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vecs {
		if len(v.Misfits) > 0 {
			t.Errorf("with the override: %v", v.Misfits)
		}
		if v.Response.Version == 1 {
			if x := v.Response.Body["Responses"].([]any)[0].(Values)["DeletedTimestamp"]; x != int64(1767225) {
				t.Errorf("with the override: DeletedTimestamp = %v", x)
			}
		}
	}
}

// TestExampleError: an example frame that does not encode names the message, the field, the
// problem, and the override that sets the field.
func TestExampleError(t *testing.T) {
	err := exampleError(&Error{Message: "DeleteTopics v3 response", Path: "Responses[0].Name#length", Offset: 12, Err: errShort}, "DeleteTopics.yaml", true)
	want := "kafka: DeleteTopics v3 response: Responses[0].Name#length: offset 12: " + errShort.Error() +
		" (the value comes from DeleteTopics.yaml or, for a field that file does not set, from the generator; set it in DeleteTopics.yaml, e.g. response: {Responses: [{Name: …}]})"
	if err.Error() != want {
		t.Errorf("got  %s\nwant %s", err, want)
	}
	// The header is not the examples': no override named.
	e := &Error{Message: "DeleteTopics v3 request", Path: "header.ClientId", Err: errShort}
	if got := exampleError(e, "DeleteTopics.yaml", false); got != error(e) {
		t.Errorf("header: %v", got)
	}
	for _, tc := range []struct{ path, want string }{
		{"ThrottleTimeMs", "request: {ThrottleTimeMs: 5}"},
		{"Topics[1].Partitions[0].Index", "request: {Topics: [{}, {Partitions: [{Index: 5}]}]}"},
		{"Replicas[2]", "request: {Replicas: [5, 5, 5]}"},
	} {
		if got := overrideYAML(false, tc.path, "5"); got != tc.want {
			t.Errorf("overrideYAML(%s) = %s, want %s", tc.path, got, tc.want)
		}
	}
}
