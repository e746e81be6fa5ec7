package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/kafkagrid/kafkagrid/internal/releasedir"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/schemas"
	"github.com/kafkagrid/kafkagrid/schemas/fetch"
)

// defaultRelease is the release picked from a folder of releases, or from the download cache,
// when -release is not given.
const defaultRelease = "4.0"

// archiveURLEnv overrides the server -kafka downloads from (tests point it at a local server).
const archiveURLEnv = "KAFKAGRID_ARCHIVE_URL"

// cacheDirEnv overrides the download cache folder (tests point it at a temporary folder).
const cacheDirEnv = "KAFKAGRID_CACHE"

// schemaFlags are the flags every verb that reads Kafka's schemas takes: where the schemas are,
// what the release is called, -q to keep progress off stderr and -v for the notes on the
// schema files.
type schemaFlags struct {
	schemas, release, ref, name *string
	quiet, verbose              *bool
}

// addSchemaFlags adds -schemas, -release, -kafka, -name, -q and -v to a verb's flags.
func addSchemaFlags(fs *verbFlags) *schemaFlags {
	return &schemaFlags{
		name: fs.String("name", "", "`NAME` of the release, for titles, file names and the output folder's manifest, where\n"+
			"its contents do not say it (a jar's version, a Kafka checkout's gradle.properties, or a\n"+
			"release kafkagrid knows name it; else the folder's name)"),
		verbose: fs.Bool("v", false, "verbose: the notes on schema files read leniently (Kafka's own files have a few:\n"+
			"4.0's BrokerHeartbeatRequest.json gives a tag as a string)"),
		schemas: fs.String("schemas", "", "`PATH` of Kafka's message specs: one release's folder (a Kafka checkout's\n"+
			"clients/src/main/resources/common/message), a folder of release folders (3.9/, 4.0/, …),\n"+
			"a kafka-clients-*.jar, or a Kafka installation folder (libs/kafka-clients-*.jar);\n"+
			"default $KAFKA_SCHEMAS"),
		release: fs.String("release", "", "`RELEASE` to pick from a folder of releases or from the download cache\n"+
			"(default \""+defaultRelease+"\")"),
		ref: fs.String("kafka", "", "use the schemas of apache/kafka branch or tag `REF` (e.g. 4.0): downloaded once,\n"+
			"then read from the user cache folder without the network"),
		quiet: fs.Bool("q", false, "quiet: no progress, no summary"),
	}
}

// source is where a verb's schemas were found.
type source struct {
	path string // a release folder, a jar, or a Kafka installation folder
	desc string // for the index and the book: "schema folder 4.0 (…)", "apache/kafka 4.0, …"
}

