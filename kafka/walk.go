package kafka

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"sync"
	"unsafe"

	"github.com/kafkagrid/kafkagrid/schemas"
)

// Values is the value of a struct: field name → value. Field values are nil (null), bool,
// int64 (every integer type), float64, string, []byte, UUID, []any (arrays), Values (structs)
// or []*RecordBatch (records). A tagged field is written only when it is in the map with a
// value other than its default.
type Values map[string]any

// walker is the one schema walk behind encoding and decoding. It drives a writer or a reader
// field by field and builds the annotated tree as it goes. Writing, values come from
// Values; reading, the returned values are what was read.
type walker struct {
	w    *writer // the writer when encoding, else nil
	r    *reader // the reader when decoding, else nil
	spec *schemas.Spec
	ver  int16
	cat  *Catalog // decoding requests: to find the API of a header's key
	keys *Catalog // the catalogue whose names an API key's value is shown with (valueName)

	// compress compresses a batch's records when encoding (the function compress, set by
	// the Encoder): a field, not a call, so that a program that only decodes links no
	// codec's compressor.
	compress func(dst []byte, c Codec, src []byte, xerial bool) ([]byte, error)

	slab  []Node  // nodes are carved from slabs: far fewer allocations than one per node
	kids  []*Node // and so are children slices
	chunk int     // the slab size to allocate (slabNodes when shared); 0: grow from 16
	t     texts   // and paths and display values from one byte arena
	anys  []any   // and the element slices of decoded arrays

	inflate   int  // decoding: the bytes compressed batches may still inflate to
	inWrapper bool // walking the messages inside a compressed legacy wrapper

	mem *frameMem // DecodeOptions.Recycle: the frame's own blocks, from the pools

	nodes    int   // the nodes allocated so far
	maxNodes int   // decoding: the most nodes the frame's tree may have (DecodeOptions.MaxNodes)
	shape    Shape // decoding: what the bytes hold (DecodeOptions.Shape)
}

// slabNodes is the size of a shared node slab: as many nodes as fit in 32 KiB, the largest
// size class of Go's small-object allocator. A larger block is a large object, rounded up to
// whole 8 KiB pages (256 nodes, 42 KiB, took 48 KiB) and zeroed apart from the cached spans.
const slabNodes = (32 << 10) / int(unsafe.Sizeof(Node{}))

// kidsChunk is the size of a shared block of children pointers: 4 KiB.
const kidsChunk = (4 << 10) / int(unsafe.Sizeof((*Node)(nil)))

// anyBlock is the size of a shared block of decoded arrays' elements: 4 KiB.
const anyBlock = (4 << 10) / int(unsafe.Sizeof(any(nil)))

// alloc returns a zero Node from the walker's slab.
func (k *walker) alloc() *Node {
	if len(k.slab) == cap(k.slab) && k.mem != nil {
		k.slab = nodeBlocks.get(1, len(k.mem.nodes) == 0, &k.mem.nodes)
	} else if len(k.slab) == cap(k.slab) {
		size := k.chunk
		if size == 0 {
			size = min(max(2*cap(k.slab), 16), slabNodes)
		}
		k.slab = make([]Node, 0, size)
	}
	k.slab = k.slab[:len(k.slab)+1]
	k.nodes++
	return &k.slab[len(k.slab)-1]
}

// nested walks a frame inside the frame (a compressed batch's records, the messages of a
// compressed legacy wrapper) with k itself over the plain bytes: w or r (the other nil) stand
// in for k's writer and reader while walk runs, and inWrapper marks a wrapper's messages. The
// nodes and texts go to k's blocks as any others do.
func (k *walker) nested(w *writer, r *reader, inWrapper bool, walk func() error) error {
	ow, or, oi := k.w, k.r, k.inWrapper
	k.w, k.r, k.inWrapper = w, r, inWrapper || oi
	defer func() { k.w, k.r, k.inWrapper = ow, or, oi }()
	return walk()
}

// spent fails, when decoding, once the frame's tree has as many nodes as DecodeOptions.MaxNodes
// allows. Every loop over what the input counts (array elements, tagged fields, batches,
// records, headers, messages) asks before each one, so a tree outgrows the limit by at most
// one element's fixed fields.
func (k *walker) spent(path string, off int) error {
	if k.r == nil || k.nodes < k.maxNodes {
		return nil
	}
	return k.fail(path, off, "%w: the tree has as many nodes as the limit allows; the rest of the frame is not decoded", ErrTooManyFields)
}

// anySlice returns a zeroed slice of n elements for a decoded array, carved from a shared
// block when it is small (its capacity is n: appending to it never touches its neighbours).
func (k *walker) anySlice(n int) []any {
	const block = anyBlock
	if n > block/8 {
		return make([]any, n)
	}
	if len(k.anys)+n > cap(k.anys) && k.mem != nil {
		k.anys = anyBlocks.get(n, len(k.mem.anys) == 0, &k.mem.anys)
	} else if len(k.anys)+n > cap(k.anys) {
		k.anys = make([]any, 0, max(min(max(2*cap(k.anys), 16), block), n))
	}
	s := k.anys[len(k.anys) : len(k.anys)+n : len(k.anys)+n]
	k.anys = k.anys[:len(k.anys)+n]
	return s
}

