// Package suggest says what a mistyped name was meant to be: the "did you mean" of every
// verb, flag, API and diagram key.
package suggest

import (
	"sort"
	"strings"
)

// Closest returns the candidate nearest to word, ignoring case, when it is near enough to be
// what was meant (an edit distance, a swap of two letters counting one, of at most a third of
// the word, and 1 at least), or a candidate word is a prefix of; "" otherwise. A word longer
// than any name (64 bytes) gets "": the distance's cost follows the word's length.
func Closest(word string, candidates []string) string {
	if len(word) > 64 {
		return "" // no name is that long; and the distance's cost follows the word's length
	}
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

// editDistance is the optimal string alignment distance of a and b: insertions, deletions,
// substitutions and swaps of two neighbours, each 1.
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
