//go:build !js

package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/kafkagrid/kafkagrid/site/outdir"
)

// Exit statuses: 0 success, 1 failure (diff: the releases differ), 2 a usage error (diff:
// trouble), 130 interrupted (SIGINT), 143 terminated (SIGTERM).
const (
	exitInterrupted = 130
	exitTerminated  = 143
)

// main runs the command line. The browser decoder is a program of its own
// (cmd/kafkagrid-decoder).
func main() {
	fatalNotUsage()
	temps := &outdir.Temps{}
	grace := &atomic.Int64{}
	ctx, cancel := context.WithCancel(context.WithValue(context.WithValue(context.Background(), tempsKey{}, temps), graceKey{}, grace))
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- runSafely(func() error { return run(ctx, os.Args[1:], os.Stdout, os.Stderr) }) }()
	select {
	case err := <-done:
		os.Exit(exitCode(err, os.Stderr))
	case sig := <-sigs:
		cancel()
		select {
		case <-done:
		case <-time.After(max(stopWithin, time.Duration(grace.Load()))):
			temps.RemoveAll() // the verb did not stop in time: what it was writing goes
		}
		status, what := exitInterrupted, "interrupted"
		if sig == syscall.SIGTERM {
			status, what = exitTerminated, "terminated"
		}
		fmt.Fprintln(os.Stderr, "kafkagrid:", what)
		os.Exit(status)
	}
}
