package outdir

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// WriteFile writes what fill writes as the one file name a user named (grid -o, diff -o, md's
// outputs). A regular file (or none) is replaced by
// rename from a temporary file beside it, of the same pattern a Folder's are, listed in temps
// while it is open and removed on every way out, so that an error leaves no partial file; its
// permissions are kept, a new file's follow the umask, and missing folders above it are made.
// What is not a regular file is written to as it is and never renamed over: a device
// (/dev/stdout, /dev/null), a FIFO, or a symbolic link, whose target is written instead (by
// rename when it is a regular file): the user named it. Errors name name, never the temporary
// file: "site: write out.svg: permission denied".
func WriteFile(name string, fill func(io.Writer) error, temps *Temps) (err error) {
	target := name
	fi, err := os.Lstat(name)
	if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		resolved, rerr := filepath.EvalSymlinks(name)
		if rerr != nil {
			// A link to nothing yet: create what it names, through it.
			return writeInPlace(name, fill)
		}
		target = resolved
		fi, err = os.Lstat(target)
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		fi = nil
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return writeError(name, err)
		}
	case err != nil:
		return writeError(name, err)
	case fi.IsDir():
		return fmt.Errorf("site: write %s: a folder", name)
	case !fi.Mode().IsRegular():
		return writeInPlace(name, fill)
	}
	dir, base := filepath.Split(target)
	tmp, err := openTemp(dir, base, temps)
	if err != nil {
		return writeError(name, err)
	}
	defer tmp.discard()
	if _, err := fillFile(tmp.File, fill, name, name); err != nil {
		return err
	}
	if fi != nil {
		if err := tmp.Chmod(fi.Mode().Perm()); err != nil { // keep the file's permissions
			return writeError(name, err)
		}
	}
	if err := tmp.Close(); err != nil {
		return writeError(name, err)
	}
	if err := tmp.rename(target); err != nil {
		return writeError(name, err)
	}
	return nil
}

// writeInPlace writes what fill writes into what name is (a device, a FIFO, a link's target),
// truncating it where that means anything.
func writeInPlace(name string, fill func(io.Writer) error) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
	if err != nil {
		return writeError(name, err)
	}
	_, err = fillFile(f, fill, name, name)
	if cerr := f.Close(); err == nil && cerr != nil {
		err = writeError(name, cerr)
	}
	return err
}

// fileWriters are the 64 KiB buffers fillFile writes files through, reset for each file: a
// build writes thousands of files, and a new buffer for each was a sixth of the bytes it
// allocated.
var fileWriters = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 64<<10) }}

// fillFile runs fill on f through a buffer and returns the bytes written, telling a failure
// of the file (reported as writing path) from one of fill (wrapped as "site: label: …").
func fillFile(f *os.File, fill func(io.Writer) error, path, label string) (int64, error) {
	cw := &countWriter{w: f}
	bw := fileWriters.Get().(*bufio.Writer)
	bw.Reset(cw)
	defer func() {
		bw.Reset(nil) // hold no file while pooled
		fileWriters.Put(bw)
	}()
	if err := fill(bw); err != nil {
		if cw.err != nil { // the file failed, not what fills it
			return cw.n, writeError(path, cw.err)
		}
		return cw.n, fmt.Errorf("site: %s: %w", label, err)
	}
	if err := bw.Flush(); err != nil {
		return cw.n, writeError(path, err)
	}
	return cw.n, nil
}

// NotBuilt refuses to write a single file (grid -o, md -o) at target when a kafkagrid
// build's folder lists that name as its own (the folder's manifest): the build would sweep or
// replace it, and the write would replace one of its pages without its lock or manifest. A
// folder no build wrote, or one without the name, is nil.
func NotBuilt(target string) error {
	dir := filepath.Dir(target)
	if _, err := os.Lstat(filepath.Join(dir, ManifestName)); err != nil {
		return nil
	}
	m, err := ReadManifest(dir)
	if err != nil {
		return err
	}
	if m.Files[filepath.Base(target)] {
		return fmt.Errorf("%s is a file of the folder kafkagrid build wrote in %s: not replaced (write it elsewhere)", target, dir)
	}
	return nil
}
