package main

import (
	"encoding/json"
	"encoding/xml"
	"path/filepath"
	"strings"
	"testing"
)

func TestShow(t *testing.T) {
	dir := filepath.Join(listSchemaRoot(t), "4.0")
	tests := []struct {
		name string
		args []string
		want []string // substrings of stdout
	}{
		{"text", []string{"Produce"}, []string{"Produce v12 request", "Byte grid", "+-+-+", "RequestApiKey", "Expanded tree", "TopicData"}},
		{"flags after name", []string{"Produce", "-response"}, []string{"Produce v12 response", "ThrottleTimeMs"}},
		{"by key", []string{"-response", "18"}, []string{"ApiVersions v4 response", "ApiKeys"}},
		{"svg grid", []string{"-format", "svg", "Fetch"}, []string{`<svg`, `class="kg kg-grid`, `data-path="header.CorrelationId"`}},
		{"svg tree", []string{"-format", "svg", "-tree", "Fetch", "-response"}, []string{`<svg`, `kg-tree`, "Responses"}},
		{"json", []string{"-format", "json", "Metadata"}, []string{`"api": "Metadata"`, `"root"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := runCmd(t, append([]string{"show", "-schemas", dir}, tt.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(stdout, w) {
					t.Errorf("output lacks %q", w)
				}
			}
			switch {
			case strings.HasPrefix(tt.name, "svg"):
				if err := xml.Unmarshal([]byte(stdout), new(struct{})); err != nil {
					t.Errorf("not XML: %v", err)
				}
			case tt.name == "json":
				var v map[string]any
				if err := json.Unmarshal([]byte(stdout), &v); err != nil {
					t.Errorf("not JSON: %v", err)
				}
			}
		})
	}
}

func TestShowErrors(t *testing.T) {
	dir := filepath.Join(listSchemaRoot(t), "4.0")
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{}, 2, "want one API"},
		{[]string{"Produce", "Fetch"}, 2, "want one API"},
		{[]string{"-format", "pdf", "Produce"}, 2, "want txt, svg or json"},
		{[]string{"-tree", "Produce"}, 2, "-tree goes with -format svg"},
		{[]string{"NoSuchApi"}, 2, `no API "NoSuchApi" in Kafka 4.0 (kafkagrid list shows them)`},
		{[]string{"Produc"}, 2, `no API "Produc" in Kafka 4.0; did you mean Produce?`},
		{[]string{"LeaderAndIsr"}, 2, `API key 4 (LeaderAndIsr) is in Kafka 2.2, 2.4, 2.8, 3.0, 3.3, 3.6, 3.9: try -release 3.9`},
	}
	for _, tt := range tests {
		_, stderr, code := runCmd(t, append([]string{"show", "-schemas", dir}, tt.args...)...)
		if code != tt.code || !strings.Contains(stderr, tt.want) {
			t.Errorf("show %v: exit %d, %q; want %d and %q", tt.args, code, stderr, tt.code, tt.want)
		}
	}
}
