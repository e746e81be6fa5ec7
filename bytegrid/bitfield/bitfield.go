// Package bitfield reads the field lists of WaveDrom's bit-field (the npm package bit-field and
// WaveDrom's "reg" diagrams) as byte-grid fields (package bytegrid), as they are written for
// those tools, so that a user switches without rewriting:
//
//	[
//	  {"name": "IPO",   "bits": 8, "attr": "RO"},
//	  {                 "bits": 7},
//	  {"name": "BRK",   "bits": 5, "attr": "RW", "type": 4},
//	  {"name": "CPK",   "bits": 1},
//	  {"name": "Clear", "bits": 3},
//	  {"bits": 8}
//	]
//
// A document is that list (bit-field's input), or WaveDrom's object {"reg": [...], "config":
// {...}}. Both may be JSON or the JSON5 that WaveDrom's editor writes (reg: [{bits: 8, name:
// 'IPO'}], comments, trailing commas). Errors carry the file, line and column.
//
// # Fields
//
// Fields run from bit 0 in list order, as bit-field lays them out. Each has:
//
//   - bits (required): its length;
//   - name: its label (bit-field's markup, <b>, <o>, <sub> and the like, dropped: the grid
//     draws plain text); a field without a name is an unlabelled gap, drawn as padding as
//     bit-field greys it; a number is drawn as its bits, in binary, as bit-field does;
//   - attr: the field's value text (bit-field writes it under the box): a string as it is, a
//     number as its bits in binary, a list joined by ", " (nulls skipped);
//   - type: bit-field's colour (2 to 7): the field joins the group of that type, named by the
//     config's legend when it names one ({"Read-only": 2}), else "type N", so fields of a type
//     share a colour; other types get a group too, as bit-field greys them;
//   - rotate: a label turned on its side; drawn letter by letter (bytegrid.LabelVertical);
//   - rect: SVG attributes for bit-field's box, which say nothing of the field: ignored.
//
// Any other key is an error, as is a field that is not an object or a length that is not a
// positive whole number.
//
// # Lanes and config
//
// bit-field cuts the bits into lanes (rows) of ⌈bits/lanes⌉ bits, lane 0 (bits 0 up) at the
// bottom and bit 0 at the right of its lane; its hflip puts lane 0 at the top and vflip bit 0 at
// the left (the names are bit-field's, and swapped from what they do). The grid draws rows top
// down and bits left to right, so each field lands where bit-field draws it: a field is placed
// at its drawn row and column, and a field that crosses from one lane into the next becomes
// two boxes of the same name, unless it continues at the start of the next row (hflip and
// vflip together, the order of an RFC figure: then it stays one field). The config keys that
// map are lanes, bits (default: the fields' sum) and hflip and vflip, and legend (above); the
// ones that set sizes, fonts and margins (hspace, vspace, fontsize, fontfamily, fontweight,
// margin, compact, trim), the lane labels (label), offset, uneven and sparse are read and
// ignored, as the grid measures and numbers its own. A field past lanes × ⌈bits/lanes⌉ bits
// (which bit-field does not draw) is an error. The row width is that of a lane, which bytegrid
// must accept.
//
// Options gives the command line's lanes, bits, hflip and vflip, which bit-field takes as
// flags (kafkagrid grid -lanes 6 -hflip -vflip, as bitfield --lanes 6 --hflip --vflip).
package bitfield

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/style"
)

// MaxSize bounds a document's text; maxFields its fields; maxBits its bits.
const (
	MaxSize   = 16 << 20
	maxFields = 100000
	maxBits   = 1 << 27
)

// Options override the document's config, as bit-field's command-line flags do: a positive
// Lanes or Bits, and HFlip or VFlip when true.
type Options struct {
	Lanes, Bits  int
	HFlip, VFlip bool
}

// Spec is a read document: the bytegrid.Spec every reader of a spec returns (its Name
// empty: a bit-field document has no title) and the layout bit-field used.
type Spec struct {
	bytegrid.Spec
	// Lanes, LaneBits, HFlip and VFlip are the layout used, after defaults and Options.
	Lanes, LaneBits int
	HFlip, VFlip    bool
}

