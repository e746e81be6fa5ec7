package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/kafkagrid/kafkagrid/cmd/kafkagrid/internal/reference"
)

// runShow implements "kafkagrid show API": one API's example request (or response) on
// stdout, as text for a terminal, as SVG or as annotated JSON for a pipe.
func runShow(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("show", "API [-version N] [-response] [-format txt|svg|json] [-tree] [-schemas PATH | -kafka REF] [-release RELEASE]", stdout, stderr)
	sf := addSchemaFlags(fs)
	response := fs.Bool("response", false, "show the response instead of the request")
	format := fs.String("format", "txt", "output `FORMAT`: txt (byte grid as RFC ASCII art and the tree),\n"+
		"svg (the byte grid, or the tree with -tree) or json (the annotated frame)")
	treeFlag := fs.Bool("tree", false, "with -format svg: draw the expanded tree instead of the byte grid")
	version := fs.String("version", "", "show version `N` of the API, with what changed in it (default the highest)")
	names, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(names) != 1 {
		return usagef("show: want one API name or key, have %d", len(names))
	}
	var f reference.Format
	switch outputFormat(*format) {
	case "txt":
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
	// "ProduceResponse" means the response, "ProduceRequest" the request.
	if l := strings.ToLower(names[0]); strings.HasSuffix(l, "response") && len(l) > len("response") {
		*response = true
	} else if strings.HasSuffix(l, "request") && len(l) > len("request") && *response {
		return usagef("show: %s is a request, but -response asks for the response", names[0])
	}
	a, ok := cat.Lookup(names[0])
	if !ok {
		return usageError{noAPI("show", cat, names[0])}
	}
	so := reference.ShowOptions{Response: *response, Format: f, Tree: *treeFlag}
	if *version != "" {
		v, err := strconv.ParseInt(strings.TrimPrefix(*version, "v"), 10, 16)
		if err != nil || v < 0 {
			return usagef("show: -version %q: want a version number such as 3", *version)
		}
		so.Version, so.HasVersion = int16(v), true
	}
	if err := reference.Show(stdout, cat, a, so); err != nil {
		return fmt.Errorf("show: %w", err)
	}
	return nil
}
