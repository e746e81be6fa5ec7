// Package gridyaml reads a protocol header described in YAML into byte-grid fields, so that
// protocols other than Kafka (IPv4, TCP, UDP, DNS, GRE, VXLAN, ICMPv6, WebSocket, QUIC: see
// examples/protocols) can be drawn by package bytegrid and the "kafkagrid grid" command. This
// is the format's one description; a test parses the examples below as they stand.
//
// # Format
//
// Every key, with an example (a UDP header, RFC 768, of a DNS query):
//
//	name: UDP header (RFC 768)        # the drawing's title (required)
//	description: A DNS query to port 53. # the drawing's description, for screen readers (optional)
//	caption: "Figure 3: DNS query"  # the figure's caption as printed under it (optional): the
//	                                  # drawing's title (an SVG's <title>, md's alt text)
//	row_bits: 32                      # bits a row: 32 by default, any width from 1 to 128
//	ruler: tens                       # the bit ruler: tens (default), tens-all, units, numbers, bytes, none
//	bit_order: msb0                   # msb0 (default): bits numbered 0, 1, … from the left;
//	                                  # lsb0: N-1 … 0, as MQTT's tables and register maps
//	offsets: hex                      # row offsets at the left: hex (default) or decimal
//	elide_rows: 4                     # rows a field may span before it is drawn as its first
//	                                  # row, "… N bytes …" and its last row (default 4; -1 never,
//	                                  # except past 1024 rows)
//	hex: true                         # show each byte's hex under the fields (default true)
//	data: cf db 00 35 00 0c a0 5d 01 02 03 04 # optional: the bytes, in hex (spaces and
//	                                  # newlines allowed); every field must then lie within them
//	groups: {Ports: 0, Datagram: 2}   # optional: palette index (0 to 11) per group
//	text:                             # how the text form (-o x.txt) is drawn; all optional
//	  margin: 6                       # spaces before every line
//	  row_lines: 1                    # the least number of lines a row takes
//	  align: middle                   # a label in a taller row: middle (default), top, bottom
//	  ticks: bits                     # "+" on the rules at every bit (default) or only where
//	                                  # fields begin and end ("fields")
//	  bit_chars: 2                    # characters a bit, 2 to 8 (default 2; 3 in rows of 16
//	                                  # bits or fewer)
//	  open: colons                    # a variable field's open end: colons (default), dots,
//	                                  # bottom, edge, rules or open (below)
//	  edge: "|~|"                     # optional: a variable field's side edges in the rows it
//	                                  # fills, first line, middle lines, last line (RFC 8926)
//	  bytes: false                    # true: nine columns a byte, rules marked at bytes only,
//	                                  # whatever the ruler (RFC 791's options)
//	  ruler_bits: 16                  # optional: number only the first 16 bits (RFC 4271)
//	  cross: "+"                      # a side edge crossing a rule its field continues across:
//	                                  # "+" (default, RFC 8200) or "|" (RFC 1035); two marks:
//	                                  # the second for the right edge ("+|", RFC 4302)
//	  dots: " ..."                    # what follows the label of an open: dots field
//	  open_rule: 0                    # the rule under an open: dots field: 0 half dashes and
//	                                  # " ..." (RFC 768), N the grid's rule for N columns
//	                                  # (RFC 792), -1 none (RFC 5389)
//	  ruler_shift: -1                 # the ruler's digits that many columns right of the
//	                                  # middle of their bit (-1: over the '+', RFC 4271)
//	  tens_no_zero: true              # no "0" on the tens line over bit 0 (RFC 7296)
//	  left_notes: "\n\n  OH"          # text in the left margin of each line from the first
//	                                  # rule on, lines separated by "\n" (RFC 6830)
//	  rule_ticks: bff                 # each rule's marks, from the first: b bits, y bytes,
//	                                  # f fields (RFC 2453)
//	  rule_marks: "4:1:+"             # marks kept on the rules, RULE:BIT:MARK (RFC 7540)
//	  elide: "//"                     # an elision mark the rules carry, standing for no
//	  elide_at: 37                    # bits, at this column from the grid's left edge (RFC
//	                                  # 791's "+---------//--------+")
//	  # table: "boxed\n4 1\n10 1 to 255"  # (one line a field) the text drawn as a table of
//	                                  # counts (RFC 1928): where the counts stand (boxed,
//	                                  # inline, under), then each field's box width and count
//	fields:                           # in order; a field may not overlap the one before
//	  - name: Source Port             # the label (required)
//	    bits: 16                      # the length: bits or bytes, exactly one
//	    offset: 0                     # optional bit offset; default: right after the previous
//	                                  # field (a larger offset leaves a gap)
//	    value: "53211"                # optional value text, drawn under the name
//	    group: Ports                  # optional: fields of a group share a colour
//	    kind: data                    # what the field is, which sets how it is drawn (below)
//	    type: uint16                  # optional wire type, for the tooltip
//	    path: udp.srcport             # optional data-path (default: the name)
//	    desc: The sender's port.      # optional description, for the tooltip
//	    label: auto                   # how the name is fitted: auto, stacked, vertical, note
//	  - {name: Destination Port, bits: 16, value: "53", group: Ports}
//	  - {name: Length, bytes: 2, value: "12", group: Datagram, kind: data}
//	  - name: Checksum
//	    bytes: 2
//	    value: "0xa05d"
//	    group: Datagram
//	    optional: false               # true: present only sometimes, drawn dashed
//	  - name: data octets
//	    bytes: 4                      # with variable, the length drawn: a usual size
//	    variable: true                # no fixed length: the open end is marked
//	    min_bits: 0                   # optional: the range the protocol allows
//	    max_bits: 524224
//	    length_from: Length           # optional: the field that gives the length
//	    group: Datagram
//
// More field keys: condition says when an optional field is present ("if C"), drawn under
// its name in SVG and after it in text ("Masking-key, if MASK set to 1", as RFC 6455 writes
// it); double_rule: true draws a double rule above the field ("+=+=+", RFC 7540's line between
// a frame's header and its payload); caption: "Outer IPv4 Header:" draws a heading above the
// field's row, between stacked headers (the field must start a row); row_break: true starts
// the field on a new row, the rest of the row before left empty, as RFC 7540 draws its frame
// header in rows of 24, 16 and 32 bits (only the drawing moves: the field's offset, in the SVG's
// data attributes, its tooltip and the row offsets, stays its own); repeated: true marks a
// field that repeats zero or more times (RFC 9000's "x (L) ..."), one instance drawn; item:
// "[3]" names which item of a repeating group the field belongs to, written after the group's
// letter in the box's corner ("C[3]"); short: "tags" is a shorter name drawn when the name does
// not fit its box on one line; lines: 3 gives the rows the field fills wholly (or, filling
// none, the row it starts in) at least three lines in the text form, as a figure draws one row
// taller than the rest; label_line: 5 and label_col: 11 put the label on the fifth line of its
// box (its block's, rules counted) and its first character in the box's eleventh column, as a
// figure printed it off the middle (RFC 4271's Marker and Length); label_cols: [2, 2, 3] puts
// each line of a stacked label at its own column (RFC 9147's Connection ID); run_on: true draws the edge
// between the field, ending its row, and the next, starting the next row, '.' (RFC 4340's
// Sequence Number in high and low bits); pieces: ["|Masking-key, if MASK set to 1  |", "|
// Masking-key (continued)       |"] draws the field's boxes, one a row it covers, as given,
// side edges included (RFC 6455's pieces with labels of their own), and crossings: ["+
// Signer's Name +"] the rules it crosses between two of them, over the bits it covers above
// and below (RFC 4034's RRSIG). Text keys beside those above: under_ruler is text printed
// between the ruler and the first rule (RFC 7348's blank line and "Outer Ethernet Header:");
// inside: dashed draws the rules inside a field drawn in pieces dashed and those between
// fields solid (RFC 6455). The spec's caption: is the figure's caption as printed ("Figure 1:
// Frame Layout"), its drawing's title.
//
// # Decoding bytes
//
// A spec decodes: "kafkagrid grid spec.yaml -bytes FILE" reads real bytes with it (package
// specdec) and draws every field with the value its bits hold. The keys that say how (a spec
// without them still decodes, every field an unsigned integer or, past 64 bits, hex):
//
//	name: IPv4 header, decoded
//	byte_order: big                   # integers of whole bytes: big (default) or little-endian
//	fields:
//	  - {name: IHL, bits: 4}
//	  - {name: Identification, bits: 16, show: hex}  # show: hex (0x1c46), binary, decimal
//	  - {name: Flags, bits: 3, flags: {DF: 0x2, MF: 0x1}}  # named bits: "0x2 (DF)"
//	  - {name: Protocol, bits: 8, enum: {1: ICMP, 6: TCP, 17: UDP}}  # "6 (TCP)"; a value
//	                                  # the enum does not name is "253 (?)", a warning
//	  - {name: Port, bits: 16, endian: little}  # one field's byte order
//	  - name: Options                 # a list of items
//	    bits: 24                      # the length drawn without bytes, as before
//	    length: IHL * 4 - 20          # bytes, from the fields before (an expression)
//	    until: Type == 0              # the items end after one with Type 0 (optional)
//	    items:                        # the fields of one item, read again and again until
//	                                  # the length runs out (or count: N items)
//	      - {name: Type, bits: 8, enum: {0: EOL, 1: NOP, 7: RR}}
//	      - {name: Length, bits: 8, when: Type > 1}  # present when not zero
//	      - {name: Data, bits: 8, type: bytes, when: Type > 1, length: Length - 2}
//	  - {name: Padding, bits: 8, length: IHL * 4 - 20 - len(Options)}
//	  - {name: Payload, bytes: 4, type: bytes, length: rest}  # rest: the bytes left
//
// A field's type says how its bits are read: uint… (or any other word) an unsigned integer,
// int…, sint… or signed a two's-complement one, flag a one-bit flag, ipv4, ipv6 and mac an
// address, ascii, utf8, string and text quoted text, hex, bytes, opaque and options hex. A
// field of length 0 is absent; a variable field with no length runs to the end of the bytes,
// or takes the value of its length_from field in bytes. Expressions (length, when, count,
// until) are small: the names of fields read before (in an item, the item's own first),
// integers (decimal or 0x…), + - * /, & (a mask), == != < <= > >= (1 or 0), brackets,
// len(Name) (a field's length in bytes) and rest. A name that names no field before, an
// operator the language lacks, or a bad key is an error at its line. The four examples
// (ipv4, tcp, udp, dns) read any real header of their protocol, options included.
//
// # Kinds
//
// A field's kind sets its fill. In protocol words:
//   - data: a value the protocol carries, filled with its group's colour (the default; plain
//     is the same kind). A Payload Length, a checksum, a flag or a count is data;
//   - reserved: reserved or unused bits, and padding (the same kind as padding): a near-white
//     fill and a muted label, so the fields that mean something read first;
//   - header: a fixed header field, in the header colour whatever its group.
//
// Kafka's framing vocabulary, which the Kafka reference uses: size (a frame's size prefix),
// length (a length or count prefix), tags and tag (a tagged-field section's count, a tagged
// field's tag or size) are framing, drawn near-white with a muted label so the data reads
// first; varint is a variable-length integer that is data (drawn as data). A plain protocol
// needs none of them.
//
// The palette: groups take the colours 0 to 11 in order of first appearance (or as groups
// says), a light fill each, with a dark-mode twin (examples/protocols/palette.svg shows all
// twelve, drawn from examples/protocols/palette.yaml).
//
// # Rulers and figures
//
// The ruler and the text options draw a figure as its RFC does. ruler: tens is RFC 791's
// (the tens digit over every tenth bit, the units under it); tens-all is RFC 1035's (the tens
// digit over every bit from 10 on); units is one line of units (RFC 2784); numbers is one line
// of whole bit numbers, "8   9  10  11" (RFC 3168); bytes is RFC 768's
// ("0      7 8     15 …" over byte-wide cells, "+--------+", nine characters a byte in the
// text form); none draws none (RFC 8200). In the text form a field spanning whole rows is one
// block, its name on its middle line, with "+" at its side edges on each inner row boundary
// (RFC 8200's addresses). A label is fitted to its box: on one line; else, in auto, shrunk to
// a floor (SVG) or stacked a word a line when the row has the lines (text); stacked puts a word
// a line (or breaks at the "\n" in the name) and vertical a letter a line, the row growing to
// hold them (RFC 9293's Data Offset and its flags C W R E U A P R S F); a label that fits no
// way, or label: note, is a numbered mark explained in a legend under the figure.
//
// A variable field (variable: true) is drawn at its given length with its open end marked: a
// slanted break across its end in SVG; in text, with open: colons, ":" side edges (RFC 9293's
// Data: "|…:", ":…:", ":…|" on three lines, or ":" at the open end of a field beside others),
// with open: dots no right edge, "..." after its name and "+---- ..." under it (RFC 768's
// data octets), with open: bottom no rule under it (RFC 4443's Message Body), and with open:
// edge "..." in place of its right edge (RFC 7540's Frame Payload), and with open: rules no
// right edge and its rules running on past the row with "-..." (RFC 4271's Optional
// Parameters). An optional
// field's border is dashed in SVG, and the rules around it "+ - - - +" in text.
//
// RFC 9293's flags and data, as a spec (examples/protocols/figures holds twelve such figures,
// each beside the RFC figure it draws):
//
//	name: TCP flags (RFC 9293)
//	text: {margin: 6}
//	fields:
//	  - {name: Data Offset, bits: 4, label: stacked}
//	  - {name: Rsrvd, bits: 4, kind: reserved}
//	  - {name: CWR, bits: 1, label: vertical}
//	  - {name: ECE, bits: 1, label: vertical}
//	  - {name: Window, bits: 22}
//	  - {name: Data, bits: 32, variable: true}
//
// Unknown keys, bad lengths and overlapping or out-of-order fields are errors that carry the
// file name, line and field; so is every YAML syntax error. The input is untrusted: a spec has
// at most 100,000 fields within 64 MiB, and at most 2,000,000 YAML nodes (about 20 a field:
// counted on the text before it is parsed, so a hostile spec is refused before it costs memory;
// aliases count as nodes), the drawing's rows follow its fields (a stretch no field covers is
// one "… N bytes …" row, and a field is elided past 1024 rows), and labels are cleaned by
// bytegrid when drawn.
package gridyaml

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/kafkagrid/kafkagrid/internal/yamlerr"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/style"
)

