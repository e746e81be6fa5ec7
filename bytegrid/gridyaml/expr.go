package gridyaml

import "github.com/kafkagrid/kafkagrid/bytegrid"

// The expressions of the decode keys (length, when, count, until) are package bytegrid's, so
// that a Spec carries its decoding whatever form it was read from.
type (
	Expr = bytegrid.Expr
	Env  = bytegrid.Env
)

// ParseExpr parses an expression of the decode keys (bytegrid.ParseExpr).
func ParseExpr(s string) (*Expr, error) { return bytegrid.ParseExpr(s) }
