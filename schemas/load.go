package schemas

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/kafkagrid/kafkagrid/internal/releasedir"
)

// Release is the specs of one release: a folder such as a Kafka checkout's
// clients/src/main/resources/common/message, a kafka-clients jar, or a Kafka installation.
type Release struct {
	Dir   string  // where the specs were read: a folder, or a jar's path
	Specs []*Spec // sorted by file name

	name      string
	byName    map[string]*Spec
	requests  map[int16]*Spec
	responses map[int16]*Spec
}

// MaxSpecSize bounds the size of one spec file; the largest real one is under 20 KiB.
const MaxSpecSize = 8 << 20

// MaxReleaseSize and MaxReleaseFiles bound what one release may hold, all its spec files
// together: Kafka 4.1 has 197 files of 888 KB. A release past them (a jar of a thousand 8 MiB
// files that compress to almost nothing, say) is refused as it is read.
const (
	MaxReleaseSize  = 64 << 20
	MaxReleaseFiles = 4096
)

// JarMessageDir is where a kafka-clients jar keeps the message specs.
const JarMessageDir = "common/message"

// Open loads one release's specs from path, which may be:
//   - a folder of *.json spec files (a Kafka checkout's clients/src/main/resources/common/message);
//   - a kafka-clients jar (kafka-clients-4.0.0.jar), which packages the same files under
//     common/message/;
//   - a Kafka installation folder (kafka_2.13-4.0.0), whose libs/kafka-clients-*.jar is read.
//
// The release is named from its contents where they say: a jar's version ("4.0.0"), a Kafka
// checkout's gradle.properties version ("4.1.0-SNAPSHOT"), or the known release whose
// requests have exactly these API keys and versions ("4.0"); else after the folder.
func Open(path string) (*Release, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("schemas: %w", err)
	}
	if !fi.IsDir() {
		if !strings.HasSuffix(path, ".jar") && !strings.HasSuffix(path, ".zip") {
			return nil, fmt.Errorf("schemas: %s: not a folder, nor a kafka-clients .jar", path)
		}
		return openJar(path)
	}
	if jars := InstallJars(path); len(jars) > 0 {
		if len(jars) > 1 {
			return nil, fmt.Errorf("schemas: %s: several kafka-clients jars in libs/ (%s); name one", path, strings.Join(jars, ", "))
		}
		return openJar(jars[0])
	}
	return Load(path)
}

// InstallJars returns the kafka-clients jars in a Kafka installation's libs folder (not the
// test or sources jars), or nil when path is not an installation.
func InstallJars(path string) []string {
	m, _ := filepath.Glob(filepath.Join(path, "libs", "kafka-clients-*.jar"))
	var out []string
	for _, j := range m {
		if b := filepath.Base(j); !strings.HasSuffix(b, "-test.jar") && !strings.HasSuffix(b, "-sources.jar") &&
			!strings.HasSuffix(b, "-javadoc.jar") {
			out = append(out, j)
		}
	}
	return out
}

// jarVersion is the version in a jar's name: "kafka-clients-3.9.0.jar" gives "3.9.0"; a name
// without one gives the name without ".jar".
func jarVersion(path string) string {
	b := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(path), ".jar"), ".zip")
	if v, ok := strings.CutPrefix(b, "kafka-clients-"); ok && v != "" {
		return v
	}
	return b
}

var errNoSpecs = errors.New("no *.json spec files")

// Load parses every *.json file in the folder dir, in file-name order (see LoadFS).
func Load(dir string) (*Release, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("schemas: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("schemas: %s is not a folder", dir)
	}
	r, err := LoadFS(linkedFS{os.DirFS(dir).(fs.StatFS), dir}, dir)
	if errors.Is(err, errNoSpecs) {
		return nil, fmt.Errorf("schemas: no *.json spec files in %s", dir)
	}
	if err != nil {
		return nil, err
	}
	r.name = folderName(dir, r)
	return r, nil
}

// linkedFS is a release folder whose spec files may be symbolic links: reading one follows
// it, and one that dangles or loops is an error that says so.
type linkedFS struct {
	fs.StatFS
	dir string
}

func (l linkedFS) Stat(name string) (fs.FileInfo, error) {
	fi, err := l.StatFS.Stat(name)
	if err != nil && fs.ValidPath(name) {
		if _, ferr := releasedir.Follow(filepath.Join(l.dir, filepath.FromSlash(name))); ferr != nil {
			return nil, errors.New(strings.TrimPrefix(ferr.Error(), filepath.Join(l.dir, filepath.FromSlash(name))+": "))
		}
	}
	return fi, err
}

