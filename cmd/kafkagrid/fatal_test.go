//go:build linux

package main

import (
	"errors"
	"os"
	"os/exec"
	"runtime/debug"
	"syscall"
	"testing"
)

// TestFatalNotUsage: a fatal error of the runtime (here a stack overflow, which ends the
// process as running out of memory does) ends kafkagrid by SIGABRT, not with exit status 2,
// a usage error's.
func TestFatalNotUsage(t *testing.T) {
	if os.Getenv("KAFKAGRID_TEST_FATAL") == "1" {
		fatalNotUsage()
		debug.SetMaxStack(1 << 20)
		var deep func(int) int
		deep = func(n int) int { return deep(n+1) + 1 }
		deep(0)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestFatalNotUsage$")
	cmd.Env = append(os.Environ(), "KAFKAGRID_TEST_FATAL=1")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("%v: %.300s", err, out)
	}
	ws, _ := ee.Sys().(syscall.WaitStatus)
	if ee.ExitCode() == 2 || !ws.Signaled() || ws.Signal() != syscall.SIGABRT {
		t.Errorf("exit %d (%v): want SIGABRT: %.300s", ee.ExitCode(), ws, out)
	}
}
