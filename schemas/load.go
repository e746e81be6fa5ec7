package schemas

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// Release is the specs of one folder, such as a Kafka release's
// clients/src/main/resources/common/message.
type Release struct {
	Dir   string
	Specs []*Spec // sorted by file name

	byName    map[string]*Spec
	requests  map[int16]*Spec
	responses map[int16]*Spec
}

// Load parses every *.json file in dir, in file-name order. Each bad file gives its own
// *Error; the result joins them (errors.Join), sorted by file, so a folder with three bad
// files names all three. Two specs with the same name, or two requests or two responses with
// the same apiKey, are errors too.
func Load(dir string) (*Release, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, fmt.Errorf("schemas: %w", err)
	}
	if len(names) == 0 {
		if _, err := os.Stat(dir); err != nil {
			return nil, fmt.Errorf("schemas: %w", err)
		}
		return nil, fmt.Errorf("schemas: no *.json spec files in %s", dir)
	}
	sort.Strings(names)
	var specs []*Spec
	var errs []error
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			errs = append(errs, fmt.Errorf("schemas: %w", err))
			continue
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

// Name returns the release's folder name ("4.0"), a label for pages.
func (r *Release) Name() string {
	return filepath.Base(r.Dir)
}
