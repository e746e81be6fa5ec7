package gridyaml

import (
	"encoding/hex"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/style"
)

// The keys of a spec are read by rules, one small function a key, in three tables: the top
// mapping's (topRules), a field's (fieldRules) and the text mapping's (textRules). A new key
// is a new rule; Parse, field and text only walk a mapping and ask the table.

// topIn is the top mapping as read so far.
type topIn struct {
	spec     Spec
	data     []byte
	haveData bool
	groups   map[string]int
	fields   *yaml.Node
}

// topRule reads one key of the top mapping.
type topRule func(p *parser, v *yaml.Node, t *topIn) error

// fieldIn is a field as read so far: its length nodes, for the checks made once all its keys
// are read, and its offset (-1: right after the field before).
type fieldIn struct {
	bytegrid.Field
	bitsNode, bytesNode *yaml.Node
	offset              int
}

// fieldRule reads one key of a field; label names the field in errors.
type fieldRule func(p *parser, v *yaml.Node, label string, f *fieldIn) error

// textRule reads one key of the text mapping.
type textRule func(p *parser, v *yaml.Node, t *bytegrid.TextOptions) error

// topRules are the top mapping's keys.
var topRules = sync.OnceValue(func() map[string]rule {
	return map[string]rule{
		"name":        topRule(func(p *parser, v *yaml.Node, t *topIn) (err error) { t.spec.Name, err = p.str(v, ""); return err }),
		"description": topRule(func(p *parser, v *yaml.Node, t *topIn) (err error) { t.spec.Desc, err = p.str(v, ""); return err }),
		"row_bits":    topRule(readRowBits),
		"ruler":       topRule(readRuler),
		"bit_order":   topRule(readBitOrder),
		"text":        topRule(func(p *parser, v *yaml.Node, t *topIn) error { return p.text(v, &t.spec.Options.Text) }),
		"offsets":     topRule(readOffsets),
		"elide_rows":  topRule(readElideRows),
		"hex": topRule(func(p *parser, v *yaml.Node, t *topIn) error {
			b, err := p.boolean(v, "")
			t.spec.Options.NoHex = !b
			return err
		}),
		"data": topRule(readData),
		"groups": topRule(func(p *parser, v *yaml.Node, t *topIn) (err error) {
			t.groups, err = p.groups(v)
			return err
		}),
		"fields": topRule(func(p *parser, v *yaml.Node, t *topIn) error {
			t.fields = v
			if v.Kind != yaml.SequenceNode {
				return p.errf(v, "", "fields: want a list")
			}
			return nil
		}),
	}
})

func readRowBits(p *parser, v *yaml.Node, t *topIn) error {
	n, err := p.integer(v, "")
	t.spec.Options.RowBits = n
	if err == nil && (n < 1 || n > bytegrid.MaxRowBits) {
		err = p.errf(v, "", "row_bits %d: want 1 to %d (8, 16, 32 or 64 are usual)", n, bytegrid.MaxRowBits)
	}
	return err
}

func readRuler(p *parser, v *yaml.Node, t *topIn) error {
	r, err := p.str(v, "")
	if err != nil {
		return err
	}
	switch bytegrid.Ruler(r) {
	case "tens":
		t.spec.Options.Ruler = bytegrid.RulerTens
	case bytegrid.RulerTensAll, bytegrid.RulerUnits, bytegrid.RulerBytes, bytegrid.RulerNone:
		t.spec.Options.Ruler = bytegrid.Ruler(r)
	default:
		return p.errf(v, "", "ruler %q: want tens, tens-all, units, bytes or none", r)
	}
	return nil
}

func readBitOrder(p *parser, v *yaml.Node, t *topIn) error {
	o, err := p.str(v, "")
	switch {
	case err != nil:
		return err
	case o == "lsb0":
		t.spec.Options.LSB0 = true
	case o != "msb0":
		return p.errf(v, "", "bit_order %q: want msb0 or lsb0", o)
	}
	return nil
}

