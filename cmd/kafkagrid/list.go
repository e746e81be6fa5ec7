package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/kafkagrid/kafkagrid/kafka"
)

// runList implements "kafkagrid list": the catalogue of a release's APIs, as an aligned table
// or as JSON.
func runList(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("list", "[-schemas PATH | -kafka REF] [-release RELEASE] [-format text|json]", stdout, stderr)
	sf := addSchemaFlags(fs)
	format := fs.String("format", "text", "output `FORMAT`: text or txt (an aligned table: key, name, highest version,\n"+
		"category, flags) or json (every field, for scripts; over a folder of releases without\n"+
		"-release, every API's release × version matrix)")
	releases := fs.String("releases", "", releasesUsage)
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("list: unexpected argument %q", rest[0])
	}
	switch *format = outputFormat(*format); *format {
	case "txt", "json":
	default:
		return usagef("list: -format %q: want text (or txt) or json", *format)
	}
	if *format == "json" {
		if dir, rels, ok, err := sf.releaseFolder(*releases); err != nil || ok {
			if err != nil {
				return err
			}
			return writeMatrixJSON(ctx, stdout, dir, rels, *sf.quiet, stderr) // site.go
		}
	} else if *releases != "" {
		return usagef("list: -releases needs -format json (the matrix of releases)")
	}
	c, src, err := sf.load(ctx, stderr)
	if err != nil {
		return fmt.Errorf("list: %w", err)
	}
	if err := ctx.Err(); err != nil { // a signal while the schemas were read
		return fmt.Errorf("list: %w", err)
	}
	w := &ctxWriter{ctx: ctx, w: stdout}
	if *format == "json" {
		return writeListJSON(w, src.path, c)
	}
	return writeListText(w, c)
}

// apiFlags returns an API's flags column: "flexible", "unstable", comma-separated, or "-".
func apiFlags(a *kafka.API) string {
	var f []string
	if a.Flexible {
		f = append(f, "flexible")
	}
	if a.Unstable {
		f = append(f, "unstable")
	}
	if len(f) == 0 {
		return "-"
	}
	return strings.Join(f, ",")
}

func writeListText(w io.Writer, c *kafka.Catalog) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "KEY\tNAME\tVERSION\tCATEGORY\tFLAGS")
	for _, a := range c.APIs {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%s\t%s\n", a.Key, a.Name, a.Version, a.Category, apiFlags(a))
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("list: %w", err)
	}
	return nil
}

// listJSON is the -format json document.
type listJSON struct {
	Schemas string    `json:"schemas"`
	Release string    `json:"release"`
	APIs    []apiJSON `json:"apis"`
}

type apiJSON struct {
	Key       int16    `json:"key"`
	Name      string   `json:"name"`
	Version   int16    `json:"version"`
	Category  string   `json:"category"`
	Flexible  bool     `json:"flexible"`
	Unstable  bool     `json:"unstable"`
	Listeners []string `json:"listeners"`
	Request   string   `json:"request"`
	Response  string   `json:"response"`
}

func writeListJSON(w io.Writer, dir string, c *kafka.Catalog) error {
	doc := listJSON{Schemas: dir, Release: c.Release.Name(), APIs: make([]apiJSON, 0, len(c.APIs))}
	for _, a := range c.APIs {
		l := a.Listeners
		if l == nil {
			l = []string{}
		}
		doc.APIs = append(doc.APIs, apiJSON{
			Key: a.Key, Name: a.Name, Version: a.Version, Category: a.Category,
			Flexible: a.Flexible, Unstable: a.Unstable, Listeners: l,
			Request: a.Request.File, Response: a.Response.File,
		})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("list: %w", err)
	}
	return nil
}
