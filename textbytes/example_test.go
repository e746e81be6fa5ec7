package textbytes_test

import (
	"fmt"

	"github.com/kafkagrid/kafkagrid/textbytes"
)

// Parse tells the forms apart by their content: a Go byte list with comments, a tester's
// table with a log prefix, Node's Buffer JSON.
func ExampleParse() {
	for _, text := range []string{
		"[]byte{\n\t0x00, 0x00, // no error\n\t0x02, // one element\n}",
		"[tester::#GS0] Idx  | Hex                                             | ASCII\n" +
			"[tester::#GS0] 0000 | 00 00 00 23 00 12                               | ...#..\n",
		`{"type":"Buffer","data":[0,0,0,35]}`,
		"00 00 zz",
	} {
		t, err := textbytes.Parse([]byte(text), textbytes.Auto)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s (%s): % x\n", t.Form, t.Detail, t.Bytes)
	}
	// Output:
	// list (Go []byte): 00 00 02
	// dump (hex table (Idx | Hex | ASCII)): 00 00 00 23 00 12
	// list (Node Buffer JSON): 00 00 00 23
	// textbytes: line 1, column 7: "z" is not a hex digit, in "zz" (read as hex, the form that read furthest; tried string, dump, list, hex, base64)
	//   1 | 00 00 zz
}
