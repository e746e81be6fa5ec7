package gridsvg_test

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/bytegrid/gridcheck"
	"github.com/kafkagrid/kafkagrid/bytegrid/gridsvg"
)

func Example() {
	d, err := bytegrid.Layout([]bytegrid.Field{
		{Offset: 0, Bits: 16, Name: "Source Port", Value: "53211", Path: "SrcPort", Bytes: []byte{0xcf, 0xdb}},
		{Offset: 16, Bits: 16, Name: "Destination Port", Value: "53", Path: "DstPort", Bytes: []byte{0, 53}},
	}, bytegrid.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	var buf bytes.Buffer
	if err := gridsvg.WriteSVG(&buf, d, gridsvg.Options{Title: "UDP ports", Inline: true}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(strings.Count(buf.String(), `<g class="field kind-plain"`), "fields")
	fmt.Println("check:", gridcheck.Check(buf.Bytes()))
	// Output:
	// 2 fields
	// check: <nil>
}

type failAfter struct{ n int }

func (f *failAfter) Write(p []byte) (int, error) {
	if f.n < len(p) {
		return 0, errors.New("full")
	}
	f.n -= len(p)
	return len(p), nil
}

func TestWriteError(t *testing.T) {
	d, _ := bytegrid.Layout([]bytegrid.Field{{Bits: 8, Name: "a"}}, bytegrid.Options{})
	err := gridsvg.WriteSVG(&failAfter{10}, d, gridsvg.Options{})
	if err == nil || !strings.HasPrefix(err.Error(), "gridsvg: ") {
		t.Errorf("err = %v", err)
	}
}
