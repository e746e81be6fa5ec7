// Package specdec decodes bytes with a protocol's description: the spec decodes. A spec read
// by gridyaml (or any grid form: RFC art, RFC 9000 notation, bit-field JSON, whose fields carry
// no decode keys) and the bytes of one header in, the fields read from those bytes out, each
// with its raw bits, its value, its offset and length, drawn as a byte grid (Result.Grid, for
// package bytegrid) and as a tree (Result.Tree, for package tree).
//
// A real UDP datagram, a DNS query the Linux kernel sent on the loopback interface, read with
// examples/protocols/udp.yaml ("kafkagrid grid udp.yaml -bytes query.txt", the text form; the
// SVG of a real TCP segment, examples/protocols/tcp-get.svg, shows its options as items):
//
//	+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//	|          Source Port          |       Destination Port        |
//	+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//	|            Length             |           Checksum            |
//	+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//	|                          data octets                          |
//	|                       ... 24 bytes ...                        |
//	|               +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//	| < data octets |
//	+-+-+-+-+-+-+-+-+
//
//	  Source Port      = 60654
//	  Destination Port = 15353
//	  Length           = 37
//	  Checksum         = 0xfe38
//	  data octets      = 0x12340100000100000000000007657861… (29 bytes)
//
// # Values
//
// A field's value is read from its bits by its type, in the spec's own words (gridyaml's
// field keys type, endian, show, enum and flags):
//   - an unsigned integer of any width up to 64 bits, big-endian, or little-endian where the
//     field's endian or the spec's byte_order says (a byte-aligned field of whole bytes);
//     signed (two's complement) when its type is int8, int16, …, sint… or signed; written in
//     decimal, or as show says (hex: 0x1c46, binary: 0b010);
//   - type flag: 1 or 0, the field's name among the set flags when 1; flags: names a field's
//     bits by mask ({DF: 0x2, MF: 0x1}), its value written "0x2 (DF)";
//   - enum: names its values ({1: ICMP, 6: TCP}), written "6 (TCP)"; a value it does not name
//     is written "253 (?)" with a warning;
//   - type ipv4 (32 bits), ipv6 (128), mac (48): an address; ascii, utf8, string, text: the
//     text, quoted; hex, bytes, opaque, options, or a field of more than 64 bits: hex.
//
// A field's value: key stays an example for drawing the spec without bytes; read from bytes,
// the bytes' value replaces it.
//
// # Lengths
//
// A field is read where the fields before it end (a gap the spec leaves between two fields is
// kept). Its length is its bits, or what its length expression gives in bytes (IPv4's
// Options: "IHL * 4 - 20"), or, for a variable field with length_from, the named field's
// value in bytes; a variable field without either, and a list of items without a length or a
// count, runs to the end of the bytes (a trailing payload). A field with when is read only when
// its expression is not zero; a field whose length is 0 is absent. A field with items is a
// list: the items' fields are read again and again until its length runs out, or count items
// are read, or until is true of the item just read (TCP's options, kind, length and value, to
// the End of Option List). Expressions are gridyaml.Expr: field names, integers, + - * / & and
// comparisons, len(Name), rest.
//
// # Bad bytes
//
// Too few bytes, a length past the end or a negative one, a division by zero: a Problem at
// the byte offset where it was found, the field there marked ("! …", its problem in its
// tooltip), what was read before it kept and the spec's other fields drawn after it without
// values; a value no enum names is a warning. Decode never panics, and its cost is bounded by
// the bytes: every item takes at least one bit, and at most MaxFields fields are read.
package specdec

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/netip"
	"strconv"
	"strings"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/bytegrid/gridyaml"
	"github.com/kafkagrid/kafkagrid/tree"
)

// MaxFields bounds the fields one Decode reads (items' fields counted).
const MaxFields = 1 << 14

// RestName names the field that holds the bytes after the spec's last field.
const RestName = "(more bytes)"

