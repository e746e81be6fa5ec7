package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/kafkagrid/kafkagrid/schemas"
)

// errDifferent is diff's "the releases differ": exit status 1 with nothing more to say, as
// diff(1) does.
var errDifferent = errors.New("the releases differ")

// diffTrouble marks a diff failure (unreadable schemas): exit status 2, as diff(1) uses for
// trouble, so that 1 means only "different".
type diffTrouble struct{ err error }

func (e diffTrouble) Error() string { return e.err.Error() }
func (e diffTrouble) Unwrap() error { return e.err }

// runDiff implements "kafkagrid diff OLD NEW": what changed in the protocol between two
// releases. OLD and NEW are each a release folder, a kafka-clients jar or a Kafka installation,
// or "-kafka REF". Exit status 0: no differences; 1: differences; 2: trouble (like diff(1)).
func runDiff(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("diff", "OLD NEW [-format text|json|html] [-o FILE]\n\n"+
		"OLD and NEW are each a release's schema folder, a kafka-clients jar, a Kafka installation\n"+
		"folder, -kafka REF, or -release RELEASE before a folder of releases (diff -release 3.9\n"+
		"kafka-schemas -release 4.0 kafka-schemas). Exit status: 0 the same protocol, 1 differences,\n"+
		"2 trouble.", stdout, stderr)
	format := fs.String("format", "text", "output `FORMAT`: text (or txt), json, or html (a page)")
	outFile := fs.String("o", "", "write to `FILE` instead of standard output")
	fs.Bool("q", false, "quiet: nothing on stderr but errors (diff's default; notes need -v)")
	verbose := fs.Bool("v", false, "verbose: the notes on schema files read leniently (Kafka's own files have a few)")
	// -kafka REF may stand for either side, in order: "diff -kafka 3.9 ../4.0"; -release RELEASE
	// stands just before the folder of releases it picks from.
	var plain []string
	release := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			plain = append(plain, args[i:]...)
			break
		}
		switch {
		case a == "-kafka" || a == "--kafka":
			if i+1 >= len(args) {
				return usagef("diff: -kafka needs a REF")
			}
			i++
			plain = append(plain, "kafka:"+args[i])
		case strings.HasPrefix(a, "-kafka=") || strings.HasPrefix(a, "--kafka="):
			plain = append(plain, "kafka:"+a[strings.Index(a, "=")+1:])
		case a == "-release" || a == "--release" || strings.HasPrefix(a, "-release=") || strings.HasPrefix(a, "--release="):
			if j := strings.Index(a, "="); j >= 0 {
				release = a[j+1:]
			} else if i+1 < len(args) {
				i++
				release = args[i]
			}
			if release == "" {
				return usagef("diff: -release needs a RELEASE")
			}
			if i+1 >= len(args) || strings.HasPrefix(args[i+1], "-") {
				return usagef("diff: -release %s stands just before the folder of releases it picks from, as in: kafkagrid diff -release 3.9 DIR -release 4.0 DIR", release)
			}
			i++
			plain = append(plain, "release:"+release+"\x00"+args[i])
		default:
			plain = append(plain, a)
		}
	}
	sides, err := parseFlags(fs, plain)
	if err != nil {
		return err
	}
	if len(sides) != 2 {
		return usagef("diff: want OLD and NEW, have %d", len(sides))
	}
	switch *format = outputFormat(*format); *format {
	case "txt", "json", "html":
	default:
		return usagef("diff: -format %q: want text, json or html", *format)
	}
	var rels [2]*schemas.Release
	for i, side := range sides {
		empty, no := "", false
		sf := &schemaFlags{schemas: &empty, release: &empty, ref: &empty, quiet: &no, verbose: verbose}
		if ref, ok := strings.CutPrefix(side, "kafka:"); ok {
			sf.ref = &ref
		} else if r, ok := strings.CutPrefix(side, "release:"); ok {
			rel, dir, _ := strings.Cut(r, "\x00")
			side = dir
			sf.release, sf.schemas = &rel, &dir
		} else {
			s := side
			sf.schemas = &s
			// A folder of releases would give its default release to both sides: which one is
			// for the user to say.
			if rs := releasesIn(s); len(rs) > 0 && !isReleaseDir(s) && len(schemas.InstallJars(s)) == 0 {
				return usagef("diff: %s is a folder of releases (%s): say which with -release before it, as in: kafkagrid diff -release %s %s -release %s %s",
					s, strings.Join(rs, ", "), rs[max(0, len(rs)-2)], s, rs[len(rs)-1], s)
			}
		}
		src, err := sf.find(ctx, stderr)
		if err != nil {
			return diffTrouble{fmt.Errorf("diff: %s: %w", side, err)}
		}
		r, err := sf.open(src.path, stderr)
		if err != nil {
			return diffTrouble{fmt.Errorf("diff: %w", err)}
		}
		rels[i] = r
	}
	d := schemas.Compare(rels[0], rels[1])
	w := stdout
	var f *os.File
	if *outFile != "" {
		if err := os.MkdirAll(filepath.Dir(*outFile), 0o755); err != nil {
			return diffTrouble{fmt.Errorf("diff: %w", err)}
		}
		if f, err = os.Create(*outFile); err != nil {
			return diffTrouble{fmt.Errorf("diff: %w", err)}
		}
		w = f
	}
	switch *format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		err = enc.Encode(diffJSON(d))
	case "html":
		err = diffPage().Execute(w, diffJSON(d))
	default:
		err = writeDiffText(w, d)
	}
	if f != nil {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return diffTrouble{fmt.Errorf("diff: %w", err)}
	}
	if !d.Empty() {
		return errDifferent
	}
	return nil
}

