package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/kafkagrid/kafkagrid/dissector"
	"github.com/kafkagrid/kafkagrid/kafka"
	"github.com/kafkagrid/kafkagrid/site/outdir"
)

// runDissector implements "kafkagrid dissector": a Wireshark Lua dissector generated from a
// release's schemas, or from a folder of releases (one dissector knowing them all).
func runDissector(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("dissector", "[-schemas PATH | -kafka REF] [-release RELEASE] [-releases LIST] [-ports LIST] -o FILE\n\n"+
		"Writes a Wireshark dissector (Lua) of every API and version of the schemas: install it in\n"+
		"~/.local/lib/wireshark/plugins/, or run tshark -X lua_script:FILE. Over a folder of releases\n"+
		"(without -release) it knows the versions of them all; each version is read as the newest\n"+
		"release that has it defines it (-v, and the file's first lines, name the versions releases\n"+
		"define otherwise on the wire).", stdout, stderr)
	sf := addSchemaFlags(fs)
	releases := fs.String("releases", "", releasesUsage)
	out := fs.String("o", "", "write the dissector to `FILE` (\"-\" for standard output)")
	ports := fs.String("ports", strconv.Itoa(dissector.DefaultPort), "the TCP `PORTS` the dissector claims by default, comma-separated\n"+
		"(Wireshark's preference kafkagrid.ports changes them)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("dissector: unexpected argument %q", rest[0])
	}
	if *out == "" {
		return usagef("dissector: -o FILE is required (\"-\" for standard output)")
	}
	var o dissector.Options
	for _, p := range strings.Split(*ports, ",") {
		n, err := strconv.ParseUint(strings.TrimSpace(p), 10, 16)
		if err != nil || n == 0 {
			return usagef("dissector: -ports %q: want TCP port numbers 1-65535, comma-separated", *ports)
		}
		o.Ports = append(o.Ports, uint16(n))
	}
	var cats []*kafka.Catalog
	if dir, rels, ok, err := sf.releaseFolder(*releases); err != nil {
		return err
	} else if ok {
		if cats, _, err = loadReleases(ctx, dir, rels, !*sf.verbose, stderr); err != nil {
			return fmt.Errorf("dissector: %w", err)
		}
	} else {
		c, _, err := sf.load(ctx, stderr)
		if err != nil {
			return fmt.Errorf("dissector: %w", err)
		}
		cats = []*kafka.Catalog{c}
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("dissector: %w", err)
	}
	write := func(w io.Writer) error { return dissector.Write(w, cats, o) }
	if *out == "-" {
		err = write(stdout)
	} else {
		err = outdir.WriteFile(*out, write, tempsFrom(ctx))
	}
	if err != nil {
		return fmt.Errorf("dissector: %w", err)
	}
	if !*sf.quiet && *out != "-" {
		var names []string
		for _, c := range cats {
			names = append(names, c.Release.Name())
		}
		fmt.Fprintf(stderr, "kafkagrid: wrote %s: a Wireshark dissector of Kafka %s\n", *out, strings.Join(names, ", "))
	}
	if *sf.verbose && len(cats) > 1 {
		for _, d := range dissector.Disagreements(cats) {
			fmt.Fprintf(stderr, "kafkagrid: note: %s\n", d)
		}
	}
	return nil
}