// Field is one field read from the bytes.
type Field struct {
	Name   string `json:"name"`
	Path   string `json:"path"`
	Offset int    `json:"offset"` // bit offset from the first byte
	Bits   int    `json:"bits"`   // length in bits
	// Raw is the field's bits as binary digits (fields of up to 64 bits); Hex the bytes it
	// touches.
	Raw string `json:"raw,omitempty"`
	Hex string `json:"hex,omitempty"`
	// Value is the value as drawn; Number the integer, for integer fields.
	Value  string      `json:"value"`
	Number json.Number `json:"number,omitempty"`
	Flags  []string    `json:"flags,omitempty"` // the names of the flags set
	Type   string      `json:"type,omitempty"`
	// Problem says what is wrong with the field's bytes; Warning that it is only a warning.
	Problem string `json:"problem,omitempty"`
	Warning bool   `json:"warning,omitempty"`
	// Items are the fields of each item, for a field that is a list of items.
	Items [][]*Field `json:"items,omitempty"`

	spec bytegrid.Field
	item string // "[3]": the item the field belongs to
}

// Problem is something wrong with the bytes: where (byte offset and field path) and what.
type Problem struct {
	Offset  int    `json:"offset"`
	Path    string `json:"path"`
	Msg     string `json:"message"`
	Warning bool   `json:"warning,omitempty"`
}

func (p Problem) Error() string {
	return fmt.Sprintf("%s: offset %d: %s", p.Path, p.Offset, p.Msg)
}

// Result is what Decode read.
type Result struct {
	Name     string    `json:"name"`
	Size     int       `json:"bytes"` // the bytes given
	Fields   []*Field  `json:"fields"`
	Problems []Problem `json:"problems,omitempty"`
	// rest are the spec's fields not read after an error, drawn without values after it.
	rest    []bytegrid.Field
	restAt  int
	options bytegrid.Options
	desc    string
}

// Err is the first problem that is no warning, as an error; nil when every field was read.
func (r *Result) Err() error {
	for _, p := range r.Problems {
		if !p.Warning {
			return fmt.Errorf("specdec: %w", p)
		}
	}
	return nil
}

// Decode reads data with spec s. It never fails: what cannot be read is a Problem of the
// result, and what was read before it is kept.
func Decode(s *gridyaml.Spec, data []byte) *Result {
	d := &decoder{data: data, little: s.LittleEndian, res: &Result{Name: s.Name, Size: len(data), options: s.Options, desc: s.Desc}}
	rules := s.Rules
	if rules == nil {
		rules = make([]gridyaml.Rule, len(s.Fields))
	}
	items := make([]gridyaml.Item, len(s.Fields))
	for i, f := range s.Fields {
		items[i] = gridyaml.Item{Field: f, Rule: rules[i]}
	}
	fields, end, stoppedAt := d.list(items, 0, 8*len(data), nil, "", "")
	d.res.Fields = fields
	if d.stopped {
		if stoppedAt >= 0 && stoppedAt+1 < len(s.Fields) {
			d.res.rest = s.Fields[stoppedAt+1:]
			d.res.restAt = end
		}
	} else if end < 8*len(data) {
		// Bytes after the spec's last field (a header's payload) are one field more.
		if at := (end + 7) / 8; at < len(data) {
			f := &Field{Name: RestName, Path: RestName, Offset: 8 * at, Bits: 8 * (len(data) - at), Type: "bytes",
				spec: bytegrid.Field{Name: RestName, Path: RestName, Group: RestName, Type: "bytes", Desc: "The bytes after the spec's last field."}}
			d.read(f, gridyaml.Rule{})
			d.res.Fields = append(d.res.Fields, f)
		}
	}
	return d.res
}

type decoder struct {
	data    []byte
	little  bool
	res     *Result
	stopped bool
	count   int
}

func (d *decoder) problem(off int, path, msg string) {
	d.res.Problems = append(d.res.Problems, Problem{Offset: off, Path: path, Msg: msg})
	d.stopped = true
}

