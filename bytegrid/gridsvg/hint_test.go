package gridsvg

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/kafkagrid/kafkagrid/internal/testenv"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/bytegrid/gridyaml"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/kafka/kafkaview"
)

// TestSizeHint checks the buffer estimate against the grids of all 4.0 frames.
func TestSizeHint(t *testing.T) {
	for _, f := range frames(t) {
		v := kafkaview.New(f)
		d, err := bytegrid.Layout(v.Fields, bytegrid.Options{GroupColors: v.Groups})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := WriteSVG(&buf, d, Options{Title: f.BaseName()}); err != nil {
			t.Fatal(err)
		}
		checkHint(t, f.BaseName(), sizeHint(d), buf.Bytes())
	}
}

// moduleRoot is the folder of go.mod (see internal/testenv).
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := testenv.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestSizeHintProtocols checks the buffer estimate against the protocols described in YAML.
func TestSizeHintProtocols(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(moduleRoot(t), "examples", "protocols", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no protocol descriptions (%v)", err)
	}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		spec, err := gridyaml.Parse(file, src)
		if err != nil {
			t.Fatal(err)
		}
		d, err := bytegrid.Layout(spec.Fields, spec.Options)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := WriteSVG(&buf, d, Options{Title: spec.Name, Desc: spec.Desc}); err != nil {
			t.Fatal(err)
		}
		checkHint(t, filepath.Base(file), sizeHint(d), buf.Bytes())
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
