package site_test

import (
	"fmt"
	"strings"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site"
)

// ExampleDraw draws the ApiVersions v4 request every client sends first, and writes what a
// page shows of it: its grid inline, the detail panel's data and its hex dump.
func ExampleDraw() {
	dir, err := testenv.ReleaseDir("4.0")
	if err != nil {
		fmt.Println(err)
		return
	}
	cat, err := kafka.LoadCatalog(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	vs, err := cat.Vectors(kafka.VectorOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	var fr *kafka.Frame
	for _, v := range vs {
		if v.API.Name == "ApiVersions" {
			fr = v.Request
		}
	}
	fs, err := site.Draw(fr, site.Options{Narrow: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	svg, err := site.InlineSVG(fs.Grid, "req-grid")
	if err != nil {
		fmt.Println(err)
		return
	}
	detail, err := site.DetailJSON(fs.Fields, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(fs.Grid.Title, "·", fs.Grid.Width() > fs.Narrow.Width(), "·", len(fs.Bytes), "bytes")
	fmt.Println(strings.HasPrefix(string(svg), "<svg"), strings.Contains(string(detail), `"n":"ClientSoftwareName"`), len(fs.Fields), "fields")
	fmt.Print(site.HexDump(fr.Bytes[:16]))
	// Output:
	// ApiVersions v4 request: byte grid · true · 41 bytes
	// true true 15 fields
	// 00000000  00 00 00 25 00 12 00 04  00 00 00 07 00 09 6b 61  |...%..........ka|
}

// ExampleHexHTML marks the byte where decoding failed in the hex dump a page shows, 8 bytes a
// line as a phone shows it; every byte carries its offset for the page script.
func ExampleHexHTML() {
	b := []byte("\x00\x00\x00\x06\x00\x12\x00\x04\xff\xff")
	fmt.Print(site.HexHTML(b, site.HexOptions{PerLine: 8, Failed: true, FailAt: 8}))
	// Output:
	// <span class="off">0000</span>  <span data-o="0">00</span> <span data-o="1">00</span> <span data-o="2">00</span> <span data-o="3">06</span> <span data-o="4">00</span> <span data-o="5">12</span> <span data-o="6">00</span> <span data-o="7">04</span>  <span class="asc">|........|</span>
	// <span class="off">0008</span>  <span data-o="8" class="bad" title="decoding failed here">ff</span> <span data-o="9">ff</span>                    <span class="asc">|..|</span>
}
