package reference

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/twmb/franz-go/pkg/kerr"
)

// The error-code page (errors.html): every code Kafka defines with its name, whether a client
// may retry it, and what it means (the description franz-go's kerr carries), and, for each,
// the APIs whose response can carry it: those whose response schemas name it in their
// comments or about texts, and those whose response class in Kafka's code lists it as
// possible (kafkaErrorLists), else those Kafka's Admin client or the API's handler gives
// (kafkaCodeErrorLists), else those franz-go's kmsg documents as returned (kmsgErrorLists),
// each said where it comes from. A response's ErrorCode fields can
// carry more than both name (UNKNOWN_SERVER_ERROR always); the page says so.

type errorCodesView struct {
	Release   string
	Generator string
	Codes     []errorCodeRow
	NumAPIs   int         // the APIs whose response schemas were read
	ByAPI     []apiErrors // the same, API by API
}

// apiErrors is an API and the error codes its response can carry: those its response schema
// names, and those Kafka's response class lists that the schema does not name.
type apiErrors struct {
	API    apiLink
	Codes  []errorCodeRow // Code and Name only
	Listed []errorCodeRow // Code and Name only
	Class  string         // the response class that lists them, "ProduceResponse.java"
}

// errorsByAPI turns rows around: each API with the codes its response schema names and those
// only Kafka's response class lists, by key.
func errorsByAPI(rows []errorCodeRow) []apiErrors {
	var out []apiErrors
	at := map[int16]int{}
	entry := func(a apiLink) *apiErrors {
		i, ok := at[a.Key]
		if !ok {
			i = len(out)
			at[a.Key] = i
			out = append(out, apiErrors{API: a})
		}
		return &out[i]
	}
	for _, r := range rows {
		for _, a := range r.APIs {
			e := entry(a)
			e.Codes = append(e.Codes, errorCodeRow{Code: r.Code, Name: r.Name})
		}
		for _, a := range r.Listed {
			e := entry(a)
			e.Listed = append(e.Listed, errorCodeRow{Code: r.Code, Name: r.Name})
			_, e.Class = errorList(a.Name)
		}
	}
	slices.SortFunc(out, func(a, b apiErrors) int { return int(a.API.Key) - int(b.API.Key) })
	return out
}

type errorCodeRow struct {
	Code        int16
	Name        string
	Retriable   bool
	Description string
	APIs        []apiLink // the APIs whose response schema names the code, by key
	// Listed are the APIs whose response class in Kafka's code lists the code as possible
	// (kafkaErrorLists) and whose schema does not name it, by key.
	Listed []apiLink
}

// errorCodeRows lists Kafka's error codes in order with kerr's descriptions and the APIs of
// apis whose response schema text names each (a whole-word match of the code's name, as in
// "UNKNOWN_TOPIC_OR_PARTITION if the topic does not exist").
func errorCodeRows(apis []*kafka.API, href func(*kafka.API) string) []errorCodeRow {
	codes := kafka.ErrorCodes()
	rows := make([]errorCodeRow, 0, len(codes))
	index := make(map[string]int, len(codes))
	for _, c := range codes {
		r := errorCodeRow{Code: c.Code, Name: c.Name, Retriable: c.Retriable}
		if e, ok := kerr.ErrorForCode(c.Code).(*kerr.Error); ok && e.Code == c.Code {
			r.Description = e.Description
		} else if c.Code == 0 {
			r.Description = "No error: the request, or this part of it, succeeded."
		}
		index[c.Name] = len(rows)
		rows = append(rows, r)
	}
	byKey := slices.Clone(apis)
	slices.SortFunc(byKey, func(a, b *kafka.API) int { return int(a.Key) - int(b.Key) })
	for _, a := range byKey {
		if a.Response == nil {
			continue
		}
		named := map[string]bool{}
		for _, name := range errorNamesIn(a.Response.Raw) {
			if i, ok := index[name]; ok && name != "NONE" {
				named[name] = true
				rows[i].APIs = append(rows[i].APIs, apiLink{Key: a.Key, Name: a.Name, Href: href(a)})
			}
		}
		list, _ := errorList(a.Name)
		mark := strings.Trim(listSource(a.Name), " ()")
		for _, name := range list {
			if i, ok := index[name]; ok && name != "NONE" && !named[name] {
				named[name] = true
				rows[i].Listed = append(rows[i].Listed, apiLink{Key: a.Key, Name: a.Name, Href: href(a), Mark: mark})
			}
		}
	}
	return rows
}

