package reference

import (
	"context"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/schemas"
	"github.com/kafkagrid/kafkagrid/site/outdir"
)

// A site of releases ("kafkagrid build -schemas FOLDER-OF-RELEASES") is one folder:
//
//	<release>/...          each release's reference as Build writes it, book included
//	index.html             the releases and the APIs, with links to all of it
//	matrix/<Api>.html      an API's release × version matrix and its fields' history
//	release/<release>.html what a release added, changed and removed against the one before
//	                       (the same document as "kafkagrid diff"), and its version table
//	releases.json          every release's key → [min, max] (History.ReleasesJSON)
//	search-index.js        the search's index, loaded by site.js when the reader searches
//	site.js                the search box and its results (no server, works from file://)
//
// Every page of every release gets a site bar: the search box and a release switcher that
// keeps the reader on the same API and version where the other release has it, and says so
// where it does not. Field tables say since which version and release a field is there,
// tagged and nullable, and where it went.

// SiteOptions configure BuildSite.
type SiteOptions struct {
	// Options are every release's: formats, versions, paper, date, force, workers… (APIs must
	// be empty: a site has every API of every release). Source is ignored for Sources.
	Options
	// Sources say where each release's schemas came from, in the catalogues' order.
	Sources []string
	// Progress, when not nil, gets a line per release as it is built.
	Progress io.Writer
}

// SiteSummary says what BuildSite wrote.
type SiteSummary struct {
	Releases []Summary // each release's reference
	Files    int       // the site's own files (index, matrices, release pages, JSON, search)
	Bytes    int64
	// SearchIndex is the size in bytes of search-index.js.
	SearchIndex int
}

//go:embed site.js
var siteJS []byte

// MatrixPageName is the path of an API's matrix page below the site's folder.
func MatrixPageName(name string) string { return "matrix/" + name + ".html" }

// ReleasePageName is the path of a release's page below the site's folder.
func ReleasePageName(rel string) string { return "release/" + rel + ".html" }

// siteRelease is what a release's build knows of the site around it (Options.site).
type siteRelease struct {
	h     *History
	index int // this release's place in h.Releases
	// built[r][key] is the versions release r builds of an API, highest first.
	built []map[int16][]int16
	pdf   bool
}

// BuildSite builds the reference of every release, oldest first, each into out/<release>,
// and the pages over them. The catalogues must be in release order.
func BuildSite(ctx context.Context, cats []*kafka.Catalog, out string, opts SiteOptions) (SiteSummary, error) {
	var sum SiteSummary
	if len(opts.APIs) > 0 {
		return sum, fmt.Errorf("reference: a site of releases has every API (no -apis)")
	}
	h, err := NewHistory(cats)
	if err != nil {
		return sum, err
	}
	for _, rel := range h.Releases {
		if !safeReleaseName(rel) {
			return sum, fmt.Errorf("reference: release name %q cannot name a folder of the site", rel)
		}
	}
	if opts.Formats == 0 {
		opts.Formats = AllFormats
	}
	if opts.Formats&HTML == 0 {
		return sum, fmt.Errorf("reference: a site of releases is pages: -format must include html")
	}
	built := make([]map[int16][]int16, len(cats))
	for i, c := range cats {
		built[i] = map[int16][]int16{}
		for _, a := range c.APIs {
			built[i][a.Key] = opts.Versions.Of(a)
		}
	}
	sb := &siteBuilder{h: h, built: built, pdf: opts.Formats&PDF != 0, decoder: opts.Decoder}
	// Every file the site will write is checked before the first is, as a build checks its
	// own (newBuilder): the site's files at its root, then each release's.
	if err := sb.checkPlan(out, opts.Force); err != nil {
		return sum, err
	}
	releaseOpts := make([]Options, len(cats))
	for i := range cats {
		o := opts.Options
		o.Progress = nil
		if i < len(opts.Sources) {
			o.Source = opts.Sources[i]
		}
		o.site = &siteRelease{h: h, index: i, built: built, pdf: opts.Formats&PDF != 0}
		if _, err := newBuilder(cats[i], filepath.Join(out, h.Releases[i]), o, nil); err != nil {
			return sum, fmt.Errorf("reference: %s: %w", h.Releases[i], err)
		}
		releaseOpts[i] = o
	}
	for i, c := range cats {
		if opts.Progress != nil {
			fmt.Fprintf(opts.Progress, "kafkagrid: building Kafka %s (%d of %d)\n", h.Releases[i], i+1, len(cats))
		}
		s, err := Build(ctx, c, filepath.Join(out, h.Releases[i]), releaseOpts[i])
		if err != nil {
			return sum, fmt.Errorf("reference: %s: %w", h.Releases[i], err)
		}
		sum.Releases = append(sum.Releases, s)
	}
	o, err := outdir.Open(ctx, out, outdir.Options{Force: opts.Force, Temps: opts.Temps})
	if err != nil {
		return sum, err
	}
	defer o.Close()
	sb.out = o
	if sb.tmpl, err = siteTemplates(); err != nil {
		return sum, err
	}
	if opts.Decoder != nil {
		// The site's pages link to the site's one decoder page, at its root: templates of
		// their own, since the shared ones link to none.
		if sb.tmpl, err = parseSiteTemplates(); err != nil {
			return sum, err
		}
		sb.tmpl.Funcs(template.FuncMap{"decoder": func(root string) string { return root + DecoderPage }})
	}
	err = sb.run(cats)
	if merr := o.Finish(outdir.FinishOptions{Release: "site of " + strings.Join(h.Releases, " ")}); err == nil {
		err = merr
	}
	sum.Files, sum.Bytes = o.Counts()
	sum.SearchIndex = sb.searchSize
	return sum, err
}

