package reference

import (
	"bufio"
	"fmt"
	"io"
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

// create stores what fill writes as the file rel.
func (o *output) create(rel string, fill func(io.Writer) error) (err error) {
	path := filepath.Join(o.root, filepath.FromSlash(rel))
	dir := filepath.Dir(path)
	if err := o.mkdir(dir); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("reference: %w", err)
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
		return fmt.Errorf("reference: %s: %w", rel, err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("reference: %s: %w", rel, err)
	}
	if err := f.Chmod(0o644); err != nil {
		return fmt.Errorf("reference: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("reference: %w", err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("reference: %w", err)
	}
	o.mu.Lock()
	o.files++
	o.bytes += cw.n
	o.mu.Unlock()
	return nil
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

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
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
