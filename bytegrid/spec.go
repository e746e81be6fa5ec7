package bytegrid

import (
	"strconv"
	"strings"
)

// Spec is a protocol header read from a description in any of its forms (YAML, an RFC
// figure, RFC 9000 notation, bit-field JSON: package bytegrid/forms reads them all): what
// Layout lays out, and the title and description the drawing's outputs carry.
type Spec struct {
	Name string // the structure's name; the drawing's title when there is no Caption
	Desc string // its description, for screen readers; may be empty
	// Caption is the figure's caption as printed under it ("Figure 18: Retry Packet"), if
	// any: the drawing's title (Title), an SVG's <title>, md's alt text. Name keeps the
	// structure's own name, which a spec written back in its form is named by.
	Caption string
	Fields  []Field
	Options Options
	// Rules say how real bytes are read into the fields (package bytegrid/specdec): Rules[i]
	// is Fields[i]'s, from a YAML spec's decode keys; nil for a spec that only draws (the
	// fields' widths, and RFC 9000 notation's lengths, then say how bytes are read).
	// LittleEndian is the YAML's byte_order: little.
	Rules        []Rule
	LittleEndian bool
	// Warnings are what a reader of another form (an RFC figure) read but could not draw
	// back as printed, or did not understand: "name:line:col: what", in the order found.
	// gridyaml's own reader leaves it empty, and gridyaml.Write does not write it.
	Warnings []string
}

// Title is what a drawing of the spec is titled: its Caption, else its Name.
func (s *Spec) Title() string {
	if s.Caption != "" {
		return s.Caption
	}
	return s.Name
}

// SpecError is a problem in a spec's source, with its position: the one error type every
// reader of a spec returns (gridyaml, rfcart, notation, bitfield), so that a caller reports
// the place whatever the form, and moves it once into an enclosing document (Within).
type SpecError struct {
	Reader string // the reader, which starts the message: "gridyaml", "rfcart", …
	File   string // the source's name, as given to the reader
	Line   int    // 1-based line, 0 if unknown
	Col    int    // 1-based column (in characters), 0 if unknown
	Field  string // the field the problem is in (its quoted name or "#N"), if any
	Err    error
}

// Error is "reader: file:line:col: field F: what", each part present when known.
func (e *SpecError) Error() string {
	var b strings.Builder
	if e.Reader != "" {
		b.WriteString(e.Reader)
		b.WriteString(": ")
	}
	b.WriteString(e.File)
	if e.Line > 0 {
		b.WriteString(":" + strconv.Itoa(e.Line))
		if e.Col > 0 {
			b.WriteString(":" + strconv.Itoa(e.Col))
		}
	}
	if e.Field != "" {
		b.WriteString(": field " + e.Field)
	}
	b.WriteString(": ")
	if e.Err != nil {
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

func (e *SpecError) Unwrap() error { return e.Err }

// Within returns e moved into the document its source was cut from, named file: the source's
// line 1 is the document's line first, and every column moves right by indent (the spaces
// stripped from each line of a Markdown fence's content). A problem at no line is placed at
// line first.
func (e *SpecError) Within(file string, first, indent int) *SpecError {
	c := *e
	c.File = file
	if c.Line > 0 {
		c.Line += first - 1
	} else {
		c.Line = first
	}
	if c.Col > 0 {
		c.Col += indent
	}
	return &c
}
