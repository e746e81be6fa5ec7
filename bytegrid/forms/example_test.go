package forms_test

import (
	"bytes"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/kafkagrid/kafkagrid/bytegrid/forms"
)

// Read an RFC's figure, its form told by its content, and write its SVG; then draw it back as
// text, to show what was read.
func Example() {
	figure := []byte(`source: UDP header (RFC 768)
 0                   1                   2                   3
 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
|          Source Port          |       Destination Port        |
+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
|            Length             |           Checksum            |
+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
`)
	spec, form, err := forms.Read("udp.txt", figure, forms.Options{})
	if err != nil {
		log.Fatal(err)
	}
	var svg bytes.Buffer // or an os.File
	if err := forms.Write(&svg, spec, form.Name, "svg", forms.WriteOptions{IDPrefix: "udp"}); err != nil {
		log.Fatal(err)
	}
	title := strings.Split(svg.String(), "\n")[2]
	fmt.Printf("%s, %d fields: %s\n", form.Name, len(spec.Fields), title)

	if err := forms.Write(os.Stdout, spec, form.Name, "txt", forms.WriteOptions{}); err != nil {
		log.Fatal(err)
	}
	// Output:
	// rfc, 4 fields: <title id="udp-title">UDP header (RFC 768)</title>
	//  0                   1                   2                   3
	//  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
	// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
	// |          Source Port          |       Destination Port        |
	// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
	// |            Length             |           Checksum            |
	// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
}
