package gridyaml

import (
	"encoding/hex"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/style"
)

// The keys of a spec are read by tables of rules, one small function a key: the spec's own
// keys (topKeys), a field's (fieldKeys, then the decode keys of rule.go) and the text art's
// (textKeys). A key is added here, in its table, and in the list its unknown-key error gives.

// top is what the spec's own keys give while they are read.
type top struct {
	s          *Spec
	data       []byte
	haveData   bool
	fieldsNode *yaml.Node
	groups     map[string]int
}

// topKeys are the rules of the spec's own keys.
var topKeys = [...]struct {
	key  string
	read func(p *parser, v *yaml.Node, t *top) error
}{
	{"name", func(p *parser, v *yaml.Node, t *top) (err error) { t.s.Name, err = p.str(v, ""); return err }},
	{"description", func(p *parser, v *yaml.Node, t *top) (err error) { t.s.Desc, err = p.str(v, ""); return err }},
	{"caption", func(p *parser, v *yaml.Node, t *top) (err error) { t.s.Caption, err = p.str(v, ""); return err }},
	{"row_bits", func(p *parser, v *yaml.Node, t *top) error {
		return p.intIn(v, "", &t.s.Options.RowBits, 1, bytegrid.MaxRowBits, "row_bits %d: want 1 to %d (8, 16, 32 or 64 are usual)", bytegrid.MaxRowBits)
	}},
	{"ruler", (*parser).topRuler},
	{"bit_order", func(p *parser, v *yaml.Node, t *top) error {
		o, err := p.str(v, "")
		if err == nil && o != "msb0" && o != "lsb0" {
			err = p.errf(v, "", "bit_order %q: want msb0 or lsb0", o)
		}
		t.s.Options.LSB0 = t.s.Options.LSB0 || err == nil && o == "lsb0"
		return err
	}},
	{"text", func(p *parser, v *yaml.Node, t *top) error { return p.text(v, &t.s.Options.Text) }},
	{"offsets", func(p *parser, v *yaml.Node, t *top) error {
		o, err := p.str(v, "")
		if err == nil && o != "decimal" && o != "hex" {
			err = p.errf(v, "", "offsets %q: want hex or decimal", o)
		}
		t.s.Options.DecimalOffsets = t.s.Options.DecimalOffsets || err == nil && o == "decimal"
		return err
	}},
	{"elide_rows", func(p *parser, v *yaml.Node, t *top) (err error) {
		t.s.Options.ElideRows, err = p.integer(v, "")
		if err == nil && t.s.Options.ElideRows == 0 {
			err = p.errf(v, "", "elide_rows 0: want a positive number of rows, or -1 for never")
		}
		return err
	}},
	{"hex", func(p *parser, v *yaml.Node, t *top) error {
		b, err := p.boolean(v, "")
		t.s.Options.NoHex = !b
		return err
	}},
	{"data", (*parser).topData},
	{"groups", func(p *parser, v *yaml.Node, t *top) (err error) { t.groups, err = p.groups(v); return err }},
	{"byte_order", func(p *parser, v *yaml.Node, t *top) error {
		o, err := p.str(v, "")
		if err == nil && o != "big" && o != "little" {
			err = p.errf(v, "", "byte_order %q: want big or little", o)
		}
		t.s.LittleEndian = t.s.LittleEndian || err == nil && o == "little"
		return err
	}},
	{"fields", func(p *parser, v *yaml.Node, t *top) (err error) {
		if v.Kind != yaml.SequenceNode {
			err = p.errf(v, "", "fields: want a list")
		}
		t.fieldsNode = v
		return err
	}},
}

// topKey reads one of the spec's own keys.
func (p *parser) topKey(k, v *yaml.Node, t *top) error {
	for _, r := range topKeys {
		if r.key == k.Value {
			return r.read(p, v, t)
		}
	}
	return p.errf(k, "", "unknown key %q (want name, description, caption, row_bits, ruler, bit_order, byte_order, text, offsets, elide_rows, hex, data, groups, fields)", k.Value)
}

