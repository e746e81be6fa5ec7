package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/kafkagrid/kafkagrid/capture"
	"github.com/kafkagrid/kafkagrid/internal/releasedir"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/schemas"
	"github.com/kafkagrid/kafkagrid/site/report"
)

// The browser decoder (decode.html of a built site) is this package compiled to WebAssembly
// (wasm_js.go): the page gives decode's flags and input to pageDecode, which reads them as
// runDecode does, with the same functions (decodeFlags, shapeSearch, printResult and
// report.Write; for a capture streamDecode and reportStream; decodeStatus), and returns what
// the command prints and the report it writes with -o. It lives here, not in a package of
// its own, so that the page cannot drift from the command; pageDecode runs in tests as any code
// does (browser_test.go compares it with runDecode), the JavaScript glue only in Chromium.

// pageRequest is what the page asks: decode's flags, as its controls set them, and the input's
// name ("-" for pasted text, else the dropped file's name, which names a response as build
// names it).
type pageRequest struct {
	Release  string `json:"release"`
	From     string `json:"from"`
	NoSize   bool   `json:"noSize"`
	Body     bool   `json:"body"`
	API      string `json:"api"`
	Version  string `json:"version"` // "" for none
	Request  bool   `json:"request"`
	Response bool   `json:"response"`
	Port     string `json:"port"` // "" for 9092
	Name     string `json:"name"`
}

// pageResult is what the page shows: decode's standard output with -format txt and with
// -format json, what it prints on standard error (its error, "kafkagrid: …", and with -format
// json the notes on what it assumed), the exit status, and the report decode -o writes, each
// file by its path in the report's folder: index.html, exchanges/c1-1.html, …, frames/….
// The page shows the index, or the one exchange's page when there is one, and opens the
// other pages and files from memory when their links are followed (decode.js).
type pageResult struct {
	Text      string            `json:"text"`
	JSON      string            `json:"json"`
	JSONNotes string            `json:"jsonNotes,omitempty"`
	Stderr    string            `json:"stderr"`
	Status    int               `json:"status"`
	Files     map[string]string `json:"files,omitempty"`
	// Need says the decode looked for the bytes in the other releases and some of them were
	// not loaded yet (pageReleases.load said so): the page loads them all and asks again.
	Need bool `json:"need,omitempty"`
}

// The bounds of what the page hands the browser decoder, each checked before its memory is
// taken (pageBytes): the input, as decode's (maxInput); the request, a few flags (maxPageRequest);
// a release's data, its schemas and texts (maxReleaseData: a release's is about 2 MB).
const (
	maxPageRequest = 64 << 10
	maxReleaseData = 64 << 20
)

// pageInputSize is the error of an input of n bytes larger than decode reads, or nil.
func pageInputSize(name string, n int) error {
	if n > maxInput {
		return fmt.Errorf("decode: %s is %d bytes, more than decode reads (%d MiB): cut the capture (editcap, tcpdump -r … -c N)", shownName(name), n, maxInput>>20)
	}
	return nil
}

// pageBytes copies n bytes from the page (fill) into memory of the decoder's, when n is at
// most limit: the size is checked before the memory is taken. what names them in the error.
func pageBytes(what string, n, limit int, fill func([]byte)) ([]byte, error) {
	if n < 0 || n > limit {
		return nil, fmt.Errorf("decode: %s is %d bytes, more than the browser decoder reads (%d MiB)", what, n, limit>>20)
	}
	b := make([]byte, n)
	fill(b)
	return b, nil
}

// pageReleases are the releases of the site, in the site's order, loaded on demand.
type pageReleases struct {
	names []string
	// load returns a release's catalogue; ok is false when its data is not in the page yet.
	load func(name string) (c *kafka.Catalog, ok bool, err error)
}

// pageDecode decodes data as "kafkagrid decode -schemas SITE-SCHEMAS -release q.Release [flags] -"
// does, where SITE-SCHEMAS is the folder of the releases the site was built from.
func pageDecode(ctx context.Context, rels pageReleases, q pageRequest, data []byte) pageResult {
	var res pageResult
	if err := pageRun(ctx, rels, q, data, &res); err != nil {
		var stderr bytes.Buffer
		res.Status = exitCode(err, &stderr)
		res.Stderr = stderr.String()
	}
	return res
}

