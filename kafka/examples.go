package kafka

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	kafkaexamples "github.com/kafkagrid/kafkagrid/examples/kafka"
	"github.com/kafkagrid/kafkagrid/internal/yamlerr"
	"github.com/kafkagrid/kafkagrid/schemas"
)

// Example returns the example body of api's request (or response) at version v: values
// generated from the schema (see the package doc), with the overrides of a YAML file merged on
// top. file names the YAML in errors; data is its content (nil: no overrides).
//
// The YAML has top-level keys request and response, each a map mirroring the message's field
// names; arrays are YAML lists (each element starts from the generated element), structs are
// maps, null is null. Bytes are a string (its UTF-8 bytes) or !!binary (base64); uuids are
// 8-4-4-4-12 hex or Kafka's base64 form. A tagged field set to a value other than its default
// is written. A value of the wrong type is an error naming the file, line and field path.
//
// The overrides are written once for every release and version. An override for a field that
// this version of the message lacks (it has it at other versions), or that this release's
// message lacks (another release kafkagrid knows has it: knownfields.txt), is left out of this
// frame and returned as a Skip; its value must still have the field's shape and type. An
// override that names a field no version of the message has, in this release or any release
// kafkagrid knows, is an error.
//
// A value that a rule following a field's name would choose, and that the field's type cannot
// hold, gives way to the field's own value (its entity type's, its default, or zero); Vectors
// reports each such value (Vector.Misfits) with the override that sets it.
func Example(api *API, response bool, v int16, file string, data []byte) (Values, []Skip, error) {
	vals, skipped, _, err := example(api, response, v, file, data, sharedKnownFields)
	return vals, skipped, err
}

func example(api *API, response bool, v int16, file string, data []byte, known func() *knownFields) (Values, []Skip, []Misfit, error) {
	spec := api.Request
	if response {
		spec = api.Response
	}
	if _, err := builtinStory(); err != nil {
		return nil, nil, nil, err
	}
	vals := generate(spec.Fields, v)
	var skipped []Skip
	if len(data) > 0 {
		side, err := yamlSide(file, data, response)
		if err != nil {
			return vals, nil, nil, err
		}
		if side != nil {
			m := &merger{file: file, v: v, key: api.Key, response: response, message: spec.Name, release: "Kafka " + api.Release,
				fields: spec.Fields, known: known}
			if err := m.merge(spec.Fields, side, vals, ""); err != nil {
				return vals, nil, nil, err
			}
			skipped = m.skipped
		}
	}
	// After the merge: a list override builds its elements afresh, record batches included.
	if magic := recordsMagic(api.Key, v); magic < 2 {
		legacyRecords(vals, magic)
	}
	misfits := resolveMisfits(vals, "", nil)
	if file == "" {
		file = api.Name + ".yaml"
	}
	slices.SortFunc(misfits, func(a, b Misfit) int { return strings.Compare(a.Path, b.Path) })
	for i := range misfits {
		m := &misfits[i]
		m.API, m.Version, m.Response, m.File = api.Name, v, response, file
		m.Override = overrideYAML(response, m.Path, fmt.Sprint(m.Value))
	}
	return vals, skipped, misfits, nil
}

// Misfit is an example value that a rule following the field's name chose and the field's
// type cannot hold (a timestamp rule meeting an int32, say): the frame has the field's own
// value instead (its entity type's, its schema default, or zero), and the override in File
// sets another. Vectors reports them (Vector.Misfits); one an override replaces is none.
type Misfit struct {
	API      string // "DeleteTopics"
	Version  int16
	Response bool
	Path     string // "ThrottleTimeMs", "Responses[0].ErrorCode"
	Type     string // the field's wire type, "int32"
	Rule     int64  // the value the name's rule gave
	Value    any    // the value written
	File     string // the override file of the API, "DeleteTopics.yaml"
	Override string // what to write in File to set the field: "response: {ThrottleTimeMs: 0}"
}

// String returns "DeleteTopics v3 response: " and Detail.
func (m Misfit) String() string {
	return messageName(&API{Name: m.API}, m.Response, m.Version) + ": " + m.Detail()
}

// Detail says what the misfit is and what to write, without the message's name and version.
func (m Misfit) Detail() string {
	return fmt.Sprintf("%s: the value its name suggests, %d, does not fit %s; %v written instead (to choose one, write in %s: %s)",
		m.Path, m.Rule, m.Type, m.Value, m.File, m.Override)
}

