package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// TestGridOutputNotRegular: grid -o writes into what is there when it is not a regular file
// and never renames over it: a FIFO stays a FIFO and its reader gets the text, a symbolic link
// stays a link and its target gets the text (a link to nothing creates its target); a regular
// file keeps its permissions, and a new one follows the umask.
func TestGridOutputNotRegular(t *testing.T) {
	dir := t.TempDir()
	spec := gridSpec(t, "ipv4.yaml")
	want, _, err := runGridCmd(t, spec)
	if err != nil {
		t.Fatal(err)
	}

	fifo := filepath.Join(dir, "pipe.txt")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	got := make(chan []byte)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- nil
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- b
	}()
	if _, errs, err := runGridCmd(t, spec, "-o", fifo); err != nil {
		t.Fatalf("-o FIFO: %v %s", err, errs)
	}
	if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
		w.Close() // a reader still waiting (the FIFO was not written) sees the end
	}
	if b := <-got; string(b) != want {
		t.Errorf("the FIFO's reader got %d bytes, want %d", len(b), len(want))
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v %v", fi.Mode(), err)
	}

	target := filepath.Join(dir, "real.txt")
	os.WriteFile(target, []byte("old"), 0o600)
	link := filepath.Join(dir, "link.txt")
	os.Symlink("real.txt", link)
	dangling := filepath.Join(dir, "dangling.txt")
	os.Symlink("new.txt", dangling)
	for _, name := range []string{link, dangling} {
		if _, errs, err := runGridCmd(t, spec, "-o", name); err != nil {
			t.Fatalf("-o %s: %v %s", name, err, errs)
		}
		if fi, err := os.Lstat(name); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("%s is no longer a link: %v %v", name, fi.Mode(), err)
		}
	}
	for _, name := range []string{target, filepath.Join(dir, "new.txt")} {
		if b, err := os.ReadFile(name); err != nil || string(b) != want {
			t.Errorf("%s: %d bytes, %v", name, len(b), err)
		}
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o600 {
		t.Errorf("the link's target has mode %v, want its own 0600", fi.Mode().Perm())
	}
	old := syscall.Umask(0o027)
	defer syscall.Umask(old)
	fresh := filepath.Join(dir, "fresh.txt")
	if _, errs, err := runGridCmd(t, spec, "-o", fresh); err != nil {
		t.Fatalf("-o %s: %v %s", fresh, err, errs)
	}
	if fi, _ := os.Stat(fresh); fi.Mode().Perm() != 0o640 {
		t.Errorf("a new file has mode %v under umask 027, want 0640", fi.Mode().Perm())
	}
}

// TestReadBoundedOnce: a regular file is read into one buffer of its size, not grown by
// doubling: reading 8 MiB allocates little more than 8 MiB (io.ReadAll: about twice).
func TestReadBoundedOnce(t *testing.T) {
	name := filepath.Join(t.TempDir(), "frames.bin")
	data := bytes.Repeat([]byte{0, 0, 0, 4, 1, 2, 3, 4}, 1<<20)
	os.WriteFile(name, data, 0o644)
	var got []byte
	var err error
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	got, err = readInput(name)
	runtime.ReadMemStats(&after)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("read %d bytes, %v", len(got), err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(len(data))+64<<10 {
		t.Errorf("reading %d bytes allocated %d", len(data), alloc)
	}
}

// TestDecodeNameShown: a file name with a newline is quoted in decode's messages, so that it
// cannot forge a line of its own.
func TestDecodeNameShown(t *testing.T) {
	dir := t.TempDir()
	odd := filepath.Join(dir, "x\nkafkagrid: all fine.bin")
	// No frame, and no reading of any API's: a size prefix of 2 and one byte.
	os.WriteFile(odd, []byte{0, 0, 0, 2, 0xff}, 0o644)
	for _, name := range []string{odd, filepath.Join(dir, "missing\n.bin")} {
		_, errs, code := runCmd(t, "decode", "-q", "-schemas", filepath.Join(listSchemaRoot(t), "4.0"), name)
		if code != 1 || strings.Count(strings.TrimSuffix(errs, "\n"), "\n") != 0 || !strings.Contains(errs, `\n`) {
			t.Errorf("exit %d, %q", code, errs)
		}
	}
}

// TestPanicStatus: a panic in a verb is an internal error with its stack, exit status 70,
// never 2 (a usage error).
func TestPanicStatus(t *testing.T) {
	err := runSafely(func() error {
		var s []int
		_ = s[len(os.Args)+1] // an index out of range: a runtime panic
		return nil
	})
	var stderr bytes.Buffer
	if code := exitCode(err, &stderr); code != exitInternal || !strings.Contains(stderr.String(), "internal error (a bug in kafkagrid") || !strings.Contains(stderr.String(), "goroutine") {
		t.Errorf("exit %d, %s", code, stderr.String())
	}
	if err := runSafely(func() error { return usagef("bad") }); exitCode(err, io.Discard) != 2 {
		t.Error("a usage error is no longer 2")
	}
}

// TestListDiffStopAtSignal: list and diff stop once their context is done (a signal) instead of
// finishing their work and output, and diff's -o is never left half written.
func TestListDiffStopAtSignal(t *testing.T) {
	root := listSchemaRoot(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	if err := runList(ctx, []string{"-q", "-schemas", filepath.Join(root, "4.0")}, &stdout, &stderr); !errors.Is(err, context.Canceled) || stdout.Len() != 0 {
		t.Errorf("list: %v, %d bytes out", err, stdout.Len())
	}
	out := filepath.Join(t.TempDir(), "d.json")
	err := runDiff(ctx, []string{"-q", "-format", "json", "-o", out, filepath.Join(root, "3.9"), filepath.Join(root, "4.0")}, &stdout, &stderr)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("diff: %v", err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("diff -o: %v", err)
	}
	// Not cancelled, the same diff writes its file whole.
	if err := runDiff(context.Background(), []string{"-q", "-format", "json", "-o", out, filepath.Join(root, "3.9"), filepath.Join(root, "4.0")}, &stdout, &stderr); !errors.Is(err, errDifferent) {
		t.Fatalf("diff: %v", err)
	}
	if b, err := os.ReadFile(out); err != nil || !json.Valid(b) {
		t.Errorf("diff -o: %v, %d bytes", err, len(b))
	}
}
