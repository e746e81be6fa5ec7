package reference_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing/fstest"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site/reference"
)

// history39to41 reads 3.9, 4.0 and 4.1 (see internal/testenv).
func history39to41() (*reference.History, error) {
	var cats []*kafka.Catalog
	for _, rel := range []string{"3.9", "4.0", "4.1"} {
		dir, err := testenv.ReleaseDir(rel)
		if err != nil {
			return nil, err
		}
		c, err := kafka.LoadCatalog(dir)
		if err != nil {
			return nil, err
		}
		cats = append(cats, c)
	}
	return reference.NewHistory(cats)
}

func ExampleHistory_Matrix() {
	h, err := history39to41()
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range h.Matrix().APIs {
		if a.Key != 1 {
			continue
		}
		for _, r := range a.Releases {
			fmt.Printf("%s %s v%s, flexible %s, deprecated %s\n", r.Release, r.Name, r.Valid, r.Flexible, r.Deprecated)
		}
		for _, v := range a.Versions {
			if v.Removed != "" || v.First != "3.9" {
				fmt.Printf("v%d: first in %s, removed in %q\n", v.Version, v.First, v.Removed)
			}
		}
	}
	// Output:
	// 3.9 Fetch v0-17, flexible 12+, deprecated 0-3
	// 4.0 Fetch v4-17, flexible 12+, deprecated none
	// 4.1 Fetch v4-18, flexible 12+, deprecated none
	// v0: first in 3.9, removed in "4.0"
	// v1: first in 3.9, removed in "4.0"
	// v2: first in 3.9, removed in "4.0"
	// v3: first in 3.9, removed in "4.0"
	// v18: first in 4.1, removed in ""
}

func ExampleHistory_ReleasesJSON() {
	h, err := history39to41()
	if err != nil {
		fmt.Println(err)
		return
	}
	lines := strings.Split(string(h.ReleasesJSON()), "\n")
	fmt.Println(strings.Join(lines[:3], "\n"))
	// Output:
	// {
	//   "3.9": {
	//     "0": [0, 11], "1": [0, 17], "2": [0, 9], "3": [0, 12], "4": [0, 7], "5": [0, 4], "6": [0, 8], "7": [0, 3],
}

func ExampleFieldHistory_Notes() {
	h, err := history39to41()
	if err != nil {
		fmt.Println(err)
		return
	}
	fh := h.Field(1, false, "Topics[].Partitions[].ReplicaDirectoryId")
	fmt.Println(strings.Join(fh.Notes(h), "; "))
	// Output:
	// since v17 (Kafka 3.9 or earlier); tagged from v17 (Kafka 3.9 or earlier)
}

// WriteDecoder writes the browser decoder of some releases alone: the page and its scripts.
// Here the WebAssembly is a stand-in; "go generate ./cmd/kafkagrid" makes the real one.
func ExampleWriteDecoder() {
	dir, err := testenv.ReleaseDir("4.0")
	if err != nil {
		fmt.Println(err)
		return
	}
	cat, err := kafka.LoadCatalog(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("\x00asm\x01\x00\x00\x00"))
	zw.Close()
	assets := fstest.MapFS{
		reference.DecoderWASM: {Data: gz.Bytes()},
		reference.DecoderGlue: {Data: []byte("// $(go env GOROOT)/lib/wasm/wasm_exec.js\n")},
	}
	out, err := os.MkdirTemp("", "decoder")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(out)
	if err := reference.WriteDecoder(context.Background(), out, []*kafka.Catalog{cat}, assets, false); err != nil {
		fmt.Println(err)
		return
	}
	files, _ := filepath.Glob(filepath.Join(out, "decode*"))
	more, _ := filepath.Glob(filepath.Join(out, "decode", "*"))
	for _, f := range append(files, more...) {
		rel, _ := filepath.Rel(out, f)
		fmt.Println(filepath.ToSlash(rel))
	}
	// Output:
	// decode
	// decode.html
	// decode/decode.js
	// decode/kafkagrid.js
	// decode/release-4.0.js
	// decode/wasm_exec.js
}