// children gives a node room for n children (appending more still works).
func (k *walker) children(parent *Node, n int) {
	if parent.Children != nil || n <= 0 {
		return
	}
	if len(k.kids)+n > cap(k.kids) && k.mem != nil {
		k.kids = kidBlocks.get(n, len(k.mem.kids) == 0, &k.mem.kids)
	} else if len(k.kids)+n > cap(k.kids) {
		size := kidsChunk
		if k.chunk == 0 {
			size = min(max(2*cap(k.kids), 32), kidsChunk)
		}
		k.kids = make([]*Node, 0, max(size, n))
	}
	parent.Children = k.kids[len(k.kids) : len(k.kids) : len(k.kids)+n]
	k.kids = k.kids[:len(k.kids)+n]
}

func dataAbout(p schemas.Prim) string {
	if p == schemas.String {
		return "The string's bytes (UTF-8)."
	}
	return "The content bytes."
}

// pathError is a failure at a field path and byte offset; Encode and Decode wrap it in an
// *Error that names the message.
type pathError struct {
	path string
	off  int
	err  error
}

func (e *pathError) Error() string { return fmt.Sprintf("%s: offset %d: %v", e.path, e.off, e.err) }
func (e *pathError) Unwrap() error { return e.err }

func (k *walker) fail(path string, off int, format string, a ...any) error {
	return &pathError{path: path, off: off, err: fmt.Errorf(format, a...)}
}

func (k *walker) failErr(path string, off int, err error) error {
	var pe *pathError
	if errors.As(err, &pe) {
		return err
	}
	return &pathError{path: path, off: off, err: err}
}

func (k *walker) fieldNode(kind NodeKind, name, path string, f *schemas.Field) *Node {
	n := k.alloc()
	n.Kind = kind
	n.Name = name
	n.Path = path
	n.Offset = k.pos()
	n.Field = f
	if f != nil {
		n.About = f.About
		if k.spec != nil {
			n.Spec = k.spec.File
		}
	}
	return n
}

// pos is the offset of the next byte from the start of the frame.
func (k *walker) pos() int {
	if k.w != nil {
		return len(k.w.buf)
	}
	return k.r.off
}

// left is the number of bytes left before the reader's current limit; writing has no limit.
func (k *walker) left() int {
	if k.w != nil {
		return math.MaxInt
	}
	return k.r.left()
}

// fixed writes v, or reads, an n-byte big-endian unsigned integer (n is 1, 2, 4 or 8), and
// returns the value written or read.
func (k *walker) fixed(n int, v uint64) (uint64, error) {
	if k.w != nil {
		return k.w.fixed(n, v)
	}
	return k.r.fixed(n, v)
}

// uvarint writes or reads an unsigned LEB128 varint.
func (k *walker) uvarint(v uint64) (uint64, error) {
	if k.w != nil {
		return k.w.uvarint(v)
	}
	return k.r.uvarint(v)
}

// varint writes or reads a zigzag varint (record fields).
func (k *walker) varint(v int64) (int64, error) {
	if k.w != nil {
		return k.w.varint(v)
	}
	return k.r.varint(v)
}

// raw writes b (n bytes), or reads n bytes (without copying).
func (k *walker) raw(n int, b []byte) ([]byte, error) {
	if k.w != nil {
		return k.w.raw(n, b)
	}
	return k.r.raw(n, b)
}

// end sets a container's length from its start to the current position.
func (k *walker) end(n *Node) { n.Length = k.pos() - n.Offset }

// structBody walks the fields of a struct present in the walker's version, then (in flexible
// versions) its tagged-field section. prefix is the path of the fields' parent ("" for the
// body); tagsPath is the path of the struct's tagged-field count ("body#tags", "Topics[0]#tags").
func (k *walker) structBody(parent *Node, fields []*schemas.Field, prefix, tagsPath string, in Values) (Values, error) {
	var out Values
	if k.w == nil {
		out = make(Values, len(fields))
	}
	k.children(parent, k.childCount(fields))
	for _, f := range fields {
		if !f.PresentIn(k.ver) || f.TaggedIn(k.ver) {
			continue
		}
		var v any
		if k.w != nil {
			var ok bool
			if v, ok = in[f.Name]; !ok {
				v = defaultValue(f, k.ver)
			}
		}
		got, err := k.field(parent, f, prefix, v)
		if k.w == nil {
			out[f.Name] = got
		}
		if err != nil {
			return out, err
		}
	}
	if k.spec.FlexibleIn(k.ver) {
		if err := k.tags(parent, fields, prefix, tagsPath, in, out); err != nil {
			return out, err
		}
	}
	if k.w != nil {
		return in, nil
	}
	return out, nil
}

