// Command kafkagrid turns Apache Kafka's JSON message schemas into a reference of the Kafka wire
// protocol: byte-exact example frames, RFC-style byte grids, expanded object trees, HTML pages
// and a PDF book.
//
// Usage:
//
//	kafkagrid <verb> [flags]
//
// Verbs: build, list, show, grid, decode, probe, diff, dissector, serve, md, mdbook, version. Run "kafkagrid <verb> -h" for a verb's flags.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/kafkagrid/kafkagrid/internal/suggest"
	"io"
	"runtime/debug"
	"sync/atomic"
	"time"

	"github.com/kafkagrid/kafkagrid/site/outdir"
)

// stopWithin is how long a verb has to stop after SIGINT or SIGTERM: it is cancelled at once,
// and the process exits when it returns or when this has passed, whichever comes first. A file
// being written then is a temporary one, which the next build removes.
const stopWithin = 100 * time.Millisecond

// graceKey is the context key of how long a verb asks main to wait for it after SIGINT or
// SIGTERM, beyond stopWithin (nanoseconds; serve: its requests under way, up to -timeout).
type graceKey struct{}

// graceFrom returns the verb's grace after a signal, or nil.
func graceFrom(ctx context.Context) *atomic.Int64 {
	g, _ := ctx.Value(graceKey{}).(*atomic.Int64)
	return g
}

// tempsKey is the context key of the process's set of temporary files (outdir.Temps).
type tempsKey struct{}

// tempsFrom returns the set of temporary files main removes on a forced stop, or nil.
func tempsFrom(ctx context.Context) *outdir.Temps {
	t, _ := ctx.Value(tempsKey{}).(*outdir.Temps)
	return t
}

// exitInternal is the status of a panic caught (sysexits' EX_SOFTWARE): a bug in kafkagrid,
// never 2, which says the command line was wrong.
const exitInternal = 70

// internalError is a panic of the verb, caught: its value and stack.
type internalError struct {
	value any
	stack []byte
}

func (e internalError) Error() string {
	return fmt.Sprintf("internal error (a bug in kafkagrid; please report it with the command line): %v\n%s", e.value, e.stack)
}

// runSafely runs f, turning a panic into an internalError.
func runSafely(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = internalError{r, debug.Stack()}
		}
	}()
	return f()
}

// usageError marks an error in the command line itself (exit status 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

// exitCode prints err once, prefixed "kafkagrid:", and returns the exit status.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if errors.Is(err, errDifferent) {
		return 1 // diff: the releases differ, said on stdout
	}
	fmt.Fprintln(stderr, "kafkagrid:", err)
	if errors.As(err, new(internalError)) {
		return exitInternal
	}
	var u usageError
	var trouble diffTrouble
	if errors.As(err, &u) || errors.As(err, &trouble) {
		return 2
	}
	return 1
}

// verb is one subcommand of kafkagrid.
type verb struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

func verbs() []verb {
	return []verb{
		{"build", "build the reference: SVG, HTML pages, PDF book, test vectors", runBuild},
		{"list", "print the catalogue of APIs of a Kafka release", runList},
		{"show", "print one API's example frame as text, SVG or JSON", runShow},
		{"grid", "draw a byte grid from a protocol description (YAML, RFC 9000 notation, bit-field JSON)", runGrid},
		{"decode", "decode frames, hex dumps and pcap captures into annotated trees and a report", runDecode},
		{"probe", "ask a live broker ApiVersions, Metadata, ... and draw its responses", runProbe},
		{"diff", "list what changed in the protocol between two releases", runDiff},
		{"dissector", "write a Wireshark Lua dissector of every API and version of the schemas", runDissector},
		{"serve", "a Kroki-compatible HTTP server of bytegrid and kafka diagrams, for docs tools", runServe},
		{"md", "draw the ```bytegrid and ```kafka blocks of Markdown files as SVG, links in their place", runMd},
		{"mdbook", "the same as an mdBook preprocessor (JSON on stdin and stdout)", runMdbook},
		{"version", "print kafkagrid's version, its source revision and Go's", runVersion},
	}
}

// run runs the verb args name. Help asked for (-h, help, help VERB) goes to stdout; a usage
// error's help to stderr.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		printUsage(stderr)
		return usagef("no verb given")
	}
	switch args[0] {
	case "-h", "-help", "--help":
		printUsage(stdout)
		return flag.ErrHelp
	case "help":
		if len(args) == 1 {
			printUsage(stdout)
			return flag.ErrHelp
		}
		args = []string{args[1], "-h"}
	}
	var names []string
	for _, v := range verbs() {
		if v.name == args[0] {
			return v.run(ctx, args[1:], stdout, stderr)
		}
		names = append(names, v.name)
	}
	if s := suggest.Closest(args[0], names); s != "" {
		return usagef("unknown verb %q; did you mean %s? (kafkagrid -h lists the verbs)", args[0], s)
	}
	return usagef("unknown verb %q (kafkagrid -h lists the verbs)", args[0])
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "kafkagrid: a reference of the Kafka wire protocol, drawn from Kafka's message schemas")
	fmt.Fprintln(w, "\nUsage:\n\n  kafkagrid <verb> [flags]\n\nVerbs:")
	for _, v := range verbs() {
		fmt.Fprintf(w, "  %-7s %s\n", v.name, v.summary)
	}
	fmt.Fprintln(w, "\nEvery verb that reads Kafka's schemas finds them the same way, in this order:")
	fmt.Fprintln(w, "  -schemas PATH   a release's message folder, a folder of releases (-release picks one,")
	fmt.Fprintln(w, "                  default "+defaultRelease+"), a kafka-clients-*.jar or a Kafka installation folder")
	fmt.Fprintln(w, "  -kafka REF      a branch or tag of apache/kafka, downloaded once and then cached")
	fmt.Fprintln(w, "  $KAFKA_SCHEMAS  the same forms as -schemas")
	fmt.Fprintln(w, "  -release REL    a release cached by an earlier -kafka download")
	fmt.Fprintln(w, "Run \"kafkagrid <verb> -h\" for a verb's flags.")
	fmt.Fprintln(w, "\nExit status: 0 success, 1 failure, 2 usage error, 130 interrupted (SIGINT), 143 terminated")
	fmt.Fprintln(w, "(SIGTERM); diff: 0 the same protocol, 1 differences, 2 trouble.")
}