// safeReleaseName reports whether a release's name can name a folder and a file of the site.
func safeReleaseName(s string) bool {
	if s == "" || s == "." || s == ".." || len(s) > 64 {
		return false
	}
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '.' || r == '-' || r == '_') {
			return false
		}
	}
	switch s {
	case "matrix", "release", "index.html", "releases.json", "search-index.js", "site.js", outdir.ManifestName, "decode", DecoderPage:
		return false // the site's own files and folders
	}
	return true
}

type siteBuilder struct {
	h          *History
	out        *outdir.Folder
	built      []map[int16][]int16
	pdf        bool
	tmpl       *template.Template
	searchSize int
	decoder    fs.FS // the browser decoder's files (Options.Decoder), or nil
}

// checkPlan checks every file the site writes at its root (run) before the first is written
// (outdir.CheckPlan), against the root's manifest.
func (sb *siteBuilder) checkPlan(out string, force bool) error {
	prev, err := outdir.ReadManifest(out)
	if err != nil {
		return err
	}
	if err := prev.CheckKind(out, ""); err != nil {
		return err
	}
	return outdir.CheckPlan(out, force, prev, sb.plan())
}

// plan lists the files run writes, slash-separated and relative to the site's folder.
func (sb *siteBuilder) plan() []string {
	out := []string{"search-index.js", "site.js", "releases.json", "index.html"}
	if sb.decoder != nil {
		out = append(out, decoderFiles(sb.h.Releases)...)
	}
	for _, ah := range sb.h.APIs {
		out = append(out, MatrixPageName(ah.Name))
	}
	for _, r := range sb.h.Releases {
		out = append(out, ReleasePageName(r))
	}
	return out
}

func (sb *siteBuilder) run(cats []*kafka.Catalog) error {
	idx, err := sb.searchIndex()
	if err != nil {
		return err
	}
	sb.searchSize = len(idx)
	if err := sb.out.Write("search-index.js", idx); err != nil {
		return err
	}
	if err := sb.out.Write("site.js", siteJS); err != nil {
		return err
	}
	if err := sb.out.Write("releases.json", sb.h.ReleasesJSON()); err != nil {
		return err
	}
	if err := sb.page("index.html", "siteindex", sb.indexView()); err != nil {
		return err
	}
	if sb.decoder != nil {
		if err := writeDecoder(sb.out, sb.decoder, cats, "index.html", "All releases"); err != nil {
			return err
		}
	}
	for _, ah := range sb.h.APIs {
		if err := sb.page(MatrixPageName(ah.Name), "matrix", sb.matrixView(ah)); err != nil {
			return err
		}
	}
	for i := range sb.h.Releases {
		if err := sb.page(ReleasePageName(sb.h.Releases[i]), "release", sb.releaseView(i)); err != nil {
			return err
		}
	}
	return nil
}

func (sb *siteBuilder) page(name, tmpl string, v any) error {
	return sb.out.Create(name, func(w io.Writer) error {
		if err := sb.tmpl.ExecuteTemplate(w, tmpl, v); err != nil {
			return fmt.Errorf("reference: %s: %w", name, err)
		}
		return nil
	})
}

