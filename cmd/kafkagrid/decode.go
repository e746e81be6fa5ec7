package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/kafkagrid/kafkagrid/capture"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site"
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
	fs := newFlagSet("decode", "[-schemas PATH | -kafka REF] [-release RELEASE] [-api NAME [-version N]] [-from FORM] [-no-size | -body] [-request | -response] [-port P,...] [-format txt|json] [-o DIR] FILE|-", stdout, stderr)
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
		"indented by depth) or json (the frame with its annotated tree; several frames: the connections)")
	ports := fs.String("port", "9092", "Kafka `PORTS` of a capture, comma-separated (connections on other ports are read\n"+
		"when their first bytes are a Kafka request)")
	maxFields := fs.Int("max-fields", capture.DefaultMaxNodes, "decode at most `N` fields (tree nodes) of all frames together, which bounds memory (about\n"+
		"400 bytes a field, whatever the output); a frame stops where the limit is reached")
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
	if *response && *apiName == "" && !*body && !*noSize {
		return usagef("decode: -response needs -api NAME")
	}
	if *response && *request {
		return usagef("decode: give -request or -response, not both")
	}
	if *body && *noSize {
		return usagef("decode: -body already means no size prefix (and no header): give one of them")
	}
	binaryIn := false
	var form capture.Form
	if *from == "bin" || *from == "binary" {
		binaryIn = true
	} else if form, err = capture.ParseForm(*from); err != nil {
		return usagef("decode: -from: %v, or bin", strings.TrimPrefix(err.Error(), "capture: "))
	}
	if *version != -1 && *apiName == "" {
		return usagef("decode: -version goes with -api NAME")
	}
	if *maxFields < 1 {
		return usagef("decode: -max-fields %d: want a positive number", *maxFields)
	}
	if *version < -1 || *version > 32767 {
		return usagef("decode: -version %d out of range", *version)
	}
	var portList []uint16
	for _, p := range strings.Split(*ports, ",") {
		n, err := strconv.ParseUint(strings.TrimSpace(p), 10, 16)
		if err != nil || n == 0 {
			return usagef("decode: -port %q: want port numbers, comma-separated", *ports)
		}
		portList = append(portList, uint16(n))
	}
	name := names[0]
	data, err := readInput(name)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			return fmt.Errorf("decode: %s: %w", shownName(name), pe.Err)
		}
		return fmt.Errorf("decode: %w", err)
	}
	c, src, err := sf.load(ctx, stderr)
	if err != nil {
		return fmt.Errorf("decode: %w", err)
	}
	// A frame listed costs about what a field does: -max-fields bounds them too.
	o := capture.Options{Ports: portList, Name: name, MaxNodes: *maxFields, MaxFrames: min(*maxFields, capture.DefaultMaxFrames), Context: ctx}
	others, flagFor := siblingReleases(sf, src)
	search := &shapeSearch{cat: c, others: others, flagFor: flagFor, apiName: *apiName, version: *version,
		request: *request, response: *response, maxFields: *maxFields}
	if *apiName != "" {
		api, ok := c.Lookup(*apiName)
		if !ok && !search.elsewhere(*apiName) {
			return usageError{noAPI("decode: -api", c, *apiName)}
		}
		if !ok {
			api = nil
		}
		o.API = api
		if *version >= 0 {
			o.Version, o.HaveVersion = int16(*version), true
		}
	}
	r, err := search.read(data, binaryIn, form, o, *noSize, *body)
	if err != nil {
		return fmt.Errorf("decode: %s: %w", shownName(name), err)
	}
	msgs := messages(r)
	if *out == "" {
		if err := printResult(&ctxWriter{ctx: ctx, w: stdout}, r, msgs, *format); err != nil {
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
	var failed []*capture.Message
	for _, m := range msgs {
		if m.Err != nil {
			failed = append(failed, m)
		}
	}
	switch {
	case len(msgs) == 0:
		return fmt.Errorf("decode: %s: no frames found%s", shownName(name), notesText(r))
	case len(failed) == 1 && len(msgs) == 1:
		return fmt.Errorf("decode: %s: %w%s", shownName(name), failed[0].Err, otherRelease(c, failed[0].Bytes))
	case len(failed) > 0:
		return fmt.Errorf("decode: %s: %d of %s did not decode; the first: %w", shownName(name), len(failed)+r.Unlisted, plural(len(msgs)+r.Unlisted, "frame"), failed[0].Err)
	case r.Unlisted > 0 || r.SkippedConns > 0:
		return fmt.Errorf("decode: %s: not all was read%s", shownName(name), notesText(&capture.Result{Notes: r.Notes}))
	}
	return nil
}

// writeReport writes the report of r into the folder dir with the protections of build's
// output folder (site.Folder): one writer at a time, files put in place by rename,
// temporaries removed on a signal, only a report's own files replaced, none through a link,
// and the files of an earlier report that this one has not removed.
func writeReport(ctx context.Context, dir string, r *capture.Result, o report.Options) error {
	folder, err := site.OpenFolder(ctx, dir, site.FolderOptions{Kind: site.KindReport, Temps: tempsFrom(ctx)})
	if err != nil {
		return err
	}
	defer folder.Close()
	o.Create = folder.Create
	err = report.Write(dir, r, o)
	if ferr := folder.Finish(site.FinishOptions{Complete: err == nil}); err == nil {
		err = ferr
	}
	return err
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
// input holds one, else the connections with their exchanges.
func printResult(w io.Writer, r *capture.Result, msgs []*capture.Message, format string) error {
	if format == "json" {
		if len(msgs) == 1 && msgs[0].Frame != nil {
			if err := msgs[0].Frame.WriteJSON(w, "", "  "); err != nil {
				return err
			}
			_, err := io.WriteString(w, "\n")
			return err
		}
		return writeJSONResult(w, r)
	}
	single := len(msgs) == 1 && len(r.Notes) == 0 && (len(r.Conns) == 0 || len(r.Conns[0].Notes) == 0)
	for _, n := range r.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	for _, c := range r.Conns {
		if c.Server.IsValid() {
			fmt.Fprintf(w, "== connection %d: %s → %s\n", c.ID, c.Client, c.Server)
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

// printExchange prints an exchange's frames as text trees, each under a heading unless single.
func printExchange(w io.Writer, e *capture.Exchange, single bool) error {
	for _, m := range []*capture.Message{e.Request, e.Response} {
		if m == nil {
			continue
		}
		if !single {
			fmt.Fprintf(w, "\n-- %s\n", heading(m, m == e.Response))
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

func heading(m *capture.Message, response bool) string {
	side := "request"
	if response {
		side = "response"
	}
	s := side
	if m.Token {
		s = "SASL token from the client"
		if response {
			s = "SASL token from the broker"
		}
	}
	if f := m.Frame; f != nil && f.API != nil {
		s = fmt.Sprintf("%s v%d %s, correlation id %d", f.API.Name, f.Version, side, f.CorrelationID)
	}
	s += fmt.Sprintf(", %d bytes at offset %d", len(m.Bytes), m.Offset)
	if m.Packet > 0 {
		s += fmt.Sprintf(", packet %d", m.Packet)
	}
	return s
}

type jsonExchange struct {
	Request       any      `json:"request,omitempty"`       // a frame (or a placeholder for it), or nil
	Response      any      `json:"response,omitempty"`      // the same
	RequestToken  *string  `json:"requestToken,omitempty"`  // a bare SASL token, in hex (after SaslHandshake v0)
	ResponseToken *string  `json:"responseToken,omitempty"` // the same; an empty one is ""
	Errors        []string `json:"errors,omitempty"`
	Note          string   `json:"note,omitempty"`
}

type jsonConn struct {
	ID        int      `json:"id"`
	Client    string   `json:"client,omitempty"`
	Server    string   `json:"server,omitempty"`
	Notes     []string `json:"notes,omitempty"`
	Exchanges any      `json:"exchanges"` // []jsonExchange, or a placeholder`
}

// writeJSONResult writes the connections of r as JSON, indented by two spaces: what
// json.Encoder would write of jsonResult with the frames themselves, written piece by piece (the
// top, each connection's members, each exchange, each frame node by node with
// kafka.Frame.WriteJSON), so that memory is one exchange's text at a time and not the whole
// document's, whatever the number of frames.
func writeJSONResult(w io.Writer, r *capture.Result) error {
	bw := bufio.NewWriter(w)
	top := jsonTop{Kind: string(r.Kind), Notes: r.Notes, Conns: json.RawMessage(markConns)}
	if len(r.Conns) == 0 {
		top.Conns = json.RawMessage("null")
	}
	err := writeIndented(bw, top, "", func(string, string) error {
		bw.WriteString("[\n")
		for i, c := range r.Conns {
			bw.WriteString("    ")
			jc := jsonConn{ID: c.ID, Notes: c.Notes, Exchanges: json.RawMessage(markExchanges)}
			if c.Server.IsValid() {
				jc.Client, jc.Server = c.Client.String(), c.Server.String()
			}
			if len(c.Exchanges) == 0 {
				jc.Exchanges = json.RawMessage("null")
			}
			err := writeIndented(bw, jc, "    ", func(string, string) error {
				bw.WriteString("[\n")
				for j, e := range c.Exchanges {
					bw.WriteString("        ")
					var frames []*kafka.Frame
					je := jsonExchangeOf(e, func(f *kafka.Frame) any {
						frames = append(frames, f)
						return json.RawMessage(`"\u0000frame ` + strconv.Itoa(len(frames)-1) + `"`)
					})
					err := writeIndented(bw, je, "        ", func(mark, indent string) error {
						n, err := strconv.Atoi(strings.TrimPrefix(mark, markFrame))
						if err != nil || n >= len(frames) {
							return fmt.Errorf("decode: JSON placeholder %q", mark)
						}
						return frames[n].WriteJSON(bw, indent, "  ")
					})
					if err != nil {
						return err
					}
					if j < len(c.Exchanges)-1 {
						bw.WriteByte(',')
					}
					bw.WriteByte('\n')
				}
				bw.WriteString("      ]")
				return nil
			})
			if err != nil {
				return err
			}
			if i < len(r.Conns)-1 {
				bw.WriteByte(',')
			}
			bw.WriteByte('\n')
		}
		bw.WriteString("  ]")
		return nil
	})
	if err != nil {
		return err
	}
	bw.WriteByte('\n')
	return bw.Flush()
}

// The placeholders writeJSONResult marshals in place of what it writes itself. A NUL is
// escaped in any string that comes from the input, so text read from it cannot pass for one.
const (
	markConns     = `"\u0000connections"`
	markExchanges = `"\u0000exchanges"`
	markFrame     = "\x00frame "
)

type jsonTop struct {
	Kind  string          `json:"kind"`
	Notes []string        `json:"notes,omitempty"`
	Conns json.RawMessage `json:"connections"`
}

// writeIndented writes v as json.MarshalIndent(v, prefix, "  ") does, but for each member whose
// whole value is a placeholder ("\u0000…"), for which it calls fill with the placeholder's text
// and the indent of its line, to write that value.
func writeIndented(bw *bufio.Writer, v any, prefix string, fill func(mark, indent string) error) error {
	doc, err := json.MarshalIndent(v, prefix, "  ")
	if err != nil {
		return err
	}
	const mark = `"\u0000`
	from := 0
	for {
		i := bytes.Index(doc[from:], []byte(mark))
		if i < 0 {
			break
		}
		i += from
		line := doc[bytes.LastIndexByte(doc[:i], '\n')+1 : i] // `      "request": `
		indent := line[:len(line)-len(bytes.TrimLeft(line, " "))]
		q := bytes.IndexByte(doc[i+len(mark):], '"')
		if q < 0 || !bytes.HasSuffix(line, []byte(`": `)) {
			from = i + len(mark)
			continue
		}
		end := i + len(mark) + q
		bw.Write(doc[:i])
		if err := fill("\x00"+string(doc[i+len(mark):end]), string(indent)); err != nil {
			return err
		}
		doc, from = doc[end+1:], 0
	}
	_, err = bw.Write(doc)
	return err
}

// jsonResult is the JSON form of r; frame gives what stands for each frame (never called for a
// missing one).
func jsonResult(r *capture.Result, frame func(*kafka.Frame) any) any {
	out := struct {
		Kind  string     `json:"kind"`
		Notes []string   `json:"notes,omitempty"`
		Conns []jsonConn `json:"connections"`
	}{Kind: string(r.Kind), Notes: r.Notes}
	for _, c := range r.Conns {
		jc := jsonConn{ID: c.ID, Notes: c.Notes}
		if c.Server.IsValid() {
			jc.Client, jc.Server = c.Client.String(), c.Server.String()
		}
		var exs []jsonExchange
		for _, e := range c.Exchanges {
			exs = append(exs, jsonExchangeOf(e, frame))
		}
		if exs != nil {
			jc.Exchanges = exs
		}
		out.Conns = append(out.Conns, jc)
	}
	return out
}

// jsonExchangeOf is the JSON form of one exchange.
func jsonExchangeOf(e *capture.Exchange, frame func(*kafka.Frame) any) jsonExchange {
	je := jsonExchange{Note: e.Note}
	if e.Request != nil {
		if e.Request.Frame != nil {
			je.Request = frame(e.Request.Frame)
		}
		if e.Request.Token {
			tok := hex.EncodeToString(e.Request.Bytes[4:])
			je.RequestToken = &tok
		}
		if e.Request.Err != nil {
			je.Errors = append(je.Errors, "request: "+e.Request.Err.Error())
		}
	}
	if e.Response != nil {
		if e.Response.Frame != nil {
			je.Response = frame(e.Response.Frame)
		}
		if e.Response.Token {
			tok := hex.EncodeToString(e.Response.Bytes[4:])
			je.ResponseToken = &tok
		}
		if e.Response.Err != nil {
			je.Errors = append(je.Errors, "response: "+e.Response.Err.Error())
		}
	}
	return je
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

// maxInput bounds what decode reads: a capture or dump larger than this is refused before it
// is read, rather than exhausting memory (decoding keeps annotated trees several times the
// size of the frames).
const maxInput = 256 << 20

// readInput reads a file, or standard input for "-", of at most maxInput bytes.
func readInput(name string) ([]byte, error) {
	return readBounded(name, true, maxInput, func(size int64) error {
		if size < 0 {
			return fmt.Errorf("%s: more than %d MiB, more than decode reads", shownName(name), maxInput>>20)
		}
		return fmt.Errorf("%s is %d bytes, more than decode reads (%d MiB): cut the capture (editcap, tcpdump -r … -c N)", shownName(name), size, maxInput>>20)
	})
}

// otherRelease says, for a frame whose request header names an API key this release lacks, which
// releases have it ("; API key 4 (LeaderAndIsr) is in Kafka 2.4, …, 3.9: try -release 3.9"), and
// "" otherwise.
func otherRelease(c *kafka.Catalog, frame []byte) string {
	if len(frame) < 8 {
		return ""
	}
	key := int16(binary.BigEndian.Uint16(frame[4:6]))
	if key < 0 || c.Release.Request(key) != nil && c.Release.Request(key).ValidVersions.Set {
		return ""
	}
	_, names, rels, ok := kafka.KnownAPI(strconv.Itoa(int(key)))
	if !ok || len(rels) == 0 {
		return ""
	}
	return fmt.Sprintf("; if it is a request, API key %d (%s) is not in Kafka %s but is in Kafka %s: try -release %s",
		key, strings.Join(names, ", "), c.Release.Name(), strings.Join(rels, ", "), rels[len(rels)-1])
}
