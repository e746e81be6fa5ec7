// Package heapfloor makes a process that streams collect its garbage less often while its
// live heap is small: Hold allocates a block that is never written (so it takes address
// space, not memory: its pages are never touched) and keeps it alive. The collector's goal is
// then the live heap plus the block, times 1+GOGC/100, so a streaming decoder whose live
// heap is a few MiB runs a cycle every tens of MiB it allocates instead of every few, and
// one whose live heap is large (a 100 MiB frame) collects as GOGC says, the block a small
// part of its goal. Unlike GOGC=off with a memory limit, it cannot make the collector run
// without end when the live heap outgrows a limit.
//
// It is for a command's main path (one call, held to the end), not for a library: the
// collector's goal is the process's. An environment that sets GOGC or GOMEMLIMIT is the
// user's choice, and Hold then does nothing.
package heapfloor

import (
	"os"
	"runtime"
)

// Hold keeps a block of n bytes alive until the returned release is called, unless the
// environment sets GOGC or GOMEMLIMIT (then it does nothing).
func Hold(n int) (release func()) {
	if n <= 0 || os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	block := make([]byte, n) // never written: fresh pages from the system are zero
	return func() { runtime.KeepAlive(block) }
}