// Spec is a parsed protocol description: bytegrid.Spec, which every reader of a spec returns.
type Spec = bytegrid.Spec

// Error is a problem in a spec, with its position (file, line, field): bytegrid.SpecError,
// which every reader of a spec returns, its Reader "gridyaml".
type Error = bytegrid.SpecError

// maxFields and maxBytes bound what a spec may describe.
const (
	maxFields = 100000
	maxBytes  = 1 << 24
)

// maxNodes bounds the YAML nodes a spec may have (about 20 a field), so that yaml.v3, which
// builds the whole tree before a field can be counted, never builds a hostile one.
const maxNodes = 20*maxFields + 10000

// checkNodes counts, in one pass over the text and without allocating, an upper bound of the
// YAML nodes src holds: two for each "key: value" pair, one for each sequence entry ("- "),
// flow collection ("[", "{"), flow item (","), alias ("*") and document; quoted text and
// comments are skipped. It reports the line where the count passes limit: a 64 MiB spec of
// tiny fields, or millions of aliases, are refused before yaml.v3 builds gigabytes of nodes
// for them (testing.AllocsPerRun and the byte count in TestHostileSpecs).
func checkNodes(file string, src []byte, limit int) error {
	n, line := 1, 1
	lineStart := true // only spaces so far on this line
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch c {
		case '\n':
			line++
			lineStart = true
			continue
		case ' ', '\t', '\r':
			continue
		case '#':
			if i == 0 || src[i-1] == ' ' || src[i-1] == '\t' || src[i-1] == '\n' {
				i = skipComment(src, i)
				continue
			}
		case '"', '\'':
			if lineStart || i > 0 && strings.IndexByte(" \t[{,:-", src[i-1]) >= 0 {
				var lines int
				i, lines = skipQuoted(src, i)
				line += lines
				n++
			}
		case ':':
			if i+1 == len(src) || strings.IndexByte(" \n\t\r", src[i+1]) >= 0 {
				n += 2
			}
		case '-':
			if i+1 == len(src) || src[i+1] == ' ' || src[i+1] == '\n' {
				n++
			}
		case '[', '{', ',', '*', '&', '!':
			n++
		}
		lineStart = false
		if n > limit {
			return &Error{Reader: reader, File: file, Line: line, Err: fmt.Errorf("more than %d YAML nodes (a spec may have %d fields, about 20 nodes each)", limit, maxFields)}
		}
	}
	return nil
}

