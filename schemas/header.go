package schemas

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"unicode/utf8"
)

// Header is what a spec file says of itself at its top level: its name, type, apiKey and
// validVersions, read without parsing its fields (ScanHeader). It is enough to list a
// release's APIs and to name the release, before any spec is parsed.
type Header struct {
	File          string // the file's name in its folder: ProduceRequest.json
	Name          string
	Type          string
	APIKey        int16 // valid when HasAPIKey
	HasAPIKey     bool
	ValidVersions VersionRange
}

// ScanHeader reads a spec file's top-level name, type, apiKey and validVersions, skipping every
// other value (fields, commonStructs) by its brackets. It reads plain input only: ok is false
// for whatever Parse would read leniently, refuse or note at the top level (invalid UTF-8, a
// key given twice or as null, a string with an escape, a number written as a string or the
// reverse, a missing name or type, a bad version range, brackets that do not match), and the
// caller parses the file instead. It does not check the text of the values it skips: a spec
// whose fields are malformed is found when it is parsed.
func ScanHeader(data []byte) (Header, bool) {
	if !utf8.Valid(data) {
		return Header{}, false
	}
	s := &headerScan{b: data}
	if !s.space() || !s.at('{') {
		return Header{}, false
	}
	s.i++
	var h headerSeen
	for n := 0; ; n++ {
		if !s.space() {
			return Header{}, false
		}
		if n == 0 && s.at('}') {
			break
		}
		key, ok := s.str()
		if !ok || !s.space() || !s.at(':') {
			return Header{}, false
		}
		s.i++
		if !s.space() || !s.member(key, &h) || !s.space() {
			return Header{}, false
		}
		if s.at('}') {
			break
		}
		if !s.at(',') {
			return Header{}, false
		}
		s.i++
	}
	message := h.Type == "request" || h.Type == "response"
	if !h.hasName || !isStructName(h.Name) || h.Type == "" || message && (!h.HasAPIKey || !h.hasValid) {
		return Header{}, false
	}
	return h.Header, true
}

// headerSeen is a Header being read, with the keys read so far.
type headerSeen struct {
	Header
	hasName, hasType, hasValid bool
}

// member reads the value of the top-level key: a header's into h, once each; any other's
// skipped.
func (s *headerScan) member(key string, h *headerSeen) bool {
	switch key {
	case "name":
		seen := h.hasName
		h.hasName = true
		return !seen && s.text(&h.Name)
	case "type":
		seen := h.hasType
		h.hasType = true
		return !seen && s.text(&h.Type)
	case "validVersions":
		var text, msg string
		seen := h.hasValid
		h.hasValid = true
		ok := !seen && s.text(&text)
		h.ValidVersions, msg = parseVersions(text)
		return ok && msg == ""
	case "apiKey":
		return !h.HasAPIKey && s.apiKey(&h.Header)
	}
	return s.skip()
}

// headerScan is ScanHeader's place in a file's text.
type headerScan struct {
	b []byte
	i int
}

func (s *headerScan) at(c byte) bool { return s.i < len(s.b) && s.b[s.i] == c }

// space skips white space and comments; false at an unterminated block comment or a lone '/'.
func (s *headerScan) space() bool {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		case '/':
			if s.i+1 >= len(s.b) {
				return false
			}
			switch s.b[s.i+1] {
			case '/':
				end := len(s.b)
				if j := bytes.IndexByte(s.b[s.i:], '\n'); j >= 0 {
					end = s.i + j
				}
				if j := bytes.IndexByte(s.b[s.i:end], '\r'); j >= 0 {
					end = s.i + j
				}
				s.i = end
			case '*':
				j := bytes.Index(s.b[s.i+2:], []byte("*/"))
				if j < 0 {
					return false
				}
				s.i += 2 + j + 2
			default:
				return false
			}
		default:
			return true
		}
	}
	return true
}

// str reads a string without escapes or control characters.
func (s *headerScan) str() (string, bool) {
	if !s.at('"') {
		return "", false
	}
	j := bytes.IndexByte(s.b[s.i+1:], '"')
	if j < 0 {
		return "", false
	}
	v := s.b[s.i+1 : s.i+1+j]
	for _, c := range v {
		if c < 0x20 || c == '\\' {
			return "", false
		}
	}
	s.i += j + 2
	return string(v), true
}

// text reads a string value into *to.
func (s *headerScan) text(to *string) bool {
	v, ok := s.str()
	*to = v
	return ok
}

// apiKey reads an apiKey written as a number from 0 to 32767, as Parse reads it without a note.
func (s *headerScan) apiKey(h *Header) bool {
	j := s.i
	for j < len(s.b) && s.b[j] >= '0' && s.b[j] <= '9' {
		j++
	}
	k, err := strconv.ParseInt(string(s.b[s.i:j]), 10, 16)
	if err != nil || k < 0 {
		return false
	}
	s.i = j
	h.APIKey, h.HasAPIKey = int16(k), true
	return true
}

