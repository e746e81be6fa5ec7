package schemas

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseVersions parses a version range as written in a spec: "none" (the empty range), "N" (one
// version), "N+" (N and every later version) or "N-M" (N to M inclusive). Versions are 0 to
// MaxVersion.
func ParseVersions(s string) (VersionRange, error) {
	r, msg := parseVersions(s)
	if msg != "" {
		return VersionRange{}, fmt.Errorf("schemas: %s", msg)
	}
	return r, nil
}

// parseVersions is ParseVersions returning a message without the package prefix, for errors
// that carry a position.
func parseVersions(s string) (VersionRange, string) {
	bad := func(why string) (VersionRange, string) {
		return VersionRange{}, fmt.Sprintf("bad version range %q: %s", s, why)
	}
	t := strings.TrimSpace(s)
	switch {
	case t == "":
		return bad("empty")
	case t == "none":
		return VersionRange{}, ""
	case strings.HasSuffix(t, "+"):
		lo, ok := parseVersion(t[:len(t)-1])
		if !ok {
			return bad(`want "none", "N", "N+" or "N-M"`)
		}
		return VersionRange{Lo: lo, Hi: MaxVersion, Set: true}, ""
	}
	if a, b, ok := strings.Cut(t, "-"); ok {
		lo, ok1 := parseVersion(a)
		hi, ok2 := parseVersion(b)
		if !ok1 || !ok2 {
			return bad(`want "none", "N", "N+" or "N-M"`)
		}
		if hi < lo {
			return bad("upper bound below lower bound")
		}
		return VersionRange{Lo: lo, Hi: hi, Set: true}, ""
	}
	v, ok := parseVersion(t)
	if !ok {
		return bad(`want "none", "N", "N+" or "N-M"`)
	}
	return VersionRange{Lo: v, Hi: v, Set: true}, ""
}

// parseVersion parses a decimal version number without sign.
func parseVersion(s string) (Version, bool) {
	if s == "" || len(s) > 5 {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(s)
	if err != nil || n > int(MaxVersion) {
		return 0, false
	}
	return Version(n), true
}

// Contains reports whether v lies in the range.
func (r VersionRange) Contains(v Version) bool {
	return r.Set && v >= r.Lo && v <= r.Hi
}

// Highest returns the highest version of the range: MaxVersion for an open range, false for
// "none".
func (r VersionRange) Highest() (Version, bool) {
	if !r.Set {
		return 0, false
	}
	return r.Hi, true
}

// Lowest returns the lowest version of the range, false for "none".
func (r VersionRange) Lowest() (Version, bool) {
	if !r.Set {
		return 0, false
	}
	return r.Lo, true
}

// Empty reports whether the range holds no version ("none").
func (r VersionRange) Empty() bool { return !r.Set }

// Open reports whether the range has no upper bound ("N+").
func (r VersionRange) Open() bool { return r.Set && r.Hi == MaxVersion }

// Intersect returns the versions in both r and o.
func (r VersionRange) Intersect(o VersionRange) VersionRange {
	if !r.Set || !o.Set {
		return VersionRange{}
	}
	lo, hi := max(r.Lo, o.Lo), min(r.Hi, o.Hi)
	if lo > hi {
		return VersionRange{}
	}
	return VersionRange{Lo: lo, Hi: hi, Set: true}
}

// String writes the range as a spec does; ParseVersions reads it back to an equal range.
func (r VersionRange) String() string {
	switch {
	case !r.Set:
		return "none"
	case r.Hi == MaxVersion && r.Lo != MaxVersion:
		return strconv.Itoa(int(r.Lo)) + "+"
	case r.Lo == r.Hi:
		return strconv.Itoa(int(r.Lo))
	default:
		return strconv.Itoa(int(r.Lo)) + "-" + strconv.Itoa(int(r.Hi))
	}
}
