package webdecoder

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/kafkagrid/kafkagrid/capture"
	"github.com/kafkagrid/kafkagrid/capture/decode"
	"github.com/kafkagrid/kafkagrid/internal/jsonw"
	"github.com/kafkagrid/kafkagrid/internal/releasedir"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/schemas"
)

// Request is what the page asks: decode's flags as its controls set them, and the input's
// name ("-" for pasted text, else the dropped file's name, which names a response as build
// names it).
type Request struct {
	Release  string `json:"release"`
	From     string `json:"from"`
	NoSize   bool   `json:"noSize"`
	Body     bool   `json:"body"`
	API      string `json:"api"`
	Version  string `json:"version"` // "" for any
	Request  bool   `json:"request"`
	Response bool   `json:"response"`
	Port     string `json:"port"` // "" for 9092
	Name     string `json:"name"`
	// Narrow draws the grids 16 bits a row, for a phone's screen (no flag of decode's: how
	// the page draws, not what it decodes).
	Narrow bool `json:"narrow,omitempty"`
}

// The bounds of what the page hands the decoder, each checked before its memory is taken
// (Bytes): the input, as decode's (MaxInput); the request, a few flags (MaxRequest); a
// release's data, its schemas' text (MaxReleaseData: a release's is about 2 MB).
const (
	MaxInput       = 256 << 20
	MaxRequest     = 64 << 10
	MaxReleaseData = 64 << 20
)

// Bytes copies n bytes from the page (fill) into memory of the decoder's, when n is at most
// limit: the size is checked before the memory is taken. what names them in the error.
func Bytes(what string, n, limit int, fill func([]byte)) ([]byte, error) {
	if n < 0 || n > limit {
		return nil, fmt.Errorf("decode: %s is %d bytes, more than the browser decoder reads (%d MiB)", what, n, limit>>20)
	}
	b := make([]byte, n)
	fill(b)
	return b, nil
}

// InputSize is decode's error for an input of n bytes, more than it reads whole (MaxInput), or nil.
func InputSize(name string, n int) error {
	if n > MaxInput {
		return fmt.Errorf("decode: %s is %d bytes, more than decode reads (%d MiB): cut the capture (editcap, tcpdump -r … -c N)", shownName(name), n, MaxInput>>20)
	}
	return nil
}

// ParseRequest reads a request as the page sends it (JSON), at most MaxRequest bytes.
func ParseRequest(b []byte) (Request, error) {
	var q Request
	if len(b) > MaxRequest {
		return q, usagef("decode: the page's request is %d characters, more than %d", len(b), MaxRequest)
	}
	// As json.Unmarshal reads it, without its reflection (internal/jsonw).
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	err := jsonw.ReadObject(dec, []jsonw.Field{{Name: "release", String: &q.Release}, {Name: "from", String: &q.From},
		{Name: "noSize", Bool: &q.NoSize}, {Name: "body", Bool: &q.Body}, {Name: "api", String: &q.API},
		{Name: "version", String: &q.Version}, {Name: "request", Bool: &q.Request}, {Name: "response", Bool: &q.Response},
		{Name: "port", String: &q.Port}, {Name: "name", String: &q.Name}, {Name: "narrow", Bool: &q.Narrow}})
	if err == nil {
		if _, end := dec.Token(); end != io.EOF {
			err = errors.New("more after the request")
		}
	}
	if err != nil {
		return q, usagef("decode: the page's request: %v", err)
	}
	return q, nil
}

// flags are decode's flags the request gives, checked as the command checks its own: -version
// and -port are the controls' text.
func (q Request) flags() (decode.Flags, error) {
	f := decode.DefaultFlags()
	if v := strings.TrimSpace(q.Version); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return f, usagef("invalid value %q for flag -version: parse error", q.Version)
		}
		f.Version = n
	}
	if p := strings.TrimSpace(q.Port); p != "" {
		f.Ports = q.Port
	}
	f.API, f.Request, f.Response, f.From, f.NoSize, f.Body = q.API, q.Request, q.Response, q.From, q.NoSize, q.Body
	if err := f.Check(); err != nil {
		return f, usage(err)
	}
	return f, nil
}

// name is the input's name, "-" for pasted text.
func (q Request) name() string {
	if q.Name == "" {
		return "-"
	}
	return q.Name
}

// usageError is an error of the flags (decode's exit status 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

// usage is the command's error for one of package decode's: "decode: …", a usage error when
// it is one.
func usage(err error) error {
	if u := (*decode.UsageError)(nil); errors.As(err, &u) {
		return usageError{fmt.Errorf("decode: %w", u.Err)}
	}
	return err
}

// shownName is a file name as messages show it: quoted when it holds a control character.
func shownName(name string) string {
	for _, r := range name {
		if r < 0x20 || r == 0x7f || r == 0x85 || r == 0x2028 || r == 0x2029 {
			return strconv.Quote(name)
		}
	}
	return name
}