// errorNamesIn returns the distinct upper-case snake-case words of src (the candidates for
// error names: UNKNOWN_TOPIC_OR_PARTITION), in order of first appearance. It reads src once.
func errorNamesIn(src []byte) []string {
	var out []string
	seen := map[string]bool{}
	isWord := func(c byte) bool { return c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' }
	for i := 0; i < len(src); {
		if !isWord(src[i]) || i > 0 && (src[i-1] >= 'a' && src[i-1] <= 'z') {
			i++
			continue
		}
		j := i
		for j < len(src) && isWord(src[j]) {
			j++
		}
		if j < len(src) && src[j] >= 'a' && src[j] <= 'z' {
			i = j // part of a camel-case word (ErrorCode)
			continue
		}
		w := string(src[i:j])
		if strings.Contains(w, "_") && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
		i = j
	}
	return out
}

// writeErrorCodes writes errors.html.
func (b *builder) writeErrorCodes() error {
	v := &errorCodesView{Release: b.release, Generator: "kafkagrid", NumAPIs: len(b.site)}
	v.Codes = errorCodeRows(b.site, func(a *kafka.API) string { return "api/" + a.Name + ".html" })
	v.ByAPI = errorsByAPI(v.Codes)
	var buf bytes.Buffer
	if err := b.tmpl.ExecuteTemplate(&buf, "errors", v); err != nil {
		return fmt.Errorf("reference: errors.html: %w", err)
	}
	return b.out.Create("errors.html", func(w io.Writer) error {
		_, err := w.Write(buf.Bytes())
		return err
	})
}

// errorsHTML is the error-code page's template (parsed with the others, pageTemplates).
const errorsHTML = `{{define "errors"}}{{template "head" .}}<title>Error codes · Kafka {{.Release}} protocol</title>
{{template "css"}}
</head>
<body>
<main>
<nav class="top"><span>kafkagrid</span><span class="mid"><a href="index.html">Kafka {{.Release}} index</a>{{with decoder ""}} · <a href="{{.}}">Decode bytes</a>{{end}}</span><span></span></nav>
<h1>Error codes</h1>
<p class="lead">Every error code of the Kafka protocol: the number an ErrorCode field carries (int16), its name, whether a client may retry the request that got it, and what it means. "Returned by" lists the APIs whose response can carry it, from these sources: the response schema's comments ({{.NumAPIs}} schemas read); marked <sup>K</sup>, where the schema does not name the code, the "possible error codes" that Kafka's own response class lists (ProduceResponse.java and 27 others); for 28 APIs whose class lists none, what Kafka's Admin client says the API's method can fail with (Admin.java) or the codes Kafka's broker or controller code for the API sends (AddVoterHandler.java for AddRaftVoter, and so on); all of Kafka's code, marked <sup>K</sup>; for 22 more, the codes franz-go's kmsg documents as returned in the response's fields (CreateTopics and 21 others), marked <sup>F</sup>; "By API" names each list's source. A response can also carry codes none of them names, UNKNOWN_SERVER_ERROR above all.</p>
<div class="scroll"><table class="hist errors">
<thead><tr><th>Code</th><th>Name</th><th>Retriable</th><th>Description</th><th>Returned by</th></tr></thead>
<tbody>
{{range .Codes}}<tr id="{{.Name}}"><td class="num">{{.Code}}</td><td class="mono">{{.Name}}</td><td data-label="Retriable">{{if .Retriable}}yes{{else}}no{{end}}</td><td>{{.Description}}</td><td{{if or .APIs .Listed}} data-label="Returned by"{{end}}>{{range $i, $a := .APIs}}{{if $i}}, {{end}}<a href="{{$a.Href}}">{{$a.Name}}</a>{{end}}{{$n := len .APIs}}{{range $i, $a := .Listed}}{{if or $i $n}}, {{end}}<a href="{{$a.Href}}" title="listed for {{$a.Name}} in {{if eq $a.Mark "F"}}franz-go's docs{{else}}Kafka's code{{end}}: see By API">{{$a.Name}}</a><sup>{{$a.Mark}}</sup>{{end}}</td></tr>
{{end}}</tbody></table></div>
<h2 id="by-api">By API</h2>
<p class="muted">The errors each API's response can carry: those its response schema names, where its comments say when a response carries them; then those the schema does not name, from the source said.</p>
<dl class="meta byapi">{{range .ByAPI}}<dt><a href="{{.API.Href}}">{{.API.Name}}</a> <span class="muted">(API key {{.API.Key}})</span></dt><dd>{{if .Codes}}<span class="muted">Named in its schema:</span> {{range $i, $c := .Codes}}{{if $i}}, {{end}}<a href="#{{$c.Name}}" class="mono">{{$c.Name}}</a> {{$c.Code}}{{end}}{{end}}{{if .Listed}}{{if .Codes}}<br>{{end}}<span class="muted">Listed in {{.Class}}:</span> {{range $i, $c := .Listed}}{{if $i}}, {{end}}<a href="#{{$c.Name}}" class="mono">{{$c.Name}}</a> {{$c.Code}}{{end}}{{end}}</dd>
{{end}}</dl>
<footer>Built by kafkagrid from the message schemas of Apache Kafka {{.Release}}; descriptions from franz-go's kerr. <a href="index.html">Index</a></footer>
</main>
</body>
</html>
{{end}}`
