//go:build unix

package fetch

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// checkOwned refuses a cache folder (followLink: the one the user named may be a link) or
// entry that is a symbolic link, is not a folder, is not the user's, or is writable by others:
// what is read from it is trusted as Kafka's schemas.
func checkOwned(dir string, followLink bool) error {
	fi, err := os.Lstat(dir)
	if err == nil && followLink && fi.Mode()&os.ModeSymlink != 0 {
		fi, err = os.Stat(dir)
	}
	if err != nil {
		return fmt.Errorf("fetch: %w", err)
	}
	switch {
	case fi.Mode()&os.ModeSymlink != 0:
		return fmt.Errorf("fetch: %s is a symbolic link, not a cache folder of kafkagrid's: remove it to download again", dir)
	case !fi.IsDir():
		return fmt.Errorf("fetch: %s is not a folder: remove it to download again", dir)
	case fi.Mode().Perm()&0o022 != 0 && fi.Mode()&os.ModeSticky == 0:
		return fmt.Errorf("fetch: %s is writable by others (mode %v): not trusted as a cache; chmod go-w it or remove it", dir, fi.Mode().Perm())
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return fmt.Errorf("fetch: %s belongs to user %d, not to you (%d): not trusted as a cache", dir, st.Uid, os.Getuid())
	}
	return nil
}

// processAlive reports whether a process of that id exists.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
