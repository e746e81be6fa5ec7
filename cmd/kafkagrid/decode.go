package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"github.com/kafkagrid/kafkagrid/internal/heapfloor"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/kafkagrid/kafkagrid/capture"
	"github.com/kafkagrid/kafkagrid/capture/decode"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/schemas"
	"github.com/kafkagrid/kafkagrid/site/report"
)

// runDecode implements "kafkagrid decode": read frames in any form (a .bin frame, frames back
// to back, a hex dump, a pcap or pcapng capture), pair responses with their requests, and
// print each frame's annotated tree; -o DIR writes the HTML report and per-frame files. A
// response file named as build names it decodes as that response. Text is read in any of the
// forms capture.ParseText tells apart (-from forces one); bytes that are no whole frames are
// read without their size prefix or as a body (-no-size, -body), and a lone frame that does not
// decode (a response without its request, a version this release lacks) is tried at every
// version of its API, or of every API, in this release and the others beside it (package capture/decode).
// A frame that does not decode prints the tree decoded up to the failure, then the error
// (exit status 1); the other frames still decode.
func runDecode(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("decode", "[-schemas PATH | -kafka REF] [-release RELEASE] [-api NAME [-version N]] [-from FORM] [-no-size | -body] [-request | -response] [-port P,...] [-format txt|json [-indent]] [-o DIR] FILE|-", stdout, stderr)
	sf := addSchemaFlags(fs)
	response := fs.Bool("response", false, "the input is one response (with -api); responses are otherwise recognised by their request or file name")
	request := fs.Bool("request", false, "the input is one request (with -body: its API's body)")
	apiName := fs.String("api", "", "`NAME` or key of the API of responses whose request is not in the input (\"Produce\", \"0\"),\n"+
		"or of a body (-body)")
	version := fs.Int("version", -1, "`N`: their version; default every version that decodes the bytes whole, best first")
	from := fs.String("from", "", "read the input as `FORM`: hex, dump (xxd, hexdump -C, od, tshark, Netty, tables),\n"+
		"list (Go, Rust, C, Java, JavaScript, Python, Node Buffer JSON), string, base64, or bin;\n"+
		"default: told by the content")
	noSize := fs.Bool("no-size", false, "the frame has no int32 size prefix (otherwise detected)")
	body := fs.Bool("body", false, "the input is a body alone, without size and header (-api, and -request or -response;\n"+
		"otherwise detected when the bytes are no frame)")
	format := fs.String("format", "txt", "output `FORMAT`: txt (one node per line: offset, length, type, name = value,\n"+
		"indented by depth) or json (the frame with its annotated tree; several frames: JSON Lines,\n"+
		"one exchange a line as it completes, then a summary line with the notes)")
	indent := fs.Bool("indent", false, "indent the JSON (two spaces); it is compact by default")
	ports := fs.String("port", "9092", "Kafka `PORTS` of a capture, comma-separated (connections on other ports are read\n"+
		"when their first bytes are a Kafka request)")
	maxFields := fs.Int("max-fields", capture.DefaultMaxNodes, "decode at most `N` fields (tree nodes) a frame of a capture (decoded as it streams, each frame\n"+
		"dropped once written, into a report -o too), or of all the frames of another input together,\n"+
		"which bounds memory (about 400 bytes a field); a frame stops where the limit is reached")
	out := fs.String("o", "", "write the HTML report (index.html) and each frame's grid and tree SVGs, .json and .txt into\n"+
		"`DIR` instead of printing the frames, and print a one-line summary (unless -q)")
	names, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(names) != 1 {
		return usagef("decode: want one FILE.bin, hex dump or capture (or - for stdin), have %d arguments", len(names))
	}
	if *format = outputFormat(*format); *format != "txt" && *format != "json" {
		return usagef("decode: -format %q: want txt or json", *format)
	}
	df := decode.Flags{API: *apiName, Version: *version, Request: *request, Response: *response,
		From: *from, NoSize: *noSize, Body: *body, Ports: *ports, MaxFields: *maxFields}
	if err := df.Check(); err != nil {
		return decodeUsage(err)
	}
	name := names[0]
	// A capture is read as it streams, frame by frame, never whole (its report too, exchange by
	// exchange); any other input is read whole, at most maxInput bytes.
	in, isPcap, err := openInput(name)
	if err != nil {
		return fmt.Errorf("decode: %s: %w", shownName(name), err)
	}
	defer in.Close()
	streamed := isPcap
	var data []byte
	if !streamed {
		if data, err = in.readAll(name); err != nil {
			var pe *os.PathError
			if errors.As(err, &pe) {
				return fmt.Errorf("decode: %s: %w", shownName(name), pe.Err)
			}
			return fmt.Errorf("decode: %w", err)
		}
	}
	c, src, err := sf.load(ctx, stderr)
	if err != nil {
		return fmt.Errorf("decode: %w", err)
	}
	rd, err := decode.NewReader(ctx, c, df, name, siblingReleases(sf, src))
	if err != nil {
		return decodeUsage(err)
	}
	if streamed && *out != "" {
		return streamReport(ctx, c, name, in, rd.Options, *out, stderr, *sf.quiet)
	}
	if streamed {
		return streamDecode(ctx, c, name, in, rd.Options, stdout, *format, *indent)
	}
	r, err := rd.Read(data)
	if err != nil {
		return fmt.Errorf("decode: %s: %w", shownName(name), err)
	}
	if *out == "" {
		if err := decode.Write(&ctxWriter{ctx: ctx, w: stdout}, r, decode.Format{JSON: *format == "json", Indent: *indent}); err != nil {
			return fmt.Errorf("decode: %w", err)
		}
		if *format == "json" && !*sf.quiet {
			// The JSON of one frame is the frame alone: what was assumed goes to stderr.
			for _, n := range decode.JSONNotes(r) {
				fmt.Fprintf(stderr, "kafkagrid: decode: note: %s\n", n)
			}
		}
	}
	if *out != "" {
		if err := writeReport(ctx, *out, r, report.Options{Title: "kafkagrid decode " + name}); err != nil {
			return fmt.Errorf("decode: %w", err)
		}
		all, ok := r.Frames()
		if !*sf.quiet {
			fmt.Fprintf(stderr, "kafkagrid: decode: %s (%d decoded) in %s: report in %s\n", plural(all, "frame"), ok, plural(len(r.Conns), "connection"), *out)
		}
	}
	return decodeStatus(c, name, r, decode.CountOf(r))
}

