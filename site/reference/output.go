package reference

import (
	"io"

	"github.com/kafkagrid/kafkagrid/site"
)

// output is the build's output folder (site.Folder, which keeps the rules of the README's
// "the output folder is yours"), under the short names the builder's writers call it by.
type output struct{ *site.Folder }

// write stores data as the file rel (slash-separated, relative to the folder).
func (o output) write(rel string, data []byte) error { return o.Write(rel, data) }

// create stores what fill writes as the file rel.
func (o output) create(rel string, fill func(io.Writer) error) error { return o.Create(rel, fill) }

// errWriter keeps the first write error and drops later writes: svgo and fmt.Fprintf callers
// can write freely and check once.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	if err != nil {
		e.err = err
	}
	return n, err
}
