// Package reference builds the reference of a Kafka release's wire protocol, the output of
// "kafkagrid build": for every API of a catalogue (kafka.Catalog), the example request and
// response at the API's highest version, as
//
//   - svg/<key>-<Api>-v<version>-{request,response}-{grid,tree}.svg: standalone SVG drawings
//     (canvas/svgcanvas), embeddable as they are;
//   - index.html and api/<Api>.html: pages with the drawings inline, a hex dump, the API's
//     edge cases (kafka.EdgeCase) drawn like its example, a table of the request's and
//     response's fields with the schema's "about" text, the raw schemas with line numbers and
//     light colouring, and hover linking between a tree node, its grid field and its bytes
//     (data-path); the index also describes the cluster every example draws its values from
//     (kafka.BuiltinStory); no network, light and dark, printable (a drawing taller than a
//     page prints at its width-fitted scale in parts of whole rows, print-only SVGs hidden on
//     screen, as browsers cannot cut one SVG between rows);
//   - kafka-<release>-protocol.pdf: a book with a cover, a linked table of contents, how to
//     read it, the cluster of the examples, an outline (category, API, request, response, edge
//     cases, fields, schemas) and one chapter per API, the drawings painted as vectors
//     (canvas/pdfcanvas) and split between rows across pages. Every tree is drawn at one scale
//     (treeWidth); the few wider than the page at that scale are printed in two column windows,
//     the second repeating the Name column beside the columns the first left out, never
//     shrunk and never cut through a text run;
//   - bin/<base>.bin (the frames), json/<base>.json (annotated frames), txt/<base>.txt (the
//     byte grid as RFC ASCII art and the tree as text).
//
// With Options.Decoder (the command compiled to WebAssembly), the html format also writes
// decode.html, the browser decoder (decoder.go): "kafkagrid decode" run in the page on bytes
// pasted or dropped, with each release's schemas shipped as data; every page's header links to
// it. WriteDecoder writes that page alone.
//
// Show prints one of these for one API (kafkagrid show).
//
// BuildSite builds the references of several releases into one site, with an API's matrix of
// releases and versions, a page per release (the diff against the one before, from the same
// DiffDoc as "kafkagrid diff"), releases.json, the fields' history on every field table, a
// search box and a release switcher on every page (site.go); History reads all of it from
// the schemas alone (matrix.go).
//
// # Data flow
//
// Package kafka encodes the example frames (Catalog.Vectors); package site/kafkaview turns
// each into the generic inputs of the drawing packages: the fields of a byte grid and the nodes
// of a tree, sharing group colours and data-paths. bytegrid and tree lay them out once; each
// layout is a canvas.Drawing, written into SVG files, inline SVG and printed parts by
// svgcanvas.Write and placed in the book by pdfcanvas.Place, with pages broken by
// canvas.Paginate. The reference itself knows nothing of the wire format, and draws nothing
// itself but the book's prose.
//
// # Files and determinism
//
// Every file is written to a temporary name in its folder and renamed into place, so an
// interrupted build leaves no half-written file; a build never deletes or touches a file it
// does not write. Two builds of the same input give byte-identical trees: nothing depends on
// map order, the clock or the order in which concurrent work finishes, and the PDF's dates
// come from Options.Date (the command passes SOURCE_DATE_EPOCH) or pdfcanvas.DefaultDate.
//
// # Concurrency
//
// Build lays out and writes the APIs on Options.Workers goroutines and writes the book on one
// more, in index order, as chapters become ready. Build may be called concurrently for
// different output folders.
//
// # Input
//
// The catalogue is trusted to be what kafka.LoadCatalog made of a schema folder; schema text
// shown on pages is escaped, and diagram text is cleaned by the drawing packages.
//
// # Fonts in the book
//
// Prose is set in Go Regular and Go Bold, diagrams and schemas in Go Mono; all are embedded
// as TrueType subsets. The document is set up by pdfcanvas.NewDocument (which embeds Go Mono);
// the book adds the prose fonts. fpdf's subsetter writes into the font bytes it is handed, so
// each document gets private copies.
package reference
