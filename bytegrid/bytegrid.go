// Package bytegrid lays out a sequence of fields as the header figures of the RFCs draw them
// (RFC 791 section 3.1, RFC 793 section 3.1), and paints that layout on a canvas.Canvas (SVG,
// PDF) or as plain-text RFC art.
//
// It knows nothing of Kafka. A Field has a bit offset and a bit length, a name, an optional
// value text, a group (which gives its colour), a Kind (data or one of the framing pieces), and
// optionally its raw bytes, a description, a path and a wire type. Kafka frames reach it through
// package site/kafkaview; other protocols through a YAML description (package
// bytegrid/gridyaml).
//
// # Layout
//
// Layout checks the fields (in order, not overlapping, not empty) and returns a Diagram: plain
// JSON-tagged geometry in points (canvas.Pt), with the origin at the top-left and y growing
// downward. Rows hold Options.RowBits bits (32 by default, as in the RFCs; any width from 1 to
// 128, RFC 7540's 24 among them).
// A bit ruler in the RFC manner runs along the top, the byte offset of each row at the left. A
// field that spans rows is one shape continuing across them, starting and ending mid-row where it
// does; a field longer than Options.ElideRows rows is drawn as its first row, one row
// "… N bytes …" and its last row; a field wrapped from the end of one row to the start of the
// next is two pieces open at their facing ends, each labelled. A piece that reads as a cell of
// its own (the other piece of such a split field, the partial first or last row of a field
// spanning three or more rows) carries the field's name, muted, with a continuation mark:
// "Name ›" towards the next row, "‹ Name" from the row before. The hex of each byte is shown
// small in its byte's cell; a byte split among fields not on byte boundaries (given
// Options.Data, or the fields' own Bytes) shows it once, in a cell spanning the byte under
// those fields. A framing field that opens or closes its group (Field.Bracket: an array's
// count, a struct's closing section) has a bracket inside its box, "[" at the left edge or "]"
// at the right, in the muted ink: the band's colour (and the caller's label) say which group,
// the bracket whether the field opens or closes it, in greyscale too. Groups are told apart
// without colour as well: in a diagram of two groups or more, each run of a group's boxes in a
// row carries the group's letter (style.GroupMark, the one rule, followed by Field.Item: "C[3]"
// for an array's fourth element) in a bottom-left corner, and each legend swatch its letter, so
// a greyscale print or a reader who cannot tell two fills apart still reads the group. Names
// and values are fitted to their box: shrunk to a floor, then (given Field.Short) the short
// name on one line, then wrapped to two lines between words, then replaced by a numbered mark
// explained in a legend under the grid. Text is measured with the Go Mono
// metrics of internal/mono, identical in every painter.
//
// # Protocol figures
//
// What a published figure says is said by a Field and the Options, whichever format the fields
// came from (YAML, RFC art, notation, bit-field JSON): a variable field (Field.Variable, with
// MinBits, MaxBits and LengthFrom) is drawn at its given length with its open end marked, a
// slanted break in SVG and, in text, ':' side edges, an open end with "..." or an open bottom
// (TextOptions.Open); an optional field (Field.Optional, with its Condition) has a dashed
// border and its condition under its name; Field.Label stacks a name a word a line or writes
// it letter by letter, the row growing to hold it, or sends it to the numbered legend;
// Field.DoubleRule and Field.Caption draw "+=+=+" above a field and a heading between stacked
// headers; Field.RowBreak starts a field on a new row (RFC 7540's short rows), its offset
// kept. Options.Ruler chooses the ruler (RFC 791's tens, RFC 1035's, units, RFC 768's bytes,
// none) and Options.LSB0 numbers bits from the right. The text form follows TextOptions: the
// margin, the lines of a row and where a label sits in them, the width of a bit, the "+" marks
// at every bit or only at fields' ends. A diagram using none of these is drawn as before; one
// that uses any is written as text in the figure manner, in which a field spanning whole rows
// is one block named on its middle line with "+" at its side edges on every inner row boundary
// (RFC 8200's addresses), and a split field's other piece reads "Name (continued)". The specs
// of examples/protocols/figures draw ten published figures line for line.
//
// # Painting
//
// A Diagram is a canvas.Drawing, the one thing output code takes: svgcanvas.Write writes it (or
// a run of its rows) as an SVG document, pdfcanvas.Write as PDF pages and pdfcanvas.Place into
// a page of one's own, and canvas.Paginate, the one page-breaking rule, chooses where a tall
// grid continues (never mid-field where a cut between fields exists: BreakBefore). Paint draws
// the whole diagram on any canvas.Canvas; PaintRows draws a range of rows under a repeated
// ruler. Both paint a paper-coloured background first, so a grid keeps its colour scheme on any
// page. Painting reads only the Diagram's exported fields, so a Diagram decoded from its JSON
// paints the same. WriteText writes RFC-style ASCII art. Importing bytegrid pulls in neither
// svgo nor fpdf: only the backends import them.
//
// # Trust and concurrency
//
// Labels may hold anything: they are cleaned with mono.Clean before they are measured, and the
// painters escape what they write. A Diagram is immutable once returned and may be painted from
// several goroutines at once.
//
// # Performance
//
// Layout makes a few allocations per diagram, not per field: the segments and runs of all boxes
// share a few arrays, and the texts it makes (tooltips, offset labels) are carved from one text
// arena (internal/arena); hex digits come from a constant table. The slices of a Box are capped
// at their length, so appending to one copies it rather than overwriting its neighbour.
// Painting makes the data attributes and border polylines as it goes, from the exported
// geometry: a layout is under 3% of a whole build, so it keeps no caches for painting.
// BenchmarkIPv4 measures layout plus SVG for RFC 791's header; the benchmarks on real Kafka 4.0
// frames (BenchmarkGridProduceRequest, …) live beside the bridge, in package site/kafkaview.
package bytegrid

