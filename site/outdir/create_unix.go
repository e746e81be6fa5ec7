//go:build unix

package outdir

import (
	"io/fs"
	"os"
	"syscall"
)

// openExcl creates name, which must not exist, for reading and writing with what the umask
// leaves of 0666. os.OpenFile would try each file on the network poller (two fcntl calls to
// set it non-blocking, an epoll_ctl the kernel refuses for a regular file, two more to set it
// back): five system calls a file of a build writing thousands, for nothing. os.NewFile keeps
// the descriptor blocking, as a regular file is.
func openExcl(name string) (*os.File, error) {
	for {
		fd, err := syscall.Open(name, syscall.O_RDWR|syscall.O_CREAT|syscall.O_EXCL|syscall.O_CLOEXEC, 0o666)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		return os.NewFile(uintptr(fd), name), nil
	}
}

// renameFile renames the temporary file from to to. os.Rename first stats to, to refuse a
// folder there; place has checked that to is a regular file or absent, and the kernel refuses
// a file renamed over a folder anyway (EISDIR).
func renameFile(from, to string) error {
	for {
		err := syscall.Rename(from, to)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return &os.LinkError{Op: "rename", Old: from, New: to, Err: err}
		}
		return nil
	}
}