// skipComment is the index of the last byte of the comment at i, before its line's end.
func skipComment(src []byte, i int) int {
	for i < len(src) && src[i] != '\n' {
		i++
	}
	return i - 1
}

// skipQuoted is the index of the quote that closes the quoted text at i (or len(src)), and
// the lines the text ends.
func skipQuoted(src []byte, i int) (end, lines int) {
	q := src[i]
	for i++; i < len(src) && src[i] != q; i++ {
		switch {
		case src[i] == '\\' && q == '"':
			i++
		case src[i] == '\n':
			lines++
		}
	}
	return i, lines
}

// MaxSize bounds a spec's text: room for maxFields fields and maxBytes of data written as hex
// with spaces, and far beyond any protocol's header (the 100,000-field spec is 4 MB).
const MaxSize = 64 << 20

// reader starts every error's message.
const reader = "gridyaml"

type parser struct {
	file string
}

func (p *parser) errf(n *yaml.Node, field string, format string, a ...any) error {
	line := 0
	if n != nil {
		line = n.Line
	}
	return &Error{Reader: reader, File: p.file, Line: line, Field: field, Err: fmt.Errorf(format, a...)}
}

// Parse reads the spec in src; file names it in errors.
func Parse(file string, src []byte) (*Spec, error) {
	p := &parser{file: file}
	if len(src) > MaxSize {
		return nil, &Error{Reader: reader, File: file, Err: fmt.Errorf("%d bytes, more than a spec may have (%d)", len(src), MaxSize)}
	}
	if err := checkNodes(file, src, maxNodes); err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		line, msg := yamlerr.Locate(src, err)
		return nil, &Error{Reader: reader, File: file, Line: line, Err: errors.New(msg)}
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, p.errf(&doc, "", "empty document")
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, p.errf(root, "", "want a mapping at the top")
	}
	t := &top{s: &Spec{}}
	seen := map[string]bool{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if seen[k.Value] {
			return nil, p.errf(k, "", "duplicate key %q", k.Value)
		}
		seen[k.Value] = true
		if err := p.topKey(k, v, t); err != nil {
			return nil, err
		}
	}
	return p.fields(root, t)
}

