package schemas

// The version questions, answered here and nowhere else.

// PresentIn reports whether the field exists in version v of its message.
func (f *Field) PresentIn(v Version) bool { return f.Versions.Contains(v) }

// NullableIn reports whether the field may be null in version v.
func (f *Field) NullableIn(v Version) bool {
	return f.PresentIn(v) && f.NullableVersions.Contains(v)
}

// TaggedIn reports whether the field is a tagged field in version v (written in the tagged
// fields section, not in line).
func (f *Field) TaggedIn(v Version) bool {
	return f.HasTag && f.PresentIn(v) && f.TaggedVersions.Contains(v)
}

// ValidIn reports whether v is a valid version of the message.
func (s *Spec) ValidIn(v Version) bool { return s.ValidVersions.Contains(v) }

// FlexibleIn reports whether version v of the message is flexible (KIP-482): compact strings,
// arrays and bytes, and tagged fields.
func (s *Spec) FlexibleIn(v Version) bool { return s.FlexibleVersions.Contains(v) }

// CompactIn reports whether field f is written in the compact (flexible) encoding in version v:
// the message's flexibleVersions, unless the field overrides them (RequestHeader.ClientId says
// "none": it stays a classic nullable string in every header version).
func (s *Spec) CompactIn(f *Field, v Version) bool {
	if f.FlexibleVersions != nil {
		return f.FlexibleVersions.Contains(v)
	}
	return s.FlexibleIn(v)
}

// Highest returns the highest valid version of the message, false when it has none.
func (s *Spec) Highest() (Version, bool) { return s.ValidVersions.Highest() }

// UnstableIn reports whether v is the message's latest version and that version is marked
// unstable (latestVersionUnstable).
func (s *Spec) UnstableIn(v Version) bool {
	h, ok := s.Highest()
	return ok && s.LatestVersionUnstable && v == h
}

// DeprecatedIn reports whether version v is deprecated.
func (s *Spec) DeprecatedIn(v Version) bool { return s.DeprecatedVersions.Contains(v) }

// FieldsIn returns the fields of a struct (or of a message's top level) present in version v,
// in order, the tagged ones included.
func FieldsIn(fields []*Field, v Version) []*Field {
	var out []*Field
	for _, f := range fields {
		if f.PresentIn(v) {
			out = append(out, f)
		}
	}
	return out
}

// Walk calls fn for every field of the spec, depth first in file order: the top-level fields
// and the fields of inline structs beneath them, then the common structs' fields. A common
// struct's fields are visited once, however often it is used. Walk stops when fn returns
// false.
func (s *Spec) Walk(fn func(f *Field) bool) {
	var walk func(fields []*Field, inline bool) bool
	walk = func(fields []*Field, inline bool) bool {
		for _, f := range fields {
			if !fn(f) {
				return false
			}
			if f.Struct != nil && !s.isCommon(f.Struct) {
				if !walk(f.Struct.Fields, inline) {
					return false
				}
			}
		}
		return true
	}
	if !walk(s.Fields, true) {
		return
	}
	for _, st := range s.CommonStructs {
		if !walk(st.Fields, false) {
			return
		}
	}
}

func (s *Spec) isCommon(st *Struct) bool {
	for _, c := range s.CommonStructs {
		if c == st {
			return true
		}
	}
	return false
}
