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
// version: all for "", a list ("3.9,4.0"), or a range ("2.2-4.1", both ends in the folder).
func pickReleases(dir, pick string) ([]string, error) {
	all, err := releasesIn(dir)
	if err != nil {
		return nil, err
	}
	pick = strings.TrimSpace(pick)
	if pick == "" {
		return all, nil
	}
	pos := map[string]int{}
	for i, r := range all {
		pos[r] = i
	}
	have := func(r string) (int, error) {
		i, ok := pos[r]
		if !ok {
			return 0, usagef("-releases: no release %q (the folder has %s)", r, strings.Join(all, ", "))
		}
		return i, nil
	}
	want := map[int]bool{}
	for _, part := range strings.Split(pick, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			return nil, usagef("-releases %q: an empty name", pick)
		}
		if lo, hi, ok := splitRange(all, part); ok && !isName(all, part) {
			i, err := have(lo)
			j, err2 := have(hi)
			switch {
			case err == nil && err2 == nil && i > j:
				return nil, usagef("-releases %s: %s comes after %s", part, lo, hi)
			case err == nil && err2 == nil:
				for k := i; k <= j; k++ {
					want[k] = true
				}
				continue
			case err == nil:
				err = err2
			}
			if strings.Count(part, "-") > 1 { // a name with dashes of its own, or a range
				return nil, usagef("-releases: no release %q, nor a range of two releases (%s)", part, strings.TrimPrefix(err.Error(), "-releases: "))
			}
			return nil, err
		}
		i, err := have(part)
		if err != nil {
			return nil, err
		}
		want[i] = true
	}
	var out []string
	for i, r := range all {
		if want[i] {
			out = append(out, r)
		}
	}
	return out, nil
}

// splitRange splits a range of releases "LO-HI" at the dash where both ends are releases in
// names, for names with dashes of their own ("3.9-4.0-trunk-2024-10"); when no dash does, at
// the first one, so that the error names the end that is not there.
func splitRange(names []string, part string) (lo, hi string, ok bool) {
	for i := range len(part) {
		if part[i] != '-' {
			continue
		}
		l, h := strings.TrimSpace(part[:i]), strings.TrimSpace(part[i+1:])
		if !ok {
			lo, hi, ok = l, h, true
		}
		if isName(names, l) && isName(names, h) {
			return l, h, true
		}
	}
	return lo, hi, ok
}

func isName(names []string, s string) bool {
	for _, n := range names {
		if n == s {
			return true
		}
	}
	return false
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
