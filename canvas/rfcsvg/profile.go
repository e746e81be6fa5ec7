package rfcsvg

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"
)

// The profile, SVG 1.2 RFC: RFC 7996 section 2.1 as the IETF's own checker encodes it
// (ietf-tools/svgcheck, svgcheck/word_properties.py, the version at commit 8ae0c5d: the
// elements and the attributes each may carry, the properties any element may carry with their
// allowed values, and which elements may be children of which). Check follows that version
// exactly, with its "<tbreak>" attribute list (id, base, lang, class, rel, rev, typeof,
// content, datatype, resource, about, property, space, fill-rule) allowed on every element.

// profileElements maps each allowed element to the attributes of its own.
var profileElements = map[string][]string{
	"svg":        {"version", "baseProfile", "width", "viewBox", "preserveAspectRatio", "snapshotTime", "height", "id", "role", "break", "color-rendering", "fill-rule"},
	"desc":       {"id", "role", "shape-rendering", "text-rendering", "buffered-rendering", "visibility"},
	"title":      {"id", "role", "shape-rendering", "text-rendering", "buffered-rendering", "visibility"},
	"path":       {"d", "pathLength", "stroke-miterlimit", "id", "role", "fill", "style", "transform", "font-size", "fill-rule"},
	"rect":       {"x", "y", "width", "height", "rx", "ry", "stroke-miterlimit", "id", "role", "fill", "style", "transform", "fill-rule"},
	"circle":     {"cx", "cy", "r", "id", "role", "fill", "style", "transform", "fill-rule"},
	"line":       {"x1", "y1", "x2", "y2", "id", "role", "fill", "transform", "fill-rule"},
	"ellipse":    {"cx", "cy", "rx", "ry", "id", "role", "fill", "style", "transform", "fill-rule"},
	"polyline":   {"points", "id", "role", "fill", "transform", "fill-rule"},
	"polygon":    {"points", "id", "role", "fill", "style", "transform", "fill-rule"},
	"solidColor": {"id", "role", "fill", "fill-rule"},
	"textArea":   {"x", "y", "width", "height", "auto", "id", "role", "fill", "transform", "fill-rule"},
	"text":       {"x", "y", "rotate", "id", "role", "fill", "style", "transform", "font-size", "fill-rule"},
	"g":          {"label", "class", "id", "role", "fill", "style", "transform", "fill-rule", "visibility"},
	"defs":       {"id", "role", "fill", "fill-rule"},
	"use":        {"x", "y", "href", "id", "role", "fill", "transform", "fill-rule"},
	"a":          {"id", "role", "fill", "transform", "fill-rule", "target"},
	"tspan":      {"x", "y", "id", "role", "fill", "fill-rule"},
	"tbreak":     {"id", "role"},
}

// tbreakAttrs are allowed on every element ("<tbreak>" in the checker's lists).
var tbreakAttrs = []string{"id", "base", "lang", "class", "rel", "rev", "typeof", "content", "datatype", "resource", "about", "property", "space", "fill-rule"}

// Value classes of the profile.
var (
	profileColor = []string{"black", "#ffffff", "#FFFFFF", "white", "#000000"}
	profilePaint = append([]string{"none", "currentColor", "inherit"}, profileColor...)
)

