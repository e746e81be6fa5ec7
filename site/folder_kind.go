package reference

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// FolderReport is the kind of a folder that holds a capture report (decode -o, probe -o).
const FolderReport = "report"

// Folder is an output folder written with the protections of a build's (the same writer): one
// writer at a time (the folder's lock), files put in place by rename from temporaries a signal
// handler can remove (Temps), only files a kafkagrid run of the same kind wrote are replaced
// (the manifest), no symbolic link followed, and the stale temporaries of killed runs removed.
// A folder holds one kind of output: a report is not written into a built reference, nor a
// reference into a report's folder.
type Folder struct {
	o *output
}

// OpenFolder opens root (created if needed) to write output of kind into. ctx cancelled stops
// the writing of further files.
func OpenFolder(ctx context.Context, root, kind string, temps *Temps) (*Folder, error) {
	o, err := newOutput(root, false)
	if err != nil {
		return nil, err
	}
	o.kind, o.ctx, o.temps = kind, ctx, temps
	if o.prev.kind != kind && len(o.prev.files) > 0 {
		o.close()
		what := "a reference site (kafkagrid build)"
		if o.prev.kind != "" {
			what = "a " + o.prev.kind
		}
		return nil, fmt.Errorf("reference: %s holds %s: write into another folder", root, what)
	}
	return &Folder{o: o}, nil
}

// Create writes what fill writes as the file rel (slash-separated, relative to the folder).
func (f *Folder) Create(rel string, fill func(io.Writer) error) error {
	return f.o.create(rel, fill)
}

// Close records what was written in the manifest and lets the folder go. When complete, the
// output is whole: the files an earlier run wrote and this one did not (a report's frames of
// another capture) are removed; else they are kept, and listed, for the next run to replace.
func (f *Folder) Close(complete bool) error {
	o := f.o
	defer o.close()
	if complete {
		for rel := range o.prev.files {
			if o.written[rel] || rel == ManifestName {
				continue
			}
			p := filepath.Join(o.root, filepath.FromSlash(rel))
			if _, err := os.Lstat(filepath.Dir(p)); err != nil {
				continue
			}
			if err := o.mkdir(filepath.Dir(p)); err != nil { // no link on the way
				continue
			}
			if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() {
				os.Remove(p)
			}
		}
		o.prev.files = map[string]bool{}
	}
	return o.writeManifest("", nil)
}