// rootFrom is the relative path from a page (slash-separated, below the site's folder) to
// the site's folder: "" for index.html, "../" for matrix/Fetch.html.
func rootFrom(page string) string { return strings.Repeat("../", strings.Count(page, "/")) }

// siteBarView is the bar on every page: the search box, and the release switcher.
type siteBarView struct {
	Root     string // to the site's folder, with its slash
	Release  string // the page's release, "" on the site's own pages
	Chips    []releaseChip
	Note     string // where the switcher cannot keep the version
	Matrix   string // the API's matrix page, "" off API pages
	APIName  string
	Overview string // the site's index
	// ReleasePage is the page of the release's changes (on a release's index).
	ReleasePage string
}

type releaseChip struct {
	Release string
	Href    string
	Current bool
	Miss    bool   // the release lacks this page's version (or API): the link goes elsewhere
	Title   string // what the link opens
	Small   string // "v10" when the link opens another version
}

// siteBar is a release page's bar (hook of Build): a is nil on the release's index.
func (b *builder) siteBar(a *kafka.API, v int16) template.HTML {
	s := b.opts.site
	if s == nil {
		return ""
	}
	page := "index.html"
	if a != nil {
		page = VersionPageName(a, v, b.versions[a][0])
	}
	rel := s.h.Releases[s.index]
	root := rootFrom(rel + "/" + page)
	bar := siteBarView{Root: root, Release: rel, Overview: root + "index.html", ReleasePage: root + ReleasePageName(rel)}
	var missing []string
	for j, r := range s.h.Releases {
		c := releaseChip{Release: r, Current: j == s.index}
		switch {
		case a == nil:
			c.Href, c.Title = root+r+"/index.html", "Kafka "+r
		default:
			row := s.h.API(a.Key).Rows[j]
			switch {
			case row.API == nil:
				c.Href, c.Miss, c.Title = root+r+"/index.html", true, fmt.Sprintf("Kafka %s has no %s (API key %d)", r, a.Name, a.Key)
				missing = append(missing, fmt.Sprintf("%s has no %s", r, a.Name))
			case contains(s.built[j][a.Key], v):
				c.Href = root + r + "/" + VersionPageName(row.API, v, s.built[j][a.Key][0])
				c.Title = fmt.Sprintf("%s v%d in Kafka %s", row.API.Name, v, r)
			default:
				top := s.built[j][a.Key][0]
				c.Href, c.Miss, c.Small = root+r+"/"+PageName(row.API), true, "v"+strconv.Itoa(int(top))
				if row.Has(v) {
					c.Title = fmt.Sprintf("Kafka %s has %s v%d, but this site does not draw it: the link opens v%d", r, row.API.Name, v, top)
					missing = append(missing, fmt.Sprintf("%s (not drawn)", r))
				} else {
					c.Title = fmt.Sprintf("Kafka %s has %s v%s, not v%d: the link opens v%d", r, row.API.Name, row.Valid, v, top)
					missing = append(missing, fmt.Sprintf("%s (v%s)", r, row.Valid))
				}
			}
		}
		bar.Chips = append(bar.Chips, c)
	}
	if a != nil {
		bar.Matrix, bar.APIName = root+MatrixPageName(s.h.API(a.Key).Name), a.Name
		if len(missing) > 0 {
			bar.Note = fmt.Sprintf("%s v%d is not in every release: %s. Those links open the release's highest version, or its index.", a.Name, v, strings.Join(missing, ", "))
		}
	}
	return b.renderBar(bar)
}

func (b *builder) renderBar(bar siteBarView) template.HTML {
	t, err := siteTemplates()
	if err != nil {
		return template.HTML("<!-- " + template.HTMLEscapeString(err.Error()) + " -->")
	}
	var sbuf strings.Builder
	if err := t.ExecuteTemplate(&sbuf, "sitebar", bar); err != nil {
		return template.HTML("<!-- " + template.HTMLEscapeString(err.Error()) + " -->")
	}
	return template.HTML(sbuf.String())
}

