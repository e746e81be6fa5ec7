package site

import (
	"errors"
	"fmt"
	"slices"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site/kafkaview"
	"github.com/kafkagrid/kafkagrid/style"
	"github.com/kafkagrid/kafkagrid/tree"
)

// ElideRows is how many rows a field of a grid may span before its inner rows are elided: 16
// rows, 64 bytes (the narrow grid: 32 rows of 16 bits, the same 64 bytes). A reader sees every
// byte of a uuid, a short value or a record; only what is long enough to need it is cut, and
// the cut says which bytes it left out. The reference and the report alike.
const ElideRows = 16

// NarrowRowBits is the row width of the narrow grid: the one a page shows where the 32-bit
// grid and the tree do not fit side by side (a laptop's screen) or the grid alone does not fit
// (a phone's). It is the same fields laid out 16 bits a row, so its boxes carry the same paths
// and its labels are fitted by the same rule: shrunk, wrapped, and a name wider than its box (a
// bit of the record batch's attributes) written turned in it, the row growing to hold it
// (bytegrid.Options.TurnNames, in both grids), not sent to a note under the grid.
const NarrowRowBits = 16

// NarrowBitWidth draws the narrow grid's bytes as wide as the 32-bit grid's (16 pt a bit), so
// a label fits its box as well in either; the grid is then about half as wide (311 units).
const NarrowBitWidth = 16

// TreeMaxValue is how much of a value a tree row shows before its ellipsis: a UUID or a JSON
// value would otherwise set the width of the whole tree's Name column. The whole value is in
// the grid, the detail panel and the annotated JSON.
const TreeMaxValue = 28

// DefaultMaxNested is how many fields (tree nodes) of nested frames Draw lays out when
// Options.MaxNested is 0.
const DefaultMaxNested = 5000

// Options tune Draw. The zero value draws the 32-bit grid and the tree, the frame an Envelope
// carries as bytes, and the records of compressed batches up to DefaultMaxNested fields.
type Options struct {
	// View gives the view the decoder (and, for a response, its request) that draws the frame
	// an Envelope carries as the nested frame it is (kafkaview.Options).
	View kafkaview.Options
	// Name is what the frame is, in titles: "" means "Produce v12 request" (or "frame" for a
	// frame of no API).
	Name string
	// Noun, when set, stands before the name in descriptions: "example" gives "Byte grid of
	// the 41-byte example Produce v12 request (API key 0), …".
	Noun string
	// Narrow also lays out the grid 16 bits a row (Figures.Narrow), for a page.
	Narrow bool
	// Err is why decoding failed, nil if it did not: the field holding the failing byte of a
	// *kafka.Error is marked "(failed here)" with the error as its description.
	Err error
	// MaxNested is the most fields (tree nodes) of the frames nested in compressed batches
	// that Draw lays out: past it a nested frame gets a Note and no figures. 0 means
	// DefaultMaxNested; negative, no nested frames are drawn.
	MaxNested int
}

// Figures is what a page shows of one frame.
type Figures struct {
	Name  string // "Produce v12 request"
	Bytes []byte // the frame
	// Grid is the byte grid 32 bits a row, Narrow the same fields 16 bits a row (nil without
	// Options.Narrow), Tree the expanded tree; each titled and described for readers of the SVG.
	Grid, Narrow, Tree Figure
	// Fields are the detail panel's entries, in byte order (DetailJSON).
	Fields []Field
	// Nested are the frames inside compressed batches, in byte order.
	Nested []Nested
	// Failed says decoding failed at byte FailAt (Options.Err is a *kafka.Error); bytes past
	// what was decoded are one field, "not decoded", with the path "#undecoded".
	Failed bool
	FailAt int
	// Nodes counts the fields (tree nodes) laid out, nested frames included.
	Nodes int
}

// Nested is a frame inside another: the records of a compressed batch, their offsets from the
// start of the decompressed data.
type Nested struct {
	Path    string   // the path of the node that holds them ("Records")
	Caption string   // what they are: "Records: the 120 bytes decompressed with lz4 (…)"
	Note    string   // why they are not drawn, "" when they are
	Figures *Figures // nil when not drawn
	// Frame is the decompressed records as a frame of their own (no API), which a page that
	// has no room for Figures draws the first screen of (Cut).
	Frame *kafka.Frame
}

