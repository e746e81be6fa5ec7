package main

import (
	"context"
	"fmt"
	"io"

	"github.com/kafkagrid/kafkagrid/cmd/kafkagrid/internal/reference"
)

// runShow implements "kafkagrid show API": one API's example request (or response) on
// stdout, as text for a terminal, as SVG or as annotated JSON for a pipe.
func runShow(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("show", "API [-version N] [-response] [-format txt|svg|json] [-tree] [-schemas PATH | -kafka REF] [-release RELEASE]", stderr)
	sf := addSchemaFlags(fs)
	response := fs.Bool("response", false, "show the response instead of the request")
	format := fs.String("format", "txt", "output `FORMAT`: txt (byte grid as RFC ASCII art and the tree),\n"+
		"svg (the byte grid, or the tree with -tree) or json (the annotated frame)")
	treeFlag := fs.Bool("tree", false, "with -format svg: draw the expanded tree instead of the byte grid")
	version := fs.Int("version", -1, "`N`: show version N of the API, with what changed in it (default the highest)")
	// Flags may come before or after the API name: "show Produce -response".
	var names []string
	rest := args
	for {
		if err := parseFlags(fs, rest); err != nil {
			return err
		}
		if fs.NArg() == 0 {
			break
		}
		names = append(names, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	if len(names) != 1 {
		return usagef("show: want one API name or key, have %d", len(names))
	}
	var f reference.Format
	switch *format {
	case "txt", "text":
		f = reference.Text
	case "svg":
		f = reference.SVG
	case "json":
		f = reference.JSON
	default:
		return usagef("show: -format %q: want txt, svg or json", *format)
	}
	if *treeFlag && f != reference.SVG {
		return usagef("show: -tree goes with -format svg")
	}
	cat, _, err := sf.load(ctx, stderr)
	if err != nil {
		return fmt.Errorf("show: %w", err)
	}
	a, ok := cat.Lookup(names[0])
	if !ok {
		return fmt.Errorf("show: no API %q in Kafka %s (see kafkagrid list)", names[0], cat.Release.Name())
	}
	so := reference.ShowOptions{Response: *response, Format: f, Tree: *treeFlag}
	if *version >= 0 {
		if *version > 32767 {
			return usagef("show: -version %d out of range", *version)
		}
		so.Version, so.HasVersion = int16(*version), true
	}
	if err := reference.Show(stdout, cat, a, so); err != nil {
		return fmt.Errorf("show: %w", err)
	}
	return nil
}
