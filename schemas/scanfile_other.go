//go:build !unix

package schemas

import (
	"io/fs"
	"os"
)

// scanFile reads the spec file name of the folder dir as readFile does, for ScanFolder.
func scanFile(dir, name string, buf []byte) ([]byte, bool) {
	data, err := readFile(linkedFS{os.DirFS(dir).(fs.StatFS), dir}, name)
	return data, err == nil
}
