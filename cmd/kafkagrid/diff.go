package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/kafkagrid/kafkagrid/schemas"
	"github.com/kafkagrid/kafkagrid/site/reference"
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
	plain, err := diffArgs(args)
	if err != nil {
		return err
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
		if rels[i], err = diffSide(ctx, side, verbose, stderr); err != nil {
			return err
		}
	}
	d := schemas.Compare(rels[0], rels[1])
	if err := ctx.Err(); err != nil {
		return diffTrouble{fmt.Errorf("diff: %w", err)}
	}
	// The document is made whole before it is written: -o gets it by rename (no half file on
	// an error or a signal), stdout as it stops at a signal.
	var buf bytes.Buffer
	err = reference.WriteDiff(&buf, d, *format)
	if err == nil && *outFile != "" {
		err = writeFileAtomic(*outFile, buf.Bytes(), tempsFrom(ctx))
	} else if err == nil {
		_, err = (&ctxWriter{ctx: ctx, w: stdout}).Write(buf.Bytes())
	}
	if err != nil {
		return diffTrouble{fmt.Errorf("diff: %w", err)}
	}
	if !d.Empty() {
		return errDifferent
	}
	return nil
}

// diffArgs reads diff's -kafka REF and -release RELEASE, which stand for a side where they
// are ("kafka:REF", "release:RELEASE\x00DIR"), before the flags are parsed: -kafka REF may
// stand for either side, in order ("diff -kafka 3.9 ../4.0"); -release RELEASE stands just
// before the folder of releases it picks from.
func diffArgs(args []string) ([]string, error) {
	var plain []string
	release := "" // the last -release given
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(plain, args[i:]...), nil
		}
		switch {
		case a == "-kafka" || a == "--kafka":
			if i+1 >= len(args) {
				return nil, usagef("diff: -kafka needs a REF")
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
				return nil, usagef("diff: -release needs a RELEASE")
			}
			if i+1 >= len(args) || strings.HasPrefix(args[i+1], "-") {
				return nil, usagef("diff: -release %s stands just before the folder of releases it picks from, as in: kafkagrid diff -release 3.9 DIR -release 4.0 DIR", release)
			}
			i++
			plain = append(plain, "release:"+release+"\x00"+args[i])
		default:
			plain = append(plain, a)
		}
	}
	return plain, nil
}

// diffSide finds and reads one side of diff: a folder, jar or installation, "kafka:REF" or
// "release:RELEASE\x00DIR" (diffArgs).
func diffSide(ctx context.Context, side string, verbose *bool, stderr io.Writer) (*schemas.Release, error) {
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
		if rs, _ := releasesIn(s); len(rs) > 0 && !isReleaseDir(s) && len(schemas.InstallJars(s)) == 0 {
			return nil, usagef("diff: %s is a folder of releases (%s): say which with -release before it, as in: kafkagrid diff -release %s %s -release %s %s",
				s, strings.Join(rs, ", "), rs[max(0, len(rs)-2)], s, rs[len(rs)-1], s)
		}
	}
	src, err := sf.find(ctx, stderr)
	if err != nil {
		return nil, diffTrouble{fmt.Errorf("diff: %s: %w", side, err)}
	}
	r, err := sf.open(src.path, stderr)
	if err != nil {
		return nil, diffTrouble{fmt.Errorf("diff: %w", err)}
	}
	if err := ctx.Err(); err != nil { // each step stops at a signal, not only the last
		return nil, diffTrouble{fmt.Errorf("diff: %w", err)}
	}
	return r, nil
}

// releaseDiffDoc is the document of -format json and html, made by the reference package so
// that a site's release pages say the same (reference.NewDiffDoc).
type releaseDiffDoc = reference.DiffDoc
