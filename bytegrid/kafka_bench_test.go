package bytegrid_test

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/bytegrid/gridsvg"
	"github.com/kafkagrid/kafkagrid/kafka"
)

// kafkaView returns the view of a real 4.0 frame (api name, response side) built through the
// kafka package, skipping when the schemas are absent. $KAFKA_SCHEMAS names a release folder
// or a folder of releases; the default is ../shared/kafka-schemas from the module root.
func kafkaView(b *testing.B, api string, response bool) *kafka.View {
	b.Helper()
	dir := os.Getenv("KAFKA_SCHEMAS")
	if dir == "" {
		dir = filepath.Join(moduleRoot(b), "..", "shared", "kafka-schemas")
	}
	if _, err := os.Stat(filepath.Join(dir, "4.0")); err == nil {
		dir = filepath.Join(dir, "4.0")
	}
	if _, err := os.Stat(dir); err != nil {
		b.Skipf("no Kafka schemas at %s: %v", dir, err)
	}
	c, err := kafka.LoadCatalog(dir)
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
			return kafka.NewView(f)
		}
	}
	b.Fatalf("no API %s in %s", api, dir)
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
		if err := gridsvg.WriteSVG(io.Discard, d, gridsvg.Options{Title: api}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProduceRequest lays out and writes as SVG the grid of the real 4.0 Produce v12
// request, as the reference builds it. Target: under 200 µs.
func BenchmarkProduceRequest(b *testing.B) { benchKafkaGrid(b, "Produce", false) }

// BenchmarkFetchResponse does the same for the 4.0 Fetch v17 response.
func BenchmarkFetchResponse(b *testing.B) { benchKafkaGrid(b, "Fetch", true) }
