package style_test

import (
	"fmt"

	"github.com/kafkagrid/kafkagrid/style"
)

// A field's fill depends on its kind: framing pieces share near-white fills, data takes its
// group's colour.
func ExampleKindFill() {
	for _, k := range []style.Kind{style.Plain, style.Length, style.Tag} {
		r := style.KindFill(k, 2)
		fmt.Println(k, r, style.Light(r).Hex(), k.Framing())
	}
	// Output:
	// plain g2 #e5eccc false
	// length frame-fill #fbfbfb true
	// tag tag-fill #fefbf3 true
}

// Groups are told apart by a letter as well as by colour: a greyscale print keeps the letter.
// Colours repeat after NumGroups; letters do not.
func ExampleGroupMark() {
	for _, n := range []int{0, 1, style.NumGroups, 26} {
		fmt.Println(n, style.Group(n), style.GroupMark(n))
	}
	// Output:
	// 0 g0 A
	// 1 g1 B
	// 12 g0 M
	// 26 g2 AA
}
