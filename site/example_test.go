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
