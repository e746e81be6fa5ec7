package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/kafkagrid/kafkagrid/internal/releasedir"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/schemas"
	"github.com/kafkagrid/kafkagrid/schemas/fetch"
	"github.com/kafkagrid/kafkagrid/site/reference"
)

// releasesUsage is the help of -releases, for build and list.
const releasesUsage = "with -schemas naming a folder of releases and no -release: the releases to take,\n" +
	"a `LIST` of names (3.9,4.0) or a range by version (2.2-4.1); default every release folder"

// releaseFolder reports whether the verb works on several releases: -schemas (else
// $KAFKA_SCHEMAS) names a folder of release folders and neither -release nor -kafka is given.
// It returns that folder and the releases picked, ordered by version. -releases with anything
// else is a usage error.
func (f *schemaFlags) releaseFolder(pick string) (string, []string, bool, error) {
	src, from := *f.schemas, "-schemas"
	if src == "" && *f.ref == "" {
		src, from = os.Getenv("KAFKA_SCHEMAS"), "KAFKA_SCHEMAS"
	}
	multi := src != "" && *f.ref == "" && *f.release == "" && isReleasesDir(src)
	if !multi {
		if pick != "" {
			return "", nil, false, usagef("-releases picks from a folder of releases (-schemas DIR without -release)")
		}
		return "", nil, false, nil
	}
	rels, err := pickReleases(src, pick)
	if err != nil {
		return "", nil, false, fmt.Errorf("%s %s: %w", from, src, err)
	}
	return src, rels, true, nil
}

// isReleasesDir reports whether dir is a folder of release folders (not one release, nor a
// Kafka installation). A folder with a link that dangles or loops among its entries is one:
// reading it says what is wrong with the link.
func isReleasesDir(dir string) bool {
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() || isReleaseDir(dir) || len(schemas.InstallJars(dir)) > 0 {
		return false
	}
	rels, err := releasesIn(dir)
	return err != nil || len(rels) > 0
}

// pickReleases returns the releases of a folder of releases that pick names, ordered by
// version (releasedir.Pick); a pick that names none there is a usage error.
func pickReleases(dir, pick string) ([]string, error) {
	all, err := releasesIn(dir)
	if err != nil {
		return nil, err
	}
	rels, err := releasedir.Pick(all, pick)
	if err != nil {
		return nil, usageError{err}
	}
	return rels, nil
}

// loadReleases loads the catalogues of the releases of a folder, in the order given, printing
// the notes on lenient input unless quiet.
func loadReleases(ctx context.Context, dir string, rels []string, quiet bool, stderr io.Writer) ([]*kafka.Catalog, []string, error) {
	var cats []*kafka.Catalog
	var sources []string
	for _, rel := range rels {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		r, err := schemas.Open(filepath.Join(dir, rel))
		if err != nil {
			return nil, nil, err
		}
		if !quiet {
			for _, n := range r.Notes() {
				fmt.Fprintln(stderr, n)
			}
		}
		c, err := kafka.NewCatalog(r)
		if err != nil {
			return nil, nil, err
		}
		cats = append(cats, c)
		sources = append(sources, "schema folder "+rel+" ("+strings.TrimSuffix(fetch.MessageDir, "/")+" of a Kafka checkout)")
	}
	return cats, sources, nil
}

// buildSite is "kafkagrid build" over a folder of releases: one site (reference.BuildSite).
func buildSite(ctx context.Context, dir string, rels []string, opts reference.Options, out string, quiet bool, stderr io.Writer) error {
	if len(opts.APIs) > 0 {
		return usagef("build: -apis builds part of one release; a site of releases has every API (give -release to build one)")
	}
	if opts.Formats&reference.HTML == 0 {
		return usagef("build: -format %s: a site of releases is pages, so -format must include html (or give -release)", opts.Formats)
	}
	cats, sources, err := loadReleases(ctx, dir, rels, quiet, stderr)
	if err != nil {
		return fmt.Errorf("build: %w", err)
	}
	so := reference.SiteOptions{Options: opts, Sources: sources}
	if !quiet && isTerminal(stderr) && os.Getenv("CI") == "" {
		so.Progress = stderr
	}
	start := time.Now()
	sum, err := reference.BuildSite(ctx, cats, out, so)
	if err != nil {
		return fmt.Errorf("build: %w", err)
	}
	if !quiet {
		files, bytes := sum.Files, sum.Bytes
		for _, s := range sum.Releases {
			files += s.Files
			bytes += s.Bytes
		}
		fmt.Fprintf(stderr, "kafkagrid: built %s (%s) into %s: %s, %s (search index %s), in %s\n",
			plural(len(rels), "release"), strings.Join(rels, ", "), out, plural(files, "file"), humanBytes(bytes),
			humanBytes(int64(sum.SearchIndex)), time.Since(start).Round(time.Millisecond))
	}
	return nil
}

// writeMatrixJSON is "kafkagrid list -format json" over a folder of releases: every API's
// release × version matrix.
func writeMatrixJSON(ctx context.Context, w io.Writer, dir string, rels []string, quiet bool, stderr io.Writer) error {
	cats, _, err := loadReleases(ctx, dir, rels, quiet, stderr)
	if err != nil {
		return fmt.Errorf("list: %w", err)
	}
	h, err := reference.NewHistory(cats)
	if err != nil {
		return fmt.Errorf("list: %w", err)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(h.Matrix()); err != nil {
		return fmt.Errorf("list: %w", err)
	}
	return nil
}
