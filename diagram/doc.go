// Package diagram draws kafkagrid's diagram types — bytegrid (a byte grid from a spec in any
// form the grid readers take) and kafka (a Kafka frame, an example or decoded from hex) — in
// any drawing format, and puts them where documents are made:
//
//   - Drawer.Draw: a type, a source and options, to a drawing (SVG, RFC SVG, text, PDF,
//     layout JSON). A Drawer reads Kafka's catalogues once and is safe for concurrent use.
//   - Handler: an http.Handler speaking Kroki's API (GET /<type>/<format>/<encoded>, POST,
//     options from the query, headers and JSON, Kroki's errors), with bounded memory and a
//     deadline for each phase of a request, to mount on any http.ServeMux.
//   - Drawer.Markdown and Fences: a Markdown text's diagram blocks, found by a CommonMark
//     parser (goldmark) wherever they are (lists, block quotes, any fence form), each
//     replaced by an image link or an inline SVG, every other byte kept.
//   - ReadBook and Drawer.RenderBook: an mdBook preprocessor, one budget for a whole book.
//   - Extension: a goldmark extension, so that a Go site tool renders the blocks itself.
//
// The kafkagrid command's serve, md and mdbook verbs are these calls behind flags.
package diagram
