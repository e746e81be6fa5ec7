package jsonw_test

import (
	"fmt"

	"github.com/kafkagrid/kafkagrid/internal/jsonw"
)

// Write an object as json.Marshal writes it: a client id that holds markup comes out with
// <, > and & escaped, safe inside a page's <script type="application/json">.
func ExampleWriter() {
	w := jsonw.New("", "")
	w.Object()
	w.Key("client")
	w.String(`</script><b>&`)
	w.Key("versions")
	w.Array()
	w.Int(0)
	w.Int(4)
	w.End(']')
	w.Key("flexible")
	w.Bool(true)
	w.End('}')
	fmt.Println(string(w.Bytes()))
	// Output:
	// {"client":"\u003c/script\u003e\u003cb\u003e\u0026","versions":[0,4],"flexible":true}
}
