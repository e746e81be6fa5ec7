//go:build js && wasm

package schemas

import "fmt"

// openJar is not in the browser decoder (js/wasm), which reads its releases from the page,
// never a jar: archive/zip would link the standard library's flate compressor, which it
// registers when it starts (jar.go has the reader).
func openJar(path string) (*Release, error) {
	return nil, fmt.Errorf("schemas: %s: jars are not read in the browser", path)
}
