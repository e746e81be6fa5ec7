package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/kafkagrid/kafkagrid/site/outdir"
)

func hostileBuild(t *testing.T, root, out string, args ...string) (string, int) {
	t.Helper()
	dir := filepath.Join(root, "4.0")
	_, errs, code := runCmd(t, append([]string{"build", "-q", "-schemas", dir, "-out", out, "-versions", "highest", "-format", "bin"}, args...)...)
	return errs, code
}

// TestBuildLock: a folder is built by one build at a time. A build finding the folder's lock
// held waits, then says which process holds it; two builds started together into one folder
// both succeed, one after the other, and the manifest lists the files of both.
func TestBuildLock(t *testing.T) {
	root := listSchemaRoot(t) // before the environment is emptied: its folder of releases
	t.Setenv("KAFKA_SCHEMAS", "")
	out := t.TempDir()
	lock := filepath.Join(out, outdir.LockName)
	f, err := os.OpenFile(lock, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Skip("no flock here:", err)
	}
	f.WriteString("4242\n")
	old := outdir.LockWait
	outdir.LockWait = 100 * time.Millisecond
	errs, code := hostileBuild(t, root, out, "-apis", "Produce")
	outdir.LockWait = old
	if code != 1 || !strings.Contains(errs, "is being built by process 4242") {
		t.Errorf("a held lock: exit %d, %s", code, errs)
	}
	if m, _ := filepath.Glob(filepath.Join(out, "bin", "*")); len(m) > 0 {
		t.Errorf("files written without the lock: %v", m)
	}
	f.Close() // released: the next build takes it

	var wg sync.WaitGroup
	codes := make([]int, 2)
	msgs := make([]string, 2)
	for i, api := range []string{"Produce", "Fetch"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			msgs[i], codes[i] = hostileBuild(t, root, out, "-apis", api)
		}()
	}
	wg.Wait()
	for i := range codes {
		if codes[i] != 0 {
			t.Errorf("build %d of two at once: exit %d, %s", i, codes[i], msgs[i])
		}
	}
	man, _ := os.ReadFile(filepath.Join(out, outdir.ManifestName))
	for _, want := range []string{"bin/0-Produce-v12-request.bin", "bin/1-Fetch-v17-request.bin"} {
		if !bytes.Contains(man, []byte(want+"\n")) {
			t.Errorf("the manifest lacks %s", want)
		}
	}
	if _, err := os.Lstat(lock); err == nil {
		t.Error("the lock file is left after the builds")
	}
	if errs, code := hostileBuild(t, root, out); code != 0 {
		t.Errorf("a later build: exit %d, %s", code, errs)
	}
}

// TestBuildSweepOwnsOnlyItsTemps: the stale-temporary sweep removes this project's
// temporaries and those of the manifest's files, never a user's file that looks like one
// (.draft.tmp2026), and never follows a symbolic link to a folder.
func TestBuildSweepOwnsOnlyItsTemps(t *testing.T) {
	root := listSchemaRoot(t) // before the environment is emptied: its folder of releases
	t.Setenv("KAFKA_SCHEMAS", "")
	top := t.TempDir()
	out := filepath.Join(top, "out")
	if errs, code := hostileBuild(t, root, out, "-apis", "Produce"); code != 0 {
		t.Fatal(errs)
	}
	victim := filepath.Join(top, "victimdir")
	os.Mkdir(victim, 0o755)
	theirs := filepath.Join(victim, ".Produce.html.tmp12345")
	os.WriteFile(theirs, []byte("theirs"), 0o644)
	if err := os.Symlink("../victimdir", filepath.Join(out, "api")); err != nil {
		t.Fatal(err)
	}
	draft := filepath.Join(out, "bin", ".draft.tmp2026")
	os.WriteFile(draft, []byte("mine"), 0o644)
	oldStyle := filepath.Join(out, "bin", ".0-Produce-v12-request.bin.tmp999") // of a manifest file
	os.WriteFile(oldStyle, []byte("half"), 0o644)
	ours := filepath.Join(out, "bin", ".x.bin"+".tmp-kafkagrid-77")
	os.WriteFile(ours, []byte("half"), 0o644)
	if errs, code := hostileBuild(t, root, out, "-apis", "Produce"); code != 0 {
		t.Fatal(errs)
	}
	for _, keep := range []string{theirs, draft} {
		if _, err := os.Stat(keep); err != nil {
			t.Errorf("%s was removed", keep)
		}
	}
	for _, gone := range []string{oldStyle, ours} {
		if _, err := os.Stat(gone); err == nil {
			t.Errorf("%s, a stale temporary of the build's, is still there", gone)
		}
	}
}

