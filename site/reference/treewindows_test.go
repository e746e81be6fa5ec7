package reference

import (
	"testing"

	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site/kafkaview"
	"github.com/kafkagrid/kafkagrid/tree"
)

// TestTreeWindows checks, for every tree of the book in the releases tested (examples and edge
// cases), that a tree no wider than treeWidth prints whole and a wider one in column windows
// no wider than treeWidth, each text run inside one span of a window or outside them all, and
// every run shown whole in some window: no text is cut at a window's edge or left out.
func TestTreeWindows(t *testing.T) {
	for _, rel := range []string{"4.0", "4.1"} {
		cat := catalog(t, rel)
		vecs, err := cat.Vectors(kafka.VectorOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var frames []*kafka.Frame
		for _, v := range vecs {
			frames = append(frames, v.Request, v.Response)
		}
		edges, err := cat.EdgeCases()
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range edges {
			for _, fr := range []*kafka.Frame{e.Request, e.Response} {
				if fr != nil {
					frames = append(frames, fr)
				}
			}
		}
		split := 0
		for _, fr := range frames {
			m, err := frameMessage(fr, kafkaview.Options{}, PDF)
			if err != nil {
				t.Fatal(err)
			}
			name := rel + " " + fr.BaseName()
			w, _ := figSize(m.Tree)
			wins := treeWindows(m.Tree, treeWidth)
			if w <= treeWidth {
				if wins != nil {
					t.Errorf("%s: %.0f wide, cut into %d windows", name, w, len(wins))
				}
				continue
			}
			if wins == nil {
				t.Errorf("%s: %.0f wide, not cut (it would shrink)", name, w)
				continue
			}
			split++
			d := m.Tree.Drawing.(*tree.Diagram)
			runs := append([]tree.Run(nil), d.Header...)
			for _, r := range d.Rows {
				runs = append(runs, r.Runs...)
			}
			shown := make([]bool, len(runs))
			for wi, win := range wins {
				var ww float64
				for _, sp := range win.spans {
					ww += sp.to - sp.from
				}
				if ww > treeWidth {
					t.Errorf("%s window %d: %.0f wide", name, wi+1, ww)
				}
				for i, r := range runs {
					l, rr := float64(r.Left()), float64(r.Left()+r.W)
					for _, sp := range win.spans {
						switch {
						case l >= sp.from && rr <= sp.to:
							shown[i] = true
						case rr > sp.from && l < sp.to:
							t.Errorf("%s window %d: run %q [%.1f, %.1f] cut by span [%.1f, %.1f]", name, wi+1, r.S, l, rr, sp.from, sp.to)
						}
					}
				}
			}
			for i, ok := range shown {
				if !ok {
					t.Errorf("%s: run %q in no window", name, runs[i].S)
				}
			}
		}
		if split == 0 {
			t.Errorf("%s: no tree wider than treeWidth: the test tests nothing", rel)
		}
	}
}
