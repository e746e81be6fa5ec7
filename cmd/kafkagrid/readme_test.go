package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
)

// readmeBlock returns the indented command lines of the README section that starts with
// heading, in order.
func readmeBlock(t *testing.T, readme, heading string) []string {
	t.Helper()
	i := strings.Index(readme, "\n"+heading+"\n")
	if i < 0 {
		t.Fatalf("README has no section %q", heading)
	}
	sec := readme[i+len(heading)+2:]
	if j := strings.Index(sec, "\n## "); j >= 0 {
		sec = sec[:j]
	}
	var out []string
	for _, l := range strings.Split(sec, "\n") {
		if strings.HasPrefix(l, "    ") && !strings.HasPrefix(l, "     ") {
			out = append(out, strings.TrimSpace(l))
		}
	}
	return out
}

// TestREADMECommands runs the README's commands as written, where they can be: the install
// line from the clone into a fresh GOPATH (GOBIN unset, so $(go env GOPATH)/bin, as the README
// says), then the first steps from another folder with that kafkagrid on the PATH, the
// README's Kafka installation replaced by the 4.0 schemas, then the main job from the clone
// (at the highest versions). The first steps' whole 4.0 reference must be the shared 4.0
// build's, byte for byte: the test of a build's determinism (two builds, two processes). Not
// under -short: it installs the command and builds the whole 4.0 reference.
func TestREADMECommands(t *testing.T) {
	if testing.Short() {
		t.Skip("installs the command and builds the whole 4.0 reference")
	}
	// The go command of the toolchain that runs the tests: the go on the PATH may switch
	// toolchains (GOTOOLCHAIN), so its GOROOT names the one in use.
	goCmd := needTool(t, "go")
	if root, err := exec.Command(goCmd, "env", "GOROOT").Output(); err == nil {
		c := filepath.Join(strings.TrimSpace(string(root)), "bin", "go")
		if _, err := os.Stat(c); err == nil {
			goCmd = c
		}
	}
	mod, err := testenv.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	rel40 := testenv.Release(t, "4.0")
	b, err := os.ReadFile(filepath.Join(mod, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	tmp := t.TempDir()
	gopath := filepath.Join(tmp, "gopath")
	// A fresh GOPATH and no GOBIN; the module and build caches stay the machine's, so that
	// nothing is downloaded again.
	env := []string{"GOPATH=" + gopath, "GOBIN=", "KAFKA_SCHEMAS=", "KAFKAGRID_TEST_MAIN=",
		"PATH=" + filepath.Join(gopath, "bin") + string(os.PathListSeparator) + filepath.Dir(goCmd) + string(os.PathListSeparator) + os.Getenv("PATH")}
	for _, k := range []string{"GOMODCACHE", "GOCACHE"} {
		v, err := exec.Command(goCmd, "env", k).Output()
		if err != nil {
			t.Fatal(err)
		}
		env = append(env, k+"="+strings.TrimSpace(string(v)))
	}
	sh := func(dir, line string) (string, string) {
		t.Helper()
		cmd := exec.Command("sh", "-c", line)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s (in %s): %v\n%s%s", line, dir, err, stdout.String(), stderr.String())
		}
		return stdout.String(), stderr.String()
	}

	var install string
	for _, l := range readmeBlock(t, readme, "## The two commands") {
		if strings.Contains(l, "go install") {
			install = l
			break
		}
	}
	if install == "" || strings.Contains(install, "@latest") {
		t.Fatalf("the README's first install line is %q, want the one that works from a clone", install)
	}
	sh(mod, install)
	bin := filepath.Join(gopath, "bin", "kafkagrid")
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("%s did not install kafkagrid in $(go env GOPATH)/bin: %v", install, err)
	}
	if out, _ := sh(tmp, "kafkagrid version"); !strings.Contains(out, "kafkagrid") {
		t.Errorf("kafkagrid version: %q", out)
	}

	steps := readmeBlock(t, readme, "## First steps with an installed kafkagrid")
	if len(steps) < 4 {
		t.Fatalf("the README's first steps: %q", steps)
	}
	work := filepath.Join(tmp, "elsewhere")
	os.MkdirAll(work, 0o755)
	for _, l := range steps {
		if i := strings.Index(l, " #"); i >= 0 {
			l = strings.TrimSpace(l[:i])
		}
		if !strings.HasPrefix(l, "kafkagrid ") {
			t.Fatalf("a first step that is not a kafkagrid command: %q", l)
		}
		l = strings.ReplaceAll(l, "~/kafka_2.13-4.0.0", rel40)
		out, errs := sh(work, l)
		switch verb := strings.Fields(l)[1]; {
		case strings.Contains(l, "> produce.svg"):
			svg, _ := os.ReadFile(filepath.Join(work, "produce.svg"))
			if !bytes.Contains(svg, []byte("<svg")) {
				t.Errorf("%s: produce.svg is not an SVG", l)
			}
		case verb == "build":
			if _, err := os.Stat(filepath.Join(work, "kafka-ref", "index.html")); err != nil {
				t.Errorf("%s: %v (%s)", l, err, errs)
			}
			// The whole reference as build makes it by default, the shared 4.0 build's
			// arguments: a second build, by another process, gives the same bytes.
			if strings.Join(strings.Fields(l), " ") != "kafkagrid build -schemas "+rel40+" -out kafka-ref" {
				t.Fatalf("the README's build step is %q: sameTree compares it with the shared 4.0 build (build -schemas 4.0), which no longer has its flags", l)
			}
			sameTree(t, shared40(t), filepath.Join(work, "kafka-ref"))
		case out == "":
			t.Errorf("%s: nothing on stdout (%s)", l, errs)
		}
		if strings.Contains(errs, "note:") {
			t.Errorf("%s: notes on stderr without -v: %s", l, errs)
		}
	}

	// The main job, from the clone: the README's line, its output folder moved out of the clone.
	// A fresh clone has no browser decoder to embed (webdecoder/ is generated, git-ignored), so
	// the line must generate it itself, not count on the install line having run: then the
	// site has its decode.html.
	var job string
	for _, l := range readmeBlock(t, readme, "## The two commands") {
		if strings.Contains(l, "go run ./cmd/kafkagrid build") {
			job = l
		}
	}
	if job == "" || !strings.HasSuffix(job, " -out out") {
		t.Fatalf("the README's main job is %q, want go run ./cmd/kafkagrid build … -out out", job)
	}
	if !strings.HasPrefix(job, "go generate ./cmd/kafkagrid && go run ./cmd/kafkagrid build") {
		t.Errorf("the README's main job %q does not generate the browser decoder first: on a fresh clone its site has no decode.html", job)
	}
	// Run at the highest versions: the whole 4.0 reference, every version, is what the first
	// steps' "kafkagrid build" just built from the same schemas, the same bytes as the shared
	// build TestBuild40 checks; here the line's own steps are checked:
	// the decoder generated, the command run from the clone, the book and decode.html written.
	job = strings.TrimSuffix(job, " -out out") + " -versions highest -out " + filepath.Join(tmp, "out")
	job = strings.ReplaceAll(job, "../shared/kafka-schemas/4.0", rel40)
	_, jobErr := sh(mod, job)
	if _, err := os.Stat(filepath.Join(tmp, "out", "kafka-4.0-protocol.pdf")); err != nil {
		t.Errorf("%s: %v", job, err)
	}
	if _, err := os.Stat(filepath.Join(tmp, "out", "decode.html")); err != nil || strings.Contains(jobErr, "no decode.html") {
		t.Errorf("%s: no browser decoder: %v\n%s", job, err, jobErr)
	}
}
