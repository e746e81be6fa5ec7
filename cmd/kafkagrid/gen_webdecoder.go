//go:build ignore

// gen_webdecoder compiles the browser decoder (../kafkagrid-decoder with GOOS=js GOARCH=wasm) into
// webdecoder/kafkagrid.wasm.gz and copies the toolchain's wasm_exec.js beside it: run by "go
// generate ./cmd/kafkagrid" in cmd/kafkagrid. Both files are written to a temporary name and
// renamed, so an interrupted run leaves the earlier pair or none.
package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gen_webdecoder:", err)
		os.Exit(1)
	}
}

func run() error {
	goTool := filepath.Join(os.Getenv("GOROOT"), "bin", "go")
	if os.Getenv("GOROOT") == "" {
		goTool = "go"
	}
	out, err := exec.Command(goTool, "env", "GOROOT").Output()
	if err != nil {
		return fmt.Errorf("go env GOROOT: %w", err)
	}
	root := strings.TrimSpace(string(out))
	glue, err := os.ReadFile(filepath.Join(root, "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		glue, err = os.ReadFile(filepath.Join(root, "misc", "wasm", "wasm_exec.js")) // before Go 1.24
		if err != nil {
			return err
		}
	}
	tmp, err := os.MkdirTemp("", "kafkagrid-wasm-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	wasmPath := filepath.Join(tmp, "kafkagrid.wasm")
	cmd := exec.Command(goTool, "build", "-trimpath", "-ldflags=-s -w", "-o", wasmPath, "../kafkagrid-decoder")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build (GOOS=js GOARCH=wasm): %w", err)
	}
	wasm, err := os.ReadFile(wasmPath)
	if err != nil {
		return err
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(wasm)
	if err := zw.Close(); err != nil {
		return err
	}
	if err := put(filepath.Join("webdecoder", "wasm_exec.js"), glue); err != nil {
		return err
	}
	if err := put(filepath.Join("webdecoder", "kafkagrid.wasm.gz"), gz.Bytes()); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "gen_webdecoder: webdecoder/kafkagrid.wasm.gz: %d bytes (%d before gzip)\n", gz.Len(), len(wasm))
	return nil
}

// put writes data as the file path: into a temporary file of its own folder (os.CreateTemp,
// a name no other run takes), renamed into place; removed on any failure.
func put(path string, data []byte) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if _, err := f.Write(data); err != nil {
		return err
	}
	if err := f.Chmod(0o644); err != nil { // CreateTemp makes it 0600
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