// Error is a problem in a document, with its position (file:line:col): bytegrid.SpecError,
// which every reader of a spec returns, its Reader "bitfield".
type Error = bytegrid.SpecError

// field is one list entry, read.
type field struct {
	name      string
	named     bool
	bits      int
	value     string
	group     string
	typ       int
	vertical  bool
	line, col int
	lsb       int
}

// Parse reads the document in src, with opt over its config; file names it in errors.
func Parse(file string, src []byte, opt Options) (*Spec, error) {
	if len(src) > MaxSize {
		return nil, &Error{Reader: "bitfield", File: file, Err: fmt.Errorf("%d bytes, more than a document may have (%d)", len(src), MaxSize)}
	}
	r := &reader{file: file, src: src, line: 1, col: 1}
	doc, err := r.document()
	if err != nil {
		return nil, err
	}
	reg, config := doc, (*value)(nil)
	if doc.kind == kObj {
		reg, config = doc.get("reg"), doc.get("config")
		for _, k := range doc.keys {
			switch k {
			case "reg", "config", "head", "foot":
			default:
				p := doc.keyPos[slices.Index(doc.keys, k)]
				return nil, r.errAt(p[0], p[1], "unknown key %q (want reg, config)", k)
			}
		}
		if reg == nil {
			return nil, r.errAt(doc.line, doc.col, "no \"reg\": want a list of fields, or {\"reg\": [...]}")
		}
	}
	if reg.kind != kArr {
		return nil, r.errAt(reg.line, reg.col, "want a list of fields, got %v", reg.kind)
	}
	if len(reg.arr) > maxFields {
		return nil, r.errAt(reg.line, reg.col, "more than %d fields", maxFields)
	}
	s := &Spec{}
	legend := map[int]string{}
	if config != nil {
		if err := s.config(r, config, legend); err != nil {
			return nil, err
		}
	}
	if opt.Lanes > 0 {
		s.Lanes = opt.Lanes
	}
	s.HFlip = s.HFlip || opt.HFlip
	s.VFlip = s.VFlip || opt.VFlip
	fields := make([]field, 0, len(reg.arr))
	total := 0
	for i, e := range reg.arr {
		f, err := readField(r, e, i, legend)
		if err != nil {
			return nil, err
		}
		f.lsb = total
		total += f.bits
		if total > maxBits {
			return nil, r.errAt(e.line, e.col, "the fields pass %d bits", maxBits)
		}
		fields = append(fields, f)
	}
	bits := total
	if s.LaneBits > 0 { // the config's bits, kept there for now
		bits = s.LaneBits
	}
	if opt.Bits > 0 {
		bits = opt.Bits
	}
	if s.Lanes == 0 {
		s.Lanes = 1
	}
	if bits == 0 {
		return nil, r.errAt(reg.line, reg.col, "no bits: the list has no field")
	}
	mod := (bits + s.Lanes - 1) / s.Lanes
	s.LaneBits = mod
	s.Options.RowBits = mod
	// bit-field draws bit 0 at the right unless vflip: the ruler counts as it does.
	s.Options.LSB0 = !s.VFlip
	groups := map[string]int{}
	for _, f := range fields {
		if f.lsb+f.bits > s.Lanes*mod {
			return nil, r.errAt(f.line, f.col, "field %q: bits %d to %d lie past the %d bits of %d lanes of %d", f.name, f.lsb, f.lsb+f.bits-1, s.Lanes*mod, s.Lanes, mod)
		}
		if f.group != "" && f.typ >= 2 && f.typ <= 7 {
			groups[f.group] = (f.typ - 2) % style.NumGroups
		}
	}
	if len(groups) > 0 {
		s.Options.GroupColors = groups
	}
	s.Fields = place(fields, s.Lanes, mod, s.HFlip, s.VFlip)
	if err := bytegrid.CheckFields(s.Fields); err != nil {
		return nil, &Error{Reader: "bitfield", File: file, Err: err}
	}
	return s, nil
}

