// Package svgcheck verifies a finished SVG from its own geometry, independently of the layout
// that produced it: that it is well-formed XML, that every text run lies inside the box it labels
// and that no two boxes overlap. It reads what the SVG backend writes (canvas/svgcanvas): font
// sizes from the generated classes of the <style>, text anchors likewise, and measures text with
// the Go Mono metrics (width = runes × 0.6 × size; height from the size, mono.Ascent above the
// baseline and mono.Descent below).
//
// What is a "box" is configurable, so the check serves the byte grid and the tree alike:
//
//   - Grid (the default, Check): every <g> whose class holds "field" is a box; its <rect>s are
//     its area (a field spanning rows has one rect per row); each <text> in it must lie inside
//     one of its rects, and no rect of one field may overlap a rect of another.
//   - Options.BoxClass names another class (the tree uses "node"): each such group's text must
//     lie inside the union of the group's rects if it has any, else inside the drawing, and
//     with Options.Rows each group's text runs must not overlap those of other groups.
//
// Text outside any box (rulers, legends, offsets) is only checked to lie inside the viewBox.
package svgcheck

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/kafkagrid/kafkagrid/internal/mono"
)

// Options select what Check treats as a box.
type Options struct {
	// BoxClass is the class of the groups that are boxes; "" means "field".
	BoxClass string
	// Rows makes the text of different boxes an error when it overlaps (for drawings whose
	// boxes have no rects, like the tree's rows).
	Rows bool
}

// Check verifies a byte-grid SVG (Options{}).
func Check(svg []byte) error { return CheckWith(svg, Options{}) }

type rect struct{ x, y, w, h float64 }

func (r rect) contains(o rect, eps float64) bool {
	return o.x >= r.x-eps && o.y >= r.y-eps && o.x+o.w <= r.x+r.w+eps && o.y+o.h <= r.y+r.h+eps
}

func (r rect) overlaps(o rect, eps float64) bool {
	return r.x+eps < o.x+o.w && o.x+eps < r.x+r.w && r.y+eps < o.y+o.h && o.y+eps < r.y+r.h
}

type textRun struct {
	s   string
	box rect
}

type group struct {
	id    string
	rects []rect
	texts []textRun
}

type textStyle struct {
	size   float64
	anchor string
}