// profileProps are the properties any element may carry; nil means any value, "<number>" a
// number.
var profileProps = map[string][]string{
	"about": nil, "base": nil, "baseProfile": nil, "d": nil, "break": nil, "class": nil, "content": nil,
	"cx": {"<number>"}, "cy": {"<number>"}, "datatype": nil, "height": {"<number>"}, "href": nil, "id": nil,
	"label": nil, "lang": nil, "pathLength": nil, "points": nil, "preserveAspectRatio": nil, "property": nil,
	"r": {"<number>"}, "rel": nil, "resource": nil, "rev": nil, "role": nil, "rotate": nil,
	"rx": {"<number>"}, "ry": {"<number>"}, "space": nil, "snapshotTime": nil, "transform": nil, "typeof": nil,
	"version": nil, "width": {"<number>"}, "viewBox": {"<number>"},
	"x": {"<number>"}, "x1": {"<number>"}, "x2": {"<number>"}, "y": {"<number>"}, "y1": {"<number>"}, "y2": {"<number>"},
	"stroke":                profilePaint,
	"stroke-width":          nil,
	"stroke-linecap":        {"butt", "round", "square", "inherit"},
	"stroke-linejoin":       {"miter", "round", "bevel", "inherit"},
	"stroke-miterlimit":     nil,
	"stroke-dasharray":      nil,
	"stroke-dashoffset":     nil,
	"stroke-opacity":        nil,
	"vector-effect":         {"non-scaling-stroke", "none", "inherit"},
	"viewport-fill":         append([]string{"none", "currentColor", "inherit"}, profileColor...),
	"display":               {"inline", "block", "list-item", "run-in", "compact", "table", "inline-table", "table-row-group", "table-header-group", "table-footer-group", "table-row", "table-column-group", "table-column", "table-cell", "table-caption", "none", "inherit"},
	"viewport-fill-opacity": nil,
	"visibility":            {"visible", "hidden", "collapse", "inherit"},
	"image-rendering":       {"auto", "optimizeSpeed", "optimizeQuality", "inherit"},
	"color-rendering":       {"auto", "optimizeSpeed", "optimizeQuality", "inherit"},
	"shape-rendering":       {"auto", "optimizeSpeed", "crispEdges", "geometricPrecision", "inherit"},
	"text-rendering":        {"auto", "optimizeSpeed", "optimizeLegibility", "geometricPrecision", "inherit"},
	"buffered-rendering":    {"auto", "dynamic", "static", "inherit"},
	"solid-opacity":         nil,
	"solid-color":           append([]string{"currentColor", "inherit"}, profileColor...),
	"color":                 append([]string{"currentColor", "inherit"}, profileColor...),
	"stop-color":            append([]string{"currentColor", "inherit"}, profileColor...),
	"stop-opacity":          nil,
	"line-increment":        nil,
	"text-align":            {"start", "end", "center", "inherit"},
	"display-align":         {"auto", "before", "center", "after", "inherit"},
	"font-size":             nil,
	"font-family":           {"serif", "sans-serif", "monospace", "inherit"},
	"font-weight":           {"normal", "bold", "bolder", "lighter", "inherit", "100", "200", "300", "400", "500", "600", "700", "800", "900"},
	"font-style":            {"normal", "italic", "oblique", "inherit"},
	"font-variant":          {"normal", "small-caps", "inherit"},
	"direction":             {"ltr", "rtl", "inherit"},
	"unicode-bidi":          {"normal", "embed", "bidi-override", "inherit"},
	"text-anchor":           {"start", "middle", "end", "inherit"},
	"fill":                  append([]string{"none", "inherit"}, profileColor...),
	"fill-rule":             {"nonzero", "evenodd", "inherit"},
	"fill-opacity":          nil,
	"requiredFeatures":      nil, "requiredFormats": nil, "requiredExtensions": nil, "requiredFonts": nil, "systemLanguage": nil,
}

var (
	svgChildren  = []string{"title", "path", "rect", "circle", "line", "ellipse", "polyline", "polygon", "solidColor", "textArea", "text", "g", "defs", "use", "a", "tspan", "desc"}
	textChildren = []string{"desc", "title", "tspan", "text", "a"}
	shapeKids    = []string{"title", "desc"}
)

// profileChildren maps each element to the elements it may contain.
var profileChildren = map[string][]string{
	"svg": svgChildren, "g": svgChildren, "defs": svgChildren, "a": svgChildren,
	"desc": {"text"}, "title": {"text"},
	"path": shapeKids, "rect": shapeKids, "circle": shapeKids, "line": shapeKids, "ellipse": shapeKids,
	"polyline": shapeKids, "polygon": shapeKids, "solidColor": shapeKids, "use": shapeKids,
	"textArea": textChildren, "text": textChildren,
	"tspan": append(append([]string{}, textChildren...), "tbreak"),
}

const svgNS = "http://www.w3.org/2000/svg"

// The namespaces an attribute may be in besides none and SVG's (xml: and xlink:).
var attrNamespaces = []string{svgNS, "http://www.w3.org/1999/xlink", "http://www.w3.org/XML/1998/namespace", "xml", "xmlns"}

var numberRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?(\s*[, ]\s*[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?)*\s*$`)
})

// Check reports every way svg departs from the SVG 1.2 RFC profile (see the lists above): an
// element that is not in it or not allowed where it is, an attribute an element may not carry,
// a property value the profile does not allow (a colour other than black and white, a font
// other than the generic families), a root without a viewBox. It reports at most 20 problems,
// each with its byte offset.
func Check(svg []byte) error {
	d := xml.NewDecoder(bytes.NewReader(svg))
	var c checker
	for {
		off := d.InputOffset()
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return errors.Join(append(c.errs, fmt.Errorf("offset %d: %v", off, err))...)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			c.start(off, t)
		case xml.EndElement:
			if len(c.stack) > 0 {
				c.stack = c.stack[:len(c.stack)-1]
			}
		case xml.ProcInst:
			if t.Target != "xml" {
				c.bad(off, "processing instruction <?%s?>", t.Target)
			}
		case xml.Directive:
			c.bad(off, "directive <!%s>", strings.Fields(string(t))[0])
		}
	}
	if !c.sawRoot {
		c.errs = append(c.errs, errors.New("no <svg> element"))
	}
	return errors.Join(c.errs...)
}

// checker is Check's state: the problems found, the open elements, whether the root was seen.
type checker struct {
	errs    []error
	stack   []string
	sawRoot bool
}

// bad records a problem at the byte offset off, up to 20.
func (c *checker) bad(off int64, format string, a ...any) {
	if len(c.errs) < 20 {
		c.errs = append(c.errs, fmt.Errorf("offset %d: "+format, append([]any{off}, a...)...))
	}
}

// start checks an element where it stands, and its attributes.
func (c *checker) start(off int64, t xml.StartElement) {
	name := t.Name.Local
	if t.Name.Space != svgNS {
		c.bad(off, "element <%s> in namespace %q, not SVG's", name, t.Name.Space)
	}
	own, ok := profileElements[name]
	if !ok {
		c.bad(off, "element <%s> is not in the profile", name)
	}
	if len(c.stack) == 0 {
		if c.sawRoot || name != "svg" {
			c.bad(off, "root element <%s>: want one <svg>", name)
		}
		c.sawRoot = true
	} else if parent := c.stack[len(c.stack)-1]; !contains(profileChildren[parent], name) {
		c.bad(off, "<%s> may not be a child of <%s>", name, parent)
	}
	hasViewBox := false
	for _, a := range t.Attr {
		hasViewBox = c.attr(off, name, own, a) || hasViewBox
	}
	if len(c.stack) == 0 && !hasViewBox {
		c.bad(off, "the root <svg> has no viewBox")
	}
	c.stack = append(c.stack, name)
}

// attr checks one attribute a of the element name, whose own attributes are own; it reports
// whether a is a viewBox.
func (c *checker) attr(off int64, name string, own []string, a xml.Attr) (viewBox bool) {
	an := a.Name.Local
	if a.Name.Space == "" && an == "xmlns" || a.Name.Space == "xmlns" {
		if a.Value != svgNS && a.Name.Space == "" {
			c.bad(off, "<%s> declares the default namespace %q", name, a.Value)
		}
		return false
	}
	if a.Name.Space != "" && !contains(attrNamespaces, a.Name.Space) {
		c.bad(off, "<%s> attribute %s:%s: namespace not allowed", name, a.Name.Space, an)
		return false
	}
	viewBox = an == "viewBox"
	vals, isProp := profileProps[an]
	switch {
	case !contains(own, an) && !contains(tbreakAttrs, an) && !isProp:
		c.bad(off, "<%s> may not carry the attribute %q", name, an)
	case an == "style":
		c.bad(off, "<%s> has a style attribute, which the checker rewrites", name)
	case isProp && len(vals) > 0 && !valueOK(vals, a.Value):
		c.bad(off, "<%s> %s=%q: not a value the profile allows", name, an, a.Value)
	}
	return viewBox
}

// valueOK reports whether v is one of vals ("<number>": a number, or a list of them).
func valueOK(vals []string, v string) bool {
	for _, a := range vals {
		if a == "<number>" {
			if numberRE().MatchString(v) {
				return true
			}
			continue
		}
		if v == a {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