func readOffsets(p *parser, v *yaml.Node, t *topIn) error {
	o, err := p.str(v, "")
	switch {
	case err != nil:
		return err
	case o == "decimal":
		t.spec.Options.DecimalOffsets = true
	case o != "hex":
		return p.errf(v, "", "offsets %q: want hex or decimal", o)
	}
	return nil
}

func readElideRows(p *parser, v *yaml.Node, t *topIn) error {
	n, err := p.integer(v, "")
	t.spec.Options.ElideRows = n
	if err == nil && n == 0 {
		err = p.errf(v, "", "elide_rows 0: want a positive number of rows, or -1 for never")
	}
	return err
}

func readData(p *parser, v *yaml.Node, t *topIn) error {
	h, err := p.str(v, "")
	if err != nil {
		return err
	}
	t.haveData = true
	h = strings.Join(strings.Fields(h), "")
	if len(h)/2 > maxBytes {
		return p.errf(v, "", "data longer than %d bytes", maxBytes)
	}
	if t.data, err = hex.DecodeString(h); err != nil {
		return p.errf(v, "", "data: %v", err)
	}
	return nil
}

// fieldString is the rule of a key that is a string of the field.
func fieldString(at func(f *fieldIn) *string) rule {
	return fieldRule(func(p *parser, v *yaml.Node, label string, f *fieldIn) (err error) {
		*at(f), err = p.str(v, label)
		return err
	})
}

// fieldBool is the rule of a key that is a boolean of the field.
func fieldBool(at func(f *fieldIn) *bool) rule {
	return fieldRule(func(p *parser, v *yaml.Node, label string, f *fieldIn) (err error) {
		*at(f), err = p.boolean(v, label)
		return err
	})
}

// fieldInt is the rule of the key that is an integer of the field from lo to hi (no bounds
// when lo > hi), with what the error says it should be.
func fieldInt(key string, at func(f *fieldIn) *int, lo, hi int, want string) rule {
	return fieldRule(func(p *parser, v *yaml.Node, label string, f *fieldIn) error {
		n, err := p.integer(v, label)
		*at(f) = n
		if err == nil && lo <= hi && (n < lo || n > hi) {
			err = p.errf(v, label, "%s %d: %s", key, n, want)
		}
		return err
	})
}

// fieldRules are a field's keys.
var fieldRules = sync.OnceValue(func() map[string]rule {
	return map[string]rule{
		"name": fieldRule(func(*parser, *yaml.Node, string, *fieldIn) error { return nil }), // read first
		"bits": fieldRule(func(p *parser, v *yaml.Node, label string, f *fieldIn) (err error) {
			f.bitsNode = v
			f.Bits, err = p.integer(v, label)
			return err
		}),
		"bytes":       fieldRule(readBytes),
		"offset":      fieldRule(readOffset),
		"value":       fieldString(func(f *fieldIn) *string { return &f.Value }),
		"group":       fieldString(func(f *fieldIn) *string { return &f.Group }),
		"item":        fieldString(func(f *fieldIn) *string { return &f.Item }),
		"short":       fieldString(func(f *fieldIn) *string { return &f.Short }),
		"kind":        fieldRule(readKind),
		"variable":    fieldBool(func(f *fieldIn) *bool { return &f.Variable }),
		"min_bits":    fieldInt("min_bits", func(f *fieldIn) *int { return &f.MinBits }, 1, 0, ""),
		"max_bits":    fieldInt("max_bits", func(f *fieldIn) *int { return &f.MaxBits }, 1, 0, ""),
		"length_from": fieldString(func(f *fieldIn) *string { return &f.LengthFrom }),
		"optional":    fieldBool(func(f *fieldIn) *bool { return &f.Optional }),
		"condition":   fieldString(func(f *fieldIn) *string { return &f.Condition }),
		"label":       fieldRule(readLabel),
		"double_rule": fieldBool(func(f *fieldIn) *bool { return &f.DoubleRule }),
		"caption":     fieldString(func(f *fieldIn) *string { return &f.Caption }),
		"row_break":   fieldBool(func(f *fieldIn) *bool { return &f.RowBreak }),
		"lines":       fieldInt("lines", func(f *fieldIn) *int { return &f.Lines }, 1, 16, "want 1 to 16"),
		"label_line":  fieldInt("label_line", func(f *fieldIn) *int { return &f.LabelLine }, 1, 1<<16, "want 1 or more"),
		"label_col":   fieldInt("label_col", func(f *fieldIn) *int { return &f.LabelCol }, 1, 9*bytegrid.MaxRowBits, "want 1 to "+strconv.Itoa(9*bytegrid.MaxRowBits)),
		"repeated":    fieldBool(func(f *fieldIn) *bool { return &f.Repeated }),
		"run_on":      fieldBool(func(f *fieldIn) *bool { return &f.RunOn }),
		"type":        fieldString(func(f *fieldIn) *string { return &f.Type }),
		"path":        fieldString(func(f *fieldIn) *string { return &f.Path }),
		"desc":        fieldString(func(f *fieldIn) *string { return &f.Desc }),
	}
})

