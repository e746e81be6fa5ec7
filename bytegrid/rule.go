package bytegrid

// Rule says how a field's value is read from bytes (the decode keys of the package doc):
// Spec.Rules[i] is the rule of Spec.Fields[i] (package bytegrid/gridyaml reads them from a spec's
// decode keys; package bytegrid/specdec reads bytes by them). The zero Rule reads the field by its type and
// its bits, at the place the fields before it end.
type Rule struct {
	Endian string // "big", "little", or "" for the spec's byte_order
	Show   string // "hex", "decimal" or "binary"; "" decimal
	Enum   []Name // named values
	Flags  []Name // named bits: Value is the mask
	Length *Expr  // the field's length in bytes, read from the bytes
	When   *Expr  // the field is present when this is not zero
	Count  *Expr  // the number of items (with Items)
	Until  *Expr  // the items end after one for which this is not zero
	// Items are the fields of one item of a field that is a list of items (TCP's options:
	// Kind, Length, Value), read again and again until the field's length runs out (or Count
	// items, or Until says); their offsets count from the item's start.
	Items []Item
}

// Zero reports whether r says nothing more than the field's type and bits.
func (r *Rule) Zero() bool {
	return r.Endian == "" && r.Show == "" && r.Enum == nil && r.Flags == nil && r.Length == nil &&
		r.When == nil && r.Count == nil && r.Until == nil && r.Items == nil
}

// Name is a named value of an enum, or a named mask of flags.
type Name struct {
	Value uint64
	Name  string
}

// Item is a field of an item, and how it is read.
type Item struct {
	Field Field
	Rule  Rule
}
