package site

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/kafka"
)

// TestCut: a frame longer than its first screen is cut at a node's start: the copy keeps at
// most the nodes asked for, all starting in the first FirstScreenBytes, its leaves then tile
// the frame to the end with one last field (RestPath) holding the rest; the frame itself is
// unchanged, and a frame that fits its first screen comes back as it is. The cut frame draws
// like any other (Draw), its rest a field of grid, tree and detail panel.
func TestCut(t *testing.T) {
	_, vs := vectors(t, kafka.VectorOptions{})
	cuts := 0
	rest := func(left int) (string, string) { return "rest value", "rest about" }
	for _, name := range []string{"Produce", "Metadata", "ApiVersions", "Fetch"} {
		for _, fr := range []*kafka.Frame{vs[name].Request, vs[name].Response} {
			before := textOf(t, fr)
			for _, nodes := range []int{8, 20, 0} {
				cf, at := Cut(fr, nodes, rest)
				if textOf(t, fr) != before {
					t.Fatalf("%s: Cut changed the frame", name)
				}
				if at == len(fr.Bytes) {
					if cf != fr {
						t.Errorf("%s: uncut, yet a copy", name)
					}
					continue
				}
				cuts++
				want := nodes
				if want == 0 {
					want = FirstScreenNodes
				}
				count, end, last := 0, 0, (*kafka.Node)(nil)
				cf.Root.Walk(func(n *kafka.Node) bool {
					count++
					if n.Path != RestPath && n.Offset >= FirstScreenBytes {
						t.Errorf("%s: node %s at %d, past the first screen", name, n.Path, n.Offset)
					}
					if len(n.Children) == 0 && n.Length > 0 {
						if n.Offset != end {
							t.Errorf("%s/%d: leaf %s at %d, want %d: the leaves do not tile", name, nodes, n.Path, n.Offset, end)
						}
						end, last = n.Offset+n.Length, n
					}
					return true
				})
				if count > want+1 || count != cf.Nodes || at <= 0 {
					t.Errorf("%s/%d: %d nodes (Nodes %d) cut at %d, want at most %d and the rest", name, nodes, count, cf.Nodes, at, want)
				}
				if end != len(fr.Bytes) || last.Path != RestPath || last.Offset != at || last.Value != "rest value" {
					t.Errorf("%s/%d: last leaf %+v ends at %d, want the rest from %d to %d", name, nodes, last, end, at, len(fr.Bytes))
				}
				fs, err := Draw(cf, Options{Narrow: true, MaxNested: -1})
				if err != nil {
					t.Fatal(err)
				}
				svg, err := InlineSVG(fs.Grid, "g")
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(string(svg), `data-path="#rest"`) || !hasField(fs.Fields, RestPath) {
					t.Errorf("%s/%d: the rest is not drawn or in the detail fields", name, nodes)
				}
			}
		}
	}
	if cuts < 8 {
		t.Errorf("%d frames cut: too few to tell", cuts)
	}
}

func textOf(t *testing.T, fr *kafka.Frame) string {
	var b bytes.Buffer
	if err := kafka.WriteText(&b, fr.Root); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func hasField(fs []Field, path string) bool {
	for _, f := range fs {
		if f.Path == path {
			return true
		}
	}
	return false
}
