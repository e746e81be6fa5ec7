package kafka

import (
	"fmt"
	"strings"

	"github.com/kafkagrid/kafkagrid/schemas"
)

// VersionSet selects versions of each API: every valid version, the highest, or a list of
// versions and ranges. The zero value is the highest.
type VersionSet struct {
	all     bool
	ranges  []schemas.VersionRange // a list: "0,3-5" (empty: the highest)
	highest bool                   // with ranges: the highest too (a union)
}

// AllVersions is the VersionSet of every valid version.
func AllVersions() VersionSet { return VersionSet{all: true} }

// ParseVersionSet parses "all", "highest", or a comma-separated list of versions and ranges
// ("0,3-5", "9+").
func ParseVersionSet(s string) (VersionSet, error) {
	switch t := strings.TrimSpace(s); t {
	case "all":
		return AllVersions(), nil
	case "highest", "":
		return VersionSet{}, nil
	}
	var vs VersionSet
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "highest" {
			vs.highest = true
			continue
		}
		if part == "" || part == "none" {
			return VersionSet{}, fmt.Errorf("kafka: versions %q: want all, highest, or versions like 0,3-5", s)
		}
		r, err := schemas.ParseVersions(part)
		if err != nil {
			return VersionSet{}, fmt.Errorf("kafka: versions %q: %s", s, strings.TrimPrefix(err.Error(), "schemas: "))
		}
		vs.ranges = append(vs.ranges, r)
	}
	if len(vs.ranges) == 0 { // "highest,highest"
		return VersionSet{}, nil
	}
	return vs, nil
}

// String returns the set as ParseVersionSet reads it.
func (s VersionSet) String() string {
	switch {
	case s.all:
		return "all"
	case len(s.ranges) == 0:
		return "highest"
	}
	parts := make([]string, len(s.ranges))
	for i, r := range s.ranges {
		parts[i] = r.String()
	}
	if s.highest {
		parts = append(parts, "highest")
	}
	return strings.Join(parts, ",")
}

// Union is the versions of s and of o.
func (s VersionSet) Union(o VersionSet) VersionSet {
	if s.all || o.all {
		return AllVersions()
	}
	return VersionSet{ranges: append(append([]schemas.VersionRange(nil), s.ranges...), o.ranges...),
		highest: s.Highest() || o.Highest() || s.highest || o.highest}
}

// Highest reports whether the set is each API's highest version only.
func (s VersionSet) Highest() bool { return !s.all && len(s.ranges) == 0 }

// MaxVersions is the most versions of one API a VersionSet selects: the highest ones. Kafka's
// APIs have at most 18 versions today (Fetch 0-17), but its generator accepts validVersions up
// to 0-32766, and a reference whose pages each list every version grows with the square of
// their number: two schema files edited to declare 32,767 versions of ApiVersions made a
// build write 8 GB in five minutes (pages of 9.5 MB each) before it was stopped.
const MaxVersions = 64

// Of returns the valid versions of api that the set selects, highest first: at most
// MaxVersions of them, the highest (Count tells how many there are without that limit).
func (s VersionSet) Of(api *API) []int16 {
	if s.Highest() {
		return []int16{api.Version}
	}
	var out []int16
	for v := api.Version; v >= api.Lowest && len(out) < MaxVersions; v-- {
		if s.selects(api, v) {
			out = append(out, v)
		}
	}
	return out
}

// Count returns how many valid versions of api the set selects, MaxVersions or not.
func (s VersionSet) Count(api *API) int {
	if s.Highest() {
		return 1
	}
	n := 0
	for v := api.Version; v >= api.Lowest; v-- {
		if s.selects(api, v) {
			n++
		}
	}
	return n
}

func (s VersionSet) selects(api *API, v int16) bool {
	if !api.Request.ValidIn(v) {
		return false
	}
	return s.all || s.contains(v) || s.highest && v == api.Version
}

func (s VersionSet) contains(v int16) bool {
	for _, r := range s.ranges {
		if r.Contains(v) {
			return true
		}
	}
	return false
}

// perAPI guesses how many versions an API has in the set, for sizing.
func (s VersionSet) perAPI() int {
	if s.Highest() {
		return 1
	}
	return 4
}
