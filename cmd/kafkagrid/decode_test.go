package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
)

// decodeVectors writes the 4.0 Produce and ApiVersions frames to a temp dir.
func decodeVectors(t *testing.T) (dir, schemas string, files map[string]string) {
	t.Helper()
	schemas = testenv.Release(t, "4.0")
	c, err := kafka.LoadCatalog(schemas)
	if err != nil {
		t.Fatal(err)
	}
	vs, err := c.Vectors(kafka.VectorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	files = map[string]string{}
	for _, v := range vs {
		if v.API.Name != "Produce" && v.API.Name != "ApiVersions" {
			continue
		}
		for _, f := range []*kafka.Frame{v.Request, v.Response} {
			p := filepath.Join(dir, f.BaseName()+".bin")
			if err := os.WriteFile(p, f.Bytes, 0o644); err != nil {
				t.Fatal(err)
			}
			files[f.BaseName()] = p
		}
	}
	return dir, schemas, files
}

func TestDecodeVerb(t *testing.T) {
	_, schemas, files := decodeVectors(t)
	out, errs, code := runCmd(t, "decode", "-schemas", schemas, files["0-Produce-v12-request"])
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"offset  len  type",
		"     0    4  int32                      size = 162 bytes",
		"header = RequestHeader v2",
		"Acks = -1",
		`Key = "order-1"`,
		"CRC = 0x",
		"tagged fields = 0 → none",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	out, errs, code = runCmd(t, "decode", "-schemas", schemas, "-response", "-api", "ApiVersions", "-format", "json", files["18-ApiVersions-v4-response"])
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var j struct {
		API           string `json:"api"`
		HeaderVersion int    `json:"headerVersion"`
		Root          struct {
			Children []struct{ Path string } `json:"children"`
		} `json:"root"`
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if j.API != "ApiVersions" || j.HeaderVersion != 0 || len(j.Root.Children) != 3 {
		t.Errorf("json: %+v", j)
	}

	// An explicit version.
	if _, errs, code = runCmd(t, "decode", "-schemas", schemas, "-response", "-api", "0", "-version", "12", files["0-Produce-v12-response"]); code != 0 {
		t.Errorf("exit %d: %s", code, errs)
	}
}

func TestDecodeVerbErrors(t *testing.T) {
	dir, schemas, files := decodeVectors(t)
	cut := filepath.Join(dir, "cut.bin")
	data, _ := os.ReadFile(files["0-Produce-v12-request"])
	os.WriteFile(cut, data[:40], 0o644)
	tests := []struct {
		name string
		args []string
		code int
		want string // in stderr
		out  string // in stdout
	}{
		{"no file", []string{"decode", "-schemas", schemas}, 2, "want one FILE.bin", ""},
		{"bad format", []string{"decode", "-schemas", schemas, "-format", "xml", cut}, 2, `-format "xml"`, ""},
		{"api without response", []string{"decode", "-schemas", schemas, "-api", "Produce", cut}, 2, "add -response", ""},
		{"response without api", []string{"decode", "-schemas", schemas, "-response", cut}, 2, "-response needs -api", ""},
		{"unknown api", []string{"decode", "-schemas", schemas, "-response", "-api", "Nope", cut}, 2, `-api "Nope"`, ""},
		{"missing file", []string{"decode", "-schemas", schemas, filepath.Join(dir, "nope.bin")}, 1, "no such file", ""},
		{"truncated", []string{"decode", "-schemas", schemas, cut}, 1,
			"kafkagrid: decode: " + cut + ": kafka: Produce v12 request: #size: offset 0: size 162 exceeds the 36 bytes left", "size = 162 bytes"},
		{"response read as a request", []string{"decode", "-schemas", schemas, files["0-Produce-v12-response"]}, 1,
			"the file's name says it is a Produce v12 response: decode it with -response -api Produce -version 12", ""},
		{"wrong version", []string{"decode", "-schemas", schemas, "-response", "-api", "Produce", "-version", "99", files["0-Produce-v12-response"]}, 1,
			"version 99 is not valid", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errs, code := runCmd(t, tt.args...)
			if code != tt.code || !strings.Contains(errs, tt.want) || !strings.Contains(out, tt.out) {
				t.Errorf("exit %d, stderr %q, stdout %q", code, errs, out)
			}
		})
	}
}

func TestDecodeHelp(t *testing.T) {
	_, errs, code := runCmd(t, "decode", "-h")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, flag := range []string{"-schemas", "-release", "-response", "-api", "-version", "-format"} {
		if !strings.Contains(errs, flag) {
			t.Errorf("help lacks %s:\n%s", flag, errs)
		}
	}
}