// resolveMisfits replaces the misfits left in vals (those no override replaced) by the fields'
// own values, and appends them to out.
func resolveMisfits(vals Values, prefix string, out []Misfit) []Misfit {
	for key, x := range vals {
		path := join(prefix, key)
		switch v := x.(type) {
		case misfit:
			vals[key] = v.value
			out = append(out, Misfit{Path: path, Type: v.wire, Rule: v.rule, Value: v.value})
		case Values:
			out = resolveMisfits(v, path, out)
		case []any:
			for i, e := range v {
				ep := path + "[" + strconv.Itoa(i) + "]"
				switch ev := e.(type) {
				case misfit:
					v[i] = ev.value
					out = append(out, Misfit{Path: ep, Type: ev.wire, Rule: ev.rule, Value: ev.value})
				case Values:
					out = resolveMisfits(ev, ep, out)
				}
			}
		}
	}
	return out
}

// overrideYAML is the override that sets the field at path (a frame path, "Topics[0].Name") to
// value, in YAML's flow style on one line: "request: {Topics: [{Name: orders}]}". An element
// after the first is reached through empty maps (elements of a list of values repeat value).
func overrideYAML(response bool, path, value string) string {
	inner := value
	segs := strings.Split(path, ".")
	for i := len(segs) - 1; i >= 0; i-- {
		name := segs[i]
		if j := strings.IndexByte(name, '['); j >= 0 && strings.HasSuffix(name, "]") {
			idx, err := strconv.Atoi(name[j+1 : len(name)-1])
			name = name[:j]
			if err == nil && idx >= 0 {
				filler := "{}, "
				if i == len(segs)-1 {
					filler = value + ", "
				}
				inner = "[" + strings.Repeat(filler, idx) + inner + "]"
			}
		}
		inner = "{" + name + ": " + inner + "}"
	}
	side := "request"
	if response {
		side = "response"
	}
	return side + ": " + inner
}

// exampleError completes the error of an example frame that does not encode with where the
// field's value comes from and the override that sets it.
func exampleError(err error, file string, response bool) error {
	var e *Error
	if !errors.As(err, &e) || e.Path == "" || strings.HasPrefix(e.Path, "header") || strings.HasPrefix(e.Path, "#") || strings.HasPrefix(e.Path, "body#") {
		return err
	}
	path, _, _ := strings.Cut(e.Path, "#")
	return fmt.Errorf("%w (the value comes from %s or, for a field that file does not set, from the generator; set it in %s, e.g. %s)",
		err, file, file, overrideYAML(response, path, "…"))
}

// Skip is an example override left out of one frame because the field is not in that version
// of the message, or not in that release.
type Skip struct {
	File string // the override file, "Produce.yaml"
	Line int
	Path string // "Responses[0].PartitionResponses[0].CurrentLeader"
	Why  string // "not in ProduceResponse v9 (versions 10+)"
}

// String returns "File:Line: Path: skipped: Why".
func (s Skip) String() string {
	return fmt.Sprintf("%s:%d: %s: skipped: %s", s.File, s.Line, s.Path, s.Why)
}

// yamlSide returns the request or response map of an override file (nil when absent).
func yamlSide(file string, data []byte, response bool) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, yamlSyntaxError(file, data, err)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("kafka: %s:%d: want a map with keys request and response", file, root.Line)
	}
	if err := duplicateKey(file, "", root); err != nil {
		return nil, err
	}
	var side *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		key, val := root.Content[i], root.Content[i+1]
		switch key.Value {
		case "request":
			if !response {
				side = val
			}
		case "response":
			if response {
				side = val
			}
		default:
			return nil, fmt.Errorf("kafka: %s:%d: unknown key %q (want request or response)", file, key.Line, key.Value)
		}
	}
	if side != nil && side.Tag == "!!null" {
		return nil, nil
	}
	return side, nil
}

// yamlSyntaxError turns a yaml.v3 error into "kafka: FILE:N: what", with a line for every error
// (yamlerr finds those yaml.v3 gives none).
func yamlSyntaxError(file string, data []byte, err error) error {
	line, msg := yamlerr.Locate(data, err)
	return fmt.Errorf("kafka: %s:%d: %s", file, line, msg)
}

// duplicateKey reports a key given twice in the map n: YAML forbids it, and yaml.v3 lets it
// through when decoding into a yaml.Node (the last value would silently win).
func duplicateKey(file, prefix string, n *yaml.Node) error {
	seen := make(map[string]int, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		key := n.Content[i]
		name := schemas.CanonicalName(key.Value)
		if line, dup := seen[name]; dup {
			return fmt.Errorf("kafka: %s:%d: %s: key given twice (first on line %d)", file, key.Line, join(prefix, key.Value), line)
		}
		seen[name] = key.Line
	}
	return nil
}

