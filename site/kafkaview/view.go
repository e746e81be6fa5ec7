// Package kafkaview is the bridge from Kafka's annotated frames (package kafka) to the generic
// drawing packages: it turns a frame into the fields of a byte grid (bytegrid) and the nodes of
// an expanded tree (tree), with the group colours the two share.
//
// It is its own package so that the codec (kafka) imports none of the drawing code, and the
// drawing packages import nothing of Kafka. It does not lay out or paint; it only translates.
// It holds no catalogue and decodes nothing: a frame that carries another whole (an Envelope's
// RequestData and ResponseData, KIP-590) is drawn as the nested frame the codec read
// (kafka.Embedded), or as bytes with Options.Flat.
// The result is a fresh value on every call: safe to use from many goroutines on different
// frames.
package kafkaview

import (
	"strconv"
	"strings"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/style"
	"github.com/kafkagrid/kafkagrid/tree"
)

// View is a frame seen by the generic drawing packages: the fields of its byte grid, the root
// of its expanded tree, and the group colours the two share, so that a field and its node are
// drawn in the same colour and carry the same data-path.
//
// The grid gets the leaves of the annotated frame in byte order, except zero-length leaves
// (an empty struct has no bytes to draw). The content of a string or bytes field takes the
// field's own path and name, so that the grid box "Name" and the tree node "Name" are one
// data-path; its length prefix keeps the "#length" path. Groups are the header, the body and
// each struct, array, record batch and record field, named by what they are (the path without
// element indexes): a field is coloured by the innermost one that holds it, and the elements of
// an array share its colour, each element's fields carrying its index as their Item ("[3]").
//
// The attributes of a record batch (an int16) and of a legacy message (an int8) are drawn as
// their bit fields (kafka.BatchAttributeBits, kafka.LegacyAttributeBits), most significant
// first as the wire has them: sub-byte boxes in the grid ("compression", "0 → none"; a box too
// narrow for its label gets a numbered note; in site.Draw's grids, the pages', the book's and
// the SVG files', it is named in its box, turned: bytegrid.Options.TurnNames), children of
// the Attributes node in the tree.
// They all keep the attributes' path, so each lights up the same node as the whole box did.
type View struct {
	Fields []bytegrid.Field
	Tree   *tree.Node
	// Groups maps each group (the path of the header, body, struct or array, without element
	// indexes) to its colour
	// index, given by the one colour rule (style.GroupColors) in order of first appearance;
	// pass it as GroupColors to both layouts.
	Groups map[string]int

	order []string // the groups in order of first appearance
	item  string   // the Item of the fields being added (see itemOf)
	// nest is the frame an Envelope carries whole, as the codec read it (or the reason it did
	// not); nil for other frames.
	nest *nested
}

// Options tune a view. The zero value draws every field as its frame has it, and the frame
// an Envelope (KIP-590) carries whole as the nested frame the codec read (kafka.Embedded: the
// request in an EnvelopeRequest's RequestData, the response in an EnvelopeResponse's
// ResponseData, read when the frame was decoded or encoded with its request): its header and
// body fields as boxes and nodes under the bytes field, their paths prefixed with the field's
// ("RequestData.header.RequestApiKey"), their offsets the outer frame's. Bytes the codec did
// not read as a frame are drawn as bytes, with the reason in the field's description.
type Options struct {
	// Flat draws the frame an Envelope carries as the bytes it is, not as a nested frame.
	Flat bool
}

// New builds the view of f, with the zero Options.
func New(f *kafka.Frame) *View { return NewWith(f, Options{}) }

// NewWith builds the view of f with the given options.
func NewWith(f *kafka.Frame, o Options) *View {
	v := &View{nest: nest(f, o)}
	// The frame and its size prefix belong to no group: they are drawn as framing, and the
	// legend names only the header, the body and what they hold.
	v.Tree = v.node(f, f.Root, nil, "")
	v.Groups = style.GroupColors(v.order, nil)
	v.order = nil
	return v
}

// Embedded returns the frame an Envelope carries as the view draws it, when the codec read
// it (and Options.Flat is not set): a KindFrame node named by the bytes field's path ("RequestData") whose children
// are the nested header and body, their offsets the outer frame's and their paths prefixed
// with the field's ("RequestData.header.RequestApiKey"), as the grid's fields and the tree's
// nodes carry them; and what the frame is ("CreateTopics v7 request, embedded"). It returns
// nil and "" for any other frame, or when the bytes are drawn as bytes. The nodes are the
// frame's (kafka.Embedded.Root): read them, do not change them.
func (v *View) Embedded() (*kafka.Node, string) {
	if v.nest == nil || v.nest.root == nil {
		return nil, ""
	}
	return v.nest.root, v.nest.label
}

