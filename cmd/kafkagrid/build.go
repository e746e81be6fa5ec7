package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/kafkagrid/kafkagrid/canvas/pdfcanvas"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site/reference"
)

// runBuild implements "kafkagrid build": the whole reference of a release (SVG, HTML pages,
// the PDF book, binary frames, annotated JSON, text) into one folder.
func runBuild(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("build", "[-schemas PATH | -kafka REF] [-release RELEASE] [-out DIR] [-format LIST] [-apis LIST] [-versions LIST] [-paper a4|letter] [-name NAME] [-q] [-v]", stdout, stderr)
	sf := addSchemaFlags(fs)
	out := fs.String("out", "out", "output `DIR`; created if needed; a build replaces only the files kafkagrid wrote there\n"+
		"(its .kafkagrid-manifest lists them) and stops at any other file in its way (see -force)")
	formats := fs.String("format", "all", "comma-separated `LIST` of outputs: svg,html,pdf,bin,json,txt")
	apis := fs.String("apis", "", "comma-separated `LIST` of APIs (names or keys) to build; default all")
	versions := fs.String("versions", "all", "versions of each API to build: all, highest, or a `LIST` such as 0,3-5 or 9+;\n"+
		"the book has each API's highest version unless -versions is given")
	paper := fs.String("paper", "a4", "`SIZE` of the PDF book's pages: a4 or letter")
	force := fs.Bool("force", false, "replace files in the output folder that kafkagrid did not write (not in its manifest)")
	verbose := sf.verbose
	fs.Lookup("v").Usage = "verbose: the notes on schema files read leniently (Kafka's own files have a few),\n" +
		"and the example overrides left out because this release or version lacks their field"
	compression := fs.String("compression", "none", "compress the examples' record batches: `CODEC` none, gzip, snappy,\n"+
		"snappy-xerial (the framing Java clients write), lz4 or zstd; legacy message sets (Produce\n"+
		"v0-v2, Fetch v0-v3) get a compressed wrapper message. A version whose records may not\n"+
		"carry the codec (zstd before Produce v7 and Fetch v10, KIP-110, and in every message\n"+
		"set) keeps them uncompressed, said once on stderr")
	releases := fs.String("releases", "", releasesUsage)
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("build: unexpected argument %q", rest[0])
	}
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	opts, err := buildOptions(ctx, set, buildFlags{formats: *formats, paper: *paper, out: *out, versions: *versions,
		compression: *compression, apis: *apis, force: *force})
	if err != nil {
		return err
	}

	quiet := sf.quiet
	if opts.Decoder == nil && opts.Formats&reference.HTML != 0 && !*quiet {
		fmt.Fprintln(stderr, "kafkagrid: note: the site has no decode.html (the browser decoder): this kafkagrid was built without it; "+
			"run go generate ./cmd/kafkagrid before go install (README: The two commands)")
	}
	if dir, rels, ok, err := sf.releaseFolder(*releases); err != nil || ok {
		if err != nil {
			return err
		}
		return buildSite(ctx, dir, rels, opts, *out, *quiet, stderr) // a site of releases (site.go)
	}
	cat, src, err := sf.load(ctx, stderr)
	if err != nil {
		return fmt.Errorf("build: %w", err)
	}
	opts.Source = src.desc
	if r := cat.Release; !*quiet && *sf.name == "" && r.Name() == filepath.Base(r.Dir) && r.KnownRelease() == "" && !releaseLike(r.Name()) {
		fmt.Fprintf(stderr, "kafkagrid: note: the release is named %q after its folder: its schemas match no release kafkagrid knows, "+
			"and it is not a Kafka checkout with a gradle.properties; -name NAME names it\n", r.Name())
	}
	if *verbose {
		opts.Verbose = stderr
	}
	if opts.APIs, err = lookupAPIs(cat, opts.APIs); err != nil {
		return err
	}
	if !*quiet && isTerminal(stderr) && os.Getenv("CI") == "" {
		opts.Progress = stderr
	}
	start := time.Now()
	sum, err := reference.Build(ctx, cat, *out, opts)
	if err != nil {
		return fmt.Errorf("build: %w", err)
	}
	if !*quiet {
		for _, n := range sum.Notes {
			fmt.Fprintf(stderr, "kafkagrid: note: %s\n", n)
		}
		fmt.Fprintf(stderr, "kafkagrid: built %s (%s) of Kafka %s into %s: %s, %s, in %s\n",
			plural(sum.APIs, "API"), plural(sum.Versions, "version"), cat.Release.Name(), *out, plural(sum.Files, "file"), humanBytes(sum.Bytes), time.Since(start).Round(time.Millisecond))
	}
	return nil
}

