package rfcart_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/bytegrid/rfcart"
)

// TestCountTables reads the three ways a table gives its fields' sizes in a row of counts:
// in boxes of their own (RFC 1928), on the names' boxes' last line (RFC 1661), under the
// closing rule (RFC 7323); each kind of count; a stack of boxes one width, the sizes in the
// labels (RFC 4760); and refuses a count of no size. Every table is drawn back as printed
// (bytegrid's Text.Table).
func TestCountTables(t *testing.T) {
	for _, tt := range []struct {
		name, src, want, err string
	}{
		{"an edge out of its column: not a table, and refused", `
+----+----------+----------+------+
|VER | NMETHODS | METHODS  | CRLF |
+----+----------+----------+------+
| 1  |    1     | 1 to 255 |X'0D0A'
+----+----------+----------+------+
`, "", "rfcart: f.txt:2:"},
		{"each kind of count", `
+----+------+----------+--------+-----+---------+----------+
| A  |  B   |    C     |   D    |  E  |    F    |    G     |
+----+------+----------+--------+-----+---------+----------+
| 1  |  2B  | 1 to 255 | 4 bits |  *  | X'0D0A' | Variable |
+----+------+----------+--------+-----+---------+----------+
`, "A/8 B/16 C/var D/4 E/var F/16 G/var", ""},
		{"counts on the names' last line", `
           +----------+-------------+---------+
           | Protocol | Information | Padding |
           | 8/16 bits|      *      |    *    |
           +----------+-------------+---------+
`, "Protocol/var Information/var Padding/var", ""},
		{"counts under the rule", `
       +-------+-------+---------------------+
       |Kind=8 |  Len  |   TS Value (TSval)  |
       +-------+-------+---------------------+
           1       1              4
`, "Kind=8/8 Len/8 TS Value (TSval)/32", ""},
		{"a name on two lines", `
+--------+-----------+
| Frame  | Payload   |
| Type   |           |
+--------+-----------+
|   2    | Variable  |
+--------+-----------+
`, "Frame Type/16 Payload/var", ""},
		{"a stack, sizes in the labels", `
        +------------------------------------------+
        | Address Family Identifier (2 octets)     |
        +------------------------------------------+
        | Next Hop (variable)                      |
        +------------------------------------------+
        |   Originating Router's IP Address        |
        |          (0, 4, or 16 octets)            |
        +------------------------------------------+

                  Figure 3: A Stack
`, "Address Family Identifier (2 octets)/16 Next Hop (variable)/var Originating Router's IP Address (0, 4, or 16 octets)/var", ""},
		{"a stack going on in a row it cannot read: read as a grid, and refused", `
        +------------------------------------------+
        | Address Family Identifier (2 octets)     |
        +------------------------------------------+
        | Next Hop (variable)                      |
        +------------------------------------------+
        | Reserved                                 |  (no size)
        +------------------------------------------+
`, "", "rfcart: f.txt:"},
		{"a count of no size", `
+-----+-----+
| VER | PAD |
+-----+-----+
|  1  |  0  |
+-----+-----+
`, "", "f.txt:5:8: the count \"0\" under \"PAD\": a field of no size"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, err := rfcart.Parse("f.txt", []byte(tt.src))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one with %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range s.Fields {
				w := fmt.Sprint(f.Bits)
				if f.Variable {
					w = "var"
				}
				got = append(got, strings.Join(strings.Fields(f.Name), " ")+"/"+w)
			}
			if g := strings.Join(got, " "); g != tt.want {
				t.Errorf("fields %s, want %s", g, tt.want)
			}
			if err := rfcart.DrawnBack(s, []byte(tt.src)); err != nil {
				t.Errorf("not drawn back as printed: %v", err)
			}
		})
	}
}
