//go:build unix

package schemas

import (
	"path/filepath"
	"syscall"
)

// scanFile reads the spec file name of the folder dir into buf (grown as needed), for
// ScanFolder: what readFile reads, with five system calls where os.Open and fs.Stat make ten
// (a stat, then the network poller's fcntl and epoll_ctl calls that a regular file refuses).
// It opens without blocking, so that a pipe is refused by its mode, not waited on. ok is
// false for what is not a regular file of at most MaxSpecSize bytes, or cannot be read.
func scanFile(dir, name string, buf []byte) ([]byte, bool) {
	fd, err := syscall.Open(filepath.Join(dir, name), syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	if err != nil {
		return buf, false
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG || st.Size > MaxSpecSize {
		return buf, false
	}
	if want := int(st.Size) + 1; cap(buf) < want {
		buf = make([]byte, 0, want)
	}
	for {
		if len(buf) == cap(buf) {
			return buf, false // it grew since: readFile reads it
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil || n < 0 {
			return buf, false
		}
		if n == 0 {
			return buf, len(buf) <= MaxSpecSize
		}
		buf = buf[:len(buf)+n]
	}
}
