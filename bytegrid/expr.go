package bytegrid

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Expr is an expression of a spec's decode keys (length, when, count, until): field names,
// integers (decimal or 0x hex), + - * /, & (a mask), the comparisons == != < <= > >=, brackets,
// len(Name) (the bytes a field was read to fill) and rest (the bytes left from where the field
// starts). & binds tighter than + and -, which bind looser than * and /; the comparisons bind
// loosest and give 1 or 0. A field name may hold spaces ("Data Offset * 4 - 20").
type Expr struct {
	src  string
	root *exprNode
}

type exprNode struct {
	op   string // "num", "name", "len", or an operator
	num  int64
	name string
	l, r *exprNode
}

// maxExpr bounds an expression's text, so its tree and its evaluation are small.
const maxExpr = 512

// ParseExpr reads an expression.
func ParseExpr(s string) (*Expr, error) {
	if len(s) > maxExpr {
		return nil, fmt.Errorf("expression of %d characters: at most %d", len(s), maxExpr)
	}
	toks, err := lexExpr(s)
	if err != nil {
		return nil, err
	}
	p := &exprParser{toks: toks}
	n, err := p.cmp()
	if err != nil {
		return nil, err
	}
	if p.i < len(p.toks) {
		return nil, fmt.Errorf("expression %q: unexpected %q", s, p.toks[p.i].text)
	}
	return &Expr{src: s, root: n}, nil
}

// String is the expression as written.
func (e *Expr) String() string { return e.src }

// Names are the field names the expression reads (len's argument too), in order.
func (e *Expr) Names() []string {
	var out []string
	var walk func(n *exprNode)
	walk = func(n *exprNode) {
		if n == nil {
			return
		}
		if n.op == "name" || n.op == "len" {
			out = append(out, n.name)
		}
		walk(n.l)
		walk(n.r)
	}
	walk(e.root)
	return out
}

// Env gives an expression its names' values: Value a field's value (or rest's), Len the bytes a
// field was read to fill.
type Env interface {
	Value(name string) (int64, bool)
	Len(name string) (int64, bool)
}

// ErrDivZero is the error of a division by zero.
var ErrDivZero = errors.New("division by zero")

// Eval computes the expression's value with env.
func (e *Expr) Eval(env Env) (int64, error) { return e.root.eval(env) }

func (n *exprNode) eval(env Env) (int64, error) {
	switch n.op {
	case "num":
		return n.num, nil
	case "name":
		v, ok := env.Value(n.name)
		if !ok {
			return 0, fmt.Errorf("%s has no value here", n.name)
		}
		return v, nil
	case "len":
		v, ok := env.Len(n.name)
		if !ok {
			return 0, fmt.Errorf("len(%s): no such field read", n.name)
		}
		return v, nil
	}
	a, err := n.l.eval(env)
	if err != nil {
		return 0, err
	}
	b, err := n.r.eval(env)
	if err != nil {
		return 0, err
	}
	truth := func(t bool) int64 {
		if t {
			return 1
		}
		return 0
	}
	switch n.op {
	case "+":
		return a + b, nil
	case "-":
		return a - b, nil
	case "*":
		return a * b, nil
	case "/":
		if b == 0 {
			return 0, ErrDivZero
		}
		return a / b, nil
	case "&":
		return a & b, nil
	case "==":
		return truth(a == b), nil
	case "!=":
		return truth(a != b), nil
	case "<":
		return truth(a < b), nil
	case "<=":
		return truth(a <= b), nil
	case ">":
		return truth(a > b), nil
	case ">=":
		return truth(a >= b), nil
	}
	return 0, fmt.Errorf("unknown operator %q", n.op)
}

type exprTok struct {
	kind byte // 'n' number, 'a' name, 'o' operator or bracket
	text string
	num  int64
}

func isNameStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80
}

func isNameByte(c byte) bool {
	return isNameStart(c) || c >= '0' && c <= '9' || c == ' ' || c == '.' || c == '\''
}

