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
