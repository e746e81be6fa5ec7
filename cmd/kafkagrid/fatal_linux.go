//go:build linux

package main

import (
	"runtime/debug"
	"syscall"
)

// fatalNotUsage makes a fatal error of the Go runtime (out of memory above all) end the
// process with SIGABRT (exit status 134 in a shell) instead of the runtime's exit status 2,
// which is a usage error's here; the process is made not dumpable first, so that the abort
// leaves no core file (a core of a process out of memory is as large as its memory).
func fatalNotUsage() {
	const prSetDumpable = 4
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetDumpable, 0, 0); errno != 0 {
		return // dumpable: an abort could write a core; keep the runtime's exit
	}
	debug.SetTraceback("crash")
}
