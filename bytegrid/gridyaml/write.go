package gridyaml

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/kafkagrid/kafkagrid/bytegrid"
)

// Write writes s as a YAML spec in the format Parse reads (and gives back the same spec): the
// keys in the order of the package doc, each field a one-line mapping with the keys it needs,
// strings double-quoted. It is how a figure read from another form (RFC art, say) becomes a
// spec to edit.
func Write(w io.Writer, s *Spec) error {
	bw := bufio.NewWriter(w)
	line := func(k, v string) { bw.WriteString(k + ": " + v + "\n") }
	line("name", quote(s.Name))
	if s.Desc != "" {
		line("description", quote(s.Desc))
	}
	o := s.Options
	if o.RowBits != 0 {
		line("row_bits", strconv.Itoa(o.RowBits))
	}
	if o.Ruler != bytegrid.RulerTens {
		line("ruler", string(o.Ruler))
	}
	if o.LSB0 {
		line("bit_order", "lsb0")
	}
	if o.DecimalOffsets {
		line("offsets", "decimal")
	}
	if o.ElideRows != 0 {
		line("elide_rows", strconv.Itoa(o.ElideRows))
	}
	if o.NoHex {
		line("hex", "false")
	}
	if o.Data != nil {
		line("data", quote(hex.EncodeToString(o.Data)))
	}
	if len(o.GroupColors) > 0 {
		names := make([]string, 0, len(o.GroupColors))
		for g := range o.GroupColors {
			names = append(names, g)
		}
		sort.Strings(names)
		var parts []string
		for _, g := range names {
			parts = append(parts, quote(g)+": "+strconv.Itoa(o.GroupColors[g]))
		}
		line("groups", "{"+strings.Join(parts, ", ")+"}")
	}
	if t := o.Text; t != (bytegrid.TextOptions{}) {
		var parts []string
		add := func(k, v string) { parts = append(parts, k+": "+v) }
		if t.Margin != 0 {
			add("margin", strconv.Itoa(t.Margin))
		}
		if t.RowLines != 0 {
			add("row_lines", strconv.Itoa(t.RowLines))
		}
		if t.Align != "" {
			add("align", t.Align)
		}
		if t.Ticks != "" {
			add("ticks", t.Ticks)
		}
		if t.BitChars != 0 {
			add("bit_chars", strconv.Itoa(t.BitChars))
		}
		if t.Open != "" {
			add("open", t.Open)
		}
		line("text", "{"+strings.Join(parts, ", ")+"}")
	}
	if len(s.Fields) > 0 {
		bw.WriteString("fields:\n")
	}
	end := 0
	for _, f := range s.Fields {
		parts := []string{"name: " + quote(f.Name)}
		add := func(k, v string) { parts = append(parts, k+": "+v) }
		add("bits", strconv.Itoa(f.Bits))
		if f.Offset != end {
			add("offset", strconv.Itoa(f.Offset))
		}
		end = f.Offset + f.Bits
		if f.Value != "" {
			add("value", quote(f.Value))
		}
		if f.Group != "" {
			add("group", quote(f.Group))
		}
		switch f.Kind {
		case bytegrid.Plain:
		case bytegrid.Reserved:
			add("kind", "reserved") // the protocol word for padding
		default:
			add("kind", f.Kind.String())
		}
		if f.Type != "" {
			add("type", quote(f.Type))
		}
		if f.Path != "" && f.Path != f.Name {
			add("path", quote(f.Path))
		}
		if f.Desc != "" {
			add("desc", quote(f.Desc))
		}
		if f.Variable {
			add("variable", "true")
		}
		if f.MinBits != 0 {
			add("min_bits", strconv.Itoa(f.MinBits))
		}
		if f.MaxBits != 0 {
			add("max_bits", strconv.Itoa(f.MaxBits))
		}
		if f.LengthFrom != "" {
			add("length_from", quote(f.LengthFrom))
		}
		if f.Optional {
			add("optional", "true")
		}
		if f.Condition != "" {
			add("condition", quote(f.Condition))
		}
		if f.Label != bytegrid.LabelAuto {
			add("label", string(f.Label))
		}
		if f.DoubleRule {
			add("double_rule", "true")
		}
		if f.Caption != "" {
			add("caption", quote(f.Caption))
		}
		if f.RowBreak {
			add("row_break", "true")
		}
		bw.WriteString("  - {" + strings.Join(parts, ", ") + "}\n")
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("gridyaml: write: %w", err)
	}
	return nil
}

// quote returns s as a YAML double-quoted scalar: Go's escapes are a subset of YAML's.
func quote(s string) string { return strconv.Quote(s) }
