package testenv

import (
	"testing"
	"time"
)

// Poll calls done every few milliseconds until it returns true. It has no deadline of its own
// (a loaded machine runs many times slower, and no count of tries or seconds is long enough
// for every load): the test's -timeout is the guard. When the test has a deadline, Poll fails
// it, naming what it waited for, a little before the deadline, so that the failure says what
// never happened instead of a panic listing goroutines.
func Poll(t *testing.T, what string, done func() bool) {
	t.Helper()
	dl, hasDL := t.Deadline()
	for !done() {
		if hasDL && time.Until(dl) < 5*time.Second {
			t.Fatalf("still waiting, at the test's deadline, for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
