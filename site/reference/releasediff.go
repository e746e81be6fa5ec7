package reference

import (
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/kafkagrid/kafkagrid/schemas"
)

// What "kafkagrid diff" prints and what a release page of a site of releases shows are one
// thing: a schemas.ReleaseDiff made into a DiffDoc, written as text (WriteDiffText), JSON (the
// DiffDoc as it is), a standalone page (WriteDiffPage) or a section of the release page
// (the template diffbody, with links).

// WriteDiffText writes a release diff for a terminal, as "kafkagrid diff" prints it.
func WriteDiffText(w io.Writer, d *schemas.ReleaseDiff) error {
	ew := &strings.Builder{}
	fmt.Fprintf(ew, "Kafka %s → %s\n", d.Old, d.New)
	if d.Empty() {
		fmt.Fprintln(ew, "no differences")
		_, err := io.WriteString(w, ew.String())
		return err
	}
	section := func(title string, keep func(a schemas.APIDiff) bool, line func(a schemas.APIDiff) string) {
		var lines []string
		for _, a := range d.APIs {
			if keep(a) {
				lines = append(lines, line(a))
			}
		}
		if len(lines) > 0 {
			fmt.Fprintf(ew, "\n%s:\n", title)
			for _, l := range lines {
				fmt.Fprintln(ew, "  "+l)
			}
		}
	}
	section("APIs added", schemas.APIDiff.Added, func(a schemas.APIDiff) string {
		return fmt.Sprintf("%d %s v%s", a.Key, a.NewName, a.NewVersions)
	})
	section("APIs removed", schemas.APIDiff.Removed, func(a schemas.APIDiff) string {
		return fmt.Sprintf("%d %s v%s", a.Key, a.OldName, a.OldVersions)
	})
	both := func(a schemas.APIDiff) bool { return !a.Added() && !a.Removed() }
	section("Versions", func(a schemas.APIDiff) bool {
		return both(a) && (a.OldVersions != a.NewVersions || a.OldFlexible != a.NewFlexible || a.OldName != a.NewName)
	}, func(a schemas.APIDiff) string {
		name := a.NewName
		if a.OldName != a.NewName {
			name = a.OldName + " → " + a.NewName
		}
		s := fmt.Sprintf("%d %s: v%s → v%s", a.Key, name, a.OldVersions, a.NewVersions)
		if cut := versionsCut(a.OldVersions, a.NewVersions); cut != "" {
			s += " (" + cut + ")"
		}
		if a.OldFlexible != a.NewFlexible {
			s += fmt.Sprintf("; flexible %s → %s", a.OldFlexible, a.NewFlexible)
		}
		return s
	})
	for _, a := range d.APIs {
		if len(a.Fields) == 0 {
			continue
		}
		fmt.Fprintf(ew, "\n%d %s, at versions both have:\n", a.Key, a.NewName)
		for _, f := range a.Fields {
			fmt.Fprintf(ew, "  %s v%s: %s\n", f.Message, f.Versions, fieldDiffText(f))
		}
	}
	_, err := io.WriteString(w, ew.String())
	return err
}

// versionsCut says which versions a range change removed and added: "removed v0-2, added v12".
func versionsCut(o, n schemas.VersionRange) string {
	var parts []string
	span := func(lo, hi int16) string {
		if lo == hi {
			return fmt.Sprintf("v%d", lo)
		}
		return fmt.Sprintf("v%d-%d", lo, hi)
	}
	if n.Lo > o.Lo {
		parts = append(parts, "removed "+span(o.Lo, min(n.Lo-1, o.Hi)))
	}
	if n.Hi < o.Hi {
		parts = append(parts, "removed "+span(max(n.Hi+1, o.Lo), o.Hi))
	}
	if n.Lo < o.Lo {
		parts = append(parts, "added "+span(n.Lo, min(o.Lo-1, n.Hi)))
	}
	if n.Hi > o.Hi && n.Hi != schemas.MaxVersion {
		parts = append(parts, "added "+span(max(o.Hi+1, n.Lo), n.Hi))
	}
	return strings.Join(parts, ", ")
}

// versionsText is "v3-12", or "none".
func versionsText(r string) string {
	if r == "none" {
		return r
	}
	return "v" + r
}

func fieldDiffText(f schemas.FieldDiff) string {
	switch f.Kind {
	case "added":
		return "adds " + f.Path + " (" + f.New + ")"
	case "removed":
		return "removes " + f.Path + " (" + f.Old + ")"
	case "renamed":
		return "renames " + f.Old + " to " + f.New + " (same bytes)"
	}
	return fmt.Sprintf("%s: %s → %s", f.Path, f.Old, f.New)
}

// DiffDoc is the JSON and HTML form of a release diff.
type DiffDoc struct {
	Old  string       `json:"old"`
	New  string       `json:"new"`
	Same bool         `json:"same"`
	APIs []APIDiffDoc `json:"apis"`
}

// APIDiffDoc is one API's differences.
type APIDiffDoc struct {
	Key         int16          `json:"key"`
	OldName     string         `json:"old_name,omitempty"`
	NewName     string         `json:"new_name,omitempty"`
	Change      string         `json:"change"` // added, removed, changed
	OldVersions string         `json:"old_versions"`
	NewVersions string         `json:"new_versions"`
	VersionsCut string         `json:"versions_cut,omitempty"`
	OldFlexible string         `json:"old_flexible"`
	NewFlexible string         `json:"new_flexible"`
	Fields      []FieldDiffDoc `json:"fields"`
	// Href links the API's name on a release page (its matrix page); "" elsewhere.
	Href string `json:"-"`
}