// Draw lays out fr (a frame package kafka decoded, completely or up to a failure) as the
// figures a page shows: its grid and tree with the same paths, the fields of the detail panel,
// and the frames nested in compressed batches. Its cost is that of laying out fr's fields
// (fr.Nodes) and at most Options.MaxNested more.
func Draw(fr *kafka.Frame, o Options) (*Figures, error) {
	if fr == nil || fr.Root == nil {
		return nil, errors.New("site: Draw: no decoded frame")
	}
	name := o.Name
	if name == "" {
		name = "frame"
		if fr.API != nil {
			side := "request"
			if fr.Response {
				side = "response"
			}
			name = fmt.Sprintf("%s v%d %s", fr.API.Name, fr.Version, side)
		}
	}
	view := kafkaview.NewWith(fr, o.View)
	fs := &Figures{Name: name, Bytes: fr.Bytes}
	fields := view.Fields
	if n := len(fields); n > 0 && fields[n-1].Path == RestPath {
		// The rest of a cut frame (Cut) is no field of the schema: drawn as what is left
		// out, like the bytes not decoded, in no group's colour.
		fields = slices.Clone(fields)
		fields[n-1].Kind, fields[n-1].Group, fields[n-1].Item = style.Padding, "", ""
		if k := len(view.Tree.Children); k > 0 && view.Tree.Children[k-1].Path == RestPath {
			view.Tree.Children[k-1].Kind, view.Tree.Children[k-1].Group = style.Padding, ""
		}
	}
	emb, label := view.Embedded()
	fs.Fields = frameFields(fr, emb, label)
	var ke *kafka.Error
	if errors.As(o.Err, &ke) {
		fs.Failed, fs.FailAt = true, ke.Offset
		for i := range fields {
			if at := ke.Offset * 8; fields[i].Offset <= at && at < fields[i].Offset+fields[i].Bits {
				fields = slices.Clone(fields)
				fields[i].Name += " (failed here)"
				fields[i].Desc = o.Err.Error()
				break
			}
		}
	}
	end := 0
	for _, fd := range fields {
		end = max(end, (fd.Offset+fd.Bits)/8)
	}
	if end < len(fr.Bytes) {
		// What was not decoded: one field, so the grid shows where decoding stopped.
		value := fmt.Sprintf("%d bytes", len(fr.Bytes)-end)
		desc := ""
		if ke != nil {
			value = fmt.Sprintf("offset %d, %s: %v", ke.Offset, ke.Path, ke.Err)
		}
		if o.Err != nil {
			desc = o.Err.Error()
		}
		fields = append(slices.Clip(fields), bytegrid.Field{Offset: end * 8, Bits: (len(fr.Bytes) - end) * 8, Name: "not decoded",
			Value: value, Kind: style.Padding, Bytes: fr.Bytes[end:], Path: "#undecoded", Desc: desc})
		fs.Fields = append(fs.Fields, Field{Path: "#undecoded", Name: "not decoded", Type: "bytes", Offset: end, Length: len(fr.Bytes) - end, Value: value, About: desc})
	}
	what := fmt.Sprintf("the %d-byte %s", len(fr.Bytes), name)
	if o.Noun != "" {
		what = fmt.Sprintf("the %d-byte %s %s", len(fr.Bytes), o.Noun, name)
	}
	if fr.API != nil {
		what += fmt.Sprintf(" (API key %d)", fr.API.Key)
	}
	grid, err := bytegrid.Layout(fields, bytegrid.Options{GroupColors: view.Groups, ElideRows: ElideRows, TurnNames: true})
	if err != nil {
		return nil, fmt.Errorf("site: %s: byte grid: %w", name, err)
	}
	fs.Grid = Figure{grid, name + ": byte grid", "Byte grid of " + what + ", 32 bits a row, each field boxed and labelled with its name and value."}
	if o.Narrow {
		g, err := bytegrid.Layout(fields, bytegrid.Options{RowBits: NarrowRowBits, BitWidth: NarrowBitWidth, GroupColors: view.Groups, ElideRows: 2 * ElideRows, TurnNames: true})
		if err != nil {
			return nil, fmt.Errorf("site: %s: narrow byte grid: %w", name, err)
		}
		fs.Narrow = Figure{g, name + ": byte grid", "Byte grid of " + what + ", 16 bits a row, each field boxed and labelled with its name and value."}
	}
	tr, err := tree.Layout(view.Tree, tree.Options{GroupColors: view.Groups, MaxValue: TreeMaxValue, Title: name + ": expanded tree"})
	if err != nil {
		return nil, fmt.Errorf("site: %s: tree: %w", name, err)
	}
	fs.Tree = Figure{tr, name + ": expanded tree", "Expanded tree of " + what + ": every field with its value, byte offset, length and wire type."}
	fs.Nodes = fr.Nodes
	if o.MaxNested >= 0 {
		if err := fs.nest(fr, o); err != nil {
			return nil, err
		}
	}
	return fs, nil
}

// nest draws the records of fr's compressed batches, within Options.MaxNested fields.
func (fs *Figures) nest(fr *kafka.Frame, o Options) error {
	left := o.MaxNested
	if left == 0 {
		left = DefaultMaxNested
	}
	var err error
	fr.Root.Walk(func(x *kafka.Node) bool {
		c, ok := x.Raw.(*kafka.Compressed)
		if !ok || c.Root == nil || err != nil {
			return err == nil
		}
		n := Nested{Path: x.Path, Caption: fmt.Sprintf("%s: the %d bytes decompressed with %s (offsets from the start of the decompressed data)", x.Path, len(c.Data), c.Codec)}
		if c.Note != "" {
			n.Caption += "; " + c.Note
		}
		nodes := 0 // counted before anything is laid out
		c.Root.Walk(func(*kafka.Node) bool { nodes++; return true })
		in := &kafka.Frame{Bytes: c.Data, Root: c.Root, Nodes: nodes}
		n.Frame = in
		if nodes > left {
			n.Note = fmt.Sprintf("not drawn: %d fields (tree nodes), more than the %d left to draw of nested frames", nodes, left)
			fs.Nested = append(fs.Nested, n)
			return true
		}
		left -= nodes
		n.Figures, err = Draw(in, Options{Name: fmt.Sprintf("%s decompressed (%s)", x.Path, c.Codec), Narrow: o.Narrow, MaxNested: -1})
		if err != nil {
			return false
		}
		fs.Nodes += nodes
		fs.Nested = append(fs.Nested, n)
		return true
	})
	return err
}