func (p *parser) topRuler(v *yaml.Node, t *top) error {
	r, err := p.str(v, "")
	if err != nil {
		return err
	}
	switch bytegrid.Ruler(r) {
	case "tens":
		t.s.Options.Ruler = bytegrid.RulerTens
	case bytegrid.RulerTensAll, bytegrid.RulerUnits, bytegrid.RulerNumbers, bytegrid.RulerBytes, bytegrid.RulerNone:
		t.s.Options.Ruler = bytegrid.Ruler(r)
	default:
		return p.errf(v, "", "ruler %q: want tens, tens-all, units, numbers, bytes or none", r)
	}
	return nil
}

func (p *parser) topData(v *yaml.Node, t *top) error {
	h, err := p.str(v, "")
	if err != nil {
		return err
	}
	h = strings.Join(strings.Fields(h), "")
	t.haveData = true
	if len(h)/2 > maxBytes {
		return p.errf(v, "", "data longer than %d bytes", maxBytes)
	}
	if t.data, err = hex.DecodeString(h); err != nil {
		return p.errf(v, "", "data: %v", err)
	}
	return nil
}

// intIn reads an integer into dst, refused with the error format (given the value, then
// args) outside lo to hi.
func (p *parser) intIn(v *yaml.Node, label string, dst *int, lo, hi int, format string, args ...any) (err error) {
	if *dst, err = p.integer(v, label); err == nil && (*dst < lo || *dst > hi) {
		err = p.errf(v, label, format, append([]any{*dst}, args...)...)
	}
	return err
}

// fieldState is a field being read: the field, its decode rule, and what its keys gave.
type fieldState struct {
	f                   bytegrid.Field
	r                   Rule
	label               string // how errors name the field: its quoted name, else "#N"
	bitsNode, bytesNode *yaml.Node
	offset              int // -1: none given
	sc                  *scope
	depth               int
}

