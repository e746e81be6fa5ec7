package schemas

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Change is one difference between a version of a message and the version before it, computed
// from the model (ChangesAt).
type Change struct {
	Kind ChangeKind
	Path string // the field's path ("Topics[].Partitions[].Records"); empty for message-level changes
	Text string // a sentence: "adds TransactionalId (string, nullable)"
}

// ChangeKind classifies a Change.
type ChangeKind string

// The kinds of change.
const (
	FirstVersion ChangeKind = "first"       // the lowest valid version
	FieldAdded   ChangeKind = "added"       // a field (with its sub-fields) appears
	FieldRemoved ChangeKind = "removed"     // a field (with its sub-fields) goes
	Nullable     ChangeKind = "nullable"    // a field may be null from this version
	NotNullable  ChangeKind = "not-null"    // a field may no longer be null
	Tagged       ChangeKind = "tagged"      // a field moves into the tagged fields
	Untagged     ChangeKind = "untagged"    // a field leaves the tagged fields
	Flexible     ChangeKind = "flexible"    // the message's flexible versions start (KIP-482)
	Deprecated   ChangeKind = "deprecated"  // the version is deprecated
	Unstable     ChangeKind = "unstable"    // the version is the latest and marked unstable
	Compactness  ChangeKind = "compactness" // a field's own flexibleVersions override changes its encoding
)

// ChangesAt returns what changed in version v of the message against version v-1: fields added
// and removed (a struct once, not its every field), fields that became nullable or tagged, and
// the switch to flexible versions; for the lowest valid version, one FirstVersion change. A
// version that is not valid has none.
func (s *Spec) ChangesAt(v Version) []Change {
	if !s.ValidIn(v) {
		return nil
	}
	var out []Change
	prev := v - 1
	if v == 0 || !s.ValidIn(prev) {
		out = append(out, Change{Kind: FirstVersion, Text: fmt.Sprintf("the first valid version of %s (validVersions %s)", s.Name, s.ValidVersions)})
	} else {
		if s.FlexibleIn(v) && !s.FlexibleIn(prev) {
			out = append(out, Change{Kind: Flexible, Text: "flexible versions start (KIP-482): compact lengths for strings, bytes and arrays, " +
				"a tagged-fields section after every struct, and the flexible header version"})
		}
		out = append(out, fieldChanges(s, s.Fields, "", prev, v)...)
	}
	if s.DeprecatedIn(v) && (v == 0 || !s.DeprecatedIn(prev)) {
		out = append(out, Change{Kind: Deprecated, Text: fmt.Sprintf("deprecated (deprecatedVersions %s)", s.DeprecatedVersions)})
	}
	if s.UnstableIn(v) {
		out = append(out, Change{Kind: Unstable, Text: "the latest version, marked unstable (latestVersionUnstable): brokers do not advertise it by default"})
	}
	return out
}

// fieldChanges compares the fields of one struct between two versions, descending into structs
// present in both.
func fieldChanges(s *Spec, fields []*Field, prefix string, prev, v Version) []Change {
	var out []Change
	for _, f := range fields {
		path := prefix + f.Name
		was, is := f.PresentIn(prev), f.PresentIn(v)
		switch {
		case is && !was:
			out = append(out, Change{Kind: FieldAdded, Path: path, Text: "adds " + path + " (" + describeField(s, f, v) + ")"})
			continue
		case was && !is:
			out = append(out, Change{Kind: FieldRemoved, Path: path, Text: "removes " + path})
			continue
		case !is:
			continue
		}
		if n, m := f.NullableIn(prev), f.NullableIn(v); n != m {
			if m {
				out = append(out, Change{Kind: Nullable, Path: path, Text: path + " may be null"})
			} else {
				out = append(out, Change{Kind: NotNullable, Path: path, Text: path + " may no longer be null"})
			}
		}
		if t, u := f.TaggedIn(prev), f.TaggedIn(v); t != u {
			if u {
				out = append(out, Change{Kind: Tagged, Path: path, Text: fmt.Sprintf("%s becomes tagged field %d", path, f.Tag)})
			} else {
				out = append(out, Change{Kind: Untagged, Path: path, Text: path + " is no longer a tagged field"})
			}
		}
		if f.FlexibleVersions != nil && s.CompactIn(f, prev) != s.CompactIn(f, v) && s.FlexibleIn(prev) == s.FlexibleIn(v) {
			out = append(out, Change{Kind: Compactness, Path: path, Text: path + " changes encoding (its own flexibleVersions " + f.FlexibleVersions.String() + ")"})
		}
		if f.Struct != nil {
			sub := path + "."
			if f.Type.Array {
				sub = path + "[]."
			}
			out = append(out, fieldChanges(s, f.Struct.Fields, sub, prev, v)...)
		}
	}
	return out
}

