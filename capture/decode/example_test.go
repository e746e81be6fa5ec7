package decode_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"log"
	"strings"

	"github.com/kafkagrid/kafkagrid/capture/decode"
	"github.com/kafkagrid/kafkagrid/internal/testenv"
	"github.com/kafkagrid/kafkagrid/kafka"
)

// Example reads a response pasted as hex without its size prefix, with only its API known:
// the Reader finds the version that reads it whole and says so in a note, and Write prints
// its tree as "kafkagrid decode -api ApiVersions -response" does (its first lines here).
func Example() {
	dir, err := testenv.ReleaseDir("4.0")
	if err != nil {
		log.Fatal(err)
	}
	cat, err := kafka.LoadCatalog(dir)
	if err != nil {
		log.Fatal(err)
	}
	vs, err := cat.Vectors(kafka.VectorOptions{})
	if err != nil {
		log.Fatal(err)
	}
	var pasted string
	for _, v := range vs {
		if v.API.Name == "ApiVersions" {
			pasted = hex.EncodeToString(v.Response.Bytes[4:]) // no size prefix
		}
	}

	f := decode.DefaultFlags()
	f.API, f.Response = "ApiVersions", true
	r, err := decode.NewReader(context.Background(), cat, f, "pasted.hex", decode.Releases{})
	if err != nil {
		log.Fatal(err)
	}
	res, err := r.Read([]byte(pasted))
	if err != nil {
		log.Fatal(err)
	}
	var out bytes.Buffer
	if err := decode.Write(&out, res, decode.Format{}); err != nil {
		log.Fatal(err)
	}
	for _, l := range strings.SplitAfterN(out.String(), "\n", 8)[:7] {
		fmt.Print(l)
	}
	fmt.Println(decode.Status(cat, res, decode.CountOf(res)))
	// Output:
	// note: read as hex stream
	// note: 2 readings of these bytes (frame without its size prefix) decode them whole, best first: ApiVersions v4 response, ApiVersions v3 response (the same fields and values); decoded as the first: give -version N to choose another
	//
	// -- ApiVersions v4 response, correlation id 7, 79 bytes at offset 0
	// offset  len  type                     node
	//      0   79  frame                    frame = ApiVersions v4 response
	//      0    4  struct                     header = ResponseHeader v0
	// <nil>
}
