package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/schemas"
)

// loadCatalogs reads the schemas as every verb finds them, and when -schemas or KAFKA_SCHEMAS
// is a folder of releases, every release in it (a diagram's release: picks one; -release, else
// 4.0, else the last, is the default). With no schemas given at all, optional makes that no
// error: the result is empty (bytegrid diagrams need none).
func loadCatalogs(ctx context.Context, sf *schemaFlags, stderr io.Writer, optional bool) (map[string]*kafka.Catalog, string, error) {
	path := *sf.schemas
	if path == "" && *sf.ref == "" {
		path = os.Getenv("KAFKA_SCHEMAS")
	}
	if path != "" {
		if fi, err := os.Stat(path); err == nil && fi.IsDir() && !isReleaseDir(path) && len(schemas.InstallJars(path)) == 0 {
			rels, err := releasesIn(path)
			if err != nil {
				return nil, "", err
			}
			if len(rels) == 0 {
				_, _, err := sf.load(ctx, stderr) // its error says what the folder lacks
				return nil, "", err
			}
			def := *sf.release
			switch {
			case def != "" && !slices.Contains(rels, def):
				return nil, "", fmt.Errorf("%s has no release %q (it has %s)", path, def, strings.Join(rels, ", "))
			case def == "" && slices.Contains(rels, defaultRelease):
				def = defaultRelease
			case def == "":
				def = rels[len(rels)-1]
			}
			cats := map[string]*kafka.Catalog{}
			for _, rel := range rels {
				if err := ctx.Err(); err != nil {
					return nil, "", err
				}
				r, err := schemas.Open(filepath.Join(path, rel))
				if err != nil {
					return nil, "", err
				}
				if !*sf.quiet {
					for _, n := range r.Notes() {
						fmt.Fprintln(stderr, n)
					}
				}
				c, err := kafka.NewCatalog(r)
				if err != nil {
					return nil, "", err
				}
				cats[rel] = c
			}
			return cats, def, nil
		}
	}
	cat, _, err := sf.load(ctx, stderr)
	if err != nil {
		var u usageError
		if optional && *sf.schemas == "" && *sf.ref == "" && path == "" && errors.As(err, &u) && strings.HasPrefix(err.Error(), "no Kafka schemas") {
			return nil, "", nil
		}
		return nil, "", err
	}
	name := cat.Release.Name()
	return map[string]*kafka.Catalog{name: cat}, name, nil
}
