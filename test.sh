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

# The race pass. The race detector finds a data race only where goroutines share memory, and
# checkptr (which -race turns on) checks unsafe conversions: a package none of whose files (code
# or tests) starts a goroutine, takes a lock, serves HTTP, catches a signal or imports unsafe
# gains nothing from running its tests a second time, under -race (a sync.Once or OnceValue
# alone does not count: it is safe by construction). Which packages those are is read from
# their files (race_facts), so a package that gains a goroutine joins the pass by itself;
# test.sh names the packages it leaves out. The tests of every package run whole in the
# library lane.
race_facts='go func|^[[:space:]]*go [A-Za-z_]|sync\.(Mutex|RWMutex|WaitGroup|Pool|Map|Cond)|sync/atomic|"unsafe"|httptest|"net/http"|os/signal|\.Parallel\(\)'
# Of the packages with such code, these run under -race only the tests that exercise it (the
# rest of their tests are single-goroutine work on safe code; docs/testing.md has the costs):
#   package          -run under -race          why
race_only='
./bytegrid         Concurrent                # layout runs on one goroutine; TestConcurrentPaint paints one Diagram from four
./tree             Concurrent                # the same
./capture          Concurrent                # no goroutine of its own: TestConcurrentStream runs Read and two recycling Streams at once
./kafka            JSON|TestRecords|ArenaStrings|TestTexts|TestEnums # no goroutine: checkptr on the unsafe views (jsonSafe8, record header keys, the arena strings), each reached by these tests
./textbytes        .  -skip Memory           # every test reaches the unsafe views; the memory bounds (1-2 MiB inputs) reach no other
./site/reference   TestBuildMachinery|TestBuildCanceled|TestBuildContentError|TestBookSameBytes # the workers and book writer of a build: a whole 4.0 build in every format, cancelled, failing, and with 1 and 4 workers
'
# The command's end-to-end tests that run its own goroutines (signals, the server, a killed or
# locked build, streamed decodes, probe); the rest of them drive one child process or browser
# after another and cost the race pass minutes for no goroutine of the command's.
race_cmd='Signal|SIGTERM|Serve|BuildKilled|BuildLock|Streamed|Probe'

# race_whole: the library packages whose files show concurrent or unsafe code and that are not
# in race_only; race_left: those that show none.
race_whole="" race_left="" module=$(go list -m)
for pkg in $libs; do
  dir=.${pkg#"$module"}
  ls "$dir"/*_test.go >/dev/null 2>&1 || continue # no tests: nothing to run twice
  if ! grep -q -E "$race_facts" "$dir"/*.go; then
    race_left="$race_left ${dir#./}"
  elif ! grep -q "^$dir " <<<"$race_only"; then
    race_whole="$race_whole $dir"
  fi
done
echo "test.sh: not under -race (no goroutine, lock, server, signal or unsafe in their files):$race_left"
race_pass() {
  local status=0 dir pattern extra
  [ -z "$race_whole" ] || go test -race -short -count=1 -timeout "$timeout" $race_whole || status=1
  while read -r dir pattern extra; do
    [ -n "$dir" ] || continue
    extra=${extra%%#*}
    go test -race -short -count=1 -timeout "$timeout" -run "$pattern" $extra "$dir" || status=1
  done <<<"$race_only"
  # Run even when a library package failed: one failure must not hide another.
  go test -race -short -count=1 -timeout "$timeout" -run "$race_cmd" ./cmd/... || status=1
  return "$status"
}
lane "the race pass" race_pass &
race=$!
lane "the command's end-to-end tests" go test -count=1 -timeout "$timeout" ./cmd/... &
e2e=$!
# The library lane runs in a subshell of its own like the other two: bash's `time` counts the
# CPU of every child the shell reaps while it runs, so a lane timed in the main shell would
# count the other lanes' CPU too when they end first.
library_lane() {
  local status=0
  lane "the library packages' tests" go test -count=1 -timeout "$timeout" $libs || status=1
  if [ -n "${CI:-}" ] || [ -n "${FUZZTIME:-}" ]; then
    lane "the fuzz targets" bash .ci/fuzz || status=1
  fi
  return "$status"
}
library_lane &
lib=$!
status=0
wait "$race" || status=1
wait "$e2e" || status=1
wait "$lib" || status=1
exit "$status"
