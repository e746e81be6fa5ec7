package kafkaview

import (
	"io"
	"testing"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/canvas/svgcanvas"
	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/tree"
)

// The benchmarks of the twins on real Kafka 4.0 frames, as the reference builds them: view,
// layout and SVG. They live here, beside the bridge, so that bytegrid and tree (and their
// tests) know nothing of Kafka.

// benchFrames returns the example frames of every 4.0 API, skipping when the schemas are
// absent ($KAFKA_SCHEMAS, see internal/testenv).
func benchFrames(b *testing.B) []*kafka.Frame {
	b.Helper()
	c, err := kafka.LoadCatalog(testenv.Release(b, "4.0"))
	if err != nil {
		b.Fatal(err)
	}
	vs, err := c.Vectors(kafka.VectorOptions{})
	if err != nil {
		b.Fatal(err)
	}
	var fs []*kafka.Frame
	for _, v := range vs {
		for _, f := range []*kafka.Frame{v.Request, v.Response} {
			if f != nil {
				fs = append(fs, f)
			}
		}
	}
	return fs
}

// benchView returns the view of one 4.0 frame.
func benchView(b *testing.B, api string, response bool) *View {
	b.Helper()
	for _, f := range benchFrames(b) {
		if f.API.Name == api && f.Response == response {
			return New(f)
		}
	}
	b.Fatalf("no %s frame in 4.0", api)
	return nil
}

func benchGrid(b *testing.B, v *View, title string) {
	b.ReportAllocs()
	for b.Loop() {
		d, err := bytegrid.Layout(v.Fields, bytegrid.Options{GroupColors: v.Groups})
		if err != nil {
			b.Fatal(err)
		}
		if err := svgcanvas.Write(io.Discard, d, svgcanvas.WriteOptions{Title: title}); err != nil {
			b.Fatal(err)
		}
	}
}

func benchTree(b *testing.B, v *View, title string) {
	b.ReportAllocs()
	for b.Loop() {
		d, err := tree.Layout(v.Tree, tree.Options{GroupColors: v.Groups, Title: title})
		if err != nil {
			b.Fatal(err)
		}
		if err := svgcanvas.Write(io.Discard, d, svgcanvas.WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGridProduceRequest: the grid of the Produce v12 request. Target: under 200 µs.
func BenchmarkGridProduceRequest(b *testing.B) {
	benchGrid(b, benchView(b, "Produce", false), "Produce")
}

// BenchmarkGridFetchResponse: the grid of the Fetch v17 response.
func BenchmarkGridFetchResponse(b *testing.B) { benchGrid(b, benchView(b, "Fetch", true), "Fetch") }

// BenchmarkTreeFetchResponse: the tree of the Fetch v17 response. Target: under 200 µs.
func BenchmarkTreeFetchResponse(b *testing.B) { benchTree(b, benchView(b, "Fetch", true), "Fetch") }

// BenchmarkTreeProduceRequest: the tree of the Produce v12 request.
func BenchmarkTreeProduceRequest(b *testing.B) {
	benchTree(b, benchView(b, "Produce", false), "Produce")
}

// BenchmarkTreeLargestReal: the largest tree (by node count) of all the 4.0 frames, found
// afresh each run, so it follows the schemas and the vectors; it reports the frame and its
// node count.
func BenchmarkTreeLargestReal(b *testing.B) {
	var best *View
	name, nodes := "", 0
	for _, f := range benchFrames(b) {
		v := New(f)
		if n := countNodes(v.Tree); n > nodes {
			best, nodes, name = v, n, f.BaseName()
		}
	}
	if best == nil {
		b.Fatal("no frames")
	}
	b.Logf("largest 4.0 tree: %s, %d nodes", name, nodes)
	benchTree(b, best, name)
	b.ReportMetric(float64(nodes), "nodes") // after the loop, which resets reported metrics
}

func countNodes(n *tree.Node) int {
	c := 1
	for _, k := range n.Children {
		c += countNodes(k)
	}
	return c
}
