package gridyaml_test

import (
	"fmt"

	"github.com/kafkagrid/kafkagrid/bytegrid/gridyaml"
)

// Parse a small spec: UDP's first row, with its bytes.
func ExampleParse() {
	src := []byte(`name: UDP ports
row_bits: 32
data: "c0 00 00 35"
fields:
  - {name: Source Port, bits: 16, value: "49152"}
  - {name: Destination Port, bits: 16, value: "53 (DNS)"}
`)
	s, err := gridyaml.Parse("udp.yaml", src)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Name, s.Options.RowBits)
	for _, f := range s.Fields {
		fmt.Printf("%s: bits %d-%d = %s, bytes % x\n", f.Name, f.Offset, f.Offset+f.Bits-1, f.Value, f.Bytes)
	}
	// Errors carry the file and line.
	_, err = gridyaml.Parse("bad.yaml", []byte("name: x\nfields:\n  - {name: a, bits: 0}\n"))
	fmt.Println(err)
	// Output:
	// UDP ports 32
	// Source Port: bits 0-15 = 49152, bytes c0 00
	// Destination Port: bits 16-31 = 53 (DNS), bytes 00 35
	// gridyaml: bad.yaml:3: field "a": bits 0: want 1 to 134217728
}