func (d *decoder) warn(off int, path, msg string) {
	d.res.Problems = append(d.res.Problems, Problem{Offset: off, Path: path, Msg: msg, Warning: true})
}

// env gives expressions the values of the fields read so far: those of the list being read,
// then those of the lists around it.
type env struct {
	fields []*Field
	byName map[string]*Field // the last field of each name in fields
	up     *env
	d      *decoder
	pos    int // bit position of the field being read, for rest
	limit  int
}

func (e *env) add(f *Field) {
	e.fields = append(e.fields, f)
	if e.byName == nil {
		e.byName = map[string]*Field{}
	}
	e.byName[f.Name] = f
}

func (e *env) find(name string) *Field {
	for s := e; s != nil; s = s.up {
		if f := s.byName[name]; f != nil {
			return f
		}
	}
	return nil
}

func (e *env) Value(name string) (int64, bool) {
	if f := e.find(name); f != nil {
		if f.Number == "" {
			return 0, false
		}
		v, err := f.Number.Int64()
		if err != nil { // a uint64 past int64: its bits
			u, _ := strconv.ParseUint(string(f.Number), 10, 64)
			v = int64(u)
		}
		return v, true
	}
	if name == "rest" {
		return int64(e.limit-e.pos) / 8, true
	}
	return 0, false
}

func (e *env) Len(name string) (int64, bool) {
	if f := e.find(name); f != nil {
		return int64(f.Bits / 8), true
	}
	return 0, true // a field not read (absent) has no bytes
}