// describeField says a field's type and traits at a version: "int32", "string, nullable",
// "tagged 0, int64", "[]Topic, ignorable".
func describeField(s *Spec, f *Field, v Version) string {
	parts := []string{f.Type.Name}
	if f.TaggedIn(v) {
		parts = []string{"tagged field " + strconv.Itoa(f.Tag), f.Type.Name}
	}
	if f.NullableIn(v) {
		parts = append(parts, "nullable")
	}
	if f.Ignorable {
		parts = append(parts, "ignorable")
	}
	return strings.Join(parts, ", ")
}

// Comment is a paragraph of the comments in a spec file, quoted as Kafka wrote it.
type Comment struct {
	File string
	Line int    // the paragraph's first line
	Text string // the paragraph, "//" and line breaks removed
}

// String returns "File:Line: Text".
func (c Comment) String() string { return fmt.Sprintf("%s:%d: %s", c.File, c.Line, c.Text) }

// The patterns of comments about versions, compiled on first use (not at start-up: most runs
// never read a comment).
var (
	// versionLead matches a paragraph that starts by naming versions: "Version 3 adds …",
	// "Versions 1-2 are …", "Starting in version 7, …", "In version 2, …".
	versionLead = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(?:(?:starting|beginning)\s+(?:in|from|with)\s+|since\s+|from\s+|in\s+)?versions?\s+(\d+)`)
	})
	// versionList matches the versions of the first sentence: "1 and 2", "0-2", "3 through 5".
	versionList = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(\d+)(?:\s*(?:-|to|through)\s*(\d+))?`)
	})
)

// CommentsAbout returns the paragraphs of the file's comments that speak of version v: those
// that start by naming it ("Version 3 adds …", "Versions 1 and 2 are the same as version 0",
// "Starting in version 7, …"), in file order. The licence header is left out.
func (s *Spec) CommentsAbout(v Version) []Comment { return s.CommentsByVersion()[v] }

// CommentsByVersion returns CommentsAbout for every version at once, reading the file's
// comments once.
func (s *Spec) CommentsByVersion() map[Version][]Comment {
	out := map[Version][]Comment{}
	for _, c := range s.Comments() {
		if !versionLead().MatchString(c.Text) {
			continue
		}
		vs := commentVersions(c.Text)
		for v := range vs {
			out[v] = append(out[v], c)
		}
	}
	return out
}

// commentVersions returns the versions a paragraph's first sentence names.
func commentVersions(text string) map[Version]bool {
	first := text
	if i := strings.Index(text, ". "); i >= 0 {
		first = text[:i]
	}
	// Numbers after "version" words only, up to the first word that is not a number or a joiner.
	loc := versionLead().FindStringSubmatchIndex(first)
	if loc == nil {
		return nil
	}
	rest := first[loc[2]:]
	end := len(rest)
	for i, w := range strings.Fields(rest) {
		if i == 0 {
			continue
		}
		lw := strings.ToLower(strings.Trim(w, ",;:"))
		if _, err := strconv.Atoi(strings.Split(lw, "-")[0]); err == nil || lw == "and" || lw == "to" || lw == "through" || lw == "-" || lw == "or" {
			continue
		}
		end = strings.Index(rest, w)
		break
	}
	out := map[Version]bool{}
	for _, m := range versionList().FindAllStringSubmatch(rest[:end], -1) {
		lo, err := strconv.Atoi(m[1])
		if err != nil || lo > int(MaxVersion) {
			continue
		}
		hi := lo
		if m[2] != "" {
			if h, err := strconv.Atoi(m[2]); err == nil && h >= lo && h-lo < 100 {
				hi = h
			}
		}
		for x := lo; x <= hi; x++ {
			out[Version(x)] = true
		}
	}
	return out
}

// Comments returns the paragraphs of the "//" comments of the file (a paragraph ends at a blank
// comment line or at code), without the Apache licence header.
func (s *Spec) Comments() []Comment {
	var out []Comment
	var cur []string
	start := 0
	flush := func() {
		if len(cur) > 0 {
			text := strings.Join(cur, " ")
			if !strings.Contains(text, "Licensed to the Apache Software Foundation") {
				out = append(out, Comment{File: s.File, Line: start, Text: text})
			}
		}
		cur = nil
	}
	for i, line := range strings.Split(string(s.Raw), "\n") {
		t := strings.TrimSpace(line)
		rest, ok := strings.CutPrefix(t, "//")
		if !ok {
			flush()
			continue
		}
		rest = strings.TrimSpace(rest)
		if rest == "" {
			flush()
			continue
		}
		if len(cur) == 0 {
			start = i + 1
		}
		cur = append(cur, rest)
	}
	flush()
	return out
}
