package treesvg

import (
	"bytes"
	"os"
	"testing"

	"github.com/kafkagrid/kafkagrid/internal/testenv"

	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/kafka/kafkaview"
	"github.com/kafkagrid/kafkagrid/tree"
)

// TestSizeHint checks the buffer estimate against the trees of all 4.0 frames.
func TestSizeHint(t *testing.T) {
	for _, f := range frames(t) {
		v := kafkaview.New(f)
		d, err := tree.Layout(v.Tree, tree.Options{GroupColors: v.Groups, Title: f.BaseName()})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := Write(&buf, d, Options{}); err != nil {
			t.Fatal(err)
		}
		checkHint(t, f.BaseName(), sizeHint(d), buf.Bytes())
	}
}

// schemaDir returns the 4.0 schema folder ($KAFKA_SCHEMAS, a release folder or a folder of
// releases; by default ../shared/kafka-schemas from the module root), skipping when absent.
func schemaDir(t *testing.T) string {
	t.Helper()
	return testenv.Release(t, "4.0")
}

// frames returns the 4.0 example frames.
func frames(t *testing.T) []*kafka.Frame {
	c, err := kafka.LoadCatalog(schemaDir(t))
	if err != nil {
		t.Fatal(err)
	}
	vs, err := c.Vectors(kafka.VectorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var fs []*kafka.Frame
	for _, v := range vs {
		fs = append(fs, v.Request, v.Response)
	}
	return fs
}

// checkHint fails unless hint holds the drawing of svg (what follows the <style>) and does not
// overshoot it by much.
func checkHint(t *testing.T, name string, hint int, svg []byte) {
	t.Helper()
	_, body, ok := bytes.Cut(svg, []byte("</style>\n"))
	if !ok {
		t.Fatalf("%s: no </style>", name)
	}
	if os.Getenv("HINTLOG") != "" {
		t.Logf("%s %d %d %.2f", name, hint, len(body), float64(hint)/float64(len(body)))
	}
	if n := len(body); hint < n || hint > 2*n+4096 {
		t.Errorf("%s: size hint %d for a drawing of %d bytes", name, hint, n)
	}
}
