package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kafkagrid/kafkagrid/site/outdir"
)

// TestMain runs the command itself when the test binary is started as a child by a test that
// needs a whole process (to kill it, say).
func TestMain(m *testing.M) {
	if os.Getenv("KAFKAGRID_TEST_MAIN") == "1" {
		main()
		return
	}
	dir, err := os.MkdirTemp("", "kafkagrid-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	built40.root = dir
	code := m.Run()
	stopChrome()
	os.RemoveAll(dir)
	os.Exit(code)
}

// TestBuildOwnsOnlyItsFiles: the output folder is the user's. A build replaces only what a
// build wrote there, keeps permissions, never follows a link out of the folder, and a partial
// build keeps the site whole.
func TestBuildOwnsOnlyItsFiles(t *testing.T) {
	root := listSchemaRoot(t)
	dir := filepath.Join(root, "4.0")
	t.Setenv("KAFKA_SCHEMAS", "")
	build := func(out string, args ...string) (string, int) {
		_, errs, code := runCmd(t, append([]string{"build", "-q", "-schemas", dir, "-out", out, "-versions", "highest"}, args...)...)
		return errs, code
	}

	t.Run("a user's file is not replaced", func(t *testing.T) {
		out := t.TempDir()
		mine := filepath.Join(out, "index.html")
		os.WriteFile(mine, []byte("my notes"), 0o600)
		errs, code := build(out, "-format", "html")
		if code != 1 || !strings.Contains(errs, mine) || !strings.Contains(errs, "was not written by kafkagrid") {
			t.Errorf("exit %d, %s", code, errs)
		}
		if b, _ := os.ReadFile(mine); string(b) != "my notes" {
			t.Errorf("the user's index.html became %.40q", b)
		}
		if errs, code := build(out, "-format", "html", "-force"); code != 0 {
			t.Fatalf("-force: exit %d, %s", code, errs)
		}
		if b, _ := os.ReadFile(mine); !bytes.HasPrefix(b, []byte("<!DOCTYPE html>")) {
			t.Error("-force did not replace it")
		}
	})

	t.Run("permissions kept", func(t *testing.T) {
		out := t.TempDir()
		if errs, code := build(out, "-format", "bin", "-apis", "Produce"); code != 0 {
			t.Fatal(errs)
		}
		f := filepath.Join(out, "bin", "0-Produce-v12-request.bin")
		os.Chmod(f, 0o600)
		if errs, code := build(out, "-format", "bin", "-apis", "Produce"); code != 0 {
			t.Fatal(errs)
		}
		if fi, err := os.Stat(f); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("mode %v, %v; want 0600 kept", fi.Mode(), err)
		}
	})

	t.Run("no link is followed", func(t *testing.T) {
		out, elsewhere := t.TempDir(), t.TempDir()
		os.Symlink(elsewhere, filepath.Join(out, "svg"))
		errs, code := build(out, "-format", "svg", "-apis", "Produce")
		if code != 1 || !strings.Contains(errs, "symbolic link") {
			t.Errorf("exit %d, %s", code, errs)
		}
		if got, _ := os.ReadDir(elsewhere); len(got) != 0 {
			t.Errorf("%d files written through the link", len(got))
		}
		out2 := t.TempDir()
		os.MkdirAll(filepath.Join(out2, "bin"), 0o755)
		os.Symlink(filepath.Join(elsewhere, "x.bin"), filepath.Join(out2, "bin", "0-Produce-v12-request.bin"))
		if errs, code := build(out2, "-format", "bin", "-apis", "Produce", "-force"); code != 1 || !strings.Contains(errs, "symbolic link") {
			t.Errorf("a file link: exit %d, %s", code, errs)
		}
		if _, err := os.Stat(filepath.Join(elsewhere, "x.bin")); err == nil {
			t.Error("written through a file link")
		}
	})

	t.Run("a partial build keeps the site whole", func(t *testing.T) {
		out := t.TempDir()
		if errs, code := build(out, "-format", "html,pdf"); code != 0 {
			t.Fatal(errs)
		}
		index, _ := os.ReadFile(filepath.Join(out, "index.html"))
		if errs, code := build(out, "-format", "html,pdf", "-apis", "Produce"); code != 0 {
			t.Fatal(errs)
		}
		again, _ := os.ReadFile(filepath.Join(out, "index.html"))
		if !bytes.Equal(index, again) {
			t.Error("the index of a partial build differs from the full build's")
		}
		if n := bytes.Count(again, []byte(`<td><a href="api/`)); n != 84 {
			t.Errorf("the index lists %d APIs, want 84", n)
		}
		// The book's outline names a chapter of each (read by qpdf: a pdftotext run over the
		// whole book costs 3 CPU-s; TestBuild40 reads every API's name in a book's text).
		js, err := exec.Command(needTool(t, "qpdf"), "--json=2", "--json-key=outlines", filepath.Join(out, "kafka-4.0-protocol.pdf")).Output()
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Outlines []outline `json:"outlines"`
		}
		if err := json.Unmarshal(js, &doc); err != nil {
			t.Fatal(err)
		}
		titles := map[string]bool{}
		for _, top := range doc.Outlines {
			for _, a := range top.Kids {
				titles[a.Title] = true
			}
		}
		if !titles["ShareFetch"] || !titles["DescribeTopicPartitions"] {
			t.Errorf("the book of a partial build lost the other APIs: its outline has %d", len(titles))
		}
	})

	t.Run("a killed first build's files are the next build's", func(t *testing.T) {
		out := t.TempDir()
		cmd := exec.Command(os.Args[0], "build", "-q", "-schemas", dir, "-out", out, "-format", "bin,json", "-versions", "all")
		cmd.Env = append(os.Environ(), "KAFKAGRID_TEST_MAIN=1")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		waited := make(chan struct{})
		go func() { cmd.Wait(); close(waited) }()
		// Until a few files are there, or the build ended (no deadline: the test's -timeout is
		// the hang guard).
		for {
			if m, _ := filepath.Glob(filepath.Join(out, "json", "*.json")); len(m) > 3 {
				break
			}
			select {
			case <-waited:
			case <-time.After(5 * time.Millisecond):
				continue
			}
			break
		}
		cmd.Process.Signal(syscall.SIGKILL)
		<-waited
		if errs, code := build(out, "-format", "bin,json", "-versions", "all"); code != 0 {
			t.Errorf("after a killed first build: exit %d, %s", code, errs)
		}
	})

	t.Run("stale temporary files removed", func(t *testing.T) {
		out := t.TempDir()
		os.MkdirAll(filepath.Join(out, "bin"), 0o755)
		stale := filepath.Join(out, "bin", ".0-Produce-v12-request.bin.tmp-kafkagrid-123456")
		os.WriteFile(stale, []byte("half"), 0o644)
		draft := filepath.Join(out, "bin", ".draft.tmp2026") // the older pattern, not a file of the manifest
		os.WriteFile(draft, []byte("mine"), 0o644)
		notOurs := filepath.Join(out, "bin", ".notes.tmpx")
		os.WriteFile(notOurs, []byte("mine"), 0o644)
		if errs, code := build(out, "-format", "bin", "-apis", "Produce"); code != 0 {
			t.Fatal(errs)
		}
		if _, err := os.Stat(stale); err == nil {
			t.Error("a stale temporary file is still there")
		}
		if _, err := os.Stat(notOurs); err != nil {
			t.Error("a file that is not the build's temporary was removed")
		}
		if _, err := os.Stat(draft); err != nil {
			t.Error("a user's .draft.tmp2026 was removed")
		}
	})
}

