package htmlw_test

import (
	"fmt"
	"os"

	"github.com/kafkagrid/kafkagrid/site/htmlw"
)

func Example() {
	w := htmlw.New(os.Stdout)
	client, href := `rdkafka <"prod">`, "javascript:alert(1)"
	w.Raw(`<p title="`)
	w.Text(client)
	w.Raw(`"><a href="`)
	w.URL(href)
	w.Raw(`">`)
	w.Text(client)
	w.Raw(`</a> `)
	w.Int(3)
	w.Raw("</p>\n")
	if err := w.Flush(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// <p title="rdkafka &lt;&#34;prod&#34;&gt;"><a href="#ZgotmplZ">rdkafka &lt;&#34;prod&#34;&gt;</a> 3</p>
}