type merger struct {
	file     string
	v        int16
	key      int16
	response bool
	message  string           // the spec's name, "ProduceResponse"
	release  string           // "Kafka 2.4"
	fields   []*schemas.Field // the message's fields, at every version
	known    func() *knownFields
	skipped  []Skip
}

// join appends a field name to a path prefix.
func join(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

func (m *merger) errf(n *yaml.Node, path, format string, a ...any) error {
	return fmt.Errorf("kafka: %s:%d: %s: %s", m.file, n.Line, path, fmt.Sprintf(format, a...))
}

// merge sets the fields named in the YAML map n into vals.
func (m *merger) merge(fields []*schemas.Field, n *yaml.Node, vals Values, prefix string) error {
	if n.Kind != yaml.MappingNode {
		return m.errf(n, orBody(prefix), "want a map of fields, have %s", yamlKind(n))
	}
	if err := duplicateKey(m.file, prefix, n); err != nil {
		return err
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, val := n.Content[i], n.Content[i+1]
		// A name is matched as Kafka's generator matches it: timeoutMs is TimeoutMs.
		name := schemas.CanonicalName(key.Value)
		path := join(prefix, name)
		var f *schemas.Field
		for _, g := range fields {
			if g.Name == name {
				f = g
			}
		}
		if f == nil || !f.PresentIn(m.v) {
			why := fmt.Sprintf("not in %s's %s", m.release, m.message)
			if f != nil {
				why = fmt.Sprintf("not in %s v%d (versions %s)", m.message, m.v, f.Versions)
			}
			if err := m.checkKnown(key, val, path); err != nil {
				return err
			}
			m.skipped = append(m.skipped, Skip{File: m.file, Line: key.Line, Path: path, Why: why})
			continue
		}
		x, err := m.value(f, val, path, vals[f.Name])
		if err != nil {
			return err
		}
		vals[f.Name] = x
	}
	return nil
}

// checkKnown checks an override for a field this frame lacks against the fields of every
// release kafkagrid knows: the field must exist in one of them, and the value must have its
// shape and type (null is accepted: whether it may be null depends on a version we do not have).
func (m *merger) checkKnown(key, n *yaml.Node, path string) error {
	k := m.known()
	typ, ok := m.ownType(path)
	if !ok {
		typ, ok = k.lookup(m.key, m.response, dotted(path))
	}
	if !ok {
		return m.errf(key, path, "unknown field (no version of %s has it, in %s or in the releases kafkagrid knows: %s)",
			m.message, m.release, k.releases)
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil
	}
	var errs []error
	for _, t := range strings.Split(typ, "|") {
		err := m.checkShape(t, n, path)
		if err == nil {
			return nil
		}
		errs = append(errs, err)
	}
	return errs[0]
}

// ownType is the type (as knownfields.txt writes it) of the field at path in this release's
// message, at any version: a release kafkagrid does not know may have fields the table lacks.
func (m *merger) ownType(path string) (string, bool) {
	fields := m.fields
	var f *schemas.Field
	for _, name := range strings.Split(dotted(path), ".") {
		if f != nil {
			if f.Struct == nil {
				return "", false
			}
			fields = f.Struct.Fields
		}
		f = nil
		name = schemas.CanonicalName(name)
		for _, g := range fields {
			if g.Name == name {
				f = g
			}
		}
		if f == nil {
			return "", false
		}
	}
	return knownType(f.Type), true
}

// checkShape checks a value against a type of knownfields.txt ("int32", "[]struct", "struct").
func (m *merger) checkShape(typ string, n *yaml.Node, path string) error {
	if elem, ok := strings.CutPrefix(typ, "[]"); ok {
		if n.Kind != yaml.SequenceNode {
			return m.errf(n, path, "want a list, have %s", yamlKind(n))
		}
		for i, el := range n.Content {
			if err := m.checkShape(elem, el, path+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
		return nil
	}
	if typ == "struct" {
		if n.Kind != yaml.MappingNode {
			return m.errf(n, path, "want a map of fields, have %s", yamlKind(n))
		}
		if err := duplicateKey(m.file, path, n); err != nil {
			return err
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if err := m.checkKnown(n.Content[i], n.Content[i+1], join(path, n.Content[i].Value)); err != nil {
				return err
			}
		}
		return nil
	}
	t, err := schemas.ParseType(typ)
	if err != nil {
		return m.errf(n, path, "%v", err)
	}
	if t.Prim == schemas.Records {
		return m.errf(n, path, "records cannot be set in YAML (the example batch is generated)")
	}
	_, err = m.prim(t.Prim, n, path)
	return err
}

func orBody(p string) string {
	if p == "" {
		return "body"
	}
	return p
}

func yamlKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a map"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	}
	return "a scalar"
}

func (m *merger) value(f *schemas.Field, n *yaml.Node, path string, cur any) (any, error) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		if !f.NullableIn(m.v) {
			return nil, m.errf(n, path, "null for a field that is not nullable in version %d", m.v)
		}
		return nil, nil
	}
	if f.Type.Array {
		if n.Kind != yaml.SequenceNode {
			return nil, m.errf(n, path, "want a list, have %s", yamlKind(n))
		}
		out := make([]any, 0, len(n.Content))
		for i, el := range n.Content {
			ep := path + "[" + strconv.Itoa(i) + "]"
			if f.Type.Prim == schemas.StructType {
				base := generate(f.Struct.Fields, m.v)
				if err := m.merge(f.Struct.Fields, el, base, ep); err != nil {
					return nil, err
				}
				out = append(out, base)
				continue
			}
			x, err := m.prim(f.Type.Prim, el, ep)
			if err != nil {
				return nil, err
			}
			out = append(out, x)
		}
		return out, nil
	}
	switch recordsPrim(f) {
	case schemas.StructType:
		base, ok := cur.(Values)
		if !ok {
			base = generate(f.Struct.Fields, m.v)
		}
		return base, m.merge(f.Struct.Fields, n, base, path)
	case schemas.Records:
		return nil, m.errf(n, path, "records cannot be set in YAML (the example batch is generated)")
	}
	return m.prim(f.Type.Prim, n, path)
}

