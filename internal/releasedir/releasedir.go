// Package releasedir reads a folder of Kafka releases (2.8/, 3.9/, 4.0/, …, each a folder of
// *.json message specs) and orders release names by version, in one place for the command,
// the tests and every verb that lists such a folder.
//
// A folder of releases is input: its entries may be symbolic links to release folders kept
// elsewhere (a folder that gathers releases from several checkouts), and those are read as the
// folders they point to. A link that points nowhere, or at itself through a loop of links, is
// an error that names it.
package releasedir

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// MaxEntries bounds how many entries of a folder of releases are looked at: Kafka has had a
// few dozen releases; a folder with more entries than this is not a folder of releases.
const MaxEntries = 4096

// maxLinkHops bounds how many symbolic links are followed, one after another, to tell a loop.
const maxLinkHops = 64

// IsRelease reports whether dir holds message specs (*.json): one release's folder. It reads
// the folder's names until the first spec, without filepath.Glob's matching of each name (and
// of dir, whose name may hold a pattern's characters, "[" or "*").
func IsRelease(dir string) bool {
	f, err := os.Open(dir)
	if err != nil {
		return false
	}
	defer f.Close()
	for {
		names, err := f.Readdirnames(256)
		for _, n := range names {
			if strings.HasSuffix(n, ".json") {
				return true
			}
		}
		if err != nil || len(names) == 0 {
			return false
		}
	}
}

// List returns the names of the entries of dir that are release folders (folders holding
// *.json specs), or symbolic links to such folders, in version order (Compare). Other entries
// (files, folders without specs, links to those) are left out. A link that dangles or loops is
// an error naming it, returned with the releases the other entries are (for a caller that
// can go on without it); a folder with more than MaxEntries entries is an error alone.
func List(dir string) ([]string, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("releases folder: %w", err)
	}
	defer f.Close()
	entries, err := f.ReadDir(MaxEntries + 1)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("releases folder %s: %w", dir, err)
	}
	if len(entries) > MaxEntries {
		return nil, fmt.Errorf("releases folder %s: more than %d entries, more than a folder of releases has", dir, MaxEntries)
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) }) // errors in a stable order
	var out []string
	var errs []error
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		isDir := e.IsDir()
		if e.Type()&fs.ModeSymlink != 0 {
			fi, err := Follow(path)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			isDir = fi.IsDir()
		}
		if isDir && IsRelease(path) {
			out = append(out, e.Name())
		}
	}
	slices.SortStableFunc(out, Compare)
	if err := errors.Join(errs...); err != nil {
		return out, fmt.Errorf("releases folder %s: %w", dir, err)
	}
	return out, nil
}

// Follow stats path, following symbolic links, and says plainly why it cannot: a link to
// nothing (dangling), or a loop of links.
func Follow(path string) (fs.FileInfo, error) {
	fi, err := os.Stat(path)
	if err == nil {
		return fi, nil
	}
	lfi, lerr := os.Lstat(path)
	if lerr != nil || lfi.Mode()&fs.ModeSymlink == 0 {
		return nil, err
	}
	target, _ := os.Readlink(path)
	if chain, loop := linkLoop(path); loop {
		return nil, fmt.Errorf("%s: a loop of symbolic links (%s)", path, strings.Join(chain, " → "))
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: a dangling symbolic link: its target %s does not exist", path, target)
	}
	return nil, fmt.Errorf("%s: a symbolic link to %s that cannot be followed: %w", path, target, err)
}

// linkLoop follows the chain of links from path, one link at a time, and reports whether it
// comes back to a link it passed (or is longer than maxLinkHops), with the chain followed.
func linkLoop(path string) ([]string, bool) {
	seen := map[string]bool{}
	chain := []string{path}
	p := filepath.Clean(path)
	for range maxLinkHops {
		if seen[p] {
			return chain, true
		}
		seen[p] = true
		fi, err := os.Lstat(p)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return chain, false
		}
		t, err := os.Readlink(p)
		if err != nil {
			return chain, false
		}
		chain = append(chain, t)
		if !filepath.IsAbs(t) {
			t = filepath.Join(filepath.Dir(p), t)
		}
		p = filepath.Clean(t)
	}
	return chain, true
}

// Compare orders release names by version, -1, 0 or +1:
//   - by their leading dotted numbers, as numbers ("2.8" < "3.9" < "3.10" < "4.0" < "10.0");
//   - a name with text after its numbers ("4.0-trunk-2024-10", "4.1.0-rc1", "4.0-SNAPSHOT") is
//     a snapshot or candidate before that release, so it comes after the release before
//     ("3.9") and before the release itself ("4.0"); two such texts are compared piece by
//     piece, numbers as numbers ("rc2" < "rc10");
//   - "4.0" and "4.0.0" are the same version, the shorter first;
//   - a name that does not start with a version ("trunk", "notes") comes after every version,
//     by name.
func Compare(a, b string) int {
	na, ra, oka := splitVersion(a)
	nb, rb, okb := splitVersion(b)
	switch {
	case !oka && !okb:
		return strings.Compare(a, b)
	case oka != okb:
		if oka {
			return -1
		}
		return 1
	}
	for i := range max(len(na), len(nb)) {
		var x, y int
		if i < len(na) {
			x = na[i]
		}
		if i < len(nb) {
			y = nb[i]
		}
		if x != y {
			return cmpInt(x, y)
		}
	}
	switch {
	case ra == "" && rb != "":
		return 1 // the release after its snapshots
	case ra != "" && rb == "":
		return -1
	}
	if c := naturalCompare(ra, rb); c != 0 {
		return c
	}
	if c := cmpInt(len(na), len(nb)); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

// splitVersion splits "4.0-trunk-2024-10" into [4 0] and "trunk-2024-10"; ok is false when
// the name does not start with a number.
func splitVersion(s string) ([]int, string, bool) {
	var nums []int
	rest := s
	for {
		i := 0
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		if i == 0 || i > 9 {
			break
		}
		n, _ := strconv.Atoi(rest[:i])
		nums = append(nums, n)
		rest = rest[i:]
		if len(rest) < 2 || rest[0] != '.' || rest[1] < '0' || rest[1] > '9' {
			break
		}
		rest = rest[1:]
	}
	if len(nums) == 0 {
		return nil, "", false
	}
	return nums, strings.TrimLeft(rest, "-+._"), true
}

// naturalCompare compares two texts with their runs of digits as numbers.
func naturalCompare(a, b string) int {
	for a != "" && b != "" {
		da, db := digits(a), digits(b)
		if da > 0 && db > 0 {
			x, y := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if c := cmpInt(len(x), len(y)); c != 0 {
				return c
			}
			if c := strings.Compare(x, y); c != 0 {
				return c
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return cmpInt(int(a[0]), int(b[0]))
		}
		a, b = a[1:], b[1:]
	}
	return cmpInt(len(a), len(b))
}

func digits(s string) int {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

func cmpInt(x, y int) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}
