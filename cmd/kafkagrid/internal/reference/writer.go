package reference

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

// output writes the files of a build under one root. Each file is written to a temporary name
// in its own folder and renamed into place, so an interrupted build leaves no half-written file
// under a real name. It creates folders as needed and never removes anything it did not write.
// It is safe for concurrent use.
type output struct {
	root string

	mu    sync.Mutex
	dirs  map[string]bool
	files int
	bytes int64
}

func newOutput(root string) *output { return &output{root: root, dirs: map[string]bool{}} }

// write stores data as the file rel (slash-separated, relative to the root).
func (o *output) write(rel string, data []byte) error {
	return o.create(rel, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// create stores what fill writes as the file rel. Errors name the file rel becomes, never the
// temporary file behind it: "reference: write out/index.html: permission denied".
func (o *output) create(rel string, fill func(io.Writer) error) (err error) {
	path := filepath.Join(o.root, filepath.FromSlash(rel))
	dir := filepath.Dir(path)
	if err := o.mkdir(dir); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return writeError(path, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	cw := &countWriter{w: f}
	bw := bufio.NewWriterSize(cw, 64<<10)
	if err := fill(bw); err != nil {
		if cw.err != nil { // the file failed, not what fills it
			return writeError(path, cw.err)
		}
		return fmt.Errorf("reference: %s: %w", rel, err)
	}
	if err := bw.Flush(); err != nil {
		return writeError(path, err)
	}
	if err := f.Chmod(0o644); err != nil {
		return writeError(path, err)
	}
	if err := f.Close(); err != nil {
		return writeError(path, err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return writeError(path, err)
	}
	o.mu.Lock()
	o.files++
	o.bytes += cw.n
	o.mu.Unlock()
	return nil
}

// writeError reports a failure to write the file path. The operating system's errors name
// the temporary file (or both names, for a rename); those names are dropped for path's, and the
// cause (fs.ErrPermission, syscall.ENOSPC…) stays wrapped for errors.Is.
func writeError(path string, err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		err = pe.Err
	case errors.As(err, &le):
		err = le.Err
	}
	return fmt.Errorf("reference: write %s: %w", path, err)
}

func (o *output) mkdir(dir string) error {
	o.mu.Lock()
	done := o.dirs[dir]
	o.mu.Unlock()
	if done {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("reference: %w", err)
	}
	o.mu.Lock()
	o.dirs[dir] = true
	o.mu.Unlock()
	return nil
}

func (o *output) counts() (files int, n int64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.files, o.bytes
}

// countWriter counts the bytes written and keeps the first error of the file beneath.
type countWriter struct {
	w   io.Writer
	n   int64
	err error
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	if err != nil && c.err == nil {
		c.err = err
	}
	return n, err
}

// errWriter keeps the first write error and drops later writes: svgo and fmt.Fprintf callers
// can write freely and check once.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	if err != nil {
		e.err = err
	}
	return n, err
}