// siteBarFor is the bar of the site's own pages: the switcher opens the release pages, or on
// an API's matrix page (ah not nil) each release's page of the API.
func (sb *siteBuilder) siteBarFor(page string, current string, ah *APIHistory) template.HTML {
	root := rootFrom(page)
	bar := siteBarView{Root: root, Overview: root + "index.html"}
	for i, r := range sb.h.Releases {
		c := releaseChip{Release: r, Href: root + ReleasePageName(r), Current: r == current, Title: "What Kafka " + r + " changed"}
		if ah != nil {
			if a := ah.Rows[i].API; a != nil {
				c.Href, c.Title = root+r+"/"+PageName(a), a.Name+" in Kafka "+r
			} else {
				c.Miss, c.Title = true, fmt.Sprintf("Kafka %s has no %s: the link opens what %s changed", r, ah.Name, r)
			}
		}
		bar.Chips = append(bar.Chips, c)
	}
	if ah != nil {
		bar.APIName = ah.Name
	}
	var b strings.Builder
	if err := sb.tmpl.ExecuteTemplate(&b, "sitebar", bar); err != nil {
		return template.HTML("<!-- " + template.HTMLEscapeString(err.Error()) + " -->")
	}
	return template.HTML(b.String())
}

func contains(vs []int16, v int16) bool {
	for _, x := range vs {
		if x == v {
			return true
		}
	}
	return false
}

// fieldNotes adds the fields' history to a page's field tables (hook of Build).
func (b *builder) fieldNotes(a *kafka.API, tables []fieldTableView) {
	s := b.opts.site
	if s == nil {
		return
	}
	for i := range tables {
		response := tables[i].ID == "response-fields"
		for j := range tables[i].Rows {
			r := &tables[i].Rows[j]
			if fh := s.h.FieldAt(s.index, a.Key, response, r.Parent+r.Name); fh != nil {
				r.Notes = strings.Join(fh.Notes(s.h), "; ")
			}
		}
	}
}

// indexView is the site's index.
type siteIndexView struct {
	Generator string
	Site      template.HTML
	Releases  []siteReleaseRow
	APIs      []siteAPIRow
	First     string
	Last      string
}

type siteReleaseRow struct {
	Release, Href, Page, Book string
	APIs                      int
	Added, Removed, Changed   int
}

type siteAPIRow struct {
	Key        int16
	Name, Href string
	Names      string // earlier names
	Span       string // "2.2–4.1", "4.0–"
	Versions   string // in the newest release that has it
	Removed    string // the release that removed it
}

func (sb *siteBuilder) indexView() siteIndexView {
	h := sb.h
	v := siteIndexView{Generator: "kafkagrid", Site: sb.siteBarFor("index.html", "", nil), First: h.Releases[0], Last: h.Releases[len(h.Releases)-1]}
	for i, r := range h.Releases {
		row := siteReleaseRow{Release: r, Href: r + "/index.html", Page: ReleasePageName(r), APIs: len(h.Cats[i].APIs)}
		if sb.pdf {
			row.Book = r + "/" + BookName(r)
		}
		if i > 0 {
			for _, a := range h.Diffs[i].APIs {
				switch {
				case a.Added():
					row.Added++
				case a.Removed():
					row.Removed++
				default:
					row.Changed++
				}
			}
		}
		v.Releases = append(v.Releases, row)
	}
	for _, ah := range h.APIs {
		first, last := -1, -1
		for i, r := range ah.Rows {
			if r.API != nil {
				if first < 0 {
					first = i
				}
				last = i
			}
		}
		row := siteAPIRow{Key: ah.Key, Name: ah.Name, Href: MatrixPageName(ah.Name)}
		if len(ah.Names) > 1 {
			row.Names = "was " + strings.Join(ah.Names[:len(ah.Names)-1], ", ")
		}
		row.Span = h.Releases[first] + "–" + h.Releases[last]
		if first == 0 {
			row.Span = "≤" + row.Span
		}
		if first == last {
			row.Span = h.Releases[first]
		}
		lr := ah.Rows[last]
		row.Versions = "v" + lr.Valid.String() + " in " + lr.Release
		if last < len(h.Releases)-1 {
			row.Removed = h.Releases[last+1]
		}
		v.APIs = append(v.APIs, row)
	}
	return v
}

// matrixView is an API's matrix page.
type matrixView struct {
	Generator string
	Site      template.HTML
	Key       int16
	Name      string
	Names     string
	Versions  []int16
	Rows      []matrixRow
	First     []string // per version: the release that first had it
	Removed   []string // per version: the release that removed it, "" for none
	Facts     []string
	Fields    []matrixFieldTable
	Oldest    string
}

type matrixRow struct {
	Release, Page, Range string
	Missing              bool
	Cells                []matrixCell
}