// childCount is the number of children a struct's fields give it at the walker's version:
// one per untagged field present, and in flexible versions the tagged-field count and at most
// three per tagged field (tag, size, value). Reserving exactly that, rather than one per
// field of any version, wastes less of the shared children blocks.
func (k *walker) childCount(fields []*schemas.Field) int {
	n := 0
	for _, f := range fields {
		switch {
		case !f.PresentIn(k.ver):
		case f.TaggedIn(k.ver):
			n += 3
		default:
			n++
		}
	}
	if k.spec.FlexibleIn(k.ver) {
		n++
	}
	return n
}

// field walks one (untagged or tagged) field's value; prefix is the path of its parent.
//
// A field's path and the path of its first framing piece share one string: "X.Name#length"
// is built once and "X.Name" is its prefix (paths are a large part of the allocations).
func (k *walker) field(parent *Node, f *schemas.Field, prefix string, in any) (any, error) {
	if f.Type.Array {
		return k.array(parent, f, k.t.join(prefix, f.Name, sfxLength), in)
	}
	switch recordsPrim(f) {
	case schemas.StructType:
		return k.structField(parent, f, k.t.join(prefix, f.Name, sfxTags), in)
	case schemas.Records:
		return k.records(parent, f, k.t.join(prefix, f.Name, sfxLength), in)
	case schemas.String, schemas.Bytes:
		return k.str(parent, KindField, f.Name, k.t.join(prefix, f.Name, sfxLength), f, f.Type.Prim, k.spec.CompactIn(f, k.ver), f.NullableIn(k.ver), in)
	}
	return k.prim(parent, KindField, f.Name, k.t.join(prefix, f.Name, ""), f, f.Type.Prim, k.spec.CompactIn(f, k.ver), f.NullableIn(k.ver), in)
}

// The suffixes of framing paths.
const (
	sfxLength  = "#length"
	sfxTags    = "#tags"
	sfxData    = "#data"
	sfxPresent = "#present"
)

// trim removes a suffix texts.join added.
func trim(s, suffix string) string { return s[:len(s)-len(suffix)] }

// elemNames are the names of the first array elements, to spare an allocation each.
var elemNames = [...]string{"[0]", "[1]", "[2]", "[3]", "[4]", "[5]", "[6]", "[7]"}

func elemName(i int) string {
	if i < len(elemNames) {
		return elemNames[i]
	}
	return "[" + strconv.Itoa(i) + "]"
}

// lenForm is how a length or count is written.
type lenForm uint8

const (
	lenInt16   lenForm = iota // classic string: int16, -1 null
	lenInt32                  // classic bytes and arrays: int32, -1 null
	lenCompact                // compact: uvarint N+1, 0 null
	lenVarint                 // record key, value, header: zigzag varint, -1 null
)

// length writes or reads a length (or element count) prefix as a KindLength leaf of parent
// and returns the length, -1 for null. Reading, it checks the length against the bytes left
// before anything is allocated.
func (k *walker) length(parent *Node, path string, form lenForm, nullable bool, n int, count bool) (int, error) {
	off := k.pos()
	var err error
	var wire string
	raw := int64(n)
	switch form {
	case lenInt16:
		wire = "int16"
		var u uint64
		if u, err = k.fixed(2, uint64(uint16(int16(n)))); err == nil {
			raw = int64(int16(u))
			n = int(raw)
		}
	case lenInt32:
		wire = "int32"
		var u uint64
		if u, err = k.fixed(4, uint64(uint32(int32(n)))); err == nil {
			raw = int64(int32(u))
			n = int(raw)
		}
	case lenCompact:
		wire = "uvarint"
		var u uint64
		if u, err = k.uvarint(uint64(n + 1)); err == nil {
			if u > math.MaxInt32 {
				err = fmt.Errorf("compact length %d out of range", u)
			}
			raw = int64(u)
			n = int(u) - 1
		}
	case lenVarint:
		wire = "varint"
		var v int64
		if v, err = k.varint(int64(n)); err == nil {
			if v > math.MaxInt32 || v < math.MinInt32 {
				err = fmt.Errorf("length %d out of range", v)
			}
			raw = v
			n = int(v)
		}
	}
	if err != nil {
		return 0, k.failErr(path, off, err)
	}
	leaf := k.alloc()
	leaf.Kind = KindLength
	leaf.Name = "length"
	leaf.Path = path
	leaf.Offset = off
	leaf.Length = k.pos() - off
	leaf.WireType = wire
	leaf.Raw = raw
	if count {
		leaf.Name = "count"
	}
	leaf.Value, leaf.About = lengthText(form, raw, n, count)
	parent.Children = append(parent.Children, leaf)
	if n < -1 || (n == -1 && !nullable) {
		return 0, k.fail(path, off, "invalid length %d", n)
	}
	if k.w == nil && n > k.left() {
		return 0, k.fail(path, off, "length %d exceeds the %d bytes left", n, k.left())
	}
	return n, nil
}