// decodeUsage is decode's error for an error of the library's: a usage error (exit status 2)
// when it is one.
func decodeUsage(err error) error {
	if u := (*decode.UsageError)(nil); errors.As(err, &u) {
		return usageError{fmt.Errorf("decode: %w", u.Err)}
	}
	return err
}

// decodeStatus is decode's error for what it read (decode.Status), after the input's name.
func decodeStatus(c *kafka.Catalog, name string, r *capture.Result, n decode.Count) error {
	if err := decode.Status(c, r, n); err != nil {
		return fmt.Errorf("decode: %s: %w", shownName(name), err)
	}
	return nil
}

// decodeHeapFloor is the block heapfloor.Hold keeps while a capture streams: the collector
// then runs a cycle every 30 MiB or so the decoder allocates, not every 8 (its live heap).
var decodeHeapFloor = 16 << 20

// streamDecode decodes a capture as capture.Stream reads it, writing each exchange as it
// completes (decode.WriteStream), then says decode's outcome.
func streamDecode(ctx context.Context, c *kafka.Catalog, name string, in io.Reader, o capture.Options, stdout io.Writer, format string, indent bool) error {
	defer heapfloor.Hold(decodeHeapFloor)()
	r, n, err := decode.WriteStream(&ctxWriter{ctx: ctx, w: stdout}, c, in, o, decode.Format{JSON: format == "json", Indent: indent})
	if ie := (*decode.InputError)(nil); errors.As(err, &ie) {
		return fmt.Errorf("decode: %s: %w", shownName(name), ie.Err)
	}
	if err != nil {
		return fmt.Errorf("decode: %w", err)
	}
	return decodeStatus(c, name, r, n)
}

// streamReport writes the report of a capture (-o dir) as capture.Stream reads it
// (reportStream), into an output folder by build's rules (report.New's outdir.Folder).
func streamReport(ctx context.Context, c *kafka.Catalog, name string, in io.Reader, o capture.Options, dir string, stderr io.Writer, quiet bool) error {
	w, err := report.New(dir, report.Options{Title: "kafkagrid decode " + name, Context: ctx, Temps: tempsFrom(ctx)})
	if err != nil {
		return fmt.Errorf("decode: %w", err)
	}
	r, n, err := reportStream(c, in, o, w)
	if err != nil {
		if ctx.Err() == nil {
			return fmt.Errorf("decode: %s: %w", shownName(name), err)
		}
		return fmt.Errorf("decode: %w", err)
	}
	if !quiet {
		fmt.Fprintf(stderr, "kafkagrid: decode: %s (%d decoded) in %s: report in %s\n", plural(n.Frames, "frame"), n.Frames-n.Failed, plural(len(r.Conns), "connection"), dir)
	}
	return decodeStatus(c, name, r, n)
}

// reportStream writes the report of a capture with w as decode.Stream reads it: each
// exchange's page as it completes (report.Writer.Add), the index once the capture is read
// (Close); on failure w is aborted.
func reportStream(c *kafka.Catalog, in io.Reader, o capture.Options, w *report.Writer) (*capture.Result, decode.Count, error) {
	r, n, err := decode.Stream(c, in, o, w.Add)
	if err != nil {
		w.Abort()
		return nil, n, err
	}
	return r, n, w.Close(r)
}

// writeReport writes the report of r into the folder dir with the protections of build's
// output folder (report.Write's outdir.Folder): one writer at a time, files put in place by
// rename, temporaries removed on a signal, only a report's own files replaced, none through
// a link; the files of an earlier report there that this one does not write again are removed.
func writeReport(ctx context.Context, dir string, r *capture.Result, o report.Options) error {
	o.Context, o.Temps = ctx, tempsFrom(ctx)
	return report.Write(dir, r, o)
}

