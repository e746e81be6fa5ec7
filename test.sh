#!/usr/bin/env bash
# The test command: go vet; the whole suite (every version of every release built, pages in a
# browser, the book checked with qpdf and poppler); then the whole suite again under the race
# detector with -short, where the tests that build every release or drive the browser step
# aside and the shared 4.0 build is cut to the highest versions: the same concurrent code
# (the build's workers, the book writer, signals) runs on a smaller input.
# Needs KAFKA_SCHEMAS (default ../shared/kafka-schemas) and, for the PDF and browser checks,
# qpdf, poppler-utils and chromium (bash .ci/run installs them).
set -euo pipefail
cd "$(dirname "$0")"
export GOTOOLCHAIN=go1.27.3 # the toolchain line of go.mod, also where GOTOOLCHAIN=local
export KAFKA_SCHEMAS="${KAFKA_SCHEMAS:-$(cd .. && pwd)/shared/kafka-schemas}"
go generate ./cmd/kafkagrid # the browser decoder the command embeds (README: the decoder in the browser)
go vet ./...
go test -count=1 -timeout 20m ./...
go test -race -short -count=1 -timeout 20m ./...
