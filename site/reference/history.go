package reference

import (
	"fmt"
	"strings"

	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/schemas"
)

// versionInfo is what the reference says of one version of an API: its header versions and
// what changed against the version before, from the schema model and from Kafka's own comments.
type versionInfo struct {
	Version   int16
	Headers   string // "request header v2, response header v1"
	Flexible  bool
	Changes   []string // "request: adds TransactionalId (string, nullable)", …
	Comments  []schemas.Comment
	Built     bool   // its frames and page are in this build
	Href      string // its page, relative to another page of the API ("" when not built)
	Current   bool   // the page being written is this version's
	Deprecate bool
}

// headerText names the header versions of an API version in words; ApiVersions responses
// always use header v0 (KIP-511), whatever the request's version.
func headerText(a *kafka.API, v int16) string {
	s := fmt.Sprintf("request header v%d, response header v%d", kafka.HeaderVersion(a, false, v), kafka.HeaderVersion(a, true, v))
	switch {
	case a.Facts().ResponseHeaderV0 && a.Response.FlexibleIn(v):
		s += " (ApiVersions responses always use header v0, so that any client can read them)"
	case kafka.HeaderVersion(a, false, v) == 0:
		s += " (request header v0: no ClientId)"
	}
	return s
}

// history returns the valid versions of an API, highest first, with what changed in each: the
// highest kafka.MaxVersions, and any other built or current (omitted says when the schema
// declares more). built says which versions have pages; top is the version of the API's main
// page.
func history(a *kafka.API, built []int16, current int16) []versionInfo {
	has := map[int16]bool{}
	for _, v := range built {
		has[v] = true
	}
	top := int16(-1)
	if len(built) > 0 {
		top = built[0]
	}
	comments := [2]map[int16][]schemas.Comment{a.Request.CommentsByVersion(), a.Response.CommentsByVersion()}
	var out []versionInfo
	for v := a.Version; v >= a.Lowest; v-- {
		if !a.Request.ValidIn(v) || len(out) >= kafka.MaxVersions && !has[v] && v != current {
			continue
		}
		vi := versionInfo{Version: v, Headers: headerText(a, v), Flexible: a.Request.FlexibleIn(v), Built: has[v],
			Current: v == current, Deprecate: a.Request.DeprecatedIn(v)}
		if vi.Built {
			vi.Href = strings.TrimPrefix(VersionPageName(a, v, top), "api/")
		}
		for i, side := range []struct {
			name string
			spec *schemas.Spec
		}{{"request", a.Request}, {"response", a.Response}} {
			for _, c := range side.spec.ChangesAt(v) {
				// What concerns the message as a whole is said once, for the request, unless
				// the response differs.
				once := c.Kind == schemas.FirstVersion || c.Kind == schemas.Deprecated || c.Kind == schemas.Unstable ||
					c.Kind == schemas.Flexible && a.Request.FlexibleIn(v) && !a.Request.FlexibleIn(v-1)
				if side.name == "response" && once {
					continue
				}
				vi.Changes = append(vi.Changes, side.name+": "+c.Text)
			}
			vi.Comments = append(vi.Comments, comments[i][v]...)
		}
		out = append(out, vi)
	}
	return out
}

// changeSummary is a version's changes in one line for the history table: "no change to the
// schema" when the model sees none (a version that only changes behaviour).
func (vi versionInfo) changeSummary() string {
	if len(vi.Changes) == 0 {
		return "no change to the bytes (a version that changes behaviour only)"
	}
	return strings.Join(vi.Changes, "; ")
}

// omitted is the note of an API whose schema declares more versions than a reference draws
// (kafka.MaxVersions), or "".
func omitted(a *kafka.API) string {
	n := kafka.AllVersions().Count(a)
	if n <= kafka.MaxVersions {
		return ""
	}
	return fmt.Sprintf("The schema of %s declares %d versions; a reference draws at most %d of them (the highest of those asked for) and lists the highest %d and any other it draws: a limit no Kafka API comes near (the most so far is 18, Fetch 0-17).", a.Name, n, kafka.MaxVersions, kafka.MaxVersions)
}