// fields reads the spec's fields (t.fieldsNode), each placed after the one before it, with
// its bytes from the spec's data when it has some.
func (p *parser) fields(root *yaml.Node, t *top) (*Spec, error) {
	s, data, haveData, fieldsNode := t.s, t.data, t.haveData, t.fieldsNode
	if s.Name == "" {
		return nil, p.errf(root, "", "missing name")
	}
	s.Options.GroupColors = t.groups
	if haveData {
		s.Options.Data = data
	}
	if fieldsNode == nil {
		return s, nil
	}
	if len(fieldsNode.Content) > maxFields {
		return nil, p.errf(fieldsNode, "", "more than %d fields", maxFields)
	}
	end := 0
	sc := &scope{}
	for i, fn := range fieldsNode.Content {
		f, r, err := p.field(fn, i, end, sc, 0)
		if err != nil {
			return nil, err
		}
		sc.names = append(sc.names, f.Name)
		s.Rules = append(s.Rules, r)
		label := strconv.Quote(f.Name)
		if haveData {
			if f.Offset+f.Bits > 8*len(data) {
				return nil, p.errf(fn, label, "bits %d to %d lie beyond the data, which has %d bits", f.Offset, f.Offset+f.Bits, 8*len(data))
			}
			if f.Offset%8 == 0 && f.Bits%8 == 0 {
				f.Bytes = data[f.Offset/8 : (f.Offset+f.Bits)/8]
			}
		}
		s.Fields = append(s.Fields, f)
		end = f.Offset + f.Bits
	}
	if !slices.ContainsFunc(s.Rules, func(r Rule) bool { return !r.Zero() }) {
		s.Rules = nil // a spec for drawing only
	}
	if err := bytegrid.CheckFields(s.Fields); err != nil {
		var fe *bytegrid.FieldError
		if errors.As(err, &fe) {
			return nil, p.errf(fieldsNode.Content[fe.Index], strconv.Quote(fe.Name), "%v", fe.Err)
		}
		return nil, &Error{Reader: reader, File: p.file, Err: err}
	}
	return s, nil
}