import (
	"errors"
	"fmt"

	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/style"
)

// Kind says what a field is on the wire: data, or a framing piece. It is style.Kind.
type Kind = style.Kind

// The kinds of field.
const (
	Plain   = style.Plain   // data
	Size    = style.Size    // a frame's size prefix
	Length  = style.Length  // a length or count prefix
	Tags    = style.Tags    // a tagged-field section's count
	Tag     = style.Tag     // a tagged field's tag or size
	Varint  = style.Varint  // a variable-length integer that is data
	Padding = style.Padding // padding or reserved bits
	Header  = style.Header  // a fixed header field

	// Protocol words for the same kinds, for documenters of protocols other than Kafka: Data
	// is any value the protocol carries (a Payload Length, a checksum, a flag: drawn in its
	// group's colour, as it should read), Reserved is reserved or unused bits (as Padding).
	// Size, Length, Tags and Tag are Kafka's framing vocabulary, drawn near-white and muted.
	Data     = style.Plain
	Reserved = style.Padding
)

// Field is one field of a frame.
type Field struct {
	Offset int    `json:"offset"`          // bit offset from the start of the frame
	Bits   int    `json:"bits"`            // bit length, > 0
	Name   string `json:"name"`            // label drawn in the box
	Value  string `json:"value,omitempty"` // value text drawn under the name
	Group  string `json:"group,omitempty"` // struct or array element the field belongs to
	Kind   Kind   `json:"kind"`
	// Item names which item of its group the field belongs to, when a group repeats (an
	// array's elements sharing the array's colour: "[3]"). The group's letter in the corner
	// of a box (style.GroupMark) is followed by it ("C[3]"), and a new item starts a new
	// run of the group, marked again.
	Item string `json:"item,omitempty"`
	// Short is a shorter name drawn when Name does not fit its box on one line ("tags" for
	// "Partitions[0] tags"), before Name is wrapped or replaced by a note; the tooltip and
	// the notes keep Name.
	Short string `json:"short,omitempty"`
	// Bytes are the field's raw bytes, shown as hex: a byte-aligned field's own bytes, one hex
	// pair under each byte; for a field not on byte boundaries, the whole bytes it touches
	// (Offset/8 to (Offset+Bits-1)/8), each shown once in a cell spanning the byte under the
	// fields that share it, as Options.Data would.
	Bytes []byte `json:"bytes,omitempty"`
	Desc  string `json:"desc,omitempty"` // description, for the tooltip
	Path  string `json:"path,omitempty"` // data-path, e.g. "Topics[0].Name"
	Type  string `json:"type,omitempty"` // wire type, e.g. "int32"
	// Bracket marks a framing field that opens or closes its group (an array's count, a
	// struct's closing tag section) with a bracket drawn inside its box: a shape, not a colour,
	// so it reads in greyscale too.
	Bracket Bracket `json:"bracket,omitempty"`

	// Variable marks a field of no fixed length (TCP's Options and Data, a payload, QUIC's
	// connection ids): Bits is the length drawn, its usual or example size, and the drawing
	// marks the open end as RFC figures do. MinBits and MaxBits, when not zero, are the range
	// the protocol allows (QUIC's Destination Connection ID (0..160): 0 and 160); LengthFrom
	// names the field that gives its length, if one does.
	Variable   bool   `json:"variable,omitempty"`
	MinBits    int    `json:"min_bits,omitempty"`
	MaxBits    int    `json:"max_bits,omitempty"`
	LengthFrom string `json:"length_from,omitempty"`
	// Optional marks a field present only sometimes (GRE's Checksum, WebSocket's masking
	// key), drawn with dashed borders; Condition says when, as the figure's caption does
	// ("if payload len == 126").
	Optional  bool   `json:"optional,omitempty"`
	Condition string `json:"condition,omitempty"`
	// Label says how the name is fitted in its box (LabelAuto unless set).
	Label LabelMode `json:"label,omitempty"`
	// Repeated marks a field (or, on each of its fields, a group) that repeats zero or more
	// times, RFC 9000's "x (L) ...": one instance is drawn, of Bits bits.
	Repeated bool `json:"repeated,omitempty"`
	// DoubleRule draws a double rule above the field, as RFC 7540 draws "+=+=+" between a
	// frame's header and its payload.
	DoubleRule bool `json:"double_rule,omitempty"`
	// Caption is a heading drawn above the field's row, between stacked headers (VXLAN's
	// "Outer Ethernet Header:", "Outer IPv4 Header:" …); the field starts a row.
	Caption string `json:"caption,omitempty"`
	// RowBreak starts the field on a new row, the rest of the row before left empty, as RFC
	// 7540 draws its frame header in rows of 24, 16 and 32 bits. Only the drawing moves: the
	// field's offset, in the data attributes, tooltip and row offsets, stays its own.
	RowBreak bool `json:"row_break,omitempty"`
	// Lines is the least number of lines the text form gives the rows the field fills wholly,
	// or, filling none, the row it starts in (0 or 1: the figure's usual), as a figure draws
	// one row taller than the rest (RFC 5389's Transaction ID, three lines in rows of one).
	Lines int `json:"lines,omitempty"`
	// LabelLine and LabelCol place the label in the text form where a figure printed it off
	// the middle of its box (RFC 4271's Marker, on the fifth of the seven lines of its block;
	// RFC 5389's Type, further left than centred): LabelLine is the line of the box holding
	// the label's first line (of its block, the rules between its rows counted, for a field
	// spanning whole rows), LabelCol the column where each line of the label starts, the box's
	// left edge being column 0. Both count from 1; 0, or a place the label does not fit,
	// keeps the writer's (centred; TextOptions.Align).
	LabelLine int `json:"label_line,omitempty"`
	LabelCol  int `json:"label_col,omitempty"`
	// LabelCols, when set, is the column where each line of a stacked label starts, as
	// LabelCol counts, for a label whose lines the figure printed at columns of their own
	// (RFC 9147's "Connection ID" over "(if any," flush left, RFC 4443's first line further
	// right than the two under it); a line past its end, or one that does not fit, is centred.
	LabelCols []int `json:"label_cols,omitempty"`
	// RunOn says that the field ends its row and the next field, starting the next row,
	// carries on its value: the text form draws the edge between them '.', at the end of
	// this row and the start of the next (RFC 4340's Sequence Number, high and low bits).
	RunOn bool `json:"run_on,omitempty"`
	// Joined says that the field shares one box with the field before it in its row: the
	// text form draws no edge between them, their names standing spaced in the box (RFC
	// 6733's "|R P E T r r r r|", one letter a bit, read as one-bit flags).
	Joined bool `json:"joined,omitempty"`
	// Packed draws the field's whole rows one line each with no rule between them, one box
	// (RFC 5389's "Transaction ID (96 bits)", three rows in a box three lines high).
	Packed bool `json:"packed,omitempty"`
	// Marks, when set, are the side edges of the field's row as printed, two characters a
	// line (left, right), for a field filling one row whose marks no one pattern draws
	// (Text.Edge): RFC 9147's Connection ID has '/' on one of its four lines only. The
	// characters are those of Text.Edge, or a space.
	Marks string `json:"marks,omitempty"`
	// Pieces, when set, are the field's boxes as the text form prints them, one a row it
	// covers, in order: each box's lines from its row's first, its side edges included, for
	// a figure whose pieces carry labels of their own (RFC 6455: "Masking-key, if MASK set
	// to 1", then "|Masking-key (continued)       |", then ":  Payload Data continued ...
	// :"). A piece whose width is not the box's is drawn as usual.
	Pieces []string `json:"pieces,omitempty"`
	// Crossings, with Pieces, are the rule lines the field crosses between two of its pieces,
	// Crossings[k-1] the one above piece k, as printed over the bits the field covers both
	// above and below it, from the left boundary of the first to the right one of the last
	// ("" or one of another width: drawn as usual): RFC 4034's RRSIG prints "Signer's Name"
	// on the rule it crosses beside Key Tag's, "+         Signer's Name         /".
	Crossings []string `json:"crossings,omitempty"`
}

