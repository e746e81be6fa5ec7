#!/usr/bin/env bash
# The test command: go vet; the whole suite (every version of every release built, pages in a
# browser, the book checked with qpdf and poppler); then the library packages and the
# command's concurrent tests again under the race detector with -short, where the tests that
# build every release or drive the browser step aside and the heavy data tests run on the
# newest releases: the same concurrent code (the build's workers, the book writer, signals,
# the server) and the same unsafe conversions (checkptr, which -race turns on) run on a
# smaller input.
#
# Three lanes run side by side, each started at once, so that no lane waits for another with a
# core idle:
#   - the race pass (the longest: every library package, then the command's concurrent tests);
#   - the end-to-end tests of the command (./cmd/..., one long test binary that waits on
#     Chromium, qpdf and child processes, a core's fraction of CPU);
#   - the library packages' tests, then (with CI or FUZZTIME set) every fuzz target for a short
#     fixed time (.ci/fuzz), in the CPU the other two leave.
# Each lane says how it ended and its wall time and CPU (user, system).
# Needs KAFKA_SCHEMAS (default ../shared/kafka-schemas) and, for the PDF and browser checks,
# qpdf, poppler-utils and chromium (bash .ci/run installs them).
set -euo pipefail
cd "$(dirname "$0")"
export GOTOOLCHAIN=go1.27.3 # the toolchain line of go.mod, also where GOTOOLCHAIN=local
export KAFKA_SCHEMAS="${KAFKA_SCHEMAS:-$(cd .. && pwd)/shared/kafka-schemas}"
# -timeout is a hang guard, not a speed limit: 90 minutes, CI's limit for the whole run, so that
# no load, however heavy, fails a test binary before CI itself would stop (a test binary costs
# at most a few CPU-minutes; a hang still ends, with every goroutine's stack).
timeout=90m
go generate ./cmd/kafkagrid # the browser decoder the command embeds (README: the decoder in the browser)
go vet ./...
go build ./... # compiled once here, not by every lane at once

libs=$(go list ./... | grep -v '/cmd/')
lane() { # lane NAME COMMAND...: runs the command and says how it ended and what it cost
  local name=$1 TIMEFORMAT; shift
  TIMEFORMAT="test.sh: $name: %R s wall, %U s user, %S s system CPU"
  if time "$@"; then echo "test.sh: $name passed"; else echo "test.sh: $name FAILED"; return 1; fi
}
# The race pass: every library package (where the concurrent code is: the build's workers and
# book writer, the capture stream, the server, the pools; and the unsafe conversions of kafka,
# textbytes and internal/arena), and of the command's end-to-end tests those that run its own
# goroutines (signals, the server, a killed or locked build, streamed decodes, probe); the
# rest of them drive one child process or browser after another and cost the race pass
# minutes for no goroutine of the command's.
race_cmd='Signal|SIGTERM|Serve|BuildKilled|BuildLock|Streamed|Probe'
lane "the race pass" sh -c "go test -race -short -count=1 -timeout $timeout $(echo $libs) && go test -race -short -count=1 -timeout $timeout -run '$race_cmd' ./cmd/..." &
race=$!
lane "the command's end-to-end tests" go test -count=1 -timeout "$timeout" ./cmd/... &
e2e=$!
status=0
lane "the library packages' tests" go test -count=1 -timeout "$timeout" $libs || status=1
if [ -n "${CI:-}" ] || [ -n "${FUZZTIME:-}" ]; then
  lane "the fuzz targets" bash .ci/fuzz || status=1
fi
wait "$race" || status=1
wait "$e2e" || status=1
exit "$status"