type matrixCell struct {
	Text, Href, Class, Title string
}

type matrixFieldTable struct {
	Title string
	Rows  []matrixFieldRow
}

type matrixFieldRow struct {
	Path, Notes, Releases string
}

func (sb *siteBuilder) matrixView(ah *APIHistory) matrixView {
	h := sb.h
	page := MatrixPageName(ah.Name)
	root := rootFrom(page)
	v := matrixView{Generator: "kafkagrid", Site: sb.siteBarFor(page, "", ah), Key: ah.Key, Name: ah.Name, Oldest: h.Releases[0]}
	if len(ah.Names) > 1 {
		v.Names = "Named " + strings.Join(ah.Names, ", then ") + "."
	}
	for _, vh := range ah.Versions {
		v.Versions = append(v.Versions, vh.Version)
		first, removed := "", ""
		if vh.First >= 0 {
			first = h.Releases[vh.First]
			if vh.First == 0 {
				first = "≤" + first
			}
		}
		if vh.Removed >= 0 {
			removed = h.Releases[vh.Removed]
		}
		v.First, v.Removed = append(v.First, first), append(v.Removed, removed)
	}
	for i, r := range ah.Rows {
		mr := matrixRow{Release: r.Release, Page: root + ReleasePageName(r.Release)}
		if r.API == nil {
			mr.Missing, mr.Range = true, "—"
		} else {
			mr.Range = "v" + r.Valid.String()
		}
		for _, vh := range ah.Versions {
			c := matrixCell{Text: "·", Class: "no"}
			ver := vh.Version
			if r.Has(ver) {
				c.Text, c.Class = "v"+strconv.Itoa(int(ver)), "yes"
				var notes []string
				if r.Flexible.Contains(ver) {
					c.Class += " flex"
					notes = append(notes, "flexible")
				}
				if r.Deprecated.Contains(ver) {
					c.Class += " dep"
					notes = append(notes, "deprecated")
				}
				if r.Unstable == ver {
					c.Class += " unst"
					notes = append(notes, "unstable")
				}
				if vh.First == i {
					c.Class += " new"
					notes = append(notes, "new in "+r.Release)
				}
				c.Title = fmt.Sprintf("%s v%d in Kafka %s", r.API.Name, ver, r.Release)
				if len(notes) > 0 {
					c.Title += ": " + strings.Join(notes, ", ")
				}
				if contains(sb.built[i][ah.Key], ver) {
					c.Href = root + r.Release + "/" + VersionPageName(r.API, ver, sb.built[i][ah.Key][0])
				}
			} else if vh.Removed >= 0 && vh.Removed <= i && !r.Has(ver) && i > 0 && vh.First < i {
				c.Text, c.Class, c.Title = "✕", "gone", fmt.Sprintf("v%d removed in Kafka %s", ver, h.Releases[vh.Removed])
			}
			mr.Cells = append(mr.Cells, c)
		}
		v.Rows = append(v.Rows, mr)
	}
	v.Facts = matrixFacts(h, ah)
	for _, side := range []struct {
		title    string
		response bool
	}{{"Request fields", false}, {"Response fields", true}} {
		ft := matrixFieldTable{Title: side.title}
		seen := map[string]bool{}
		for i := len(ah.Rows) - 1; i >= 0; i-- { // newest first, then fields only older releases had
			r := ah.Rows[i]
			if r.API == nil {
				continue
			}
			spec := r.API.Request
			if side.response {
				spec = r.API.Response
			}
			walkFields(spec, func(p string, _ *schemas.Field) {
				fh := h.FieldAt(i, ah.Key, side.response, p)
				if fh == nil || seen[fh.Path] {
					return
				}
				seen[fh.Path] = true
				row := matrixFieldRow{Path: fh.Path, Notes: strings.Join(fh.Notes(h), "; ")}
				if len(fh.Names) > 1 {
					row.Notes += "; named " + strings.Join(fh.Names, ", then ")
				}
				var in []string
				for j, pr := range fh.perRelease {
					if pr.Set {
						in = append(in, h.Releases[j]+" v"+pr.String())
					}
				}
				row.Releases = strings.Join(in, ", ")
				ft.Rows = append(ft.Rows, row)
			})
		}
		v.Fields = append(v.Fields, ft)
	}
	return v
}

