package gridyaml

import (
	"slices"
	"strconv"

	"gopkg.in/yaml.v3"

	"github.com/kafkagrid/kafkagrid/bytegrid"
)

// The rules of the decode keys are package bytegrid's (Spec.Rules).
type (
	Rule = bytegrid.Rule
	Name = bytegrid.Name
	Item = bytegrid.Item
)

// maxItemDepth bounds how deep items nest (a DNS question's name's labels are two deep).
const maxItemDepth = 8

// scope is the names a field's expressions may read: the fields before it, of its item and of
// every item around it.
type scope struct {
	names []string
	up    *scope
}

func (s *scope) has(name string) bool {
	for ; s != nil; s = s.up {
		if slices.Contains(s.names, name) {
			return true
		}
	}
	return false
}

// ruleKey reads one decode key of a field into r; ok is false for a key that is no decode key.
func (p *parser) ruleKey(k, v *yaml.Node, label string, r *Rule, sc *scope, depth int) (ok bool, err error) {
	expr := func() (*Expr, error) {
		s, err := p.str(v, label)
		if err != nil {
			return nil, err
		}
		e, err := ParseExpr(s)
		if err != nil {
			return nil, p.errf(v, label, "%s: %v", k.Value, err)
		}
		for _, n := range e.Names() {
			if n != "rest" && !sc.has(n) {
				return nil, p.errf(v, label, "%s: %q names no field before this one", k.Value, n)
			}
		}
		return e, nil
	}
	switch k.Value {
	case "endian":
		var s string
		if s, err = p.str(v, label); err == nil && s != "big" && s != "little" {
			err = p.errf(v, label, "endian %q: want big or little", s)
		}
		r.Endian = s
	case "show":
		var s string
		if s, err = p.str(v, label); err == nil && s != "hex" && s != "decimal" && s != "binary" {
			err = p.errf(v, label, "show %q: want hex, decimal or binary", s)
		}
		r.Show = s
	case "enum":
		r.Enum, err = p.names(v, label, false)
	case "flags":
		r.Flags, err = p.names(v, label, true)
	case "length":
		r.Length, err = expr()
	case "when":
		r.When, err = expr()
	case "count":
		r.Count, err = expr()
	case "until":
		// until reads the item's own fields: checked when the items are read.
		var s string
		if s, err = p.str(v, label); err == nil {
			if r.Until, err = ParseExpr(s); err != nil {
				err = p.errf(v, label, "until: %v", err)
			}
		}
	case "items":
		r.Items, err = p.items(v, label, sc, depth+1)
	default:
		return false, nil
	}
	return true, err
}

// names reads an enum (value: name) or flags (name: mask) mapping.
func (p *parser) names(n *yaml.Node, label string, flags bool) ([]Name, error) {
	what := "enum: want a mapping of value to name ({1: ICMP, 6: TCP})"
	if flags {
		what = "flags: want a mapping of name to mask ({DF: 0x2, MF: 0x1})"
	}
	if n.Kind != yaml.MappingNode || len(n.Content) == 0 {
		return nil, p.errf(n, label, "%s", what)
	}
	var out []Name
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, vn := n.Content[i], n.Content[i+1]
		num, name := kn, vn
		if flags {
			num, name = vn, kn
		}
		if num.Kind != yaml.ScalarNode || name.Kind != yaml.ScalarNode {
			return nil, p.errf(kn, label, "%s", what)
		}
		v, err := strconv.ParseUint(num.Value, 0, 64)
		if err != nil {
			return nil, p.errf(num, label, "%s: %q is no unsigned integer", what[:5], num.Value)
		}
		out = append(out, Name{Value: v, Name: name.Value})
	}
	return out, nil
}

// items reads the fields of one item.
func (p *parser) items(n *yaml.Node, label string, up *scope, depth int) ([]Item, error) {
	if depth > maxItemDepth {
		return nil, p.errf(n, label, "items nest more than %d deep", maxItemDepth)
	}
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		return nil, p.errf(n, label, "items: want a list of the fields of one item")
	}
	sc := &scope{up: up}
	var out []Item
	end := 0
	for i, fn := range n.Content {
		f, r, err := p.field(fn, i, end, sc, depth)
		if err != nil {
			return nil, err
		}
		sc.names = append(sc.names, f.Name)
		out = append(out, Item{Field: f, Rule: r})
		end = f.Offset + f.Bits
	}
	return out, nil
}

// checkUntil checks that until reads only the item's fields and the fields around it.
func (p *parser) checkUntil(n *yaml.Node, label string, r *Rule, up *scope) error {
	if r.Until == nil {
		return nil
	}
	sc := &scope{up: up}
	for _, it := range r.Items {
		sc.names = append(sc.names, it.Field.Name)
	}
	for _, name := range r.Until.Names() {
		if name != "rest" && !sc.has(name) {
			return p.errf(n, label, "until: %q names no field of the item", name)
		}
	}
	if r.Items == nil {
		return p.errf(n, label, "until without items")
	}
	return nil
}
