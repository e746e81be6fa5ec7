package tree

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// WriteText writes the diagram as plain text for a terminal, drawn like the tree command
// (├── └── │) with the offset (hex and decimal), length and type in aligned columns on the
// right, numbers right-aligned:
//
//	Name                      Offset  Dec  Length  Type
//	Response                  0x0000    0      12
//	├── ThrottleTimeMs: 0     0x0000    0       4  int32
//	└── Topics [1]            0x0004    4       8  []Topic
//
// Trailing spaces are trimmed. It returns the first write error.
func (d *Diagram) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	// Left column width, in runes: prefix (4 per level) + label + ": " + value.
	left := utf8.RuneCountInString(d.columnName(ColName))
	for i := range d.Rows {
		r := &d.Rows[i]
		n := 4*r.Depth + utf8.RuneCountInString(r.Label)
		if r.Value != "" {
			n += sepRunes(r.Label) + utf8.RuneCountInString(r.Value)
		}
		left = max(left, n)
	}
	var wide [numCols]int
	hex := make([]string, len(d.Rows))
	for c := ColOffset; c < numCols; c++ {
		wide[c] = utf8.RuneCountInString(d.columnName(c))
	}
	for i := range d.Rows {
		r := &d.Rows[i]
		hex[i] = r.hexOffset()
		wide[ColOffset] = max(wide[ColOffset], len(hex[i]))
		wide[ColDec] = max(wide[ColDec], decLen(r.Offset))
		wide[ColLength] = max(wide[ColLength], decLen(r.Length))
	}
	var line []byte
	pad := func(n int) {
		for ; n > 0; n-- {
			line = append(line, ' ')
		}
	}
	right := func(c int, s string) {
		pad(2 + wide[c] - utf8.RuneCountInString(s))
		line = append(line, s...)
	}
	flush := func() {
		line = []byte(strings.TrimRight(string(line), " "))
		line = append(line, '\n')
		bw.Write(line)
		line = line[:0]
	}
	// Header.
	line = append(line, d.columnName(ColName)...)
	pad(left - utf8.RuneCountInString(d.columnName(ColName)))
	for c := ColOffset; c < ColType; c++ {
		right(c, d.columnName(c))
	}
	pad(2)
	line = append(line, d.columnName(ColType)...)
	flush()
	// Rows. last[k] says whether the ancestor at depth k was the last child of its parent,
	// which decides between "│   " and "    " below it.
	var last []bool
	for i := range d.Rows {
		r := &d.Rows[i]
		if len(last) <= r.Depth {
			last = append(last, make([]bool, r.Depth+1-len(last))...)
		}
		last[r.Depth] = r.Last
		n := 0
		for k := 1; k < r.Depth; k++ {
			if last[k] {
				line = append(line, "    "...)
			} else {
				line = append(line, "│   "...)
			}
			n += 4
		}
		if r.Depth > 0 {
			if r.Last {
				line = append(line, "└── "...)
			} else {
				line = append(line, "├── "...)
			}
			n += 4
		}
		line = append(line, r.Label...)
		n += utf8.RuneCountInString(r.Label)
		if r.Value != "" {
			if r.Label != "" {
				line = append(line, ": "...)
			}
			line = append(line, r.Value...)
			n += sepRunes(r.Label) + utf8.RuneCountInString(r.Value)
		}
		pad(left - n)
		right(ColOffset, hex[i])
		right(ColDec, strconv.Itoa(r.Offset))
		right(ColLength, strconv.Itoa(r.Length))
		if r.Type != "" {
			pad(2)
			line = append(line, r.Type...)
		}
		flush()
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("tree: writing text: %w", err)
	}
	return nil
}

func (d *Diagram) columnName(c int) string {
	if c < len(d.Columns) {
		return d.Columns[c].Name
	}
	return ""
}

// hexOffset returns the offset as drawn in the offset column.
func (r *Row) hexOffset() string {
	for _, ru := range r.Runs {
		if ru.Col == ColOffset {
			return ru.S
		}
	}
	return "0x" + strconv.FormatInt(int64(r.Offset), 16)
}
