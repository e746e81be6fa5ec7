// Package tree draws a decoded structure as an expanded object tree: every node on its own row,
// nesting shown by connector lines (a vertical rule per parent and an elbow per child, as the
// tree command or Wireshark's packet details draw them), and for each node its name and value on
// the left and its byte offset (hex and decimal), length and wire type in right-hand columns
// that line up across the whole tree. It is the companion of package bytegrid: the same bytes,
// seen as structure, with the same group colours and the same data-path on each node.
//
// The package knows nothing of Kafka. A caller builds a Node tree (package site/kafkaview
// translates an annotated Kafka frame into one), lays it out once with Layout, and uses the
// resulting Diagram as many times as it likes. A Diagram is a canvas.Drawing, like the byte
// grid (its twin, which speaks alike: Layout, Paint, PaintRows, PartHeight, WriteText, Name and
// Desc): svgcanvas.Write writes it as one SVG document, pdfcanvas.Write and pdfcanvas.Place as
// PDF, canvas.Paginate cuts it across pages; Paint draws it on any canvas.Canvas, PaintRows a run
// of rows under the repeated column header; WriteText writes it for a terminal.
//
// # Layout
//
// A Diagram is plain geometry in points (canvas.Pt, origin top left, y down; JSON-tagged, so
// tests store it beside the SVG): the
// column header, one Row per visible node with its chip, elbow and measured text runs, and the
// vertical connector rules. Text is measured with internal/mono (width = runes × 0.6 × size);
// labels, values and types longer than Options.MaxLabel, MaxValue or MaxType runes are cut with
// an ellipsis, and the whole text is kept in the node's tooltip. The left column is as wide as
// its widest row, so no text leaves its column; Diagram.Check verifies that, and more, for any
// Diagram (the fuzz test holds Layout to it). At the default 12 pt a row is 20 pt high and
// each level of nesting indents 16 pt.
//
// Framing nodes (length prefixes, tag sections: Kind.Framing) are drawn muted; with
// Options.HideFraming they are left out and their children, if any, move up to their parent.
//
// Group colours: a node's Group names a colour shared with the byte grid. Options.GroupColors
// maps a group to its colour index so the tree matches the grid exactly; groups it does not
// name take, in order of first appearance (pre-order), the next index that no named group
// uses: style.GroupColors, the one rule of both twins. A node with no group takes its parent's
// group; the root without one is colour 0. In a tree of two groups or more, the chip of each
// row that starts a group (its group differs from its parent's) holds the group's letter
// (style.GroupMark, Row.Mark), the letter the grid's boxes and legend show, so groups read
// without colour too. Tooltips are style.Tip, the grid's too.
//
// # Input
//
// Input is untrusted: labels and values may hold markup, control characters or invalid UTF-8
// (they are cleaned with mono.Clean before measuring and drawing, and painters escape them);
// trees may be 1,000 levels deep or have 100,000 siblings. Layout walks the tree iteratively,
// never recursively, and refuses trees deeper than MaxDepth or with more than MaxRows rows
// (which also catches a node that is its own descendant) with an error.
//
// Layout, Paint and WriteText hold no global state; a Diagram is read-only once made and may be
// painted from several goroutines at once.
//
// # Performance
//
// Layout makes a few allocations per tree, not per row: the rows' runs share one array, and
// the texts it makes (tooltips, offsets, lengths) are carved from one text arena
// (internal/arena). Painting reads only the exported fields and makes the data attributes as
// it goes. The slices of a Row are capped at their length, so appending to one copies it
// rather than overwriting its neighbour. The benchmarks on real Kafka 4.0 frames live beside
// the bridge, in package site/kafkaview: BenchmarkTreeFetchResponse (the Fetch v17 response,
// laid out and written as SVG) and BenchmarkTreeLargestReal (the largest tree of all the 4.0
// frames, the ShareFetch v0 response, 81 nodes).
package tree