var classRule = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\.(t[0-9]+)\{([^}]*)\}`) })

// CheckWith verifies svg with the given options. It reports up to ten problems, joined.
func CheckWith(svg []byte, opts Options) error {
	c := &checker{boxClass: opts.BoxClass, styles: map[string]textStyle{}}
	if c.boxClass == "" {
		c.boxClass = "field"
	}
	d := xml.NewDecoder(bytes.NewReader(svg))
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("svgcheck: not well-formed XML: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			c.start(t)
		case xml.CharData:
			if c.inStyle {
				c.styleBuf.Write(t)
			}
			if c.inText {
				c.textBuf.Write(t)
			}
		case xml.EndElement:
			c.end(t)
		}
	}
	c.checkTexts()
	c.checkOverlaps(opts.Rows)
	return errors.Join(c.errs...)
}

// eps is how far a box may pass another before it counts.
const eps = 0.02

// checker is what CheckWith has read of the SVG so far, and the problems found.
type checker struct {
	boxClass  string
	errs      []error
	styles    map[string]textStyle
	view      rect
	groups    []*group
	stack     []*group // nil entries for groups that are not boxes
	loose     []textRun
	inText    bool
	textAttrs []xml.Attr
	textBuf   strings.Builder
	inStyle   bool
	styleBuf  strings.Builder
}

// bad records a problem, up to ten.
func (c *checker) bad(format string, a ...any) {
	if len(c.errs) < 10 {
		c.errs = append(c.errs, fmt.Errorf("svgcheck: "+format, a...))
	}
}

// start reads an element's start: the drawing's viewBox, a box's group, rectangle or text.
func (c *checker) start(t xml.StartElement) {
	switch t.Name.Local {
	case "svg":
		vb := strings.Fields(attr(t.Attr, "viewBox"))
		if len(vb) != 4 {
			c.bad("root element has no viewBox")
			return
		}
		c.view = rect{num(vb[0]), num(vb[1]), num(vb[2]), num(vb[3])}
	case "style":
		c.inStyle = true
	case "g":
		var g *group
		if hasClass(attr(t.Attr, "class"), c.boxClass) {
			g = &group{id: attr(t.Attr, "data-path")}
			if g.id == "" {
				g.id = fmt.Sprintf("#%d", len(c.groups))
			}
			c.groups = append(c.groups, g)
		}
		c.stack = append(c.stack, g)
	case "rect":
		if g := innermost(c.stack); g != nil {
			g.rects = append(g.rects, rect{num(attr(t.Attr, "x")), num(attr(t.Attr, "y")), num(attr(t.Attr, "width")), num(attr(t.Attr, "height"))})
		}
	case "text":
		c.inText = true
		c.textAttrs = t.Attr
		c.textBuf.Reset()
	}
}

// end reads an element's end: the stylesheet's text classes, a group closed, a text measured.
func (c *checker) end(t xml.EndElement) {
	switch t.Name.Local {
	case "style":
		c.inStyle = false
		c.readStyles()
	case "g":
		if len(c.stack) > 0 {
			c.stack = c.stack[:len(c.stack)-1]
		}
	case "text":
		c.inText = false
		run, err := measure(c.textAttrs, c.textBuf.String(), c.styles)
		if err != nil {
			c.bad("%v", err)
			return
		}
		if g := innermost(c.stack); g != nil {
			g.texts = append(g.texts, run)
		} else {
			c.loose = append(c.loose, run)
		}
	}
}

// readStyles reads the text classes of the stylesheet read: a class's rules add up, its size
// and anchor, then its colours in the dark scheme's rules.
func (c *checker) readStyles() {
	for _, m := range classRule().FindAllStringSubmatch(c.styleBuf.String(), -1) {
		ts := c.styles[m[1]]
		for _, decl := range strings.Split(m[2], ";") {
			k, v, _ := strings.Cut(decl, ":")
			switch k {
			case "font-size":
				ts.size = num(strings.TrimSuffix(v, "px"))
			case "text-anchor":
				ts.anchor = v
			}
		}
		c.styles[m[1]] = ts
	}
}

// checkTexts checks that every text lies in the drawing, and a box's in one of its rectangles.
func (c *checker) checkTexts() {
	for _, r := range c.loose {
		if !c.view.contains(r.box, eps) {
			c.bad("text %q %v leaves the drawing %v", r.s, r.box, c.view)
		}
	}
	for _, g := range c.groups {
		for _, r := range g.texts {
			if len(g.rects) == 0 {
				if !c.view.contains(r.box, eps) {
					c.bad("%s: text %q %v leaves the drawing", g.id, r.s, r.box)
				}
				continue
			}
			ok := false
			for _, b := range g.rects {
				if b.contains(r.box, eps) {
					ok = true
					break
				}
			}
			if !ok {
				c.bad("%s: text %q %v lies outside its box %v", g.id, r.s, r.box, g.rects)
			}
		}
	}
}

// checkOverlaps checks that no boxes of different groups overlap, nor, with rows, their texts.
func (c *checker) checkOverlaps(rows bool) {
	// Overlap between boxes of different groups (sorted sweep on x would be faster; the
	// drawings are small enough for the pairwise check).
	for i, a := range c.groups {
		for _, b := range c.groups[i+1:] {
			for _, ra := range a.rects {
				for _, rb := range b.rects {
					if ra.overlaps(rb, eps) {
						c.bad("boxes of %s %v and %s %v overlap", a.id, ra, b.id, rb)
					}
				}
			}
			if rows {
				for _, ta := range a.texts {
					for _, tb := range b.texts {
						if ta.box.overlaps(tb.box, eps) {
							c.bad("text %q of %s overlaps %q of %s", ta.s, a.id, tb.s, b.id)
						}
					}
				}
			}
		}
	}
}

func innermost(stack []*group) *group {
	for i := len(stack) - 1; i >= 0; i-- {
		if stack[i] != nil {
			return stack[i]
		}
	}
	return nil
}

// measure returns the box of a text element from its x, y, class (for size and anchor) and
// its content.
func measure(attrs []xml.Attr, s string, styles map[string]textStyle) (textRun, error) {
	var ts textStyle
	found := false
	for _, c := range strings.Fields(attr(attrs, "class")) {
		if st, ok := styles[c]; ok {
			ts, found = st, true
		}
	}
	if v := attr(attrs, "font-size"); v != "" {
		ts.size, found = num(strings.TrimSuffix(v, "px")), true
	}
	if v := attr(attrs, "text-anchor"); v != "" {
		ts.anchor = v
	}
	if !found || ts.size <= 0 {
		return textRun{}, fmt.Errorf("text %q has no known font size", s)
	}
	x, y := num(attr(attrs, "x")), num(attr(attrs, "y"))
	w := mono.Width(s, ts.size)
	switch ts.anchor {
	case "middle":
		x -= w / 2
	case "end":
		x -= w
	}
	return textRun{s: s, box: rect{x, y - mono.Ascent*ts.size, w, (mono.Ascent + mono.Descent) * ts.size}}, nil
}

func attr(attrs []xml.Attr, name string) string {
	for _, a := range attrs {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

func hasClass(list, c string) bool {
	for _, f := range strings.Fields(list) {
		if f == c {
			return true
		}
	}
	return false
}

func num(s string) float64 {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return 0
	}
	return v
}