// list reads the fields of items from bit pos, within limit, and returns them, where they end
// and, if decoding stopped in them, the index of the field where (else -1).
func (d *decoder) list(items []gridyaml.Item, pos, limit int, up *env, prefix, item string) ([]*Field, int, int) {
	e := &env{up: up, d: d, limit: limit}
	specEnd := 0
	for i, it := range items {
		sf, r := it.Field, it.Rule
		gap := sf.Offset - specEnd
		specEnd = sf.Offset + sf.Bits
		pos += gap
		e.pos = pos
		path := prefix + sf.Path
		if d.count++; d.count > MaxFields {
			d.problem(pos/8, path, fmt.Sprintf("more than %d fields", MaxFields))
			return e.fields, pos, i
		}
		eval := func(key string, x *gridyaml.Expr) (int64, bool) {
			v, err := x.Eval(e)
			if err != nil {
				d.problem(pos/8, path, fmt.Sprintf("%s %s: %v", key, x, err))
				f := &Field{Name: sf.Name, Path: path, Offset: pos, Value: "! " + err.Error(), Problem: err.Error(), spec: sf, item: item}
				e.add(f)
				return 0, false
			}
			return v, true
		}
		if r.When != nil {
			v, ok := eval("when", r.When)
			if !ok {
				return e.fields, pos, i
			}
			if v == 0 {
				continue
			}
		}
		bits := sf.Bits
		lengthSet := false
		switch {
		case r.Length != nil:
			v, ok := eval("length", r.Length)
			if !ok {
				return e.fields, pos, i
			}
			if v < 0 || v > int64(len(d.data)) {
				msg := fmt.Sprintf("length %s is %d bytes, and %d are left", r.Length, v, max(0, limit-pos)/8)
				if v < 0 {
					msg = fmt.Sprintf("length %s is %d: negative", r.Length, v)
				}
				d.problem(pos/8, path, msg)
				e.add(&Field{Name: sf.Name, Path: path, Offset: pos, Value: "! " + msg, Problem: msg, spec: sf, item: item})
				return e.fields, pos, i
			}
			bits, lengthSet = int(v)*8, true
		case sf.Variable && sf.LengthFrom != "":
			v, ok := e.Value(sf.LengthFrom)
			if ok && v >= 0 && v <= int64(len(d.data)) {
				bits, lengthSet = int(v)*8, true
			}
		}
		if !lengthSet && quicVarint(sf.Type) && pos%8 == 0 && pos < limit {
			// RFC 9000's variable-length integer: the first two bits give its length.
			bits, lengthSet = 8<<(d.data[pos/8]>>6), true
		}
		if !lengthSet && r.Count == nil && (r.Items != nil || sf.Variable) {
			bits = max(0, limit-pos)
		}
		f := &Field{Name: sf.Name, Path: path, Offset: pos, Bits: bits, Type: sf.Type, spec: sf, item: item}
		if r.Items != nil {
			end := limit
			if lengthSet || r.Count == nil {
				end = pos + bits
			}
			// A list longer than the bytes: its items are read as far as they go, and the
			// one the end cuts is marked (or the list, when the end falls between items).
			short := ""
			if end > limit {
				short = fmt.Sprintf("%d bytes, and %d are left", bits/8, max(0, limit-pos)/8)
				end = limit
			}
			n := int64(-1)
			if r.Count != nil {
				var ok bool
				if n, ok = eval("count", r.Count); !ok {
					return e.fields, pos, i
				}
				if n < 0 || n > int64(end-pos) {
					msg := fmt.Sprintf("count %s is %d, and %d bytes are left", r.Count, n, max(0, end-pos)/8)
					d.mark(f, msg)
					f.Bits = 0
					e.add(f)
					return e.fields, pos, i
				}
			}
			p := pos
			ie := &env{fields: nil, up: e, d: d, limit: end}
			for k := 0; n < 0 && p < end || int64(k) < n; k++ {
				label := "[" + strconv.Itoa(k) + "]"
				sub, q, _ := d.list(r.Items, p, end, e, path+label+".", label)
				f.Items = append(f.Items, sub)
				if d.stopped {
					f.Bits = q - pos
					f.Value = fmt.Sprintf("%d items", len(f.Items))
					e.add(f)
					return e.fields, q, i
				}
				if q <= p {
					msg := "an item of no bits: the items end here"
					d.problem(p/8, path+label, msg)
					f.Bits = p - pos
					e.add(f)
					return e.fields, p, i
				}
				p = q
				if r.Until != nil {
					ie.fields, ie.byName, ie.pos = nil, nil, p
					for _, x := range sub {
						ie.add(x)
					}
					v, err := r.Until.Eval(ie)
					if err != nil {
						d.problem(p/8, path+label, fmt.Sprintf("until %s: %v", r.Until, err))
						f.Bits = p - pos
						e.add(f)
						return e.fields, p, i
					}
					if v != 0 {
						break
					}
				}
			}
			f.Bits = p - pos
			f.Value = fmt.Sprintf("%d items", len(f.Items))
			if len(f.Items) == 1 {
				f.Value = "1 item"
			}
			if f.Bits > 0 {
				f.Hex = hex.EncodeToString(d.data[pos/8 : (p+7)/8])
			}
			e.add(f)
			if short != "" {
				d.mark(f, short)
				return e.fields, p, i
			}
			pos = p
			continue
		}
		if bits == 0 {
			e.add(f) // absent: len() of it is 0
			continue
		}
		if pos+bits > limit {
			left := max(0, limit-pos)
			var msg string
			switch {
			case limit < 8*len(d.data):
				msg = fmt.Sprintf("%s past the end of its item (%s left)", bitsText(bits), bitsText(left))
			case left == 0:
				msg = fmt.Sprintf("%s past the end of the bytes", bitsText(bits))
			default:
				msg = fmt.Sprintf("%s, and %s are left", bitsText(bits), bitsText(left))
			}
			f.Bits = left
			if left > 0 {
				d.read(f, r)
			}
			d.mark(f, msg)
			e.add(f)
			return e.fields, pos + left, i
		}
		d.read(f, r)
		if f.Problem != "" {
			d.warn(pos/8, path, f.Problem)
		}
		e.add(f)
		pos += bits
	}
	return e.fields, pos, -1
}

