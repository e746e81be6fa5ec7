//go:build race

package main

// raceEnabled is true when the tests run with the race detector, which makes builds many times
// slower: the heaviest tests then build less (and say so), the quick run without -race doing
// the rest.
const raceEnabled = true