// writeDiffText writes a release diff for a terminal.
func writeDiffText(w io.Writer, d *schemas.ReleaseDiff) error {
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

// The JSON and HTML form of a release diff.
type releaseDiffDoc struct {
	Old     string       `json:"old"`
	New     string       `json:"new"`
	Same    bool         `json:"same"`
	APIs    []apiDiffDoc `json:"apis"`
	Version string       `json:"-"`
}

type apiDiffDoc struct {
	Key         int16          `json:"key"`
	OldName     string         `json:"old_name,omitempty"`
	NewName     string         `json:"new_name,omitempty"`
	Change      string         `json:"change"` // added, removed, changed
	OldVersions string         `json:"old_versions"`
	NewVersions string         `json:"new_versions"`
	VersionsCut string         `json:"versions_cut,omitempty"`
	OldFlexible string         `json:"old_flexible"`
	NewFlexible string         `json:"new_flexible"`
	Fields      []fieldDiffDoc `json:"fields"`
}

type fieldDiffDoc struct {
	Message  string `json:"message"`
	Path     string `json:"path"`
	Kind     string `json:"kind"`
	Old      string `json:"old,omitempty"`
	New      string `json:"new,omitempty"`
	Versions string `json:"versions"`
	Text     string `json:"text"`
}

func diffJSON(d *schemas.ReleaseDiff) releaseDiffDoc {
	doc := releaseDiffDoc{Old: d.Old, New: d.New, Same: d.Empty(), APIs: []apiDiffDoc{}}
	for _, a := range d.APIs {
		ad := apiDiffDoc{Key: a.Key, OldName: a.OldName, NewName: a.NewName, Change: "changed",
			OldVersions: a.OldVersions.String(), NewVersions: a.NewVersions.String(),
			VersionsCut: versionsCut(a.OldVersions, a.NewVersions),
			OldFlexible: a.OldFlexible.String(), NewFlexible: a.NewFlexible.String(), Fields: []fieldDiffDoc{}}
		switch {
		case a.Added():
			ad.Change, ad.VersionsCut = "added", ""
		case a.Removed():
			ad.Change, ad.VersionsCut = "removed", ""
		}
		for _, f := range a.Fields {
			ad.Fields = append(ad.Fields, fieldDiffDoc{Message: f.Message, Path: f.Path, Kind: f.Kind, Old: f.Old, New: f.New,
				Versions: f.Versions.String(), Text: fieldDiffText(f)})
		}
		doc.APIs = append(doc.APIs, ad)
	}
	return doc
}

// diffPage is parsed on first use, not when the program starts: the other verbs never need it.
var diffPage = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("diff").Funcs(template.FuncMap{"v": versionsText}).Parse(diffHTML))
})

const diffHTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Kafka {{.Old}} → {{.New}}: protocol changes</title>
<style>
:root { color-scheme: light dark; --fg: #1c1e21; --muted: #5f6368; --line: #d7dbe0; --add: #1a7f37; --del: #b42318; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e8eb; --muted: #a0a6ad; --line: #3a3f45; --add: #5fd38a; --del: #ff8a80; } }
body { font: 15px/1.5 system-ui, sans-serif; color: var(--fg); max-width: 60rem; margin: 2rem auto; padding: 0 1rem; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.15rem; margin-top: 2rem; border-bottom: 1px solid var(--line); }
table { border-collapse: collapse; width: 100%; } td, th { text-align: left; padding: .25rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 600; font-size: .85rem; } code { font: .9em ui-monospace, monospace; overflow-wrap: anywhere; }
.added { color: var(--add); } .removed { color: var(--del); } .wrap { overflow-x: auto; }
table.apis { min-width: 36rem; } table.apis td:nth-child(n+3) { white-space: nowrap; }
</style>
</head>
<body>
<h1>Kafka {{.Old}} → {{.New}}</h1>
{{if .Same}}<p>The two releases speak the same protocol.</p>{{else}}
<h2>APIs and version ranges</h2>
<div class="wrap"><table class="apis">
<tr><th>Key</th><th>API</th><th>Change</th><th>Versions</th><th>Flexible</th></tr>
{{range .APIs}}<tr><td>{{.Key}}</td><td>{{if and .OldName .NewName (ne .OldName .NewName)}}{{.OldName}} → {{end}}{{if .NewName}}{{.NewName}}{{else}}{{.OldName}}{{end}}</td>
<td class="{{.Change}}">{{.Change}}</td><td>{{v .OldVersions}} → {{v .NewVersions}}{{if .VersionsCut}} ({{.VersionsCut}}){{end}}</td><td>{{.OldFlexible}} → {{.NewFlexible}}</td></tr>
{{end}}</table></div>
{{range .APIs}}{{if .Fields}}<h2>{{.Key}} {{.NewName}}: fields at versions both have</h2>
<div class="wrap"><table><tr><th>Message</th><th>Versions</th><th>Change</th></tr>
{{range .Fields}}<tr><td>{{.Message}}</td><td>v{{.Versions}}</td><td class="{{.Kind}}"><code>{{.Text}}</code></td></tr>
{{end}}</table></div>{{end}}{{end}}{{end}}
</body>
</html>
`