// TestBuildKilled kills builds with SIGKILL at random moments, into a folder that holds a
// complete earlier build and a user's own file: the user's file stays, every file of the build
// is either the earlier one or the new one (they are the same bytes) and never a partial one,
// and the next build leaves no temporary file.
func TestBuildKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("kills builds")
	}
	root := listSchemaRoot(t)
	args := []string{"build", "-q", "-schemas", filepath.Join(root, "4.0"), "-format", "svg,html,bin,json", "-versions", "highest"}
	want := t.TempDir()
	if _, errs, code := runCmd(t, append(args, "-out", want)...); code != 0 {
		t.Fatal(errs)
	}
	out := t.TempDir()
	if _, errs, code := runCmd(t, append(args, "-out", out)...); code != 0 {
		t.Fatal(errs)
	}
	mine := filepath.Join(out, "api", "my-notes.html")
	os.WriteFile(mine, []byte("mine"), 0o644)
	rng := rand.New(rand.NewPCG(1, 2))
	kills := 20
	for i := range kills {
		cmd := exec.Command(os.Args[0], append(args, "-out", out)...)
		cmd.Env = append(os.Environ(), "KAFKAGRID_TEST_MAIN=1")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.IntN(400)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		if i == kills-1 {
			break
		}
	}
	if b, _ := os.ReadFile(mine); string(b) != "mine" {
		t.Fatal("the user's file changed")
	}
	temps := 0
	filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == outdir.ManifestName || d.Name() == outdir.LockName || p == mine {
			return nil
		}
		rel, _ := filepath.Rel(out, p)
		if strings.Contains(d.Name(), ".tmp") {
			temps++
			return nil
		}
		got, _ := os.ReadFile(p)
		w, err := os.ReadFile(filepath.Join(want, rel))
		if err != nil || !bytes.Equal(got, w) {
			t.Errorf("%s is not a complete build's file (%d bytes, want %d)", rel, len(got), len(w))
		}
		return nil
	})
	t.Logf("%d killed builds left %d temporary files", kills, temps)
	if _, errs, code := runCmd(t, append(args, "-out", out)...); code != 0 {
		t.Fatalf("the build after: exit %d, %s", code, errs)
	}
	filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".tmp") {
			t.Errorf("temporary file left after the next build: %s", p)
		}
		return nil
	})
}

