package gridyaml

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/kafkagrid/kafkagrid/bytegrid"
)

// Write writes s in this package's format, for editing: what "kafkagrid grid -format yaml"
// prints for a spec read in any form (YAML, RFC art, RFC 9000 notation, bit-field JSON).
// Parse reads it back as the same fields and options. Only what differs from the defaults is
// written: a field's offset where it leaves a gap, its path where it is not its name, its kind
// where it is not plain; a byte-aligned length as bytes, any other as bits. Each field is one
// line, as in the examples. The properties of variable, optional, repeated and labelled
// fields are written under the keys named by their JSON tags in bytegrid.Field (variable,
// min_bits, max_bits, length_from, optional, condition, label, repeated, double_rule,
// caption, row_break, item, short), the ruler, bit order and text options under their keys. Fields' own Bytes
// are not written (the spec's data is); s.Name must not be empty. A field without a name
// (bit-field's unlabelled gaps) is written with name: "", an unlabelled box.
func Write(w io.Writer, s *Spec) error {
	if s == nil || s.Name == "" {
		return errors.New("gridyaml: a spec needs a name")
	}
	root := &yaml.Node{Kind: yaml.MappingNode}
	add(root, "name", str(s.Name))
	addStr(root, "description", s.Desc)
	addStr(root, "caption", s.Caption)
	o := s.Options
	if o.RowBits != 0 {
		add(root, "row_bits", num(o.RowBits))
	}
	if o.Ruler != bytegrid.RulerTens {
		add(root, "ruler", str(string(o.Ruler)))
	}
	if o.LSB0 {
		add(root, "bit_order", str("lsb0"))
	}
	if o.DecimalOffsets {
		add(root, "offsets", str("decimal"))
	}
	if o.ElideRows != 0 {
		add(root, "elide_rows", num(o.ElideRows))
	}
	if o.NoHex {
		add(root, "hex", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "false"})
	}
	if s.LittleEndian {
		add(root, "byte_order", str("little"))
	}
	if o.Data != nil {
		add(root, "data", dataNode(o.Data))
	}
	if len(o.GroupColors) > 0 {
		add(root, "groups", groupsNode(o.GroupColors, s.Fields))
	}
	if o.Text != (bytegrid.TextOptions{}) {
		add(root, "text", textNode(o.Text))
	}
	if len(s.Fields) > 0 {
		list := &yaml.Node{Kind: yaml.SequenceNode}
		end := 0
		for i, f := range s.Fields {
			n := fieldNode(f, end)
			if i < len(s.Rules) {
				ruleNodes(n, &s.Rules[i])
			}
			list.Content = append(list.Content, n)
			end = f.Offset + f.Bits
		}
		add(root, "fields", list)
	}
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(root); err != nil {
		return fmt.Errorf("gridyaml: %w", err)
	}
	if err := enc.Close(); err != nil {
		return fmt.Errorf("gridyaml: %w", err)
	}
	return nil
}

// add appends the key k and its value v to the mapping m.
func add(m *yaml.Node, k string, v *yaml.Node) {
	m.Content = append(m.Content, str(k), v)
}

// addStr adds k: s to the mapping m when s is not empty.
func addStr(m *yaml.Node, k, s string) {
	if s != "" {
		add(m, k, str(s))
	}
}

// addTrue adds k: true to the mapping m when b is.
func addTrue(m *yaml.Node, k string, b bool) {
	if b {
		add(m, k, boolean(true))
	}
}

// dataNode is the spec's data: the bytes in hex, 16 a line, a literal block past one line.
func dataNode(data []byte) *yaml.Node {
	h := hex.EncodeToString(data)
	var b strings.Builder
	for i := 0; i < len(h); i += 2 {
		if i > 0 {
			if i%32 == 0 {
				b.WriteByte('\n')
			} else {
				b.WriteByte(' ')
			}
		}
		b.WriteString(h[i : i+2])
	}
	n := str(b.String())
	if len(data) > 16 {
		n.Style = yaml.LiteralStyle
	}
	return n
}

// groupsNode is the groups' colours, in the order the fields name them, then the rest by name.
func groupsNode(colors map[string]int, fields []bytegrid.Field) *yaml.Node {
	g := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
	names := make([]string, 0, len(colors))
	for n := range colors {
		names = append(names, n)
	}
	// In the order the fields name them, then the rest by name.
	pos := map[string]int{}
	for i, f := range fields {
		if _, ok := pos[f.Group]; !ok {
			pos[f.Group] = i
		}
	}
	sort.Slice(names, func(i, j int) bool {
		pi, iok := pos[names[i]]
		pj, jok := pos[names[j]]
		if iok != jok {
			return iok
		}
		if iok && pi != pj {
			return pi < pj
		}
		return names[i] < names[j]
	})
	for _, n := range names {
		add(g, n, num(colors[n]))
	}
	return g
}

