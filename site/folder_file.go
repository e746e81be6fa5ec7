package site

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
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
	tmp, err := createTemp(dir, "."+base+tempSuffix)
	if err != nil {
		return writeError(name, err)
	}
	temps.Add(tmp.Name())
	placed := false
	defer func() { // every way out, a panic in fill too
		if !placed {
			tmp.Close()
			os.Remove(tmp.Name())
		}
		temps.Done(tmp.Name())
	}()
	if err := fillFile(tmp, fill, name); err != nil {
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
	if err := os.Rename(tmp.Name(), target); err != nil {
		return writeError(name, err)
	}
	placed = true
	return nil
}

// writeInPlace writes what fill writes into what name is (a device, a FIFO, a link's target),
// truncating it where that means anything.
func writeInPlace(name string, fill func(io.Writer) error) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
	if err != nil {
		return writeError(name, err)
	}
	err = fillFile(f, fill, name)
	if cerr := f.Close(); err == nil && cerr != nil {
		err = writeError(name, cerr)
	}
	return err
}

// fillFile runs fill on f through a buffer, telling a failure of the file (named name) from
// one of fill.
func fillFile(f *os.File, fill func(io.Writer) error, name string) error {
	cw := &countWriter{w: f}
	bw := bufio.NewWriterSize(cw, 64<<10)
	if err := fill(bw); err != nil {
		if cw.err != nil {
			return writeError(name, cw.err)
		}
		return fmt.Errorf("site: %s: %w", name, err)
	}
	if err := bw.Flush(); err != nil {
		return writeError(name, err)
	}
	return nil
}
