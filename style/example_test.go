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
	// plain g2 #d1f2e1 false
	// length frame-fill #fafafa true
	// tag tag-fill #fbf6ea true
}
