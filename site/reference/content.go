package reference

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site"
	"github.com/kafkagrid/kafkagrid/site/kafkaview"
)

// The seam between the reference and the packages that encode and draw: package kafka encodes
// the example frames (Catalog.Vectors) and translates each into the generic fields of a byte
// grid and nodes of a tree (kafkaview.NewWith); bytegrid and tree lay them out.

// vectorContent returns the content function of a build: the frames of the versions vs selects
// are encoded once, up front (encoding every version of every API takes milliseconds), and laid
// out per API and version by the workers.
func vectorContent(cat *kafka.Catalog, vs kafka.VersionSet, verbose io.Writer) (contentFunc, error) {
	content, _, err := vectorContentOpts(cat, kafka.VectorOptions{Versions: vs}, verbose)
	return content, err
}

// MaxFields bounds the tree nodes of all the example frames a build draws: some 7 KB of output
// each (grid and tree SVGs, page, book), so about 700 MB at most. Every release has far fewer:
// 4.1 at every version 16,388 in 584 frames (3.9: 17,519); a schema of thousands of fields
// (a 1.9 MB ApiVersionsRequest.json of 20,000) would otherwise make gigabytes.
const MaxFields = 100_000

// vectorContentOpts is vectorContent with all the examples' options (versions, compression).
// It also returns what the build says of the examples (exampleNotes).
func vectorContentOpts(cat *kafka.Catalog, vo kafka.VectorOptions, verbose io.Writer) (contentFunc, exampleNotes, error) {
	vo.MaxNodes = MaxFields
	notes := exampleNotes{uncompressed: map[*kafka.API][]int16{}}
	vecs, err := cat.Vectors(vo)
	if errors.Is(err, kafka.ErrTooManyFields) {
		return nil, notes, fmt.Errorf("reference: %w; build fewer APIs (-apis) or versions (-versions)", err)
	}
	if err != nil {
		return nil, notes, fmt.Errorf("reference: %w", err)
	}
	for _, v := range vecs {
		if v.Uncompressed {
			notes.uncompressed[v.API] = append(notes.uncompressed[v.API], v.Request.Version)
		}
		notes.misfits = append(notes.misfits, v.Misfits...)
	}
	if verbose != nil {
		for _, v := range vecs {
			for _, s := range v.Skipped {
				fmt.Fprintf(verbose, "kafkagrid: %s %s\n", v.Request.BaseName()[:strings.LastIndex(v.Request.BaseName(), "-")], s)
			}
		}
	}
	type key struct {
		api *kafka.API
		v   int16
	}
	byAPI := make(map[key]kafka.Vector, len(vecs))
	for _, v := range vecs {
		byAPI[key{v.API, v.Request.Version}] = v
	}
	return func(a *kafka.API, version int16, f Format) (*apiContent, error) {
		v, ok := byAPI[key{a, version}]
		if !ok || v.Request == nil || v.Response == nil {
			return nil, fmt.Errorf("reference: %s v%d: no example frames", a.Name, version)
		}
		req, err := frameMessage(v.Request, kafkaview.Options{}, f)
		if err != nil {
			return nil, err
		}
		resp, err := frameMessage(v.Response, kafkaview.Options{}, f)
		if err != nil {
			return nil, err
		}
		return &apiContent{API: a, Version: version, Request: req, Response: resp}, nil
	}, notes, nil
}

// exampleNotes is what a build says of its example frames, once: the versions of each API
// whose records may not carry the codec asked for (kafka.Vector.Uncompressed, highest first),
// and the values chosen by a field's name that its type cannot hold (kafka.Misfit).
type exampleNotes struct {
	uncompressed map[*kafka.API][]int16
	misfits      []kafka.Misfit
}

// frameMessage lays out one frame as a byte grid and a tree, and renders the forms f asks for.
// vo gives the view the decoder (and, for a response, its request) that draws the frame an
// Envelope carries as that frame.
func frameMessage(fr *kafka.Frame, vo kafkaview.Options, f Format) (*message, error) {
	base := fr.BaseName()
	nested := -1 // the pages draw the records of compressed batches; the SVG files and the book do not
	if f&HTML != 0 {
		nested = 0
	}
	fs, err := site.Draw(fr, site.Options{View: vo, Noun: "example", Narrow: f&HTML != 0, MaxNested: nested})
	if err != nil {
		return nil, fmt.Errorf("reference: %s: %w", base, err)
	}
	m := &message{
		Base: base, Response: fr.Response, Bytes: fr.Bytes,
		Grid: fs.Grid, Narrow: fs.Narrow, Tree: fs.Tree,
		Fields: fs.Fields, Nested: fs.Nested,
	}
	if f&JSON != 0 {
		var buf bytes.Buffer
		if err := fr.WriteJSON(&buf, "", "  "); err != nil {
			return nil, fmt.Errorf("reference: %s: json: %w", base, err)
		}
		buf.WriteByte('\n')
		m.JSON = buf.Bytes()
	}
	if f&Text != 0 {
		var buf bytes.Buffer
		if err := writeMessageText(&buf, fs.Name, fs.Grid, fs.Tree); err != nil {
			return nil, fmt.Errorf("reference: %s: text: %w", base, err)
		}
		m.Text = buf.Bytes()
	}
	return m, nil
}