func readBytes(p *parser, v *yaml.Node, label string, f *fieldIn) error {
	f.bytesNode = v
	nb, err := p.integer(v, label)
	if err == nil && (nb <= 0 || nb > maxBytes) {
		err = p.errf(v, label, "bytes %d: want 1 to %d", nb, maxBytes)
	}
	f.Bits = 8 * nb
	return err
}

func readOffset(p *parser, v *yaml.Node, label string, f *fieldIn) error {
	n, err := p.integer(v, label)
	f.offset = n
	if err == nil && n < 0 {
		err = p.errf(v, label, "negative offset %d", n)
	}
	return err
}

func readKind(p *parser, v *yaml.Node, label string, f *fieldIn) error {
	s, err := p.str(v, label)
	if err != nil {
		return err
	}
	switch s {
	case "data":
		f.Kind = bytegrid.Data
	case "reserved":
		f.Kind = bytegrid.Reserved
	default:
		if f.Kind, err = style.ParseKind(s); err != nil {
			return p.errf(v, label, "%v (or data, reserved)", err)
		}
	}
	return nil
}

func readLabel(p *parser, v *yaml.Node, label string, f *fieldIn) error {
	s, err := p.str(v, label)
	if err != nil {
		return err
	}
	switch bytegrid.LabelMode(s) {
	case "auto":
		f.Label = bytegrid.LabelAuto
	case bytegrid.LabelStacked, bytegrid.LabelVertical, bytegrid.LabelNote:
		f.Label = bytegrid.LabelMode(s)
	default:
		return p.errf(v, label, "label %q: want auto, stacked, vertical or note", s)
	}
	return nil
}

// textOne is the rule of a text key that is one of the words allowed.
func textOne(key string, at func(t *bytegrid.TextOptions) *string, allowed ...string) rule {
	return textRule(func(p *parser, v *yaml.Node, t *bytegrid.TextOptions) error {
		s, err := p.str(v, "")
		if err != nil {
			return err
		}
		for _, a := range allowed {
			if s == a {
				*at(t) = s
				return nil
			}
		}
		return p.errf(v, "", "text: %s %q: want %s", key, s, strings.Join(allowed, ", "))
	})
}

// textInt is the rule of a text key that is an integer from lo to hi; want is what the error
// says it should be ("" for "want lo to hi").
func textInt(key string, at func(t *bytegrid.TextOptions) *int, lo, hi int, want string) rule {
	if want == "" {
		want = "want " + strconv.Itoa(lo) + " to " + strconv.Itoa(hi)
	}
	return textRule(func(p *parser, v *yaml.Node, t *bytegrid.TextOptions) error {
		n, err := p.integer(v, "")
		*at(t) = n
		if err == nil && (n < lo || n > hi) {
			err = p.errf(v, "", "text: %s %d: %s", key, n, want)
		}
		return err
	})
}

