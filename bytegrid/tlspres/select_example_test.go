package tlspres_test

import (
	"fmt"
	"log"

	"github.com/kafkagrid/kafkagrid/bytegrid/tlspres"
)

// A select is read as one variable field; Select gives back its cases as printed, for a
// reader that writes the structure in another notation.
func ExampleSelect() {
	src := []byte("struct { uint8 t; select (t) { case a: uint16; case b, c: opaque x<0..9>; } body; } S;")
	s, err := tlspres.Parse("select.txt", src)
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range s.Fields {
		cases, ok := tlspres.Select(f)
		fmt.Printf("%s: select %v %q\n", f.Name, ok, cases)
	}
	// Output:
	// t: select false []
	// body: select true ["a: uint16" "b, c: opaque x"]
}