func lexExpr(s string) ([]exprTok, error) {
	var toks []exprTok
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c >= '0' && c <= '9':
			j := i
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] >= 'a' && s[j] <= 'f' || s[j] >= 'A' && s[j] <= 'F' || s[j] == 'x' || s[j] == 'X') {
				j++
			}
			v, err := strconv.ParseInt(s[i:j], 0, 64)
			if err != nil || v > 1<<40 {
				return nil, fmt.Errorf("expression %q: bad number %q", s, s[i:j])
			}
			toks = append(toks, exprTok{kind: 'n', text: s[i:j], num: v})
			i = j
		case isNameStart(c):
			j := i
			for j < len(s) && isNameByte(s[j]) {
				j++
			}
			toks = append(toks, exprTok{kind: 'a', text: strings.TrimRight(s[i:j], " ")})
			i = j
		default:
			op := string(c)
			if i+1 < len(s) && strings.Contains("==!=<=>=", s[i:i+2]) && s[i+1] == '=' {
				op = s[i : i+2]
			}
			switch op {
			case "+", "-", "*", "/", "&", "(", ")", "<", ">", "==", "!=", "<=", ">=":
			default:
				return nil, fmt.Errorf("expression %q: unexpected %q (want field names, integers, + - * / &, comparisons and brackets)", s, op)
			}
			toks = append(toks, exprTok{kind: 'o', text: op})
			i += len(op)
		}
	}
	if len(toks) == 0 {
		return nil, errors.New("empty expression")
	}
	return toks, nil
}

type exprParser struct {
	toks []exprTok
	i    int
}

func (p *exprParser) peekOp(ops ...string) string {
	if p.i < len(p.toks) && p.toks[p.i].kind == 'o' {
		for _, o := range ops {
			if p.toks[p.i].text == o {
				return o
			}
		}
	}
	return ""
}

func (p *exprParser) binary(next func() (*exprNode, error), ops ...string) (*exprNode, error) {
	l, err := next()
	if err != nil {
		return nil, err
	}
	for {
		op := p.peekOp(ops...)
		if op == "" {
			return l, nil
		}
		p.i++
		r, err := next()
		if err != nil {
			return nil, err
		}
		l = &exprNode{op: op, l: l, r: r}
	}
}

func (p *exprParser) cmp() (*exprNode, error) {
	return p.binary(p.sum, "==", "!=", "<", "<=", ">", ">=")
}
func (p *exprParser) sum() (*exprNode, error)  { return p.binary(p.mask, "+", "-") }
func (p *exprParser) mask() (*exprNode, error) { return p.binary(p.prod, "&") }
func (p *exprParser) prod() (*exprNode, error) { return p.binary(p.atom, "*", "/") }

func (p *exprParser) atom() (*exprNode, error) {
	if p.i >= len(p.toks) {
		return nil, errors.New("expression ends early")
	}
	t := p.toks[p.i]
	p.i++
	switch {
	case t.kind == 'n':
		return &exprNode{op: "num", num: t.num}, nil
	case t.kind == 'a' && t.text == "len" && p.peekOp("(") != "":
		p.i++
		if p.i >= len(p.toks) || p.toks[p.i].kind != 'a' {
			return nil, errors.New("len( wants a field name")
		}
		name := p.toks[p.i].text
		p.i++
		if p.peekOp(")") == "" {
			return nil, errors.New("len(" + name + " wants a closing bracket")
		}
		p.i++
		return &exprNode{op: "len", name: name}, nil
	case t.kind == 'a':
		return &exprNode{op: "name", name: t.text}, nil
	case t.text == "(":
		n, err := p.cmp()
		if err != nil {
			return nil, err
		}
		if p.peekOp(")") == "" {
			return nil, errors.New("missing closing bracket")
		}
		p.i++
		return n, nil
	case t.text == "-":
		n, err := p.atom()
		if err != nil {
			return nil, err
		}
		return &exprNode{op: "-", l: &exprNode{op: "num"}, r: n}, nil
	}
	return nil, fmt.Errorf("unexpected %q", t.text)
}