// matrixFacts says in words what the matrix shows: removals (KIP-896's in 4.0), when the API
// turned flexible, deprecated versions, renames.
func matrixFacts(h *History, ah *APIHistory) []string {
	var out []string
	// Versions removed, grouped by the release that removed them.
	byRel := map[int][]int16{}
	var rels []int
	for _, vh := range ah.Versions {
		if vh.Removed >= 0 {
			if _, ok := byRel[vh.Removed]; !ok {
				rels = append(rels, vh.Removed)
			}
			byRel[vh.Removed] = append(byRel[vh.Removed], vh.Version)
		}
	}
	for _, ri := range rels {
		vs := byRel[ri]
		s := fmt.Sprintf("v%s removed in Kafka %s", spanText(vs[0], vs[len(vs)-1]), h.Releases[ri])
		if ah.Rows[ri].API == nil {
			s = fmt.Sprintf("The API is gone from Kafka %s (it had v%s)", h.Releases[ri], spanText(vs[0], vs[len(vs)-1]))
		} else if kip896(h.Releases[ri]) {
			s += " (KIP-896 removed the old protocol versions)"
		}
		out = append(out, s+".")
	}
	for _, vh := range ah.Versions {
		if vh.Flexible && vh.First >= 0 {
			out = append(out, fmt.Sprintf("Flexible from v%d (%s): compact strings and arrays, tagged fields (KIP-482).", vh.Version, h.relName(vh.First)))
			break
		}
	}
	for i, r := range ah.Rows {
		if r.API != nil && r.Deprecated.Set && (i == 0 || ah.Rows[i-1].Deprecated != r.Deprecated) {
			out = append(out, fmt.Sprintf("Kafka %s deprecates v%s.", r.Release, r.Deprecated.Intersect(r.Valid)))
		}
		if r.Unstable >= 0 {
			out = append(out, fmt.Sprintf("In Kafka %s, v%d is unstable: brokers do not enable it by default.", r.Release, r.Unstable))
		}
	}
	return out
}

// releaseView is a release's page.
type releaseView struct {
	Generator string
	Site      template.HTML
	Release   string
	Prev      string
	PrevPage  string
	Ref, Book string
	Diff      DiffDoc
	Table     []releaseTableRow
}

type releaseTableRow struct {
	Key                 int16
	Name, Href, Matrix  string
	Min, Max            int16
	Flexible, Deprecate string
	Unstable            string
}

func (sb *siteBuilder) releaseView(i int) releaseView {
	h := sb.h
	rel := h.Releases[i]
	page := ReleasePageName(rel)
	root := rootFrom(page)
	v := releaseView{Generator: "kafkagrid", Site: sb.siteBarFor(page, rel, nil), Release: rel, Ref: root + rel + "/index.html"}
	if sb.pdf {
		v.Book = root + rel + "/" + BookName(rel)
	}
	if i > 0 {
		v.Prev, v.PrevPage = h.Releases[i-1], path.Base(ReleasePageName(h.Releases[i-1]))
		v.Diff = NewDiffDoc(h.Diffs[i])
		for j := range v.Diff.APIs {
			if ah := h.API(v.Diff.APIs[j].Key); ah != nil {
				v.Diff.APIs[j].Href = root + MatrixPageName(ah.Name)
			}
		}
	}
	for _, ah := range h.APIs {
		r := ah.Rows[i]
		if r.API == nil {
			continue
		}
		row := releaseTableRow{Key: ah.Key, Name: r.API.Name, Href: root + rel + "/" + PageName(r.API), Matrix: root + MatrixPageName(ah.Name),
			Min: r.Valid.Lo, Max: r.API.Version, Flexible: r.Flexible.String(), Deprecate: r.Deprecated.Intersect(r.Valid).String()}
		if r.Unstable >= 0 {
			row.Unstable = "v" + strconv.Itoa(int(r.Unstable))
		}
		v.Table = append(v.Table, row)
	}
	return v
}

// siteTemplates are the reference's templates with the site's; parsed once.
var siteTemplates = sync.OnceValues(parseSiteTemplates)

// parseSiteTemplates parses the reference's templates with the site's.
func parseSiteTemplates() (*template.Template, error) {
	t, err := pageTemplates()
	if err != nil {
		return nil, err
	}
	t = t.Funcs(template.FuncMap{"v": versionsText})
	if _, err := t.Parse(siteCSS + siteHTML + diffHTML); err != nil {
		return nil, fmt.Errorf("reference: site templates: %w", err)
	}
	return t, nil
}
