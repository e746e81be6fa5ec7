package tree_test

import (
	"testing"

	"github.com/kafkagrid/kafkagrid/canvas"
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

// TestMarkSize: a group's letter is written at the text's size (the book prints trees at about
// 0.6×, where 0.75 of the text size was 5 pt), inside its chip, the labels after the chip.
func TestMarkSize(t *testing.T) {
	for _, size := range []float64{8, 12, 16} {
		d, err := tree.Layout(fetchLike(), tree.Options{FontSize: canvas.Pt(size)})
		if err != nil {
			t.Fatal(err)
		}
		if err := d.Check(); err != nil { // the letter fits its chip, no run overlaps it
			t.Fatal(err)
		}
		n := 0
		for _, r := range d.Rows {
			if r.Mark == "" {
				continue
			}
			n++
			if len(r.Mark) == 1 && r.MarkSize != d.FontSize {
				t.Errorf("%g pt: row %q: letter %q at %g pt, want the text's %g", size, r.Label, r.Mark, r.MarkSize, d.FontSize)
			}
		}
		if n == 0 {
			t.Fatalf("%g pt: no letter", size)
		}
	}
}

// TestNarrow: Options.Narrow leaves out the Dec and Type columns (zero wide, no text in them,
// the type still in each row's tooltip) and makes the tree narrower.
func TestNarrow(t *testing.T) {
	wide, err := tree.Layout(fetchLike(), tree.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := tree.Layout(fetchLike(), tree.Options{Narrow: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Check(); err != nil {
		t.Fatal(err)
	}
	if d.Width >= wide.Width {
		t.Errorf("narrow tree %g wide, the whole one %g", d.Width, wide.Width)
	}
	for _, c := range []int{tree.ColDec, tree.ColType} {
		if d.Columns[c].W != 0 {
			t.Errorf("column %s is %g wide", d.Columns[c].Name, d.Columns[c].W)
		}
	}
	runs := append([]tree.Run(nil), d.Header...)
	for _, r := range d.Rows {
		runs = append(runs, r.Runs...)
	}
	for _, r := range runs {
		if r.Col == tree.ColDec || r.Col == tree.ColType {
			t.Errorf("text %q in column %d", r.S, r.Col)
		}
	}
	for i, r := range d.Rows {
		if r.Title != wide.Rows[i].Title {
			t.Errorf("row %d: tooltip %q, want %q", i, r.Title, wide.Rows[i].Title)
		}
	}
}