// mark records f's problem and marks its value.
func (d *decoder) mark(f *Field, msg string) {
	d.problem(f.Offset/8, f.Path, msg)
	f.Problem = msg
	f.Value = "! " + msg
}

func bitsText(bits int) string {
	if bits%8 == 0 {
		if bits == 8 {
			return "1 byte"
		}
		return strconv.Itoa(bits/8) + " bytes"
	}
	if bits == 1 {
		return "1 bit"
	}
	return strconv.Itoa(bits) + " bits"
}

// read sets f's raw bits and value from the bytes (f.Offset, f.Bits lie within them).
func (d *decoder) read(f *Field, r gridyaml.Rule) {
	off, n := f.Offset, f.Bits
	touched := d.data[off/8 : (off+n+7)/8]
	f.Hex = hex.EncodeToString(touched)
	aligned := off%8 == 0 && n%8 == 0
	t := strings.ToLower(f.Type)
	var raw []byte
	if aligned {
		raw = touched
	}
	opaque := (f.spec.Variable || r.Length != nil) && !intType(t)
	if quicVarint(t) && aligned && n <= 64 {
		f.setVarint(raw, n)
		return
	}
	if v, ok := alignedText(t, n, raw, aligned); ok {
		f.Value = v
		return
	}
	if n > 64 || opaque || aligned && (t == "hex" || t == "bytes" || t == "opaque" || t == "options" || t == "data") {
		f.Value = hexValue(touched)
		return
	}
	d.integer(f, r, t)
}

// setVarint reads raw, n bits of RFC 9000's variable-length integer, into f: the two bits of
// its length left out of the number.
func (f *Field) setVarint(raw []byte, n int) {
	var u uint64
	for i, b := range raw {
		if i == 0 {
			b &= 0x3f
		}
		u = u<<8 | uint64(b)
	}
	f.Raw = fmt.Sprintf("%0*b", n, binaryOf(raw))
	f.Number = json.Number(strconv.FormatUint(u, 10))
	f.Value = string(f.Number)
}

// alignedText is the value of raw, n bits on byte boundaries (aligned), of a type written as
// text: an IPv4 or IPv6 address, a MAC address, ASCII or UTF-8 text; ok is false for others.
func alignedText(t string, n int, raw []byte, aligned bool) (string, bool) {
	switch {
	case !aligned:
		return "", false
	case t == "ipv4" && n == 32:
		return netip.AddrFrom4([4]byte(raw)).String(), true
	case t == "ipv6" && n == 128:
		return netip.AddrFrom16([16]byte(raw)).String(), true
	case t == "mac" && n == 48:
		parts := make([]string, 6)
		for i, b := range raw {
			parts[i] = fmt.Sprintf("%02x", b)
		}
		return strings.Join(parts, ":"), true
	case t == "ascii":
		return strconv.QuoteToASCII(string(raw)), true
	case t == "utf8" || t == "utf-8" || t == "string" || t == "text":
		return strconv.Quote(string(raw)), true
	}
	return "", false
}

// quicVarint reports whether a field's type is RFC 9000's variable-length integer, "(i)" in
// the notation (package notation's type "varint (i)").
func quicVarint(t string) bool {
	return strings.EqualFold(t, "varint (i)") || t == "(i)"
}

// intType reports whether a type names an integer (uint16, int8, u32, flag, bits…).
func intType(t string) bool {
	for _, p := range []string{"uint", "int", "sint", "signed", "unsigned", "flag", "bits", "u", "i"} {
		if rest, ok := strings.CutPrefix(t, p); ok && strings.Trim(rest, "0123456789") == "" {
			return true
		}
	}
	return false
}

// binaryOf is the value of up to 8 bytes, big-endian.
func binaryOf(b []byte) uint64 {
	var u uint64
	for _, c := range b {
		u = u<<8 | uint64(c)
	}
	return u
}

