package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/schemas"
	"github.com/kafkagrid/kafkagrid/site/reference"
)

// runShow implements "kafkagrid show API": one API's example request (or response) on
// stdout, as text for a terminal, as SVG or as annotated JSON for a pipe.
func runShow(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("show", "API [-version N | -versions LIST] [-response] [-format txt|svg|json] [-tree] [-schemas PATH | -kafka REF] [-release RELEASE]", stdout, stderr)
	sf := addSchemaFlags(fs)
	response := fs.Bool("response", false, "show the response instead of the request")
	format := fs.String("format", "txt", "output `FORMAT`: txt (byte grid as RFC ASCII art and the tree),\n"+
		"svg (the byte grid, or the tree with -tree) or json (the annotated frame)")
	treeFlag := fs.Bool("tree", false, "with -format svg: draw the expanded tree instead of the byte grid")
	version := fs.String("version", "", "show version `N` of the API, with what changed in it (default the highest)")
	versions := fs.String("versions", "", "show several versions, lowest first: a `LIST` such as 0,3-5 or 9+, or all\n"+
		"(txt and json; json gives an array)")
	names, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(names) != 1 {
		return usagef("show: want one API name or key, have %d", len(names))
	}
	f, ok := reference.FormatNamed(*format)
	if !ok || f&(reference.Text|reference.SVG|reference.JSON) == 0 {
		return usagef("show: -format %q: want txt, svg or json", *format)
	}
	if *treeFlag && f != reference.SVG {
		return usagef("show: -tree goes with -format svg")
	}
	cat, a, err := sf.loadAPI(ctx, stderr, names[0])
	if err != nil {
		return fmt.Errorf("show: %w", err)
	}
	// "ProduceResponse" means the response, "ProduceRequest" the request.
	if l := strings.ToLower(names[0]); strings.HasSuffix(l, "response") && len(l) > len("response") {
		*response = true
	} else if strings.HasSuffix(l, "request") && len(l) > len("request") && *response {
		return usagef("show: %s is a request, but -response asks for the response", names[0])
	}
	if a == nil {
		if a, ok = cat.Lookup(names[0]); !ok {
			return usageError{noAPI("show", cat, names[0])}
		}
	}
	so := reference.ShowOptions{Response: *response, Format: f, Tree: *treeFlag}
	if *version != "" && *versions != "" {
		return usagef("show: give -version N or -versions LIST, not both")
	}
	if *version != "" {
		v, err := strconv.ParseInt(strings.TrimPrefix(*version, "v"), 10, 16)
		if err != nil || v < 0 {
			return usagef("show: -version %q: want a version number such as 3 (-versions takes a list)", *version)
		}
		if err := checkVersion(cat, a, int16(v)); err != nil {
			return err
		}
		so.Version, so.HasVersion = int16(v), true
	}
	if *versions == "" {
		if err := reference.Show(stdout, cat, a, so); err != nil {
			return fmt.Errorf("show: %w", err)
		}
		return nil
	}
	vs, err := showVersions(cat, a, *versions)
	if err != nil {
		return err
	}
	if f == reference.SVG && len(vs) > 1 {
		return usagef("show: -format svg draws one version, and -versions %s selects %d; give -version N, or build -format svg -versions %s",
			*versions, len(vs), *versions)
	}
	if err := reference.ShowVersions(stdout, cat, a, so, vs); err != nil {
		return fmt.Errorf("show: %w", err)
	}
	return nil
}

// showVersions returns the versions of a that -versions LIST selects, lowest first. A version
// the list names outright (3, or each of 3-5) that this release lacks is an error that names
// the releases that have it; an open range (9+) and "all" take the versions there are.
func showVersions(cat *kafka.Catalog, a *kafka.API, list string) ([]int16, error) {
	set, err := kafka.ParseVersionSet(list)
	if err != nil {
		return nil, usagef("show: -versions: %v", strings.TrimPrefix(err.Error(), "kafka: "))
	}
	for _, part := range strings.Split(list, ",") {
		r, err := schemas.ParseVersions(strings.TrimSpace(part))
		if err != nil || r.Hi == schemas.MaxVersion {
			continue // all, highest, or open-ended
		}
		for v := int(r.Lo); v <= int(r.Hi); v++ {
			if err := checkVersion(cat, a, int16(v)); err != nil {
				return nil, err
			}
		}
	}
	vs := set.Of(a)
	if n := set.Count(a); n > len(vs) {
		return nil, usagef("show: -versions %s selects %d versions of %s, more than the %d one show prints; give fewer", list, n, a.Name, len(vs))
	}
	if len(vs) == 0 {
		return nil, usagef("show: -versions %s selects no version of %s in Kafka %s (valid: %s)", list, a.Name, cat.Release.Name(), a.Request.ValidVersions)
	}
	slices.Reverse(vs)
	return vs, nil
}

// checkVersion is the error for a version of a this release lacks: the versions it has, and
// the releases kafkagrid knows that have that one.
func checkVersion(cat *kafka.Catalog, a *kafka.API, v int16) error {
	if a.Request.ValidIn(v) {
		return nil
	}
	msg := fmt.Sprintf("show: %s v%d is not in Kafka %s (it has v%s)", a.Name, v, cat.Release.Name(), a.Request.ValidVersions)
	if rels := schemas.KnownReleasesWith(a.Key, schemas.Version(v)); len(rels) > 0 {
		return usagef("%s; Kafka %s %s it: try -release %s", msg, strings.Join(rels, ", "), plural2(len(rels), "has", "have"), rels[len(rels)-1])
	}
	return usagef("%s; no Kafka release kafkagrid knows has it", msg)
}

func plural2(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