func pageRun(ctx context.Context, rels pageReleases, q pageRequest, data []byte, res *pageResult) error {
	// runDecode's checks (decodeFlags.check): -version and -port are the controls' text.
	version := -1
	if v := strings.TrimSpace(q.Version); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return usagef("invalid value %q for flag -version: parse error", q.Version)
		}
		version = n
	}
	ports := q.Port
	if strings.TrimSpace(ports) == "" {
		ports = "9092"
	}
	df := decodeFlags{api: q.API, version: version, request: q.Request, response: q.Response,
		from: q.From, noSize: q.NoSize, body: q.Body, ports: ports, maxFields: capture.DefaultMaxNodes}
	di, err := df.check()
	if err != nil {
		return err
	}
	name := q.Name
	if name == "" {
		name = "-"
	}
	if err := pageInputSize(name, len(data)); err != nil {
		return err
	}
	if !slices.Contains(rels.names, q.Release) {
		return usagef("decode: -release %q: this site has Kafka %s", q.Release, strings.Join(rels.names, ", "))
	}
	c, ok, err := rels.load(q.Release)
	if err != nil {
		return fmt.Errorf("decode: %w", err)
	}
	if !ok {
		res.Need = true
		return nil
	}
	o, search, err := df.reader(ctx, c, di, name, pageOthers(rels, q.Release, res), func(rel string) string { return "-release " + rel })
	if err != nil {
		return err
	}
	if capture.IsPcap(data) {
		return pageStream(ctx, c, name, data, o, res)
	}
	r, err := search.read(data, di.binary, di.form, o, df.noSize, df.body)
	if res.Need {
		return nil
	}
	if err != nil {
		return fmt.Errorf("decode: %s: %w", shownName(name), err)
	}
	msgs := messages(r)
	var text, js bytes.Buffer
	if err := printResult(&text, r, msgs, "txt", false); err != nil {
		return fmt.Errorf("decode: %w", err)
	}
	if err := printResult(&js, r, msgs, "json", false); err != nil {
		return fmt.Errorf("decode: %w", err)
	}
	res.Text, res.JSON = text.String(), js.String()
	if len(msgs) == 1 && msgs[0].Frame != nil {
		// The JSON of one frame is the frame alone: what was assumed goes to stderr.
		var b strings.Builder
		for _, n := range r.Notes {
			fmt.Fprintf(&b, "kafkagrid: decode: note: %s\n", n)
		}
		res.JSONNotes = b.String()
	}
	files := map[string]string{}
	if err := report.Write("", r, report.Options{Title: "kafkagrid decode " + name, Create: memCreate(files)}); err != nil {
		return fmt.Errorf("decode: %w", err)
	}
	res.Files = files
	return readStatus(c, name, r, msgs) // runDecode's outcome, in its words
}

// pageOthers is the shapeSearch's loader of the other releases of the site, newest first, as
// siblingReleases loads those of a schemas folder; when one is not in the page yet it sets
// res.Need, and the page asks again once it has them all.
func pageOthers(rels pageReleases, picked string, res *pageResult) func() []relCat {
	var loaded []relCat
	done := false
	return func() []relCat {
		if done {
			return loaded
		}
		done = true
		names := slices.Clone(rels.names)
		slices.SortFunc(names, releasedir.Compare)
		slices.Reverse(names)
		for _, rel := range names {
			if rel == picked {
				continue
			}
			c, ok, err := rels.load(rel)
			if !ok {
				res.Need = true
				continue
			}
			if err != nil {
				continue
			}
			loaded = append(loaded, relCat{rel, c})
		}
		return loaded
	}
}

// pageRelease is one release's schemas as the site ships them to the page (site/reference's
// decoderData, in decode/release-REL.js): its name and each spec file's text, verbatim.
type pageRelease struct {
	Release string `json:"release"`
	Files   []struct {
		Name string `json:"name"`
		Text string `json:"text"`
	} `json:"files"`
}

// releaseFromData reads a release the site shipped: the same specs, parsed by the same
// schemas.Parse, as schemas.Open reads from the release's folder.
func releaseFromData(data []byte) (*kafka.Catalog, error) {
	var pr pageRelease
	if err := json.Unmarshal(data, &pr); err != nil {
		return nil, fmt.Errorf("the page's release data: %w", err)
	}
	if len(pr.Files) == 0 || len(pr.Files) > schemas.MaxReleaseFiles {
		return nil, fmt.Errorf("the page's release data for %q: %d spec files", pr.Release, len(pr.Files))
	}
	var specs []*schemas.Spec
	for _, f := range pr.Files {
		s, err := schemas.Parse(f.Name, []byte(f.Text))
		if err != nil {
			return nil, err
		}
		specs = append(specs, s)
	}
	r, err := schemas.NewRelease(pr.Release, specs)
	if err != nil {
		return nil, err
	}
	r.SetName(pr.Release)
	return kafka.NewCatalog(r)
}

// memCreate is a report's Create that keeps each file in files, by its path in the folder.
func memCreate(files map[string]string) func(string, func(io.Writer) error) error {
	return func(rel string, fill func(io.Writer) error) error {
		var b bytes.Buffer
		if err := fill(&b); err != nil {
			return err
		}
		files[rel] = b.String()
		return nil
	}
}

// pageStream decodes a capture as decode does, streaming (streamDecode, reportStream): the
// text, the JSON and the report's files are what decode, decode -format json and decode -o
// write for it, and the outcome is decode's.
func pageStream(ctx context.Context, c *kafka.Catalog, name string, data []byte, o capture.Options, res *pageResult) error {
	var text, js bytes.Buffer
	status := streamDecode(ctx, c, name, bytes.NewReader(data), o, &text, "txt", false)
	if err := streamDecode(ctx, c, name, bytes.NewReader(data), o, &js, "json", false); err != nil && status == nil {
		status = err
	}
	res.Text, res.JSON = text.String(), js.String()
	files := map[string]string{}
	w, err := report.New("", report.Options{Title: "kafkagrid decode " + name, Create: memCreate(files)})
	if err == nil {
		_, _, err = reportStream(c, bytes.NewReader(data), o, w)
	}
	if err != nil {
		if status == nil {
			status = fmt.Errorf("decode: %s: %w", shownName(name), err)
		}
		return status
	}
	res.Files = files
	return status
}