// textString is the rule of a text key that is a string ok accepts, with what the error says
// it should be.
func textString(key string, at func(t *bytegrid.TextOptions) *string, ok func(string) bool, want string) rule {
	return textRule(func(p *parser, v *yaml.Node, t *bytegrid.TextOptions) error {
		s, err := p.str(v, "")
		*at(t) = s
		if err == nil && !ok(s) {
			err = p.errf(v, "", "text: %s %q: %s", key, s, want)
		}
		return err
	})
}

// textBool is the rule of a text key that is a boolean.
func textBool(at func(t *bytegrid.TextOptions) *bool) rule {
	return textRule(func(p *parser, v *yaml.Node, t *bytegrid.TextOptions) (err error) {
		*at(t), err = p.boolean(v, "")
		return err
	})
}

// textRules are the text mapping's keys.
var textRules = sync.OnceValue(func() map[string]rule {
	return map[string]rule{
		"margin":     textInt("margin", func(t *bytegrid.TextOptions) *int { return &t.Margin }, 0, 80, ""),
		"row_lines":  textInt("row_lines", func(t *bytegrid.TextOptions) *int { return &t.RowLines }, 1, 16, ""),
		"align":      textOne("align", func(t *bytegrid.TextOptions) *string { return &t.Align }, "middle", "top", "bottom"),
		"ticks":      textOne("ticks", func(t *bytegrid.TextOptions) *string { return &t.Ticks }, "bits", "fields"),
		"open":       textOne("open", func(t *bytegrid.TextOptions) *string { return &t.Open }, "colons", "dots", "bottom", "edge", "rules", "open"),
		"bytes":      textBool(func(t *bytegrid.TextOptions) *bool { return &t.Bytes }),
		"ruler_bits": textInt("ruler_bits", func(t *bytegrid.TextOptions) *int { return &t.RulerBits }, 1, bytegrid.MaxRowBits, ""),
		"cross":      textOne("cross", func(t *bytegrid.TextOptions) *string { return &t.Cross }, "+", "|", "++", "+|", "|+", "||"),
		"dots": textString("dots", func(t *bytegrid.TextOptions) *string { return &t.Dots }, func(s string) bool {
			return len(s) <= 64 && strings.Trim(s, ". ") == "" && strings.Contains(s, ".")
		}, "want spaces and dots, at most 64"),
		"open_rule": textInt("open_rule", func(t *bytegrid.TextOptions) *int { return &t.OpenRule }, -1, 9*bytegrid.MaxRowBits, ""),
		"edge": textString("edge", func(t *bytegrid.TextOptions) *string { return &t.Edge }, func(s string) bool {
			return len(s) == 3 && strings.Trim(s, "|~/.:\\") == ""
		}, "want three of '|', '~', '/', '.', '\\' and ':' (first line, middle lines, last line)"),
		"rule_ticks": textString("rule_ticks", func(t *bytegrid.TextOptions) *string { return &t.RuleTicks }, func(s string) bool {
			return len(s) <= 1<<16 && strings.Trim(s, "byf") == ""
		}, "want b (bits), y (bytes) or f (fields) for each rule"),
		"left_notes": textRule(func(p *parser, v *yaml.Node, t *bytegrid.TextOptions) (err error) {
			if t.LeftNotes, err = p.str(v, ""); err == nil && len(t.LeftNotes) > 1<<16 {
				err = p.errf(v, "", "text: left_notes longer than %d bytes", 1<<16)
			}
			return err
		}),
		"tens_no_zero": textBool(func(t *bytegrid.TextOptions) *bool { return &t.TensNoZero }),
		"ruler_shift":  textInt("ruler_shift", func(t *bytegrid.TextOptions) *int { return &t.RulerShift }, -8, 8, ""),
		"elide": textString("elide", func(t *bytegrid.TextOptions) *string { return &t.Elide }, bytegrid.ElisionMark,
			`want "//", "/ /" or "~~"`),
		"elide_at":  textInt("elide_at", func(t *bytegrid.TextOptions) *int { return &t.ElideAt }, 1, 9*bytegrid.MaxRowBits, ""),
		"bit_chars": textInt("bit_chars", func(t *bytegrid.TextOptions) *int { return &t.BitChars }, 2, 8, ""),
	}
})
