package reference

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"sync"

	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/schemas"
)

// The search index of a site of releases is one script, search-index.js, that sets
// window.KG_INDEX; site.js loads it when the reader first uses the search box (a script
// element works from file://, where fetch does not), and searches it in the page. Its
// members, each array indexed as the one it names:
//
//	r: the releases, oldest first
//	s: what "since" says of each release: "Kafka 2.2 or earlier", "Kafka 3.3; new after 3.0"
//	a: the APIs, by key: [key, newest name]
//	p: per API, its name in each release (null where the release lacks it), for links
//	v: per API, the versions each release's pages were built for, as runs [highest, lowest],
//	   highest first (null where the release lacks the API): "fetch v4" opens Fetch-v4.html
//	   of a release that has it
//	f: the fields by name: [name, [[api, side (0 request, 1 response), parent path, since
//	   version, since release, newest release with it], …]]
//	e: the error codes: [code, NAME, [[api, first release, last release], …]], the APIs
//	   whose schemas name it
//	k: the KIPs the schemas name: ["KIP-890", [[api, first release, last release], …]]
type searchIndex struct {
	R []string          `json:"r"`
	S []string          `json:"s"`
	A [][2]any          `json:"a"`
	P [][]*string       `json:"p"`
	V [][][][2]int16    `json:"v"`
	F []searchField     `json:"f"`
	E []searchError     `json:"e"`
	K []searchMentioned `json:"k"`
}

type searchField [2]any     // name, [][6]any
type searchError [3]any     // code, name, [][3]int
type searchMentioned [2]any // name, [][3]int

var (
	kipRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`KIP-[0-9]{1,5}\b`) })
	upperRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b`) })
)

// mentions maps a name to the APIs (by index) whose schemas name it, with the first and last
// release that do.
type mentions map[string]map[int]*[3]int

func (m mentions) add(name string, api, rel int) {
	byAPI := m[name]
	if byAPI == nil {
		byAPI = map[int]*[3]int{}
		m[name] = byAPI
	}
	if e := byAPI[api]; e != nil {
		e[2] = rel
		return
	}
	byAPI[api] = &[3]int{api, rel, rel}
}

func (m mentions) list(name string) [][3]int {
	out := [][3]int{}
	for _, e := range m[name] {
		out = append(out, *e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

// versionRuns writes versions (highest first) as runs of consecutive versions, [highest,
// lowest] each: 17…4 is one run.
func versionRuns(vs []int16) [][2]int16 {
	out := [][2]int16{}
	for _, v := range vs {
		if n := len(out); n > 0 && out[n-1][1] == v+1 {
			out[n-1][1] = v
			continue
		}
		out = append(out, [2]int16{v, v})
	}
	return out
}

// searchIndex builds search-index.js.
func (sb *siteBuilder) searchIndex() ([]byte, error) {
	h := sb.h
	idx := searchIndex{R: h.Releases}
	for i := range h.Releases {
		idx.S = append(idx.S, h.relName(i))
	}
	apiIndex := map[int16]int{}
	for i, ah := range h.APIs {
		apiIndex[ah.Key] = i
		idx.A = append(idx.A, [2]any{ah.Key, ah.Name})
		names := make([]*string, len(h.Releases))
		for j, r := range ah.Rows {
			if r.API != nil {
				n := r.API.Name
				names[j] = &n
			}
		}
		idx.P = append(idx.P, names)
		vers := make([][][2]int16, len(h.Releases))
		for j, r := range ah.Rows {
			if r.API != nil {
				vers[j] = versionRuns(sb.built[j][ah.Key])
			}
		}
		idx.V = append(idx.V, vers)
	}
	// Fields, by name; within a name by API, side and path, in the order first seen.
	type fieldHit struct {
		name string
		hits [][6]any
	}
	byName := map[string]*fieldHit{}
	for i, ah := range h.APIs {
		type seenKey struct {
			fh   *FieldHistory
			name string
		}
		seen := map[seenKey]bool{}
		for ri := len(ah.Rows) - 1; ri >= 0; ri-- { // newest first
			r := ah.Rows[ri]
			if r.API == nil {
				continue
			}
			for side, spec := range []*schemas.Spec{r.API.Request, r.API.Response} {
				walkFields(spec, func(p string, f *schemas.Field) {
					fh := h.FieldAt(ri, ah.Key, side == 1, p)
					if fh == nil || fh.Since < 0 || seen[seenKey{fh, f.Name}] {
						return // in no version any release accepts, or listed
					}
					seen[seenKey{fh, f.Name}] = true
					fn := byName[f.Name]
					if fn == nil {
						fn = &fieldHit{name: f.Name}
						byName[f.Name] = fn
					}
					fn.hits = append(fn.hits, [6]any{i, side, p[:len(p)-len(f.Name)], fh.Since, fh.SinceRel, ri})
				})
			}
		}
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		idx.F = append(idx.F, searchField{n, byName[n].hits})
	}
	// Error codes and KIPs named in the schemas (comments and about texts alike).
	errNames := map[string]bool{}
	for _, e := range kafka.ErrorCodes() {
		errNames[e.Name] = true
	}
	errs, kips := mentions{}, mentions{}
	for ri, c := range h.Cats {
		for _, a := range c.APIs {
			ai := apiIndex[a.Key]
			for _, spec := range []*schemas.Spec{a.Request, a.Response} {
				for _, m := range upperRE().FindAll(spec.Raw, -1) {
					if errNames[string(m)] {
						errs.add(string(m), ai, ri)
					}
				}
				for _, m := range kipRE().FindAll(spec.Raw, -1) {
					kips.add(string(m), ai, ri)
				}
			}
		}
	}
	for _, e := range kafka.ErrorCodes() {
		idx.E = append(idx.E, searchError{e.Code, e.Name, errs.list(e.Name)})
	}
	kipNames := make([]string, 0, len(kips))
	for k := range kips {
		kipNames = append(kipNames, k)
	}
	sort.Slice(kipNames, func(i, j int) bool {
		if len(kipNames[i]) != len(kipNames[j]) {
			return len(kipNames[i]) < len(kipNames[j])
		}
		return kipNames[i] < kipNames[j]
	})
	for _, k := range kipNames {
		idx.K = append(idx.K, searchMentioned{k, kips.list(k)})
	}
	data, err := json.Marshal(idx)
	if err != nil {
		return nil, fmt.Errorf("reference: search index: %w", err)
	}
	var b bytes.Buffer
	b.WriteString("// The search index of this site (kafkagrid): see site.js.\nwindow.KG_INDEX=")
	b.Write(data)
	b.WriteString(";\n")
	return b.Bytes(), nil
}