func (m *merger) prim(p schemas.Prim, n *yaml.Node, path string) (any, error) {
	if n.Kind != yaml.ScalarNode {
		return nil, m.errf(n, path, "want a scalar, have %s", yamlKind(n))
	}
	switch p {
	case schemas.Bool:
		if n.Tag == "!!bool" {
			if b, err := strconv.ParseBool(n.Value); err == nil {
				return b, nil
			}
		}
		return nil, m.errf(n, path, "want a bool, have %q", n.Value)
	case schemas.Int8, schemas.Int16, schemas.Uint16, schemas.Int32, schemas.Int64:
		wire, _ := intWire(p)
		if n.Tag == "!!int" {
			x, err := strconv.ParseInt(n.Value, 0, 64)
			if err == nil && intFits(p, x) {
				return x, nil
			}
			if err == nil || errors.Is(err, strconv.ErrRange) {
				return nil, m.errf(n, path, "%s does not fit %s", n.Value, wire)
			}
		}
		return nil, m.errf(n, path, "want an integer (%s), have %q", wire, n.Value)
	case schemas.Float64:
		if n.Tag == "!!float" || n.Tag == "!!int" {
			if x, err := strconv.ParseFloat(n.Value, 64); err == nil {
				return x, nil
			}
		}
		return nil, m.errf(n, path, "want a number, have %q", n.Value)
	case schemas.String:
		if n.Tag == "!!str" {
			return n.Value, nil
		}
		return nil, m.errf(n, path, "want a string, have %q (quote it)", n.Value)
	case schemas.Bytes:
		switch n.Tag {
		case "!!str":
			return []byte(n.Value), nil
		case "!!binary":
			b, err := base64.StdEncoding.DecodeString(n.Value)
			if err != nil {
				return nil, m.errf(n, path, "bad base64: %v", err)
			}
			return b, nil
		}
		return nil, m.errf(n, path, "want bytes (a string or !!binary), have %q", n.Value)
	case schemas.UUID:
		if n.Tag == "!!str" {
			u, err := ParseUUID(n.Value)
			if err != nil {
				return nil, m.errf(n, path, "%v", err)
			}
			return u, nil
		}
		return nil, m.errf(n, path, "want a uuid string, have %q", n.Value)
	}
	return nil, m.errf(n, path, "unsupported type")
}

