package releasedir

import (
	"fmt"
	"strings"
)

// Pick returns the releases of all (a folder's, in version order, as List gives them) that
// pick names, in the same order: all for "", a list ("3.9,4.0"), or a range ("2.2-4.1", both
// ends in all; for names with dashes of their own, "3.9-4.0-trunk", the dash where both ends
// are names). Its errors say what of pick names none, as the command's -releases.
func Pick(all []string, pick string) ([]string, error) {
	pick = strings.TrimSpace(pick)
	if pick == "" {
		return all, nil
	}
	pos := map[string]int{}
	for i, r := range all {
		pos[r] = i
	}
	have := func(r string) (int, error) {
		i, ok := pos[r]
		if !ok {
			return 0, fmt.Errorf("-releases: no release %q (the folder has %s)", r, strings.Join(all, ", "))
		}
		return i, nil
	}
	want := map[int]bool{}
	for _, part := range strings.Split(pick, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			return nil, fmt.Errorf("-releases %q: an empty name", pick)
		}
		if lo, hi, ok := splitRange(all, part); ok && !isName(all, part) {
			i, err := have(lo)
			j, err2 := have(hi)
			switch {
			case err == nil && err2 == nil && i > j:
				return nil, fmt.Errorf("-releases %s: %s comes after %s", part, lo, hi)
			case err == nil && err2 == nil:
				for k := i; k <= j; k++ {
					want[k] = true
				}
				continue
			case err == nil:
				err = err2
			}
			if strings.Count(part, "-") > 1 { // a name with dashes of its own, or a range
				return nil, fmt.Errorf("-releases: no release %q, nor a range of two releases (%s)", part, strings.TrimPrefix(err.Error(), "-releases: "))
			}
			return nil, err
		}
		i, err := have(part)
		if err != nil {
			return nil, err
		}
		want[i] = true
	}
	var out []string
	for i, r := range all {
		if want[i] {
			out = append(out, r)
		}
	}
	return out, nil
}

// splitRange splits a range of releases "LO-HI" at the dash where both ends are releases in
// names, for names with dashes of their own ("3.9-4.0-trunk-2024-10"); when no dash does, at
// the first one, so that the error names the end that is not there.
func splitRange(names []string, part string) (lo, hi string, ok bool) {
	for i := range len(part) {
		if part[i] != '-' {
			continue
		}
		l, h := strings.TrimSpace(part[:i]), strings.TrimSpace(part[i+1:])
		if !ok {
			lo, hi, ok = l, h, true
		}
		if isName(names, l) && isName(names, h) {
			return l, h, true
		}
	}
	return lo, hi, ok
}

func isName(names []string, s string) bool {
	for _, n := range names {
		if n == s {
			return true
		}
	}
	return false
}
