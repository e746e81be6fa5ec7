package reference

import (
	"fmt"
	"html/template"

	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site"
)

// fieldInfo is what a page's detail panel shows for one node of the annotated frame
// (site.Field, which site.Draw lists).
type fieldInfo = site.Field

// detailJSON renders the detail data of one message for a <script type="application/json">
// (site.DetailJSON), its fields linked to the lines of the API's schema files on the page.
func detailJSON(fields []fieldInfo, a *kafka.API) (template.JS, error) {
	j, err := site.DetailJSON(fields, map[string]string{
		a.Request.File:  "request-schema-L",
		a.Response.File: "response-schema-L",
	})
	if err != nil {
		return "", fmt.Errorf("reference: %s: %w", a.Name, err)
	}
	return template.JS(j), nil
}

// inlineSVG is site.InlineSVG for the reference's html/template pages.
func inlineSVG(f site.Figure, id string) (template.HTML, error) {
	s, err := site.InlineSVG(f, id)
	return template.HTML(s), err
}

// hexHTML is site.HexHTML for the reference's html/template pages.
func hexHTML(b []byte, o site.HexOptions) template.HTML { return template.HTML(site.HexHTML(b, o)) }