// skip passes over one value: a string, an object or array with all it holds, or a scalar.
func (s *headerScan) skip() bool {
	var open []byte // the brackets open, innermost last
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch c {
		case '"':
			j := s.i + 1
			for ; j < len(s.b) && s.b[j] != '"'; j++ {
				if s.b[j] == '\\' {
					j++
				}
			}
			if j >= len(s.b) {
				return false
			}
			s.i = j + 1
		case '{', '[':
			open = append(open, c+2) // '}' is '{'+2, ']' is '['+2
			s.i++
		case '}', ']':
			if len(open) == 0 {
				return true // the end of the object holding a scalar
			}
			if open[len(open)-1] != c {
				return false
			}
			open = open[:len(open)-1]
			s.i++
		case '/':
			if !s.space() {
				return false
			}
			continue
		case ',':
			if len(open) == 0 {
				return true
			}
			s.i++
		default:
			s.i++
			continue
		}
		if len(open) == 0 && c != ',' {
			return true
		}
	}
	return len(open) == 0
}

// Index is a release folder's spec files read for their headers only (ScanFolder): what
// lists its APIs and names it, before any spec is parsed. Load parses the specs a caller needs.
type Index struct {
	Dir     string
	Headers []Header // by file name
}

// ScanFolder reads every spec file of the release folder dir for its Header, as Load reads
// them (the same files and limits, links followed), into one buffer used again from file to
// file. ok is false when Load must read the folder instead: a file it cannot read or whose
// header is not plain (ScanHeader), two specs with one name, two requests or two responses
// with one apiKey, or no spec at all; Load then gives the error, or reads the lenient input
// with its notes.
func ScanFolder(dir string) (*Index, bool) {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil, false
	}
	names := specNames(os.DirFS(dir))
	if len(names) == 0 || len(names) > MaxReleaseFiles {
		return nil, false
	}
	sort.Strings(names)
	x := &Index{Dir: dir, Headers: make([]Header, 0, len(names))}
	total := 0
	byName := map[string]bool{}
	keys := map[string]bool{}
	var buf []byte
	for _, name := range names {
		var ok bool
		if buf, ok = scanFile(dir, name, buf[:0]); !ok {
			return nil, false
		}
		if total += len(buf); total > MaxReleaseSize {
			return nil, false
		}
		h, ok := ScanHeader(buf)
		if !ok || byName[h.Name] {
			return nil, false
		}
		byName[h.Name] = true
		if h.HasAPIKey && (h.Type == "request" || h.Type == "response") {
			k := h.Type + strconv.Itoa(int(h.APIKey))
			if keys[k] {
				return nil, false
			}
			keys[k] = true
		}
		h.File = name
		x.Headers = append(x.Headers, h)
	}
	return x, true
}

// Name is the name Load gives the release: its Kafka checkout's version, else the known
// release its requests match, else the folder's name.
func (x *Index) Name() string {
	if v := checkoutVersion(x.Dir); v != "" {
		return v
	}
	var reqs []keyVersions
	for _, h := range x.Headers {
		if h.Type == "request" && h.HasAPIKey {
			reqs = append(reqs, keyVersions{h.APIKey, h.ValidVersions})
		}
	}
	if n := knownRelease(reqs); n != "" {
		return n
	}
	return filepath.Base(x.Dir)
}

// Load reads and parses the spec files whose headers keep accepts into a Release named as Load
// names the whole folder (Index.Name). The Release holds those specs only. A file whose
// header Parse reads otherwise than ScanFolder did (it changed since) is an error.
func (x *Index) Load(keep func(Header) bool) (*Release, error) {
	fsys := linkedFS{os.DirFS(x.Dir).(fs.StatFS), x.Dir}
	var specs []*Spec
	for _, h := range x.Headers {
		if !keep(h) {
			continue
		}
		data, err := readFile(fsys, h.File)
		if err != nil {
			return nil, fmt.Errorf("schemas: %s: %w", h.File, err)
		}
		s, err := Parse(h.File, data)
		if err != nil {
			return nil, err
		}
		if headerOf(s) != h {
			return nil, fmt.Errorf("schemas: %s: changed while it was read", h.File)
		}
		specs = append(specs, s)
	}
	r, err := NewRelease(x.Dir, specs)
	if err != nil {
		return nil, err
	}
	r.name = x.Name()
	return r, nil
}

// headerOf is the Header of a parsed spec.
func headerOf(s *Spec) Header {
	return Header{File: s.File, Name: s.Name, Type: s.Type, APIKey: s.APIKey, HasAPIKey: s.HasAPIKey, ValidVersions: s.ValidVersions}
}
