package treesvg_test

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/kafkagrid/kafkagrid/tree"
	"github.com/kafkagrid/kafkagrid/tree/treesvg"
)

func ExampleWrite() {
	root := (&tree.Node{Label: "Request", Length: 6, Path: "Request"}).Add(
		&tree.Node{Label: "Acks", Value: "-1", Type: "int16", Length: 2, Path: "Acks"},
		&tree.Node{Label: "TimeoutMs", Value: "30000", Type: "int32", Offset: 2, Length: 4, Path: "TimeoutMs"},
	)
	d, err := tree.Layout(root, tree.Options{Title: "Request"})
	if err != nil {
		fmt.Println(err)
		return
	}
	var b bytes.Buffer
	if err := treesvg.Write(&b, d, treesvg.Options{Inline: true, IDPrefix: "req"}); err != nil {
		fmt.Println(err)
		return
	}
	for _, l := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(l, "<g class=\"node") {
			fmt.Println(strings.Replace(l, `" >`, `">`, 1)) // svgo may leave a space before >
		}
	}
	// Output:
	// <g class="node kind-plain" data-path="Request" data-offset="0" data-length="6">
	// <g class="node kind-plain" data-path="Acks" data-offset="0" data-length="2">
	// <g class="node kind-plain" data-path="TimeoutMs" data-offset="2" data-length="4">
}