// Vector is an API's example request and response, with the same correlation id.
type Vector struct {
	API      *API
	Request  *Frame
	Response *Frame
	Skipped  []Skip // overrides left out of these frames (see Example)
	// Misfits are the values of these frames that a rule following the field's name chose
	// and the field's type cannot hold, each with the override that sets it (see Misfit).
	Misfits []Misfit
	// Uncompressed is set when VectorOptions.Compression names a codec this version's records
	// may not carry (zstd before Produce v7 and Fetch v10, KIP-110, and in every legacy
	// message set): its records are written uncompressed instead.
	Uncompressed bool
}

// VectorOptions tunes Vectors. The zero value uses the built-in examples at each API's highest
// version.
type VectorOptions struct {
	// Examples holds the override files, <ApiName>.yaml at its root; nil means the project's
	// examples/kafka folder, built in.
	Examples fs.FS
	// Versions selects the versions of each API; the zero value is the highest.
	Versions VersionSet
	// Compression compresses the examples' record batches with a codec (none by default), and
	// turns their legacy message sets (Produce v0-v2, Fetch v0-v3) into one compressed wrapper
	// message; a version whose records may not carry the codec (zstd before Produce v7 and
	// Fetch v10, KIP-110, and in every message set) keeps them uncompressed, and its Vector
	// says so (Uncompressed). Xerial writes snappy in the xerial framing instead of raw blocks.
	Compression Codec
	Xerial      bool
	// MaxNodes, when positive, bounds the tree nodes of all the frames together: past it
	// Vectors fails with ErrTooManyFields instead of encoding more.
	MaxNodes int
	// APIs, when not empty, limits the vectors to these APIs of the catalogue (one drawing
	// of one API builds that API's examples only).
	APIs []*API
}

// CorrelationID is the correlation id of every example pair.
const CorrelationID = 7

// Vectors encodes, for every API of the catalogue in index order, the example request and
// response at each version o.Versions selects, highest first (see Example). Values stay the
// same across versions where a field exists, so that versions compare by eye. Their file base
// names are Frame.BaseName: "0-Produce-v12-request", "0-Produce-v12-response".
func (c *Catalog) Vectors(o VectorOptions) ([]Vector, error) {
	fsys := o.Examples
	if fsys == nil {
		fsys = builtinExamples()
	}
	out := make([]Vector, 0, len(c.APIs)*o.Versions.perAPI())
	enc := c.NewEncoder()
	known := sharedKnownFields
	nodes := 0
	for _, api := range c.APIs {
		if len(o.APIs) > 0 && !slices.Contains(o.APIs, api) {
			continue
		}
		file, data, err := exampleFile(fsys, api, known)
		if err != nil {
			return nil, err
		}
		for _, v := range o.Versions.Of(api) {
			vec := Vector{API: api}
			for _, resp := range []bool{false, true} {
				body, skipped, misfits, err := example(api, resp, v, file, data, known)
				if err != nil {
					return nil, err
				}
				vec.Skipped = append(vec.Skipped, skipped...)
				vec.Misfits = append(vec.Misfits, misfits...)
				if o.Compression != CodecNone || o.Xerial {
					// A codec the version does not allow is not written into it: its records
					// stay uncompressed, and the vector says so.
					codec := o.Compression
					if !codecAllowed(api.Key, v, codec) {
						codec = CodecNone
					}
					if compressBatches(body, codec, o.Xerial) && codec != o.Compression {
						vec.Uncompressed = true
					}
				}
				if err := c.exampleRules(api, resp, body, fsys, known); err != nil {
					return nil, err
				}
				m := Message{API: api, Response: resp, Version: v, CorrelationID: CorrelationID, ClientID: exampleClientID, Body: body}
				if resp {
					m.Request = vec.Request
				}
				f, err := enc.Encode(m)
				if err != nil {
					return nil, exampleError(err, file, resp)
				}
				if nodes += f.Nodes; o.MaxNodes > 0 && nodes > o.MaxNodes {
					return nil, fmt.Errorf("kafka: examples: %w: the frames up to %s have %d fields in all, more than the %d allowed",
						ErrTooManyFields, f.BaseName(), nodes, o.MaxNodes)
				}
				if resp {
					vec.Response = f
				} else {
					vec.Request = f
				}
			}
			out = append(out, vec)
		}
	}
	return out, nil
}