func lengthText(form lenForm, raw int64, n int, count bool) (value, about string) {
	about = lengthAbout[form][b2i(count)]
	if n < 0 {
		if form == lenCompact {
			return "0 → null", about
		}
		return "-1 → null", about
	}
	if form != lenCompact {
		return strconv.Itoa(n), about
	}
	if raw < compactSmall {
		return compactTexts()[b2i(count)][raw], about
	}
	return compactText(raw, n, count), about
}

// compactSmall bounds the compact lengths and counts whose texts are kept in compactTexts.
const compactSmall = 128

// compactTexts returns the texts of the small compact lengths and counts (most of them), by
// [length, count][raw value]; they are made on first use (not at start-up) and never change.
var compactTexts = sync.OnceValue(func() *[2][compactSmall]string {
	var t [2][compactSmall]string
	for raw := 1; raw < compactSmall; raw++ {
		t[0][raw] = compactText(int64(raw), raw-1, false)
		t[1][raw] = compactText(int64(raw), raw-1, true)
	}
	t[0][0], t[1][0] = "0 → null", "0 → null"
	return &t
})

// compactText writes "7 → length 6" or "2 → 1 element" in one allocation.
func compactText(raw int64, n int, count bool) string {
	var buf [48]byte
	b := strconv.AppendInt(buf[:0], raw, 10)
	b = append(b, " → "...)
	if count {
		b = strconv.AppendInt(b, int64(n), 10)
		if n == 1 {
			b = append(b, " element"...)
		} else {
			b = append(b, " elements"...)
		}
	} else {
		b = append(b, "length "...)
		b = strconv.AppendInt(b, int64(n), 10)
	}
	return string(b)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// lengthAbout explains a length prefix, by form and by [length, element count].
var lengthAbout = [...][2]string{
	lenInt16:   {"Length (int16), -1 for null.", "Element count."},
	lenInt32:   {"Length (int32), -1 for null.", "Element count (int32), -1 for null."},
	lenCompact: {"Compact length: unsigned varint N+1, 0 for null.", "Compact element count: unsigned varint N+1, 0 for null."},
	lenVarint:  {"Length: zigzag varint, -1 for null.", "Element count: zigzag varint."},
}

// sizeForm is how a region's byte size is written before it.
type sizeForm uint8

const (
	sizeInt32   sizeForm = iota // frame size, batch length, classic records: int32
	sizeUvarint                 // tagged field size: uvarint
	sizeVarint                  // record length: zigzag varint
	sizeCompact                 // compact records: uvarint N+1
)

// sized walks a region whose byte size precedes it. leaf is the size's node (Kind, Name, Path,
// About set by the caller); it becomes a child of parent, and body must add its nodes to parent
// too. Writing, the size is known only after body: an int32 is patched, a varint inserted (and
// the nodes after it shifted). Reading, the size is checked against the bytes left and body
// may not read past it nor leave bytes unread.
func (k *walker) sized(parent *Node, leaf *Node, form sizeForm, body func() error) error {
	if k.w == nil {
		r := k.r
		off := r.off
		var size int64
		var err error
		switch form {
		case sizeInt32:
			leaf.WireType = "int32"
			var u uint64
			u, err = r.fixed(4, 0)
			size = int64(int32(u))
		case sizeUvarint, sizeCompact:
			leaf.WireType = "uvarint"
			var u uint64
			u, err = r.uvarint(0)
			if u > math.MaxInt32 {
				err = fmt.Errorf("size %d out of range", u)
			}
			size = int64(u)
			if form == sizeCompact {
				size--
			}
		case sizeVarint:
			leaf.WireType = "varint"
			size, err = r.varint(0)
			if size > math.MaxInt32 {
				err = fmt.Errorf("size %d out of range", size)
			}
		}
		if err != nil {
			return k.failErr(leaf.Path, off, err)
		}
		leaf.Offset, leaf.Length = off, r.off-off
		leaf.Raw = size
		leaf.Value = k.t.sizeText(form, size)
		parent.Children = append(parent.Children, leaf)
		if size < 0 {
			return k.fail(leaf.Path, off, "invalid size %d", size)
		}
		if size > int64(r.left()) {
			return k.fail(leaf.Path, off, "size %d exceeds the %d bytes left", size, r.left())
		}
		saved := r.end
		r.end = r.off + int(size)
		err = body()
		if err == nil && r.off != r.end {
			err = k.fail(leaf.Path, r.off, "%d bytes left unread of the %d given by the size", r.end-r.off, size)
		}
		r.end = saved
		return err
	}
	w := k.w
	off := w.pos()
	if form == sizeInt32 {
		leaf.WireType = "int32"
		w.buf = append(w.buf, 0, 0, 0, 0)
		leaf.Offset, leaf.Length = off, 4
		parent.Children = append(parent.Children, leaf)
		err := body()
		size := int64(w.pos() - off - 4)
		w.patch32(off, uint32(size))
		leaf.Raw, leaf.Value = size, k.t.sizeText(form, size)
		return err
	}
	idx := len(parent.Children)
	err := body()
	size := int64(w.pos() - off)
	var p []byte
	var scratch [binary.MaxVarintLen64]byte
	switch form {
	case sizeUvarint:
		leaf.WireType = "uvarint"
		p = binary.AppendUvarint(scratch[:0], uint64(size))
	case sizeCompact:
		leaf.WireType = "uvarint"
		p = binary.AppendUvarint(scratch[:0], uint64(size+1))
	case sizeVarint:
		leaf.WireType = "varint"
		p = binary.AppendVarint(scratch[:0], size)
	}
	w.insert(off, p)
	for _, c := range parent.Children[idx:] {
		c.shift(len(p))
	}
	leaf.Offset, leaf.Length = off, len(p)
	leaf.Raw, leaf.Value = size, k.t.sizeText(form, size)
	parent.Children = slices.Insert(parent.Children, idx, leaf)
	return err
}

// prim walks a primitive value (not an array, struct or records), as a field or an array
// element.
func (k *walker) prim(parent *Node, kind NodeKind, name, path string, f *schemas.Field, p schemas.Prim, compact, nullable bool, in any) (any, error) {
	switch p {
	case schemas.String, schemas.Bytes:
		return k.str(parent, kind, name, k.t.cat(path, sfxLength), f, p, compact, nullable, in)
	}
	n := k.fieldNode(kind, name, path, f)
	var out any
	var err error
	var u uint64
	width := 0
	switch p {
	case schemas.Bool:
		n.WireType, width = "bool", 1
		if k.w != nil {
			b, ok := in.(bool)
			if !ok {
				return nil, k.fail(path, n.Offset, "want a bool, have %T", in)
			}
			if b {
				u = 1
			}
		}
	case schemas.Int8, schemas.Int16, schemas.Int32, schemas.Int64, schemas.Uint16:
		n.WireType, width = intWire(p)
		if k.w != nil {
			v, ok := in.(int64)
			if !ok {
				return nil, k.fail(path, n.Offset, "want an integer, have %T", in)
			}
			if !intFits(p, v) {
				return nil, k.fail(path, n.Offset, "%d does not fit %s", v, n.WireType)
			}
			u = uint64(v)
		}
	case schemas.Float64:
		n.WireType, width = "float64", 8
		if k.w != nil {
			v, ok := in.(float64)
			if !ok {
				return nil, k.fail(path, n.Offset, "want a float64, have %T", in)
			}
			u = math.Float64bits(v)
		}
	case schemas.UUID:
		n.WireType = "uuid"
		var id UUID
		if k.w != nil {
			var ok bool
			if id, ok = in.(UUID); !ok {
				return nil, k.fail(path, n.Offset, "want a uuid, have %T", in)
			}
			k.w.buf = append(k.w.buf, id[:]...) // not through the codec: id would escape
			out = in
		} else {
			b, err := k.raw(16, nil)
			if err != nil {
				return nil, k.failErr(path, n.Offset, err)
			}
			copy(id[:], b)
			out = id
		}
		n.Value = k.t.uuid(id)
	default:
		return nil, k.fail(path, n.Offset, "unsupported type %s", f.Type.Name)
	}
	if width > 0 {
		u &= mask(width) // sign-extended values: only the low bytes go on the wire
		if u, err = k.fixed(width, u); err != nil {
			return nil, k.failErr(path, n.Offset, err)
		}
		switch p {
		case schemas.Bool:
			if u > 1 {
				return nil, k.fail(path, n.Offset, "bool byte %d is neither 0 nor 1", u)
			}
			out = u == 1
			n.Value = strconv.FormatBool(u == 1)
		case schemas.Float64:
			fv := math.Float64frombits(u)
			if out = in; k.w == nil {
				out = fv
			}
			n.Value = k.t.float(fv)
		default:
			v := signExtend(p, u)
			if out = in; k.w == nil {
				out = v
			}
			if vn := k.valueName(f, v); vn != "" {
				n.Value = k.t.intSuffix(v, " → "+vn)
			} else {
				n.Value = k.t.int(v)
			}
		}
	}
	n.Raw = out
	k.end(n)
	parent.Children = append(parent.Children, n)
	return out, nil
}

// valueName is the Kafka name of an integer value of a field (an error code's, an
// enumeration's: ValueName), or "".
func (k *walker) valueName(f *schemas.Field, v int64) string {
	if f == nil {
		return ""
	}
	if f.Name == "RequestApiKey" || f.Name == "ApiKey" {
		// An API key is named as Wireshark names it: the header's, and each of an
		// ApiVersions response's keys.
		if v < math.MinInt16 || v > math.MaxInt16 {
			return ""
		}
		if k.keys != nil {
			if a := k.keys.apiByKey(int16(v)); a != nil {
				return a.Name
			}
		}
		return APIName(int16(v))
	}
	if k.spec == nil || !k.spec.HasAPIKey {
		return ""
	}
	return ValueName(k.spec.APIKey, f.Name, v)
}

func intWire(p schemas.Prim) (string, int) {
	switch p {
	case schemas.Int8:
		return "int8", 1
	case schemas.Int16:
		return "int16", 2
	case schemas.Uint16:
		return "uint16", 2
	case schemas.Int32:
		return "int32", 4
	}
	return "int64", 8
}

func mask(width int) uint64 {
	if width >= 8 {
		return math.MaxUint64
	}
	return 1<<(8*width) - 1
}

func intFits(p schemas.Prim, v int64) bool {
	switch p {
	case schemas.Int8:
		return v >= math.MinInt8 && v <= math.MaxInt8
	case schemas.Int16:
		return v >= math.MinInt16 && v <= math.MaxInt16
	case schemas.Uint16:
		return v >= 0 && v <= math.MaxUint16
	case schemas.Int32:
		return v >= math.MinInt32 && v <= math.MaxInt32
	}
	return true
}

func signExtend(p schemas.Prim, u uint64) int64 {
	switch p {
	case schemas.Int8:
		return int64(int8(u))
	case schemas.Int16:
		return int64(int16(u))
	case schemas.Uint16:
		return int64(uint16(u))
	case schemas.Int32:
		return int64(int32(u))
	}
	return int64(u)
}

func strWire(p schemas.Prim, compact, nullable bool) string {
	i := 0
	switch p {
	case schemas.Bytes:
		i = 1
	case schemas.Records:
		return [2]string{"records", "compact_records"}[b2i(compact)]
	}
	return strWires[i][b2i(nullable)][b2i(compact)]
}

// strWires names string and bytes encodings by [string, bytes][nullable][compact].
var strWires = [2][2][2]string{
	{{"string", "compact_string"}, {"nullable_string", "compact_nullable_string"}},
	{{"bytes", "compact_bytes"}, {"nullable_bytes", "compact_nullable_bytes"}},
}

// str walks a string or bytes value: a length prefix, then the content as a KindData leaf.
// lpath is the path of the length prefix: the value's path + "#length".
func (k *walker) str(parent *Node, kind NodeKind, name, lpath string, f *schemas.Field, p schemas.Prim, compact, nullable bool, in any) (any, error) {
	path := trim(lpath, sfxLength)
	n := k.fieldNode(kind, name, path, f)
	n.WireType = strWire(p, compact, nullable)
	parent.Children = append(parent.Children, n)
	k.children(n, 2)
	var data []byte
	size := -1
	if k.w != nil {
		switch v := in.(type) {
		case nil:
		case string:
			if p != schemas.String {
				return nil, k.fail(path, n.Offset, "want bytes, have a string")
			}
			size = len(v)
		case []byte:
			if p != schemas.Bytes {
				return nil, k.fail(path, n.Offset, "want a string, have bytes")
			}
			data = v
			size = len(v)
		default:
			return nil, k.fail(path, n.Offset, "want a %s, have %T", n.WireType, in)
		}
	}
	form := lenInt16
	switch {
	case compact:
		form = lenCompact
	case p == schemas.Bytes:
		form = lenInt32
	}
	size, err := k.length(n, lpath, form, nullable, size, false)
	if err != nil {
		k.end(n)
		return nil, err
	}
	var out any
	if size >= 0 {
		off := k.pos()
		if s, ok := in.(string); ok && k.w != nil {
			k.w.buf = append(k.w.buf, s...) // no []byte copy of the string
		} else {
			var err error
			if data, err = k.raw(size, data); err != nil {
				k.end(n)
				return nil, k.failErr(path+sfxData, off, err)
			}
		}
		if size > 0 {
			d := k.alloc()
			d.Kind = KindData
			d.Name = name
			d.Path = k.t.cat(path, sfxData)
			d.Offset = off
			d.Length = size
			d.Spec = n.Spec
			d.About = dataAbout(p)
			if p == schemas.String {
				d.WireType = "utf8"
			} else {
				d.WireType = "raw"
			}
			n.Children = append(n.Children, d)
		}
		switch {
		case k.w != nil:
			out = in
		case p == schemas.String:
			// The quoted display value holds the string itself when nothing needed escaping:
			// share it instead of allocating twice.
			n.Value = k.t.quoteBytes(data)
			if len(n.Value) == len(data)+2 {
				out = n.Value[1 : len(n.Value)-1]
			} else {
				out = string(data)
			}
		default:
			if data == nil {
				data = []byte{}
			}
			out = data
		}
	}
	n.Raw = out
	if n.Value == "" {
		n.Value = k.display(out)
		if b, ok := out.([]byte); ok && f != nil {
			n.Value = k.t.withAddress(n.Value, f.Name, b)
		}
	}
	for _, c := range n.Children {
		if c.Kind == KindData {
			c.Value = n.Value
		}
	}
	k.end(n)
	return out, nil
}

// display formats a primitive value for Node.Value: null, a quoted string, bytes in hex (the
// first 32, then a count), a number, a bool, a uuid.
func (k *walker) display(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return k.t.quote(v)
	case []byte:
		return k.t.hex(v)
	case int64:
		return k.t.int(v)
	case bool:
		return strconv.FormatBool(v)
	case float64:
		return k.t.float(v)
	case UUID:
		return k.t.uuid(v)
	}
	return fmt.Sprint(v)
}

