package reference

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site"
)

// TestDetailEveryPath checks that the detail panel has an entry for every data-path the
// drawings of a page carry, the fields of the frame an Envelope carries included, with the
// outer frame's offsets.
func TestDetailEveryPath(t *testing.T) {
	cat := catalog(t, "4.0")
	content, err := vectorContent(cat, kafka.VersionSet{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	dataPath := regexp.MustCompile(`data-path="([^"]*)"`)
	for _, name := range []string{"Envelope", "Produce", "Fetch"} {
		a, ok := cat.Lookup(name)
		if !ok {
			t.Fatalf("no API %s", name)
		}
		c, err := content(a, a.Version, HTML)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []*message{c.Request, c.Response} {
			byPath := map[string]fieldInfo{}
			for _, f := range m.Fields {
				byPath[f.Path] = f
			}
			nested := 0
			for _, d := range []site.Figure{m.Grid, m.Tree} {
				svg, err := site.InlineSVG(d, "x")
				if err != nil {
					t.Fatal(err)
				}
				for _, p := range dataPath.FindAllStringSubmatch(string(svg), -1) {
					path := strings.ReplaceAll(p[1], "&#34;", `"`)
					f, ok := byPath[path]
					if !ok {
						t.Errorf("%s: %s is drawn but has no detail", m.Base, path)
						continue
					}
					if f.Offset < 0 || f.Offset+f.Length > len(m.Bytes) || f.Type == "" {
						t.Errorf("%s: %s: detail %+v outside the frame's %d bytes or without a type", m.Base, path, f, len(m.Bytes))
					}
					if strings.HasPrefix(path, "RequestData.") || strings.HasPrefix(path, "ResponseData.") {
						nested++
					}
				}
			}
			if name == "Envelope" && nested == 0 {
				t.Errorf("%s: no field of the embedded frame drawn", m.Base)
			}
		}
	}
	// The embedded request's RequestApiKey: 2 bytes of the outer frame, holding its key.
	a, _ := cat.Lookup("Envelope")
	c, err := content(a, a.Version, HTML)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range c.Request.Fields {
		if f.Path == "RequestData.header.RequestApiKey" {
			if f.Length != 2 || f.Value == "" || f.Spec == "" {
				t.Errorf("RequestData.header.RequestApiKey: %+v", f)
			}
			key := int(c.Request.Bytes[f.Offset])<<8 | int(c.Request.Bytes[f.Offset+1])
			if want := strconv.Itoa(key) + " → CreateTopics"; f.Value != want {
				t.Errorf("RequestData.header.RequestApiKey: value %q, the bytes at 0x%04x hold %d (want %q)", f.Value, f.Offset, key, want)
			}
			return
		}
	}
	t.Error("no detail for RequestData.header.RequestApiKey")
}
