package main

import (
	"io"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/bytegrid/gridyaml"
	"github.com/kafkagrid/kafkagrid/bytegrid/rfcart"
)

// parseGridSpec reads the grid verb's input: a published RFC figure (its first line, after an
// optional "source:" line, is a ruler or a "+-" rule: see package bytegrid/rfcart) or a YAML
// spec (package bytegrid/gridyaml), told apart by content.
func parseGridSpec(name string, src []byte) (*gridyaml.Spec, error) {
	if rfcart.Detect(src) {
		return rfcart.Parse(name, src)
	}
	return gridyaml.Parse(name, src)
}

// writeGridSpec writes the spec read (from a figure, say) as YAML to edit, with the options the
// command line set.
func writeGridSpec(w io.Writer, spec *gridyaml.Spec, opts bytegrid.Options) error {
	s := *spec
	s.Options = opts
	return gridyaml.Write(w, &s)
}
