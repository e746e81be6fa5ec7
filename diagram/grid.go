package diagram

import (
	"bytes"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/bytegrid/forms"
)

// gridSpec is a byte grid's source read in any form, and the form it was read in.
type gridSpec struct {
	bytegrid.Spec
	Form string
}

// readGrid reads src in the form from names (the option from=rfc), or the form its content
// tells when from is "" (forms.Read; an error then names the form and the option that asks
// for another). A bit-field document, which has no title, is named forms.BitfieldTitle
// whatever its source's name.
func readGrid(name string, src []byte, from string) (*gridSpec, error) {
	s, f, err := forms.Read(name, src, forms.Options{Form: from, AskForm: "from=%s"})
	if err != nil {
		return nil, err
	}
	g := &gridSpec{Spec: *s, Form: f.Name}
	if f.Name == "bitfield" {
		g.Name = forms.BitfieldTitle
	}
	return g, nil
}

// gridWrite is how a grid is written beside its spec's own options.
type gridWrite = forms.WriteOptions

// errFormat is writeGrid's error for a format it does not write.
var errFormat = forms.ErrUnknownFormat

// writeGrid lays spec out and writes it in format f (forms.Write).
func writeGrid(spec *gridSpec, f string, o gridWrite) ([]byte, error) {
	var buf bytes.Buffer
	if err := forms.Write(&buf, &spec.Spec, spec.Form, f, o); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