// fieldKeys are the rules of a field's drawing keys (its decode keys are ruleKey's).
var fieldKeys = [...]struct {
	key  string
	read func(p *parser, v *yaml.Node, fs *fieldState) error
}{
	{"name", func(*parser, *yaml.Node, *fieldState) error { return nil }}, // read first (field1)
	{"bits", func(p *parser, v *yaml.Node, fs *fieldState) (err error) {
		fs.bitsNode = v
		fs.f.Bits, err = p.integer(v, fs.label)
		return err
	}},
	{"bytes", func(p *parser, v *yaml.Node, fs *fieldState) error {
		fs.bytesNode = v
		var nb int
		err := p.intIn(v, fs.label, &nb, 1, maxBytes, "bytes %d: want 1 to %d", maxBytes)
		fs.f.Bits = 8 * nb
		return err
	}},
	{"offset", func(p *parser, v *yaml.Node, fs *fieldState) (err error) {
		if fs.offset, err = p.integer(v, fs.label); err == nil && fs.offset < 0 {
			err = p.errf(v, fs.label, "negative offset %d", fs.offset)
		}
		return err
	}},
	{"value", func(p *parser, v *yaml.Node, fs *fieldState) error { return p.strTo(v, fs.label, &fs.f.Value) }},
	{"group", func(p *parser, v *yaml.Node, fs *fieldState) error { return p.strTo(v, fs.label, &fs.f.Group) }},
	{"item", func(p *parser, v *yaml.Node, fs *fieldState) error { return p.strTo(v, fs.label, &fs.f.Item) }},
	{"short", func(p *parser, v *yaml.Node, fs *fieldState) error { return p.strTo(v, fs.label, &fs.f.Short) }},
	{"kind", (*parser).fieldKind},
	{"variable", func(p *parser, v *yaml.Node, fs *fieldState) error { return p.boolTo(v, fs.label, &fs.f.Variable) }},
	{"min_bits", func(p *parser, v *yaml.Node, fs *fieldState) error { return p.intTo(v, fs.label, &fs.f.MinBits) }},
	{"max_bits", func(p *parser, v *yaml.Node, fs *fieldState) error { return p.intTo(v, fs.label, &fs.f.MaxBits) }},
	{"length_from", func(p *parser, v *yaml.Node, fs *fieldState) error { return p.strTo(v, fs.label, &fs.f.LengthFrom) }},
	{"optional", func(p *parser, v *yaml.Node, fs *fieldState) error { return p.boolTo(v, fs.label, &fs.f.Optional) }},
	{"condition", func(p *parser, v *yaml.Node, fs *fieldState) error { return p.strTo(v, fs.label, &fs.f.Condition) }},
	{"label", (*parser).fieldLabel},
	{"double_rule", func(p *parser, v *yaml.Node, fs *fieldState) error { return p.boolTo(v, fs.label, &fs.f.DoubleRule) }},
	{"caption", func(p *parser, v *yaml.Node, fs *fieldState) error { return p.strTo(v, fs.label, &fs.f.Caption) }},
	{"row_break", func(p *parser, v *yaml.Node, fs *fieldState) error { return p.boolTo(v, fs.label, &fs.f.RowBreak) }},
	{"lines", func(p *parser, v *yaml.Node, fs *fieldState) error {
		return p.intIn(v, fs.label, &fs.f.Lines, 1, 16, "lines %d: want 1 to 16")
	}},
	{"label_line", func(p *parser, v *yaml.Node, fs *fieldState) error {
		return p.intIn(v, fs.label, &fs.f.LabelLine, 1, 1<<16, "label_line %d: want 1 or more")
	}},
	{"label_col", func(p *parser, v *yaml.Node, fs *fieldState) error {
		return p.intIn(v, fs.label, &fs.f.LabelCol, 1, 9*bytegrid.MaxRowBits, "label_col %d: want 1 to %d", 9*bytegrid.MaxRowBits)
	}},
	{"label_cols", func(p *parser, v *yaml.Node, fs *fieldState) error {
		if v.Kind != yaml.SequenceNode || len(v.Content) > 64 {
			return p.errf(v, fs.label, "label_cols: want a list of at most 64 columns")
		}
		fs.f.LabelCols = make([]int, len(v.Content))
		for i, c := range v.Content {
			if err := p.intIn(c, fs.label, &fs.f.LabelCols[i], 0, 9*bytegrid.MaxRowBits, "label_cols %d: want 0 to %d", 9*bytegrid.MaxRowBits); err != nil {
				return err
			}
		}
		return nil
	}},
	{"repeated", func(p *parser, v *yaml.Node, fs *fieldState) error { return p.boolTo(v, fs.label, &fs.f.Repeated) }},
	{"run_on", func(p *parser, v *yaml.Node, fs *fieldState) error { return p.boolTo(v, fs.label, &fs.f.RunOn) }},
	{"joined", func(p *parser, v *yaml.Node, fs *fieldState) error { return p.boolTo(v, fs.label, &fs.f.Joined) }},
	{"packed", func(p *parser, v *yaml.Node, fs *fieldState) error { return p.boolTo(v, fs.label, &fs.f.Packed) }},
	{"marks", func(p *parser, v *yaml.Node, fs *fieldState) error { return p.strTo(v, fs.label, &fs.f.Marks) }},
	{"pieces", func(p *parser, v *yaml.Node, fs *fieldState) error {
		if v.Kind != yaml.SequenceNode || len(v.Content) > 64 {
			return p.errf(v, fs.label, "pieces: want a list of at most 64 boxes as printed")
		}
		fs.f.Pieces = make([]string, len(v.Content))
		for i, c := range v.Content {
			if err := p.strTo(c, fs.label, &fs.f.Pieces[i]); err != nil {
				return err
			}
		}
		return nil
	}},
	{"crossings", func(p *parser, v *yaml.Node, fs *fieldState) error {
		if v.Kind != yaml.SequenceNode || len(v.Content) > 64 {
			return p.errf(v, fs.label, "crossings: want a list of at most 64 rule lines as printed")
		}
		fs.f.Crossings = make([]string, len(v.Content))
		for i, c := range v.Content {
			if err := p.strTo(c, fs.label, &fs.f.Crossings[i]); err != nil {
				return err
			}
		}
		return nil
	}},
	{"type", func(p *parser, v *yaml.Node, fs *fieldState) error { return p.strTo(v, fs.label, &fs.f.Type) }},
	{"path", func(p *parser, v *yaml.Node, fs *fieldState) error { return p.strTo(v, fs.label, &fs.f.Path) }},
	{"desc", func(p *parser, v *yaml.Node, fs *fieldState) error { return p.strTo(v, fs.label, &fs.f.Desc) }},
}