// config reads the config object.
func (s *Spec) config(r *reader, c *value, legend map[int]string) error {
	if c.kind != kObj {
		return r.errAt(c.line, c.col, "config: want an object, got %v", c.kind)
	}
	for i, k := range c.keys {
		v := c.vals[i]
		var err error
		switch k {
		case "lanes":
			s.Lanes, err = whole(r, v, "config lanes", 1)
		case "bits":
			s.LaneBits, err = whole(r, v, "config bits", 1)
		case "hflip":
			s.HFlip, err = boolean(r, v, "config hflip")
		case "vflip":
			s.VFlip, err = boolean(r, v, "config vflip")
		case "legend":
			if v.kind != kObj {
				return r.errAt(v.line, v.col, "config legend: want an object of name: type")
			}
			for j, name := range v.keys {
				t, err := whole(r, v.vals[j], "config legend "+strconv.Quote(name), 0)
				if err != nil {
					return err
				}
				legend[t] = name
			}
		case "hspace", "vspace", "fontsize", "fontfamily", "fontweight", "margin", "compact", "trim", "label", "offset", "uneven", "sparse":
			// Sizes, fonts, margins and lane labels: the grid measures and numbers its own.
		default:
			return r.errAt(c.keyPos[i][0], c.keyPos[i][1], "config: unknown key %q (want lanes, bits, hflip, vflip, legend, or one of the sizes and fonts)", k)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// readField reads one list entry.
func readField(r *reader, e *value, i int, legend map[int]string) (field, error) {
	f := field{line: e.line, col: e.col}
	label := "#" + strconv.Itoa(i+1)
	if e.kind != kObj {
		return f, r.errAt(e.line, e.col, "field %s: want an object, got %v", label, e.kind)
	}
	if n := e.get("name"); n != nil {
		switch n.kind {
		case kStr:
			f.name = plain(n.str)
		case kNum:
			f.name = "" // set once bits is known
		default:
			return f, r.errAt(n.line, n.col, "field %s: name: want a string or a number, got %v", label, n.kind)
		}
		f.named = true
		if n.kind == kStr {
			label = strconv.Quote(n.str)
		}
	}
	for j, k := range e.keys { // an unknown key first: a misspelt "bits" is named as such
		switch k {
		case "name", "bits", "attr", "type", "rotate", "rect":
		default:
			return f, r.errAt(e.keyPos[j][0], e.keyPos[j][1], "field %s: unknown key %q (want name, bits, attr, type, rotate, rect)", label, k)
		}
	}
	b := e.get("bits")
	if b == nil {
		return f, r.errAt(e.line, e.col, "field %s: no bits", label)
	}
	var err error
	if f.bits, err = whole(r, b, "field "+label+" bits", 1); err != nil {
		return f, err
	}
	if f.bits > maxBits {
		return f, r.errAt(b.line, b.col, "field %s: %d bits, more than %d", label, f.bits, maxBits)
	}
	for j, k := range e.keys {
		v := e.vals[j]
		switch k {
		case "name", "bits":
			if k == "name" && v.kind == kNum {
				if f.name, err = binary(r, v, f.bits, "field "+label+" name"); err != nil {
					return f, err
				}
			}
		case "attr":
			if f.value, err = attr(r, v, f.bits, label); err != nil {
				return f, err
			}
		case "type":
			switch v.kind {
			case kNum:
				if f.typ, err = whole(r, v, "field "+label+" type", 0); err != nil {
					return f, err
				}
				if name, ok := legend[f.typ]; ok {
					f.group = name
				} else {
					f.group = "type " + strconv.Itoa(f.typ)
				}
			case kStr:
				f.group = v.str
			case kNull:
			default:
				return f, r.errAt(v.line, v.col, "field %s: type: want a number, got %v", label, v.kind)
			}
		case "rotate":
			if v.kind != kNum {
				return f, r.errAt(v.line, v.col, "field %s: rotate: want a number of degrees, got %v", label, v.kind)
			}
			f.vertical = math.Mod(v.num, 180) != 0
		case "rect":
			// SVG attributes of bit-field's box: nothing about the field.
		}
	}
	return f, nil
}

// attr reads a field's attr: a string, a number (its bits in binary) or a list of them.
func attr(r *reader, v *value, bits int, label string) (string, error) {
	switch v.kind {
	case kStr:
		return plain(v.str), nil
	case kNum:
		return binary(r, v, bits, "field "+label+" attr")
	case kNull:
		return "", nil
	case kArr:
		var parts []string
		for _, a := range v.arr {
			if a.kind == kArr {
				return "", r.errAt(a.line, a.col, "field %s: attr: a list inside a list", label)
			}
			s, err := attr(r, a, bits, label)
			if err != nil {
				return "", err
			}
			if s != "" {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, ", "), nil
	}
	return "", r.errAt(v.line, v.col, "field %s: attr: want a string, a number or a list, got %v", label, v.kind)
}

// tspanTag matches the markup bit-field's labels may hold (its tspan package: <o>verline,
// <b>, <i>, <s>, <u>, <sub>, <sup>, <tt>, <ins>); the grid draws plain text.
var tspanTag = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`</?(o|b|i|s|u|sub|sup|tt|ins)>`) })

// plain returns a label without its markup.
func plain(s string) string {
	if !strings.Contains(s, "<") {
		return s
	}
	return tspanTag().ReplaceAllString(s, "")
}

// binary writes a whole number as bits digits, as bit-field draws a number bit by bit.
func binary(r *reader, v *value, bits int, what string) (string, error) {
	if v.num != math.Trunc(v.num) || math.Abs(v.num) > 1<<53 {
		return "", r.errAt(v.line, v.col, "%s: %v is not a whole number", what, v.num)
	}
	n := int64(v.num)
	if bits > 64 {
		bits = 64
	}
	var b strings.Builder
	for i := bits - 1; i >= 0; i-- {
		b.WriteByte('0' + byte(uint64(n)>>uint(i)&1))
	}
	return b.String(), nil
}

func whole(r *reader, v *value, what string, least int) (int, error) {
	if v.kind != kNum || v.num != math.Trunc(v.num) || v.num < float64(least) || v.num > maxBits {
		return 0, r.errAt(v.line, v.col, "%s: want a whole number from %d to %d", what, least, maxBits)
	}
	return int(v.num), nil
}

func boolean(r *reader, v *value, what string) (bool, error) {
	if v.kind != kBool {
		return false, r.errAt(v.line, v.col, "%s: want true or false, got %v", what, v.kind)
	}
	return v.b, nil
}

// place puts each field where bit-field draws it: lane k at row hflip ? k : lanes-1-k, the bit
// m of a lane at column vflip ? m : mod-1-m; a field is cut at lane ends, and its pieces
// joined again where they meet in the grid's order.
func place(fields []field, lanes, mod int, hflip, vflip bool) []bytegrid.Field {
	var out []bytegrid.Field
	for _, f := range fields {
		part := 0
		for lo := f.lsb; lo < f.lsb+f.bits; {
			lane := lo / mod
			hi := min(f.lsb+f.bits, (lane+1)*mod) - 1 // last bit in this lane
			row := lanes - 1 - lane
			if hflip {
				row = lane
			}
			mlo, mhi := lo-lane*mod, hi-lane*mod
			col := mod - 1 - mhi
			if vflip {
				col = mlo
			}
			g := bytegrid.Field{
				Offset: row*mod + col, Bits: hi - lo + 1, Name: f.name, Value: f.value, Group: f.group,
				Path: f.name,
			}
			if !f.named {
				g.Kind, g.Path = bytegrid.Padding, ""
			}
			if f.vertical {
				g.Label = bytegrid.LabelVertical
			}
			if n := len(out); part > 0 && n > 0 && out[n-1].Offset+out[n-1].Bits == g.Offset {
				out[n-1].Bits += g.Bits // continues at the start of the next row
			} else {
				if part > 0 && g.Path != "" {
					g.Path += " (" + strconv.Itoa(part+1) + ")"
				}
				out = append(out, g)
				part++
			}
			lo = hi + 1
		}
	}
	slices.SortStableFunc(out, func(a, b bytegrid.Field) int { return a.Offset - b.Offset })
	return out
}
