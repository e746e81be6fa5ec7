package rfcart_test

import (
	"fmt"
	"os"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/bytegrid/rfcart"
)

// Read RFC 768's figure of the UDP header and draw it again as text.
func ExampleParse() {
	fig := `                  0      7 8     15 16    23 24    31
                 +--------+--------+--------+--------+
                 |     Source      |   Destination   |
                 |      Port       |      Port       |
                 +--------+--------+--------+--------+
                 |                 |                 |
                 |     Length      |    Checksum     |
                 +--------+--------+--------+--------+
                 |
                 |          data octets ...
                 +---------------- ...
`
	s, err := rfcart.Parse("udp.txt", []byte(fig))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range s.Fields {
		fmt.Printf("%-16s bits %2d-%2d variable %v\n", f.Name, f.Offset, f.Offset+f.Bits-1, f.Variable)
	}
	d, err := bytegrid.Layout(s.Fields, s.Options)
	if err != nil {
		fmt.Println(err)
		return
	}
	d.WriteText(os.Stdout)
	// Output:
	// Source Port      bits  0-15 variable false
	// Destination Port bits 16-31 variable false
	// Length           bits 32-47 variable false
	// Checksum         bits 48-63 variable false
	// data octets      bits 64-95 variable true
	//                   0      7 8     15 16    23 24    31
	//                  +--------+--------+--------+--------+
	//                  |     Source      |   Destination   |
	//                  |      Port       |      Port       |
	//                  +--------+--------+--------+--------+
	//                  |                 |                 |
	//                  |     Length      |    Checksum     |
	//                  +--------+--------+--------+--------+
	//                  |
	//                  |          data octets ...
	//                  +---------------- ...
}

// Hold a spec's text drawing to the figure it was read from: nil when every line is drawn
// back as printed (but for spaces inside boxes), else the first line that is not.
func ExampleDrawnBack() {
	fig := []byte(`source: RFC 2784 section 2.1, the GRE header's first word

    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   |C|       Reserved0       | Ver |         Protocol Type         |
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
`)
	s, err := rfcart.Parse("gre.txt", fig)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rfcart.DrawnBack(s, fig))
	s.Fields[1].Name = "Reserved"
	fmt.Println(rfcart.DrawnBack(s, fig))
	// Output:
	// <nil>
	// drawn back otherwise than printed (1 line of 4): line 5 printed "   |C|       Reserved0       | Ver |         Protocol Type         |", drawn "   |C|       Reserved        | Ver |         Protocol Type         |"
}