// fieldKey reads one key of a field: a drawing key, else a decode key (ruleKey).
func (p *parser) fieldKey(k, v *yaml.Node, fs *fieldState) error {
	for _, r := range fieldKeys {
		if r.key == k.Value {
			return r.read(p, v, fs)
		}
	}
	if ok, err := p.ruleKey(k, v, fs.label, &fs.r, fs.sc, fs.depth); ok {
		return err
	}
	return p.errf(k, fs.label, "unknown key %q (want name, bits, bytes, offset, value, group, item, short, kind, type, path, desc, variable, min_bits, max_bits, length_from, optional, condition, label, double_rule, caption, row_break, lines, label_line, label_col, label_cols, repeated, run_on, joined, packed, marks, pieces, crossings; to decode bytes: endian, show, enum, flags, length, when, count, until, items)", k.Value)
}

func (p *parser) fieldKind(v *yaml.Node, fs *fieldState) error {
	s, err := p.str(v, fs.label)
	if err != nil {
		return err
	}
	switch s {
	case "data":
		fs.f.Kind = bytegrid.Data
	case "reserved":
		fs.f.Kind = bytegrid.Reserved
	default:
		if fs.f.Kind, err = style.ParseKind(s); err != nil {
			return p.errf(v, fs.label, "%v (or data, reserved)", err)
		}
	}
	return nil
}

func (p *parser) fieldLabel(v *yaml.Node, fs *fieldState) error {
	s, err := p.str(v, fs.label)
	if err != nil {
		return err
	}
	switch bytegrid.LabelMode(s) {
	case "auto":
		fs.f.Label = bytegrid.LabelAuto
	case bytegrid.LabelStacked, bytegrid.LabelVertical, bytegrid.LabelNote:
		fs.f.Label = bytegrid.LabelMode(s)
	default:
		return p.errf(v, fs.label, "label %q: want auto, stacked, vertical or note", s)
	}
	return nil
}

func (p *parser) strTo(v *yaml.Node, label string, dst *string) (err error) {
	*dst, err = p.str(v, label)
	return err
}

func (p *parser) boolTo(v *yaml.Node, label string, dst *bool) (err error) {
	*dst, err = p.boolean(v, label)
	return err
}

func (p *parser) intTo(v *yaml.Node, label string, dst *int) (err error) {
	*dst, err = p.integer(v, label)
	return err
}

