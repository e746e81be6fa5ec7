package decode

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/kafkagrid/kafkagrid/capture"
	"github.com/kafkagrid/kafkagrid/internal/jsonw"
	"github.com/kafkagrid/kafkagrid/kafka"
)

// Format is how Write and WriteStream write the frames; the zero Format is text.
type Format struct {
	// JSON writes the frame with its annotated tree (kafka.Frame.WriteJSON) when the input
	// is one frame; else JSON Lines: a line for each exchange as it completes, then a summary
	// line with the notes. Without it, text: one node per line (offset, length, type, name =
	// value, indented by depth), each frame under a heading when there are several.
	JSON bool
	// Indent indents the JSON, two spaces; it is compact by default.
	Indent bool
}

// Messages lists the messages of r in report order.
func Messages(r *capture.Result) []*capture.Message {
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

// JSONNotes are the notes Write's JSON leaves out: when the input is one frame its JSON is the
// frame alone, and the notes on what was assumed (r.Notes) go elsewhere (decode prints them on
// standard error). nil when the JSON holds them.
func JSONNotes(r *capture.Result) []string {
	if msgs := Messages(r); len(msgs) == 1 && msgs[0].Frame != nil {
		return r.Notes
	}
	return nil
}

// Write writes every frame of r as decode prints them: text trees, or JSON (the frame alone
// when the input holds one, else a line of JSON for each exchange and the summary last).
func Write(w io.Writer, r *capture.Result, f Format) error {
	msgs := Messages(r)
	if f.JSON {
		if len(msgs) == 1 && msgs[0].Frame != nil {
			if err := msgs[0].Frame.WriteJSONError(w, "", jsonIndent(f.Indent), msgs[0].Err); err != nil {
				return err
			}
			_, err := io.WriteString(w, "\n")
			return err
		}
		return writeJSONLines(w, r, f.Indent)
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
			if err := writeExchange(w, e, single); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeJSONLines writes a line of JSON for each exchange of r and the summary last.
func writeJSONLines(w io.Writer, r *capture.Result, indent bool) error {
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

// connHeading writes a connection's heading, after a blank line unless first: the output
// starts with its first frame's connection, as a capture read whole or streamed.
func connHeading(w io.Writer, c *capture.Conn, first bool) {
	if !first {
		io.WriteString(w, "\n")
	}
	fmt.Fprintf(w, "== connection %d: %s → %s\n", c.ID, c.Client, c.Server)
}

// WriteExchange writes an exchange's frames as text trees, each under a heading, then their
// errors and the exchange's note, as decode prints them (kafkagrid probe prints its
// exchanges so).
func WriteExchange(w io.Writer, e *capture.Exchange) error { return writeExchange(w, e, false) }

// writeExchange writes an exchange's frames as text trees, each under a heading unless single.
func writeExchange(w io.Writer, e *capture.Exchange, single bool) error {
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

// The JSON of several frames is JSON Lines (NDJSON): one exchange a line, as it completes, and
// a summary last. A capture of any size is then written as it is read, and read back as it
// streams: jq takes one line at a time (jq -c 'select(.connection)'), as do grep, head and
// any JSON Lines reader; one document of a million frames would have to be held whole by
// most JSON readers. Indent writes the same values indented, one after the other (jq reads
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

// jsonMembers writes the members of one JSON object, the first after "{".
type jsonMembers struct {
	b      jsonOut
	e      *capture.Exchange
	indent bool
	n      int
	err    error
}

// member writes one member: a frame node by node (kafka.Frame.WriteJSONError, with its
// failure as in the text), any other value as json.Marshal (or MarshalIndent) writes it.
func (j *jsonMembers) member(key string, v any) {
	if j.err != nil {
		return
	}
	if j.n++; j.n > 1 {
		j.b.WriteByte(',')
	}
	if j.indent {
		j.b.WriteString("\n  ")
	}
	j.b.WriteString(`"` + key + `":`)
	if j.indent {
		j.b.WriteByte(' ')
	}
	if f, ok := v.(*kafka.Frame); ok {
		var ferr error
		for _, m := range []*capture.Message{j.e.Request, j.e.Response} {
			if m != nil && m.Frame == f {
				ferr = m.Err
			}
		}
		j.err = f.WriteJSONError(j.b, jsonIndent(j.indent), jsonIndent(j.indent), ferr)
		return
	}
	// What json.Marshal (or MarshalIndent with "  ", "  ") writes, without its reflection
	// (internal/jsonw), which would link every type's fields into the browser decoder.
	w := jsonw.New(jsonIndent(j.indent), jsonIndent(j.indent))
	switch v := v.(type) {
	case int:
		w.Int(v)
	case string:
		w.String(v)
	case []string:
		w.Strings(v)
	default:
		j.err = fmt.Errorf("decode: a JSON member of type %T", v)
		return
	}
	j.b.Write(w.Bytes())
}

// writeJSONExchange writes the line of one exchange into b: what json.Marshal (or, with
// indent, json.MarshalIndent with two spaces) writes of jsonExchangeOf with the frames
// themselves, and a newline, written once, the frames node by node (kafka.Frame.WriteJSON).
func writeJSONExchange(b jsonOut, c *capture.Conn, e *capture.Exchange, indent bool) error {
	je := jsonExchangeOf(c, e, func(f *kafka.Frame) any { return f })
	j := &jsonMembers{b: b, e: e, indent: indent}
	b.WriteByte('{')
	j.member("connection", je.Connection)
	if je.Client != "" {
		j.member("client", je.Client)
		j.member("server", je.Server)
	}
	if je.Request != nil {
		j.member("request", je.Request)
	}
	if je.Response != nil {
		j.member("response", je.Response)
	}
	if je.RequestToken != nil {
		j.member("requestToken", *je.RequestToken)
	}
	if je.ResponseToken != nil {
		j.member("responseToken", *je.ResponseToken)
	}
	if je.Errors != nil {
		j.member("errors", je.Errors)
	}
	if je.Note != "" {
		j.member("note", je.Note)
	}
	if indent {
		b.WriteByte('\n')
	}
	b.WriteString("}\n")
	return j.err
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
	_, err := w.Write(append(s.appendJSON(indent), '\n'))
	return err
}

// appendJSON is what json.Marshal (or MarshalIndent with "", "  ") writes of s, by its tags,
// without reflection (internal/jsonw; TestJSONSummaryAsMarshal compares the two).
func (s *jsonSummary) appendJSON(indent bool) []byte {
	w := jsonw.New("", jsonIndent(indent))
	w.Object()
	w.Key("kind")
	w.String(s.Kind)
	w.OptInt("packets", s.Packets)
	w.Key("frames")
	w.Int(s.Frames)
	w.Key("decoded")
	w.Int(s.Decoded)
	w.OptInt("unlisted", s.Unlisted)
	w.OptInt("skippedConnections", s.SkippedConns)
	w.OptStrings("notes", s.Notes)
	w.Key("connections")
	if s.Conns == nil {
		w.Null()
	} else {
		w.Array()
		for _, c := range s.Conns {
			w.Object()
			w.Key("id")
			w.Int(c.ID)
			w.OptString("client", c.Client)
			w.OptString("server", c.Server)
			w.OptStrings("notes", c.Notes)
			w.End('}')
		}
		w.End(']')
	}
	w.End('}')
	return w.Bytes()
}