// array walks an array: its length (an element count), then each element. lpath is the path
// of the count: the array's path + "#length".
func (k *walker) array(parent *Node, f *schemas.Field, lpath string, in any) (any, error) {
	path := trim(lpath, sfxLength)
	compact := k.spec.CompactIn(f, k.ver)
	nullable := f.NullableIn(k.ver)
	n := k.fieldNode(KindArray, f.Name, path, f)
	n.WireType = "array"
	if compact {
		n.WireType = "compact_array"
	}
	parent.Children = append(parent.Children, n)
	k.children(n, 2)
	var elems []any
	count := -1
	if k.w != nil {
		switch v := in.(type) {
		case nil:
		case []any:
			elems, count = v, len(v)
		default:
			return nil, k.fail(path, n.Offset, "want an array, have %T", in)
		}
	}
	form := lenInt32
	if compact {
		form = lenCompact
	}
	count, err := k.length(n, lpath, form, nullable, count, true)
	if err != nil {
		k.end(n)
		return nil, err
	}
	if count < 0 {
		n.Value = "null"
		k.end(n)
		return nil, nil
	}
	if k.w == nil {
		elems = k.anySlice(count)
	}
	for i := range count {
		if err := k.spent(path, k.pos()); err != nil {
			k.end(n)
			return elems, err
		}
		var got any
		idx := elemName(i)
		switch f.Type.Prim {
		case schemas.StructType:
			tp := k.t.cat(path, idx, sfxTags)
			ep := trim(tp, sfxTags)
			el := k.fieldNode(KindElement, idx, ep, f)
			el.WireType = "struct"
			el.About = ""
			n.Children = append(n.Children, el)
			var vals Values
			if k.w != nil {
				var ok bool
				if vals, ok = elems[i].(Values); !ok {
					return nil, k.fail(ep, el.Offset, "want a struct, have %T", elems[i])
				}
			}
			got, err = k.structBody(el, f.Struct.Fields, ep, tp, vals)
			k.end(el)
		case schemas.String, schemas.Bytes:
			got, err = k.str(n, KindElement, idx, k.t.cat(path, idx, sfxLength), f, f.Type.Prim, compact, false, elems[i])
		default:
			got, err = k.prim(n, KindElement, idx, k.t.cat(path, idx), f, f.Type.Prim, compact, false, elems[i])
		}
		if k.w == nil {
			elems[i] = got
		}
		if err != nil {
			k.end(n)
			return elems, err
		}
	}
	if count == 1 {
		n.Value = "1 element"
	} else {
		n.Value = k.t.intSuffix(int64(count), " elements")
	}
	k.end(n)
	if k.w != nil {
		return in, nil // not elems: boxing a slice allocates
	}
	return elems, nil
}

