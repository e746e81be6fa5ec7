package reference

import (
	"fmt"
	"io"

	"github.com/kafkagrid/kafkagrid/site"
)

// writeMessageText writes a message as text: a title, the byte grid as RFC ASCII art, and
// the expanded tree.
func writeMessageText(w io.Writer, name string, grid, tr site.TextWriter) error {
	ew := &errWriter{w: w}
	fmt.Fprintf(ew, "%s\n\nByte grid\n\n", name)
	if err := grid.WriteText(ew); err != nil {
		return err
	}
	fmt.Fprintf(ew, "\nExpanded tree\n\n")
	if err := tr.WriteText(ew); err != nil {
		return err
	}
	return ew.err
}