// groupOf returns the group of n and its children, given its parent's group. An element of
// an array of scalars or strings (scalarElement) is no group of its own: it is a field of its
// parent's group, in the grid and in the tree alike.
//
// Groups are named by what they are, not by position: a group is its path without element
// indexes, so an array's elements share the array's group (and colour), and so do the structs
// of the same field in every element ("Topics.Partitions.CurrentLeader"): a 78-element
// ApiVersions response has a legend of four entries, not 80. Which element a field belongs to
// is its Item ("[3]"), shown with the group's letter in the grid and as the element's label in
// the tree.
func groupOf(n *kafka.Node, parent string) string {
	switch n.Kind {
	case kafka.KindElement:
		if !scalarElement(n) {
			return unindexed(n.Path)
		}
	case kafka.KindHeader, kafka.KindBody:
		return n.Path
	case kafka.KindStruct:
		if len(n.Children) > 0 {
			return unindexed(n.Path)
		}
	}
	return parent
}

// unindexed returns path without its element indexes: "Topics[0].Partitions[2]" is
// "Topics.Partitions".
func unindexed(path string) string {
	if strings.IndexByte(path, '[') < 0 {
		return path
	}
	b := make([]byte, 0, len(path))
	for i := 0; i < len(path); i++ {
		if path[i] == '[' {
			if j := strings.IndexByte(path[i:], ']'); j > 1 && digits(path[i+1:i+j]) {
				i += j
				continue
			}
		}
		b = append(b, path[i])
	}
	return string(b)
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// itemOf returns the item of n's fields (bytegrid.Field.Item) given its parent's: an element's
// index ("[3]") for a struct element, none for a struct, header or body (a group of its own
// that does not repeat), the parent's for anything else.
func itemOf(n *kafka.Node, parent string) string {
	switch n.Kind {
	case kafka.KindElement:
		if !scalarElement(n) {
			if i := strings.LastIndexByte(n.Path, '['); i >= 0 && strings.HasSuffix(n.Path, "]") {
				return n.Path[i:]
			}
			return ""
		}
	case kafka.KindHeader, kafka.KindBody:
		return ""
	case kafka.KindStruct:
		if len(n.Children) > 0 {
			return ""
		}
	}
	return parent
}

// use notes a group in order of appearance (style.GroupColors skips repeats).
func (v *View) use(group string) {
	if group != "" && (len(v.order) == 0 || v.order[len(v.order)-1] != group) {
		v.order = append(v.order, group)
	}
}

// node converts n (whose parent is p, in group g) to a tree node, adding grid fields for its
// leaves as it goes, in byte order.
func (v *View) node(f *kafka.Frame, n, p *kafka.Node, g string) *tree.Node {
	own := groupOf(n, g)
	outer := v.item
	v.item = itemOf(n, outer)
	defer func() { v.item = outer }()
	if v.nest != nil && n == v.nest.header {
		// The header of a nested frame: its group names what the frame is, so the legend
		// says it in words ("RequestData.header: CreateTopics v7 request, embedded").
		own = n.Path + ": " + v.nest.label
	}
	v.use(own)
	t := &tree.Node{
		Name:   treeLabel(n),
		Value:  TreeValueText(f, n),
		Type:   n.WireType,
		Offset: n.Offset,
		Length: n.Length,
		Group:  own,
		Kind:   styleKind(n),
		Path:   n.Path,
		Desc:   n.About,
	}
	switch n.Kind {
	case kafka.KindArray, kafka.KindFrame, kafka.KindHeader, kafka.KindBody:
		// The label says it all ("TopicData [1]", "header").
		t.Value = ""
	case kafka.KindElement:
		// A struct element's label says it all ("[0]"); a scalar or string element shows its
		// value ("[0]: 1", "[0]: "orders"").
		if !scalarElement(n) {
			t.Value = ""
		}
	}
	if len(n.Children) == 0 {
		if bits := attributeBits(f, n, p); bits != nil {
			v.bits(f, n, g, t, bits)
			return t
		}
		v.leaf(f, n, p, g)
		return t
	}
	// A struct's tagged fields follow its tag-section count on the wire; the tree nests them
	// under the section's row (which then spans the whole section), as they belong to it.
	var tags *tree.Node
	nestHere := v.nest != nil && v.nest.field == n
	if nestHere {
		if v.nest.root != nil {
			t.Value = v.nest.label
			t.Type += " (frame)"
		} else {
			t.Desc = v.nest.note + " " + t.Desc
		}
	}
	for _, c := range n.Children {
		if nestHere && c == v.nest.data && v.nest.root != nil {
			// The nested frame's header and body, under the field as its content.
			for _, nc := range v.nest.root.Children {
				t.Children = append(t.Children, v.node(f, nc, n, own))
			}
			continue
		}
		if c.Kind == kafka.KindData && len(c.Children) == 0 {
			// The content of a string or bytes field is the field's value: the tree shows it
			// on the field's own row; the grid draws it as the field.
			v.leaf(f, c, n, own)
			continue
		}
		child := v.node(f, c, n, own)
		switch {
		case tags != nil:
			tags.Children = append(tags.Children, child)
			tags.Length = c.Offset + c.Length - tags.Offset
			tags.Type = "tagged_fields"
		default:
			t.Children = append(t.Children, child)
		}
		if c.Kind == kafka.KindTagSection {
			tags = child
		}
	}
	return t
}

// leaf adds the grid field of leaf n.
func (v *View) leaf(f *kafka.Frame, n, p *kafka.Node, g string) {
	if n.Length <= 0 || n.Offset < 0 || n.Offset+n.Length > len(f.Bytes) {
		return
	}
	v.use(g)
	fd := bytegrid.Field{
		Offset: n.Offset * 8,
		Bits:   n.Length * 8,
		Name:   n.Name,
		Value:  ValueText(f, n),
		Group:  g,
		Item:   v.item,
		Kind:   styleKind(n),
		Bytes:  f.Bytes[n.Offset : n.Offset+n.Length],
		Desc:   n.About,
		Path:   n.Path,
		Type:   n.WireType,
	}
	if n.Kind == kafka.KindElement {
		fd.Name = elementName(n)
	}
	if p != nil {
		switch n.Kind {
		case kafka.KindData:
			fd.Name, fd.Path = p.Name, p.Path
			if p.Kind == kafka.KindElement {
				fd.Name = elementName(p)
			}
			if p.About != "" {
				fd.Desc = p.About
			}
		case kafka.KindTagSection:
			// Name the struct the section closes: the group band along the box's top says it
			// in colour, the name says it in greyscale too ("Partitions[0] tags"). An empty
			// section ends its struct: a closing bracket; one with tagged fields opens them.
			fd.Name = ownerName(p) + " tags"
			fd.Short = "tags" // (in a one-byte box: the bracket and the group's letter say whose)
			fd.Bracket = bytegrid.Opens
			if f.Bytes[n.Offset] == 0 {
				fd.Bracket = bytegrid.Closes
			}
		case kafka.KindLength:
			switch {
			case p.Kind == kafka.KindArray:
				// An array's count opens its elements: named after it, with an opening bracket
				// when there are elements to open.
				fd.Name = p.Name
				for _, c := range p.Children {
					if c.Kind == kafka.KindElement {
						fd.Bracket = bytegrid.Opens
						break
					}
				}
			case !hasContent(p) && onlyLength(p):
				// A null or empty string or bytes field is only its length prefix on the
				// wire: the box carries the field's name, or the grid would not name it.
				// (A record batch's or a record's length, or a records field's, prefixes
				// fields of its own: its box keeps its own name, as its tree row does.)
				fd.Name = p.Name
				if p.Kind == kafka.KindElement {
					fd.Name = elementName(p)
				}
			}
		}
	}
	if v.nest != nil && p == v.nest.field && n == v.nest.data && v.nest.note != "" {
		fd.Desc = v.nest.note + " " + fd.Desc
	}
	if fd.Kind == style.Tag && fd.Short == "" {
		// A tag's "1 → FinalizedFeaturesEpoch" may give way to "1" in a one-byte box: the
		// next box names the field.
		fd.Short = fd.Name
	}
	v.Fields = append(v.Fields, fd)
}

// attributeBits returns the sub-byte fields of n when it is the attributes of a record batch
// (an int16, kafka.BatchAttributeBits) or of a legacy message (an int8 after its magic,
// kafka.LegacyAttributeBits), else nil.
func attributeBits(f *kafka.Frame, n, p *kafka.Node) []kafka.AttributeBit {
	if p == nil || n.Kind != kafka.KindField || n.Name != "Attributes" || n.Offset < 0 || n.Offset+n.Length > len(f.Bytes) {
		return nil
	}
	switch {
	case p.WireType == "record_batch" && n.Length == 2:
		return kafka.BatchAttributeBits()
	case p.WireType == "message" && n.Length == 1:
		for _, c := range p.Children {
			if c.Name == "Magic" && c.Length == 1 && c.Offset >= 0 && c.Offset < len(f.Bytes) {
				if m := f.Bytes[c.Offset]; m <= 1 {
					return kafka.LegacyAttributeBits(int8(m))
				}
			}
		}
	}
	return nil
}

// bits adds the grid fields of attributes n (in group g), one per sub-byte field, most
// significant first as the wire has them, and their tree nodes as children of t. Every box
// keeps the attributes' path, so that it lights up the attributes' node as the whole box did;
// each names its field and value ("compression", "0 → none").
func (v *View) bits(f *kafka.Frame, n *kafka.Node, g string, t *tree.Node, bits []kafka.AttributeBit) {
	raw := f.Bytes[n.Offset : n.Offset+n.Length]
	var a int64
	for _, b := range raw {
		a = a<<8 | int64(b)
	}
	width := 8 * n.Length
	v.use(g)
	t.Children = make([]*tree.Node, len(bits))
	for i := len(bits) - 1; i >= 0; i-- {
		b := bits[i]
		val := b.Of(a)
		value := strconv.FormatInt(val, 10)
		if m := b.Meaning(val); m != "" {
			value += " → " + m
		}
		kind := style.Plain
		if b.Name == "unused" {
			kind = style.Padding
		}
		typ := "bit " + strconv.Itoa(b.Shift)
		if b.Width > 1 {
			typ = "bits " + strconv.Itoa(b.Shift) + "-" + strconv.Itoa(b.Shift+b.Width-1)
		}
		bit := width - b.Shift - b.Width // from the first bit of the field, as drawn
		first, last := bit/8, (bit+b.Width-1)/8
		desc := typ + " of " + n.Name + " (" + n.WireType + ", bit 0 the least significant). " + n.About
		v.Fields = append(v.Fields, bytegrid.Field{
			Offset: n.Offset*8 + bit,
			Bits:   b.Width,
			Name:   b.Name,
			Value:  value,
			Group:  g,
			Item:   v.item,
			Kind:   kind,
			Bytes:  raw[first : last+1],
			Desc:   desc,
			Path:   n.Path,
			Type:   typ,
		})
		t.Children[len(bits)-1-i] = &tree.Node{
			Name:   b.Name,
			Value:  value,
			Type:   typ,
			Offset: n.Offset + first,
			Length: last - first + 1,
			Group:  g,
			Kind:   kind,
			Path:   n.Path,
			Desc:   desc,
		}
	}
}

// ownerName names the struct, element, header or body p in the grid. A header or body is
// named by its path, so that those of a nested frame ("RequestData.header") differ from the
// outer frame's ("header").
func ownerName(p *kafka.Node) string {
	switch p.Kind {
	case kafka.KindElement:
		return elementName(p)
	case kafka.KindHeader, kafka.KindBody:
		return p.Path
	}
	return p.Name
}

// scalarElement reports whether array element n holds one value (a number, a string, bytes)
// rather than a struct: it has no children, or only a length prefix and its content.
func scalarElement(n *kafka.Node) bool {
	for _, c := range n.Children {
		if c.Kind != kafka.KindLength && c.Kind != kafka.KindData {
			return false
		}
	}
	return true
}

// hasContent reports whether string or bytes node n has content bytes after its length.
// onlyLength reports whether n holds nothing but its length prefix and its bytes (a string or
// bytes field), not fields of its own (a record batch, a record, a records field).
func onlyLength(n *kafka.Node) bool {
	for _, c := range n.Children {
		if c.Kind != kafka.KindLength && c.Kind != kafka.KindData {
			return false
		}
	}
	return true
}

func hasContent(n *kafka.Node) bool {
	for _, c := range n.Children {
		if c.Kind == kafka.KindData && c.Length > 0 {
			return true
		}
	}
	return false
}

// elementName names array element n in the grid with its array: "ReplicaNodes[0]", the last
// segment of its path, since a grid box, unlike a tree row, is not drawn under its array.
func elementName(n *kafka.Node) string {
	name := n.Path
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	if name == "" || !strings.HasSuffix(name, n.Name) {
		return n.Name
	}
	return name
}

func treeLabel(n *kafka.Node) string {
	switch n.Kind {
	case kafka.KindArray:
		count := 0
		for _, c := range n.Children {
			if c.Kind == kafka.KindElement {
				count++
			}
		}
		return tree.ArrayLabel(n.Name, count)
	}
	return n.Name
}

// styleKind says how a node is drawn: framing pieces apart from data.
func styleKind(n *kafka.Node) style.Kind {
	switch n.Kind {
	case kafka.KindSize:
		return style.Size
	case kafka.KindLength:
		return style.Length
	case kafka.KindTagSection:
		return style.Tags
	case kafka.KindTagKey, kafka.KindTagSize:
		return style.Tag
	}
	if n.WireType == "varint" || n.WireType == "uvarint" {
		return style.Varint
	}
	return style.Plain
}