// siblingReleases returns a loader of the other releases beside the one decode uses, when the
// schemas came from a folder of releases (-schemas DIR, $KAFKA_SCHEMAS or the download cache)
// or from one release's folder beside others (-schemas DIR/4.0): newest first, each loaded
// once, those that do not load left out; and the flag that picks one of them.
func siblingReleases(sf *schemaFlags, src source) decode.Releases {
	flagName, given := "-schemas", *sf.schemas
	if given == "" && *sf.ref == "" {
		flagName, given = "KAFKA_SCHEMAS=", os.Getenv("KAFKA_SCHEMAS")
	}
	parent := filepath.Dir(filepath.Clean(src.path))
	flag := func(rel string) string { return "-release " + rel }
	switch {
	case *sf.ref != "":
		flag = func(rel string) string { return "-kafka " + rel }
	case given != "" && filepath.Clean(given) == parent:
	case given != "" && filepath.Clean(given) == filepath.Clean(src.path) && siblings(parent) > 1:
		// One release's folder among others: name the other's folder.
		dir := filepath.Dir(given)
		flag = func(rel string) string {
			if flagName == "-schemas" {
				return "-schemas " + filepath.Join(dir, rel)
			}
			return flagName + filepath.Join(dir, rel)
		}
	default:
		return decode.Releases{Flag: flag} // a jar, an installation, or a release alone
	}
	var loaded []capture.Release
	done := false
	return decode.Releases{Flag: flag, Others: func() []capture.Release {
		if done {
			return loaded
		}
		done = true
		rels, _ := releasesIn(parent) // a link that dangles or loops: left out, as a release that does not load
		slices.Reverse(rels)
		for _, rel := range rels {
			if filepath.Join(parent, rel) == filepath.Clean(src.path) {
				continue
			}
			r, err := schemas.Open(filepath.Join(parent, rel))
			if err != nil {
				continue
			}
			c, err := kafka.NewCatalog(r)
			if err != nil {
				continue
			}
			loaded = append(loaded, capture.Release{Name: rel, Catalog: c})
		}
		return loaded
	}}
}

// siblings counts the releases in parent, a release's folder's (the links that dangle or loop
// left out).
func siblings(parent string) int {
	rels, _ := releasesIn(parent)
	return len(rels)
}

// ctxWriter stops writing once ctx is done: a long output stops soon after a signal.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c *ctxWriter) Write(p []byte) (int, error) {
	if err := context.Cause(c.ctx); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}

// shownName is a file name as messages show it: as it is, or quoted when it holds a newline or
// another control character, which printed raw would forge or break lines of the output.
func shownName(name string) string {
	for _, r := range name {
		if r < 0x20 || r == 0x7f || r == 0x85 || r == 0x2028 || r == 0x2029 {
			return strconv.Quote(name)
		}
	}
	return name
}

// maxInput bounds what decode reads whole, a dump or frames: larger than this is refused
// before it is read, rather than exhausting memory (decoding them keeps annotated trees
// several times the size of the frames). A capture, printed or reported (-o), is streamed and
// has no such bound.
const maxInput = 256 << 20

// input is decode's input, a file or standard input, its first bytes looked at.
type input struct {
	name string
	f    *os.File // nil for standard input
	br   *bufio.Reader
}

// openInput opens a file, or standard input for "-", and tells whether it is a pcap or pcapng
// capture, which decode reads as it streams.
func openInput(name string) (*input, bool, error) {
	in := &input{name: name}
	r := io.Reader(os.Stdin)
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			var pe *os.PathError
			if errors.As(err, &pe) {
				return nil, false, pe.Err
			}
			return nil, false, err
		}
		in.f, r = f, f
	}
	in.br = bufio.NewReaderSize(r, 64<<10)
	head, _ := in.br.Peek(4) // an error (a folder, say) is the read's to report
	return in, capture.IsPcap(head), nil
}

func (in *input) Read(p []byte) (int, error) { return in.br.Read(p) }

func (in *input) Close() error {
	if in.f == nil {
		return nil
	}
	return in.f.Close()
}

// readAll reads the whole input, at most maxInput bytes: a file by its name (one buffer of its
// size), standard input from what was looked at.
func (in *input) readAll(name string) ([]byte, error) {
	if in.f != nil {
		in.f.Close()
		in.f = nil
		return readInput(name)
	}
	data, err := io.ReadAll(io.LimitReader(in.br, maxInput+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxInput {
		return nil, inputTooBig(name, -1)
	}
	return data, nil
}

func inputTooBig(name string, size int64) error {
	if size < 0 {
		return fmt.Errorf("%s: more than %d MiB, more than decode reads of anything but a capture", shownName(name), maxInput>>20)
	}
	return fmt.Errorf("%s is %d bytes, more than decode reads of anything but a capture (%d MiB)", shownName(name), size, maxInput>>20)
}

// readInput reads a file, or standard input for "-", of at most maxInput bytes.
func readInput(name string) ([]byte, error) {
	return readBounded(name, true, maxInput, func(size int64) error { return inputTooBig(name, size) })
}
