package bytegrid_test

import (
	"io"
	"testing"

	"github.com/kafkagrid/kafkagrid/internal/testenv"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/canvas/svgcanvas"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/kafka/kafkaview"
)

// kafkaView returns the view of a real 4.0 frame (api name, response side) built through the
// kafka package, skipping when the schemas are absent. $KAFKA_SCHEMAS names a release folder
// or a folder of releases; the default is ../shared/kafka-schemas from the module root.
func kafkaView(b *testing.B, api string, response bool) *kafkaview.View {
	b.Helper()
	c, err := kafka.LoadCatalog(testenv.Release(b, "4.0"))
	if err != nil {
		b.Fatal(err)
	}
	vs, err := c.Vectors(kafka.VectorOptions{})
	if err != nil {
		b.Fatal(err)
	}
	for _, v := range vs {
		if v.API.Name == api {
			f := v.Request
			if response {
				f = v.Response
			}
			return kafkaview.New(f)
		}
	}
	b.Fatalf("no API %s in 4.0", api)
	return nil
}

func benchKafkaGrid(b *testing.B, api string, response bool) {
	v := kafkaView(b, api, response)
	b.ReportAllocs()
	for b.Loop() {
		d, err := bytegrid.Layout(v.Fields, bytegrid.Options{GroupColors: v.Groups})
		if err != nil {
			b.Fatal(err)
		}
		if err := svgcanvas.Write(io.Discard, d, svgcanvas.WriteOptions{Title: api}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProduceRequest lays out and writes as SVG the grid of the real 4.0 Produce v12
// request, as the reference builds it. Target: under 200 µs.
func BenchmarkProduceRequest(b *testing.B) { benchKafkaGrid(b, "Produce", false) }

// BenchmarkFetchResponse does the same for the 4.0 Fetch v17 response.
func BenchmarkFetchResponse(b *testing.B) { benchKafkaGrid(b, "Fetch", true) }