// textKeys are the rules of the text art's keys (text:).
var textKeys = [...]struct {
	key  string
	read func(p *parser, k, v *yaml.Node, t *bytegrid.TextOptions) error
}{
	{"margin", func(p *parser, _, v *yaml.Node, t *bytegrid.TextOptions) error {
		return p.intIn(v, "", &t.Margin, 0, 80, "text: margin %d: want 0 to 80")
	}},
	{"row_lines", func(p *parser, _, v *yaml.Node, t *bytegrid.TextOptions) error {
		return p.intIn(v, "", &t.RowLines, 1, 16, "text: row_lines %d: want 1 to 16")
	}},
	{"align", func(p *parser, k, v *yaml.Node, t *bytegrid.TextOptions) error {
		return p.oneOf(k, v, &t.Align, "middle", "top", "bottom")
	}},
	{"ticks", func(p *parser, k, v *yaml.Node, t *bytegrid.TextOptions) error {
		return p.oneOf(k, v, &t.Ticks, "bits", "fields")
	}},
	{"open", func(p *parser, k, v *yaml.Node, t *bytegrid.TextOptions) error {
		return p.oneOf(k, v, &t.Open, "colons", "dots", "bottom", "edge", "rules", "open")
	}},
	{"bytes", func(p *parser, _, v *yaml.Node, t *bytegrid.TextOptions) error { return p.boolTo(v, "", &t.Bytes) }},
	{"run_tail", func(p *parser, _, v *yaml.Node, t *bytegrid.TextOptions) (err error) {
		if t.RunTail, err = p.str(v, ""); err == nil && (len(t.RunTail) > 9*bytegrid.MaxRowBits || strings.Trim(t.RunTail, "-=. ") != "") {
			err = p.errf(v, "", "text: run_tail %q: want '-', '=', '.' and spaces", t.RunTail)
		}
		return err
	}},
	{"byte_chars", func(p *parser, _, v *yaml.Node, t *bytegrid.TextOptions) error {
		return p.intIn(v, "", &t.ByteChars, 3, 16, "text: byte_chars %d: want 3 to 16")
	}},
	{"ruler_bits", func(p *parser, _, v *yaml.Node, t *bytegrid.TextOptions) error {
		return p.intIn(v, "", &t.RulerBits, 1, bytegrid.MaxRowBits, "text: ruler_bits %d: want 1 to %d", bytegrid.MaxRowBits)
	}},
	{"cross", func(p *parser, k, v *yaml.Node, t *bytegrid.TextOptions) error {
		return p.oneOf(k, v, &t.Cross, "+", "|", "++", "+|", "|+", "||")
	}},
	{"dots", func(p *parser, _, v *yaml.Node, t *bytegrid.TextOptions) (err error) {
		if t.Dots, err = p.str(v, ""); err == nil && (len(t.Dots) > 64 || strings.Trim(t.Dots, ". ") != "" || !strings.Contains(t.Dots, ".")) {
			err = p.errf(v, "", "text: dots %q: want spaces and dots, at most 64", t.Dots)
		}
		return err
	}},
	{"open_rule", func(p *parser, _, v *yaml.Node, t *bytegrid.TextOptions) error {
		return p.intIn(v, "", &t.OpenRule, -1, 9*bytegrid.MaxRowBits, "text: open_rule %d: want -1 to %d", 9*bytegrid.MaxRowBits)
	}},
	{"edge", func(p *parser, _, v *yaml.Node, t *bytegrid.TextOptions) (err error) {
		if t.Edge, err = p.str(v, ""); err == nil && (len(t.Edge) != 3 || strings.Trim(t.Edge, "|~/.:\\") != "") {
			err = p.errf(v, "", "text: edge %q: want three of '|', '~', '/', '.', '\\' and ':' (first line, middle lines, last line)", t.Edge)
		}
		return err
	}},
	{"rule_ticks", func(p *parser, _, v *yaml.Node, t *bytegrid.TextOptions) (err error) {
		if t.RuleTicks, err = p.str(v, ""); err == nil && (len(t.RuleTicks) > 1<<16 || strings.Trim(t.RuleTicks, "byf") != "") {
			err = p.errf(v, "", "text: rule_ticks %q: want b (bits), y (bytes) or f (fields) for each rule", t.RuleTicks)
		}
		return err
	}},
	{"left_notes", func(p *parser, _, v *yaml.Node, t *bytegrid.TextOptions) (err error) {
		if t.LeftNotes, err = p.str(v, ""); err == nil && len(t.LeftNotes) > 1<<16 {
			err = p.errf(v, "", "text: left_notes longer than %d bytes", 1<<16)
		}
		return err
	}},
	{"right_notes", func(p *parser, k, v *yaml.Node, t *bytegrid.TextOptions) error { return p.notes(k, v, &t.RightNotes) }},
	{"above", func(p *parser, k, v *yaml.Node, t *bytegrid.TextOptions) error { return p.notes(k, v, &t.Above) }},
	{"under_ruler", func(p *parser, k, v *yaml.Node, t *bytegrid.TextOptions) error { return p.notes(k, v, &t.UnderRuler) }},
	{"below", func(p *parser, k, v *yaml.Node, t *bytegrid.TextOptions) error { return p.notes(k, v, &t.Below) }},
	{"inside", func(p *parser, _, v *yaml.Node, t *bytegrid.TextOptions) (err error) {
		if t.Inside, err = p.str(v, ""); err == nil && t.Inside != "dashed" {
			err = p.errf(v, "", "text: inside %q: want dashed", t.Inside)
		}
		return err
	}},
	{"double_end", func(p *parser, _, v *yaml.Node, t *bytegrid.TextOptions) error { return p.boolTo(v, "", &t.DoubleEnd) }},
	{"list_mark", func(p *parser, _, v *yaml.Node, t *bytegrid.TextOptions) error { return p.strTo(v, "", &t.ListMark) }},
	{"table", func(p *parser, _, v *yaml.Node, t *bytegrid.TextOptions) error { return p.strTo(v, "", &t.Table) }},
	{"rule_marks", func(p *parser, _, v *yaml.Node, t *bytegrid.TextOptions) (err error) {
		if t.RuleMarks, err = p.str(v, ""); err == nil && len(t.RuleMarks) > 1<<16 {
			err = p.errf(v, "", "text: rule_marks longer than %d bytes", 1<<16)
		}
		if _, perr := bytegrid.ParseRuleMarks(t.RuleMarks); err == nil && perr != nil {
			err = p.errf(v, "", "text: %v", perr)
		}
		return err
	}},
	{"tens_no_zero", func(p *parser, _, v *yaml.Node, t *bytegrid.TextOptions) error { return p.boolTo(v, "", &t.TensNoZero) }},
	{"ruler_shift", func(p *parser, _, v *yaml.Node, t *bytegrid.TextOptions) error {
		return p.intIn(v, "", &t.RulerShift, -8, 8, "text: ruler_shift %d: want -8 to 8")
	}},
	{"elide", func(p *parser, _, v *yaml.Node, t *bytegrid.TextOptions) (err error) {
		if t.Elide, err = p.str(v, ""); err == nil && !bytegrid.ElisionMark(t.Elide) {
			err = p.errf(v, "", "text: elide %q: want \"//\", \"/ /\" or \"~~\"", t.Elide)
		}
		return err
	}},
	{"elide_at", func(p *parser, _, v *yaml.Node, t *bytegrid.TextOptions) error {
		return p.intIn(v, "", &t.ElideAt, 1, 9*bytegrid.MaxRowBits, "text: elide_at %d: want 1 to %d", 9*bytegrid.MaxRowBits)
	}},
	{"bit_chars", func(p *parser, _, v *yaml.Node, t *bytegrid.TextOptions) error {
		return p.intIn(v, "", &t.BitChars, 2, 8, "text: bit_chars %d: want 2 to 8")
	}},
}

