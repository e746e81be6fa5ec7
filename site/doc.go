// Package site is the one floor of what a person reads: it turns an annotated Kafka frame into
// what a page shows, and holds the look every page shares. The reference (site/reference) and
// the capture report (site/report) are both built on it, so they cannot disagree about
// elision, nesting, the hex dump or the look.
//
//   - [Draw] lays out a frame as its figures: the byte grid 32 bits a row, the same grid 16 bits
//     a row for a phone (Options.Narrow), the expanded tree, each with its title and
//     description; the fields of the detail panel; the records inside compressed batches as
//     nested figures (the frame an Envelope carries is drawn inside its own grid and tree, as
//     the nested frame it is, when Options.View.Decode is set); and, for a frame that failed to
//     decode, the failing field marked and the bytes not decoded as one field.
//   - [HexDump] and [HexHTML] write the one hex dump: text, or HTML whose every byte carries
//     its offset so a page lights the bytes of the field under the pointer.
//   - [WriteMessage] writes one message's drawings, detail panel, hex dumps and detail data on
//     a page, through package site/htmlw (each value escaped for where it stands, no
//     html/template); [MessageTemplates] are the same for a page written with html/template.
//   - [InlineSVG] and [WriteSVG] write a figure as SVG (svgcanvas.Write, the one way a drawing
//     becomes SVG), standalone or inline in a page.
//   - [CSS] and [Script] are the one page stylesheet and the one page script: system fonts
//     only, the reader's light or dark preference, a phone's width, print; the script links a
//     grid box, its tree row, its bytes and the detail panel ([DetailJSON]) of each
//     <section class="msg">. Both are embedded (page.css, page.js) and need no network.
//   - [Formats] and [LookupFormat] are the output formats' table, package canvas/formats's
//     (not in the browser decoder, js/wasm, which would link every writer for nothing),
//     re-exported for the reference and the command.
//
// Site does not name or write files: the file names are the callers', the output folder
// package site/outdir's.
// Everything is deterministic (the same frame gives the same figures and bytes); Draw and the
// other functions are safe for concurrent use. Frames are trusted to be what package kafka
// decoded; their sizes are the caller's to bound (a frame of a million fields lays out a grid
// of a million boxes): see Options.MaxNested for the nested frames.
package site