// LoadFS parses every *.json file at the root of fsys, in file-name order; dir says where they
// came from (Release.Dir). Each bad file gives its own *Error; the result joins them
// (errors.Join), sorted by file, so a folder with three bad files names all three. Two specs
// with the same name, or two requests or two responses with the same apiKey, are errors too. A
// file that is not a regular file (a pipe, a device) or is larger than MaxSpecSize is refused
// before it is read.
func LoadFS(fsys fs.FS, dir string) (*Release, error) {
	names := specNames(fsys)
	if len(names) == 0 {
		return nil, errNoSpecs
	}
	if len(names) > MaxReleaseFiles {
		return nil, fmt.Errorf("schemas: %s: %d spec files, more than a release may have (%d)", dir, len(names), MaxReleaseFiles)
	}
	sort.Strings(names)
	var specs []*Spec
	var errs []error
	total := 0
	for _, name := range names {
		data, err := readFile(fsys, name)
		if err != nil {
			errs = append(errs, fmt.Errorf("schemas: %s: %w", name, err))
			continue
		}
		if total += len(data); total > MaxReleaseSize {
			return nil, fmt.Errorf("schemas: %s: its spec files up to %s have more than the %d bytes a release may have", dir, name, MaxReleaseSize)
		}
		s, err := Parse(name, data)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		specs = append(specs, s)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return NewRelease(dir, specs)
}

// readFile reads one spec file, refusing what is not a regular file or is too large.
func readFile(fsys fs.FS, name string) ([]byte, error) {
	fi, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file (%s)", fi.Mode().Type())
	}
	if fi.Size() > MaxSpecSize {
		return nil, fmt.Errorf("%d bytes, more than a spec file may have (%d)", fi.Size(), MaxSpecSize)
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := readAllSized(f, fi.Size(), MaxSpecSize)
	if err != nil {
		return nil, err
	}
	if len(data) > MaxSpecSize {
		return nil, fmt.Errorf("more than %d bytes, more than a spec file may have", MaxSpecSize)
	}
	return data, nil
}

// NewRelease indexes parsed specs (sorting them by file) as a release.
func NewRelease(dir string, specs []*Spec) (*Release, error) {
	r := &Release{
		Dir:       dir,
		Specs:     append([]*Spec(nil), specs...),
		byName:    map[string]*Spec{},
		requests:  map[int16]*Spec{},
		responses: map[int16]*Spec{},
	}
	sort.SliceStable(r.Specs, func(i, j int) bool { return r.Specs[i].File < r.Specs[j].File })
	var errs []error
	dup := func(s, prev *Spec, what string) {
		errs = append(errs, &Error{File: s.File, Pos: Pos{Line: 1, Col: 1},
			Msg: fmt.Sprintf("%s also in %s", what, prev.File)})
	}
	for _, s := range r.Specs {
		if prev, ok := r.byName[s.Name]; ok {
			dup(s, prev, "spec name "+s.Name)
			continue
		}
		r.byName[s.Name] = s
		if !s.HasAPIKey {
			continue
		}
		var m map[int16]*Spec
		switch s.Type {
		case "request":
			m = r.requests
		case "response":
			m = r.responses
		default:
			continue
		}
		if prev, ok := m[s.APIKey]; ok {
			dup(s, prev, fmt.Sprintf("%s apiKey %d", s.Type, s.APIKey))
			continue
		}
		m[s.APIKey] = s
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return r, nil
}

// Spec returns the spec named name ("ProduceRequest"), or nil.
func (r *Release) Spec(name string) *Spec {
	if r.byName == nil { // a Release built as a literal: search
		return r.find(func(s *Spec) bool { return s.Name == name })
	}
	return r.byName[name]
}

// Request returns the request spec with the API key, or nil.
func (r *Release) Request(apiKey int16) *Spec {
	if r.requests == nil {
		return r.find(func(s *Spec) bool { return s.Type == "request" && s.HasAPIKey && s.APIKey == apiKey })
	}
	return r.requests[apiKey]
}

// Response returns the response spec with the API key, or nil.
func (r *Release) Response(apiKey int16) *Spec {
	if r.responses == nil {
		return r.find(func(s *Spec) bool { return s.Type == "response" && s.HasAPIKey && s.APIKey == apiKey })
	}
	return r.responses[apiKey]
}

// Header returns the header spec named name ("RequestHeader", "ResponseHeader"), or nil.
func (r *Release) Header(name string) *Spec {
	if s := r.Spec(name); s != nil && s.Type == "header" {
		return s
	}
	return nil
}

func (r *Release) find(match func(*Spec) bool) *Spec {
	for _, s := range r.Specs {
		if match(s) {
			return s
		}
	}
	return nil
}

// Requests returns the request specs in API key order.
func (r *Release) Requests() []*Spec {
	var out []*Spec
	for _, s := range r.Specs {
		if s.Type == "request" && s.HasAPIKey && r.Request(s.APIKey) == s {
			out = append(out, s)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].APIKey < out[j].APIKey })
	return out
}

// Name returns the release's name, a label for pages: the version of the jar it was read from
// ("4.0.0") or of the Kafka checkout (its gradle.properties), the known release its contents
// match ("4.0"), a name given with SetName, or else the folder's name.
func (r *Release) Name() string {
	if r.name != "" {
		return r.name
	}
	return filepath.Base(r.Dir)
}

// Notes returns the notes of every spec (lenient input accepted while parsing), by file.
func (r *Release) Notes() []Note {
	var out []Note
	for _, s := range r.Specs {
		out = append(out, s.Notes...)
	}
	return out
}

// specNames returns the names of the entries at the root of fsys that end in ".json", what
// fs.Glob(fsys, "*.json") returns (none when the root cannot be read) without its pattern
// matching of every name, a sixth of the instructions of a process drawing one Kafka API.
func specNames(fsys fs.FS) []string {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".json") {
			names = append(names, e.Name())
		}
	}
	return names
}

// readAllSized reads r to its end, at most limit+1 bytes, into a buffer of size+1 bytes (the
// size the file had when it was stat'ed, and a byte for the read that finds the end): a spec is
// read in one buffer where io.ReadAll grows one from 512 bytes, a copy a doubling. A file that
// grew since is read on, growing the buffer, up to limit+1.
func readAllSized(r io.Reader, size, limit int64) ([]byte, error) {
	buf := make([]byte, 0, min(max(size, 0), limit)+1)
	for {
		if len(buf) == cap(buf) {
			if int64(len(buf)) > limit {
				return buf, nil
			}
			buf = slices.Grow(buf, int(min(int64(cap(buf)), limit+1-int64(len(buf)))))
		}
		end := int(min(int64(cap(buf)), limit+1)) // Grow may round the capacity up past it
		if len(buf) == end {
			return buf, nil
		}
		n, err := r.Read(buf[len(buf):end])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}
