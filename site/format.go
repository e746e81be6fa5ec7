package site

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
// in, how (gonum/plot's vg/draw.RegisterFormat in one table). Formats lists them all; grid,
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
}

// TextWriter is what a drawing that can be written as text (the RFC-style ASCII art of the
// byte grid, the indented tree) has besides canvas.Drawing: the optional capability the txt
// format's Write asks for.
type TextWriter interface {
	WriteText(io.Writer) error
}

// The formats, in the order messages list them.
var (
	FormatSVG = Format{Name: "svg", Ext: ".svg", ContentType: "image/svg+xml", Write: func(w io.Writer, d canvas.Drawing, o WriteOptions) error {
		return svgcanvas.Write(w, d, svgcanvas.WriteOptions{Title: o.Title, Desc: o.Desc, Inline: o.Inline, IDPrefix: o.IDPrefix})
	}}
	FormatRFCSVG = Format{Name: "rfcsvg", Ext: ".svg", ContentType: "image/svg+xml", Write: func(w io.Writer, d canvas.Drawing, o WriteOptions) error {
		return rfcsvg.Write(w, d, rfcsvg.WriteOptions{Title: o.Title, Desc: o.Desc, Inline: o.Inline})
	}}
	FormatText = Format{Name: "txt", Ext: ".txt", ContentType: "text/plain; charset=utf-8", Aliases: []string{"text"}, Suffixes: []string{".text"},
		Write: func(w io.Writer, d canvas.Drawing, _ WriteOptions) error {
			t, ok := d.(TextWriter)
			if !ok {
				return fmt.Errorf("site: a %T is not written as text", d)
			}
			return t.WriteText(w)
		}}
	FormatPDF = Format{Name: "pdf", Ext: ".pdf", ContentType: "application/pdf", Write: writePDF}
	// FormatJSON writes a drawing's layout (boxes, lines and measured text runs), indented.
	FormatJSON = Format{Name: "json", Ext: ".json", ContentType: "application/json", Write: func(w io.Writer, d canvas.Drawing, _ WriteOptions) error {
		b, err := json.MarshalIndent(d, "", "  ")
		if err != nil {
			return err
		}
		_, err = w.Write(append(b, '\n'))
		return err
	}}
	FormatHTML     = Format{Name: "html", Ext: ".html", ContentType: "text/html; charset=utf-8"}
	FormatBin      = Format{Name: "bin", Ext: ".bin", ContentType: "application/octet-stream"}
	FormatYAML     = Format{Name: "yaml", Ext: ".yaml", ContentType: "application/yaml", Suffixes: []string{".yml"}}
	FormatNotation = Format{Name: "notation", Ext: ".txt", ContentType: "text/plain; charset=utf-8"}
)

// Formats are every output format, in the order messages list them. Where two share an
// extension or a media type (svg and rfcsvg, txt and notation), the first is the one a file's
// suffix or an Accept header names.
var Formats = []Format{FormatSVG, FormatRFCSVG, FormatText, FormatPDF, FormatJSON, FormatHTML, FormatBin, FormatYAML, FormatNotation}

// LookupFormat returns the format a name or alias names, whatever its case ("SVG", "text").
func LookupFormat(name string) (Format, bool) {
	name = strings.ToLower(strings.TrimSpace(name))
	for _, f := range Formats {
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

// FormatOfFile returns the format a file's suffix names, whatever its case ("out.SVG"): the
// first of Formats with that extension or suffix.
func FormatOfFile(name string) (Format, bool) {
	ext := strings.ToLower(filepath.Ext(name))
	if ext == "" {
		return Format{}, false
	}
	for _, f := range Formats {
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

// FormatOfType returns the format of a media type ("image/svg+xml", "text/plain;
// charset=utf-8"): the first of Formats whose ContentType has that type, its parameters
// aside.
func FormatOfType(mediaType string) (Format, bool) {
	mt, _, err := mime.ParseMediaType(mediaType)
	if err != nil {
		return Format{}, false
	}
	for _, f := range Formats {
		if t, _, _ := mime.ParseMediaType(f.ContentType); t == mt {
			return f, true
		}
	}
	return Format{}, false
}

// FormatList is names as an error message lists them: "svg, txt or json".
func FormatList(names ...string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
