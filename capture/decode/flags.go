package decode

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kafkagrid/kafkagrid/capture"
)

// Flags say how to read the input: decode's flags, as the command line and the browser
// decoder's controls give them. DefaultFlags gives the command's defaults.
type Flags struct {
	API               string // -api: the name or key of the API of a response alone or a body; "" for any
	Version           int    // -version: their version; -1 for every version that reads the bytes
	Request, Response bool   // -request, -response: the input is one request, one response
	From              string // -from: a text form (capture.ParseForm), "bin" for bytes; "" told by the content
	NoSize            bool   // -no-size: the frame has no int32 size prefix
	Body              bool   // -body: the input is a body alone, without size and header
	Ports             string // -port: a capture's Kafka ports, comma-separated
	MaxFields         int    // -max-fields: at most this many fields (tree nodes), at least 1
}

// DefaultFlags are the command's defaults: any version, port 9092, capture.DefaultMaxNodes.
func DefaultFlags() Flags {
	return Flags{Version: -1, Ports: "9092", MaxFields: capture.DefaultMaxNodes}
}

// UsageError is an error in the flags themselves (the command's exit status 2).
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

func usagef(format string, a ...any) error { return &UsageError{fmt.Errorf(format, a...)} }

// input is what Flags.check reads of -from and -port.
type input struct {
	binary bool // -from bin: the input is bytes, whatever they look like
	form   capture.Form
	ports  []uint16
}

// Check checks the flags, in one order and with one wording for the command and the page;
// its errors are *UsageError.
func (f Flags) Check() error {
	_, err := f.check()
	return err
}

func (f Flags) check() (input, error) {
	var in input
	if f.Response && f.API == "" && !f.Body && !f.NoSize {
		return in, usagef("-response needs -api NAME")
	}
	if f.Response && f.Request {
		return in, usagef("give -request or -response, not both")
	}
	if f.Body && f.NoSize {
		return in, usagef("-body already means no size prefix (and no header): give one of them")
	}
	if f.From == "bin" || f.From == "binary" {
		in.binary = true
	} else if form, err := capture.ParseForm(f.From); err != nil {
		return in, usagef("-from: %v, or bin", strings.TrimPrefix(err.Error(), "textbytes: "))
	} else {
		in.form = form
	}
	if f.Version != -1 && f.API == "" {
		return in, usagef("-version goes with -api NAME")
	}
	if f.MaxFields < 1 {
		return in, usagef("-max-fields %d: want a positive number", f.MaxFields)
	}
	if f.Version < -1 || f.Version > 32767 {
		return in, usagef("-version %d out of range", f.Version)
	}
	for _, p := range strings.Split(f.Ports, ",") {
		n, err := strconv.ParseUint(strings.TrimSpace(p), 10, 16)
		if err != nil || n == 0 {
			return in, usagef("-port %q: want port numbers, comma-separated", f.Ports)
		}
		in.ports = append(in.ports, uint16(n))
	}
	return in, nil
}
