package outdir_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/kafkagrid/kafkagrid/site/outdir"
)

// A run opens its output folder, writes its files through it, records them in the manifest and
// lets the folder go; a file of the user's in the way is refused, not replaced.
func ExampleOpen() {
	root, _ := os.MkdirTemp("", "kafkagrid-example-")
	defer os.RemoveAll(root)
	os.WriteFile(filepath.Join(root, "notes.txt"), []byte("mine"), 0o644)

	f, err := outdir.Open(context.Background(), root, outdir.Options{Kind: outdir.KindReport})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(f.Write("index.html", []byte("<!DOCTYPE html>\n")))
	fmt.Println(f.Write("frames/c1-1-0-Produce-v12-request.json", []byte("{}\n")))
	fmt.Println(f.Write("notes.txt", nil) != nil)
	fmt.Println(f.Finish(outdir.FinishOptions{Complete: true}))
	f.Close() // the folder's lock: ReadManifest waits for it

	m, _ := outdir.ReadManifest(root)
	fmt.Println(m.Kind, len(m.Files), m.Files["index.html"], m.Files["notes.txt"])
	// Output:
	// <nil>
	// <nil>
	// true
	// <nil>
	// report 2 true false
}

// WriteFile writes one file a user named, whole or not at all.
func ExampleWriteFile() {
	dir, _ := os.MkdirTemp("", "kafkagrid-example-")
	defer os.RemoveAll(dir)
	name := filepath.Join(dir, "out", "ipv4.txt")
	err := outdir.WriteFile(name, func(w io.Writer) error {
		_, err := fmt.Fprintln(w, "+-+-+-+-+")
		return err
	}, nil)
	b, _ := os.ReadFile(name)
	fmt.Print(err, "\n", string(b))
	// Output:
	// <nil>
	// +-+-+-+-+
}