// structField walks a struct-typed field; a nullable one starts with an int8 marker. tpath is
// the path of its tagged-field count: the struct's path + "#tags".
func (k *walker) structField(parent *Node, f *schemas.Field, tpath string, in any) (any, error) {
	path := trim(tpath, sfxTags)
	n := k.fieldNode(KindStruct, f.Name, path, f)
	n.WireType = "struct"
	parent.Children = append(parent.Children, n)
	vals, isVals := in.(Values)
	if k.w != nil && in != nil && !isVals {
		return nil, k.fail(path, n.Offset, "want a struct, have %T", in)
	}
	if f.NullableIn(k.ver) {
		off := k.pos()
		u := uint64(1)
		if k.w != nil && in == nil {
			u = 0xff
		}
		var err error
		if u, err = k.fixed(1, u); err != nil {
			k.end(n)
			return nil, k.failErr(path+sfxPresent, off, err)
		}
		m := k.alloc()
		m.Kind = KindLength
		m.Name = "present"
		m.Path = k.t.cat(path, sfxPresent)
		m.Offset = off
		m.Length = 1
		m.WireType = "int8"
		m.Raw = int64(int8(u))
		m.About = "Null marker of a nullable struct: -1 for null, 1 when present."
		n.Children = append(n.Children, m)
		switch int8(u) {
		case -1:
			m.Value, n.Value = "-1 → null", "null"
			k.end(n)
			return nil, nil
		case 1:
			m.Value = "1 → present"
		default:
			k.end(n)
			return nil, k.fail(path+sfxPresent, off, "null marker %d is neither -1 nor 1", int8(u))
		}
	} else if k.w != nil && in == nil {
		return nil, k.fail(path, n.Offset, "null given for a struct that is not nullable")
	}
	out, err := k.structBody(n, f.Struct.Fields, path, tpath, vals)
	k.end(n)
	return out, err
}