// TestBuildManifestNotThroughLink: the manifest is put in place by rename before it is
// appended to, so a hard link to it (cp -al out out.bak) keeps the backup's as it was; a
// manifest larger than any build writes is refused before it is read.
func TestBuildManifestNotThroughLink(t *testing.T) {
	root := listSchemaRoot(t) // before the environment is emptied: its folder of releases
	t.Setenv("KAFKA_SCHEMAS", "")
	top := t.TempDir()
	out := filepath.Join(top, "out")
	if errs, code := hostileBuild(t, root, out, "-apis", "Produce"); code != 0 {
		t.Fatal(errs)
	}
	bak := filepath.Join(top, "out.bak")
	os.Mkdir(bak, 0o755)
	if err := os.Link(filepath.Join(out, outdir.ManifestName), filepath.Join(bak, outdir.ManifestName)); err != nil {
		t.Skip("no hard links here:", err)
	}
	before, _ := os.ReadFile(filepath.Join(bak, outdir.ManifestName))
	if errs, code := hostileBuild(t, root, out, "-apis", "Fetch"); code != 0 {
		t.Fatal(errs)
	}
	after, _ := os.ReadFile(filepath.Join(bak, outdir.ManifestName))
	if !bytes.Equal(before, after) {
		t.Errorf("the backup's manifest changed through the hard link:\n%s", after)
	}
	man, _ := os.ReadFile(filepath.Join(out, outdir.ManifestName))
	if !bytes.Contains(man, []byte("bin/1-Fetch-v17-request.bin\n")) || !bytes.Contains(man, []byte("bin/0-Produce-v12-request.bin\n")) {
		t.Errorf("the folder's manifest lacks a build's files:\n%s", man)
	}

	big := filepath.Join(top, "big")
	os.Mkdir(big, 0o755)
	if err := os.WriteFile(filepath.Join(big, outdir.ManifestName), bytes.Repeat([]byte("bin/x.bin\n"), outdir.MaxManifest/10+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if errs, code := hostileBuild(t, root, big, "-apis", "Produce"); code != 1 || !strings.Contains(errs, "not a manifest kafkagrid writes") {
		t.Errorf("a manifest of %d bytes: exit %d, %s", outdir.MaxManifest+10, code, errs)
	}
}

// TestDecodeOutputFolder: decode -o has build's folder protections: it does not write into a
// built reference (nor build into a report), refuses a user's index.html and a symbolic link
// for frames/, and removes an earlier report's frames that the new one does not have.
func TestDecodeOutputFolder(t *testing.T) {
	root := listSchemaRoot(t) // before the environment is emptied: its folder of releases
	t.Setenv("KAFKA_SCHEMAS", "")
	schemas := filepath.Join(root, "4.0")
	top := t.TempDir()
	site := filepath.Join(top, "site")
	if _, errs, code := runCmd(t, "build", "-q", "-schemas", schemas, "-out", site, "-apis", "Produce", "-versions", "highest", "-format", "html,bin"); code != 0 {
		t.Fatal(errs)
	}
	index, _ := os.ReadFile(filepath.Join(site, "index.html"))
	bin := filepath.Join(site, "bin")
	req, resp := filepath.Join(bin, "0-Produce-v12-request.bin"), filepath.Join(bin, "0-Produce-v12-response.bin")
	if _, errs, code := runCmd(t, "decode", "-q", "-schemas", schemas, "-o", site, req); code != 1 || !strings.Contains(errs, "holds a reference site") {
		t.Errorf("decode -o into a site: exit %d, %s", code, errs)
	}
	if now, _ := os.ReadFile(filepath.Join(site, "index.html")); !bytes.Equal(now, index) {
		t.Error("the site's index.html was replaced")
	}

	rep := filepath.Join(top, "rep")
	both := filepath.Join(top, "both.bin")
	a, _ := os.ReadFile(req)
	b, _ := os.ReadFile(resp)
	os.WriteFile(both, append(a, b...), 0o644)
	if _, errs, code := runCmd(t, "decode", "-q", "-schemas", schemas, "-o", rep, both); code != 0 {
		t.Fatal(errs)
	}
	first, _ := filepath.Glob(filepath.Join(rep, "frames", "*"))
	if _, errs, code := runCmd(t, "decode", "-q", "-schemas", schemas, "-o", rep, req); code != 0 {
		t.Fatal(errs)
	}
	second, _ := filepath.Glob(filepath.Join(rep, "frames", "*"))
	if len(first) != 8 || len(second) != 4 {
		t.Errorf("%d frame files, then %d; want 8 then 4 (the stale ones removed)", len(first), len(second))
	}
	if _, errs, code := runCmd(t, "build", "-q", "-schemas", schemas, "-out", rep, "-apis", "Produce", "-format", "bin"); code != 1 || !strings.Contains(errs, "holds a report") {
		t.Errorf("build into a report: exit %d, %s", code, errs)
	}

	mine := filepath.Join(top, "mine")
	os.Mkdir(mine, 0o755)
	os.WriteFile(filepath.Join(mine, "index.html"), []byte("my notes"), 0o644)
	if _, errs, code := runCmd(t, "decode", "-q", "-schemas", schemas, "-o", mine, req); code != 1 || !strings.Contains(errs, "was not written by kafkagrid") {
		t.Errorf("decode -o over a user's index.html: exit %d, %s", code, errs)
	}
	if b, _ := os.ReadFile(filepath.Join(mine, "index.html")); string(b) != "my notes" {
		t.Error("the user's index.html was replaced")
	}

	linked := filepath.Join(top, "linked")
	outside := filepath.Join(top, "outside")
	os.Mkdir(linked, 0o755)
	os.Mkdir(outside, 0o755)
	os.Symlink("../outside", filepath.Join(linked, "frames"))
	if _, errs, code := runCmd(t, "decode", "-q", "-schemas", schemas, "-o", linked, req); code != 1 || !strings.Contains(errs, "symbolic link") {
		t.Errorf("decode -o with frames/ a link: exit %d, %s", code, errs)
	}
	if m, _ := filepath.Glob(filepath.Join(outside, "*")); len(m) > 0 {
		t.Errorf("files written through the link: %v", m)
	}
}

// TestOutputUmask: the files of a build and of a report follow the umask (they were made 0644
// whatever it was).
func TestOutputUmask(t *testing.T) {
	root := listSchemaRoot(t) // before the environment is emptied: its folder of releases
	t.Setenv("KAFKA_SCHEMAS", "")
	old := syscall.Umask(0o027)
	defer syscall.Umask(old)
	out := filepath.Join(t.TempDir(), "out")
	if errs, code := hostileBuild(t, root, out, "-apis", "Produce"); code != 0 {
		t.Fatal(errs)
	}
	req := filepath.Join(out, "bin", "0-Produce-v12-request.bin")
	rep := filepath.Join(t.TempDir(), "rep")
	if _, errs, code := runCmd(t, "decode", "-q", "-schemas", filepath.Join(root, "4.0"), "-o", rep, req); code != 0 {
		t.Fatal(errs)
	}
	for _, p := range []string{req, filepath.Join(out, outdir.ManifestName), filepath.Join(rep, "index.html")} {
		if fi, err := os.Stat(p); err != nil {
			t.Error(err)
		} else if fi.Mode().Perm() != 0o640 {
			t.Errorf("%s: mode %v under umask 027, want 0640", p, fi.Mode().Perm())
		}
	}
}
