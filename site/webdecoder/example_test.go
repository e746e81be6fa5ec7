package webdecoder_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site/webdecoder"
)

// Example decodes a pasted ApiVersions v3 request as the browser decoder does: the text decode
// prints and the drawing of the exchange at once; the report's files when asked, each written
// when it is opened.
func Example() {
	dir, err := testenv.ReleaseDir("4.0")
	if err != nil {
		log.Fatal(err)
	}
	cat, err := kafka.LoadCatalog(dir)
	if err != nil {
		log.Fatal(err)
	}
	d := webdecoder.New(webdecoder.Releases{Names: []string{"4.0"}, Load: func(string) (*kafka.Catalog, bool, error) { return cat, true, nil }})
	paste := "00 00 00 1c 00 12 00 03 00 00 00 07 00 04 74 65 73 74 00 06 6b 61 66 6b 61 06 34 2e 30 2e 30 00"
	res := d.Decode(context.Background(), webdecoder.Request{Release: "4.0", Name: "-"}, []byte(paste))
	fmt.Println("exit status", res.Status)
	fmt.Println(strings.SplitN(res.Text, "\n", 2)[0])
	for _, f := range res.Figures {
		fmt.Println(f.Heading, "·", f.Meta, "· grid and tree drawn:", f.Grid != "" && f.Tree != "")
	}
	files, first, err := d.Report()
	if err != nil {
		log.Fatal(err)
	}
	page, err := d.File(first)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(files), "report files; shown first:", first, strings.HasPrefix(page, "<!DOCTYPE html>"))
	// Output:
	// exit status 0
	// note: read as plain hex: whole frames, each with its size prefix
	// ApiVersions v3 request · 32 bytes · correlation id 7 · header v2 · grid and tree drawn: true
	// 6 report files; shown first: exchanges/c1-1.html true
}
