package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"

	"github.com/kafkagrid/kafkagrid/kafka"
)

// runDecode implements "kafkagrid decode": read a frame (.bin: int32 size, header, body, as
// the build verb writes them) and print its annotated tree. A request names its API and
// version in its header; a response needs -response -api NAME [-version N]. A frame that does
// not decode prints the tree decoded up to the failure, then the error (exit status 1).
func runDecode(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("decode", "[-schemas PATH | -kafka REF] [-release RELEASE] [-response -api NAME [-version N]] [-format txt|json] FILE.bin", stdout, stderr)
	sf := addSchemaFlags(fs)
	response := fs.Bool("response", false, "the frame is a response (responses do not name their API: give -api)")
	apiName := fs.String("api", "", "`NAME` or key of the response's API (\"Produce\", \"0\"); with -response")
	version := fs.Int("version", -1, "`N`: the response's version; default the API's highest version")
	format := fs.String("format", "txt", "output `FORMAT`: txt (one node per line: offset, length, type, name = value,\n"+
		"indented by depth) or json (the frame with its annotated tree)")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(files) != 1 {
		return usagef("decode: want one FILE.bin (or - for stdin), have %d arguments", len(files))
	}
	if *format = outputFormat(*format); *format != "txt" && *format != "json" {
		return usagef("decode: -format %q: want txt or json", *format)
	}
	if !*response && (*apiName != "" || *version != -1) {
		return usagef("decode: -api and -version name a response's API: add -response (a request names its own)")
	}
	if *response && *apiName == "" {
		return usagef("decode: -response needs -api NAME")
	}
	if *version < -1 || *version > 32767 {
		return usagef("decode: -version %d out of range", *version)
	}
	data, err := readInput(files[0])
	if err != nil {
		return fmt.Errorf("decode: %w", err)
	}
	c, _, err := sf.load(ctx, stderr)
	if err != nil {
		return fmt.Errorf("decode: %w", err)
	}
	o := kafka.DecodeOptions{Response: *response}
	if *response {
		api, ok := c.Lookup(*apiName)
		if !ok {
			return usagef("decode: -api %q: no such API in Kafka %s", *apiName, c.Release.Name())
		}
		o.API, o.Version = api, api.Version
		if *version >= 0 {
			o.Version = int16(*version)
		}
	}
	f, derr := c.Decode(data, o)
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(f); err != nil {
			return fmt.Errorf("decode: %w", err)
		}
	} else if err := kafka.WriteText(stdout, f.Root); err != nil {
		return fmt.Errorf("decode: %w", err)
	}
	if derr != nil {
		if m := responseName.FindStringSubmatch(filepath.Base(files[0])); m != nil && !*response {
			return fmt.Errorf("decode: %s: %w\n(the file's name says it is a %s v%s response: decode it with -response -api %s -version %s)",
				files[0], derr, m[2], m[3], m[2], m[3])
		}
		return fmt.Errorf("decode: %s: %w", files[0], derr)
	}
	return nil
}

// responseName matches the name build gives a response frame: 0-Produce-v12-response.bin.
var responseName = regexp.MustCompile(`^(\d+)-(\w+)-v(\d+)-response\.bin$`)

// readInput reads a file, or standard input for "-".
func readInput(name string) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(os.Stdin)
	}
	return os.ReadFile(name)
}
