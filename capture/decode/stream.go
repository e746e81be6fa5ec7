package decode

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/kafkagrid/kafkagrid/capture"
	"github.com/kafkagrid/kafkagrid/kafka"
)

// Count counts the frames read, and keeps the first that did not decode.
type Count struct {
	Frames, Failed int
	First          *capture.Message // the first frame that did not decode, or nil
}

// Add counts the frames of an exchange.
func (n *Count) Add(e *capture.Exchange) {
	for _, m := range []*capture.Message{e.Request, e.Response} {
		if m == nil {
			continue
		}
		n.Frames++
		if m.Err != nil {
			if n.Failed++; n.Failed == 1 {
				n.First = m
			}
		}
	}
}

// CountOf counts the frames of r, read whole.
func CountOf(r *capture.Result) Count {
	var n Count
	for _, c := range r.Conns {
		for _, e := range c.Exchanges {
			n.Add(e)
		}
	}
	return n
}

// Status is decode's outcome for what it read, c's catalogue (r and its count n): nil when
// every frame decoded and all was read; else the frame's error when the input is one frame
// (with the other release that has its version, kafka.OtherReleaseHint), or how many did not
// decode and the first error, or what was not read. The command says its input's name before
// it, and exits with status 1.
func Status(c *kafka.Catalog, r *capture.Result, n Count) error {
	switch {
	case n.Frames == 0:
		return fmt.Errorf("no frames found%s", notesText(r))
	case n.Failed == 1 && n.Frames == 1:
		return fmt.Errorf("%w%s", n.First.Err, kafka.OtherReleaseHint(c, n.First.Bytes))
	case n.Failed > 0:
		return fmt.Errorf("%d of %s did not decode; the first: %w", n.Failed+r.Unlisted, plural(n.Frames+r.Unlisted, "frame"), n.First.Err)
	case r.Unlisted > 0 || r.SkippedConns > 0:
		return fmt.Errorf("not all was read%s", notesText(&capture.Result{Notes: r.Notes}))
	}
	return nil
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
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

// Stream decodes a capture (or frames, or text) with c as capture.Stream reads it, calling
// each for every exchange as it completes, and counts the frames: the memory is that of the
// frames in flight, whatever the capture's size. decode -o and the browser decoder write their
// reports so (each = report.Writer.Add).
func Stream(c *kafka.Catalog, in io.Reader, o capture.Options, each func(*capture.Conn, *capture.Exchange) error) (*capture.Result, Count, error) {
	var n Count
	r, err := capture.Stream(c, in, o, func(conn *capture.Conn, e *capture.Exchange) error {
		n.Add(e)
		return each(conn, e)
	})
	return r, n, err
}

// InputError is an error of reading the input, as against one of writing the output or of
// the context being done: the command names the input before it.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// WriteStream decodes a capture with c as capture.Stream reads it (Stream), writing each
// exchange to w as it completes (text, or a line of JSON) and keeping none: memory is that of
// the frames in flight, whatever the capture's size. The notes come last, once known: in the
// text after the frames, in JSON as the summary line. An error of reading the input is an
// *InputError; the output is then written up to it.
func WriteStream(w io.Writer, c *kafka.Catalog, in io.Reader, o capture.Options, f Format) (*capture.Result, Count, error) {
	bw := bufio.NewWriterSize(w, 64<<10)
	// Use the memory of each exchange's frames again once written (Recycle: nothing here keeps
	// them; the first failure kept is a frame that did not decode, which is not reused).
	o.Recycle = true
	last := 0 // the connection of the last exchange written
	r, n, err := Stream(c, in, o, func(conn *capture.Conn, e *capture.Exchange) error {
		if f.JSON {
			// Into bw itself: a buffer of the exchange's JSON first was one more copy of it.
			return writeJSONExchange(bw, conn, e, f.Indent)
		}
		if conn.ID != last {
			// A connection's heading as Write writes it: the exchanges of connections that
			// overlap come as they complete, so a connection may be headed again.
			connHeading(bw, conn, last == 0)
			last = conn.ID
		}
		return writeExchange(bw, e, false)
	})
	if err != nil {
		if (o.Context == nil || o.Context.Err() == nil) && bw.Flush() == nil {
			return nil, n, &InputError{err}
		}
		return nil, n, err
	}
	if f.JSON {
		err = writeJSONSummary(bw, r, n.Frames, n.Frames-n.Failed, f.Indent)
	} else {
		writeNotes(bw, r)
	}
	if err == nil {
		err = bw.Flush()
	}
	return r, n, err
}