// envelop fills an Envelope example with a real forwarded message: the CreateTopics example
// request (or response), header and body without the size prefix.
func (c *Catalog) envelop(body Values, response bool, fsys fs.FS, known func() *knownFields) error {
	var inner *API
	for _, a := range c.APIs {
		if a.Key == KeyCreateTopics {
			inner = a
		}
	}
	if inner == nil {
		return nil
	}
	file, data, err := exampleFile(fsys, inner, known)
	if err != nil {
		return err
	}
	vals, _, _, err := example(inner, response, inner.Version, file, data, known)
	if err != nil {
		return err
	}
	f, err := c.Encode(Message{API: inner, Response: response, Version: inner.Version, CorrelationID: CorrelationID,
		ClientID: exampleClientID, Body: vals})
	if err != nil {
		return err
	}
	if response {
		body["ResponseData"] = f.Bytes[4:]
	} else {
		body["RequestData"] = f.Bytes[4:]
	}
	return nil
}

// exampleFile reads the override file of an API: <Name>.yaml, else the file of another name the
// API's key has had in the releases kafkagrid knows (2.4's ListOffset reads ListOffsets.yaml).
// No file is no overrides: data is nil.
func exampleFile(fsys fs.FS, api *API, known func() *knownFields) (string, []byte, error) {
	file := api.Name + ".yaml"
	data, err := fs.ReadFile(fsys, file)
	if errors.Is(err, fs.ErrNotExist) {
		for _, name := range known().names[api.Key] {
			if name == api.Name {
				continue
			}
			if d, e := fs.ReadFile(fsys, name+".yaml"); !errors.Is(e, fs.ErrNotExist) {
				file, data, err = name+".yaml", d, e
				break
			}
		}
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", nil, fmt.Errorf("kafka: examples: %w", err)
	}
	return file, data, nil
}

// builtinExamples is the project's examples/kafka folder, embedded.
func builtinExamples() fs.FS { return kafkaexamples.FS }

// codecAllowed reports whether Kafka takes records compressed with c in the records field of
// the API of key apiKey at version v, checked by TestBuiltRecords:
//   - none, gzip and snappy: every version, record batches and legacy message sets alike;
//   - lz4: every version too (Kafka 0.8.2 added it, with magic 0, whose frames Kafka writes
//     with the old header checksum; KIP-57 fixed it for magic 1);
//   - zstd: record batches only, from Produce v7 and Fetch v10 (KIP-110): a broker refuses it in
//     an older Produce request (UNSUPPORTED_COMPRESSION_TYPE) and never returns it to an older
//     Fetch. A legacy message set cannot hold it (its attributes name codecs 0-3 only). The
//     other APIs with records (FetchSnapshot, ShareFetch) came after KIP-110.
func codecAllowed(apiKey, v int16, c Codec) bool {
	switch c {
	case CodecNone, CodecGzip, CodecSnappy, CodecLZ4:
		return true
	case CodecZstd:
		switch apiKey {
		case KeyProduce:
			return v >= 7
		case KeyFetch:
			return v >= 10
		}
		return true
	}
	return false
}

// compressBatches sets the codec of every record batch in v (a body, struct or array value),
// and turns every legacy message set into one wrapper message compressed with it (c must be
// allowed there: codecAllowed). It reports whether v holds records.
func compressBatches(v any, c Codec, xerial bool) bool {
	found := false
	switch x := v.(type) {
	case Values:
		for key, f := range x {
			if ms, ok := f.(MessageSet); ok {
				found = true
				if c != CodecNone && len(ms) > 0 {
					x[key] = MessageSet{legacyWrapper(ms, c)}
				}
				continue
			}
			found = compressBatches(f, c, xerial) || found
		}
	case []any:
		for _, e := range x {
			found = compressBatches(e, c, xerial) || found
		}
	case []*RecordBatch:
		for _, b := range x {
			b.Attributes = b.Attributes&^7 | int16(c)
			b.Xerial = xerial
		}
		return true
	}
	return found
}

// legacyWrapper is a message set compressed into one wrapper message, as Kafka writes it
// (MemoryRecordsBuilder, and the broker's down-conversion for old fetches): the wrapper has the
// offset of the last inner message and, in magic 1, the largest inner timestamp; the inner
// messages keep their absolute offsets in magic 0 and count from 0 in magic 1 (KIP-31).
func legacyWrapper(ms MessageSet, c Codec) LegacyMessage {
	inner := slices.Clone(ms)
	last := ms[len(ms)-1]
	w := LegacyMessage{Offset: last.Offset, Magic: last.Magic, Attributes: int8(c), Inner: inner}
	if w.Magic == 1 {
		w.Timestamp = -1
		for i := range inner {
			inner[i].Offset -= ms[0].Offset
			w.Timestamp = max(w.Timestamp, inner[i].Timestamp)
		}
	}
	return w
}
