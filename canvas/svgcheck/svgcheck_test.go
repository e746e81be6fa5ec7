package svgcheck_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/canvas"
	"github.com/kafkagrid/kafkagrid/canvas/svgcanvas"
	"github.com/kafkagrid/kafkagrid/canvas/svgcheck"
	"github.com/kafkagrid/kafkagrid/style"
)

type box struct {
	x, y, w, h canvas.Pt
	texts      []canvas.Text
	tx, ty     canvas.Pt
}

func draw(t *testing.T, class string, boxes []box, loose ...canvas.Text) []byte {
	t.Helper()
	var buf bytes.Buffer
	c := svgcanvas.New(&buf, 200, 100, svgcanvas.Options{})
	for _, b := range boxes {
		c.Begin(canvas.Group{Class: class, Attrs: []canvas.Attr{{Name: "data-path", Value: "p"}}})
		if b.w > 0 {
			c.Rect(b.x, b.y, b.w, b.h, canvas.Style{Fill: style.Group(0), Stroke: style.Ink})
		}
		for _, tx := range b.texts {
			c.Text(b.tx, b.ty, tx)
		}
		c.End()
	}
	for _, l := range loose {
		c.Text(5, 95, l)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestCheck(t *testing.T) {
	txt := func(s string, a canvas.Anchor) canvas.Text { return canvas.Text{S: s, Size: 10, Anchor: a} }
	tests := []struct {
		name  string
		class string
		opts  svgcheck.Options
		boxes []box
		loose []canvas.Text
		want  string // "" for no error
	}{
		{"fits", "field", svgcheck.Options{}, []box{{0, 0, 100, 30, []canvas.Text{txt("Hello", canvas.Middle)}, 50, 20}}, nil, ""},
		{"adjacent boxes", "field", svgcheck.Options{}, []box{{0, 0, 50, 30, nil, 0, 0}, {50, 0, 50, 30, nil, 0, 0}}, nil, ""},
		{"too wide", "field", svgcheck.Options{}, []box{{0, 0, 25, 30, []canvas.Text{txt("Hello", canvas.Middle)}, 12, 20}}, nil, "outside its box"},
		{"end anchor", "field", svgcheck.Options{}, []box{{0, 0, 100, 30, []canvas.Text{txt("Hello", canvas.End)}, 20, 20}}, nil, "outside its box"},
		{"too low", "field", svgcheck.Options{}, []box{{0, 0, 100, 30, []canvas.Text{txt("Hi", canvas.Start)}, 5, 29}}, nil, "outside its box"},
		{"overlap", "field", svgcheck.Options{}, []box{{0, 0, 60, 30, nil, 0, 0}, {50, 0, 50, 30, nil, 0, 0}}, nil, "overlap"},
		{"loose outside", "field", svgcheck.Options{}, nil, []canvas.Text{{S: strings.Repeat("x", 60), Size: 10}}, "leaves the drawing"},
		{"rows ok", "node", svgcheck.Options{BoxClass: "node", Rows: true}, []box{{0, 0, 0, 0, []canvas.Text{txt("a", canvas.Start)}, 5, 20}, {0, 0, 0, 0, []canvas.Text{txt("b", canvas.Start)}, 5, 40}}, nil, ""},
		{"rows overlap", "node", svgcheck.Options{BoxClass: "node", Rows: true}, []box{{0, 0, 0, 0, []canvas.Text{txt("a", canvas.Start)}, 5, 20}, {0, 0, 0, 0, []canvas.Text{txt("b", canvas.Start)}, 5, 25}}, nil, "overlaps"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := svgcheck.CheckWith(draw(t, tt.class, tt.boxes, tt.loose...), tt.opts)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("unexpected error: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
	if err := svgcheck.Check([]byte("<svg><g></svg>")); err == nil || !strings.Contains(err.Error(), "XML") {
		t.Errorf("malformed XML: %v", err)
	}
}
