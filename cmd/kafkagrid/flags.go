package main

import (
	"errors"
	"flag"
	"fmt"
	"github.com/kafkagrid/kafkagrid/internal/suggest"
	"io"
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
	if s := suggest.Closest(strings.TrimLeft(name, "-"), names); s != "" {
		return "; did you mean -" + s + "?"
	}
	return ""
}

// outputFormat names a verb's output format: "text" and "txt" are the same, as everywhere.
func outputFormat(s string) string {
	if f, ok := site.LookupFormat(s); ok {
		return f.Name
	}
	return strings.ToLower(s)
}

// noAPI is the error for an API name or key the catalogue lacks (kafka.Catalog.UnknownAPI),
// after what the verb was given.
func noAPI(verb string, cat *kafka.Catalog, nameOrKey string) error {
	return fmt.Errorf("%s: %w", verb, cat.UnknownAPI(nameOrKey))
}
