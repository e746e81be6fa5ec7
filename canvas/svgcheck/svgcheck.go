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
	boxClass := opts.BoxClass
	if boxClass == "" {
		boxClass = "field"
	}
	var errs []error
	bad := func(format string, a ...any) {
		if len(errs) < 10 {
			errs = append(errs, fmt.Errorf("svgcheck: "+format, a...))
		}
	}
	styles := map[string]textStyle{}
	var view rect
	var groups []*group
	var stack []*group // nil entries for groups that are not boxes
	var loose []textRun
	var inText bool
	var textAttrs []xml.Attr
	var textBuf strings.Builder
	d := xml.NewDecoder(bytes.NewReader(svg))
	var inStyle bool
	var styleBuf strings.Builder
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
			switch t.Name.Local {
			case "svg":
				vb := strings.Fields(attr(t.Attr, "viewBox"))
				if len(vb) != 4 {
					bad("root element has no viewBox")
					continue
				}
				view = rect{num(vb[0]), num(vb[1]), num(vb[2]), num(vb[3])}
			case "style":
				inStyle = true
			case "g":
				var g *group
				if hasClass(attr(t.Attr, "class"), boxClass) {
					g = &group{id: attr(t.Attr, "data-path")}
					if g.id == "" {
						g.id = fmt.Sprintf("#%d", len(groups))
					}
					groups = append(groups, g)
				}
				stack = append(stack, g)
			case "rect":
				if g := innermost(stack); g != nil {
					g.rects = append(g.rects, rect{num(attr(t.Attr, "x")), num(attr(t.Attr, "y")), num(attr(t.Attr, "width")), num(attr(t.Attr, "height"))})
				}
			case "text":
				inText = true
				textAttrs = t.Attr
				textBuf.Reset()
			}
		case xml.CharData:
			if inStyle {
				styleBuf.Write(t)
			}
			if inText {
				textBuf.Write(t)
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "style":
				inStyle = false
				for _, m := range classRule().FindAllStringSubmatch(styleBuf.String(), -1) {
					// A class's rules add up: its size and anchor, then its colours in the
					// dark scheme's rules.
					ts := styles[m[1]]
					for _, decl := range strings.Split(m[2], ";") {
						k, v, _ := strings.Cut(decl, ":")
						switch k {
						case "font-size":
							ts.size = num(strings.TrimSuffix(v, "px"))
						case "text-anchor":
							ts.anchor = v
						}
					}
					styles[m[1]] = ts
				}
			case "g":
				if len(stack) > 0 {
					stack = stack[:len(stack)-1]
				}
			case "text":
				inText = false
				run, err := measure(textAttrs, textBuf.String(), styles)
				if err != nil {
					bad("%v", err)
					continue
				}
				if g := innermost(stack); g != nil {
					g.texts = append(g.texts, run)
				} else {
					loose = append(loose, run)
				}
			}
		}
	}
	const eps = 0.02
	for _, r := range loose {
		if !view.contains(r.box, eps) {
			bad("text %q %v leaves the drawing %v", r.s, r.box, view)
		}
	}
	for _, g := range groups {
		for _, r := range g.texts {
			if len(g.rects) == 0 {
				if !view.contains(r.box, eps) {
					bad("%s: text %q %v leaves the drawing", g.id, r.s, r.box)
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
				bad("%s: text %q %v lies outside its box %v", g.id, r.s, r.box, g.rects)
			}
		}
	}
	// Overlap between boxes of different groups (sorted sweep on x would be faster; the
	// drawings are small enough for the pairwise check).
	for i, a := range groups {
		for _, b := range groups[i+1:] {
			for _, ra := range a.rects {
				for _, rb := range b.rects {
					if ra.overlaps(rb, eps) {
						bad("boxes of %s %v and %s %v overlap", a.id, ra, b.id, rb)
					}
				}
			}
			if opts.Rows {
				for _, ta := range a.texts {
					for _, tb := range b.texts {
						if ta.box.overlaps(tb.box, eps) {
							bad("text %q of %s overlaps %q of %s", ta.s, a.id, tb.s, b.id)
						}
					}
				}
			}
		}
	}
	return errors.Join(errs...)
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
