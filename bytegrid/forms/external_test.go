package forms_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/bytegrid/forms"
	"github.com/kafkagrid/kafkagrid/internal/testenv"
)

// externalMain is a program of a module outside this one: it reads an RFC figure and writes
// its SVG with the public API, in a few lines.
const externalMain = `package main

import (
	"log"
	"os"

	"github.com/kafkagrid/kafkagrid/bytegrid/forms"
)

func main() {
	src, err := os.ReadFile(os.Args[1])
	if err != nil {
		log.Fatal(err)
	}
	spec, form, err := forms.Read(os.Args[1], src, forms.Options{})
	if err != nil {
		log.Fatal(err)
	}
	if err := forms.Write(os.Stdout, spec, form.Name, "svg", forms.WriteOptions{}); err != nil {
		log.Fatal(err)
	}
}
`

// TestExternalModule builds and runs externalMain in a module of its own that requires this
// one through a replace to this checkout, offline (the module cache holds what it needs once
// testenv.ModuleGraph has loaded this module's whole graph), and checks that it writes the SVG forms.Write does.
func TestExternalModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program (-short)")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	mod := "module example.com/figure\n\ngo 1.26.0\n\nrequire github.com/kafkagrid/kafkagrid v0.0.0\n\n" +
		"replace github.com/kafkagrid/kafkagrid => " + root + "\n"
	for name, data := range map[string][]byte{"go.mod": []byte(mod), "go.sum": sum, "main.go": []byte(externalMain)} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	figure := filepath.Join(root, "examples", "protocols", "figures", "udp.rfc.txt")
	if err := testenv.ModuleGraph(goBin, root); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(goBin, "run", ".", figure)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod -buildvcs=false", "GOPROXY=off", "GOSUMDB=off", "GOWORK=off")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("go run: %v\n%s", err, stderr.String())
	}

	src, err := os.ReadFile(figure)
	if err != nil {
		t.Fatal(err)
	}
	spec, form, err := forms.Read(figure, src, forms.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := forms.Write(&want, spec, form.Name, "svg", forms.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if form.Name != "rfc" || !strings.HasPrefix(stdout.String(), "<?xml") || stdout.String() != want.String() {
		t.Errorf("the outside program wrote %d bytes (form %s), want the %d of forms.Write:\n%.300s", stdout.Len(), form.Name, want.Len(), stdout.String())
	}
}
