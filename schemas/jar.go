//go:build !js || !wasm

package schemas

import (
	"archive/zip"
	"errors"
	"fmt"
	"io/fs"
)

// openJar reads the specs under common/message/ of a jar (a zip file).
func openJar(path string) (*Release, error) {
	z, err := zip.OpenReader(path)
	if err != nil {
		return nil, fmt.Errorf("schemas: %s: %w", path, err)
	}
	defer z.Close()
	sub, err := fs.Sub(z, JarMessageDir)
	if err != nil {
		return nil, fmt.Errorf("schemas: %s: %w", path, err)
	}
	r, err := LoadFS(sub, path)
	if err != nil {
		if errors.Is(err, errNoSpecs) {
			return nil, fmt.Errorf("schemas: %s: no %s/*.json in the jar (is it kafka-clients?)", path, JarMessageDir)
		}
		return nil, err
	}
	r.name = jarVersion(path)
	return r, nil
}
