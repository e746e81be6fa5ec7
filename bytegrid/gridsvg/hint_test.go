package gridsvg

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/bytegrid/gridyaml"
	"github.com/kafkagrid/kafkagrid/kafka"
)

// TestSizeHint checks the buffer estimate against the grids of all 4.0 frames.
func TestSizeHint(t *testing.T) {
	for _, f := range frames(t) {
		v := kafka.NewView(f)
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

// moduleRoot walks up from the package directory to go.mod.
func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			return root
		}
		parent := filepath.Dir(root)
		if parent == root {
			t.Fatal("go.mod not found")
		}
		root = parent
	}
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
	dir := os.Getenv("KAFKA_SCHEMAS")
	if dir == "" {
		dir = filepath.Join(moduleRoot(t), "..", "shared", "kafka-schemas")
	}
	if _, err := os.Stat(filepath.Join(dir, "4.0")); err == nil {
		dir = filepath.Join(dir, "4.0")
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no Kafka schemas at %s: %v", dir, err)
	}
	return dir
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