// textKeyList is what the text art's errors say its keys are.
const textKeyList = "margin, row_lines, align, ticks, open, edge, bit_chars, bytes, byte_chars, run_tail, ruler_bits, cross, dots, open_rule, ruler_shift, tens_no_zero, left_notes, right_notes, above, under_ruler, below, inside, list_mark, double_end, rule_ticks, rule_marks, elide, elide_at, table"

// textKey reads one key of the text art.
func (p *parser) textKey(k, v *yaml.Node, t *bytegrid.TextOptions) error {
	for _, r := range textKeys {
		if r.key == k.Value {
			return r.read(p, k, v, t)
		}
	}
	return p.errf(k, "", "text: unknown key %q (want %s)", k.Value, textKeyList)
}

// oneOf reads the text key k, one of the words allowed, into dst.
func (p *parser) oneOf(k, v *yaml.Node, dst *string, allowed ...string) error {
	s, err := p.str(v, "")
	if err != nil {
		return err
	}
	for _, a := range allowed {
		if s == a {
			*dst = s
			return nil
		}
	}
	return p.errf(v, "", "text: %s %q: want %s", k.Value, s, strings.Join(allowed, ", "))
}

// notes reads the text key k, notes of at most 64 KiB, into dst.
func (p *parser) notes(k, v *yaml.Node, dst *string) error {
	s, err := p.str(v, "")
	if err == nil && len(s) > 1<<16 {
		err = p.errf(v, "", "text: %s longer than %d bytes", k.Value, 1<<16)
	}
	*dst = s
	return err
}
