package tlspres_test

import (
	"fmt"
	"log"

	"github.com/kafkagrid/kafkagrid/bytegrid/tlspres"
)

// A structure of RFC 8446 read as byte-grid fields: the vector's length prefix is sized from
// its ceiling, the variable part drawn to the end of its row.
func Example() {
	src := []byte(`
   struct {
       NamedGroup group;
       opaque key_exchange<1..2^16-1>;
   } KeyShareEntry;
`)
	s, err := tlspres.Parse("keyshare.txt", src)
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range s.Fields {
		fmt.Printf("%-20s offset %2d, %2d bits drawn, variable %v\n", f.Name, f.Offset, f.Bits, f.Variable)
	}
	fmt.Println(s.Warnings[0])
	// Output:
	// group                offset  0, 16 bits drawn, variable false
	// key_exchange length  offset 16, 16 bits drawn, variable false
	// key_exchange         offset 32, 32 bits drawn, variable true
	// keyshare.txt:3:8: type NamedGroup is not declared here: read as RFC 8446 declares it, 16 bits
}
