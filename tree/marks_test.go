package tree_test

import (
	"testing"

	"github.com/kafkagrid/kafkagrid/style"
	"github.com/kafkagrid/kafkagrid/tree"
)

// TestGroupMarks: the tree tells groups apart without colour, as the byte grid does: every row
// whose group differs from its parent's carries its group's letter (style.GroupMark of its
// colour index) in its chip, and no other row does; a tree of one group has none.
func TestGroupMarks(t *testing.T) {
	d, err := tree.Layout(fetchLike(), tree.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Check(); err != nil {
		t.Fatal(err)
	}
	groups := map[int]string{} // row → effective group, as the layout inherits it
	var walk func(n *tree.Node, g string)
	i := 0
	walk = func(n *tree.Node, g string) {
		if n.Group != "" {
			g = n.Group
		}
		groups[i] = g
		i++
		for _, c := range n.Children {
			walk(c, g)
		}
	}
	walk(fetchLike(), "")
	marked := 0
	for i, r := range d.Rows {
		starts := groups[i] != "" && (r.Parent < 0 || groups[r.Parent] != groups[i])
		switch {
		case starts && r.Mark != style.GroupMark(r.Color):
			t.Errorf("row %d %q starts group %q: mark %q, want %q", i, r.Label, groups[i], r.Mark, style.GroupMark(r.Color))
		case !starts && r.Mark != "":
			t.Errorf("row %d %q (group %q, as its parent) carries the mark %q", i, r.Label, groups[i], r.Mark)
		}
		if r.Mark != "" {
			marked++
		}
	}
	if marked < 2 {
		t.Fatalf("%d rows marked: the fixture should start several groups", marked)
	}
	one := &tree.Node{Name: "root", Group: "g", Children: []*tree.Node{{Name: "a", Length: 1, Group: "g"}}, Length: 1}
	d, err = tree.Layout(one, tree.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range d.Rows {
		if r.Mark != "" {
			t.Errorf("a tree of one group marks row %q with %q", r.Label, r.Mark)
		}
	}
}