func (p *parser) field(n *yaml.Node, idx, end int, sc *scope, depth int) (bytegrid.Field, Rule, error) {
	f, r, err := p.field1(n, idx, end, sc, depth)
	if err == nil {
		err = p.checkUntil(n, strconv.Quote(f.Name), &r, sc)
	}
	return f, r, err
}

func (p *parser) field1(n *yaml.Node, idx, end int, sc *scope, depth int) (bytegrid.Field, Rule, error) {
	fs := &fieldState{label: "#" + strconv.Itoa(idx+1), offset: -1, sc: sc, depth: depth}
	if n.Kind != yaml.MappingNode {
		return fs.f, fs.r, p.errf(n, fs.label, "want a mapping")
	}
	// The name first, so that every later error can name the field. An empty name, given
	// as name: "", is an unlabelled box (bit-field's gaps).
	hasName := false
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "name" {
			s, err := p.str(n.Content[i+1], fs.label)
			if err != nil {
				return fs.f, fs.r, err
			}
			fs.f.Name, hasName = s, true
			fs.label = strconv.Quote(s)
		}
	}
	if !hasName {
		return fs.f, fs.r, p.errf(n, fs.label, "missing name")
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if seen[k.Value] {
			return fs.f, fs.r, p.errf(k, fs.label, "duplicate key %q", k.Value)
		}
		seen[k.Value] = true
		if err := p.fieldKey(k, v, fs); err != nil {
			return fs.f, fs.r, err
		}
	}
	err := p.place(n, end, fs)
	return fs.f, fs.r, err
}

