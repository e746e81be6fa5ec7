package site

import (
	"github.com/kafkagrid/kafkagrid/canvas/formats"
)

// Format is one output format kafkagrid writes: package canvas/formats's table, which a
// program that draws only byte grids reads without the Kafka codec.
type Format = formats.Format

// WriteOptions say how Format.Write writes a drawing (formats.WriteOptions).
type WriteOptions = formats.WriteOptions

// TextWriter is what a drawing that can be written as text has besides canvas.Drawing
// (formats.TextWriter).
type TextWriter = formats.TextWriter

// The formats, in the order messages list them (formats.SVG, …).
var (
	FormatSVG      = formats.SVG
	FormatRFCSVG   = formats.RFCSVG
	FormatText     = formats.Text
	FormatPDF      = formats.PDF
	FormatJSON     = formats.JSON
	FormatHTML     = formats.HTML
	FormatBin      = formats.Bin
	FormatYAML     = formats.YAML
	FormatNotation = formats.Notation
)

// Formats are every output format, in the order messages list them (formats.All).
var Formats = formats.All

// LookupFormat returns the format a name or alias names, whatever its case (formats.Lookup).
func LookupFormat(name string) (Format, bool) { return formats.Lookup(name) }

// FormatOfFile returns the format a file's suffix names (formats.OfFile).
func FormatOfFile(name string) (Format, bool) { return formats.OfFile(name) }

// FormatOfType returns the format of a media type (formats.OfType).
func FormatOfType(mediaType string) (Format, bool) { return formats.OfType(mediaType) }

// FormatList is names as an error message lists them: "svg, txt or json" (formats.List).
func FormatList(names ...string) string { return formats.List(names...) }
