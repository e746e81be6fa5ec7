package rfcsvg_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/bytegrid/gridyaml"
	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/canvas/rfcsvg"
	"github.com/kafkagrid/kafkagrid/canvas/svgcanvas"
	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site/kafkaview"
	"github.com/kafkagrid/kafkagrid/style"
	"github.com/kafkagrid/kafkagrid/tree"
)

// exampleGrids lays out every YAML spec in examples/protocols.
func exampleGrids(t *testing.T) map[string]*bytegrid.Diagram {
	t.Helper()
	files, err := filepath.Glob("../../examples/protocols/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	out := map[string]*bytegrid.Diagram{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		spec, err := gridyaml.Parse(f, src)
		if err != nil {
			t.Fatal(err)
		}
		d, err := bytegrid.Layout(spec.Fields, spec.Options)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = d
	}
	return out
}

// TestProfileExamples: every protocol example, written by rfcsvg, passes the SVG 1.2 RFC
// profile check, and keeps every text run and box the default SVG has.
func TestProfileExamples(t *testing.T) {
	for name, d := range exampleGrids(t) {
		t.Run(name, func(t *testing.T) {
			var rfc, def bytes.Buffer
			if err := rfcsvg.Write(&rfc, d, rfcsvg.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			if err := rfcsvg.Check(rfc.Bytes()); err != nil {
				t.Errorf("%s: not in the profile:\n%v", name, err)
			}
			if err := svgcanvas.Write(&def, d, svgcanvas.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			for _, el := range []string{"<text", "<rect", "<line", "<polyline", "<g"} {
				if a, b := strings.Count(rfc.String(), el), strings.Count(def.String(), el); a != b {
					t.Errorf("%s: %d %s elements, the default SVG has %d", name, a, el, b)
				}
			}
			for _, no := range []string{"<style", "var(", "class=\"p", "data-", "textLength", "aria-", "#"} {
				if strings.Contains(rfc.String(), no) {
					t.Errorf("%s: writes %q", name, no)
				}
			}
		})
	}
}

// TestProfileKafka: a real Kafka frame's grid and tree (Produce v12 request, 4.0) pass too.
func TestProfileKafka(t *testing.T) {
	c, err := kafka.LoadCatalog(testenv.Release(t, "4.0"))
	if err != nil {
		t.Fatal(err)
	}
	vs, err := c.Vectors(kafka.VectorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var v *kafkaview.View
	for _, vec := range vs {
		if vec.Request != nil && vec.Request.API.Name == "Produce" {
			v = kafkaview.New(vec.Request)
		}
	}
	if v == nil {
		t.Fatal("no Produce request in 4.0")
	}
	g, err := bytegrid.Layout(v.Fields, bytegrid.Options{GroupColors: v.Groups})
	if err != nil {
		t.Fatal(err)
	}
	tr, err := tree.Layout(v.Tree, tree.Options{GroupColors: v.Groups, Title: "Produce"})
	if err != nil {
		t.Fatal(err)
	}
	for name, d := range map[string]canvas.Drawing{"grid": g, "tree": tr} {
		var b bytes.Buffer
		if err := rfcsvg.Write(&b, d, rfcsvg.WriteOptions{Title: "Produce request"}); err != nil {
			t.Fatal(err)
		}
		if err := rfcsvg.Check(b.Bytes()); err != nil {
			t.Errorf("Produce %s: not in the profile:\n%v", name, err)
		}
		if n := strings.Count(b.String(), "<text"); n < 50 {
			t.Errorf("Produce %s: %d text runs", name, n)
		}
	}
}

// TestCheckRejects: the check fails the default SVG (a <style>, classes of generated styles
// filled through CSS variables, data-* and ARIA attributes, textLength), and each departure
// from the profile on its own.
func TestCheckRejects(t *testing.T) {
	for _, d := range exampleGrids(t) {
		var b bytes.Buffer
		if err := svgcanvas.Write(&b, d, svgcanvas.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		err := rfcsvg.Check(b.Bytes())
		if err == nil {
			t.Fatal("the default SVG passes the profile check")
		}
		for _, want := range []string{"<style>", "textLength", "aria-labelledby", "data-path"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("the check of the default SVG does not name %s:\n%v", want, err)
			}
		}
		break
	}
	const head = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">`
	for _, tc := range []struct{ svg, want string }{
		{head + `<rect x="0" y="0" width="1" height="1" fill="#ff0000"/></svg>`, `fill="#ff0000"`},
		{head + `<text x="0" y="0" font-family="Go Mono">a</text></svg>`, `font-family`},
		{head + `<text x="0" y="0" style="fill:black">a</text></svg>`, `style attribute`},
		{head + `<image x="0" y="0"/></svg>`, `<image>`},
		{head + `<rect x="0" y="0" width="1" height="1"><rect x="0" y="0" width="1" height="1"/></rect></svg>`, `child of <rect>`},
		{head + `<line x1="a" y1="0" x2="1" y2="1"/></svg>`, `x1="a"`},
		{`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>`, `viewBox`},
		{head + `<g data-x="1"></g></svg>`, `data-x`},
		{head + `<rect x="0" y="0" width="1" height="1"`, `offset`},
	} {
		err := rfcsvg.Check([]byte(tc.svg))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Check(%s) = %v, want an error naming %s", tc.svg, err, tc.want)
		}
	}
	ok := head + `<g id="a" class="field"><title>t</title><rect x="0" y="0" width="1" height="1" fill="white" stroke="black" stroke-dasharray="3 2"/><text x="1" y="2" font-size="9" fill="black" text-anchor="middle" xml:space="preserve">a  b</text></g></svg>`
	if err := rfcsvg.Check([]byte(ok)); err != nil {
		t.Errorf("a valid document fails: %v", err)
	}
}

// TestColours: roles map to black or white as the package doc says.
func TestColours(t *testing.T) {
	var b bytes.Buffer
	c := rfcsvg.New(&b, 10, 10, rfcsvg.Options{})
	for _, r := range []style.Role{style.Ink, style.Muted, style.Accent} {
		c.Rect(0, 0, 1, 1, canvas.Style{Fill: r})
	}
	for _, r := range []style.Role{style.Paper, style.FrameFill, style.PadFill, style.TagFill, style.Rule, style.Group(0), style.Group(9)} {
		c.Rect(0, 0, 1, 1, canvas.Style{Fill: r, Stroke: style.Rule, Dash: true})
	}
	c.Text(0, 0, canvas.Text{S: "x", Size: 9, Fill: style.Muted})
	c.Text(0, 0, canvas.Text{S: "y", Size: 9, Fill: style.Paper})
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	if n := strings.Count(s, `fill="black" stroke="none"`); n != 3 {
		t.Errorf("%d dark fills, want 3:\n%s", n, s)
	}
	if n := strings.Count(s, `fill="white" stroke="black" stroke-dasharray="3 2"`); n != 7 {
		t.Errorf("%d light fills with black dashed strokes, want 7:\n%s", n, s)
	}
	if !strings.Contains(s, `fill="black">x<`) || !strings.Contains(s, `fill="white">y<`) {
		t.Errorf("text colours:\n%s", s)
	}
	if err := rfcsvg.Check(b.Bytes()); err != nil {
		t.Error(err)
	}
}