// place checks a field's length and puts it at its offset, given or after the field before
// it (which ends at end).
func (p *parser) place(n *yaml.Node, end int, fs *fieldState) error {
	f, label := &fs.f, fs.label
	switch {
	case fs.bitsNode != nil && fs.bytesNode != nil:
		return p.errf(fs.bytesNode, label, "both bits and bytes given")
	case fs.bitsNode == nil && fs.bytesNode == nil:
		return p.errf(n, label, "missing length (bits or bytes)")
	case fs.bitsNode != nil && (f.Bits <= 0 || f.Bits > 8*maxBytes):
		return p.errf(fs.bitsNode, label, "bits %d: want 1 to %d", f.Bits, 8*maxBytes)
	}
	offset := fs.offset
	if offset < 0 {
		offset = end
	}
	if offset < end {
		return p.errf(n, label, "offset %d overlaps the previous field, which ends at bit %d", offset, end)
	}
	if offset > 8*maxBytes {
		return p.errf(n, label, "offset %d beyond %d bits", offset, 8*maxBytes)
	}
	f.Offset = offset
	if f.Path == "" {
		f.Path = f.Name
	}
	return nil
}

// text reads the text: mapping into t.
func (p *parser) text(n *yaml.Node, t *bytegrid.TextOptions) error {
	if n.Kind != yaml.MappingNode {
		return p.errf(n, "", "text: want a mapping (%s)", textKeyList)
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if seen[k.Value] {
			return p.errf(k, "", "text: duplicate key %q", k.Value)
		}
		seen[k.Value] = true
		if err := p.textKey(k, v, t); err != nil {
			return err
		}
	}
	return nil
}

func (p *parser) str(n *yaml.Node, field string) (string, error) {
	if n.Kind != yaml.ScalarNode {
		return "", p.errf(n, field, "want a string")
	}
	return n.Value, nil
}

func (p *parser) integer(n *yaml.Node, field string) (int, error) {
	if n.Kind != yaml.ScalarNode {
		return 0, p.errf(n, field, "want an integer")
	}
	v, err := strconv.ParseInt(n.Value, 0, 32)
	if err != nil {
		return 0, p.errf(n, field, "want an integer, got %q", n.Value)
	}
	return int(v), nil
}

func (p *parser) boolean(n *yaml.Node, field string) (bool, error) {
	var b bool
	if n.Kind != yaml.ScalarNode || n.Decode(&b) != nil {
		return false, p.errf(n, field, "want true or false")
	}
	return b, nil
}

func (p *parser) groups(n *yaml.Node) (map[string]int, error) {
	if n.Kind != yaml.MappingNode {
		return nil, p.errf(n, "", "groups: want a mapping of group name to colour index")
	}
	m := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		c, err := p.integer(n.Content[i+1], "")
		if err != nil {
			return nil, err
		}
		if c < 0 || c >= style.NumGroups {
			return nil, p.errf(n.Content[i+1], "", "group %q: colour %d: want 0 to %d", n.Content[i].Value, c, style.NumGroups-1)
		}
		m[n.Content[i].Value] = c
	}
	if len(m) == 0 {
		return nil, nil // "groups: {}" says what no groups key says
	}
	return m, nil
}
