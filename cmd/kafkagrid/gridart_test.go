package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/canvas/svgcheck"
)

// TestGridFigure draws published RFC figures given as art ("kafkagrid grid figure.txt"): the
// input's form is told by its content, every field's name is in the SVG, and the text form
// gives the figure back.
func TestGridFigure(t *testing.T) {
	files, _ := filepath.Glob(gridSpec(t, filepath.Join("figures", "*.rfc.txt")))
	if len(files) < 8 {
		t.Fatalf("%d figures", len(files))
	}
	dir := t.TempDir()
	for _, f := range files {
		svg := filepath.Join(dir, filepath.Base(f)+".svg")
		if _, _, err := runGridCmd(t, f, "-o", svg); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		b, err := os.ReadFile(svg)
		if err != nil {
			t.Fatal(err)
		}
		if err := svgcheck.Check(b); err != nil {
			t.Errorf("%s: %v", f, err)
		}
		out, _, err := runGridCmd(t, f)
		if err != nil {
			t.Fatal(err)
		}
		src, _ := os.ReadFile(f)
		// The figure's first rule line comes back unchanged, a note in the margin right of the
		// grid (RFC 4303's " ----") after it: the rule ends at its last '+'.
		var rules []string
		for _, l := range strings.Split(string(src), "\n") {
			if t := strings.TrimSpace(l); strings.HasPrefix(t, "+-") {
				w := strings.Fields(t)[0]
				rules = append(rules, l[:len(l)-len(strings.TrimLeft(l, " "))+strings.LastIndexByte(w, '+')+1])
			}
		}
		// (A rule running on past the row, RFC 4271's "-...", keeps its run.)
		if !strings.Contains("\n"+out, "\n"+rules[0]) {
			t.Errorf("%s: the text drawn has not the figure's rule %q:\n%s", f, rules[0], out)
		}
	}
	// A figure printed as a spec (-format yaml) draws the same text as the figure read as art.
	for _, f := range files {
		y := filepath.Join(dir, filepath.Base(f)+".yaml")
		if _, _, err := runGridCmd(t, f, "-o", y); err != nil {
			t.Fatal(err)
		}
		fromArt, _, err := runGridCmd(t, f)
		if err != nil {
			t.Fatal(err)
		}
		fromYAML, _, err := runGridCmd(t, y)
		if err != nil {
			t.Fatal(err)
		}
		if fromArt != fromYAML {
			t.Errorf("%s: the spec written draws\n%s\nnot\n%s", f, fromYAML, fromArt)
		}
	}
	// A broken figure: a positioned error.
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("+--+--+\n|a |b| |\n+--+--+\n"), 0o644)
	if _, _, err := runGridCmd(t, bad); err == nil || !strings.Contains(err.Error(), "bad.txt:2:6:") {
		t.Errorf("err = %v", err)
	}
}

// BenchmarkGrid runs "kafkagrid grid SPEC -format svg" on every example: the YAML specs of
// examples/protocols and examples/protocols/figures, and the published figures read as art.
func BenchmarkGrid(b *testing.B) {
	var specs []string
	for _, pat := range []string{"*.yaml", filepath.Join("figures", "*.yaml"), filepath.Join("figures", "*.rfc.txt")} {
		m, _ := filepath.Glob(filepath.Join("..", "..", "examples", "protocols", pat))
		specs = append(specs, m...)
	}
	if len(specs) == 0 {
		b.Fatal("no examples")
	}
	for _, spec := range specs {
		name := strings.TrimPrefix(filepath.ToSlash(spec), "../../examples/protocols/")
		for _, format := range []string{"svg", "txt"} {
			b.Run(name+"/"+format, func(b *testing.B) {
				var out, errb bytes.Buffer
				for i := 0; i < b.N; i++ {
					out.Reset()
					if err := run(context.Background(), []string{"grid", spec, "-format", format}, &out, &errb); err != nil {
						b.Fatal(err)
					}
				}
				b.SetBytes(int64(out.Len()))
			})
		}
	}
}