// LabelMode says how a field's name is fitted in its box.
type LabelMode string

// The label modes.
const (
	// LabelAuto: on one line if it fits, else shrunk to a floor, else stacked on lines, else
	// a numbered note with the text in the legend.
	LabelAuto LabelMode = ""
	// LabelStacked: a word a line, as RFC 9293 writes "Data" over "Offset"; a name holding
	// line breaks is stacked at them instead ("opcode\n(4)").
	LabelStacked LabelMode = "stacked"
	// LabelVertical: a letter a line, as RFC 9293 writes its 1-bit flags (C W R E …).
	LabelVertical LabelMode = "vertical"
	// LabelNote: a numbered note mark, the name in the legend.
	LabelNote LabelMode = "note"
)

// Bracket says whether a field opens or closes a group, drawn as a bracket in its box: "[" at
// its left edge for Opens (the group's fields follow), "]" at its right edge for Closes (they
// come before).
type Bracket string

// The brackets.
const (
	NoBracket Bracket = ""
	Opens     Bracket = "opens"
	Closes    Bracket = "closes"
)

// Options configure a layout. The zero value means the defaults.
type Options struct {
	// RowBits is the row width in bits: 32 by default, any width from 1 to 128 (8, 16, 32
	// and 64 are the usual; RFC 7540 draws rows of 24).
	RowBits int
	// BitWidth is the width of one bit in points, 10 to 40; 0 means the row width's default
	// (40, 26, 16 and 10 pt for 8, 16, 32 and 64 bits). A 16-bit row of 16 pt bits draws each
	// byte as wide as a 32-bit row does, in half the width: the grid for a narrow screen.
	BitWidth canvas.Pt
	// DecimalOffsets writes row offsets in decimal instead of hex.
	DecimalOffsets bool
	// ElideRows is the number of rows a field may span before it is elided to its first row,
	// a "… N bytes …" row and its last row. 0 means 4; a negative value never elides.
	ElideRows int
	// NoHex turns off the hex of each byte.
	NoHex bool
	// Data is the frame's bytes, optional. The bytes of byte-aligned fields come with the
	// fields (Field.Bytes); a byte that fields not on byte boundaries cover (IPv4's Version and
	// IHL, its Flags and Fragment Offset) has its hex shown once, in a cell spanning the byte
	// at the bottom of its row, when Data holds it or one of those fields carries it in its
	// Bytes (and NoHex is false).
	Data []byte
	// TurnNames writes the name of a field within one row whose box is narrower than the
	// name's longest word (a bit field of a 16-bit row) turned a quarter, reading upward,
	// with its value beside it (or after it, "name = value", in a box one line wide), the row
	// growing to hold it, instead of a numbered note in the legend.
	TurnNames bool
	// GroupColors maps group names to palette indexes (style.Group); groups not listed get the
	// next free index in order of first appearance.
	GroupColors map[string]int
	// Ruler is the bit ruler over the grid (RulerTens unless set).
	Ruler Ruler
	// LSB0 numbers the ruler's bits from the right, N-1 … 0, as MQTT's tables and register
	// maps do; fields are still given in the order they are sent, left to right.
	LSB0 bool
	// Text shapes the plain-text form (WriteText) as a figure's author did.
	Text TextOptions
}