// tags walks a struct's tagged-field section: a count, then per field its tag, its size and
// its value, in ascending tag order. Writing, only the tagged fields of in whose value differs
// from the default are written; reading, the values go to out.
func (k *walker) tags(parent *Node, fields []*schemas.Field, prefix, path string, in, out Values) error {
	var tagged []*schemas.Field
	if k.w != nil {
		for _, f := range fields {
			if !f.TaggedIn(k.ver) {
				continue
			}
			if v, ok := in[f.Name]; ok && !isDefault(f, k.ver, v) {
				tagged = append(tagged, f)
			}
		}
		slices.SortFunc(tagged, func(a, b *schemas.Field) int { return a.Tag - b.Tag })
	}
	off := k.pos()
	count, err := k.uvarint(uint64(len(tagged)))
	if err != nil {
		return k.failErr(path, off, err)
	}
	sec := k.alloc()
	sec.Kind = KindTagSection
	sec.Name = "tagged fields"
	sec.Path = path
	sec.Offset = off
	sec.Length = k.pos() - off
	sec.WireType = "uvarint"
	sec.Raw = int64(count)
	sec.About = "Tagged fields (KIP-482): their count, then tag, size and value of each."
	switch count {
	case 0:
		sec.Value = "0 → none"
	case 1:
		sec.Value = "1 tagged field"
	default:
		sec.Value = k.t.intSuffix(int64(count), " tagged fields")
	}
	if spec := k.spec; spec != nil {
		sec.Spec = spec.File
	}
	parent.Children = append(parent.Children, sec)
	if k.w == nil && count > uint64(k.left()) {
		return k.fail(path, off, "%d tagged fields claimed with %d bytes left", count, k.left())
	}
	last := -1
	var byTag []*schemas.Field // reading: the fields tagged in this version, by tag (made at the first tag)
	next := 0                  // the first of byTag not yet passed: tags come in ascending order
	for i := 0; i < int(count); i++ {
		if err := k.spent(path, k.pos()); err != nil {
			return err
		}
		var f *schemas.Field
		tagOff := k.pos()
		tag := uint64(0)
		if k.w != nil {
			f = tagged[i]
			tag = uint64(f.Tag)
		}
		var err error
		if tag, err = k.uvarint(tag); err != nil {
			return k.failErr(path, tagOff, err)
		}
		if k.w == nil {
			if tag > math.MaxInt32 || int(tag) <= last {
				return k.fail(path, tagOff, "tag %d out of order (after %d)", tag, last)
			}
			if byTag == nil {
				byTag = []*schemas.Field{}
				for _, g := range fields {
					if g.TaggedIn(k.ver) {
						byTag = append(byTag, g)
					}
				}
				slices.SortStableFunc(byTag, func(a, b *schemas.Field) int { return a.Tag - b.Tag })
			}
			for ; next < len(byTag) && byTag[next].Tag <= int(tag); next++ {
				if byTag[next].Tag == int(tag) {
					f = byTag[next] // the last field with the tag, as a scan of fields finds it
				}
			}
		}
		last = int(tag)
		var fp, name string
		if f != nil {
			fp, name = k.t.join(prefix, f.Name, ""), f.Name
		} else {
			fp, name = k.t.intAfter(trim(path, sfxTags), "#tag", int64(tag)), k.t.intAfter("tag", " ", int64(tag))
		}
		key := k.alloc()
		key.Kind = KindTagKey
		key.Name = "tag"
		key.Path = k.t.cat(fp, "#tag")
		key.Offset = tagOff
		key.Length = k.pos() - tagOff
		key.WireType = "uvarint"
		key.Raw = int64(tag)
		key.Value = k.t.tagText(tag, name)
		key.About = "Tag number of a tagged field."
		key.Spec = sec.Spec
		parent.Children = append(parent.Children, key)
		leaf := k.alloc()
		leaf.Kind = KindTagSize
		leaf.Name = "tag size"
		leaf.Path = k.t.cat(fp, "#tagsize")
		leaf.About = "Size in bytes of the tagged field's value."
		leaf.Spec = sec.Spec
		err = k.sized(parent, leaf, sizeUvarint, func() error {
			if f == nil {
				// A tag this schema does not know: keep its bytes.
				o := k.pos()
				b, err := k.raw(k.left(), nil)
				if err != nil {
					return k.failErr(fp, o, err)
				}
				if len(b) > 0 {
					d := k.alloc()
					d.Kind = KindData
					d.Name = name
					d.Path = fp
					d.Offset = o
					d.Length = len(b)
					d.WireType = "raw"
					d.Raw = b
					d.Value = k.t.hex(b)
					d.About = "A tagged field unknown to this schema."
					parent.Children = append(parent.Children, d)
				}
				return nil
			}
			var v any
			if k.w != nil {
				v = in[f.Name]
			}
			got, err := k.field(parent, f, prefix, v)
			if k.w == nil {
				out[f.Name] = got
			}
			return err
		})
		if err != nil {
			return err
		}
	}
	return nil
}
