package specdec_test

import (
	"encoding/hex"
	"fmt"
	"os"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/bytegrid/gridyaml"
	"github.com/kafkagrid/kafkagrid/bytegrid/specdec"
)

// Decode a real TCP segment, an HTTP request that the Linux kernel wrote on the loopback
// interface (testdata/lo.pcap), with the TCP spec of examples/protocols: the fields' values,
// the options read as items, and the data after them; then lay it out as a byte grid.
func ExampleDecode() {
	src, err := os.ReadFile("../../examples/protocols/tcp.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	spec, err := gridyaml.Parse("tcp.yaml", src)
	if err != nil {
		fmt.Println(err)
		return
	}
	segment, _ := hex.DecodeString("951846a01515b1c6bb5106fd80180040fe7700000101080ac2fa95d147a2d098" +
		"474554202f20485454502f312e310d0a") // and so on: the request's first line
	r := specdec.Decode(spec, segment)
	for _, f := range r.Fields {
		if f.Items != nil {
			for i, it := range f.Items {
				for _, g := range it {
					fmt.Printf("%s[%d].%s = %s\n", f.Name, i, g.Name, g.Value)
				}
			}
			continue
		}
		if f.Bits > 0 {
			fmt.Printf("%s = %s\n", f.Name, f.Value)
		}
	}
	fmt.Println(r.Err())
	fields, opts := r.Grid()
	d, err := bytegrid.Layout(fields, opts)
	fmt.Println(len(d.Fields), "fields drawn", err)
	// Output:
	// Source Port = 38168
	// Destination Port = 18080
	// Sequence Number = 353743302
	// Acknowledgment Number = 3142649597
	// Data Offset = 8
	// Rsrvd = 0
	// CWR = 0
	// ECE = 0
	// URG = 0
	// ACK = 1
	// PSH = 1
	// RST = 0
	// SYN = 0
	// FIN = 0
	// Window = 64
	// Checksum = 0xfe77
	// Urgent Pointer = 0
	// Options[0].Kind = 1 (NOP)
	// Options[1].Kind = 1 (NOP)
	// Options[2].Kind = 8 (TS)
	// Options[2].Length = 10
	// Options[2].Value = 0xc2fa95d147a2d098
	// data = 0x474554202f20485454502f312e310d0a
	// <nil>
	// 23 fields drawn <nil>
}
