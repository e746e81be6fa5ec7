// Package formats is the table of the formats kafkagrid writes (svg, rfcsvg, txt, pdf, json,
// html, bin, yaml, notation): each one's name, aliases, file suffixes and media type, and, for
// a drawing's format, how a canvas.Drawing is written in it. It imports only the canvas
// writers, so that a program that draws byte grids (bytegrid/forms) looks up "svg" without
// linking the Kafka codec; package site re-exports it for the Kafka reference.
package formats

import (
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"path/filepath"
	"strings"
	"time"

	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/canvas/rfcsvg"
	"github.com/kafkagrid/kafkagrid/canvas/svgcanvas"
)

// Format is one output format kafkagrid writes: the name -format reads, the extension its
// files have, the media type the server sends it as, and, for a format a drawing is written
// in, how (gonum/plot's vg/draw.RegisterFormat in one table). All lists them; grid,
// show, build, the reports and the server read it instead of switches of their own.
type Format struct {
	Name        string   // what -format and a request's outputFormat say: "svg"
	Ext         string   // its files' extension: ".svg"
	ContentType string   // its media type: "image/svg+xml"
	Aliases     []string // other names -format reads as it ("text" for txt)
	Suffixes    []string // other file suffixes read as it (".text", ".yml")
	// Write writes a drawing (a byte grid or a tree) in the format; nil for a format that is
	// not a drawing's (html, bin, yaml, notation).
	Write func(w io.Writer, d canvas.Drawing, o WriteOptions) error
}

// WriteOptions say how Format.Write writes a drawing. The zero value writes a standalone file
// named by the drawing's own title and description.
type WriteOptions struct {
	Title, Desc string    // the accessible name and description (the PDF's title); empty: the drawing's
	Inline      bool      // SVG without its XML prolog, for HTML
	IDPrefix    string    // the SVG root's id (svgcanvas.WriteOptions); empty means a hash
	Date        time.Time // the PDF's dates; zero means canvas/pdfcanvas.DefaultDate
	Theme       string    // the SVG's palette: svgcanvas.ThemeAuto (or empty), ThemeLight, ThemeDark
}

// TextWriter is what a drawing that can be written as text (the RFC-style ASCII art of the
// byte grid, the indented tree) has besides canvas.Drawing: the optional capability the txt
// format's Write asks for.
type TextWriter interface {
	WriteText(io.Writer) error
}

// The formats, in the order messages list them.
var (
	SVG = Format{Name: "svg", Ext: ".svg", ContentType: "image/svg+xml", Write: func(w io.Writer, d canvas.Drawing, o WriteOptions) error {
		return svgcanvas.Write(w, d, svgcanvas.WriteOptions{Title: o.Title, Desc: o.Desc, Inline: o.Inline, IDPrefix: o.IDPrefix, Theme: o.Theme})
	}}
	RFCSVG = Format{Name: "rfcsvg", Ext: ".svg", ContentType: "image/svg+xml", Write: func(w io.Writer, d canvas.Drawing, o WriteOptions) error {
		return rfcsvg.Write(w, d, rfcsvg.WriteOptions{Title: o.Title, Desc: o.Desc, Inline: o.Inline})
	}}
	Text = Format{Name: "txt", Ext: ".txt", ContentType: "text/plain; charset=utf-8", Aliases: []string{"text"}, Suffixes: []string{".text"},
		Write: func(w io.Writer, d canvas.Drawing, _ WriteOptions) error {
			t, ok := d.(TextWriter)
			if !ok {
				return fmt.Errorf("formats: a %T is not written as text", d)
			}
			return t.WriteText(w)
		}}
	PDF = Format{Name: "pdf", Ext: ".pdf", ContentType: "application/pdf", Write: writePDF}
	// JSON writes a drawing's layout (boxes, lines and measured text runs), indented.
	JSON = Format{Name: "json", Ext: ".json", ContentType: "application/json", Write: func(w io.Writer, d canvas.Drawing, _ WriteOptions) error {
		b, err := json.MarshalIndent(d, "", "  ")
		if err != nil {
			return err
		}
		_, err = w.Write(append(b, '\n'))
		return err
	}}
	HTML     = Format{Name: "html", Ext: ".html", ContentType: "text/html; charset=utf-8"}
	Bin      = Format{Name: "bin", Ext: ".bin", ContentType: "application/octet-stream"}
	YAML     = Format{Name: "yaml", Ext: ".yaml", ContentType: "application/yaml", Suffixes: []string{".yml"}}
	Notation = Format{Name: "notation", Ext: ".txt", ContentType: "text/plain; charset=utf-8"}
)

// All are every output format, in the order messages list them. Where two share an
// extension or a media type (svg and rfcsvg, txt and notation), the first is the one a file's
// suffix or an Accept header names.
var All = []Format{SVG, RFCSVG, Text, PDF, JSON, HTML, Bin, YAML, Notation}

// Lookup returns the format a name or alias names, whatever its case ("SVG", "text").
func Lookup(name string) (Format, bool) {
	name = strings.ToLower(strings.TrimSpace(name))
	for _, f := range All {
		if f.Name == name {
			return f, true
		}
		for _, a := range f.Aliases {
			if a == name {
				return f, true
			}
		}
	}
	return Format{}, false
}

// OfFile returns the format a file's suffix names, whatever its case ("out.SVG"): the
// first of All with that extension or suffix.
func OfFile(name string) (Format, bool) {
	ext := strings.ToLower(filepath.Ext(name))
	if ext == "" {
		return Format{}, false
	}
	for _, f := range All {
		if f.Ext == ext {
			return f, true
		}
		for _, s := range f.Suffixes {
			if s == ext {
				return f, true
			}
		}
	}
	return Format{}, false
}

// OfType returns the format of a media type ("image/svg+xml", "text/plain;
// charset=utf-8"): the first of All whose ContentType has that type, its parameters
// aside.
func OfType(mediaType string) (Format, bool) {
	mt, _, err := mime.ParseMediaType(mediaType)
	if err != nil {
		return Format{}, false
	}
	for _, f := range All {
		if t, _, _ := mime.ParseMediaType(f.ContentType); t == mt {
			return f, true
		}
	}
	return Format{}, false
}

// List is names as an error message lists them: "svg, txt or json".
func List(names ...string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
