package outdir

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// LockName is the file, in the output folder, that a build holds while it writes there: it
// holds the builder's process id. A second build into the folder waits up to LockWait for it,
// then says which process holds it. A build killed with SIGKILL leaves the file but not the
// hold (the lock is the operating system's, released with the process), so the next build
// takes it at once.
const LockName = ".kafkagrid-lock"

// LockWait is how long a build waits for another build of the same folder to finish.
var LockWait = 3 * time.Second

// folderLock is a build's hold on its output folder.
type folderLock struct {
	f    *os.File
	path string
}

// lockFolder takes the output folder's lock, waiting up to LockWait for another build.
func lockFolder(root, kind string) (*folderLock, error) {
	path := filepath.Join(root, LockName)
	deadline := time.Now().Add(LockWait)
	for {
		if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("site: %s is not a regular file: it is the build's lock, move it away", path)
		}
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o666)
		if err != nil {
			return nil, fmt.Errorf("site: lock %s: %w", path, unwrapPath(err))
		}
		ok, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("site: lock %s: %w", path, err)
		}
		if ok {
			// Held; but the file may have been removed by the holder it waited for, between our
			// open and our lock: then it is not the folder's lock any more, and we start over.
			fi, err1 := f.Stat()
			pi, err2 := os.Lstat(path)
			if err1 == nil && err2 == nil && os.SameFile(fi, pi) {
				f.Truncate(0)
				f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
				return &folderLock{f: f, path: path}, nil
			}
			f.Close()
			continue
		}
		holder := "another process"
		if b, err := os.ReadFile(path); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 0 {
				holder = "process " + strconv.Itoa(pid)
			}
		}
		f.Close()
		if time.Now().After(deadline) {
			if kind == "" {
				return nil, fmt.Errorf("site: %s is being built by %s (it holds %s): wait for it to finish, or build into another folder", root, holder, path)
			}
			return nil, fmt.Errorf("site: %s is being written by %s (it holds %s): wait for it to finish, or write into another folder", root, holder, path)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// release removes the lock file and lets it go.
func (l *folderLock) release() {
	os.Remove(l.path) // before unlocking: a waiter that locks the removed file starts over
	unlock(l.f)
	l.f.Close()
}
