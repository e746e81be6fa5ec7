//go:build !unix

package outdir

import "os"

// openExcl creates name, which must not exist, for reading and writing with what the umask
// leaves of 0666.
func openExcl(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
}

// renameFile renames the temporary file from to to.
func renameFile(from, to string) error { return os.Rename(from, to) }
