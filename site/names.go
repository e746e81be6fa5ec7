package site

// The file-naming scheme every output shares (the reference's files and pages, a capture
// report's frames, the README's pictures): a frame's files are named from its base name,
// kafka.BaseName's "<api key>-<API name>-v<version>-<request|response>"
// ("0-Produce-v12-request"), to which a report prefixes the frame's place in the capture
// ("c1-2-0-Produce-v12-request": connection 1, exchange 2), an edge case appends its name
// ("18-ApiVersions-v0-response-unsupported-version"); then the figure a drawing shows, and
// the format's extension:
//
//	0-Produce-v12-request-grid.svg   the byte grid
//	0-Produce-v12-request-tree.svg   the expanded tree
//	0-Produce-v12-request.json       the annotated frame
//	0-Produce-v12-request.txt        the frame as text
//	0-Produce-v12-request.bin        the frame's bytes

// The figures of a frame: what its drawings show.
const (
	FigureGrid = "grid" // the byte grid
	FigureTree = "tree" // the expanded tree
)

// Prefixed is base with a frame's place before it ("c1-2" for connection 1's second
// exchange): "c1-2-0-Produce-v12-request"; "" leaves base as it is.
func Prefixed(place, base string) string {
	if place == "" {
		return base
	}
	return place + "-" + base
}