// Ruler is the style of the bit ruler, as published figures draw it.
type Ruler string

// The rulers.
const (
	// RulerTens: the bits' units, with their tens over every tenth bit (RFC 791, RFC 9293).
	RulerTens Ruler = ""
	// RulerTensAll: the units, with the tens digit over every bit from 10 on (RFC 1035).
	RulerTensAll Ruler = "tens-all"
	// RulerUnits: the units alone, one line.
	RulerUnits Ruler = "units"
	// RulerBytes: the first and last bit of each byte, "0      7 8     15", over byte-wide
	// cells ("+--------+", RFC 768): in the text form each byte takes nine characters and only
	// byte boundaries are marked.
	RulerBytes Ruler = "bytes"
	// RulerNumbers: each bit's whole number on one line, its last digit where the units
	// digit stands (RFC 3168's "8   9  10  11" over bits four columns wide).
	RulerNumbers Ruler = "numbers"
	// RulerNone: no ruler (RFC 8200, RFC 7540).
	RulerNone Ruler = "none"
)

// TextOptions shape the plain-text figure. The zero value is the classic form.
type TextOptions struct {
	// Margin is the number of spaces before every line (RFC figures are indented).
	Margin int `json:"margin,omitempty"`
	// RowLines is the least number of lines a row takes (1 unless set); a row also grows to
	// hold its stacked and vertical labels, and a variable field drawn with ':' edges takes
	// three.
	RowLines int `json:"rowLines,omitempty"`
	// Align places a label in a row of more lines than it needs: "middle" (default, the upper
	// of two middles), "top" or "bottom" (RFC 768).
	Align string `json:"align,omitempty"`
	// Ticks says where the rules between rows carry a "+": "bits" (default, every bit, as in
	// RFC 791) or "fields" (only where a field begins or ends, as in RFC 7540 and RFC 6455).
	Ticks string `json:"ticks,omitempty"`
	// RuleTicks, when set, says how each rule is marked, from the one above the first row:
	// 'b' a "+" at every bit, 'y' at every byte and where fields begin and end, 'f' only
	// where fields begin and end; rules past its end follow Ticks. RFC 2453 marks its rules
	// each its own way ("+-+-+", "+-------+---", "+-------+-------+").
	RuleTicks string `json:"ruleTicks,omitempty"`
	// BitChars is the width of a bit in characters, its edge included: 2 by default (3 in
	// rows of 16 bits or fewer, as RFC 1035 draws them), up to 8 (RFC 791 draws its Type of
	// Service byte 6 a bit). The ruler's digits stand over the middle of each bit.
	BitChars int `json:"bitChars,omitempty"`
	// Open says how a variable field's open end is drawn: "colons" (default: ':' side edges,
	// as RFC 9293 draws Data) or "dots" (no right edge, "..." after the name and "+---- ..."
	// under it, as RFC 768 draws its data octets) or "bottom" (no rule under it: the figure
	// ends open, as RFC 4443 draws an ICMPv6 Message Body) or "edge" ("..." in place of its
	// right edge, as RFC 7540 draws its Frame Payload) or "rules" (no right edge, and the
	// rules above and below it run on past the row's end with "-...", as RFC 4271 draws its
	// Optional Parameters) or "open" (no right edge, the label and the rules as the rest of
	// the grid draws them, as RFC 2661 draws its "Offset pad... (opt)").
	Open string `json:"open,omitempty"`
	// Edge, when set, draws the side edges of a variable field in the rows it fills with
	// marks other than ':': three characters, for the first line of such a row, its middle
	// lines and its last line (a row of one line takes the middle one). RFC 8926 draws
	// "|~|", RFC 1035 "|//", RFC 5905 "..." or "|.|", RFC 4960 "\/\". The characters are
	// '|', '~', '/', '.', '\' or ':'.
	Edge string `json:"edge,omitempty"`
	// Bytes draws boxes nine columns a byte with rules marked only at byte boundaries, as
	// under RFC 768's byte ruler, with another ruler or none (RFC 791's options:
	// "+--------+--------+").
	Bytes bool `json:"bytes,omitempty"`
	// ByteChars, with Bytes, is the width of a byte in characters, its edge included: 9 by
	// default, 3 to 16 (RFC 1952 draws "+---+---+", a byte a box of 4).
	ByteChars int `json:"byteChars,omitempty"`
	// RulerBits numbers only the first RulerBits bits of the ruler (0: all of them), as RFC
	// 4271 numbers 16 bits over a row whose last field runs on.
	RulerBits int `json:"rulerBits,omitempty"`
	// Cross is the mark where a field's side edge crosses a rule it continues across, no
	// rule meeting it: "+" (default, RFC 8200's addresses) or "|" (RFC 1035's WKS BIT MAP);
	// two marks, the first for the left and inner edges and the second for the grid's right
	// edge ("+|", RFC 4302's ICV).
	Cross string `json:"cross,omitempty"`
	// Dots is what follows the label of a variable field drawn open at its end (Open "dots"):
	// " ..." by default; RFC 5389 prints "...." further right, the spaces before it kept.
	Dots string `json:"dots,omitempty"`
	// OpenRule says how the rule under a field drawn open at its end (Open "dots") is drawn:
	// 0, dashes half the box and then " ..." (RFC 768); more, the rule as the rest of the
	// grid draws it, for that many columns past the box's left corner, and no more (RFC 792's
	// "+-+-+-+-+-"); -1, none (RFC 5389's figure ends with it).
	OpenRule int `json:"openRule,omitempty"`
	// RulerShift moves the ruler's digits that many columns right (negative: left) of where
	// they stand by default, over the middle of each bit: -1 puts them over the '+' before
	// each bit of two columns, as RFC 4271, RFC 2131 and RFC 3032 print them.
	RulerShift int `json:"rulerShift,omitempty"`
	// LeftNotes is the text printed in the left margin, beside the grid, on each line from
	// the grid's first rule on, the lines separated by "\n" (RFC 6830 brackets each header
	// of its encapsulation figure there: "OH", "UDP", "L I S P"). Each line's note is
	// shorter than Margin, so that a space stands between it and the grid.
	LeftNotes string `json:"leftNotes,omitempty"`
	// RightNotes is the text printed right of the grid, on each line from the grid's first
	// rule on, the lines separated by "\n", each from the column after the grid's right edge
	// (its spaces kept): notes and legends in the right margin (RFC 6733's "R(equest),
	// P(roxiable)", RFC 9147's "Legend:").
	RightNotes string `json:"rightNotes,omitempty"`
	// Above is text printed as it stands above the grid (and above its ruler), the lines
	// separated by "\n": a header naming the bytes of a row ("+0 (MSB)  +1 (LSB)", RFC 6891).
	Above string `json:"above,omitempty"`
	// UnderRuler is text printed as it stands between the ruler and the grid's first rule,
	// the lines separated by "\n": RFC 7348's blank line and "Outer Ethernet Header:" title
	// under the ruler its Figure 1 opens with.
	UnderRuler string `json:"underRuler,omitempty"`
	// Inside, "dashed", draws the rules inside a field drawn in pieces (between two of its
	// rows) dashed, "+ - - - +", and every rule between two fields solid, optional or not:
	// the convention of RFC 6455's base framing figure. "" draws no rule inside a field.
	Inside string `json:"inside,omitempty"`
	// Below is text printed as it stands under the grid, the lines separated by "\n": a
	// ruler under the box, a legend, the figure's caption ("Figure 3: …").
	Below string `json:"below,omitempty"`
	// DoubleEnd draws the rule under the grid's last row double ("+=+=+"), as RFC 3550 closes
	// each chunk of its SDES packet.
	DoubleEnd bool `json:"doubleEnd,omitempty"`
	// RunTail, when set, is what the rules above and below a variable field ending the row
	// are drawn with from its left edge on, as printed past the grid's last mark: RFC 8200
	// runs its option's rules on with " - - - - -" beside "Option Data", RFC 8754 with
	// "------". Its characters are '-', '=', '.' and spaces.
	RunTail string `json:"runTail,omitempty"`
	// Table, when set, draws the text form as a table of counts as printed (RFC 1928's SOCKS
	// messages: a box a field, its size in a row of counts under the names) instead of bits:
	// "boxed", "inline" or "under" (where the counts stand), then a line a field, its box's
	// width and its count ("10 1 to 255"). See tabletext.go.
	Table string `json:"table,omitempty"`
	// RuleMarks are marks printed on the rules that no field's edge explains, kept as printed
	// (RFC 7540 prints a '+' one bit in under "Weight? (8)", where no field begins): items
	// "RULE:BIT:MARK" separated by spaces, each drawing MARK ('+', '-', '=', '|', or '_' for
	// a space) on the RULE-th line the rules are drawn on (from 0, the rule above the first
	// row; the lines where fields continue across a rule counted) at the boundary before bit
	// BIT, where its fields would draw another ("4:1:+").
	RuleMarks string `json:"ruleMarks,omitempty"`
	// ListMark, when set, is a line of dots drawn under the label of a repeated field, as RFC
	// 3550 prints its lists ("SDES items" over "...", the CSRC identifiers over "....").
	ListMark string `json:"listMark,omitempty"`
	// TensNoZero leaves the "0" out of the ruler's tens line, over the first ten bits, as
	// RFC 7296 and RFC 2408 print it ("                        1                   2").
	TensNoZero bool `json:"tensNoZero,omitempty"`
	// Elide, when set, is an elision mark ("//", "/ /" or "~~") that the rules carry at
	// column ElideAt of the grid (from its left edge, 0, as the grid is drawn without the
	// mark): it stands for no bits, so every line is drawn that many columns wider from
	// there on, the box spanning it wider by as much, and each rule drawn with dashes there
	// carries the mark (RFC 791's "+---------//--------+").
	Elide   string `json:"elide,omitempty"`
	ElideAt int    `json:"elideAt,omitempty"`
}