// ReleaseFile is one spec file of a release as a site ships it to the page: its name and its
// text, verbatim.
type ReleaseFile struct {
	Name string
	Text []byte
}

// releaseMagic begins a release's data (AppendRelease).
const releaseMagic = "kafkagrid release 1\n"

// AppendRelease appends to dst the data of the release name as a site ships them to the page
// (site/reference, decode/release-REL.js, gzipped there), which Release reads: a line
// "kafkagrid release 1", the release's name on a line, then each file's name on a line, its
// size in decimal on a line, and its bytes verbatim. No JSON: the page's decoder reads it
// without a JSON parser's work (or code). A name holding a line break is refused.
func AppendRelease(dst []byte, name string, files []ReleaseFile) ([]byte, error) {
	if strings.Contains(name, "\n") {
		return dst, fmt.Errorf("the release's name %q holds a line break", name)
	}
	dst = append(dst, releaseMagic...)
	dst = append(append(dst, name...), '\n')
	for _, f := range files {
		if strings.Contains(f.Name, "\n") {
			return dst, fmt.Errorf("the spec file name %q holds a line break", f.Name)
		}
		dst = append(append(dst, f.Name...), '\n')
		dst = append(strconv.AppendInt(dst, int64(len(f.Text)), 10), '\n')
		dst = append(dst, f.Text...)
	}
	return dst, nil
}

// ReadRelease reads what AppendRelease writes: the release's name and its files, each
// file's text a slice of data. Every size is checked against what is left before it is
// used; a release of no file or of more than schemas.MaxReleaseFiles is refused.
func ReadRelease(data []byte) (name string, files []ReleaseFile, err error) {
	rest, ok := bytes.CutPrefix(data, []byte(releaseMagic))
	if !ok {
		return "", nil, errors.New("the page's release data: not kafkagrid's (no \"kafkagrid release 1\" line)")
	}
	at := func() int { return len(data) - len(rest) }
	line := func(what string) (string, error) {
		l, r, ok := bytes.Cut(rest, []byte{'\n'})
		if !ok {
			return "", fmt.Errorf("the page's release data: byte %d: %s cut short", at(), what)
		}
		rest = r
		return string(l), nil
	}
	if name, err = line("the release's name"); err != nil {
		return "", nil, err
	}
	for len(rest) > 0 {
		if len(files) == schemas.MaxReleaseFiles {
			return "", nil, fmt.Errorf("the page's release data for %q: more than %d spec files", name, schemas.MaxReleaseFiles)
		}
		var f ReleaseFile
		if f.Name, err = line("a file's name"); err != nil {
			return "", nil, err
		}
		pos := at()
		size, err := line("the size of " + strconv.Quote(f.Name))
		if err != nil {
			return "", nil, err
		}
		n, err := strconv.Atoi(size)
		if err != nil || n < 0 || n > len(rest) || size != strconv.Itoa(n) {
			return "", nil, fmt.Errorf("the page's release data: byte %d: the size of %q is %q, not a size within the %d bytes left", pos, f.Name, size, len(rest))
		}
		f.Text, rest = rest[:n:n], rest[n:]
		files = append(files, f)
	}
	if len(files) == 0 {
		return "", nil, fmt.Errorf("the page's release data for %q: no spec file", name)
	}
	return name, files, nil
}

// Release reads a release the site shipped (AppendRelease's data): the same specs, parsed by
// the same schemas.Parse, as schemas.Open reads from the release's folder.
func Release(data []byte) (*kafka.Catalog, error) {
	relName, files, err := ReadRelease(data)
	if err != nil {
		return nil, err
	}
	var specs []*schemas.Spec
	for _, f := range files {
		s, err := schemas.Parse(f.Name, f.Text)
		if err != nil {
			return nil, err
		}
		specs = append(specs, s)
	}
	r, err := schemas.NewRelease(relName, specs)
	if err != nil {
		return nil, err
	}
	r.SetName(relName)
	return kafka.NewCatalog(r)
}

// Releases are the releases of the site, in the site's order, loaded on demand.
type Releases struct {
	Names []string
	// Load returns a release's catalogue; ok is false when its data is not in the page yet.
	Load func(name string) (c *kafka.Catalog, ok bool, err error)
}

// others is the loader of the releases of rels other than picked, newest first, as decode
// loads those beside its schemas folder; when one is not in the page yet it sets *need, and
// the page asks again once it has them all.
func (rels Releases) others(picked string, need *bool) func() []capture.Release {
	var loaded []capture.Release
	done := false
	return func() []capture.Release {
		if done {
			return loaded
		}
		done = true
		names := slices.Clone(rels.Names)
		slices.SortFunc(names, releasedir.Compare)
		slices.Reverse(names)
		for _, rel := range names {
			if rel == picked {
				continue
			}
			c, ok, err := rels.Load(rel)
			if !ok {
				*need = true
				continue
			}
			if err != nil {
				continue
			}
			loaded = append(loaded, capture.Release{Name: rel, Catalog: c})
		}
		return loaded
	}
}
