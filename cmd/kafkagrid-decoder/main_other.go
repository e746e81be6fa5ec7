//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "kafkagrid-decoder runs in a browser: build it with GOOS=js GOARCH=wasm (go generate ./cmd/kafkagrid does), and open a site's decode.html")
	os.Exit(2)
}
