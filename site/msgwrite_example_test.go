package site_test

import (
	"fmt"
	"os"

	"github.com/kafkagrid/kafkagrid/site"
	"github.com/kafkagrid/kafkagrid/site/htmlw"
)

// WriteMessage writes a message's files, drawings, hex dumps and detail data inside a page's
// section; each value is escaped where it stands, so a hostile file name or id stays text.
// Later stands for the drawings until they are opened.
func ExampleWriteMessage() {
	w := htmlw.New(os.Stdout)
	site.WriteMessage(w, &site.Message{
		ID:    "request",
		Links: []site.Link{{Label: `<b>"grid"</b>`, Href: "javascript:alert(1)"}, {Label: "tree", Href: "f/request tree.svg"}},
		Later: func(w *htmlw.Writer) { w.Raw("<p>Drawn when opened.</p>\n") },
	})
	if err := w.Flush(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// <ul class="files"><li><a href="#ZgotmplZ">&lt;b&gt;&#34;grid&#34;&lt;/b&gt;</a></li><li><a href="f/request%20tree.svg">tree</a></li></ul>
	// <p>Drawn when opened.</p>
}