// find resolves the flags to one release's schemas, trying in order: -schemas, -kafka,
// $KAFKA_SCHEMAS, then a release in the download cache. With none of them, the error names
// every way, in that order.
func (f *schemaFlags) find(ctx context.Context, stderr io.Writer) (source, error) {
	switch {
	case *f.schemas != "" && *f.ref != "":
		return source{}, usagef("give -schemas or -kafka, not both")
	case *f.ref != "" && *f.release != "":
		return source{}, usagef("-release picks from a folder of releases; -kafka %s names its release already", *f.ref)
	case *f.schemas != "":
		return f.resolve(*f.schemas, "-schemas")
	case *f.ref != "":
		fo := fetch.Options{BaseURL: os.Getenv(archiveURLEnv), CacheDir: os.Getenv(cacheDirEnv)}
		if !*f.quiet {
			fo.Log = stderr
		}
		dir, err := fetch.Schemas(ctx, *f.ref, fo)
		if err != nil {
			return source{}, err
		}
		return source{dir, "apache/kafka " + *f.ref + ", " + strings.TrimSuffix(fetch.MessageDir, "/")}, nil
	case os.Getenv("KAFKA_SCHEMAS") != "":
		return f.resolve(os.Getenv("KAFKA_SCHEMAS"), "KAFKA_SCHEMAS")
	}
	cache, cerr := cacheDir()
	rel := *f.release
	if rel == "" {
		rel = defaultRelease
	}
	if cerr == nil {
		if err := checkReleaseName(rel); err != nil {
			return source{}, err
		}
		if d := filepath.Join(cache, rel); isReleaseDir(d) {
			if err := fetch.Verify(d); err != nil { // planted, or changed since it was downloaded
				return source{}, err
			}
			return source{d, "apache/kafka " + rel + ", " + strings.TrimSuffix(fetch.MessageDir, "/") + " (cached download)"}, nil
		}
	}
	where := "the user cache folder"
	if cerr == nil {
		where = cache
		if rels, _ := releasesIn(cache); len(rels) > 0 {
			where += " (it has " + strings.Join(rels, ", ") + ")"
		}
	}
	return source{}, usagef("no Kafka schemas. Give them in one of these ways, tried in this order:\n"+
		"  -schemas PATH       a release's message folder (a Kafka checkout's %s),\n"+
		"                      a folder of such folders (-release picks one, default %s),\n"+
		"                      a kafka-clients-*.jar, or a Kafka installation folder\n"+
		"  -kafka REF          a branch or tag of apache/kafka (e.g. 4.0), downloaded once and cached\n"+
		"  KAFKA_SCHEMAS=PATH  the same forms as -schemas, from the environment\n"+
		"  -release RELEASE    a release downloaded before with -kafka; none is %s in %s",
		strings.TrimSuffix(fetch.MessageDir, "/"), defaultRelease, rel, where)
}

// resolve turns a -schemas or $KAFKA_SCHEMAS path into one release: the path itself when it is
// a release folder, a jar or an installation, else its sub-folder picked by -release.
func (f *schemaFlags) resolve(src, from string) (source, error) {
	fi, err := os.Stat(src)
	if err != nil {
		return source{}, fmt.Errorf("%s: %w", from, err)
	}
	name := filepath.Base(filepath.Clean(src))
	single := func(kind string) (source, error) {
		if *f.release != "" {
			return source{}, usagef("-release %s does not apply: %s %s is %s, not a folder of releases",
				*f.release, from, src, kind)
		}
		return source{src, kind}, nil
	}
	switch {
	case !fi.IsDir():
		if !strings.HasSuffix(src, ".jar") {
			return source{}, fmt.Errorf("%s: %s is not a folder, nor a kafka-clients .jar", from, src)
		}
		return single("the kafka-clients jar " + name)
	case isReleaseDir(src):
		if *f.release != "" && *f.release != name {
			return source{}, usagef("-release %s does not apply: %s %s is one release's folder (%s), not a folder of releases",
				*f.release, from, src, name)
		}
		return source{src, "schema folder " + name + " (" + strings.TrimSuffix(fetch.MessageDir, "/") + " of a Kafka checkout)"}, nil
	case len(schemas.InstallJars(src)) > 0:
		return single("the Kafka installation " + name)
	}
	rel := *f.release
	if rel == "" {
		rel = defaultRelease
	}
	if err := checkReleaseName(rel); err != nil {
		return source{}, err
	}
	if dir := filepath.Join(src, rel); isReleaseDir(dir) {
		return source{dir, "schema folder " + rel + " (" + strings.TrimSuffix(fetch.MessageDir, "/") + " of a Kafka checkout)"}, nil
	}
	rels, err := releasesIn(src)
	if err != nil {
		return source{}, fmt.Errorf("%s: %w", from, err)
	}
	if len(rels) > 0 {
		return source{}, fmt.Errorf("%s: %s has no release %q (it has %s); choose one with -release",
			from, src, rel, strings.Join(rels, ", "))
	}
	return source{}, fmt.Errorf("%s: %s holds no *.json message specs, nor release folders of them, "+
		"nor a Kafka installation's libs/kafka-clients-*.jar", from, src)
}

