package diagram

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
)

// userProgram is a program of a module outside this one, written as its README tells a Go
// programmer to: it reads an RFC figure and writes its SVG, serves bytegrid and kafka diagrams
// from its own ServeMux (one request of each), and rewrites a Markdown file's fences, each in
// a few lines of the public API.
const userProgram = `package main

import (
	"bytes"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"

	"github.com/kafkagrid/kafkagrid/bytegrid/forms"
	"github.com/kafkagrid/kafkagrid/diagram"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/schemas"
)

const figure = ` + "`" + `
 0                   1                   2                   3
 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
|          Source Port          |       Destination Port        |
+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
` + "`" + `

func main() {
	// 1. An RFC figure to SVG.
	spec, form, err := forms.Read("ports.txt", []byte(figure), forms.Options{})
	if err != nil {
		log.Fatal(err)
	}
	var svg bytes.Buffer
	if err := forms.Write(&svg, spec, form.Name, "svg", forms.WriteOptions{}); err != nil {
		log.Fatal(err)
	}
	fmt.Println("rfc", form.Name, bytes.Contains(svg.Bytes(), []byte("Destination Port")))

	// 2. Both diagram types from our own ServeMux.
	r, err := schemas.Open(os.Getenv("KAFKA_SCHEMAS"))
	if err != nil {
		log.Fatal(err)
	}
	cat, err := kafka.NewCatalog(r)
	if err != nil {
		log.Fatal(err)
	}
	d := diagram.NewDrawer(map[string]*kafka.Catalog{cat.Release.Name(): cat}, "")
	mux := http.NewServeMux()
	mux.Handle("/kroki/", http.StripPrefix("/kroki", diagram.NewHandler(d, diagram.Limits{})))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	for _, req := range []string{"/kroki/bytegrid/svg/" + diagram.Encode([]byte(figure)), "/kroki/kafka/svg/" + diagram.Encode([]byte("api: Produce\nversion: 9\n"))} {
		resp, err := http.Get(srv.URL + req)
		if err != nil {
			log.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Println("serve", resp.StatusCode, resp.Header.Get("Content-Type"), bytes.Contains(b, []byte("<svg")))
	}

	// 3. A Markdown file's fences.
	src, err := os.ReadFile("doc.md")
	if err != nil {
		log.Fatal(err)
	}
	text, svgs, err := d.Markdown("doc.md", src, diagram.MarkdownOptions{SVGBase: "doc"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("md %q %d\n", text, len(svgs))
}
`

// TestOutsideModule builds and runs userProgram in a module of its own that requires this one
// through a replace to the checkout, with no network (GOPROXY=off: the module cache only, once testenv.ModuleGraph has loaded
// this module's whole graph into it).
func TestOutsideModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	rel := testenv.Release(t, "4.0")
	root, err := testenv.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	if root, err := exec.Command(goCmd, "env", "GOROOT").Output(); err == nil {
		goCmd = filepath.Join(strings.TrimSpace(string(root)), "bin", "go") // the toolchain in use
	}
	dir := t.TempDir()
	gomod := "module example.com/protodoc\n\ngo 1.26.0\n\nrequire github.com/kafkagrid/kafkagrid v0.0.0\n\nreplace github.com/kafkagrid/kafkagrid => " + root + "\n"
	sum, _ := os.ReadFile(filepath.Join(root, "go.sum"))
	for name, data := range map[string][]byte{
		"go.mod":  []byte(gomod),
		"go.sum":  sum,
		"main.go": []byte(userProgram),
		"doc.md":  []byte("# Ports\n\n> ```bytegrid\n> name: P\n> fields:\n>   - {name: Port, bits: 16}\n> ```\n"),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := testenv.ModuleGraph(goCmd, root); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(goCmd, "run", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod -buildvcs=false", "GOPROXY=off", "GOTOOLCHAIN=local", "GOWORK=off", "KAFKA_SCHEMAS="+rel)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("go run: %v\n%s", err, stderr.String())
	}
	want := "rfc rfc true\n" +
		"serve 200 image/svg+xml true\n" +
		"serve 200 image/svg+xml true\n" +
		`md "# Ports\n\n> ![P](doc-1.svg)\n" 1` + "\n"
	if got := stdout.String(); got != want {
		t.Errorf("the program printed\n%s\nwant\n%s", got, want)
	}
	if strings.Contains(stderr.String(), "downloading") {
		t.Errorf("downloaded: %s", stderr.String())
	}
}
