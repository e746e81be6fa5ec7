package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site"
)

// verbFlags is a verb's flags, parsed one way for every verb: flags may come before and after
// the arguments ("show Produce -response"), -h prints the verb's help on stdout (so that
// "kafkagrid show -h | less" works), and a mistake is a usage error on stderr that suggests the
// flag meant.
type verbFlags struct {
	*flag.FlagSet
	verb, usage    string
	stdout, stderr io.Writer
}

// newFlagSet returns the flags of a verb; usage is its synopsis after "kafkagrid VERB".
func newFlagSet(verb, usage string, stdout, stderr io.Writer) *verbFlags {
	fs := flag.NewFlagSet("kafkagrid "+verb, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are returned, and said once by main
	fs.Usage = func() {}
	return &verbFlags{FlagSet: fs, verb: verb, usage: usage, stdout: stdout, stderr: stderr}
}

// help writes the verb's synopsis and flags.
func (f *verbFlags) help(w io.Writer) {
	fmt.Fprintf(w, "Usage: kafkagrid %s %s\n\nFlags:\n", f.verb, f.usage)
	f.SetOutput(w)
	f.PrintDefaults()
	f.SetOutput(io.Discard)
}

// parseFlags parses args, flags anywhere among the arguments, and returns the arguments. After
// "--" everything is an argument. -h prints the help on stdout and returns flag.ErrHelp.
func parseFlags(f *verbFlags, args []string) ([]string, error) {
	var tail []string
	for i, a := range args {
		if a == "--" {
			args, tail = args[:i], args[i+1:]
			break
		}
	}
	var rest []string
	for {
		if err := f.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				f.help(f.stdout)
				return nil, err
			}
			return nil, usageError{fmt.Errorf("%s: %s%s (kafkagrid %s -h lists the flags)", f.verb, err, f.suggestFlag(err), f.verb)}
		}
		if f.NArg() == 0 {
			break
		}
		rest = append(rest, f.Arg(0))
		args = f.Args()[1:]
	}
	return append(rest, tail...), nil
}

// suggestFlag is " (did you mean -format?)" for an unknown flag close to a known one.
func (f *verbFlags) suggestFlag(err error) string {
	name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -")
	if !ok {
		return ""
	}
	var names []string
	f.VisitAll(func(fl *flag.Flag) { names = append(names, fl.Name) })
	if s := closest(strings.TrimLeft(name, "-"), names); s != "" {
		return "; did you mean -" + s + "?"
	}
	return ""
}

// closest returns the candidate nearest to word, ignoring case, when it is near enough to be
// what was meant (an edit distance, a swap of two letters counting one, of at most a third of
// the word, and 1 at least), or a candidate word is a prefix of; "" otherwise.
func closest(word string, candidates []string) string {
	w := strings.ToLower(word)
	best, bestD := "", 1<<30
	limit := max(1, len(w)/3)
	sorted := append([]string(nil), candidates...)
	sort.Strings(sorted)
	for _, c := range sorted {
		lc := strings.ToLower(c)
		d := editDistance(w, lc)
		if len(w) >= 3 && strings.HasPrefix(lc, w) {
			d = min(d, 1)
		}
		if d < bestD {
			best, bestD = c, d
		}
	}
	if bestD <= limit && bestD > 0 {
		return best
	}
	return ""
}

// editDistance is the optimal-string-alignment distance of two strings, by bytes: insertions,
// deletions, substitutions and swaps of neighbours ("biuld", "build") count one each.
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// outputFormat names a verb's output format: "text" and "txt" are the same, as everywhere.
func outputFormat(s string) string {
	if f, ok := site.LookupFormat(s); ok {
		return f.Name
	}
	return strings.ToLower(s)
}

// noAPI is the error for an API name or key the catalogue lacks: it suggests the nearest name
// of this release, and names the releases that have the API when another release does.
func noAPI(verb string, cat *kafka.Catalog, nameOrKey string) error {
	msg := fmt.Sprintf("%s: no API %q in Kafka %s", verb, nameOrKey, cat.Release.Name())
	if key, names, rels, ok := kafka.KnownAPI(nameOrKey); ok && len(rels) > 0 {
		return fmt.Errorf("%s; API key %d (%s) is in Kafka %s: try -release %s", msg, key, strings.Join(names, ", "),
			strings.Join(rels, ", "), rels[len(rels)-1])
	}
	var names []string
	for _, a := range cat.APIs {
		names = append(names, a.Name)
	}
	if s := closest(nameOrKey, names); s != "" {
		return fmt.Errorf("%s; did you mean %s?", msg, s)
	}
	return fmt.Errorf("%s (kafkagrid list shows them)", msg)
}