// FieldDiffDoc is one field's difference over a run of versions.
type FieldDiffDoc struct {
	Message  string `json:"message"`
	Path     string `json:"path"`
	Kind     string `json:"kind"`
	Old      string `json:"old,omitempty"`
	New      string `json:"new,omitempty"`
	Versions string `json:"versions"`
	Text     string `json:"text"`
}

// NewDiffDoc makes the document of a release diff.
func NewDiffDoc(d *schemas.ReleaseDiff) DiffDoc {
	doc := DiffDoc{Old: d.Old, New: d.New, Same: d.Empty(), APIs: []APIDiffDoc{}}
	for _, a := range d.APIs {
		ad := APIDiffDoc{Key: a.Key, OldName: a.OldName, NewName: a.NewName, Change: "changed",
			OldVersions: a.OldVersions.String(), NewVersions: a.NewVersions.String(),
			VersionsCut: versionsCut(a.OldVersions, a.NewVersions),
			OldFlexible: a.OldFlexible.String(), NewFlexible: a.NewFlexible.String(), Fields: []FieldDiffDoc{}}
		switch {
		case a.Added():
			ad.Change, ad.VersionsCut = "added", ""
		case a.Removed():
			ad.Change, ad.VersionsCut = "removed", ""
		}
		for _, f := range a.Fields {
			ad.Fields = append(ad.Fields, FieldDiffDoc{Message: f.Message, Path: f.Path, Kind: f.Kind, Old: f.Old, New: f.New,
				Versions: f.Versions.String(), Text: fieldDiffText(f)})
		}
		doc.APIs = append(doc.APIs, ad)
	}
	return doc
}

// diffView is a diff on a page: the document, and the id prefix of its sections.
type diffView struct {
	DiffDoc
	Generator string
	Site      template.HTML
}

// WriteDiffPage writes a release diff as a standalone page in the reference's style.
func WriteDiffPage(w io.Writer, doc DiffDoc) error {
	t, err := siteTemplates()
	if err != nil {
		return err
	}
	if err := t.ExecuteTemplate(w, "diffpage", diffView{DiffDoc: doc, Generator: "kafkagrid"}); err != nil {
		return fmt.Errorf("reference: diff page: %w", err)
	}
	return nil
}

// diffHTML is the diff's section of a page (diffbody) and the standalone page (diffpage).
const diffHTML = `{{define "diffbody"}}{{if .Same}}<p>The two releases speak the same protocol.</p>{{else}}
<h2 id="apis-changed">APIs and version ranges</h2>
<div class="scroll"><table class="kg-t kg-diff">
<thead><tr><th>Key</th><th>API</th><th>Change</th><th>Versions</th><th>Flexible</th></tr></thead>
<tbody>
{{range .APIs}}<tr><td class="num">{{.Key}}</td><td>{{if .Href}}<a href="{{.Href}}">{{end}}{{if and .OldName .NewName (ne .OldName .NewName)}}{{.OldName}} → {{end}}{{if .NewName}}{{.NewName}}{{else}}{{.OldName}}{{end}}{{if .Href}}</a>{{end}}</td>
<td class="kg-{{.Change}}">{{.Change}}</td><td>{{v .OldVersions}} → {{v .NewVersions}}{{if .VersionsCut}} ({{.VersionsCut}}){{end}}</td><td>{{.OldFlexible}} → {{.NewFlexible}}</td></tr>
{{end}}</tbody></table></div>
{{range .APIs}}{{if .Fields}}<h3>{{.Key}} {{if .Href}}<a href="{{.Href}}">{{.NewName}}</a>{{else}}{{.NewName}}{{end}}: fields at versions both have</h3>
<div class="scroll"><table class="kg-t kg-diff"><thead><tr><th>Message</th><th>Versions</th><th>Change</th></tr></thead><tbody>
{{range .Fields}}<tr><td>{{.Message}}</td><td>v{{.Versions}}</td><td class="kg-{{.Kind}}"><code>{{.Text}}</code></td></tr>
{{end}}</tbody></table></div>{{end}}{{end}}{{end}}{{end}}

{{define "diffpage"}}{{template "head" .}}<title>Kafka {{.Old}} → {{.New}}: protocol changes</title>
{{template "css"}}{{template "sitecss"}}
</head>
<body>
<main>
<h1>Kafka {{.Old}} → {{.New}}</h1>
{{template "diffbody" .}}
<footer>Built by kafkagrid from the message schemas of Apache Kafka {{.Old}} and {{.New}}.</footer>
</main>
</body>
</html>
{{end}}`

// WriteDiff writes the differences d in format, as kafkagrid diff does: "json" (NewDiffDoc,
// indented two spaces), "html" (WriteDiffPage), else text (WriteDiffText).
func WriteDiff(w io.Writer, d *schemas.ReleaseDiff, format string) error {
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(NewDiffDoc(d))
	case "html":
		return WriteDiffPage(w, NewDiffDoc(d))
	}
	return WriteDiffText(w, d)
}
