package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// defaultRelease is the release picked from a folder of releases when -release is not given.
const defaultRelease = "4.0"

// addSchemaFlags adds -schemas and -release to a verb's flags; resolveSchemas turns their values
// into one release's folder.
func addSchemaFlags(fs *flag.FlagSet) (schemas, release *string) {
	schemas = fs.String("schemas", "", "`DIR` of Kafka message specs: one release's folder (a Kafka checkout's\n"+
		"clients/src/main/resources/common/message) or a folder of releases (3.9/, 4.0/, …);\n"+
		"default $KAFKA_SCHEMAS")
	release = fs.String("release", "", "`RELEASE` to use when the schemas folder holds several releases (default \""+defaultRelease+"\")")
	return schemas, release
}

// resolveSchemas finds the folder of one release's specs: schemasFlag, else $KAFKA_SCHEMAS.
// Either may name a release folder (one holding *.json files) or a folder of releases, from
// which releaseFlag picks one. With neither set, the error says where to get the schemas.
func resolveSchemas(schemasFlag, releaseFlag string) (dir string, err error) {
	src, from := schemasFlag, "-schemas"
	if src == "" {
		src, from = os.Getenv("KAFKA_SCHEMAS"), "KAFKA_SCHEMAS"
	}
	if src == "" {
		return "", usagef("no Kafka schemas: give -schemas DIR or set KAFKA_SCHEMAS to a Kafka checkout's " +
			"clients/src/main/resources/common/message folder, or to a folder of releases such as " +
			"../shared/kafka-schemas (then -release picks one, default " + defaultRelease + ")")
	}
	fi, err := os.Stat(src)
	if err != nil {
		return "", fmt.Errorf("%s: %w", from, err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%s: %s is not a folder", from, src)
	}
	if isReleaseDir(src) {
		if releaseFlag != "" && releaseFlag != filepath.Base(filepath.Clean(src)) {
			return "", usagef("-release %s does not apply: %s %s is one release's folder (%s), not a folder of releases",
				releaseFlag, from, src, filepath.Base(filepath.Clean(src)))
		}
		return src, nil
	}
	if releaseFlag == "" {
		releaseFlag = defaultRelease
	}
	if strings.ContainsAny(releaseFlag, `/\`) || releaseFlag == "." || releaseFlag == ".." {
		return "", usagef("-release %q: want a release folder name such as %s", releaseFlag, defaultRelease)
	}
	dir = filepath.Join(src, releaseFlag)
	if isReleaseDir(dir) {
		return dir, nil
	}
	if rels := releasesIn(src); len(rels) > 0 {
		return "", fmt.Errorf("%s: %s has no release %q (it has %s); choose one with -release",
			from, src, releaseFlag, strings.Join(rels, ", "))
	}
	return "", fmt.Errorf("%s: %s holds no *.json message specs, nor release folders of them", from, src)
}

// isReleaseDir reports whether dir holds *.json files: one release's specs.
func isReleaseDir(dir string) bool {
	m, err := filepath.Glob(filepath.Join(dir, "*.json"))
	return err == nil && len(m) > 0
}

// releasesIn returns the sub-folders of dir that are release folders, sorted.
func releasesIn(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() && isReleaseDir(filepath.Join(dir, e.Name())) {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out
}
