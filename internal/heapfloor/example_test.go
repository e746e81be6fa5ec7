package heapfloor_test

import (
	"fmt"

	"github.com/kafkagrid/kafkagrid/internal/heapfloor"
)

// A command streams its input with a 16 MiB floor under the collector's goal, to its end.
func ExampleHold() {
	defer heapfloor.Hold(16 << 20)()
	total := 0
	for i := 0; i < 1000; i++ {
		total += len(make([]byte, 1024)) // garbage at once, as a stream's frames are
	}
	fmt.Println(total)
	// Output: 1024000
}
