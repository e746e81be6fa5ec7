package bytegrid_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/style"
)

// TestGroupMarks: groups are told apart without colour. In every display row of a drawing with
// two or more groups, each run of a group's byte-aligned boxes carries the group's letter
// (style.GroupMark, and the field's Item) in one of its boxes; no box carries another group's
// letter; each legend swatch holds its group's letter; every run stays in its box, clear of
// the others. A drawing of one group has no letters.
func TestGroupMarks(t *testing.T) {
	items := kafkaLike()
	items = append(items[:len(items):len(items)], bytegrid.Field{Offset: items[len(items)-1].Offset + items[len(items)-1].Bits, Bits: 16, Name: "A", Group: "Items", Item: "[0]", Bytes: []byte{1, 2}},
		bytegrid.Field{Offset: items[len(items)-1].Offset + items[len(items)-1].Bits + 16, Bits: 16, Name: "A", Group: "Items", Item: "[1]", Bytes: []byte{3, 4}})
	for _, tt := range []struct {
		name   string
		fields []bytegrid.Field
		opts   bytegrid.Options
	}{
		{"kafkalike", kafkaLike(), bytegrid.Options{}},
		{"kafkalike rows8", kafkaLike(), bytegrid.Options{RowBits: 8}},
		{"kafkalike rows64 nohex", kafkaLike(), bytegrid.Options{RowBits: 64, NoHex: true}},
		{"items", items, bytegrid.Options{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, err := bytegrid.Layout(tt.fields, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			checkTextInBoxes(t, d)
			names := make([]string, len(tt.fields))
			for i, f := range tt.fields {
				names[i] = f.Group
			}
			colors := style.GroupColors(names, nil)
			type run struct {
				group, item string
				marked      bool
				aligned     bool
				row         int
			}
			var runs []*run
			open := map[int]*run{} // the current run of each row
			for i, b := range d.Fields {
				f := tt.fields[i]
				want := style.GroupMark(colors[f.Group]) + f.Item
				for _, r := range b.Runs {
					if r.Class == "group" && (f.Group == "" || r.S != want) {
						t.Errorf("field %d %q (group %q) carries the mark %q, want %q", i, f.Name, f.Group, r.S, want)
					}
				}
				for _, s := range b.Segs {
					if d.Rows[s.Row].Elided > 0 {
						delete(open, s.Row)
						continue
					}
					cur := open[s.Row]
					if cur == nil || cur.group != f.Group || cur.item != f.Item {
						cur = &run{group: f.Group, item: f.Item, row: s.Row}
						open[s.Row] = cur
						runs = append(runs, cur)
					}
					aligned := f.Offset%8 == 0 && f.Bits%8 == 0
					cur.aligned = cur.aligned || aligned
					for _, r := range b.Runs {
						if r.Class == "group" && r.Row == s.Row {
							cur.marked = true
						}
					}
				}
			}
			marked := 0
			for _, r := range runs {
				if r.group == "" || !r.aligned {
					continue
				}
				if !r.marked {
					t.Errorf("row %d: the run of group %q%s has no letter", r.row, r.group, r.item)
				}
				marked++
			}
			if marked == 0 {
				t.Fatal("no run of a group to mark: the test checks nothing")
			}
			var letters []string
			for _, r := range d.Legend {
				if r.Class == "legend-mark" {
					letters = append(letters, r.S)
				}
			}
			if len(letters) != len(d.Swatch) {
				t.Fatalf("%d swatches, %d letters in them", len(d.Swatch), len(letters))
			}
			var order []string
			for _, g := range names {
				if g != "" && !slices.Contains(order, g) {
					order = append(order, g)
				}
			}
			for i, g := range order {
				if want := style.GroupMark(colors[g]); i < len(letters) && letters[i] != want {
					t.Errorf("swatch %d (%s) holds %q, want %q", i, g, letters[i], want)
				}
			}
		})
	}
	t.Run("one group", func(t *testing.T) {
		d, err := bytegrid.Layout(ipv4(), bytegrid.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range d.Fields {
			for _, r := range b.Runs {
				if r.Class == "group" {
					t.Errorf("a drawing of one group carries the letter %q", r.S)
				}
			}
		}
		for _, r := range d.Legend {
			if r.Class == "legend-mark" {
				t.Errorf("the legend of one group holds the letter %q", r.S)
			}
		}
	})
}

// TestShortLabel: a name that does not fit its box on one line gives way to its short form
// (Field.Short) on one line, before it is wrapped: a one-byte tag section named after its
// struct reads "tags" over its value, at no less than the floor, in two lines; without a
// short form it wraps as before, and a name that fits keeps its whole self.
func TestShortLabel(t *testing.T) {
	for _, tt := range []struct {
		name, short, value string
		bits               int
		want               []string
	}{
		{"SupportedFeatures[0] tags", "tags", "0 → none", 8, []string{"tags", "0 → none"}},
		{"SupportedFeatures[0] tags", "", "0 → none", 8, []string{"Supported", "Features[0] tags", "0 → none"}},
		{"body tags", "tags", "0 → none", 16, []string{"body tags", "0 → none"}},
		{"tag", "tag", "1 → FinalizedFeaturesEpoch", 8, []string{"tag", "1"}},
		{"tag", "", "1 → FinalizedFeaturesEpoch", 8, []string{"tag", "1 → Finalized", "FeaturesEpoch"}},
	} {
		t.Run(tt.name+"/"+tt.short, func(t *testing.T) {
			fields := []bytegrid.Field{
				{Bits: 32 - tt.bits, Name: "ThrottleTimeMs", Value: "0", Bytes: make([]byte, (32-tt.bits)/8)},
				{Offset: 32 - tt.bits, Bits: tt.bits, Name: tt.name, Short: tt.short, Value: tt.value, Kind: bytegrid.Tags, Bytes: make([]byte, tt.bits/8)},
			}
			d, err := bytegrid.Layout(fields, bytegrid.Options{})
			if err != nil {
				t.Fatal(err)
			}
			checkTextInBoxes(t, d)
			var got []string
			for _, r := range d.Fields[1].Runs {
				if r.Class == "name" || r.Class == "value" {
					got = append(got, r.S)
					if r.Size < 8.5 {
						t.Errorf("%q at %g pt, under the floor", r.S, r.Size)
					}
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("lines %q, want %q", got, tt.want)
			}
			if !strings.Contains(d.Fields[1].Title, tt.name) {
				t.Errorf("the tooltip %q lost the whole name", d.Fields[1].Title)
			}
		})
	}
}
