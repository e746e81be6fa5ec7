package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/kafkagrid/kafkagrid/capture"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site/report"
)

// runDecode implements "kafkagrid decode": read frames in any form (a .bin frame, frames back
// to back, a hex dump, a pcap or pcapng capture), pair responses with their requests, and
// print each frame's annotated tree; -o DIR writes the HTML report and per-frame files. A
// response file named as build names it decodes as that response. Text is read in any of the
// forms capture.ParseText tells apart (-from forces one); bytes that are no whole frames are
// read without their size prefix or as a body (-no-size, -body), and a lone frame that does not
// decode (a response without its request, a version this release lacks) is tried at every
// version of its API, or of every API, in this release and the others beside it (decodeshape.go).
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
	df := decodeFlags{api: *apiName, version: *version, request: *request, response: *response,
		from: *from, noSize: *noSize, body: *body, ports: *ports, maxFields: *maxFields}
	di, err := df.check()
	if err != nil {
		return err
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
	others, flagFor := siblingReleases(sf, src)
	o, search, err := df.reader(ctx, c, di, name, others, flagFor)
	if err != nil {
		return err
	}
	if streamed && *out != "" {
		return streamReport(ctx, c, name, in, o, *out, stderr, *sf.quiet)
	}
	if streamed {
		return streamDecode(ctx, c, name, in, o, stdout, *format, *indent)
	}
	r, err := search.read(data, di.binary, di.form, o, df.noSize, df.body)
	if err != nil {
		return fmt.Errorf("decode: %s: %w", shownName(name), err)
	}
	msgs := messages(r)
	if *out == "" {
		if err := printResult(&ctxWriter{ctx: ctx, w: stdout}, r, msgs, *format, *indent); err != nil {
			return fmt.Errorf("decode: %w", err)
		}
		if *format == "json" && len(msgs) == 1 && msgs[0].Frame != nil && !*sf.quiet {
			// The JSON of one frame is the frame alone: what was assumed goes to stderr.
			for _, n := range r.Notes {
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
	return readStatus(c, name, r, msgs)
}

// decodeFlags are decode's flags that say how to read the input, as the command line
// (runDecode) and the browser decoder's controls (pageRun) give them.
type decodeFlags struct {
	api               string // -api, or ""
	version           int    // -version, or -1
	request, response bool
	from              string // -from, or "" (told by the content)
	noSize, body      bool
	ports             string // -port: comma-separated
	maxFields         int
}

// decodeInput is what decodeFlags.check reads of -from and -port.
type decodeInput struct {
	binary bool // -from bin: the input is bytes, whatever they look like
	form   capture.Form
	ports  []uint16
}

// check checks decode's flags, in one order and with one wording for the command and the
// page (usage errors, exit status 2), and reads -from and -port.
func (f decodeFlags) check() (decodeInput, error) {
	var in decodeInput
	if f.response && f.api == "" && !f.body && !f.noSize {
		return in, usagef("decode: -response needs -api NAME")
	}
	if f.response && f.request {
		return in, usagef("decode: give -request or -response, not both")
	}
	if f.body && f.noSize {
		return in, usagef("decode: -body already means no size prefix (and no header): give one of them")
	}
	if f.from == "bin" || f.from == "binary" {
		in.binary = true
	} else if form, err := capture.ParseForm(f.from); err != nil {
		return in, usagef("decode: -from: %v, or bin", strings.TrimPrefix(err.Error(), "textbytes: "))
	} else {
		in.form = form
	}
	if f.version != -1 && f.api == "" {
		return in, usagef("decode: -version goes with -api NAME")
	}
	if f.maxFields < 1 {
		return in, usagef("decode: -max-fields %d: want a positive number", f.maxFields)
	}
	if f.version < -1 || f.version > 32767 {
		return in, usagef("decode: -version %d out of range", f.version)
	}
	for _, p := range strings.Split(f.ports, ",") {
		n, err := strconv.ParseUint(strings.TrimSpace(p), 10, 16)
		if err != nil || n == 0 {
			return in, usagef("decode: -port %q: want port numbers, comma-separated", f.ports)
		}
		in.ports = append(in.ports, uint16(n))
	}
	return in, nil
}

// reader makes what reads the input named name with c: the capture's options and the search
// of a lone frame's shape (others and flagFor give the other releases, as shapeSearch says).
// An -api that no release has is a usage error.
func (f decodeFlags) reader(ctx context.Context, c *kafka.Catalog, in decodeInput, name string, others func() []relCat, flagFor func(string) string) (capture.Options, *shapeSearch, error) {
	// A frame listed costs about what a field does: -max-fields bounds them too (when the
	// frames are kept: a capture streamed keeps none, and -max-fields bounds each frame).
	o := capture.Options{Ports: in.ports, Name: name, MaxNodes: f.maxFields, MaxFrames: min(f.maxFields, capture.DefaultMaxFrames), Context: ctx}
	search := &shapeSearch{cat: c, others: others, flagFor: flagFor, apiName: f.api, version: f.version,
		request: f.request, response: f.response, maxFields: f.maxFields}
	if others != nil {
		// A request this release refuses is read with the others, everywhere the same way.
		o.Releases = func() []capture.Release {
			var out []capture.Release
			for _, r := range others() {
				out = append(out, capture.Release{Name: r.name, Catalog: r.cat, Flag: search.flag(r.name)})
			}
			return out
		}
	}
	if f.api != "" {
		api, ok := c.Lookup(f.api)
		if !ok && !search.elsewhere(f.api) {
			return o, nil, usageError{noAPI("decode: -api", c, f.api)}
		}
		if !ok {
			api = nil // in another release: the search says which
		}
		o.API = api
		if f.version >= 0 {
			o.Version, o.HaveVersion = int16(f.version), true
		}
	}
	return o, search, nil
}

// readStatus is decodeStatus of the messages msgs of r, read whole.
func readStatus(c *kafka.Catalog, name string, r *capture.Result, msgs []*capture.Message) error {
	failed := 0
	var first *capture.Message
	for _, m := range msgs {
		if m.Err != nil {
			if failed++; failed == 1 {
				first = m
			}
		}
	}
	return decodeStatus(c, name, r, len(msgs), failed, first)
}

// decodeStatus is decode's error for what it read: none when every frame decoded and all was
// read; else the frame's error when the input is one frame, or how many did not decode and the
// first error (exit status 1).
func decodeStatus(c *kafka.Catalog, name string, r *capture.Result, frames, failed int, first *capture.Message) error {
	switch {
	case frames == 0:
		return fmt.Errorf("decode: %s: no frames found%s", shownName(name), notesText(r))
	case failed == 1 && frames == 1:
		return fmt.Errorf("decode: %s: %w%s", shownName(name), first.Err, kafka.OtherReleaseHint(c, first.Bytes))
	case failed > 0:
		return fmt.Errorf("decode: %s: %d of %s did not decode; the first: %w", shownName(name), failed+r.Unlisted, plural(frames+r.Unlisted, "frame"), first.Err)
	case r.Unlisted > 0 || r.SkippedConns > 0:
		return fmt.Errorf("decode: %s: not all was read%s", shownName(name), notesText(&capture.Result{Notes: r.Notes}))
	}
	return nil
}

// streamDecode decodes a capture as capture.Stream reads it, writing each exchange as it
// completes (text, or a line of JSON) and keeping none: memory is that of the frames in
// flight, whatever the capture's size. The notes come last, once known: in the text after the
// frames, in JSON as the summary line.
func streamDecode(ctx context.Context, c *kafka.Catalog, name string, in io.Reader, o capture.Options, stdout io.Writer, format string, indent bool) error {
	bw := bufio.NewWriterSize(&ctxWriter{ctx: ctx, w: stdout}, 64<<10)
	// Use the memory of each exchange's frames again once written (Recycle: nothing here keeps
	// them; the first failure kept is a frame that did not decode, which is not reused; README,
	// Speed).
	o.Recycle = true
	var n streamCount
	last := 0 // the connection of the last exchange written
	r, err := capture.Stream(c, in, o, func(conn *capture.Conn, e *capture.Exchange) error {
		n.add(e)
		if format == "json" {
			// Into bw itself: a buffer of the exchange's JSON first was one more copy of it.
			return writeJSONExchange(bw, conn, e, indent)
		}
		if conn.ID != last {
			// A connection's heading as printResult writes it: the exchanges of connections
			// that overlap come as they complete, so a connection may be headed again.
			connHeading(bw, conn, last == 0)
			last = conn.ID
		}
		return printExchange(bw, e, false)
	})
	if err != nil {
		if ctx.Err() == nil && bw.Flush() == nil {
			return fmt.Errorf("decode: %s: %w", shownName(name), err)
		}
		return fmt.Errorf("decode: %w", err)
	}
	if format == "json" {
		err = writeJSONSummary(bw, r, n.frames, n.frames-n.failed, indent)
	} else {
		writeNotes(bw, r)
	}
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		return fmt.Errorf("decode: %w", err)
	}
	return decodeStatus(c, name, r, n.frames, n.failed, n.first)
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
		fmt.Fprintf(stderr, "kafkagrid: decode: %s (%d decoded) in %s: report in %s\n", plural(n.frames, "frame"), n.frames-n.failed, plural(len(r.Conns), "connection"), dir)
	}
	return decodeStatus(c, name, r, n.frames, n.failed, n.first)
}

// streamCount counts the frames of a capture read as it streams, and keeps its first failure.
type streamCount struct {
	frames, failed int
	first          *capture.Message
}

func (n *streamCount) add(e *capture.Exchange) {
	for _, m := range []*capture.Message{e.Request, e.Response} {
		if m == nil {
			continue
		}
		n.frames++
		if m.Err != nil {
			if n.failed++; n.failed == 1 {
				n.first = m
			}
		}
	}
}

// reportStream writes the report of a capture with w as capture.Stream reads it: each
// exchange's page as it completes (report.Writer.Add), the index once the capture is read
// (Close); on failure w is aborted. Memory is that of the frames in flight and of the index's
// lines, whatever the capture's size. decode -o and the browser decoder write their reports so.
func reportStream(c *kafka.Catalog, in io.Reader, o capture.Options, w *report.Writer) (*capture.Result, streamCount, error) {
	var n streamCount
	r, err := capture.Stream(c, in, o, func(conn *capture.Conn, e *capture.Exchange) error {
		n.add(e)
		return w.Add(conn, e)
	})
	if err != nil {
		w.Abort()
		return nil, n, err
	}
	return r, n, w.Close(r)
}

// writeNotes writes the notes of a capture decoded as it streamed, after its frames: the
// whole input's, then each connection's.
func writeNotes(w io.Writer, r *capture.Result) {
	if len(r.Notes) == 0 && !slices.ContainsFunc(r.Conns, func(c *capture.Conn) bool { return len(c.Notes) > 0 }) {
		return
	}
	fmt.Fprintf(w, "\n== notes (%d packets, %d connections)\n", r.Packets, len(r.Conns))
	for _, n := range r.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	for _, c := range r.Conns {
		for _, n := range c.Notes {
			fmt.Fprintf(w, "note: connection %d: %s\n", c.ID, n)
		}
	}
}

// writeReport writes the report of r into the folder dir with the protections of build's
// output folder (report.Write's outdir.Folder): one writer at a time, files put in place by
// rename, temporaries removed on a signal, only a report's own files replaced, none through
// a link; the files of an earlier report there that this one does not write again are removed.
func writeReport(ctx context.Context, dir string, r *capture.Result, o report.Options) error {
	o.Context, o.Temps = ctx, tempsFrom(ctx)
	return report.Write(dir, r, o)
}

func notesText(r *capture.Result) string {
	var notes []string
	notes = append(notes, r.Notes...)
	for _, c := range r.Conns {
		notes = append(notes, c.Notes...)
	}
	if len(notes) == 0 {
		return ""
	}
	return " (" + strings.Join(notes, "; ") + ")"
}

// messages lists the messages of r in report order.
func messages(r *capture.Result) []*capture.Message {
	var out []*capture.Message
	for _, c := range r.Conns {
		for _, e := range c.Exchanges {
			for _, m := range []*capture.Message{e.Request, e.Response} {
				if m != nil {
					out = append(out, m)
				}
			}
		}
	}
	return out
}

// printResult prints every frame's tree (txt) or the frames as JSON: the frame alone when the
// input holds one, else a line of JSON for each exchange and the summary last (writeJSONExchange),
// indented when indent.
func printResult(w io.Writer, r *capture.Result, msgs []*capture.Message, format string, indent bool) error {
	if format == "json" {
		if len(msgs) == 1 && msgs[0].Frame != nil {
			if err := msgs[0].Frame.WriteJSONError(w, "", jsonIndent(indent), msgs[0].Err); err != nil {
				return err
			}
			_, err := io.WriteString(w, "\n")
			return err
		}
		bw := bufio.NewWriterSize(w, 64<<10)
		var rec bytes.Buffer
		for _, c := range r.Conns {
			for _, e := range c.Exchanges {
				rec.Reset()
				if err := writeJSONExchange(&rec, c, e, indent); err != nil {
					return err
				}
				if _, err := bw.Write(rec.Bytes()); err != nil {
					return err
				}
			}
		}
		all, ok := r.Frames()
		if err := writeJSONSummary(bw, r, all, ok, indent); err != nil {
			return err
		}
		return bw.Flush()
	}
	single := len(msgs) == 1 && len(r.Notes) == 0 && (len(r.Conns) == 0 || len(r.Conns[0].Notes) == 0)
	for _, n := range r.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	for i, c := range r.Conns {
		if c.Server.IsValid() {
			connHeading(w, c, i == 0)
		}
		for _, n := range c.Notes {
			fmt.Fprintf(w, "note: %s\n", n)
		}
		for _, e := range c.Exchanges {
			if err := printExchange(w, e, single); err != nil {
				return err
			}
		}
	}
	return nil
}

// connHeading writes a connection's heading, after a blank line unless first: the output
// starts with its first frame's connection, as a capture read whole or streamed.
func connHeading(w io.Writer, c *capture.Conn, first bool) {
	if !first {
		io.WriteString(w, "\n")
	}
	fmt.Fprintf(w, "== connection %d: %s → %s\n", c.ID, c.Client, c.Server)
}

// printExchange prints an exchange's frames as text trees, each under a heading unless single.
func printExchange(w io.Writer, e *capture.Exchange, single bool) error {
	for _, m := range []*capture.Message{e.Request, e.Response} {
		if m == nil {
			continue
		}
		if !single {
			var hb [160]byte
			if _, err := w.Write(appendHeading(hb[:0], m, m == e.Response)); err != nil {
				return err
			}
		}
		if m.Frame != nil {
			if err := kafka.WriteText(w, m.Frame.Root); err != nil {
				return err
			}
		}
		if m.Token && len(m.Bytes) >= 4 {
			fmt.Fprintf(w, "%6d %4d  %-24s %s\n", 0, 4, "int32", fmt.Sprintf("size = %d bytes", len(m.Bytes)-4))
			if len(m.Bytes) > 4 {
				fmt.Fprintf(w, "%6d %4d  %-24s token = %q\n", 4, len(m.Bytes)-4, "raw", m.Bytes[4:])
			}
		}
		if m.Err != nil && !single {
			fmt.Fprintf(w, "error: %v\n", m.Err)
		}
	}
	if e.Note != "" && !single {
		fmt.Fprintf(w, "note: %s\n", e.Note)
	}
	return nil
}

// appendHeading appends a frame's heading line, "\n-- " and heading and "\n", built with
// strconv rather than fmt (from fmt.Sprintf and three concatenations a frame: 1.5% of decode
// -q's instructions on the client capture).
func appendHeading(b []byte, m *capture.Message, response bool) []byte {
	b = append(b, "\n-- "...)
	side := "request"
	if response {
		side = "response"
	}
	switch f := m.Frame; {
	case f != nil && f.API != nil:
		b = append(b, f.API.Name...)
		b = append(b, " v"...)
		b = strconv.AppendInt(b, int64(f.Version), 10)
		b = append(append(b, ' '), side...)
		if corr, ok := m.CorrelationID(response); ok {
			b = append(b, ", correlation id "...)
			b = strconv.AppendInt(b, int64(corr), 10)
		}
	case m.Token && response:
		b = append(b, "SASL token from the broker"...)
	case m.Token:
		b = append(b, "SASL token from the client"...)
	default:
		b = append(b, side...)
	}
	b = append(b, ", "...)
	b = strconv.AppendInt(b, int64(len(m.Bytes)), 10)
	b = append(b, " bytes at offset "...)
	b = strconv.AppendInt(b, int64(m.Offset), 10)
	if m.Packet > 0 {
		b = append(b, ", packet "...)
		b = strconv.AppendInt(b, int64(m.Packet), 10)
	}
	return append(b, '\n')
}

// The JSON of several frames is JSON Lines (NDJSON): one exchange a line, as it completes, and
// a summary last. A capture of any size is then written as it is read, and read back as it
// streams: jq takes one line at a time (jq -c 'select(.connection)'), as do grep, head and
// any JSON Lines reader; one document of a million frames would have to be held whole by
// most JSON readers. -indent writes the same values indented, one after the other (jq reads
// them so too).

// jsonExchange is the JSON of one exchange, a line of decode's JSON.
type jsonExchange struct {
	Connection    int      `json:"connection"`
	Client        string   `json:"client,omitempty"`
	Server        string   `json:"server,omitempty"`
	Request       any      `json:"request,omitempty"`       // a frame, or nil
	Response      any      `json:"response,omitempty"`      // the same
	RequestToken  *string  `json:"requestToken,omitempty"`  // a bare SASL token, in hex (after SaslHandshake v0)
	ResponseToken *string  `json:"responseToken,omitempty"` // the same; an empty one is ""
	Errors        []string `json:"errors,omitempty"`
	Note          string   `json:"note,omitempty"`
}

// jsonSummary is the last line of decode's JSON: what the input was, and the notes.
type jsonSummary struct {
	Kind         string     `json:"kind"`
	Packets      int        `json:"packets,omitempty"`
	Frames       int        `json:"frames"`
	Decoded      int        `json:"decoded"`
	Unlisted     int        `json:"unlisted,omitempty"`
	SkippedConns int        `json:"skippedConnections,omitempty"`
	Notes        []string   `json:"notes,omitempty"`
	Conns        []jsonConn `json:"connections"`
}

type jsonConn struct {
	ID     int      `json:"id"`
	Client string   `json:"client,omitempty"`
	Server string   `json:"server,omitempty"`
	Notes  []string `json:"notes,omitempty"`
}

func jsonIndent(indent bool) string {
	if indent {
		return "  "
	}
	return ""
}

// jsonExchangeOf is the JSON form of one exchange; frame gives what stands for each frame
// (never called for a missing one).
func jsonExchangeOf(c *capture.Conn, e *capture.Exchange, frame func(*kafka.Frame) any) jsonExchange {
	je := jsonExchange{Connection: c.ID, Note: e.Note}
	if c.Server.IsValid() {
		je.Client, je.Server = c.Client.String(), c.Server.String()
	}
	je.Request, je.RequestToken = jsonSide(e.Request, "request", frame, &je.Errors)
	je.Response, je.ResponseToken = jsonSide(e.Response, "response", frame, &je.Errors)
	return je
}

// jsonSide is what the JSON of an exchange says of its message m (nil for none): its frame
// (what frame gives for it), its bare SASL token in hex, and its error, appended to errs as
// "request: …" or "response: …".
func jsonSide(m *capture.Message, side string, frame func(*kafka.Frame) any, errs *[]string) (f any, token *string) {
	if m == nil {
		return nil, nil
	}
	if m.Frame != nil {
		f = frame(m.Frame)
	}
	if m.Token {
		tok := hex.EncodeToString(m.Bytes[4:])
		token = &tok
	}
	if m.Err != nil {
		*errs = append(*errs, side+": "+m.Err.Error())
	}
	return f, token
}

// jsonOut is what writeJSONExchange writes to: a bytes.Buffer or a bufio.Writer.
type jsonOut interface {
	io.Writer
	io.ByteWriter
	io.StringWriter
}

// writeJSONExchange writes the line of one exchange into b: what json.Marshal (or, with
// indent, json.MarshalIndent with two spaces) writes of jsonExchangeOf with the frames
// themselves, and a newline, written once, the frames node by node (kafka.Frame.WriteJSON).
func writeJSONExchange(b jsonOut, c *capture.Conn, e *capture.Exchange, indent bool) error {
	var frames []*kafka.Frame
	je := jsonExchangeOf(c, e, func(f *kafka.Frame) any {
		frames = append(frames, f)
		return f
	})
	n := 0
	var err error
	member := func(key string, v any) {
		if err != nil {
			return
		}
		if n++; n > 1 {
			b.WriteByte(',')
		}
		if indent {
			b.WriteString("\n  ")
		}
		b.WriteString(`"` + key + `":`)
		if indent {
			b.WriteByte(' ')
		}
		if f, ok := v.(*kafka.Frame); ok {
			var ferr error // the frame's failure, in its JSON as in the text
			for _, m := range []*capture.Message{e.Request, e.Response} {
				if m != nil && m.Frame == f {
					ferr = m.Err
				}
			}
			err = f.WriteJSONError(b, jsonIndent(indent), jsonIndent(indent), ferr)
			return
		}
		var out []byte
		if indent {
			out, err = json.MarshalIndent(v, "  ", "  ")
		} else {
			out, err = json.Marshal(v)
		}
		b.Write(out)
	}
	b.WriteByte('{')
	member("connection", je.Connection)
	if je.Client != "" {
		member("client", je.Client)
		member("server", je.Server)
	}
	if je.Request != nil {
		member("request", je.Request)
	}
	if je.Response != nil {
		member("response", je.Response)
	}
	if je.RequestToken != nil {
		member("requestToken", *je.RequestToken)
	}
	if je.ResponseToken != nil {
		member("responseToken", *je.ResponseToken)
	}
	if je.Errors != nil {
		member("errors", je.Errors)
	}
	if je.Note != "" {
		member("note", je.Note)
	}
	if indent {
		b.WriteByte('\n')
	}
	b.WriteString("}\n")
	return err
}

// writeJSONSummary writes the summary line: the input's kind, its frames, notes and connections.
func writeJSONSummary(w io.Writer, r *capture.Result, frames, decoded int, indent bool) error {
	s := jsonSummary{Kind: string(r.Kind), Packets: r.Packets, Frames: frames, Decoded: decoded, Unlisted: r.Unlisted,
		SkippedConns: r.SkippedConns, Notes: r.Notes, Conns: []jsonConn{}}
	for _, c := range r.Conns {
		jc := jsonConn{ID: c.ID, Notes: c.Notes}
		if c.Server.IsValid() {
			jc.Client, jc.Server = c.Client.String(), c.Server.String()
		}
		s.Conns = append(s.Conns, jc)
	}
	var out []byte
	var err error
	if indent {
		out, err = json.MarshalIndent(s, "", "  ")
	} else {
		out, err = json.Marshal(s)
	}
	if err != nil {
		return err
	}
	_, err = w.Write(append(out, '\n'))
	return err
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
