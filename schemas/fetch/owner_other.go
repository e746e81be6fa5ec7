//go:build !unix

package fetch

import (
	"fmt"
	"os"
)

// checkOwned refuses a cache folder or entry that is a symbolic link or not a folder (owners
// and modes are Unix's).
func checkOwned(dir string, followLink bool) error {
	fi, err := os.Lstat(dir)
	if err == nil && followLink && fi.Mode()&os.ModeSymlink != 0 {
		fi, err = os.Stat(dir)
	}
	if err != nil {
		return fmt.Errorf("fetch: %w", err)
	}
	if fi.Mode()&os.ModeSymlink != 0 || !fi.IsDir() {
		return fmt.Errorf("fetch: %s is not a cache folder of kafkagrid's: remove it to download again", dir)
	}
	return nil
}

// processAlive cannot tell: the temporary folder waits for its age.
func processAlive(int) bool { return true }
