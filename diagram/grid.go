package diagram

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/kafkagrid/kafkagrid/bytegrid"
	"github.com/kafkagrid/kafkagrid/bytegrid/bitfield"
	"github.com/kafkagrid/kafkagrid/bytegrid/gridyaml"
	"github.com/kafkagrid/kafkagrid/bytegrid/notation"
	"github.com/kafkagrid/kafkagrid/bytegrid/rfcart"
	"github.com/kafkagrid/kafkagrid/site"
)

// bitfieldTitle names a bit-field document, which has no title of its own.
const bitfieldTitle = "bit-field"

// gridSpec is a byte grid's source read in any form.
type gridSpec struct {
	Name, Desc string
	Fields     []bytegrid.Field
	Options    bytegrid.Options
	Form       string
}

// readGrid reads src in the form its content tells.
func readGrid(name string, src []byte) (*gridSpec, error) {
	switch form := detectForm(src); form {
	case "rfc":
		s, err := rfcart.Parse(name, src)
		if err != nil {
			return nil, err
		}
		return &gridSpec{Name: s.Name, Desc: s.Desc, Fields: s.Fields, Options: s.Options, Form: form}, nil
	case "notation":
		s, err := notation.Parse(name, src)
		if err != nil {
			return nil, err
		}
		return &gridSpec{Name: s.Name, Fields: s.Fields, Options: s.Options, Form: form}, nil
	case "bitfield":
		s, err := bitfield.Parse(name, src, bitfield.Options{})
		if err != nil {
			return nil, err
		}
		return &gridSpec{Name: bitfieldTitle, Fields: s.Fields, Options: s.Options, Form: form}, nil
	default:
		s, err := gridyaml.Parse(name, src)
		if err != nil {
			return nil, err
		}
		return &gridSpec{Name: s.Name, Desc: s.Desc, Fields: s.Fields, Options: s.Options, Form: "yaml"}, nil
	}
}

// regKey is a key "reg" of a JSON or JSON5 object (reg:, "reg":, 'reg':).
var regKey = regexp.MustCompile(`(?:^|[{,\s])(?:reg|"reg"|'reg')\s*:`)

// detectForm tells a spec's form from its first meaningful characters.
func detectForm(src []byte) string {
	s := strings.TrimPrefix(string(src[:min(len(src), 64<<10)]), "\ufeff")
	for {
		s = strings.TrimLeft(s, " \t\r\n")
		if strings.HasPrefix(s, "//") || strings.HasPrefix(s, "#") {
			if i := strings.IndexByte(s, '\n'); i >= 0 {
				s = s[i+1:]
				continue
			}
			return "yaml"
		}
		break
	}
	if strings.HasPrefix(s, "[") || strings.HasPrefix(s, "/*") {
		return "bitfield"
	}
	if strings.HasPrefix(s, "{") {
		if regKey.MatchString(s) {
			return "bitfield"
		}
		return "yaml"
	}
	line, _, _ := strings.Cut(s, "\n")
	line = strings.TrimSpace(line)
	if strings.HasSuffix(line, "{") && !strings.Contains(line, ":") && len(line) > 1 {
		return "notation"
	}
	if rfcart.Detect(src) {
		return "rfc"
	}
	return "yaml"
}

// gridWrite is how a grid is written beside its spec's own options.
type gridWrite struct {
	RowBits        int
	Decimal, NoHex bool
	site.WriteOptions
}

// errFormat is writeGrid's error for a format it does not write.
var errFormat = errors.New("unknown format")

// writeGrid lays spec out and writes it in format f.
func writeGrid(spec *gridSpec, f string, o gridWrite) ([]byte, error) {
	opts := spec.Options
	if o.RowBits != 0 {
		opts.RowBits = o.RowBits
	}
	if o.Decimal {
		opts.DecimalOffsets = true
	}
	if o.NoHex {
		opts.NoHex = true
	}
	sf, ok := site.LookupFormat(f)
	if !ok || sf.Write == nil {
		return nil, fmt.Errorf("%w %q", errFormat, f)
	}
	d, err := bytegrid.Layout(spec.Fields, opts)
	if err != nil && spec.Form == "bitfield" {
		return nil, fmt.Errorf("%w (the rows are bit-field's lanes, of %d bits here: -lanes and -bits change them)", err, opts.RowBits)
	}
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	wo := o.WriteOptions
	wo.Title, wo.Desc = spec.Name, spec.Desc
	if err := sf.Write(&buf, d, wo); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
