package reference

// siteCSS adds the site's pieces to the reference's stylesheet (pageCSS), with its colours, so
// they follow the reader's light or dark preference and fit a phone.
const siteCSS = `{{define "sitecss"}}<style>
.kg-site{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;margin:0 0 1rem;font-size:14px}
.kg-search{position:relative;flex:1 1 18rem;min-width:0;margin:0}
.kg-search input[type=search]{width:100%}
.kg-results{position:absolute;left:0;right:0;top:100%;z-index:20;margin:.25rem 0 0;padding:.25rem 0;list-style:none;background:var(--bg);border:1px solid var(--rule);border-radius:6px;box-shadow:0 4px 14px rgba(0,0,0,.25);max-height:70vh;overflow:auto}
.kg-results li{padding:.3rem .6rem;border-bottom:1px solid var(--rule);overflow-wrap:anywhere}.kg-results li:last-child{border-bottom:0}
.kg-results li.sel,.kg-results li:hover{background:var(--panel)}
.kg-results .kind{display:inline-block;min-width:3.6em;font-size:11px;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}
.kg-results .sub{display:block;font-size:12.5px;color:var(--muted)}
.kg-results .none{color:var(--muted);padding:.3rem .6rem}
nav.kg-rels{display:flex;flex-wrap:wrap;gap:.3rem;align-items:center}
nav.kg-rels>span{color:var(--muted);margin-right:.2rem}
nav.kg-rels a{font-family:"Go Mono","DejaVu Sans Mono",Menlo,Consolas,monospace;padding:.05rem .45rem;border:1px solid var(--rule);border-radius:1em;white-space:nowrap}
nav.kg-rels a[aria-current]{background:var(--link);border-color:var(--link);color:var(--bg);font-weight:600}
nav.kg-rels a.miss{border-style:dashed;color:var(--muted)}
nav.kg-rels a small{font-size:11px;margin-left:.2em}
p.kg-relnote{flex-basis:100%;margin:0;font-size:13px;color:var(--muted)}
.kg-fnote{display:block;font-size:12.5px;color:var(--flex)}
table.kg-matrix{border-collapse:collapse;font-size:13px;margin:.5rem 0 1rem}
table.kg-matrix th,table.kg-matrix td{padding:.2rem .35rem;border:1px solid var(--rule);text-align:center;white-space:nowrap}
table.kg-matrix th{color:var(--muted);font-weight:600;font-size:12px}
table.kg-matrix th.rel{text-align:left;position:sticky;left:0;background:var(--bg)}
table.kg-matrix td.yes{background:color-mix(in srgb,var(--link) 12%,var(--bg))}
table.kg-matrix td.flex{background:color-mix(in srgb,var(--flex) 18%,var(--bg))}
table.kg-matrix td.dep a,table.kg-matrix td.dep span{text-decoration:line-through}
table.kg-matrix td.unst{outline:2px dashed var(--unst);outline-offset:-3px}
table.kg-matrix td.new{font-weight:700}
table.kg-matrix td.gone{color:var(--accent)}
table.kg-matrix td.no{color:var(--rule)}
table.kg-matrix tr.missing th.rel{color:var(--muted)}
table.kg-matrix tfoot td{font-size:11px;color:var(--muted)}
ul.kg-legend{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;padding:0;font-size:13px;color:var(--muted)}
.kg-added,.kg-new{color:var(--flex)}.kg-removed{color:var(--accent)}
table.kg-t{border-collapse:collapse;width:100%;font-size:14px;margin:.25rem 0 1rem}
table.kg-t th,table.kg-t td{text-align:left;vertical-align:top;padding:.3rem .6rem;border-bottom:1px solid var(--rule)}
table.kg-t th{font-size:13px;color:var(--muted);font-weight:600}
table.kg-diff code{overflow-wrap:anywhere;white-space:normal}
@media (max-width:640px){table.kg-matrix{font-size:12px}table.kg-matrix th,table.kg-matrix td{padding:.15rem .25rem}}
@media print{.kg-site{display:none}}
</style>{{end}}`