// TestSignals: a build stops soon after SIGINT or SIGTERM, with status 130 or 143, and leaves
// no temporary file. "Soon" is counted in files, not timed: the build is paused (SIGSTOP),
// its files counted, signalled and resumed; it writes at most a few files more (those its
// workers were writing), far from the 3,132 of the whole build.
func TestSignals(t *testing.T) {
	root := listSchemaRoot(t)
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
		word string
	}{{syscall.SIGINT, 130, "interrupted"}, {syscall.SIGTERM, 143, "terminated"}} {
		t.Run(tc.word, func(t *testing.T) {
			out := t.TempDir()
			cmd := exec.Command(os.Args[0], "build", "-q", "-schemas", filepath.Join(root, "4.0"), "-out", out)
			cmd.Env = append(os.Environ(), "KAFKAGRID_TEST_MAIN=1")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			waited := make(chan error, 1)
			go func() { waited <- cmd.Wait() }()
			// Until a few files are there (no deadline: the test's -timeout is the hang guard).
			for {
				if m, _ := filepath.Glob(filepath.Join(out, "bin", "*.bin")); len(m) > 3 {
					break
				}
				select {
				case err := <-waited:
					t.Fatalf("the build ended before the signal: %v, %s", err, stderr.String())
				case <-time.After(5 * time.Millisecond):
				}
			}
			cmd.Process.Signal(syscall.SIGSTOP)
			before := countFiles(out)
			cmd.Process.Signal(tc.sig)
			cmd.Process.Signal(syscall.SIGCONT)
			err := <-waited
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != tc.code || !strings.Contains(stderr.String(), "kafkagrid: "+tc.word) {
				t.Errorf("%v: %v, stderr %q; want exit %d", tc.sig, err, stderr.String(), tc.code)
			}
			after := countFiles(out)
			t.Logf("%v: %d files at the signal, %d after", tc.sig, before, after)
			if after-before > 200 {
				t.Errorf("%d files written after the signal (%d before it), want at most 200", after-before, before)
			}
			filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
				if err == nil && isTemp(d.Name()) {
					t.Errorf("temporary file left: %s", p)
				}
				return nil
			})
		})
	}
}

// countFiles counts the regular files under dir, temporaries left out.
func countFiles(dir string) int {
	n := 0
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && !isTemp(d.Name()) {
			n++
		}
		return nil
	})
	return n
}

func isTemp(name string) bool { return strings.HasPrefix(name, ".") && strings.Contains(name, ".tmp") }