// buildFlags are the values of build's flags that make its reference.Options.
type buildFlags struct {
	formats, paper, out, versions, compression, apis string
	force                                            bool
}

// buildOptions checks build's flags (set: those given) and makes the build's options.
func buildOptions(ctx context.Context, set map[string]bool, fl buildFlags) (reference.Options, error) {
	var opts reference.Options
	// An explicitly empty list is a mistake (a shell variable that came out empty, say), not a
	// request for everything: only leaving the flag out means "all".
	if set["format"] && strings.Trim(fl.formats, ", \t") == "" {
		return opts, usagef("build: -format: empty list (want svg, html, pdf, bin, json or txt, or all)")
	}
	f, err := reference.ParseFormats(fl.formats)
	if err != nil {
		return opts, usagef("build: -format: %v", strings.TrimPrefix(err.Error(), "reference: "))
	}
	p, err := reference.ParsePaper(fl.paper)
	if err != nil {
		return opts, usagef("build: -paper: %v", strings.TrimPrefix(err.Error(), "reference: "))
	}
	if fl.out == "" {
		return opts, usagef("build: -out must name a folder")
	}
	opts = reference.Options{Formats: f, Paper: p, Force: fl.force, Temps: tempsFrom(ctx), Decoder: webDecoder()}
	if opts.Versions, err = kafka.ParseVersionSet(fl.versions); err != nil {
		return opts, usagef("build: -versions: %v", strings.TrimPrefix(err.Error(), "kafka: "))
	}
	if set["versions"] {
		opts.BookVersions = opts.Versions
	}
	codecName := strings.TrimSuffix(fl.compression, "-xerial")
	codec, err := kafka.ParseCodec(codecName)
	if err != nil || (codecName != fl.compression && codec != kafka.CodecSnappy) {
		return opts, usagef("build: -compression %q: want none, gzip, snappy, snappy-xerial, lz4 or zstd", fl.compression)
	}
	opts.Compression, opts.Xerial = codec, codecName != fl.compression
	for _, a := range strings.Split(fl.apis, ",") {
		if a = strings.TrimSpace(a); a != "" {
			opts.APIs = append(opts.APIs, a)
		}
	}
	if set["apis"] && len(opts.APIs) == 0 {
		return opts, usagef("build: -apis: empty list (leave -apis out to build every API)")
	}
	if opts.Date, err = sourceDate(); err != nil {
		return opts, fmt.Errorf("build: %w", err)
	}
	return opts, nil
}

// lookupAPIs checks the names or keys given to -apis against cat and returns them with each
// API named once (by its name), in the order first given: "Produce,0,Produce" is one API.
func lookupAPIs(cat *kafka.Catalog, names []string) ([]string, error) {
	var out []string
	seen := map[*kafka.API]bool{}
	for _, n := range names {
		a, ok := cat.Lookup(n)
		if !ok {
			return nil, usageError{noAPI("build: -apis", cat, n)}
		}
		if !seen[a] {
			seen[a] = true
			out = append(out, a.Name)
		}
	}
	return out, nil
}

// plural counts n things: "1 API", "2 APIs".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// sourceDate is the date of every PDF a verb writes: SOURCE_DATE_EPOCH (reproducible builds)
// when set, else a fixed date; a bad value fails the verb (pdfcanvas.SourceDate, the one rule).
func sourceDate() (time.Time, error) {
	return pdfcanvas.SourceDate(os.Getenv("SOURCE_DATE_EPOCH"))
}

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// releaseLike reports whether a folder's name reads as a release's: a version ("4.3",
// "4.1.0-rc1") or trunk.
func releaseLike(name string) bool {
	return name == "trunk" || name != "" && name[0] >= '0' && name[0] <= '9' && strings.Contains(name, ".")
}