// textNode is the text options that are not the defaults.
func textNode(t bytegrid.TextOptions) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
	if t.Margin != 0 {
		add(m, "margin", num(t.Margin))
	}
	if t.RowLines != 0 {
		add(m, "row_lines", num(t.RowLines))
	}
	addStr(m, "align", t.Align)
	addStr(m, "ticks", t.Ticks)
	if t.BitChars != 0 {
		add(m, "bit_chars", num(t.BitChars))
	}
	addStr(m, "open", t.Open)
	addStr(m, "edge", t.Edge)
	addTrue(m, "bytes", t.Bytes)
	if t.ByteChars != 0 {
		add(m, "byte_chars", num(t.ByteChars))
	}
	if t.RulerBits != 0 {
		add(m, "ruler_bits", num(t.RulerBits))
	}
	addStr(m, "cross", t.Cross)
	addStr(m, "dots", t.Dots)
	if t.OpenRule != 0 {
		add(m, "open_rule", num(t.OpenRule))
	}
	if t.RulerShift != 0 {
		add(m, "ruler_shift", num(t.RulerShift))
	}
	addStr(m, "rule_ticks", t.RuleTicks)
	addStr(m, "rule_marks", t.RuleMarks)
	addStr(m, "run_tail", t.RunTail)
	addStr(m, "left_notes", t.LeftNotes)
	addStr(m, "right_notes", t.RightNotes)
	addStr(m, "above", t.Above)
	addStr(m, "under_ruler", t.UnderRuler)
	addStr(m, "below", t.Below)
	addStr(m, "inside", t.Inside)
	addTrue(m, "double_end", t.DoubleEnd)
	addStr(m, "list_mark", t.ListMark)
	addStr(m, "table", t.Table)
	addTrue(m, "tens_no_zero", t.TensNoZero)
	if t.Elide != "" {
		add(m, "elide", str(t.Elide))
		add(m, "elide_at", num(t.ElideAt))
	}
	return m
}

// fieldNode is one field on one line; end is where the field before it ended (its offset is
// written only where it leaves a gap).
func fieldNode(f bytegrid.Field, end int) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
	add(m, "name", str(f.Name))
	if f.Bits%8 == 0 {
		add(m, "bytes", num(f.Bits/8))
	} else {
		add(m, "bits", num(f.Bits))
	}
	if f.Offset != end {
		add(m, "offset", num(f.Offset))
	}
	addStr(m, "value", f.Value)
	addStr(m, "group", f.Group)
	switch f.Kind {
	case bytegrid.Plain:
	case bytegrid.Reserved:
		add(m, "kind", str("reserved")) // the protocol word for padding
	default:
		add(m, "kind", str(f.Kind.String()))
	}
	addStr(m, "type", f.Type)
	if f.Path != "" && f.Path != f.Name {
		add(m, "path", str(f.Path))
	}
	addStr(m, "desc", f.Desc)
	addTrue(m, "variable", f.Variable)
	if f.MinBits != 0 {
		add(m, "min_bits", num(f.MinBits))
	}
	if f.MaxBits != 0 {
		add(m, "max_bits", num(f.MaxBits))
	}
	addStr(m, "length_from", f.LengthFrom)
	addTrue(m, "optional", f.Optional)
	addStr(m, "condition", f.Condition)
	if f.Label != bytegrid.LabelAuto {
		add(m, "label", str(string(f.Label)))
	}
	addTrue(m, "repeated", f.Repeated)
	addTrue(m, "double_rule", f.DoubleRule)
	addStr(m, "caption", f.Caption)
	addStr(m, "item", f.Item)
	addStr(m, "short", f.Short)
	addTrue(m, "row_break", f.RowBreak)
	if f.Lines > 1 {
		add(m, "lines", num(f.Lines))
	}
	if f.LabelLine > 0 {
		add(m, "label_line", num(f.LabelLine))
	}
	if f.LabelCol > 0 {
		add(m, "label_col", num(f.LabelCol))
	}
	if len(f.LabelCols) > 0 {
		cs := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		for _, c := range f.LabelCols {
			cs.Content = append(cs.Content, num(c))
		}
		add(m, "label_cols", cs)
	}
	addTrue(m, "run_on", f.RunOn)
	addTrue(m, "joined", f.Joined)
	addTrue(m, "packed", f.Packed)
	addStr(m, "marks", f.Marks)
	if len(f.Pieces) > 0 {
		ps := &yaml.Node{Kind: yaml.SequenceNode}
		for _, s := range f.Pieces {
			ps.Content = append(ps.Content, str(s))
		}
		add(m, "pieces", ps)
	}
	if len(f.Crossings) > 0 {
		ps := &yaml.Node{Kind: yaml.SequenceNode}
		for _, s := range f.Crossings {
			ps.Content = append(ps.Content, str(s))
		}
		add(m, "crossings", ps)
	}
	return m
}

// ruleNodes adds a field's decode keys to its mapping m; items are written as a list of
// mappings, one field a line.
func ruleNodes(m *yaml.Node, r *Rule) {
	addStr(m, "endian", r.Endian)
	addStr(m, "show", r.Show)
	names := func(ns []Name, flags bool) *yaml.Node {
		n := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
		for _, x := range ns {
			v := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatUint(x.Value, 10)}
			if flags {
				v.Value = "0x" + strconv.FormatUint(x.Value, 16)
				add(n, x.Name, v)
			} else {
				n.Content = append(n.Content, v, str(x.Name))
			}
		}
		return n
	}
	if len(r.Enum) > 0 {
		add(m, "enum", names(r.Enum, false))
	}
	if len(r.Flags) > 0 {
		add(m, "flags", names(r.Flags, true))
	}
	for _, e := range []struct {
		k string
		x *Expr
	}{{"length", r.Length}, {"when", r.When}, {"count", r.Count}, {"until", r.Until}} {
		if e.x != nil {
			add(m, e.k, str(e.x.String()))
		}
	}
	if len(r.Items) > 0 {
		list := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		end := 0
		for _, it := range r.Items {
			n := fieldNode(it.Field, end)
			ruleNodes(n, &it.Rule)
			list.Content = append(list.Content, n)
			end = it.Field.Offset + it.Field.Bits
		}
		add(m, "items", list)
	}
}

func str(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	return n
}

func num(i int) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(i)}
}

func boolean(b bool) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(b)}
}