// FieldError reports a field that cannot be laid out.
type FieldError struct {
	Index int    // index of the field in the list
	Name  string // its name
	Err   error
}

func (e *FieldError) Error() string {
	return fmt.Sprintf("bytegrid: field %d (%q): %v", e.Index, e.Name, e.Err)
}

func (e *FieldError) Unwrap() error { return e.Err }

// CheckFields reports the first field that is empty, starts before the end of the previous field
// (out of order or overlapping), or has raw bytes that do not match its length. Layout calls it.
func CheckFields(fields []Field) error {
	end := 0
	for i, f := range fields {
		var err error
		switch {
		case f.Bits <= 0:
			err = fmt.Errorf("bit length %d: must be positive", f.Bits)
		case f.Offset < 0:
			err = fmt.Errorf("negative bit offset %d", f.Offset)
		case f.Offset < end:
			err = fmt.Errorf("bit offset %d overlaps the previous field, which ends at bit %d", f.Offset, end)
		case f.Offset > maxBits || f.Bits > maxBits-f.Offset:
			err = fmt.Errorf("field ends past bit %d", maxBits)
		case f.Variable && (f.MinBits < 0 || f.MaxBits < 0 || f.MaxBits > 0 && f.MinBits > f.MaxBits):
			err = fmt.Errorf("variable length %d..%d bits: want 0 <= min <= max", f.MinBits, f.MaxBits)
		case !f.Variable && (f.MinBits != 0 || f.MaxBits != 0 || f.LengthFrom != ""):
			err = errors.New("a length range or length field is for a variable field only")
		case !f.Optional && f.Condition != "":
			err = errors.New("a condition is for an optional field only")
		case f.Label != LabelAuto && f.Label != LabelStacked && f.Label != LabelVertical && f.Label != LabelNote:
			err = fmt.Errorf("label mode %q: want stacked, vertical or note", f.Label)
		case len(f.Bytes) > 0 && byteAligned(f) && len(f.Bytes) != f.Bits/8:
			err = fmt.Errorf("%d raw bytes for a field of %d bits at bit %d: want %d", len(f.Bytes), f.Bits, f.Offset, f.Bits/8)
		case len(f.Bytes) > 0 && !byteAligned(f) && len(f.Bytes) != touched(f):
			err = fmt.Errorf("%d raw bytes for a field of %d bits at bit %d: want the %d bytes it touches", len(f.Bytes), f.Bits, f.Offset, touched(f))
		}
		if err != nil {
			return &FieldError{Index: i, Name: f.Name, Err: err}
		}
		end = f.Offset + f.Bits
	}
	return nil
}

// touched returns the number of bytes f touches, whole or in part.
func touched(f Field) int { return (f.Offset+f.Bits-1)/8 - f.Offset/8 + 1 }

// maxBits bounds a frame's size (256 MiB), so offsets stay far from overflow.
const maxBits = 1 << 31
