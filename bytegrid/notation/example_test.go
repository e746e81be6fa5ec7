package notation_test

import (
	"fmt"
	"os"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/bytegrid/notation"
)

// RFC 9113's frame header, read, drawn as RFC-style text and written back.
func Example() {
	src := []byte(`HTTP Frame {
  Length (24),
  Type (8),
  Flags (8),
  Reserved (1),
  Stream Identifier (31),
  Frame Payload (..),
}
`)
	spec, err := notation.Parse("http2.txt", src)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range spec.Fields {
		fmt.Printf("%-17s bit %2d, %2d bits, variable %v\n", f.Name, f.Offset, f.Bits, f.Variable)
	}
	if _, err := bytegrid.Layout(spec.Fields, spec.Options); err != nil {
		fmt.Println(err)
	}
	if err := notation.Write(os.Stdout, spec.Name, spec.Fields); err != nil {
		fmt.Println(err)
	}
	// Output:
	// Length            bit  0, 24 bits, variable false
	// Type              bit 24,  8 bits, variable false
	// Flags             bit 32,  8 bits, variable false
	// Reserved          bit 40,  1 bits, variable false
	// Stream Identifier bit 41, 31 bits, variable false
	// Frame Payload     bit 72, 24 bits, variable true
	// HTTP Frame {
	//   Length (24),
	//   Type (8),
	//   Flags (8),
	//   Reserved (1),
	//   Stream Identifier (31),
	//   Frame Payload (..),
	// }
}

// An error names the line and column.
func ExampleParse_error() {
	_, err := notation.Parse("quic.txt", []byte("Packet {\n  Version (32),\n  Token (x),\n}\n"))
	fmt.Println(err)
	// Output:
	// notation: quic.txt:3:10: field "Token": length "x": want a number of bits, a range A..B, ".." or "i"
}
