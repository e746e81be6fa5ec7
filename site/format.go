//go:build !js || !wasm

package site

import (
	"github.com/kafkagrid/kafkagrid/canvas/formats"
)

// The formats' table is not in the browser decoder (js/wasm): its writers (an RFC SVG, a
// layout's JSON by reflection, …) would be linked into the WebAssembly for nothing, since a
// package's variables are set when it starts. There, format_wasm.go has what the decoder's
// packages use (TextWriter), and a report names its files with fixed extensions
// (report_test.go checks them against this table).

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

// FrameFile is the name of a frame's file in format f: base, "-" and figure when the file is
// a drawing of one (FigureGrid, FigureTree; "" for none), and f's extension.
func FrameFile(base, figure string, f Format) string {
	if figure != "" {
		base += "-" + figure
	}
	return base + f.Ext
}
