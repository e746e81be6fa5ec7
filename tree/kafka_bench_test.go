package tree_test

import (
	"io"
	"testing"

	"github.com/kafkagrid/kafkagrid/internal/testenv"

	"github.com/kafkagrid/kafkagrid/canvas/svgcanvas"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/kafka/kafkaview"
	"github.com/kafkagrid/kafkagrid/tree"
)

// kafkaView returns the view of a real 4.0 frame built through the kafka package, skipping
// when the schemas are absent. $KAFKA_SCHEMAS names a release folder or a folder of releases;
// the default is ../shared/kafka-schemas from the module root.
func kafkaView(b *testing.B, api string, response bool) *kafkaview.View {
	b.Helper()
	vs := kafkaVectors(b)
	for _, v := range vs {
		if v.API.Name == api {
			f := v.Request
			if response {
				f = v.Response
			}
			return kafkaview.New(f)
		}
	}
	b.Fatalf("no API %s among the 4.0 vectors", api)
	return nil
}

// kafkaVectors returns the example frames of every 4.0 API, skipping when the schemas are
// absent.
func kafkaVectors(b *testing.B) []kafka.Vector {
	b.Helper()
	c, err := kafka.LoadCatalog(testenv.Release(b, "4.0"))
	if err != nil {
		b.Fatal(err)
	}
	vs, err := c.Vectors(kafka.VectorOptions{})
	if err != nil {
		b.Fatal(err)
	}
	return vs
}

func benchKafkaTree(b *testing.B, api string, response bool) {
	benchView(b, kafkaView(b, api, response), api)
}

func benchView(b *testing.B, v *kafkaview.View, api string) {
	b.ReportAllocs()
	for b.Loop() {
		d, err := tree.Layout(v.Tree, tree.Options{GroupColors: v.Groups, Title: api})
		if err != nil {
			b.Fatal(err)
		}
		if err := svgcanvas.Write(io.Discard, d, svgcanvas.WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFetchResponse lays out and writes as SVG the tree of the real 4.0 Fetch v17
// response, as the reference builds it. Target: under 200 µs.
func BenchmarkFetchResponse(b *testing.B) { benchKafkaTree(b, "Fetch", true) }

// BenchmarkProduceRequest does the same for the 4.0 Produce v12 request.
func BenchmarkProduceRequest(b *testing.B) { benchKafkaTree(b, "Produce", false) }

// BenchmarkLargestReal lays out and writes as SVG the largest tree (by node count) of all the
// real 4.0 frames, requests and responses, found afresh each run, so it follows the schemas
// and the vectors; it reports the frame and its node count as metrics.
func BenchmarkLargestReal(b *testing.B) {
	var best *kafkaview.View
	name, nodes := "", 0
	for _, vec := range kafkaVectors(b) {
		for _, f := range []*kafka.Frame{vec.Request, vec.Response} {
			if f == nil {
				continue
			}
			v := kafkaview.New(f)
			if n := countNodes(v.Tree); n > nodes {
				best, nodes, name = v, n, f.BaseName()
			}
		}
	}
	if best == nil {
		b.Fatal("no frames")
	}
	b.Logf("largest 4.0 tree: %s, %d nodes", name, nodes)
	benchView(b, best, name)
	b.ReportMetric(float64(nodes), "nodes") // after the loop, which resets reported metrics
}