// load finds the schemas (find), loads them, prints the notes on lenient input (unless -q) and
// returns the catalogue.
func (f *schemaFlags) load(ctx context.Context, stderr io.Writer) (*kafka.Catalog, source, error) {
	src, err := f.find(ctx, stderr)
	if err != nil {
		return nil, src, err
	}
	if err := ctx.Err(); err != nil {
		return nil, src, err
	}
	r, err := f.open(src.path, stderr)
	if err != nil {
		return nil, src, err
	}
	c, err := kafka.NewCatalog(r)
	return c, src, err
}

// loadAPI is load for a verb that shows the one API nameOrKey: from a release folder, without
// -v (whose notes are every file's), only that API's specs are parsed (kafka.LoadAPI); else,
// or when LoadAPI cannot tell, the whole release is loaded and api is nil.
func (f *schemaFlags) loadAPI(ctx context.Context, stderr io.Writer, nameOrKey string) (*kafka.Catalog, *kafka.API, error) {
	src, err := f.find(ctx, stderr)
	if err != nil {
		return nil, nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	name := ""
	if f.name != nil {
		name = *f.name
	}
	if (f.verbose == nil || !*f.verbose) && checkName(name) == nil && isReleaseDir(src.path) {
		if cat, a, ok := kafka.LoadAPI(src.path, nameOrKey, name); ok {
			return cat, a, nil
		}
	}
	r, err := f.open(src.path, stderr)
	if err != nil {
		return nil, nil, err
	}
	cat, err := kafka.NewCatalog(r)
	return cat, nil, err
}

// open reads the release at path, names it -name if given, and prints the notes on lenient
// input with -v: most are about Kafka's own files, which a user cannot act on.
func (f *schemaFlags) open(path string, stderr io.Writer) (*schemas.Release, error) {
	name := ""
	if f.name != nil {
		name = *f.name
	}
	if name != "" {
		if err := checkName(name); err != nil {
			return nil, err
		}
	}
	r, err := schemas.Open(path)
	if err != nil {
		return nil, err
	}
	if name != "" {
		r.SetName(name)
	}
	if f.verbose != nil && *f.verbose {
		for _, n := range r.Notes() {
			fmt.Fprintln(stderr, n)
		}
	}
	return r, nil
}

// checkName accepts a -name that can stand in a file name ("kafka-NAME-protocol.pdf") and on
// one line of the manifest.
func checkName(name string) error {
	if name == "." || name == ".." || len(name) > 64 || strings.ContainsAny(name, "/\\\n\r\t ") {
		return usagef("-name %q: want a release name such as 4.0.0 or trunk (no spaces or slashes, at most 64 bytes)", name)
	}
	for _, r := range name {
		if r < ' ' || r == 0x7f {
			return usagef("-name %q: want a release name such as 4.0.0 or trunk (no control characters)", name)
		}
	}
	return nil
}

func checkReleaseName(rel string) error {
	if strings.ContainsAny(rel, `/\`) || rel == "." || rel == ".." {
		return usagef("-release %q: want a release folder name such as %s", rel, defaultRelease)
	}
	return nil
}

// cacheDir is where -kafka keeps its downloads: $KAFKAGRID_CACHE, else the user cache folder's
// kafkagrid/schemas.
func cacheDir() (string, error) {
	if d := os.Getenv(cacheDirEnv); d != "" {
		return d, nil
	}
	return fetch.DefaultCacheDir()
}

// isReleaseDir reports whether dir holds *.json files: one release's specs.
func isReleaseDir(dir string) bool { return releasedir.IsRelease(dir) }

// releasesIn returns the entries of dir that are release folders, or symbolic links to
// release folders, in version order; with an error for a link that dangles or loops, beside
// the releases the other entries are.
func releasesIn(dir string) ([]string, error) { return releasedir.List(dir) }