// maxHexValue is how many bytes a value written in hex shows; the JSON's hex has them all.
const maxHexValue = 16

func hexValue(b []byte) string {
	if len(b) <= maxHexValue {
		return "0x" + hex.EncodeToString(b)
	}
	return fmt.Sprintf("0x%s… (%d bytes)", hex.EncodeToString(b[:maxHexValue]), len(b))
}

// setNumber sets f's number, of n bits read as u, signed when its type t is; the text of it.
func (f *Field) setNumber(u uint64, n int, t string) string {
	signed := t == "signed" || strings.HasPrefix(t, "sint") || strings.HasPrefix(t, "int") && !strings.HasPrefix(t, "inte")
	switch {
	case signed && n < 64 && u>>(n-1)&1 == 1:
		f.Number = json.Number(strconv.FormatInt(int64(u)-int64(1)<<n, 10))
	case signed && n == 64:
		f.Number = json.Number(strconv.FormatInt(int64(u), 10))
	default:
		f.Number = json.Number(strconv.FormatUint(u, 10))
	}
	return string(f.Number)
}

// flagsSet sets f's flags to those of r set in u; what the text says of them, or "".
func (f *Field) flagsSet(r gridyaml.Rule, u uint64) string {
	var set []string
	for _, fl := range r.Flags {
		if fl.Value != 0 && u&fl.Value == fl.Value {
			set = append(set, fl.Name)
		}
	}
	if set == nil {
		return ""
	}
	f.Flags = set
	return " (" + strings.Join(set, ", ") + ")"
}

// enumName is what the text says of u's name in r's enum: " (name)", or " (?)" with a
// warning on f when it has none.
func (f *Field) enumName(r gridyaml.Rule, u uint64) string {
	for _, e := range r.Enum {
		if e.Value == u {
			return " (" + e.Name + ")"
		}
	}
	f.Problem, f.Warning = fmt.Sprintf("value %d: no name in the enum", u), true
	return " (?)"
}

// integer reads f, of at most 64 bits, as an integer.
func (d *decoder) integer(f *Field, r gridyaml.Rule, t string) {
	off, n := f.Offset, f.Bits
	var u uint64
	for i := 0; i < n; i++ {
		b := d.data[(off+i)/8] >> (7 - (off+i)%8) & 1
		u = u<<1 | uint64(b)
	}
	if n <= 64 {
		f.Raw = fmt.Sprintf("%0*b", n, u)
	}
	little := r.Endian == "little" || r.Endian == "" && d.little
	if little && off%8 == 0 && n%8 == 0 {
		var v uint64
		for i := n/8 - 1; i >= 0; i-- {
			v = v<<8 | uint64(d.data[off/8+i])
		}
		u = v
	}
	text := f.setNumber(u, n, t)
	show := r.Show
	if show == "" && r.Flags != nil {
		show = "hex"
	}
	switch show {
	case "hex":
		text = fmt.Sprintf("0x%0*x", (n+3)/4, u)
	case "binary":
		text = fmt.Sprintf("0b%0*b", n, u)
	}
	if t == "flag" && u != 0 {
		f.Flags = []string{f.Name}
	}
	text += f.flagsSet(r, u)
	if r.Enum != nil {
		text += f.enumName(r, u)
	}
	f.Value = text
}