const siteHTML = `{{define "sitebar"}}{{template "sitecss"}}<div class="kg-site noprint" data-root="{{.Root}}"{{if .Release}} data-release="{{.Release}}"{{end}}>
<form class="kg-search" role="search" action="{{.Overview}}"><input type="search" class="kg-q" name="q" placeholder="Search APIs (fetch v4), fields, error codes, KIPs" aria-label="Search every API, field, error code and KIP of every release" autocomplete="off" spellcheck="false"><ol class="kg-results" hidden></ol></form>
<nav class="kg-rels" aria-label="Releases"><span>{{if .APIName}}{{.APIName}} in{{else}}Release{{end}}</span>{{range .Chips}}<a href="{{.Href}}" title="{{.Title}}"{{if .Current}} aria-current="page"{{end}}{{if .Miss}} class="miss"{{end}}>{{.Release}}{{if .Small}}<small>{{.Small}}</small>{{end}}</a>{{end}}{{if .Matrix}} <a href="{{.Matrix}}" title="{{.APIName}}'s versions in every release">all releases</a>{{else if .Release}} <a href="{{.ReleasePage}}" title="What Kafka {{.Release}} changed, and its versions">changes</a> <a href="{{.Overview}}" title="Every release and API">all releases</a>{{end}}</nav>
{{if .Note}}<p class="kg-relnote">{{.Note}}</p>{{end}}
</div>
<script src="{{.Root}}site.js" defer></script>
{{end}}

{{define "siteindex"}}{{template "head" .}}<title>Kafka wire protocol, {{.First}} to {{.Last}}</title>
{{template "css"}}
</head>
<body>
<main>
<nav class="top"><span>kafkagrid</span><span class="mid">Kafka {{.First}} – {{.Last}}{{with decoder ""}} · <a href="{{.}}">Decode bytes</a>{{end}}</span><a href="releases.json">releases.json</a></nav>
{{.Site}}<h1>Kafka wire protocol, {{.First}} to {{.Last}}</h1>
<p class="lead">Every release's reference side by side: for each API, the versions each release accepts, which release brought each version and which removed it; for each release, what it changed against the one before. Search finds APIs, fields, error codes and KIPs in every release.</p>
<h2 id="releases">Releases</h2>
<div class="scroll"><table class="kg-t">
<thead><tr><th>Release</th><th>APIs</th><th>Against the release before</th><th>Reference</th></tr></thead>
<tbody>
{{range .Releases}}<tr><td class="num"><a href="{{.Page}}">Kafka {{.Release}}</a></td><td class="num">{{.APIs}}</td><td>{{if or .Added .Removed .Changed}}{{.Added}} added, {{.Removed}} removed, {{.Changed}} changed{{else}}the oldest here{{end}}</td><td><a href="{{.Href}}">pages</a>{{if .Book}} · <a href="{{.Book}}">PDF book</a>{{end}}</td></tr>
{{end}}</tbody></table></div>
<h2 id="apis">APIs</h2>
<p class="muted">Each API's page is its matrix of releases and versions.</p>
<div class="scroll"><table class="kg-t">
<thead><tr><th>Key</th><th>API</th><th>Releases</th><th>Versions</th></tr></thead>
<tbody>
{{range .APIs}}<tr><td class="num">{{.Key}}</td><td><a href="{{.Href}}">{{.Name}}</a>{{if .Names}} <span class="muted">({{.Names}})</span>{{end}}</td><td>{{.Span}}{{if .Removed}} <span class="kg-removed">(gone in {{.Removed}})</span>{{end}}</td><td>{{.Versions}}</td></tr>
{{end}}</tbody></table></div>
<footer>Built by kafkagrid from the message schemas of Apache Kafka {{.First}} to {{.Last}}. Apache Kafka is a trademark of the Apache Software Foundation.</footer>
</main>
</body>
</html>
{{end}}

{{define "matrix"}}{{template "head" .}}<title>{{.Name}} (key {{.Key}}) across Kafka releases</title>
{{template "css"}}
</head>
<body>
<main>
<nav class="top"><a href="../index.html">← All APIs</a><span class="mid">{{.Name}} across releases{{with decoder "../"}} · <a href="{{.}}">Decode bytes</a>{{end}}</span><span></span></nav>
{{.Site}}<h1>{{.Name}} <span class="muted" style="font-size:.6em">API key {{.Key}}</span></h1>
{{if .Names}}<p class="lead">{{.Names}}</p>{{end}}
<ul>{{range .Facts}}<li>{{.}}</li>{{end}}</ul>
<h2 id="matrix">Versions by release</h2>
<ul class="kg-legend"><li><b>bold</b>: new in that release</li><li>green: flexible</li><li><s>struck</s>: deprecated</li><li>dashed: unstable</li><li>✕: removed</li><li>First in: the first release of this site that has it (≤{{.Oldest}}: the oldest here has it already)</li></ul>
<div class="scroll"><table class="kg-matrix">
<thead><tr><th class="rel">Release</th><th>Range</th>{{range .Versions}}<th>v{{.}}</th>{{end}}</tr></thead>
<tbody>
{{range .Rows}}<tr{{if .Missing}} class="missing"{{end}}><th class="rel"><a href="{{.Page}}">{{.Release}}</a></th><td>{{.Range}}</td>{{range .Cells}}<td class="{{.Class}}"{{if .Title}} title="{{.Title}}"{{end}}>{{if .Href}}<a href="{{.Href}}">{{.Text}}</a>{{else}}<span>{{.Text}}</span>{{end}}</td>{{end}}</tr>
{{end}}</tbody>
<tfoot><tr><th class="rel">First in</th><td></td>{{range .First}}<td>{{.}}</td>{{end}}</tr>
<tr><th class="rel">Removed in</th><td></td>{{range .Removed}}<td>{{.}}</td>{{end}}</tr></tfoot>
</table></div>
{{range .Fields}}<h2>{{.Title}}</h2>
<div class="scroll"><table class="kg-t"><thead><tr><th>Field</th><th>History</th><th>Versions by release</th></tr></thead><tbody>
{{range .Rows}}<tr><td class="mono">{{wbr .Path}}</td><td>{{.Notes}}</td><td class="muted">{{.Releases}}</td></tr>
{{end}}</tbody></table></div>
{{end}}<footer>Built by kafkagrid from the message schemas alone. <a href="../index.html">All APIs</a></footer>
</main>
</body>
</html>
{{end}}

{{define "release"}}{{template "head" .}}<title>Kafka {{.Release}}: protocol changes and versions</title>
{{template "css"}}
</head>
<body>
<main>
<nav class="top">{{if .PrevPage}}<a href="{{.PrevPage}}" rel="prev">← Kafka {{.Prev}}</a>{{else}}<span></span>{{end}}<span class="mid"><a href="../index.html">All releases</a>{{with decoder "../"}} · <a href="{{.}}">Decode bytes</a>{{end}}</span><a href="{{.Ref}}">Kafka {{.Release}} reference</a></nav>
{{.Site}}<h1>Kafka {{.Release}}</h1>
<p class="lead"><a href="{{.Ref}}">Its reference</a>{{if .Book}} · <a href="{{.Book}}">PDF book</a>{{end}} · <a href="#versions">version table</a> (also in <a href="../releases.json">releases.json</a>)</p>
{{if .Prev}}<h2 id="changes">Against Kafka {{.Prev}}</h2>
<p class="muted">What <code>kafkagrid diff {{.Prev}} {{.Release}}</code> says.</p>
{{template "diffbody" .Diff}}{{else}}<p>The oldest release of this site: nothing to compare it with.</p>{{end}}
<h2 id="versions">Every API's versions</h2>
<p class="muted">Min and max are what a broker of Kafka {{.Release}} accepts; an unstable highest version is not enabled by default, and releases.json leaves it out.</p>
<div class="scroll"><table class="kg-t">
<thead><tr><th>Key</th><th>API</th><th>Min</th><th>Max</th><th>Flexible</th><th>Deprecated</th><th>Unstable</th></tr></thead>
<tbody>
{{range .Table}}<tr><td class="num">{{.Key}}</td><td><a href="{{.Href}}">{{.Name}}</a> <a class="muted" href="{{.Matrix}}">(all releases)</a></td><td class="num">{{.Min}}</td><td class="num">{{.Max}}</td><td>{{.Flexible}}</td><td>{{.Deprecate}}</td><td>{{.Unstable}}</td></tr>
{{end}}</tbody></table></div>
<footer>Built by kafkagrid from the message schemas of Apache Kafka {{.Release}}.</footer>
</main>
</body>
</html>
{{end}}`
