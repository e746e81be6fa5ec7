package main

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
)

// runVersion implements "kafkagrid version": the module version and the VCS revision the binary
// was built from (from its build information), and the Go release.
func runVersion(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("version", "", stdout, stderr)
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("version: unexpected argument %q", rest[0])
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		_, err := fmt.Fprintln(stdout, "kafkagrid (no build information)")
		return err
	}
	_, err = fmt.Fprintln(stdout, versionLine(info))
	return err
}

// versionLine is "kafkagrid v1.2.0 (revision 0123abcd, 2026-12-03T09:00:00Z, modified) go1.26.8":
// the module version ("(devel)" from a checkout), then what the build recorded of the source.
func versionLine(info *debug.BuildInfo) string {
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var src []string
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	if r := settings["vcs.revision"]; r != "" {
		src = append(src, "revision "+r[:min(12, len(r))])
	}
	if t := settings["vcs.time"]; t != "" {
		src = append(src, t)
	}
	if settings["vcs.modified"] == "true" {
		src = append(src, "modified")
	}
	line := "kafkagrid " + v
	if len(src) > 0 {
		line += " (" + strings.Join(src, ", ") + ")"
	}
	return line + " " + info.GoVersion
}