// Grid is the drawing of what was read: the fields with their values and bytes, laid out by
// bytegrid, and Options with the spec's example data dropped. A field marked with a problem
// has its problem in its tooltip; the spec's fields not read after an error follow it, with
// no values.
func (r *Result) Grid() ([]bytegrid.Field, bytegrid.Options) {
	var out []bytegrid.Field
	var walk func(fs []*Field, group string)
	walk = func(fs []*Field, group string) {
		for _, f := range fs {
			if f.Items != nil {
				g := f.spec.Group
				if g == "" {
					g = f.Name
				}
				for _, it := range f.Items {
					walk(it, g)
				}
				continue
			}
			if f.Bits == 0 {
				continue
			}
			out = append(out, r.drawn(f, group))
		}
	}
	walk(r.Fields, "")
	pos := r.restAt
	if n := len(out); n > 0 {
		pos = max(pos, out[n-1].Offset+out[n-1].Bits)
	}
	if len(r.rest) > 0 {
		base := r.rest[0].Offset
		for _, sf := range r.rest {
			g := sf
			g.Offset = pos + sf.Offset - base
			g.Value, g.Bytes = "", nil
			out = append(out, g)
		}
	}
	o := r.options
	o.Data = nil
	return out, o
}

// drawn is f as a byte-grid field.
func (r *Result) drawn(f *Field, group string) bytegrid.Field {
	g := f.spec
	g.Offset, g.Bits, g.Value = f.Offset, f.Bits, f.Value
	g.Path, g.Bytes = f.Path, nil
	g.Variable, g.Optional, g.Condition, g.LengthFrom, g.MinBits, g.MaxBits, g.Repeated = false, false, "", "", 0, 0, false
	if group != "" {
		g.Group = group
		if f.spec.Group != "" {
			g.Group = f.spec.Group
		}
		g.Item = f.item
		g.RowBreak, g.Caption = false, ""
	}
	if f.Hex != "" {
		g.Bytes, _ = hex.DecodeString(f.Hex)
		if f.Offset%8 == 0 && f.Bits%8 == 0 {
			g.Bytes = g.Bytes[:f.Bits/8]
		}
	}
	if f.Problem != "" {
		g.Desc = strings.TrimSpace(g.Desc + " " + f.Problem)
	}
	return g
}

// Tree is the tree of what was read: the spec's name, a node a field, a list's items under
// it, each item's fields under the item.
func (r *Result) Tree() *tree.Node {
	root := &tree.Node{Name: r.Name, Length: r.Size, Kind: tree.Header, Desc: r.desc}
	var add func(parent *tree.Node, fs []*Field)
	add = func(parent *tree.Node, fs []*Field) {
		for _, f := range fs {
			if f.Bits == 0 && f.Problem == "" {
				continue
			}
			n := &tree.Node{Name: f.Name, Value: f.Value, Type: f.Type, Offset: f.Offset / 8, Length: (f.Offset+f.Bits+7)/8 - f.Offset/8,
				Group: f.spec.Group, Kind: f.spec.Kind, Path: f.Path, Desc: strings.TrimSpace(f.spec.Desc + " " + f.Problem)}
			if f.Items != nil {
				n.Name = tree.ArrayLabel(f.Name, len(f.Items))
				n.Value = ""
				for i, it := range f.Items {
					c := &tree.Node{Name: tree.IndexLabel(i), Path: f.Path + tree.IndexLabel(i)}
					if len(it) > 0 {
						c.Offset = it[0].Offset / 8
						last := it[len(it)-1]
						c.Length = (last.Offset+last.Bits+7)/8 - c.Offset
					}
					add(c, it)
					n.Add(c)
				}
			}
			parent.Add(n)
		}
	}
	add(root, r.Fields)
	return root
}

// SpecTree is the tree of a spec's fields without bytes, as Tree draws what was read: their
// values are the spec's examples.
func SpecTree(s *gridyaml.Spec) *tree.Node {
	root := &tree.Node{Name: s.Name, Kind: tree.Header, Desc: s.Desc}
	end := 0
	for _, f := range s.Fields {
		root.Add(&tree.Node{Name: f.Name, Value: f.Value, Type: f.Type, Offset: f.Offset / 8, Length: (f.Offset+f.Bits+7)/8 - f.Offset/8,
			Group: f.Group, Kind: f.Kind, Path: f.Path, Desc: f.Desc})
		end = max(end, f.Offset+f.Bits)
	}
	root.Length = (end + 7) / 8
	return root
}
