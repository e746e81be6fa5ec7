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
	return j, nil
}
